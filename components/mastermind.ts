import type { InvocationRecord } from "../profile/index.js";

export type { InvocationRecord };

/** A proxied method: where its records come from and the names of the parameters it extracts. */
interface Site {
  readonly component: string;
  readonly port: string;
  readonly method: string;
  readonly parameterNames: readonly string[];
}

// Row layout of completed records: ints (site, rank, first parameter slot) and floats (start,
// wall time, MPI time, then one delta per counter).
const ROW_INTS = 3;
const ROW_FLOATS = 3;
// Open records: ints (site, rank) and floats (start, MPI time so far, then counter values).
const OPEN_INTS = 2;
const OPEN_FLOATS = 2;
// Completed records live in fixed-size chunks (rows, and parameter values), so a run that keeps
// millions of them never copies what it has already recorded.
const ROW_SHIFT = 15;
const ROWS_PER_CHUNK = 1 << ROW_SHIFT;
const ROW_MASK = ROWS_PER_CHUNK - 1;
const PARAM_SHIFT = 16;
const PARAMS_PER_CHUNK = 1 << PARAM_SHIFT;
const PARAM_MASK = PARAMS_PER_CHUNK - 1;

/**
 * The Mastermind: for every proxied invocation it opens a record with the parameters the proxy
 * extracted, and on return closes it with wall time, MPI time, compute time and counter deltas.
 * Recording costs no simulated time (measurement overhead is excluded, as in the papers).
 *
 * Records are stored in chunks of flat typed arrays (strings interned) and become
 * {@link InvocationRecord} objects only when {@link records} is read: a run keeps millions of
 * them, and millions of live objects would make the garbage collector a large share of the run.
 *
 * Use: resolve a site once per proxied method with {@link site}, then per invocation
 * {@link begin}, {@link param} for each of the site's parameters, and {@link end}. Both `begin`
 * and `end` take the rank's current metric values, laid out as the measurement reads them: TIME
 * (microseconds) first, then one value per counter of `counterNames`; the caller reads them once
 * for the timer and the record.
 */
export class Mastermind {
  private readonly sites: Site[] = [];
  private siteParams = new Int32Array(8); // parameter count by site id
  private readonly siteIds = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private readonly nc: number;
  private readonly rowFloats: number;
  private readonly openFloats: number;

  // Completed records, in completion order (deterministic): row i is entry i & ROW_MASK of chunk
  // i >> ROW_SHIFT.
  private rows = 0;
  private readonly rowInt: Int32Array[] = [];
  private readonly rowNum: Float64Array[] = [];
  // Parameter pool, chunked likewise (a record's parameters never straddle two chunks): a number,
  // or (paramString >= 0) the interned string it names.
  private params = 0;
  private readonly paramNumber: Float64Array[] = [];
  private readonly paramString: Int32Array[] = [];

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

  /** @param counterNames - the counters recorded per invocation (the measured metrics after TIME) */
  constructor(readonly counterNames: readonly string[]) {
    this.nc = counterNames.length;
    this.rowFloats = ROW_FLOATS + this.nc;
    this.openFloats = OPEN_FLOATS + this.nc;
    this.openNum = new Float64Array(8 * this.openFloats);
  }

  /**
   * The id of a proxied method (`component.port.method` with the names of the parameters its
   * proxy extracts, in order), created on first use. Resolve it once, outside the per-call path.
   */
  site(component: string, port: string, method: string, parameterNames: readonly string[]): number {
    const key = JSON.stringify([component, port, method, parameterNames]);
    let id = this.siteIds.get(key);
    if (id === undefined) {
      if (parameterNames.length > PARAMS_PER_CHUNK) throw new RangeError(`${component}.${port}.${method}: at most ${PARAMS_PER_CHUNK} parameters per record`);
      id = this.sites.length;
      this.sites.push({ component, port, method, parameterNames: [...parameterNames] });
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
    const nc = this.nc;
    for (let k = 0; k < nc; k++) num[b + OPEN_FLOATS + k] = metrics[k + 1];
    return token;
  }

  /** Sets parameter `k` (in the site's order) of the open record `token`. */
  param(token: number, k: number, value: number | string): void {
    const slot = token * this.openParamStride + k;
    if (typeof value === "number") {
      this.openParamNumber[slot] = value;
      this.openParamString[slot] = -1;
    } else this.openParamString[slot] = this.intern(value);
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
    if (chunk === this.rowInt.length) {
      this.rowInt.push(new Int32Array(ROWS_PER_CHUNK * ROW_INTS));
      this.rowNum.push(new Float64Array(ROWS_PER_CHUNK * this.rowFloats));
    }
    const site = this.openInt[token * OPEN_INTS];
    const np = this.siteParams[site];
    let pbase = this.params;
    if ((pbase & PARAM_MASK) + np > PARAMS_PER_CHUNK) pbase = ((pbase >>> PARAM_SHIFT) + 1) << PARAM_SHIFT;
    this.params = pbase + np;
    const ints = this.rowInt[chunk];
    const ri = (row & ROW_MASK) * ROW_INTS;
    ints[ri] = site;
    ints[ri + 1] = this.openInt[token * OPEN_INTS + 1];
    ints[ri + 2] = pbase;
    const open = this.openNum;
    const ob = token * this.openFloats;
    const num = this.rowNum[chunk];
    const rb = (row & ROW_MASK) * this.rowFloats;
    const start = open[ob];
    num[rb] = start;
    num[rb + 1] = metrics[0] - start;
    num[rb + 2] = mpiTime - open[ob + 1];
    const nc = this.nc;
    for (let k = 0; k < nc; k++) num[rb + ROW_FLOATS + k] = metrics[k + 1] - open[ob + OPEN_FLOATS + k];
    if (np === 0) return;
    const pc = pbase >>> PARAM_SHIFT;
    if (pc === this.paramNumber.length) {
      this.paramNumber.push(new Float64Array(PARAMS_PER_CHUNK));
      this.paramString.push(new Int32Array(PARAMS_PER_CHUNK));
    }
    const pn = this.paramNumber[pc];
    const pstr = this.paramString[pc];
    const pb = pbase & PARAM_MASK;
    const ps = token * this.openParamStride;
    for (let k = 0; k < np; k++) {
      pn[pb + k] = this.openParamNumber[ps + k];
      pstr[pb + k] = this.openParamString[ps + k];
    }
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
    for (let i = out.length; i < this.rows; i++) out.push(this.record(i));
    return out;
  }

  /**
   * Completed record `i` (0-based, completion order) as a new object.
   * @throws RangeError when there is no record `i`
   */
  record(i: number): InvocationRecord {
    if (!(Number.isInteger(i) && i >= 0 && i < this.rows)) throw new RangeError(`no record ${i}: the Mastermind holds ${this.rows}`);
    const ints = this.rowInt[i >>> ROW_SHIFT];
    const num = this.rowNum[i >>> ROW_SHIFT];
    const ri = (i & ROW_MASK) * ROW_INTS;
    const site = this.sites[ints[ri]];
    const parameters: Record<string, number | string> = {};
    const pbase = ints[ri + 2];
    const names = site.parameterNames;
    if (names.length > 0) {
      const pn = this.paramNumber[pbase >>> PARAM_SHIFT];
      const pstr = this.paramString[pbase >>> PARAM_SHIFT];
      const pb = pbase & PARAM_MASK;
      for (let k = 0; k < names.length; k++) {
        const s = pstr[pb + k];
        parameters[names[k]] = s >= 0 ? this.strings[s] : pn[pb + k];
      }
    }
    const rb = (i & ROW_MASK) * this.rowFloats;
    const counters: Record<string, number> = {};
    for (let k = 0; k < this.nc; k++) counters[this.counterNames[k]] = num[rb + ROW_FLOATS + k];
    const wallTime = num[rb + 1];
    const mpiTime = num[rb + 2];
    return {
      component: site.component,
      port: site.port,
      method: site.method,
      rank: ints[ri + 1],
      parameters,
      start: num[rb],
      wallTime,
      mpiTime,
      computeTime: wallTime - mpiTime,
      counters,
    };
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

/** A copy of `a` with room for `n` values. */
function grown<T extends Int32Array | Float64Array>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
