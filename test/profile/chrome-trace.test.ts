import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ChromeTraceFile, TraceIntervals } from "../../profile/index.js";

/** A layout of one process with `threads` threads whose events are named by id. */
const layout = (threads: number) => ({
  processes: [{ pid: 0, tid: 0, name: "node 0" }],
  threads: Array.from({ length: threads }, (_, t) => ({ pid: 0, tid: t, name: `rank ${t}` })),
  event: (thread: number, id: number) => ({ name: `t${id}`, cat: "c", pid: 0, tid: thread, args: {} }),
});

describe("TraceIntervals.timelineOrder", () => {
  it("puts an interval before those it encloses, also when they start and end together", () => {
    const iv = new TraceIntervals();
    // A method whose whole time is one call: the call finishes (and is recorded) first.
    iv.add(0, 1, 0, 5, 1);
    iv.add(0, 0, 0, 5, 0);
    // Two zero-length siblings at one instant, inside an interval: in the order they ran.
    iv.add(0, 2, 7, 7, 1);
    iv.add(0, 3, 7, 7, 1);
    iv.add(0, 4, 7, 9, 0);
    expect(Array.from(iv.timelineOrder(), (i) => iv.id(i))).toEqual([0, 1, 4, 2, 3]);
  });

  it("orders a call tree so that a viewer's stack reads each interval's parent back", () => {
    // Random call trees recorded as a profiler records them (a call when it ends, with its depth):
    // calls of no length are many, and a parent may start or end with its first or last child.
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(3), fc.nat(2)), { minLength: 1, maxLength: 60 }), (shape) => {
        const iv = new TraceIntervals();
        const parentOf: number[] = [];
        let next = 0;
        let t = 0;
        const call = (depth: number, parent: number): void => {
          const me = next++;
          parentOf[me] = parent;
          const [children, own] = shape[me % shape.length]!;
          const start = t;
          for (let c = 0; c < children && next < shape.length && depth < 5; c++) call(depth + 1, me);
          t += own;
          iv.add(0, me, start, t, depth);
        };
        while (next < shape.length) call(0, -1);
        // A viewer's reading: a slice opens inside the innermost open one it starts before the end of.
        const stack: number[] = [];
        for (const i of iv.timelineOrder()) {
          if (iv.stop(i) === iv.start(i)) continue; // an instant (see ChromeTraceFile)
          while (stack.length > 0 && iv.start(i) >= iv.stop(stack[stack.length - 1]!)) stack.pop();
          expect(stack.length === 0 ? -1 : iv.id(stack[stack.length - 1]!)).toBe(parentOf[iv.id(i)]);
          stack.push(i);
        }
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});

describe("ChromeTraceFile", () => {
  it("writes the text JSON.stringify gives, names first, then one complete event per interval (an instant for one of no length)", () => {
    const iv = new TraceIntervals();
    iv.add(1, 7, 0.5, 2, 0);
    iv.add(0, 3, 0, 1.25, 0);
    iv.add(0, 4, 1.25, 1.25, 0);
    const file = new ChromeTraceFile(iv, layout(2), { ccasim: "test" });
    const pieces: string[] = [];
    file.writeTo((s) => pieces.push(s));
    expect(pieces.join("")).toBe(JSON.stringify(file));
    const events = (JSON.parse(pieces.join("")) as { traceEvents: object[] }).traceEvents;
    expect(events.slice(6)).toEqual([
      { name: "t3", cat: "c", ph: "X", ts: 0, dur: 1.25, pid: 0, tid: 0, args: {} },
      { name: "t4", cat: "c", ph: "i", ts: 1.25, s: "t", pid: 0, tid: 0, args: {} },
      { name: "t7", cat: "c", ph: "X", ts: 0.5, dur: 1.5, pid: 0, tid: 1, args: {} },
    ]);
  });
});
