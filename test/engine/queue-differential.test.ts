import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HeapQueue, ReferenceQueue, Simulation, packOrder, type EventQueue } from "../../engine/index.js";

type Op = { kind: "push"; time: number; priority: number } | { kind: "pop" } | { kind: "cancel"; which: number } | { kind: "peek" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("push" as const), time: fc.integer({ min: 0, max: 12 }).map((t) => t / 4), priority: fc.integer({ min: -2, max: 2 }) }) },
  { weight: 3, arbitrary: fc.constant({ kind: "pop" as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("cancel" as const), which: fc.nat(200) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "peek" as const }) },
);

/** Replays operations on a queue; returns the observable trace. */
function replay(q: EventQueue, ops: readonly Op[]): unknown[] {
  const trace: unknown[] = [];
  const handles: number[] = [];
  let seq = 0;
  for (const op of ops) {
    if (op.kind === "push") {
      const id = seq;
      handles.push(q.push(op.time, packOrder(op.priority, seq++), () => id, id));
    } else if (op.kind === "pop") {
      const h = q.pop();
      trace.push(h === undefined ? "empty" : [q.poppedTime, h(undefined), q.poppedArg]);
    } else if (op.kind === "cancel") {
      if (handles.length > 0) trace.push(["cancel", q.cancel(handles[op.which % handles.length])]);
    } else trace.push(["peek", q.peekTime()]);
    trace.push(["size", q.size]);
  }
  for (let h = q.pop(); h !== undefined; h = q.pop()) trace.push([q.poppedTime, h(undefined)]);
  return trace;
}

describe("HeapQueue against the js-sdsl reference queue", () => {
  it("fires, cancels and peeks identically on random schedules with many ties", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), (ops) => {
        expect(replay(new HeapQueue(16), ops)).toEqual(replay(new ReferenceQueue(), ops));
      }),
      { numRuns: 400 },
    );
  });

  it("gives identical simulation traces with either queue, including cancellation from handlers", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        const run = (queue: "heap" | "reference") => {
          const sim = new Simulation({ seed, queue });
          const rng = sim.random("ops");
          const trace: Array<[number, number]> = [];
          const live: number[] = [];
          let n = 0;
          const handler = (id: number): void => {
            trace.push([sim.now, id]);
            if (n < 400) {
              const k = rng.integer(0, 3);
              for (let i = 0; i < k; i++) live.push(sim.schedule(rng.integer(0, 3) * 0.5, handler, n++, rng.integer(-1, 1)));
              if (live.length > 0 && rng.next() < 0.3) sim.cancel(live[rng.integer(0, live.length - 1)]);
            }
          };
          for (let i = 0; i < 5; i++) sim.schedule(0, handler, n++);
          sim.run();
          return trace;
        };
        expect(run("heap")).toEqual(run("reference"));
      }),
      { numRuns: 60 },
    );
  });

  it("survives heavy cancellation (compaction) and growth without losing or reordering events", () => {
    const q = new HeapQueue(16);
    const ref = new ReferenceQueue();
    const hs: Array<[number, number]> = [];
    for (let i = 0; i < 20_000; i++) {
      const t = (i * 7919) % 1000;
      const o = packOrder(0, i);
      hs.push([q.push(t, o, () => i, undefined), ref.push(t, o, () => i, undefined)]);
    }
    for (let i = 0; i < hs.length; i += 3) {
      expect(q.cancel(hs[i][0])).toBe(true);
      ref.cancel(hs[i][1]);
    }
    expect(q.size).toBe(ref.size);
    const a: number[] = [];
    const b: number[] = [];
    for (let h = q.pop(); h; h = q.pop()) a.push(h(undefined) as unknown as number);
    for (let h = ref.pop(); h; h = ref.pop()) b.push(h(undefined) as unknown as number);
    expect(a).toEqual(b);
    expect(a.length).toBe(20_000 - Math.ceil(20_000 / 3));
  });
});
