import type { Yieldable } from "../engine/index.js";
import type { MethodImpl } from "./component.js";
import type { Mastermind } from "./mastermind.js";
import type { Measurement, MetricReader } from "./measurement/index.js";
import { isArrayArg, type CallArgs } from "./ports.js";

/** What every timed call of one run shares: the measurement, the Mastermind and the metric reader. */
export class CallTiming {
  /** Component invocations made through timed calls so far. */
  invocations = 0;
  /** Scratch for one read of a rank's metric values (TIME first, then counters). */
  readonly values: Float64Array;

  /**
   * @param meas - the run's measurement component
   * @param mastermind - the run's Mastermind (records of proxied calls), if any
   * @param read - reads a rank's current metric values, in the measurement's metric order
   * @param mpiTime - per rank, total MPI time so far (microseconds, outermost calls only)
   */
  constructor(
    readonly meas: Measurement,
    readonly mastermind: Mastermind | undefined,
    readonly read: MetricReader,
    readonly mpiTime: Float64Array,
  ) {
    this.values = new Float64Array(meas.metrics.length);
  }
}

/** A proxied method: the Mastermind site of its records and how to extract each parameter. */
export interface ProxySite {
  /** Site id from {@link Mastermind.site}. */
  readonly site: number;
  /** Per parameter, in the site's order: the argument name and whether its value or size is recorded. */
  readonly extract: ReadonlyArray<readonly [string, string, "value" | "size"]>;
}

const NOT_STARTED = 0;
const RUNNING = 1;
const DONE = 2;

/**
 * One call of a component method under a timer (and, for a proxied port, a Mastermind record):
 * the timer starts when the call starts running and stops when the method returns, exactly as a
 * generator wrapper `{ start; r = yield* impl(args); stop; return r }` would.
 *
 * It is a hand-written iterator rather than a generator: `yield*` resumes every delegating frame
 * on each resume of the innermost one, and a plain `next()` costs much less than a generator frame.
 * As with such a wrapper, the timer is not stopped when the method throws or is returned early.
 */
export class TimedCall implements Generator<Yieldable, unknown, any> {
  private state = NOT_STARTED;
  private inner: Generator<Yieldable, unknown, any> | undefined;
  private token = -1;

  /**
   * @param timing - the run's shared timing state
   * @param rank - the calling rank
   * @param timer - the method's timer id
   * @param proxy - the proxy site when the port is proxied, else undefined
   * @param impl - the provider's method
   * @param args - the call's arguments
   */
  constructor(
    private readonly timing: CallTiming,
    private readonly rank: number,
    private readonly timer: number,
    private readonly proxy: ProxySite | undefined,
    private readonly impl: MethodImpl,
    private readonly args: CallArgs,
  ) {}

  next(value?: unknown): IteratorResult<Yieldable, unknown> {
    if (this.state !== RUNNING) {
      if (this.state === DONE) return { value: undefined, done: true };
      this.begin();
    }
    let r: IteratorResult<Yieldable, unknown>;
    try {
      r = this.inner!.next(value);
    } catch (err) {
      this.state = DONE; // a method that throws ends the call, without a stop
      throw err;
    }
    if (r.done) this.finish();
    return r;
  }

  throw(e: unknown): IteratorResult<Yieldable, unknown> {
    if (this.state !== RUNNING) {
      this.state = DONE;
      throw e;
    }
    let r: IteratorResult<Yieldable, unknown>;
    try {
      r = this.inner!.throw(e);
    } catch (err) {
      this.state = DONE;
      throw err;
    }
    if (r.done) this.finish();
    return r;
  }

  return(value: unknown): IteratorResult<Yieldable, unknown> {
    if (this.state !== RUNNING) {
      this.state = DONE;
      return { value, done: true };
    }
    const r = this.inner!.return(value);
    if (r.done) this.state = DONE; // an early return skips the stop, as in a generator wrapper
    return r;
  }

  [Symbol.iterator](): this {
    return this;
  }

  private begin(): void {
    const t = this.timing;
    const rank = this.rank;
    t.invocations++;
    t.read(rank, t.values);
    t.meas.startWith(rank, this.timer, t.values);
    const proxy = this.proxy;
    if (proxy !== undefined) {
      const mm = t.mastermind!;
      const token = (this.token = mm.begin(rank, proxy.site, t.values, t.mpiTime[rank]));
      const ex = proxy.extract;
      for (let k = 0; k < ex.length; k++) mm.param(token, k, extractParam(this.args[ex[k][1]], ex[k][2]));
    }
    this.state = DONE; // until the method is created: if that throws, the call is over
    this.inner = this.impl(this.args);
    this.state = RUNNING;
  }

  private finish(): void {
    this.state = DONE;
    const t = this.timing;
    const rank = this.rank;
    t.read(rank, t.values);
    if (this.proxy !== undefined) t.mastermind!.end(this.token, t.values, t.mpiTime[rank]);
    t.meas.stopWith(rank, this.timer, t.values);
  }
}

/** The value a proxy records for an argument: its value, or its size for `size of argument`. */
export function extractParam(v: unknown, kind: "value" | "size"): number | string {
  if (kind === "size") {
    if (isArrayArg(v)) return v.length;
    if (typeof v === "number") return v;
    return Number.NaN;
  }
  if (isArrayArg(v)) return v.length;
  if (typeof v === "number" || typeof v === "string") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  return String(v);
}
