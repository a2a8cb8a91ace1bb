import { describe, expect, it } from "vitest";
import { HeapQueue, InvalidDelayError, Simulation } from "../../engine/index.js";

describe("Simulation callback kernel", () => {
  it("orders simultaneous events by schedule order", () => {
    const sim = new Simulation();
    const trace: string[] = [];
    sim.schedule(5, () => trace.push("a@5"));
    sim.schedule(1, () => trace.push("b@1"));
    sim.schedule(5, () => trace.push("c@5"));
    sim.schedule(0, () => trace.push("d@0"));
    sim.schedule(5, () => trace.push("e@5"));
    sim.run();
    expect(trace).toEqual(["d@0", "b@1", "a@5", "c@5", "e@5"]);
    expect(sim.now).toBe(5);
    expect(sim.eventsProcessed).toBe(5);
  });

  it("fires lower priorities first among simultaneous events, then schedule order", () => {
    const sim = new Simulation();
    const trace: string[] = [];
    sim.schedule(2, () => trace.push("n1"), undefined, 0);
    sim.schedule(2, () => trace.push("late"), undefined, 3);
    sim.schedule(2, () => trace.push("urgent"), undefined, -1);
    sim.schedule(2, () => trace.push("n2"), undefined, 0);
    sim.run();
    expect(trace).toEqual(["urgent", "n1", "n2", "late"]);
  });

  it("passes the argument given at schedule time and sets now before the handler runs", () => {
    const sim = new Simulation();
    const seen: Array<[number, string]> = [];
    const h = (s: string) => seen.push([sim.now, s]);
    sim.schedule(3.5, h, "x");
    sim.schedule(1.25, h, "y");
    sim.run();
    expect(seen).toEqual([
      [1.25, "y"],
      [3.5, "x"],
    ]);
  });

  it("rejects a stale handle after its slot has served 2^26 events", () => {
    // One pending event at a time: every event takes the same slot, whose version wraps.
    const q = new HeapQueue();
    const noop = () => {};
    const first = q.push(0, 0, noop, undefined);
    for (let i = 1; i <= 2 ** 26; i++) {
      q.pop();
      q.push(i, i, noop, undefined);
    }
    expect(q.cancel(first)).toBe(false);
    expect(q.size).toBe(1);
    expect(q.pop()).toBe(noop);
    expect(q.poppedTime).toBe(2 ** 26);
  }, 20_000);

  it("cancels pending events and rejects stale handles, even after slot reuse", () => {
    const sim = new Simulation();
    const trace: string[] = [];
    const a = sim.schedule(1, () => trace.push("a"));
    const b = sim.schedule(2, () => trace.push("b"));
    expect(sim.cancel(a)).toBe(true);
    expect(sim.cancel(a)).toBe(false);
    expect(sim.pending).toBe(1);
    sim.run();
    expect(trace).toEqual(["b"]);
    expect(sim.cancel(b)).toBe(false); // already fired
    // The freed slots are reused by new events: old handles must not cancel them.
    sim.schedule(1, () => trace.push("c"));
    sim.schedule(1, () => trace.push("d"));
    expect(sim.cancel(a)).toBe(false);
    expect(sim.cancel(b)).toBe(false);
    sim.run();
    expect(trace).toEqual(["b", "c", "d"]);
  });

  it("steps one event at a time and peeks at the next time", () => {
    const sim = new Simulation();
    sim.schedule(4, () => undefined);
    sim.schedule(2, () => undefined);
    expect(sim.peek()).toBe(2);
    expect(sim.step()).toBe(true);
    expect(sim.now).toBe(2);
    expect(sim.peek()).toBe(4);
    expect(sim.step()).toBe(true);
    expect(sim.step()).toBe(false);
    expect(sim.peek()).toBe(Infinity);
  });

  it("stops before events after `until` and leaves them pending", () => {
    const sim = new Simulation();
    const trace: number[] = [];
    for (const t of [1, 2, 3, 4]) sim.schedule(t, () => trace.push(t));
    const r = sim.run({ until: 2.5 });
    expect(trace).toEqual([1, 2]);
    expect(r.reason).toBe("until");
    expect(sim.now).toBe(2.5);
    expect(sim.pending).toBe(2);
    sim.run();
    expect(trace).toEqual([1, 2, 3, 4]);
  });

  it("fires events scheduled exactly at `until`", () => {
    const sim = new Simulation();
    let fired = false;
    sim.schedule(2, () => (fired = true));
    sim.run({ until: 2 });
    expect(fired).toBe(true);
  });

  it.each([[-1], [-1e-300], [NaN], [Infinity], [-Infinity]])("rejects the delay %s with the offending value", (d) => {
    const sim = new Simulation();
    expect(() => sim.schedule(d, () => undefined)).toThrow(InvalidDelayError);
    try {
      sim.schedule(d, () => undefined);
    } catch (e) {
      expect((e as InvalidDelayError).value).toBe(d);
      expect((e as Error).message).toContain(Number.isNaN(d) ? "NaN" : String(d));
    }
    expect(() => sim.timeout(d)).toThrow(InvalidDelayError);
  });

  it("rejects absolute times in the past", () => {
    const sim = new Simulation();
    sim.schedule(5, () => expect(() => sim.scheduleAt(4, () => undefined)).toThrow(/time/));
    sim.run();
  });

  it("stop() ends run after the current event", () => {
    const sim = new Simulation();
    const trace: number[] = [];
    sim.schedule(1, () => {
      trace.push(1);
      sim.stop();
    });
    sim.schedule(2, () => trace.push(2));
    expect(sim.run().reason).toBe("stopped");
    expect(trace).toEqual([1]);
  });
});

describe("a time before now", () => {
  function at5(): Simulation {
    const sim = new Simulation();
    sim.schedule(5, () => undefined);
    sim.run();
    return sim;
  }

  it("is refused by scheduleAt and scheduleReserved saying the time must not be before now", () => {
    const sim = at5();
    expect(() => sim.scheduleAt(3, () => undefined)).toThrow(InvalidDelayError);
    expect(() => sim.scheduleAt(3, () => undefined)).toThrow("invalid time 3: must be a finite number >= 5 (now)");
    expect(() => sim.scheduleReserved(3, sim.reserveOrder(), () => undefined)).toThrow("invalid time 3: must be a finite number >= 5 (now)");
    expect(() => sim.scheduleAt(Infinity, () => undefined)).toThrow("invalid time Infinity: must be a finite number >= 5 (now)");
  });

  it("is refused by run's until, which may be infinite", () => {
    const sim = at5();
    expect(() => sim.run({ until: 3 })).toThrow("invalid until 3: must be a number >= 5 (now), or Infinity");
    expect(() => sim.run({ until: Number.NaN })).toThrow("invalid until NaN: must be a number >= 5 (now), or Infinity");
    expect(sim.run({ until: Infinity }).reason).toBe("empty");
  });
});

describe("the event list of a simulation", () => {
  it("is refused when named neither heap nor reference", () => {
    expect(() => new Simulation({ queue: "calendar" as never })).toThrow(RangeError);
    expect(() => new Simulation({ queue: "calendar" as never })).toThrow("unknown event list 'calendar': use heap, reference or an EventQueue");
  });

  it("orders events alike with either named list", () => {
    for (const queue of ["heap", "reference"] as const) {
      const sim = new Simulation({ queue });
      const trace: number[] = [];
      sim.schedule(2, () => trace.push(2));
      sim.schedule(1, () => trace.push(1));
      sim.run();
      expect(trace).toEqual([1, 2]);
    }
  });
});
