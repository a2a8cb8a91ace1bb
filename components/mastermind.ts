import type { InvocationRecord } from "../profile/index.js";
import { GrowableFloat64, GrowableInt32 } from "./growable.js";

export type { InvocationRecord };

/** A proxied method: where its records come from and the names of the parameters it extracts. */
interface Site {
  readonly component: string;
  readonly port: string;
  readonly method: string;
  readonly parameterNames: readonly string[];
}

/**
 * The Mastermind: for every proxied invocation it opens a record with the parameters the proxy
 * extracted, and on return closes it with wall time, MPI time, compute time and counter deltas.
 * Recording costs no simulated time (measurement overhead is excluded, as in the papers).
 *
 * Records are stored in columns (typed arrays, strings interned) and become
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
  private readonly siteIds = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private readonly nc: number;

  // Completed records, one row each, in completion order (deterministic).
  private rows = 0;
  private readonly rowSite = new GrowableInt32();
  private readonly rowRank = new GrowableInt32();
  private readonly rowStart = new GrowableFloat64();
  private readonly rowWall = new GrowableFloat64();
  private readonly rowMpi = new GrowableFloat64();
  private readonly rowCounters = new GrowableFloat64(); // rows x nc counter deltas
  private readonly rowParamBase = new GrowableInt32(); // first slot of the row in the parameter pool
  // Parameter pool: a number, or (paramString >= 0) the interned string it names.
  private readonly paramNumber = new GrowableFloat64();
  private readonly paramString = new GrowableInt32();

  // Open records are reused slots: nesting depth, not invocation count, decides how many exist.
  private readonly free: number[] = [];
  private openCount = 0;
  private openSite = new Int32Array(8);
  private openRank = new Int32Array(8);
  private openStart = new Float64Array(8);
  private openMpi = new Float64Array(8);
  private openCounters: Float64Array;
  private openParamNumber: Float64Array[] = [];
  private openParamString: Int32Array[] = [];

  private materialised: InvocationRecord[] = [];

  /** @param counterNames - the counters recorded per invocation (the measured metrics after TIME) */
  constructor(readonly counterNames: readonly string[]) {
    this.nc = counterNames.length;
    this.openCounters = new Float64Array(8 * this.nc);
  }

  /**
   * The id of a proxied method (`component.port.method` with the names of the parameters its
   * proxy extracts, in order), created on first use. Resolve it once, outside the per-call path.
   */
  site(component: string, port: string, method: string, parameterNames: readonly string[]): number {
    const key = JSON.stringify([component, port, method, parameterNames]);
    let id = this.siteIds.get(key);
    if (id === undefined) {
      id = this.sites.length;
      this.sites.push({ component, port, method, parameterNames: [...parameterNames] });
      this.siteIds.set(key, id);
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
    if (this.free.length > 0) token = this.free.pop()!;
    else {
      token = this.openCount++;
      if (token === this.openSite.length) this.growOpen();
      this.openParamNumber.push(new Float64Array(4));
      this.openParamString.push(new Int32Array(4));
    }
    this.openSite[token] = site;
    this.openRank[token] = rank;
    this.openStart[token] = metrics[0];
    this.openMpi[token] = mpiTime;
    const nc = this.nc;
    const base = token * nc;
    for (let k = 0; k < nc; k++) this.openCounters[base + k] = metrics[k + 1];
    const np = this.sites[site].parameterNames.length;
    if (this.openParamNumber[token].length < np) {
      this.openParamNumber[token] = new Float64Array(np);
      this.openParamString[token] = new Int32Array(np);
    }
    return token;
  }

  /** Sets parameter `k` (in the site's order) of the open record `token`. */
  param(token: number, k: number, value: number | string): void {
    if (typeof value === "number") {
      this.openParamNumber[token][k] = value;
      this.openParamString[token][k] = -1;
    } else this.openParamString[token][k] = this.intern(value);
  }

  /**
   * Closes the record opened with `token`.
   * @param metrics - the rank's current TIME (microseconds) then counter values
   * @param mpiTime - the rank's total MPI time so far (microseconds)
   */
  end(token: number, metrics: Float64Array, mpiTime: number): void {
    this.free.push(token);
    const rank = this.openRank[token];
    const start = this.openStart[token];
    const site = this.openSite[token];
    this.rows++;
    this.rowSite.push(site);
    this.rowRank.push(rank);
    this.rowStart.push(start);
    this.rowWall.push(metrics[0] - start);
    this.rowMpi.push(mpiTime - this.openMpi[token]);
    const nc = this.nc;
    const base = token * nc;
    const open = this.openCounters;
    for (let k = 0; k < nc; k++) this.rowCounters.push(metrics[k + 1] - open[base + k]);
    const np = this.sites[site].parameterNames.length;
    this.rowParamBase.push(this.paramNumber.length);
    const nums = this.openParamNumber[token];
    const strs = this.openParamString[token];
    for (let k = 0; k < np; k++) {
      this.paramNumber.push(nums[k]);
      this.paramString.push(strs[k]);
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

  /** Completed record `i` (0-based, completion order) as an object. */
  record(i: number): InvocationRecord {
    if (!(i >= 0 && i < this.rows)) throw new RangeError(`no record ${i}: the Mastermind holds ${this.rows}`);
    const site = this.sites[this.rowSite.get(i)];
    const parameters: Record<string, number | string> = {};
    const pbase = this.rowParamBase.get(i);
    const names = site.parameterNames;
    for (let k = 0; k < names.length; k++) {
      const s = this.paramString.get(pbase + k);
      parameters[names[k]] = s >= 0 ? this.strings[s] : this.paramNumber.get(pbase + k);
    }
    const counters: Record<string, number> = {};
    const nc = this.nc;
    for (let k = 0; k < nc; k++) counters[this.counterNames[k]] = this.rowCounters.get(i * nc + k);
    const wallTime = this.rowWall.get(i);
    const mpiTime = this.rowMpi.get(i);
    return {
      component: site.component,
      port: site.port,
      method: site.method,
      rank: this.rowRank.get(i),
      parameters,
      start: this.rowStart.get(i),
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
    const cap = this.openSite.length * 2;
    const grow = <T extends Int32Array | Float64Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.openSite = grow(this.openSite, cap);
    this.openRank = grow(this.openRank, cap);
    this.openStart = grow(this.openStart, cap);
    this.openMpi = grow(this.openMpi, cap);
    this.openCounters = grow(this.openCounters, cap * this.nc);
  }
}
