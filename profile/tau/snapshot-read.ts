/**
 * Reader of TAU's XML profiles, following ParaProf's `SnapshotDataSource` and
 * `SnapshotXMLHandler`: the snapshot files `snapshot.N.C.T` that TAU writes per thread with
 * `TAU_PROFILE_FORMAT=snapshot` (or at each `TAU_PROFILE_SNAPSHOT`), the single `tauprofile.xml`
 * of `TAU_PROFILE_FORMAT=merged`, and Score-P's `tau_snapshot` profiles; each plain or
 * gzip-compressed. A file is one or more `<profile_xml>` documents:
 *
 * ```
 * <profile_xml>
 * <thread id="1.0.0.3669" node="1" context="0" thread="0"><metadata>...</metadata></thread>
 * <definitions thread="1.0.0.3669">          (thread="*": definitions every later thread shares)
 *   <metric id="0"><name>TIME</name><units>unknown</units></metric>
 *   <event id="8"><name>int main(int, char **) C</name><group>TAU_DEFAULT</group></event>
 *   <userevent id="0"><name>Message size for broadcast</name></userevent>
 * </definitions>
 * <profile thread="1.0.0.3669"><name>final</name><timestamp>1436320430136403</timestamp>
 *   <interval_data metrics="0 ">               event calls subrs, then exclusive inclusive per metric listed
 *   8 1 6 144 76225
 *   </interval_data>
 *   <atomic_data>                              user event, samples, max, min, mean, sum of squares
 *   </atomic_data>
 * </profile>
 * </profile_xml>
 * ```
 *
 * A thread may have several `<profile>` blocks, snapshots taken as it ran; their values are
 * totals so far, and, as in ParaProf's default view, the last one is the thread's profile (also
 * when two thread ids name one node, context and thread, each with its own definitions). A
 * merged file's `<derivedprofile>` blocks (TAU's own mean, total, min, max and standard deviation)
 * are not read: the trial's views are computed from the threads as for every other format. A
 * `<thread>` given twice (a merged file repeats rank 0's, with more metadata) is one thread. As
 * for TAU text profiles, names are normalized as ParaProf does (TAU writes a timer as its name, a
 * space and its type, so most end in a space), and thread 0,0,0's metadata is every thread's
 * default. Unlike ParaProf, which prints a message and skips the rest of a block, an undefined
 * event id, a row of the wrong length, a second `<interval_data>` or `<atomic_data>` in one
 * `<profile>` or a malformed tag is an error naming file and line.
 *
 * @packageDocumentation
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { constants } from "node:buffer";
import { TrialBuilder } from "../builder.js";
import { ProfileError, ProfileFormatError, ProfileModelError } from "../errors.js";
import type { Trial } from "../model.js";
import { inflatedInput, inputIsDirectory, readInputBytes } from "../gzip-input.js";
import { parseMetadataXml } from "./xml.js";
import { scanNumbers, type TrialReadOptions } from "./text-read.js";
import { XML_END, XML_EOF, XML_START, XML_TEXT, XmlScanner, XmlSyntaxError } from "./xml-scanner.js";

/** Characters XML 1.0 does not allow (all C0 controls but tab, line feed and carriage return). */
const CONTROL_CHARACTERS = /[\x00-\x08\x0B\x0C\x0E-\x1F]/;
const CONTROL_CHARACTERS_ALL = new RegExp(CONTROL_CHARACTERS.source, "g");

const SNAPSHOT_FILE = /^snapshot\.(\d+)\.(\d+)\.(\d+)$/;

/** Node, context and thread of a snapshot file name `snapshot.N.C.T`, or undefined. */
export function parseSnapshotFileName(name: string): [number, number, number] | undefined {
  const m = SNAPSHOT_FILE.exec(basename(name));
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** The name TAU gives a merged profile (`TAU_PROFILE_FORMAT=merged`), and compressed. */
const MERGED_FILES = ["tauprofile.xml", "tauprofile.xml.gz"];

/**
 * The XML profile files of directory `dir`: its snapshot files (`snapshot.N.C.T`, by node,
 * context and thread), else its `tauprofile.xml` (or `.xml.gz`), else none.
 */
export function listTauXmlFiles(dir: string): string[] {
  const snapshots = snapshotFilesIn(dir);
  if (snapshots.length > 0) return snapshots;
  const names = new Set(readdirSync(dir));
  const merged = MERGED_FILES.find((f) => names.has(f));
  return merged === undefined ? [] : [join(dir, merged)];
}

/** The snapshot files (`snapshot.N.C.T`) of directory `dir`, by node, context and thread. */
function snapshotFilesIn(dir: string): string[] {
  const names = readdirSync(dir).filter((f) => SNAPSHOT_FILE.test(f));
  names.sort((a, b) => {
    const x = parseSnapshotFileName(a)!;
    const y = parseSnapshotFileName(b)!;
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  return names.map((f) => join(dir, f));
}

/**
 * Whether text is a TAU XML profile: after an optional byte order mark, white space, an XML
 * declaration or comments, a `<profile_xml>` element. The text may be the file's beginning only,
 * as long as it reaches that element (a preamble it cuts gives false).
 */
export function isTauXmlText(head: string): boolean {
  // A scan in one pass (why not one regular expression: a repeated lazy group of comments
  // backtracks through every way of grouping them before failing, exponential in their number).
  const space = /\s*/y;
  let i = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  const skipSpace = (): void => {
    space.lastIndex = i;
    space.test(head);
    i = space.lastIndex;
  };
  skipSpace();
  if (head.startsWith("<?", i)) {
    const end = head.indexOf("?>", i + 2);
    if (end < 0) return false;
    i = end + 2;
    skipSpace();
  }
  while (head.startsWith("<!--", i)) {
    const end = head.indexOf("-->", i + 4);
    if (end < 0) return false;
    i = end + 3;
    skipSpace();
  }
  return /^<profile_xml[\s>]/.test(head.slice(i, i + 13));
}

/** Options of the TAU XML readers. */
export interface TauXmlReadOptions extends TrialReadOptions {
  /**
   * Which snapshot of each thread is its profile (TAU writes one `<profile>` per snapshot, each
   * the totals so far): an index, 0 the first and -1 the last, or a snapshot's name (the last of
   * that name). Default: the last. A thread that has no such snapshot is an error.
   */
  readonly snapshot?: number | string;
}

/** One XML profile's text and the name it is reported under. */
export interface TauXmlFileText {
  /** The file's name, as messages give it. */
  readonly path: string;
  /** Its text (decompressed). */
  readonly text: string;
}

/**
 * Reads a TAU XML profile: a file (`tauprofile.xml`, `snapshot.N.C.T`, Score-P's
 * `tau/snapshot.R.0.0`; plain or gzip) or a directory of them (see {@link listTauXmlFiles}).
 * @throws ProfileFormatError naming the file and line of what is malformed.
 * @throws ProfileError when the path cannot be read.
 */
export function readTauXmlProfile(path: string, options: TauXmlReadOptions = {}): Trial {
  const isDir = inputIsDirectory(path);
  const files = isDir ? listTauXmlFiles(path) : [path];
  if (files.length === 0) throw new ProfileFormatError(path, undefined, "no TAU XML profile (snapshot.N.C.T files, tauprofile.xml) in this directory");
  return readTauXmlFiles(files, { ...options, source: path });
}

/**
 * Reads XML profile files into one trial. Each file is read when its turn comes, and its text
 * decoded `pieceBytes` at a time (see {@link textPieces}).
 * @internal
 */
export function readTauXmlFiles(files: readonly string[], options: TauXmlReadOptions & { source?: string }, pieceBytes = PIECE_BYTES): Trial {
  return parseSources(
    files.map((f) => ({ path: f, pieces: () => textPieces(f, readXmlBytes(f), pieceBytes) })),
    options,
  );
}

/** The bytes of an XML profile file, decompressed when it is gzip. */
function readXmlBytes(path: string): Buffer {
  const bytes = inflatedInput(readInputBytes(path), path);
  // A view of the same memory, not a copy (a merged profile may be hundreds of megabytes).
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Bytes decoded at once, at most (unless one `<profile_xml>` document is longer): a string holds
 * at most 2^29 - 24 characters, and the merged profile of a large run is longer.
 */
const PIECE_BYTES = 1 << 27;
const DOCUMENT_END = Buffer.from("</profile_xml>");

/** Part of a file's text, and the number of lines before it (counted when an error needs it). */
interface TextPiece {
  readonly text: string;
  linesBefore(): number;
}

/** A file to read: its name (for messages) and its text, in one or more pieces. */
interface XmlSource {
  readonly path: string;
  pieces(): Iterable<TextPiece>;
}

/**
 * The text of `bytes` (UTF-8), in pieces of about `pieceBytes` each ending after a
 * `</profile_xml>` end tag, so that each piece is whole documents.
 * @throws ProfileFormatError when one document is longer than a string can be.
 */
function* textPieces(path: string, bytes: Buffer, pieceBytes = PIECE_BYTES): Generator<TextPiece> {
  let from = 0;
  do {
    let end = bytes.length;
    if (end - from > pieceBytes) {
      // After the last document that ends within the piece, else after the first one past it.
      const last = bytes.lastIndexOf(DOCUMENT_END, from + pieceBytes - DOCUMENT_END.length);
      const cut = last >= from ? last : bytes.indexOf(DOCUMENT_END, from + pieceBytes);
      if (cut >= 0) end = cut + DOCUMENT_END.length;
    }
    let text: string;
    try {
      text = bytes.toString("utf8", from, end);
    } catch (e) {
      if ((e as { code?: string }).code !== "ERR_STRING_TOO_LONG") throw e;
      const line = linesIn(bytes, from) + 1;
      throw new ProfileFormatError(path, line, `a <profile_xml> document of ${end - from} bytes, more than this reader can hold as text (${constants.MAX_STRING_LENGTH} characters)`);
    }
    const start = from;
    yield { text, linesBefore: () => linesIn(bytes, start) };
    from = end;
  } while (from < bytes.length);
}

/** The number of line feeds in `bytes` before offset `end`. */
function linesIn(bytes: Buffer, end: number): number {
  let lines = 0;
  for (let i = bytes.indexOf(10); i >= 0 && i < end; i = bytes.indexOf(10, i + 1)) lines++;
  return lines;
}

/**
 * Ids of one definitions table (a thread's, or the shared `*` one) to the trial's indices. The
 * tables are indexed by id and sparse where the ids are (an id is any non-negative integer: filling
 * the gaps up to a huge one would exhaust memory); a missing entry is an undefined id.
 */
interface Definitions {
  readonly metrics: number[];
  readonly events: number[];
  readonly userEvents: number[];
}

/** A snapshot of a thread (one `<profile>`): its rows, as the trial's indices and the file's values. */
interface Snapshot {
  /** The trial's indices of the metrics of `<interval_data metrics="...">`, in the order listed. */
  metrics: Int32Array;
  readonly timers: number[];
  /** Per row, calls and subroutine calls. */
  readonly counts: number[];
  /** Per row, an exclusive and an inclusive value per metric of `metrics`. */
  readonly values: number[];
  readonly events: number[];
  /** Per user event row: samples, maximum, minimum, mean, sum of squares. */
  readonly eventValues: number[];
}

/**
 * The snapshots of one of the trial's threads: the names of all of them, in order, and the ones
 * kept for the selection (see {@link TauXmlReadOptions.snapshot}): the last one by default or of
 * the name asked for, the one of the index asked for, or the last `-index` ones.
 */
class ThreadSnapshots {
  readonly names: string[] = [];
  kept: Snapshot | undefined;
  keptAt = -1;
  private readonly recent: { snapshot: Snapshot; at: number }[] = [];

  constructor(private readonly wanted: number | string | undefined) {}

  /** Takes the next snapshot of the thread, named `name`. */
  add(snapshot: Snapshot, name: string): void {
    const at = this.names.length;
    this.names.push(name);
    const w = this.wanted;
    if (w === undefined || (typeof w === "string" && name === w) || w === at) {
      this.kept = snapshot;
      this.keptAt = at;
    } else if (typeof w === "number" && w < 0) {
      this.recent.push({ snapshot, at });
      if (this.recent.length > -w) this.recent.shift();
      if (this.recent.length === -w) {
        this.kept = this.recent[0].snapshot;
        this.keptAt = this.recent[0].at;
      }
    }
  }
}

/** A thread as the file names it (its id, `1.0.0.3669`). */
interface ThreadState {
  /** The trial's index of the thread. */
  readonly index: number;
  /** Node, context and thread, as first declared. */
  readonly numbers: string;
  readonly defs: Definitions;
}

/**
 * Parses XML profile texts already in memory (one entry per file), as {@link readTauXmlProfile}
 * does after reading them.
 * @throws ProfileFormatError naming the file and line of what is malformed.
 */
export function parseTauXmlProfiles(files: readonly TauXmlFileText[], options: TauXmlReadOptions & { source?: string } = {}): Trial {
  return parseSources(
    files.map((f) => ({ path: f.path, pieces: () => [{ text: f.text, linesBefore: () => 0 }] })),
    options,
  );
}

/** Reads the files in order into one trial. */
function parseSources(files: readonly XmlSource[], options: TauXmlReadOptions & { source?: string }): Trial {
  const b = new TrialBuilder({ source: options.source });
  // Thread ids (`1.0.0.3669`) are the files' names for threads: one table across the files.
  const threads = new Map<string, ThreadState>();
  // The snapshots of each of the trial's threads, by its index: two ids of one node, context and
  // thread are one thread, as ParaProf has them, whose profile is the later snapshot.
  const snapshots: ThreadSnapshots[] = [];
  const wanted = snapshotWanted(options.snapshot);
  for (const f of files) {
    const reader = new XmlProfileReader(b, threads, snapshots, wanted);
    for (const piece of f.pieces()) {
      try {
        reader.read(piece.text);
      } catch (e) {
        if (e instanceof XmlSyntaxError) throw new ProfileFormatError(f.path, piece.linesBefore() + e.line, e.detail);
        throw e;
      }
    }
    if (reader.documents === 0) throw new ProfileFormatError(f.path, 1, "no <profile_xml> element: not a TAU XML profile");
  }
  if (b.threadCount === 0) throw new ProfileFormatError(options.source ?? files[0]?.path ?? "(profile)", undefined, "no <thread> in this TAU XML profile");
  if (b.metricCount === 0) throw new ProfileFormatError(options.source ?? files[0].path, undefined, "no <metric> is defined in this TAU XML profile");
  snapshots.forEach((s, thread) => {
    if (s.kept === undefined) {
      const id = [...threads.values()].find((t) => t.index === thread)!.numbers;
      const list = s.names.length > 6 ? [...s.names.slice(0, 3), "...", ...s.names.slice(-2)] : s.names;
      throw new ProfileFormatError(options.source ?? files[0].path, undefined, `thread ${id} has no snapshot ${typeof wanted === "string" ? `named '${wanted}'` : `${wanted} (counting ${wanted! < 0 ? "-1 as the last" : "0 as the first"})`}: its ${s.names.length} snapshot(s) are ${list.map((n) => `'${n}'`).join(", ")}`);
    }
    applySnapshot(b, thread, s.kept);
    if (s.names.length > 1) b.setThreadMetadata(thread, "TAU snapshot", `${s.names[s.keptAt]} (${s.keptAt + 1} of ${s.names.length})`);
  });
  const first = b.threadIndex(0, 0, 0);
  if (first >= 0) b.inheritThreadMetadata(first);
  return b.build({ checkInvariants: options.checkInvariants ?? true });
}

/**
 * Enters a thread's chosen snapshot (by default its last) into the trial. Rows of two ids of one name (TAU keeps a timer
 * or user event per id, and may give two the same name) add up, as duplicate lines of a TAU text
 * profile do; ParaProf's XML reader keeps the last row instead.
 */
function applySnapshot(b: TrialBuilder, thread: number, s: Snapshot): void {
  // Metrics the block does not list stay 0.
  const exclusive = new Float64Array(b.metricCount);
  const inclusive = new Float64Array(b.metricCount);
  const metrics = s.metrics;
  const width = 2 * metrics.length;
  for (let r = 0; r < s.timers.length; r++) {
    for (let k = 0; k < metrics.length; k++) {
      exclusive[metrics[k]] = s.values[r * width + 2 * k];
      inclusive[metrics[k]] = s.values[r * width + 2 * k + 1];
    }
    b.addValues(thread, s.timers[r], { calls: s.counts[2 * r], subroutines: s.counts[2 * r + 1], exclusive, inclusive });
  }
  const v = s.eventValues;
  for (let r = 0; r < s.events.length; r++) {
    b.addEventTotals(thread, s.events[r], { count: v[5 * r], max: v[5 * r + 1], min: v[5 * r + 2], mean: v[5 * r + 3], sumSquares: v[5 * r + 4] });
  }
}

/** The snapshot option checked: an integer, or a name (trimmed, not empty). @throws ProfileModelError otherwise */
function snapshotWanted(snapshot: number | string | undefined): number | string | undefined {
  if (snapshot === undefined) return undefined;
  if (typeof snapshot === "number") {
    if (!Number.isSafeInteger(snapshot)) throw new ProfileModelError(`a snapshot is chosen by an integer index (0 the first, -1 the last) or by name, not ${snapshot}`);
    return snapshot;
  }
  const name = snapshot.trim();
  if (name === "") throw new ProfileModelError("a snapshot name must not be empty");
  return name;
}

/** Reads one file's documents into the builder, a piece of its text at a time. */
class XmlProfileReader {
  private sc: XmlScanner = new XmlScanner("");
  /** The shared definitions (`thread="*"`), once the file has given them. */
  private unified: Definitions | undefined;
  private readonly numbers = new Float64Array(64);
  /** The `<profile_xml>` documents read so far. */
  documents = 0;

  constructor(
    private readonly b: TrialBuilder,
    private readonly threads: Map<string, ThreadState>,
    private readonly snapshots: ThreadSnapshots[],
    private readonly wanted: number | string | undefined,
  ) {}

  /** Reads the documents of `text`, whole documents of the file. */
  read(text: string): void {
    // As ParaProf's XMLCleanWrapInputStream: characters XML does not allow become spaces (TAU's
    // merged files hold a NUL after each rank's document, the end of the buffer it was sent in).
    const sc = new XmlScanner(CONTROL_CHARACTERS.test(text) ? text.replace(CONTROL_CHARACTERS_ALL, " ") : text);
    this.sc = sc;
    for (;;) {
      const kind = sc.next();
      if (kind === XML_EOF) break;
      if (kind === XML_TEXT) {
        if (sc.text.trim() !== "") sc.fail(`text outside <profile_xml>: ${clip(sc.text.trim())}`);
        continue;
      }
      if (kind === XML_START) {
        if (sc.name !== "profile_xml") sc.fail(`<${sc.name}> where <profile_xml> was expected: not a TAU XML profile`);
        this.documents++;
        this.readDocument();
      }
    }
  }

  /** The content of one `<profile_xml>`, to its end tag. */
  private readDocument(): void {
    const sc: XmlScanner = this.sc;
    for (;;) {
      const kind = sc.next();
      if (kind === XML_END) return;
      if (kind !== XML_START) continue;
      switch (sc.name) {
        case "thread":
          this.readThread();
          break;
        case "definitions":
          this.readDefinitions();
          break;
        case "profile":
          this.readProfile();
          break;
        default:
          // TAU's derived profiles (`derivedentity`, `derivedprofile`) and anything newer: not read.
          sc.skipElement();
      }
    }
  }

  /** A required attribute of the element just started. */
  private attribute(name: string): string {
    const v = this.sc.attributes.get(name);
    if (v === undefined) this.sc.fail(`<${this.sc.name}> has no '${name}' attribute`);
    return v;
  }

  /** A non-negative integer attribute. */
  private count(name: string): number {
    const text = this.attribute(name);
    if (!/^\s*\d+\s*$/.test(text)) this.sc.fail(`<${this.sc.name}> ${name}="${clip(text)}" is not a non-negative integer`);
    return Number(text);
  }

  private readThread(): void {
    const sc: XmlScanner = this.sc;
    const id = this.attribute("id");
    const node = this.count("node");
    const context = this.count("context");
    const thread = this.count("thread");
    let state = this.threads.get(id);
    if (state === undefined) {
      // Threads declared after shared definitions use them (and the definitions they add go there).
      state = { index: this.b.addThread(node, context, thread), numbers: `${node},${context},${thread}`, defs: this.unified ?? { metrics: [], events: [], userEvents: [] } };
      this.threads.set(id, state);
    } else {
      const numbers = `${node},${context},${thread}`;
      if (numbers !== state.numbers) sc.fail(`thread "${clip(id)}" is ${numbers} here but ${state.numbers} before`);
    }
    for (;;) {
      const kind = sc.next();
      if (kind === XML_END) return;
      if (kind !== XML_START) continue;
      if (sc.name !== "metadata") {
        sc.skipElement();
        continue;
      }
      // (Named at its <metadata> line: the block is parsed as one text.)
      const at = sc.start;
      const body = sc.skipElement() ?? "";
      const pairs = parseMetadataXml(body);
      if (typeof pairs === "string") sc.fail(`malformed metadata of thread "${id}": ${pairs}`, at);
      for (const [k, v] of pairs) if (k !== "Metric Name") this.b.setThreadMetadata(state.index, k, v);
    }
  }

  private readDefinitions(): void {
    const sc: XmlScanner = this.sc;
    const of = this.attribute("thread");
    let defs: Definitions;
    if (of === "*") {
      this.unified ??= { metrics: [], events: [], userEvents: [] };
      defs = this.unified;
    } else {
      const t = this.threads.get(of);
      if (t === undefined) sc.fail(`definitions of thread "${clip(of)}", which no <thread> before them declares`);
      defs = t.defs;
    }
    for (;;) {
      const kind = sc.next();
      if (kind === XML_END) return;
      if (kind !== XML_START) continue;
      const element = sc.name;
      if (element !== "metric" && element !== "event" && element !== "userevent") {
        sc.skipElement();
        continue;
      }
      const id = this.count("id");
      const at = sc.start;
      const { name, group } = this.children(element);
      if (name === undefined || name.trim() === "") sc.fail(`<${element} id="${id}"> has no name`, at);
      const table = element === "metric" ? defs.metrics : element === "event" ? defs.events : defs.userEvents;
      if (element === "metric") table[id] = this.b.addMetric(name.trim());
      else if (element === "event") table[id] = this.b.timer(name, group === undefined ? [] : group.split("|"), group);
      else table[id] = this.b.userEvent(name);
    }
  }

  /** The texts of the `<name>` and `<group>` children of the element just started, to its end. */
  private children(element: string): { name?: string; group?: string } {
    const sc: XmlScanner = this.sc;
    let name: string | undefined;
    let group: string | undefined;
    for (;;) {
      const kind = sc.next();
      if (kind === XML_END && sc.name === element) return { name, group };
      if (kind !== XML_START) continue;
      if (sc.name === "name") name = this.text();
      else if (sc.name === "group") group = this.text();
      else sc.skipElement();
    }
  }

  /** The text of the element just started (empty when it has none), to its end tag. */
  private text(): string {
    const sc: XmlScanner = this.sc;
    const element = sc.name;
    let out = "";
    for (;;) {
      const kind = sc.next();
      if (kind === XML_TEXT) out += sc.text;
      else if (kind === XML_END && sc.name === element) return out;
      else if (kind === XML_START) sc.fail(`<${sc.name}> inside <${element}>, which holds text`);
    }
  }

  private readProfile(): void {
    const sc: XmlScanner = this.sc;
    const of = this.attribute("thread");
    const t = this.threads.get(of);
    if (t === undefined) sc.fail(`profile of thread "${clip(of)}", which no <thread> before it declares`);
    // A later snapshot holds the totals so far: by default it replaces the earlier one.
    const s: Snapshot = { metrics: new Int32Array(0), timers: [], counts: [], values: [], events: [], eventValues: [] };
    let name = "";
    let intervals = false;
    let atomics = false;
    for (;;) {
      const kind = sc.next();
      if (kind === XML_END) {
        (this.snapshots[t.index] ??= new ThreadSnapshots(this.wanted)).add(s, name.trim());
        return;
      }
      if (kind !== XML_START) continue;
      if (sc.name === "name") {
        name = this.text();
        continue;
      }
      // TAU and Score-P write one block of each. A second is refused: its rows would add to the
      // first's (ParaProf overwrites the first's values and calls with the second's).
      if (sc.name === "interval_data") {
        if (intervals) sc.fail("a second <interval_data> in one <profile>");
        intervals = true;
        this.readIntervals(t, s);
      } else if (sc.name === "atomic_data") {
        if (atomics) sc.fail("a second <atomic_data> in one <profile>");
        atomics = true;
        this.readAtomics(t, s);
      } else sc.skipElement();
    }
  }

  /** The rows of an `<interval_data>` element just started. */
  private readIntervals(t: ThreadState, s: Snapshot): void {
    const sc: XmlScanner = this.sc;
    const listed = this.attribute("metrics").trim();
    const ids = listed === "" ? [] : listed.split(/\s+/);
    const metrics = new Int32Array(ids.length);
    for (let k = 0; k < ids.length; k++) {
      const m = /^\d+$/.test(ids[k]) ? (t.defs.metrics[Number(ids[k])] ?? -1) : -1;
      if (m < 0) sc.fail(`<interval_data metrics="${clip(listed)}">: metric ${clip(ids[k])} is not defined for this thread`);
      metrics[k] = m;
    }
    s.metrics = metrics;
    const width = 3 + 2 * metrics.length;
    this.rows(width, "<interval_data>", `event calls subrs${metrics.length === 0 ? "" : " and an exclusive and inclusive value per metric listed"}`, (n, line) => {
      const timer = this.defined(t.defs.events, n[0], "event", line);
      if (n[1] < 0 || n[2] < 0) sc.fail(`calls and subroutine calls are counts, found ${n[1] < 0 ? `calls ${n[1]}` : `subroutine calls ${n[2]}`}`, line);
      s.timers.push(timer);
      s.counts.push(n[1], n[2]);
      for (let k = 3; k < width; k++) s.values.push(n[k]);
    });
  }

  /** The rows of an `<atomic_data>` element just started. */
  private readAtomics(t: ThreadState, s: Snapshot): void {
    this.rows(6, "<atomic_data>", "user event, samples, maximum, minimum, mean and sum of squares", (n, line) => {
      s.events.push(this.defined(t.defs.userEvents, n[0], "user event", line));
      if (n[1] < 0) this.sc.fail(`a user event's sample count is a count, found ${n[1]}`, line);
      s.eventValues.push(n[1], n[2], n[3], n[4], n[5]);
    });
  }

  /** The index a definitions table gives id `id`, or an error naming the row. */
  private defined(table: readonly number[], id: number, what: string, at: number): number {
    const i = Number.isInteger(id) && id >= 0 ? (table[id] ?? -1) : -1;
    if (i < 0) this.sc.fail(`${what} id ${id} is not defined for this thread`, at);
    return i;
  }

  /**
   * The non-blank lines of the element just started, each `width` numbers, to its end tag: `take`
   * gets the numbers and the row's offset (for messages). A comment may sit between or inside rows
   * (the text on either side of it is one line).
   */
  private rows(width: number, element: string, expected: string, take: (n: Float64Array, at: number) => void): void {
    const sc: XmlScanner = this.sc;
    const n = width < this.numbers.length ? this.numbers : new Float64Array(width + 1);
    const out = n.subarray(0, width + 1);
    // The start of a line that a comment interrupted, and its offset.
    let carry = "";
    let carryAt = 0;
    const row = (line: string, at: number): void => {
      if (line.charCodeAt(line.length - 1) === 13 /* \r */) line = line.slice(0, -1);
      const got = scanNumbers(line, 0, out);
      if (got !== width || !isBlank(line, numbersEnd(line, width))) {
        if (isBlank(line, 0)) return;
        // A number too large for a double (1e309) stops the scan as a word does: say which.
        const token = got < width ? line.slice(numbersEnd(line, got)).trim().split(/\s+/)[0] : "";
        if (Math.abs(Number(token)) === Infinity) sc.fail(`'${clip(token)}' is not a finite number (${expected})`, at);
        sc.fail(`expected ${width} numbers (${expected}), found '${clip(line.trim())}'`, at);
      }
      take(n, at);
    };
    for (;;) {
      const kind = sc.next();
      if (kind === XML_END) {
        if (carry !== "") row(carry, carryAt);
        return;
      }
      if (kind === XML_START) sc.fail(`<${sc.name}> inside ${element}, which holds rows of numbers`);
      const text = sc.text;
      // Rows hold no entities, so offsets in the text are offsets in the file.
      const base = sc.start;
      let from = 0;
      for (;;) {
        const end = text.indexOf("\n", from);
        if (end < 0) {
          if (from < text.length) {
            if (carry === "") carryAt = base + from;
            carry += text.slice(from);
          }
          break;
        }
        if (carry === "") row(text.slice(from, end), base + from);
        else {
          row(carry + text.slice(from, end), carryAt);
          carry = "";
        }
        from = end + 1;
      }
    }
  }
}

/** Whether `line` holds only white space from offset `from`. */
function isBlank(line: string, from: number): boolean {
  for (let i = from; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/** Offset just past the first `count` tokens (separated by spaces or tabs) of `line`. */
function numbersEnd(line: string, count: number): number {
  let i = 0;
  for (let k = 0; k < count; k++) {
    while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    while (i < line.length && line.charCodeAt(i) !== 32 && line.charCodeAt(i) !== 9) i++;
  }
  return i;
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
