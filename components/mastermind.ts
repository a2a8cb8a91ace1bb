import { recordAt, type InvocationRecord, type RecordKind, type RecordTable } from "../profile/index.js";
import { grown } from "../profile/internal.js";
import { wholeCounts } from "./platform.js";

export type { InvocationRecord };

// Row layout of completed records: ints (site, rank, offset of its parameters in its chunk's
// pool) and floats (start, end, MPI time, then one delta per stored counter).
const ROW_INTS = 3;
const ROW_FLOATS = 3;
// Open records: ints (site, rank) and floats (start, MPI time so far, then stored counter values).
const OPEN_INTS = 2;
const OPEN_FLOATS = 2;
// Completed records live in fixed-size chunks (rows, and their parameter values), so a run that
// keeps millions of them never copies what it has already recorded.
const ROW_SHIFT = 15;
const ROWS_PER_CHUNK = 1 << ROW_SHIFT;
const ROW_MASK = ROWS_PER_CHUNK - 1;
/** Most parameters one record may carry. */
const MAX_PARAMETERS = 1 << 16;
/** Parameter values a chunk's pool reserves at first (address space only: untouched pages cost no memory). */
const POOL_RESERVE = 1 << 20;

/**
 * The Mastermind: for every proxied invocation it opens a record with the parameters the proxy
 * extracted, and on return closes it with wall time, MPI time, compute time and counter deltas.
 * Recording costs no simulated time (measurement overhead is excluded, as in the papers).
 *
 * Records are stored in chunks of flat typed arrays (strings interned) and become
 * {@link InvocationRecord} objects only when {@link records} is read: a run keeps millions of
 * them, and millions of live objects would make the garbage collector a large share of the run.
 * The Mastermind is itself a {@link RecordTable} (one kind per site), so record files and
 * summaries read the arrays without making those objects.
 * A row holds only what cannot be recomputed: a counter that is a multiple of TIME (cycles of a
 * fixed clock) is not stored but recomputed from the record's start and end (see the constructor),
 * and a parameter is marked as a string only in chunks that hold one. Every byte matters: the
 * records are most of what a measured run writes to fresh memory, and each fresh page costs a
 * page fault.
 *
 * Use: resolve a site once per proxied method with {@link site}, then per invocation
 * {@link begin}, {@link param} for each of the site's parameters, and {@link end}. Both `begin`
 * and `end` take the rank's current metric values, laid out as the measurement reads them: TIME
 * (microseconds) first, then one value per counter of `counterNames`; the caller reads them once
 * for the timer and the record.
 */
export class Mastermind implements RecordTable {
  private readonly sites: RecordKind[] = [];
  private siteParams = new Int32Array(8); // parameter count by site id
  private readonly siteIds = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  /** Per counter: its factor to TIME when it is recomputed, NaN when it is stored. */
  private readonly rate: Float64Array;
  /** Indices (into the metric values after TIME) of the stored counters. */
  private readonly stored: Int32Array;
  /** Per counter: its position among the stored ones (-1 when it is recomputed). */
  private readonly storedSlot: Int32Array;
  private readonly rowFloats: number;
  private readonly openFloats: number;

  // Completed records, in completion order (deterministic): row i is entry i & ROW_MASK of chunk
  // i >> ROW_SHIFT.
  private rows = 0;
  private readonly rowInt: Int32Array[] = [];
  private readonly rowNum: Float64Array[] = [];
  // Parameter pool of each row chunk, filled in completion order: the values, and the interned
  // string + 1 of string values (0 for a number; created with the chunk's first string).
  private readonly paramNumber: Float64Array[] = [];
  private readonly paramString: (Int32Array | undefined)[] = [];
  private paramFill = 0; // values used in the last chunk's pool

  // Open records are reused slots: nesting depth, not invocation count, decides how many exist.
  private openSlots = 0;
  private freeCount = 0;
  private free = new Int32Array(8);
  private openInt = new Int32Array(8 * OPEN_INTS);
  private openNum: Float64Array;
  private openParamStride = 1; // largest parameter count of any site
  private openParamNumber = new Float64Array(8);
  private openParamString = new Int32Array(8);

  private readonly materialised: InvocationRecord[] = [];

  /**
   * @param counterNames - the counters recorded per invocation (the measured metrics after TIME)
   * @param timeRates - per counter, when its value is always TIME (microseconds) times a fixed
   *   factor (cycles of a fixed clock: cycles per microsecond), that factor; else undefined. Such a
   *   counter is not stored: its delta is recomputed from the whole counts at the record's end and
   *   start ({@link wholeCounts}), the very numbers the metric reader subtracts, so the record is the same.
   */
  constructor(
    readonly counterNames: readonly string[],
    timeRates: readonly (number | undefined)[] = [],
  ) {
    this.rate = Float64Array.from(counterNames, (_, k) => timeRates[k] ?? Number.NaN);
    this.stored = Int32Array.from(counterNames.flatMap((_, k) => (timeRates[k] === undefined ? [k] : [])));
    this.storedSlot = Int32Array.from(counterNames, (_, k) => this.stored.indexOf(k));
    this.rowFloats = ROW_FLOATS + this.stored.length;
    this.openFloats = OPEN_FLOATS + this.stored.length;
    this.openNum = new Float64Array(8 * this.openFloats);
  }

  /**
   * The id of a proxied method (`component.port.method` with the names of the parameters its
   * proxy extracts, in order), created on first use. Resolve it once, outside the per-call path.
   * @throws RangeError with more than 65,536 parameters
   */
  site(component: string, port: string, method: string, parameterNames: readonly string[]): number {
    const key = JSON.stringify([component, port, method, parameterNames]);
    let id = this.siteIds.get(key);
    if (id === undefined) {
      if (parameterNames.length > MAX_PARAMETERS) throw new RangeError(`${component}.${port}.${method}: at most ${MAX_PARAMETERS} parameters per record`);
      id = this.sites.length;
      this.sites.push({ component, port, method, parameterNames: [...parameterNames], counterNames: this.counterNames });
      this.siteIds.set(key, id);
      if (id === this.siteParams.length) this.siteParams = grown(this.siteParams, id * 2);
      this.siteParams[id] = parameterNames.length;
      if (parameterNames.length > this.openParamStride) this.widenOpenParams(parameterNames.length);
    }
    return id;
  }

  /**
   * Opens a record of `site` on `rank`; returns a token for {@link param} and {@link end}.
   * @param metrics - the rank's current TIME (microseconds) then counter values
   * @param mpiTime - the rank's total MPI time so far (microseconds)
   */
  begin(rank: number, site: number, metrics: Float64Array, mpiTime: number): number {
    let token: number;
    if (this.freeCount > 0) token = this.free[--this.freeCount];
    else {
      token = this.openSlots++;
      if (token === this.free.length) this.growOpen();
    }
    this.openInt[token * OPEN_INTS] = site;
    this.openInt[token * OPEN_INTS + 1] = rank;
    const num = this.openNum;
    const b = token * this.openFloats;
    num[b] = metrics[0];
    num[b + 1] = mpiTime;
    const stored = this.stored;
    for (let s = 0; s < stored.length; s++) num[b + OPEN_FLOATS + s] = metrics[stored[s] + 1];
    return token;
  }

  /** Sets parameter `k` (in the site's order) of the open record `token`. */
  param(token: number, k: number, value: number | string): void {
    const slot = token * this.openParamStride + k;
    if (typeof value === "number") {
      this.openParamNumber[slot] = value;
      this.openParamString[slot] = 0;
    } else this.openParamString[slot] = this.intern(value) + 1;
  }

  /**
   * Closes the record opened with `token`.
   * @param metrics - the rank's current TIME (microseconds) then counter values
   * @param mpiTime - the rank's total MPI time so far (microseconds)
   */
  end(token: number, metrics: Float64Array, mpiTime: number): void {
    this.free[this.freeCount++] = token;
    const row = this.rows++;
    const chunk = row >>> ROW_SHIFT;
    if (chunk === this.rowInt.length) this.addChunk();
    const site = this.openInt[token * OPEN_INTS];
    const np = this.siteParams[site];
    const ints = this.rowInt[chunk];
    const ri = (row & ROW_MASK) * ROW_INTS;
    ints[ri] = site;
    ints[ri + 1] = this.openInt[token * OPEN_INTS + 1];
    ints[ri + 2] = this.paramFill;
    const open = this.openNum;
    const ob = token * this.openFloats;
    const num = this.rowNum[chunk];
    const rb = (row & ROW_MASK) * this.rowFloats;
    num[rb] = open[ob];
    num[rb + 1] = metrics[0];
    num[rb + 2] = mpiTime - open[ob + 1];
    const stored = this.stored;
    for (let s = 0; s < stored.length; s++) num[rb + ROW_FLOATS + s] = metrics[stored[s] + 1] - open[ob + OPEN_FLOATS + s];
    if (np > 0) this.keepParams(chunk, token, np);
  }

  /** Number of completed records. */
  get count(): number {
    return this.rows;
  }

  /**
   * Completed records, in completion order (deterministic), as objects. Built on first read and
   * extended on later reads; the same array is returned each time.
   */
  get records(): InvocationRecord[] {
    const out = this.materialised;
    for (let i = out.length; i < this.rows; i++) out.push(recordAt(this, i));
    return out;
  }

  /**
   * Completed record `i` (0-based, completion order) as a new object.
   * @throws RangeError when there is no record `i`
   */
  record(i: number): InvocationRecord {
    if (!(Number.isInteger(i) && i >= 0 && i < this.rows)) throw new RangeError(`no record ${i}: the Mastermind holds ${this.rows}`);
    return recordAt(this, i);
  }

  /** The proxied methods (sites) records refer to, by site id. */
  get kinds(): readonly RecordKind[] {
    return this.sites;
  }

  /** Site id of record `i` (no bounds check, as every accessor of {@link RecordTable}). */
  kind(i: number): number {
    return this.rowInt[i >>> ROW_SHIFT][(i & ROW_MASK) * ROW_INTS];
  }

  /** MPI rank of record `i`. */
  rank(i: number): number {
    return this.rowInt[i >>> ROW_SHIFT][(i & ROW_MASK) * ROW_INTS + 1];
  }

  /** Start of record `i` (microseconds). */
  start(i: number): number {
    return this.rowNum[i >>> ROW_SHIFT][(i & ROW_MASK) * this.rowFloats];
  }

  /** Wall time of record `i` (microseconds): end - start. */
  wallTime(i: number): number {
    const num = this.rowNum[i >>> ROW_SHIFT];
    const b = (i & ROW_MASK) * this.rowFloats;
    return num[b + 1] - num[b];
  }

  /** MPI time of record `i` (microseconds). */
  mpiTime(i: number): number {
    return this.rowNum[i >>> ROW_SHIFT][(i & ROW_MASK) * this.rowFloats + 2];
  }

  /** Compute time of record `i` (microseconds): wall time - MPI time. */
  computeTime(i: number): number {
    return this.wallTime(i) - this.mpiTime(i);
  }

  /** Parameter `k` (in its site's order) of record `i`. */
  parameter(i: number, k: number): number | string {
    const chunk = i >>> ROW_SHIFT;
    const at = this.rowInt[chunk][(i & ROW_MASK) * ROW_INTS + 2] + k;
    const pstr = this.paramString[chunk];
    const s = pstr === undefined ? 0 : pstr[at];
    return s > 0 ? this.strings[s - 1] : this.paramNumber[chunk][at];
  }

  /** Delta of counter `k` (of `counterNames`) over record `i` (count). */
  counter(i: number, k: number): number {
    const num = this.rowNum[i >>> ROW_SHIFT];
    const b = (i & ROW_MASK) * this.rowFloats;
    const rate = this.rate[k];
    return rate === rate ? wholeCounts(num[b + 1], rate) - wholeCounts(num[b], rate) : num[b + ROW_FLOATS + this.storedSlot[k]];
  }

  /** Starts a chunk of rows and its parameter pool (the pool reserves room for every row of the widest site). */
  private addChunk(): void {
    this.rowInt.push(new Int32Array(ROWS_PER_CHUNK * ROW_INTS));
    this.rowNum.push(new Float64Array(ROWS_PER_CHUNK * this.rowFloats));
    this.paramNumber.push(new Float64Array(Math.min(ROWS_PER_CHUNK * this.openParamStride, POOL_RESERVE)));
    this.paramString.push(undefined);
    this.paramFill = 0;
  }

  /** Moves the `np` parameters of open record `token` to the pool of `chunk` (its last). */
  private keepParams(chunk: number, token: number, np: number): void {
    const at = this.paramFill;
    if (at + np > this.paramNumber[chunk].length) {
      const cap = Math.max(2 * this.paramNumber[chunk].length, at + np);
      this.paramNumber[chunk] = grown(this.paramNumber[chunk], cap);
      const str = this.paramString[chunk];
      if (str !== undefined) this.paramString[chunk] = grown(str, cap);
    }
    this.paramFill = at + np;
    const pn = this.paramNumber[chunk];
    const ps = token * this.openParamStride;
    let strings = 0;
    for (let k = 0; k < np; k++) {
      pn[at + k] = this.openParamNumber[ps + k];
      strings |= this.openParamString[ps + k];
    }
    // Numbers need no mark: pool positions are written once, and a fresh pool holds zeros.
    if (strings === 0) return;
    const pstr = (this.paramString[chunk] ??= new Int32Array(pn.length));
    for (let k = 0; k < np; k++) pstr[at + k] = this.openParamString[ps + k];
  }

  private intern(s: string): number {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.stringIds.set(s, id);
    }
    return id;
  }

  private growOpen(): void {
    const cap = this.free.length * 2;
    this.free = grown(this.free, cap);
    this.openInt = grown(this.openInt, cap * OPEN_INTS);
    this.openNum = grown(this.openNum, cap * this.openFloats);
    this.openParamNumber = grown(this.openParamNumber, cap * this.openParamStride);
    this.openParamString = grown(this.openParamString, cap * this.openParamStride);
  }

  /** A site with more parameters than any before: re-lay the open records' parameter slots. */
  private widenOpenParams(stride: number): void {
    const cap = this.free.length;
    const old = this.openParamStride;
    const num = new Float64Array(cap * stride);
    const str = new Int32Array(cap * stride);
    for (let t = 0; t < cap; t++)
      for (let k = 0; k < old; k++) {
        num[t * stride + k] = this.openParamNumber[t * old + k];
        str[t * stride + k] = this.openParamString[t * old + k];
      }
    this.openParamNumber = num;
    this.openParamString = str;
    this.openParamStride = stride;
  }
}
