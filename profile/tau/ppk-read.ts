/**
 * Reader of ParaProf packed profiles (`.ppk`): a gzip-compressed Java `DataOutputStream`
 * (big-endian integers and doubles, `writeUTF` strings). Layout, as TAU's
 * `PackedProfileDataSource` reads it:
 *
 * ```
 * char[3] 'P','P','K'            (UTF-16 chars)
 * int version, int compatible    (compatible <= 2)
 * version >= 2:
 *   int metadataHeaderSize, int skip, byte[skip]
 *   int n, n x (UTF name, UTF value)                  trial metadata
 *   int threads, per thread: int node, ctx, thread,
 *       int n, n x (UTF name, UTF value)              thread metadata
 * version < 2: int skip, byte[skip]
 * int metrics, UTF name each
 * int groups, UTF name each
 * int functions, per function: UTF name, int ngroups, int group index each
 * int userEvents, UTF name each
 * int threads, per thread: int node, ctx, thread,
 *   int profiles, per profile: int function, double calls, double subrs,
 *                              per metric: double exclusive, double inclusive
 *   int eventProfiles, per profile: int event, int count, double min, max, mean, sumSquares
 * ```
 *
 * Files that are not gzip-compressed are read as they are (ParaProf does the same for files a
 * browser already decompressed).
 */
import { TrialBuilder } from "../builder.js";
import { ProfileFormatError } from "../errors.js";
import type { Trial } from "../model.js";
import type { TrialReadOptions } from "./text-read.js";
import { inflatedInput, readInputBytes } from "../gzip-input.js";

/** Big-endian cursor over the decompressed bytes, throwing located errors. @internal */
class JavaDataReader {
  private pos = 0;
  private readonly view: DataView;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly file: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get offset(): number {
    return this.pos;
  }
  get remaining(): number {
    return this.bytes.length - this.pos;
  }
  fail(what: string, at = this.pos): never {
    throw new ProfileFormatError(this.file, undefined, what, at);
  }
  private need(n: number, what: string): void {
    if (this.pos + n > this.bytes.length) this.fail(`unexpected end of data reading ${what}`);
  }
  int(what: string): number {
    this.need(4, what);
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }
  /** A count that must be non-negative and small enough for the bytes left (each item takes at least `minBytes`). */
  count(what: string, minBytes: number): number {
    const at = this.pos;
    const n = this.int(what);
    if (n < 0 || n * minBytes > this.remaining) this.fail(`invalid ${what} ${n} (only ${this.remaining} bytes left)`, at);
    return n;
  }
  double(what: string): number {
    this.need(8, what);
    const v = this.view.getFloat64(this.pos);
    if (!Number.isFinite(v)) this.fail(`${what} is not a finite number (${v})`);
    this.pos += 8;
    return v;
  }
  char(): number {
    this.need(2, "the PPK signature");
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }
  skip(n: number, what: string): void {
    if (n < 0) this.fail(`negative length ${n} for ${what}`);
    this.need(n, what);
    this.pos += n;
  }
  /** Java `readUTF`: unsigned 16-bit length, then modified UTF-8. */
  utf(what: string): string {
    this.need(2, what);
    const len = this.view.getUint16(this.pos);
    this.pos += 2;
    this.need(len, what);
    const start = this.pos;
    const end = start + len;
    this.pos = end;
    const b = this.bytes;
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (b[i] >= 0x80 || b[i] === 0) {
        ascii = false;
        break;
      }
    }
    // Fast path: nearly every timer name is plain ASCII.
    if (ascii) return Buffer.from(b.buffer, b.byteOffset + start, len).toString("latin1");
    const units: number[] = [];
    for (let i = start; i < end; ) {
      const c = b[i];
      if (c < 0x80 && c !== 0) {
        units.push(c);
        i++;
      } else if ((c & 0xe0) === 0xc0 && i + 1 < end && (b[i + 1] & 0xc0) === 0x80) {
        units.push(((c & 0x1f) << 6) | (b[i + 1] & 0x3f));
        i += 2;
      } else if ((c & 0xf0) === 0xe0 && i + 2 < end && (b[i + 1] & 0xc0) === 0x80 && (b[i + 2] & 0xc0) === 0x80) {
        units.push(((c & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f));
        i += 3;
      } else {
        this.fail(`malformed modified UTF-8 in ${what}`, i);
      }
    }
    let s = "";
    for (let i = 0; i < units.length; i += 8192) s += String.fromCharCode(...units.slice(i, i + 8192));
    return s;
  }
}

/**
 * Reads a ParaProf packed profile (`.ppk`) file.
 * @throws ProfileFormatError naming the file and byte offset (in the decompressed data) of what is malformed.
 * @throws ProfileError when the file cannot be read.
 */
export function readPackedProfile(path: string, options: TrialReadOptions = {}): Trial {
  return parsePackedProfile(readInputBytes(path), path, options);
}

/**
 * Parses the bytes of a `.ppk` file (gzip-compressed or not).
 * @throws ProfileFormatError for corrupt compression or a malformed layout.
 */
export function parsePackedProfile(raw: Uint8Array, file: string, options: TrialReadOptions = {}): Trial {
  const bytes = inflatedInput(raw, file);
  const p = new JavaDataReader(bytes, file);
  if (p.char() !== 0x50 || p.char() !== 0x50 || p.char() !== 0x4b) p.fail("not a ParaProf packed profile (no 'PPK' signature)", 0);
  const version = p.int("the file version");
  const compatAt = p.offset;
  const compatible = p.int("the compatibility version");
  if (compatible > 2) p.fail(`packed profile needs reader version ${compatible}; this reader understands version 2`, compatAt);

  const b = new TrialBuilder({ source: file });
  if (version >= 2) {
    p.int("the metadata header size");
    p.skip(p.int("the reserved section length"), "the reserved section");
    const nMeta = p.count("trial metadata count", 4);
    for (let i = 0; i < nMeta; i++) {
      const k = p.utf("a trial metadata name");
      b.setMetadata(k, p.utf("a trial metadata value"));
    }
    const nThreads = p.count("metadata thread count", 16);
    for (let i = 0; i < nThreads; i++) {
      const th = addThread(p, b);
      const n = p.count("thread metadata count", 4);
      for (let j = 0; j < n; j++) {
        const k = p.utf("a thread metadata name");
        b.setThreadMetadata(th, k, p.utf("a thread metadata value"));
      }
    }
  } else {
    p.skip(p.int("the header length"), "the header");
  }

  const nMetrics = p.count("metric count", 2);
  if (nMetrics === 0) p.fail("a packed profile needs at least one metric");
  const used = new Set<string>();
  for (let i = 0; i < nMetrics; i++) {
    let name = p.utf("a metric name");
    if (name === "") name = `metric ${i}`;
    for (let k = 2; used.has(name); k++) name = `${name.replace(/ \(\d+\)$/, "")} (${k})`;
    used.add(name);
    b.addMetric(name);
  }
  const nGroups = p.count("group count", 2);
  const groups: string[] = [];
  for (let i = 0; i < nGroups; i++) groups.push(p.utf("a group name"));
  const nFunctions = p.count("function count", 6);
  const functions = new Int32Array(nFunctions);
  for (let i = 0; i < nFunctions; i++) {
    const name = p.utf("a function name");
    const ng = p.count("function group count", 4);
    const gs: string[] = [];
    for (let j = 0; j < ng; j++) {
      const at = p.offset;
      const g = p.int("a group index");
      if (g < 0 || g >= nGroups) p.fail(`group index ${g} out of range 0..${nGroups - 1}`, at);
      gs.push(groups[g]);
    }
    functions[i] = b.timer(name, gs);
  }
  const nEvents = p.count("user event count", 2);
  const events = new Int32Array(nEvents);
  for (let i = 0; i < nEvents; i++) events[i] = b.userEvent(p.utf("a user event name"));

  const nThreads = p.count("thread count", 20);
  const exclusive = new Float64Array(nMetrics);
  const inclusive = new Float64Array(nMetrics);
  for (let i = 0; i < nThreads; i++) {
    const th = addThread(p, b);
    const nProfiles = p.count("function profile count", 20 + 16 * nMetrics);
    for (let j = 0; j < nProfiles; j++) {
      const at = p.offset;
      const f = p.int("a function index");
      if (f < 0 || f >= nFunctions) p.fail(`function index ${f} out of range 0..${nFunctions - 1}`, at);
      const calls = p.double("calls");
      const subrs = p.double("subroutine calls");
      // At the offending double: calls 4 bytes in (after the int index), subroutine calls 12.
      if (calls < 0 || subrs < 0) p.fail(`calls and subroutine calls are counts, found ${calls < 0 ? `calls ${calls}` : `subroutine calls ${subrs}`}`, calls < 0 ? at + 4 : at + 12);
      for (let m = 0; m < nMetrics; m++) {
        exclusive[m] = p.double("an exclusive value");
        inclusive[m] = p.double("an inclusive value");
      }
      b.addValues(th, functions[f], { calls, subroutines: subrs, exclusive, inclusive });
    }
    const nEp = p.count("user event profile count", 40);
    for (let j = 0; j < nEp; j++) {
      const at = p.offset;
      const e = p.int("a user event index");
      if (e < 0 || e >= nEvents) p.fail(`user event index ${e} out of range 0..${nEvents - 1}`, at);
      const count = p.int("a user event sample count");
      const min = p.double("a user event minimum");
      const max = p.double("a user event maximum");
      const mean = p.double("a user event mean");
      const sumSquares = p.double("a user event sum of squares");
      b.addEventTotals(th, events[e], { count, min, max, mean, sumSquares });
    }
  }
  return b.build({ checkInvariants: options.checkInvariants ?? true });
}

function addThread(p: JavaDataReader, b: TrialBuilder): number {
  const at = p.offset;
  const node = p.int("a node number");
  const context = p.int("a context number");
  const thread = p.int("a thread number");
  if (node < 0 || context < 0 || thread < 0) p.fail(`invalid thread ${node},${context},${thread}`, at);
  return b.addThread(node, context, thread);
}
