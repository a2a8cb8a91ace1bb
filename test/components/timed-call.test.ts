import { describe, expect, it } from "vitest";
import type { Yieldable } from "../../engine/index.js";
import { BoundMethod, CallTiming, MethodSite, Mastermind, Measurement, TimedCall, type CallArgs, type MethodImpl } from "../../components/index.js";

/** A timing context over one rank whose clock the test moves by hand. */
function setup() {
  const clock = { t: 0 };
  const meas = new Measurement(["TIME"], 1, (_rank, out) => (out[0] = clock.t));
  const mm = new Mastermind([]);
  const timing = new CallTiming(meas, mm, (_rank, out) => (out[0] = clock.t), new Float64Array(1));
  const timer = meas.timer("C::run()");
  const site = { site: mm.site("C", "work", "run", ["x"]), extract: [["x", "x", "value"]] as const };
  const callsOf = () => {
    const rp = meas.ranks[0];
    let n = 0;
    for (let node = 1; node < rp.nodeCount; node++) if (rp.timerOf(node) === timer) n += rp.callsOf(node);
    return n;
  };
  /** A timed call of `impl` on rank 0 through the proxied method. */
  const timed = (impl: MethodImpl, args: CallArgs) => new TimedCall(new BoundMethod(impl, new MethodSite(timing, timing, timer, site), 0), args);
  return { clock, meas, mm, timing, timer, site, callsOf, timed };
}

const tick = {} as Yieldable; // what the method yields; the test drives the iterator itself

describe("a timed call", () => {
  it("starts its timer when it first runs and stops it with the method's return value", () => {
    const { clock, meas, mm, timing, callsOf, timed } = setup();
    let bodyRan = false;
    const call = timed(function* () {
      bodyRan = true;
      yield tick;
      clock.t = 4;
      return 42;
    }, { x: 3 });
    expect(bodyRan).toBe(false);
    expect(callsOf()).toBe(0);
    clock.t = 1;
    expect(call.next()).toEqual({ value: tick, done: false });
    expect(meas.ranks[0].depth).toBe(1);
    expect(call.next()).toEqual({ value: 42, done: true });
    expect(meas.ranks[0].depth).toBe(0);
    expect(meas.ranks[0].inclusive(1, 0)).toBe(3);
    expect(mm.records.map((r) => [r.parameters.x, r.start, r.wallTime])).toEqual([[3, 1, 3]]);
    expect(call.next()).toEqual({ value: undefined, done: true });
    expect(timing.invocations).toBe(1);
    expect(callsOf()).toBe(1);
  });

  it("works under yield* like the generator wrapper it replaces", () => {
    const { timing, mm, timed } = setup();
    function* caller() {
      const r = yield* timed(function* (args: CallArgs) {
        yield tick;
        return (args.x as number) * 2;
      }, { x: 5 });
      return r;
    }
    const g = caller();
    expect(g.next().done).toBe(false);
    expect(g.next()).toEqual({ value: 10, done: true });
    expect(mm.count).toBe(1);
  });

  it("lets an error of the method through without stopping the timer, and is then finished", () => {
    const { meas, mm, timing, timed } = setup();
    const call = timed(function* () {
      yield tick;
      throw new Error("boom");
    }, { x: 1 });
    call.next();
    expect(() => call.next()).toThrow("boom");
    expect(meas.ranks[0].depth).toBe(1);
    expect(mm.count).toBe(0);
    expect(call.next()).toEqual({ value: undefined, done: true });
  });

  it("passes a thrown interrupt to the method, which may catch it and return normally", () => {
    const { meas, mm, timing, timed } = setup();
    const call = timed(function* () {
      try {
        yield tick;
      } catch {
        return "caught";
      }
      return "not interrupted";
    }, { x: 1 });
    call.next();
    expect(call.throw(new Error("interrupt"))).toEqual({ value: "caught", done: true });
    expect(meas.ranks[0].depth).toBe(0);
    expect(mm.count).toBe(1);
  });

  it("ends without a stop when returned early, as a generator wrapper would", () => {
    const { meas, mm, timing, timed } = setup();
    const call = timed(function* () {
      yield tick;
      return 1;
    }, { x: 1 });
    call.next();
    expect(call.return(7)).toEqual({ value: 7, done: true });
    expect(meas.ranks[0].depth).toBe(1);
    expect(mm.count).toBe(0);
    expect(call.next()).toEqual({ value: undefined, done: true });
  });
});
