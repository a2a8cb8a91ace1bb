/**
 * Writer of ParaProf packed profiles (`.ppk`): one gzip-compressed file of a whole trial, which
 * ParaProf opens, TAUdb and PerfExplorer upload, and `ppk-read.ts` reads. The layout is the one
 * TAU's `DataSourceExport.writePacked` writes (version 2, readable by readers of version 1 and
 * up): a Java `DataOutputStream`, big-endian, strings as `writeUTF` (modified UTF-8 after an
 * unsigned 16-bit length), see `ppk-read.ts` for the fields.
 *
 * - **Metadata**: the trial's common attributes as the trial's; as each thread's, the attributes it
 *   has besides (its file's, and those a TAU text profile leaves to `profile.0.0.0`).
 * - **Functions**: every timer (flat and callpath, `A => B`), in the trial's order, with the
 *   spelling its source gave it and its groups (listed once each, by name, as ParaProf lists them).
 * - **Profiles**: per thread, every timer it ran (calls, subroutine calls, and per metric the
 *   exclusive and inclusive values) and every user event it sampled (count, min, max, mean, sum of
 *   squares). Values are written as they are: fractions of a microsecond are kept (ParaProf reads
 *   doubles).
 *
 * @packageDocumentation
 */
import { constants, crc32, deflateRawSync } from "node:zlib";
import { writeTextFileAtomically } from "../atomic-text-file.js";
import { ProfileModelError } from "../errors.js";
import type { Trial } from "../model.js";
import { compareText } from "../compare-text.js";
import { writtenEventName, writtenTimerName } from "./text-write.js";

/** Most bytes Java's `writeUTF` takes: its length prefix is an unsigned 16-bit number. */
const MAX_UTF_BYTES = 65535;
/** Most samples a user event may hold: the file stores the count as a Java int. */
const MAX_SAMPLES = 2 ** 31 - 1;
/** Largest node, context or thread number: the file stores them as Java ints (and readers refuse negative ones). */
const MAX_THREAD_NUMBER = 2 ** 31 - 1;

/** Bytes of the file handed on at a time (compressed as they come) when writing to a sink. */
const PIECE_BYTES = 1 << 20;

/**
 * A big-endian buffer with Java `DataOutputStream`'s writes: growing, or, given a `sink`, handing
 * on its bytes whenever they fill a piece (so that the memory a file takes is a piece's, whatever
 * the file's size).
 */
class JavaDataWriter {
  private bytes: Uint8Array;
  private view: DataView;
  /** Bytes in the buffer. */
  length = 0;

  constructor(private readonly sink?: (bytes: Uint8Array) => void) {
    this.bytes = new Uint8Array(sink !== undefined ? PIECE_BYTES : 1 << 16);
    this.view = new DataView(this.bytes.buffer);
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    if (this.sink !== undefined && this.length > 0) {
      this.sink(this.bytes.subarray(0, this.length));
      this.length = 0;
      if (n <= this.bytes.length) return;
    }
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }
  char(c: number): void {
    this.room(2);
    this.view.setUint16(this.length, c);
    this.length += 2;
  }
  int(v: number): void {
    this.room(4);
    this.view.setInt32(this.length, v);
    this.length += 4;
  }
  double(v: number): void {
    this.room(8);
    this.view.setFloat64(this.length, v);
    this.length += 8;
  }
  bytesOf(b: Uint8Array): void {
    this.room(b.length);
    this.bytes.set(b, this.length);
    this.length += b.length;
  }
  /**
   * Java `writeUTF`: the length in bytes, then each UTF-16 unit as modified UTF-8 (NUL as two bytes,
   * a surrogate as three, as Java writes them).
   * @throws ProfileModelError when the text takes more than 65 535 bytes (Java refuses it too)
   */
  utf(s: string, what: string): void {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      n += c >= 1 && c <= 0x7f ? 1 : c <= 0x7ff ? 2 : 3;
    }
    if (n > MAX_UTF_BYTES) throw new ProfileModelError(`${what} '${s.slice(0, 40)}...' takes ${n} bytes; a packed profile holds at most ${MAX_UTF_BYTES}`);
    this.room(2 + n);
    this.view.setUint16(this.length, n);
    let at = this.length + 2;
    const b = this.bytes;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 1 && c <= 0x7f) b[at++] = c;
      else if (c <= 0x7ff) {
        b[at++] = 0xc0 | (c >> 6);
        b[at++] = 0x80 | (c & 0x3f);
      } else {
        b[at++] = 0xe0 | (c >> 12);
        b[at++] = 0x80 | ((c >> 6) & 0x3f);
        b[at++] = 0x80 | (c & 0x3f);
      }
    }
    this.length = at;
  }
  /** The bytes in the buffer (of a writer with a sink: those not handed on yet). */
  result(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * Gzip compression of a file handed in pieces, each compressed as it comes: one gzip member, whose
 * deflate stream is each piece's raw deflate ended by a sync flush (byte-aligned, not final), the
 * last piece's finished; gunzip, Java's `GZIPInputStream` and every inflater read it as one stream.
 * Why not `gzipSync` of the whole file: the file, as large as the trial's values, would be held
 * twice in memory besides the trial (Node has no synchronous streaming gzip).
 */
class GzipPieces {
  private crc = 0;
  private size = 0;
  constructor(private readonly out: (piece: Uint8Array) => void) {
    // Magic, deflate, no flags, no time, no extra flags, Unix: the header gzipSync writes.
    out(Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3));
  }
  piece(bytes: Uint8Array, last: boolean): void {
    this.crc = crc32(bytes, this.crc);
    this.size = (this.size + bytes.length) % 2 ** 32;
    this.out(deflateRawSync(bytes, last ? {} : { finishFlush: constants.Z_SYNC_FLUSH }));
    if (!last) return;
    const trailer = new Uint8Array(8);
    const v = new DataView(trailer.buffer);
    v.setUint32(0, this.crc >>> 0, true);
    v.setUint32(4, this.size, true);
    this.out(trailer);
  }
}

/** Name/value pairs, sorted by name so that the file does not depend on the order they were read in. */
function writeMetadata(p: JavaDataWriter, m: ReadonlyMap<string, string>, where: string): void {
  const keys = [...m.keys()].sort();
  p.int(keys.length);
  for (const k of keys) {
    p.utf(k, `${where} metadata name`);
    p.utf(m.get(k)!, `${where} metadata value of '${k}'`);
  }
}

/**
 * The bytes of a `.ppk` file of `trial` (gzip-compressed, as ParaProf writes them).
 * @throws ProfileModelError for a trial a packed profile cannot hold: no metric, a name or text
 *   longer than 65 535 bytes, a node, context or thread number above 2^31 - 1, a user event of
 *   more than 2^31 - 1 samples or of a fractional number of them
 */
export function formatPackedProfile(trial: Trial): Uint8Array {
  const pieces: Uint8Array[] = [];
  packedProfilePieces(trial, (piece) => pieces.push(piece));
  return Buffer.concat(pieces);
}

/**
 * Hands the compressed bytes of a `.ppk` file of `trial` to `write`, piece by piece (a piece of the
 * file compressed at a time: the memory taken is a piece's, not the file's).
 * @throws ProfileModelError as {@link formatPackedProfile}, possibly after some pieces were handed on
 */
function packedProfilePieces(trial: Trial, write: (piece: Uint8Array) => void): void {
  if (trial.metrics.length === 0) throw new ProfileModelError("a trial needs at least one metric to be written as a packed profile");
  // Java ints: a larger number would be written wrapped (negative), which no reader takes.
  for (const t of trial.threads) {
    if (t.node > MAX_THREAD_NUMBER || t.context > MAX_THREAD_NUMBER || t.thread > MAX_THREAD_NUMBER) {
      throw new ProfileModelError(`thread ${t.node},${t.context},${t.thread}: a packed profile holds node, context and thread numbers up to ${MAX_THREAD_NUMBER}`);
    }
  }
  const gzip = new GzipPieces(write);
  const p = new JavaDataWriter((bytes) => gzip.piece(bytes, false));
  for (const c of "PPK") p.char(c.charCodeAt(0));
  p.int(2); // version
  p.int(1); // lowest reader version that reads it
  const header = new JavaDataWriter();
  header.int(0); // a reserved block of this many bytes, for later versions
  writeMetadata(header, trial.metadata, "trial");
  header.int(trial.threads.length);
  trial.threads.forEach((t, th) => {
    header.int(t.node);
    header.int(t.context);
    header.int(t.thread);
    // Each thread's attributes as it sees them (its own and those it takes from another thread's
    // file, as TAU text profiles leave them in profile.0.0.0), less the trial's.
    const own = new Map([...trial.threadMetadataMerged(th)].filter(([k, v]) => trial.metadata.get(k) !== v));
    writeMetadata(header, own, `thread ${trial.threadLabel(th)}`);
  });
  p.int(header.length);
  p.bytesOf(header.result());

  const nM = trial.metrics.length;
  p.int(nM);
  for (const m of trial.metrics) p.utf(m, "metric name");
  // Groups by name (code units), as ParaProf lists them (it keeps them in a sorted map).
  const names = [...new Set(trial.timers.flatMap((t) => t.groups))].sort(compareText);
  const groups = new Map(names.map((g, i) => [g, i]));
  p.int(names.length);
  for (const g of names) p.utf(g, "group name");
  p.int(trial.timers.length);
  for (const t of trial.timers) {
    p.utf(writtenTimerName(t.name, t.spelling), "timer name");
    p.int(t.groups.length);
    for (const g of t.groups) p.int(groups.get(g)!);
  }
  const nE = trial.userEvents.length;
  p.int(nE);
  for (const u of trial.userEvents) p.utf(writtenEventName(u.name, u.spelling), "user event name");

  const nT = trial.timers.length;
  const { present, calls, subroutines, exclusive, inclusive } = trial.values;
  const ev = trial.events;
  p.int(trial.threads.length);
  trial.threads.forEach((t, th) => {
    p.int(t.node);
    p.int(t.context);
    p.int(t.thread);
    const base = th * nT;
    let ran = 0;
    for (let k = 0; k < nT; k++) ran += present[base + k];
    p.int(ran);
    for (let k = 0; k < nT; k++) {
      const s = base + k;
      if (present[s] === 0) continue;
      p.int(k);
      p.double(calls[s]);
      p.double(subroutines[s]);
      for (let m = 0; m < nM; m++) {
        p.double(exclusive[m][s]);
        p.double(inclusive[m][s]);
      }
    }
    let sampled = 0;
    for (let u = 0; u < nE; u++) sampled += ev.present[th * nE + u];
    p.int(sampled);
    for (let u = 0; u < nE; u++) {
      const s = th * nE + u;
      if (ev.present[s] === 0) continue;
      if (ev.count[s] > MAX_SAMPLES) throw new ProfileModelError(`user event '${trial.userEvents[u].name}' of thread ${trial.threadLabel(th)} has ${ev.count[s]} samples; a packed profile holds at most ${MAX_SAMPLES}`);
      // The count is a Java int: a fraction would be written truncated, a count below -2^31 wrapped.
      if (!Number.isInteger(ev.count[s]) || ev.count[s] < -(2 ** 31)) throw new ProfileModelError(`user event '${trial.userEvents[u].name}' of thread ${trial.threadLabel(th)} has ${ev.count[s]} samples; a packed profile holds a whole number of them`);
      p.int(u);
      p.int(ev.count[s]);
      p.double(ev.min[s]);
      p.double(ev.max[s]);
      p.double(ev.mean[s]);
      p.double(ev.sumSquares[s]);
    }
  });
  gzip.piece(p.result(), true);
}

/**
 * Writes `trial` as a ParaProf packed profile (atomically: a temporary sibling renamed at the end),
 * compressed and written a piece at a time.
 * @throws ProfileModelError as {@link formatPackedProfile} (`path` then left as it was); ProfileError
 *   when the file cannot be written
 */
export function writePackedProfile(trial: Trial, path: string): void {
  writeTextFileAtomically(path, (write) => packedProfilePieces(trial, write));
}
