/**
 * Reader of TAU text profiles (`profile.N.C.T`), following ParaProf's `TauDataSource`:
 *
 * ```
 * 23 templated_functions_MULTI_TIME
 * # Name Calls Subrs Excl Incl ProfileCalls # <metadata>...</metadata>
 * ".TAU application" 1 7 449 51781 0 GROUP="TAU_DEFAULT"
 * ...                                    (as many timer lines as line 1 says)
 * 0 aggregates
 * 2 userevents                           (optional block)
 * # eventname numevents max min mean sumsqr
 * "Message size for broadcast" 1 4 4 4 16
 * ```
 *
 * Like ParaProf: the metric name comes from the `Metric Name` metadata, else from the
 * `_MULTI_<metric>` suffix of line 1, else (our addition) from the `MULTI__<metric>` folder, else
 * `TIME`; timer names may contain quotes (the name ends at the last quote before `GROUP="`); extra
 * columns such as `SumExclSqr` are ignored; duplicate lines add up; calls, subroutines and user
 * events are taken from the first metric's files; the metadata of `profile.0.0.0` is every thread's
 * default (TAU writes the common attributes only there), each file's own attributes override it.
 * Unlike ParaProf, a truncated or malformed file is
 * an error (ParaProf skips it with a message), and so is a negative count of calls or subroutine
 * calls; negative values are kept with a warning instead of being set to zero.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { TrialBuilder } from "../builder.js";
import { ProfileError, ProfileFormatError } from "../errors.js";
import type { Trial } from "../model.js";
import { parseMetadataXml } from "./xml.js";
import { tolerance } from "../invariants.js";
import { fileErrorText } from "../file-error.js";
import { inputIsDirectory } from "../gzip-input.js";
import { canonicalTimerName } from "../names.js";
import { METRIC_FOLDER_PREFIX } from "./text-write.js";

/** One profile file's text and the name it is reported under. */
export interface TauProfileFileText {
  /** Path used in messages; its base name gives node, context and thread (`profile.3.0.1`). */
  readonly path: string;
  readonly text: string;
}

/** The files of one metric: a `MULTI__<metric>` folder, or the trial folder for single-metric profiles. */
export interface TauMetricFiles {
  /** Folder name (`MULTI__PAPI_FP_INS`), used only when neither the header nor the metadata names the metric. */
  readonly folder?: string;
  readonly files: readonly TauProfileFileText[];
}

/** Options of the TAU profile readers. */
export interface TrialReadOptions {
  /** Check invariants and attach warnings to the trial (default true). */
  readonly checkInvariants?: boolean;
}

const PROFILE_FILE = /^profile\.(\d+)\.(\d+)\.(\d+)$/;

/** Node, context and thread from a file name `profile.N.C.T`, or undefined. */
export function parseProfileFileName(name: string): [number, number, number] | undefined {
  const m = PROFILE_FILE.exec(basename(name));
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Orders profile file names by node, context, thread. @internal */
function byThread(a: string, b: string): number {
  const x = parseProfileFileName(a)!;
  const y = parseProfileFileName(b)!;
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/**
 * Scans whitespace-separated decimal numbers of `s` from `pos` into `out`; returns how many were
 * read (stops at the first token that is not a finite decimal number, or after `out.length`).
 * Hand-written because splitting with a regular expression and testing every token with another
 * dominated the read time of large profiles.
 * @internal
 */
export function scanNumbers(s: string, pos: number, out: Float64Array): number {
  const n = s.length;
  let k = 0;
  while (k < out.length) {
    while (pos < n && (s.charCodeAt(pos) === 32 || s.charCodeAt(pos) === 9)) pos++;
    if (pos >= n) break;
    const start = pos;
    let c = s.charCodeAt(pos);
    let negative = false;
    if (c === 43 || c === 45) {
      negative = c === 45;
      c = s.charCodeAt(++pos);
    }
    let digits = 0;
    let int = 0;
    while (c >= 48 && c <= 57) {
      digits++;
      int = int * 10 + (c - 48);
      c = s.charCodeAt(++pos);
    }
    let plain = true;
    if (c === 46) {
      plain = false;
      c = s.charCodeAt(++pos);
      while (c >= 48 && c <= 57) {
        digits++;
        c = s.charCodeAt(++pos);
      }
    }
    if (digits === 0) break;
    if (c === 101 || c === 69) {
      plain = false;
      c = s.charCodeAt(++pos);
      if (c === 43 || c === 45) c = s.charCodeAt(++pos);
      let e = 0;
      while (c >= 48 && c <= 57) {
        e++;
        c = s.charCodeAt(++pos);
      }
      if (e === 0) break;
    }
    if (pos < n && c !== 32 && c !== 9) break;
    // Integers of up to 15 digits were accumulated exactly; only others need a substring and Number().
    const v = plain && digits <= 15 ? (negative ? -int : int) : Number(s.slice(start, pos));
    if (!Number.isFinite(v)) break;
    out[k++] = v;
  }
  return k;
}

/**
 * Lists the metric folders of a TAU profile directory: its `MULTI__*` subfolders if any, else the
 * directory itself.
 * @throws ProfileFormatError when the directory holds no `profile.N.C.T` file.
 */
export function listTauProfileFiles(dir: string): { folder?: string; files: string[] }[] {
  return scanWithFiles(dir).sets;
}

/** Whether directory `dir` holds TAU profile files (`profile.N.C.T`, or in `MULTI__<metric>` folders). */
export function hasTauProfileFiles(dir: string): boolean {
  return scanProfileDirectory(dir).sets.length > 0;
}

/** {@link scanProfileDirectory}, refusing a directory without profile files. */
function scanWithFiles(dir: string): ProfileDirectory {
  const scan = scanProfileDirectory(dir);
  if (scan.sets.length === 0) throw new ProfileFormatError(dir, undefined, "no TAU profile files (profile.N.C.T, or MULTI__<metric>/profile.N.C.T) in this directory");
  return scan;
}

/** The profile files of a directory, by metric folder, and the names of those it leaves out. */
interface ProfileDirectory {
  readonly sets: { folder?: string; files: string[] }[];
  /** `profile.N.C.T` files beside `MULTI__` folders (a single-metric run's, left over): not read. */
  readonly notRead: string[];
}

/** The metric sets of {@link listTauProfileFiles} (empty when there is none) and the loose files beside `MULTI__` folders. */
function scanProfileDirectory(dir: string): ProfileDirectory {
  const entries = readdirSync(dir, { withFileTypes: true });
  const multi = entries.filter((e) => e.isDirectory() && e.name.startsWith(METRIC_FOLDER_PREFIX)).map((e) => e.name).sort();
  // A directory named profile.N.C.T is listed too: reading it fails, naming it, where leaving it out
  // would drop its thread from the trial without a word (inside a MULTI__ folder it fails as well).
  const loose = entries.filter((e) => PROFILE_FILE.test(e.name)).map((e) => e.name).sort(byThread);
  if (multi.length === 0) return { sets: loose.length > 0 ? [{ files: loose.map((f) => join(dir, f)) }] : [], notRead: [] };
  const sets: { folder?: string; files: string[] }[] = [];
  for (const m of multi) {
    const files = readdirSync(join(dir, m)).filter((f) => PROFILE_FILE.test(f)).sort(byThread).map((f) => join(dir, m, f));
    if (files.length > 0) sets.push({ folder: m, files });
  }
  return { sets, notRead: loose };
}

/**
 * Reads a TAU text profile: a directory (single metric, or `MULTI__<metric>` folders) or a single
 * `profile.N.C.T` file.
 * @throws ProfileFormatError naming the file and line of the first malformed line.
 * @throws ProfileError when the path cannot be read.
 */
export function readTauProfile(path: string, options: TrialReadOptions = {}): Trial {
  const isDir = inputIsDirectory(path);
  // Files of a single-metric run beside the MULTI__ folders (a leftover, or another run's) are not read: said.
  const { sets, notRead } = isDir ? scanWithFiles(path) : { sets: [{ files: [path] }], notRead: [] };
  const texts: TauMetricFiles[] = sets.map((s) => ({
    folder: s.folder,
    files: s.files.map((f) => {
      try {
        return { path: f, text: readFileSync(f, "utf8") };
      } catch (e) {
        throw new ProfileError(`cannot read '${f}': ${fileErrorText(e)}`);
      }
    }),
  }));
  return parseTauProfiles(texts, { ...options, source: path, notRead });
}

/**
 * Parses TAU profile texts already in memory (one entry per metric folder). This is what
 * {@link readTauProfile} does after reading the files; `notRead` names the profile files beside
 * the metric folders that it left out (a warning lists them).
 * @throws ProfileFormatError naming the file and line of the first malformed line.
 */
export function parseTauProfiles(sets: readonly TauMetricFiles[], options: TrialReadOptions & { source?: string; notRead?: readonly string[] } = {}): Trial {
  const b = new TrialBuilder({ source: options.source });
  const notRead = options.notRead ?? [];
  if (notRead.length > 0) {
    const where = options.source ?? "(profile)";
    const names = notRead.length > 3 ? `${notRead.slice(0, 3).join(", ")} and ${notRead.length - 3} more` : notRead.join(", ");
    b.warn({ kind: "format", file: where, message: `${where}: ${notRead.length} profile file${notRead.length === 1 ? "" : "s"} beside the MULTI__ metric folders ${notRead.length === 1 ? "is" : "are"} not read (${names}): a profile directory holds either one metric's files or MULTI__<metric> folders` });
  }
  const ctx: ParseContext = { used: new Set(), timers: new Map(), numbers: new Float64Array(4), metricNames: [], exceeds: new Map() };
  const threadsOf: Set<string>[] = [];
  for (let k = 0; k < sets.length; k++) {
    const set = sets[k];
    let metric = -1;
    const seen = new Set<string>();
    for (const f of set.files) {
      metric = parseOneFile(b, f, set.folder, metric, k === 0, ctx);
      seen.add((parseProfileFileName(f.path) ?? [0, 0, 0]).join(","));
    }
    threadsOf.push(seen);
  }
  // Every metric should have a file for every thread; a missing one silently reads as zeros otherwise.
  for (let k = 1; k < sets.length; k++) {
    const missing = [...threadsOf[0]].filter((t) => !threadsOf[k].has(t));
    const extra = [...threadsOf[k]].filter((t) => !threadsOf[0].has(t));
    const where = sets[k].folder ?? `metric folder ${k + 1}`;
    if (missing.length > 0) b.warn({ kind: "format", file: where, message: `${where} has no file for thread(s) ${missing.join(" ")}; their values of this metric read as 0` });
    if (extra.length > 0) b.warn({ kind: "format", file: where, message: `${where} has thread(s) ${extra.join(" ")} that the first metric lacks; their calls read as 0` });
  }
  if (sets.length === 0 || sets.every((s) => s.files.length === 0)) {
    throw new ProfileFormatError(options.source ?? "(profile)", undefined, "no profile files");
  }
  // TAU writes the common metadata into profile.0.0.0 only; the other files hold what differs.
  const first = b.threadIndex(0, 0, 0);
  if (first >= 0) b.inheritThreadMetadata(first);
  const check = options.checkInvariants ?? true;
  if (check) {
    for (const x of ctx.exceeds.values()) {
      const more = x.otherFiles > 0 ? ` (and on the same timer in ${x.otherFiles} other file${x.otherFiles > 1 ? "s" : ""})` : "";
      b.warn({
        kind: "exclusive-exceeds-inclusive",
        file: x.file,
        message: `${x.file}:${x.line}: timer '${x.timer}' (${x.metric}): inclusive ${x.inclusive} is below exclusive ${x.exclusive} (kept as read)${more}`,
      });
    }
  }
  // The line-by-line check above names file and line; the trial-wide one would repeat it without them.
  return b.build({ checkInvariants: check, checkedByReader: ["exclusive-exceeds-inclusive"] });
}

/** Line cursor over a file's text. @internal */
class Lines {
  private pos = 0;
  /** 1-based number of the line last returned. */
  line = 0;
  constructor(private readonly text: string) {}
  next(): string | undefined {
    if (this.pos >= this.text.length) return undefined;
    let end = this.text.indexOf("\n", this.pos);
    if (end < 0) end = this.text.length;
    let s = this.text.slice(this.pos, end);
    if (s.endsWith("\r")) s = s.slice(0, -1);
    this.pos = end + 1;
    this.line++;
    return s;
  }
}

/** State shared by the files of one trial. @internal */
interface ParseContext {
  /** Metric names taken so far. */
  readonly used: Set<string>;
  /** Raw timer name (as in the file) to builder timer and the raw group text it was added with. */
  readonly timers: Map<string, { timer: number; groups: string }>;
  /** Scratch space for the numbers of one line. */
  readonly numbers: Float64Array;
  /** Metric names by builder metric index. */
  readonly metricNames: string[];
  /**
   * Lines whose exclusive value exceeds the inclusive one beyond rounding, by timer and metric:
   * the first such line, and how many other files have one.
   */
  readonly exceeds: Map<string, ExceedingLine>;
}

/** The first timer line of a timer and metric whose exclusive value exceeds its inclusive value. @internal */
interface ExceedingLine {
  readonly file: string;
  readonly line: number;
  readonly timer: string;
  readonly metric: string;
  readonly exclusive: number;
  readonly inclusive: number;
  /** Files other than `file` with such a line, and the last of them. */
  otherFiles: number;
  lastFile: string;
}

/** Parses one `profile.N.C.T` file into the builder; returns the metric index used. @internal */
function parseOneFile(b: TrialBuilder, f: TauProfileFileText, folder: string | undefined, metricIn: number, firstMetric: boolean, ctx: ParseContext): number {
  const used = ctx.used;
  const file = f.path;
  const nct = parseProfileFileName(file) ?? [0, 0, 0];
  const fail = (line: number | undefined, what: string): never => {
    throw new ProfileFormatError(file, line, what);
  };
  if (f.text.indexOf("\0") >= 0) fail(undefined, "binary data (NUL bytes) in a text profile");
  const lines = new Lines(f.text);

  // Line 1: "<count> templated_functions[_MULTI_<metric>]"
  const l1 = lines.next();
  if (l1 === undefined) fail(1, "empty file; expected '<count> templated_functions_MULTI_<metric>'");
  const h = /^\s*(\d+)\s+(\S+)/.exec(l1!);
  if (!h || !h[2].startsWith("templated_functions")) fail(1, `expected '<count> templated_functions_MULTI_<metric>', found '${clip(l1!)}'`);
  const count = Number(h![1]);
  const multiAt = l1!.indexOf("_MULTI_");
  let headerMetric = multiAt > 0 ? l1!.slice(multiAt + 7).trim() : h![2].includes("hw_counters") ? "Hardware Counter" : undefined;
  if (headerMetric === "") headerMetric = undefined;

  // Line 2: "# Name Calls Subrs Excl Incl ProfileCalls [# <metadata>...</metadata>]"
  const l2 = lines.next();
  if (l2 === undefined) fail(2, "unexpected end of file; expected the '# Name Calls Subrs Excl Incl ProfileCalls' line");
  if (!l2!.startsWith("#")) fail(2, `expected the '# Name Calls Subrs Excl Incl ProfileCalls' line, found '${clip(l2!)}'`);
  let metaMetric: string | undefined;
  const m0 = l2!.indexOf("<metadata>");
  const thread = b.addThread(nct[0], nct[1], nct[2]);
  if (m0 >= 0) {
    const m1 = l2!.indexOf("</metadata>", m0);
    if (m1 < 0) fail(2, "metadata block not closed by </metadata>");
    const pairs = parseMetadataXml(l2!.slice(m0, m1 + 11));
    if (typeof pairs === "string") fail(2, `malformed metadata: ${pairs}`);
    for (const [k, v] of pairs as [string, string][]) {
      if (k === "Metric Name") metaMetric = v;
      else b.setThreadMetadata(thread, k, v);
    }
  }

  let metric = metricIn;
  if (metric < 0) {
    let name = metaMetric ?? headerMetric ?? (folder?.startsWith(METRIC_FOLDER_PREFIX) ? folder.slice(METRIC_FOLDER_PREFIX.length) : undefined) ?? "TIME";
    // Two folders naming the same metric must stay two metrics.
    for (let k = 2; used.has(name); k++) name = `${name.replace(/ \(\d+\)$/, "")} (${k})`;
    used.add(name);
    metric = b.addMetric(name);
    ctx.metricNames[metric] = name;
  }

  let negatives = 0;
  let firstNegative = "";
  let callsDiffer = 0;
  const nums = ctx.numbers;
  for (let j = 0; j < count; j++) {
    const s = lines.next();
    if (s === undefined) fail(lines.line + 1, `unexpected end of file: found ${j} of ${count} timer lines`);
    const split = splitTimerLine(s!);
    if (typeof split === "string") fail(lines.line, split);
    const { nameEnd, groupsStart, groupsEnd } = split as TimerLineSplit;
    if (scanNumbers(s!, nameEnd + 1, nums) < 4) {
      fail(lines.line, `expected 'Calls Subrs Excl Incl' as finite numbers after the timer name, found '${clip(s!.slice(nameEnd + 1, groupsStart < 0 ? undefined : groupsStart - 7).trim())}'`);
    }
    if (nums[0] < 0 || nums[1] < 0) {
      fail(lines.line, `calls and subroutine calls are counts, found ${nums[0] < 0 ? `calls ${nums[0]}` : `subroutine calls ${nums[1]}`}`);
    }
    // Names repeat in every file of a trial: look the raw text up before normalizing it.
    const rawName = s!.slice(1, nameEnd);
    const rawGroups = groupsStart < 0 ? "" : s!.slice(groupsStart, groupsEnd);
    let cached = ctx.timers.get(rawName);
    if (cached === undefined || cached.groups !== rawGroups) {
      const timer = b.timer(rawName, splitGroups(rawGroups), groupsStart < 0 ? undefined : rawGroups);
      cached = { timer, groups: rawGroups };
      ctx.timers.set(rawName, cached);
    }
    const excl = nums[2];
    const incl = nums[3];
    if (excl < 0 || incl < 0) {
      // (The name as the trial holds it, as the trial's own checks write it.)
      if (negatives++ === 0) firstNegative = `${file}:${lines.line}: timer '${canonicalTimerName(rawName)}' (${ctx.metricNames[metric]}) has ${incl < 0 ? `inclusive ${incl}` : ""}${incl < 0 && excl < 0 ? " and " : ""}${excl < 0 ? `exclusive ${excl}` : ""}`;
    }
    if (excl > incl + tolerance(excl, incl, 1)) {
      const key = `${cached.timer}|${metric}`;
      const seen = ctx.exceeds.get(key);
      if (seen === undefined) ctx.exceeds.set(key, { file, line: lines.line, timer: canonicalTimerName(rawName), metric: ctx.metricNames[metric]!, exclusive: excl, inclusive: incl, otherFiles: 0, lastFile: file });
      else if (seen.lastFile !== file) {
        seen.otherFiles++;
        seen.lastFile = file;
      }
    }
    if (firstMetric) b.addCalls(thread, cached.timer, nums[0], nums[1]);
    else if (b.callsOf(thread, cached.timer) !== nums[0]) callsDiffer++;
    b.addTime(thread, cached.timer, metric, excl, incl);
  }
  if (negatives > 0) {
    const more = negatives > 1 ? `; ${negatives - 1} more timer line(s) of this file with negative values` : "";
    b.warn({ kind: "negative-value", file, message: `${firstNegative} (kept as read)${more}` });
  }
  if (callsDiffer > 0) {
    b.warn({ kind: "format", file, message: `${file}: ${callsDiffer} timer line(s) whose calls differ from the first metric's file of the same thread (the first metric's calls are used)` });
  }

  // "<n> aggregates", then n lines.
  const la = lines.next();
  if (la === undefined) fail(lines.line + 1, "unexpected end of file; expected '<n> aggregates'");
  const ag = /^\s*(\d+)\s+aggregates\b/.exec(la!);
  if (!ag) fail(lines.line, `expected '<n> aggregates' after ${count} timer lines, found '${clip(la!)}'`);
  for (let j = Number(ag![1]); j > 0; j--) {
    if (lines.next() === undefined) fail(lines.line + 1, "unexpected end of file inside the aggregates block");
  }

  // Optional "<k> userevents" block.
  let lu = lines.next();
  while (lu !== undefined && lu.trim() === "") lu = lines.next();
  if (lu === undefined) return metric;
  const ue = /^\s*(\d+)\s+userevents\b/.exec(lu);
  if (!ue) fail(lines.line, `expected '<n> userevents' or the end of the file, found '${clip(lu)}'`);
  const nEvents = Number(ue![1]);
  const lh = lines.next();
  if (lh === undefined && nEvents > 0) fail(lines.line + 1, "unexpected end of file; expected '# eventname numevents max min mean sumsqr'");
  if (lh !== undefined && !lh.startsWith("#")) fail(lines.line, `expected '# eventname numevents max min mean sumsqr', found '${clip(lh)}'`);
  const seenEvents = new Set<string>();
  let repeated: string[] = [];
  for (let j = 0; j < nEvents; j++) {
    const s = lines.next();
    if (s === undefined) fail(lines.line + 1, `unexpected end of file: found ${j} of ${nEvents} user event lines`);
    const e = parseEventLine(s!);
    if (typeof e === "string") fail(lines.line, e);
    if (firstMetric) {
      const ev = e as EventLine;
      if (seenEvents.has(ev.name)) repeated.push(ev.name);
      else seenEvents.add(ev.name);
      b.addEventTotals(thread, b.userEvent(ev.name), ev);
    }
  }
  if (repeated.length > 0) {
    repeated = [...new Set(repeated)];
    b.warn({ kind: "repeated-lines", file, message: `${file}: user event line(s) listed twice, merged as ParaProf merges them (counts and sums add, min and max combine): '${repeated[0]}'${repeated.length > 1 ? ` and ${repeated.length - 1} more` : ""}` });
  }
  for (let s = lines.next(); s !== undefined; s = lines.next()) {
    if (s.trim() !== "") fail(lines.line, `unexpected text after the user events: '${clip(s)}'`);
  }
  return metric;
}

/** Where the parts of a timer line are. @internal */
interface TimerLineSplit {
  /** Index of the quote that closes the name. */
  nameEnd: number;
  /** Start of the group list (after `GROUP="`), or -1. */
  groupsStart: number;
  /** End of the group list (its closing quote). */
  groupsEnd: number;
}

/**
 * Locates the name and groups of a timer line. The name is between the first quote and the last
 * quote before `GROUP="` (names may contain quotes, as ParaProf allows).
 * @returns the positions, or a message saying what is wrong. @internal
 */
function splitTimerLine(s: string): TimerLineSplit | string {
  if (s.charCodeAt(0) !== 34) return `expected a timer line starting with '"', found '${clip(s)}'`;
  let groupsStart = -1;
  let groupsEnd = -1;
  let bodyEnd = s.length;
  const g = s.lastIndexOf('GROUP="');
  if (g > 0) {
    const endq = s.lastIndexOf('"');
    if (endq > g + 6) {
      groupsStart = g + 7;
      groupsEnd = endq;
      bodyEnd = g;
    }
  }
  const q = s.lastIndexOf('"', bodyEnd - 1);
  if (q <= 0) return `timer name not closed by '"' in '${clip(s)}'`;
  return { nameEnd: q, groupsStart, groupsEnd };
}

function splitGroups(raw: string): string[] {
  return raw
    .split("|")
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

interface EventLine {
  name: string;
  count: number;
  max: number;
  min: number;
  mean: number;
  sumSquares: number;
}

/** Splits a user-event line `"name" numevents max min mean sumsqr`. @internal */
function parseEventLine(s: string): EventLine | string {
  if (s.charCodeAt(0) !== 34) return `expected a user event line starting with '"', found '${clip(s)}'`;
  const q = s.lastIndexOf('"');
  if (q <= 0) return `user event name not closed by '"' in '${clip(s)}'`;
  const v = new Float64Array(5);
  if (scanNumbers(s, q + 1, v) < 5) {
    return `expected 'numevents max min mean sumsqr' as finite numbers after the event name, found '${clip(s.slice(q + 1).trim())}'`;
  }
  return { name: s.slice(1, q), count: v[0], max: v[1], min: v[2], mean: v[3], sumSquares: v[4] };
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
