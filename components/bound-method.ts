import type { Yieldable } from "../engine/index.js";
import type { MethodImpl, PortMethod } from "./component.js";
import type { Mastermind } from "./mastermind.js";
import type { Measurement, MetricReader } from "./measurement/index.js";
import { isArrayArg, type CallArgs } from "./ports.js";
import { TimedCall } from "./timed-call.js";

/** Counts the component invocations of a run, measured or not. */
export class CallCounter {
  /** Component invocations made through port calls so far. */
  invocations = 0;
}

/** What every call of a measured run shares: the measurement, the Mastermind and the metric reader. */
export class CallTiming extends CallCounter {
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
    super();
    this.values = new Float64Array(meas.metrics.length);
  }
}

/** A proxied method: the Mastermind site of its records and how to extract each parameter. */
export interface ProxySite {
  /** Site id from {@link Mastermind.site}. */
  readonly site: number;
  /** Per parameter, in the site's order: where its value comes from. */
  readonly extract: ReadonlyArray<ProxyExtractor>;
}

/**
 * What the generated proxy of one provider's method does around every call, shared by all ranks:
 * count the call and, when measured, time it under the method's timer and, for a proxied port,
 * record it in the Mastermind.
 */
export class MethodSite {
  /**
   * @param counter - the run's invocation counter
   * @param timing - the run's timing state, or undefined when the run is not measured
   * @param timer - the method's timer id (ignored when not measured)
   * @param proxy - the proxy site when the port is proxied, else undefined
   */
  constructor(
    readonly counter: CallCounter,
    readonly timing: CallTiming | undefined,
    readonly timer: number,
    readonly proxy: ProxySite | undefined,
  ) {}

  /**
   * Opens one call on `rank` with arguments `args`: counts it and, when measured, starts the
   * method's timer and opens the proxy's record with the extracted parameters.
   * @returns the token {@link leave} takes
   */
  enter(rank: number, args: CallArgs): number {
    this.counter.invocations++;
    const t = this.timing;
    if (t === undefined) return -1;
    t.read(rank, t.values);
    t.meas.startWith(rank, this.timer, t.values);
    const proxy = this.proxy;
    if (proxy === undefined) return -1;
    const mm = t.mastermind!;
    const token = mm.begin(rank, proxy.site, t.values, t.mpiTime[rank]);
    const ex = proxy.extract;
    for (let k = 0; k < ex.length; k++) {
      const e = ex[k];
      mm.param(token, k, e[2] === "constant" ? e[3]! : extractParam(args[e[1]], e[2]));
    }
    return token;
  }

  /** Closes the call on `rank` that {@link enter} opened (token from it): closes the record and stops the timer. */
  leave(rank: number, token: number): void {
    const t = this.timing;
    if (t === undefined) return;
    t.read(rank, t.values);
    if (this.proxy !== undefined) t.mastermind!.end(token, t.values, t.mpiTime[rank]);
    t.meas.stopWith(rank, this.timer, t.values);
  }
}

/**
 * One method of one provider on one rank, as its callers reach it: the provider's implementation
 * and its {@link MethodSite}.
 *
 * Callers either take the call as one iterator ({@link call}, for `yield* port.call(...)`) or, in
 * the framework's own call loops, open and close it around the implementation themselves
 * ({@link enter}, `yield* impl(args)`, {@link leave}): that keeps the proxy out of the chain of
 * frames every resume of the callee passes through. Both do the same work at the same instants.
 * (Three fields: one cache line per rank and method, touched on every call.)
 */
export class BoundMethod implements PortMethod {
  /**
   * @param impl - the provider's method on this rank
   * @param site - what the proxy does around each call
   * @param rank - the calling rank
   */
  constructor(
    readonly impl: MethodImpl,
    private readonly site: MethodSite,
    private readonly rank: number,
  ) {}

  /** See {@link MethodSite.enter}. */
  enter(args: CallArgs): number {
    return this.site.enter(this.rank, args);
  }

  /** See {@link MethodSite.leave}. */
  leave(token: number): void {
    this.site.leave(this.rank, token);
  }

  /** One call as an iterator: `const r = yield* method.call(args)`. */
  call(args: CallArgs): Generator<Yieldable, unknown, any> {
    if (this.site.timing === undefined) {
      // No wrapper when unmeasured: a frame here would be paid on every resume of everything below it.
      this.site.counter.invocations++;
      return this.impl(args);
    }
    return new TimedCall(this, args);
  }
}

/**
 * How a proxy gets one parameter of its records: `[parameter, argument, "value" | "size"]` from a
 * call's argument (its value, or its size for `size of argument`), or `[parameter, key,
 * "constant", value]` from the component's own scenario parameter `key` (`parameter
 * implementation`: which implementation the instance runs), the same in every call.
 */
export type ProxyExtractor = readonly [param: string, source: string, kind: "value" | "size" | "constant", constant?: number | string];

/** The value a proxy records for an argument: its value, or its size for `size of argument` (NaN for none). */
export function extractParam(v: unknown, kind: "value" | "size"): number | string {
  if (kind === "size") {
    if (isArrayArg(v)) return v.length;
    if (typeof v === "number") return v;
    return Number.NaN;
  }
  if (isArrayArg(v)) return v.length;
  if (typeof v === "number" || typeof v === "string") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  // A call that does not pass the argument: no value (NaN), not the text "undefined".
  if (v === undefined || v === null) return Number.NaN;
  return String(v);
}
