import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ChromeTraceFile, TraceIntervals } from "../../profile/index.js";
import { callBefore, droppedFlows, perfettoFlowBindings, perfettoImport, type TraceEvent } from "./perfetto-model.js";

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
  it("binds each flow, in Perfetto's reading, to the call that sent it and the one it was received in", () => {
    // Thread 0: a method (t0) sends from an MPI call of no length (t1) followed at the same
    // instant by a wait (t2). Thread 1: in a wait (t3) when the message arrives at 5, which ends
    // then and a next call (t4) starts at that instant.
    const iv = new TraceIntervals();
    iv.open(0, 0); // t0
    iv.open(0, 1); // t1
    const k = iv.startFlow(0, 1, 64);
    iv.close(0, 1, 1);
    iv.open(0, 1); // t2
    iv.close(0, 2, 3);
    iv.close(0, 0, 4);
    iv.open(1, 2); // t3
    iv.endFlow(k, 1, 5);
    iv.close(1, 3, 5);
    iv.open(1, 5); // t4
    iv.close(1, 4, 6);
    const lane = (thread: number) => ({ pid: 0, tid: thread });
    const events = new ChromeTraceFile(iv, { ...layout(2), lane }, {}).traceEvents as TraceEvent[];
    expect(perfettoFlowBindings(events)).toEqual(new Map([[0, ["t1", "t3"]]]));
    // Each right after its call, at the call's start.
    const flows = events.filter((e) => e.ph === "s" || e.ph === "f");
    for (const f of flows) {
      const call = callBefore(events, f);
      expect([call.name, call.ts]).toEqual([f.ph === "s" ? "t1" : "t3", f.ts]);
    }
  });

  it("reads a late sender's end after its start, at the send time, bound to the call that was waiting", () => {
    // Rank `waiter` waits (t3) from 0; rank `sender` sends at 5 from a call of no length (t1);
    // the message arrives at 7, when the wait ends. The wait's start (0) is before the send's.
    for (const [sender, waiter] of [
      [0, 1],
      [1, 0],
    ]) {
      const iv = new TraceIntervals();
      iv.open(waiter, 0);
      iv.open(sender, 5);
      const k = iv.startFlow(sender, 5, 64);
      iv.close(sender, 1, 5);
      iv.endFlow(k, waiter, 7);
      iv.close(waiter, 3, 7);
      const lane = (thread: number) => ({ pid: 0, tid: thread });
      const events = new ChromeTraceFile(iv, { ...layout(2), lane }, {}).traceEvents as TraceEvent[];
      expect(droppedFlows(events)).toBe(0);
      expect(perfettoFlowBindings(events)).toEqual(new Map([[0, ["t1", "t3"]]]));
      const s = events.find((e) => e.ph === "s")!;
      const f = events.find((e) => e.ph === "f")!;
      expect([callBefore(events, s).name, s.ts]).toEqual(["t1", 5]);
      // At the send time, written after the wait; 1 ns later when its start, at the same time,
      // is written after it (the waiter's thread first), which Perfetto would read first.
      expect([callBefore(events, f).name, f.ts]).toEqual(["t3", waiter < sender ? 5.001 : 5]);
    }
  });

  it("binds an end received in a call with children to the call while no child has begun, else to the child begun last", () => {
    // Rank 1 is in a method (t5) from 0 to 10, which calls t6 from 2 to 3; a message from rank 0
    // arrives at 4, in the method. Rank 0 sends it from t1 (start..stop), at `sent`.
    const run = (start: number, stop: number, sent: number): { to: string; ts: number } => {
      const iv = new TraceIntervals();
      iv.open(0, start);
      const k = iv.startFlow(0, sent, 8);
      iv.close(0, 1, stop);
      iv.open(1, 0);
      iv.open(1, 2);
      iv.close(1, 6, 3);
      iv.endFlow(k, 1, 4);
      iv.close(1, 5, 10);
      const lane = (thread: number) => ({ pid: 0, tid: thread });
      const events = new ChromeTraceFile(iv, { ...layout(2), lane }, {}).traceEvents as TraceEvent[];
      expect(droppedFlows(events)).toBe(0);
      const f = events.find((e) => e.ph === "f")!;
      expect(perfettoFlowBindings(events).get(0)![1]).toBe(callBefore(events, f).name);
      return { to: callBefore(events, f).name, ts: f.ts };
    };
    // Sent before the child began: at the send time.
    expect(run(1, 1, 1)).toEqual({ to: "t5", ts: 1 });
    // Sent after it began, from a call begun before: at that call's start, where the flow starts.
    expect(run(1, 2.5, 2.5)).toEqual({ to: "t5", ts: 1 });
    // Sent from a call begun after the child: no time binds the end to the method and reads it
    // after its start; at the send time it binds to the child (begun last, ended since).
    expect(run(2.5, 2.5, 2.5)).toEqual({ to: "t6", ts: 2.5 });
  });

  it("never lets Perfetto drop a flow, and binds each end to its receiving call or, failing that, to a call inside it", () => {
    // Random call trees on 3 threads whose calls send (at their start or after their children)
    // to the next thread, and receive there what was sent strictly before.
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(2), fc.nat(3), fc.nat(4), fc.nat(4)), { minLength: 3, maxLength: 40 }), (shape) => {
        type Op = { t: number; thread: number; seq: number; op: "open" | "close" | "send" | "recv"; id: number };
        const ops: Op[] = [];
        let next = 0;
        for (let thread = 0; thread < 3; thread++) {
          let t = thread * 0.25;
          let seq = 0;
          const call = (depth: number): void => {
            const me = next++;
            const [children, gap, own, marks] = shape[me % shape.length]!;
            ops.push({ t, thread, seq: seq++, op: "open", id: me });
            if (marks % 2 === 1) ops.push({ t, thread, seq: seq++, op: marks === 1 ? "send" : "recv", id: me });
            for (let c = 0; c < children && depth < 3 && next < 200; c++) {
              t += gap * 0.25;
              call(depth + 1);
            }
            if (marks >= 2) ops.push({ t, thread, seq: seq++, op: marks === 2 ? "send" : "recv", id: me });
            t += own * 0.25;
            ops.push({ t, thread, seq: seq++, op: "close", id: me });
          };
          for (let c = 0; c < 4; c++) {
            call(0);
            t += 0.5;
          }
        }
        ops.sort((a, b) => a.t - b.t || a.thread - b.thread || a.seq - b.seq);
        const iv = new TraceIntervals();
        const inbox: { k: number; sent: number }[][] = [[], [], []];
        const receivedIn = new Map<number, number>();
        for (const o of ops) {
          if (o.op === "open") iv.open(o.thread, o.t);
          else if (o.op === "close") iv.close(o.thread, o.id, o.t);
          else if (o.op === "send") inbox[(o.thread + 1) % 3]!.push({ k: iv.startFlow(o.thread, o.t, 8), sent: o.t });
          else if (inbox[o.thread]!.length > 0 && inbox[o.thread]![0]!.sent < o.t) {
            const { k } = inbox[o.thread]!.shift()!;
            iv.endFlow(k, o.thread, o.t);
            receivedIn.set(k, o.id);
          }
        }
        const lane = (thread: number) => ({ pid: 0, tid: thread });
        const events = new ChromeTraceFile(iv, { ...layout(3), lane }, {}).traceEvents as TraceEvent[];
        const flows = perfettoImport(events);
        expect(flows.size).toBe(receivedIn.size);
        const ns = (us: number): number => Math.round(us * 1000);
        for (const [k, id] of receivedIn) {
          const f = flows.get(k)!;
          expect(f.dropped).toBe(false);
          const call = events.find((e) => (e.ph === "X" || e.ph === "i") && e.name === `t${id}`)!;
          const end = (e: TraceEvent): number => ns(e.ts) + ns(e.dur ?? 0);
          const fEvent = events.find((e) => e.ph === "f" && e.id === k)!;
          const sEvent = events.find((e) => e.ph === "s" && e.id === k)!;
          // Inside the call, read after the start.
          expect(ns(fEvent.ts)).toBeGreaterThanOrEqual(ns(call.ts));
          expect(ns(fEvent.ts)).toBeLessThanOrEqual(end(call));
          expect(ns(fEvent.ts)).toBeGreaterThanOrEqual(ns(sEvent.ts));
          // The receiving call, unless one of its children began by the start's time; then one of those.
          const children = events.filter((e) => (e.ph === "X" || e.ph === "i") && e.tid === call.tid && e !== call && ns(e.ts) >= ns(call.ts) && end(e) <= end(call) && events.indexOf(e) > events.indexOf(call));
          const early = children.filter((e) => ns(e.ts) <= Math.max(ns(call.ts), ns(sEvent.ts)) + 1);
          if (early.length === 0) expect(f.to).toBe(call);
          else expect([call, ...children]).toContain(f.to);
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  it("gives times in whole nanoseconds, so that a viewer rounding ts and dur to nanoseconds apart ends each interval where the next begins", () => {
    // Perfetto reads a fractional ts or dur as round(us * 1000) ns, each on its own: an interval
    // from 1.0006 to 1.0024 us would end at 1001 + 2 = 1003 ns, past its sibling starting at 1002 ns,
    // and the sibling would be taken for a partly overlapping slice.
    const ns = (us: number): number => (Number.isInteger(us) ? us * 1000 : Math.round(us * 1000));
    const iv = new TraceIntervals();
    iv.add(0, 1, 1.0006, 1.0024, 1);
    iv.add(0, 2, 1.0024, 2.0000004, 1);
    iv.add(0, 0, 1.0006, 2.0000004, 0);
    iv.add(0, 3, 2.0000004, 2.0000006, 0);
    // A flow of no call: at its own times.
    iv.endFlow(iv.startFlow(0, 1.0024, 8), 0, 2.0000004);
    const lane = (thread: number) => ({ pid: 0, tid: thread });
    const events = new ChromeTraceFile(iv, { ...layout(1), lane }, {}).traceEvents.slice(2 + 2) as Array<{ name: string; ph: string; ts: number; dur?: number }>;
    const at = (name: string) => events.find((e) => e.name === name)!;
    const end = (name: string) => ns(at(name).ts) + ns(at(name).dur ?? 0);
    expect([ns(at("t0").ts), end("t0")]).toEqual([1001, 2000]);
    expect([ns(at("t1").ts), end("t1")]).toEqual([1001, 1002]);
    expect([ns(at("t2").ts), end("t2")]).toEqual([1002, 2000]);
    // Read in microseconds, a slice still ends where the next begins.
    expect(ns(at("t1").ts) + ns(at("t1").dur!)).toBe(ns(at("t2").ts));
    // Every ts and dur is a whole number of nanoseconds, written as such (no 0.35599999999999987).
    for (const e of events) for (const v of [e.ts, e.dur ?? 0]) expect(String(v)).toMatch(/^\d+(\.\d{1,3})?$/);
    // Shorter than half a nanosecond: no length at all.
    expect(at("t3")).toMatchObject({ ph: "i", ts: 2 });
    expect(events.filter((e) => e.ph === "s" || e.ph === "f").map((e) => ns(e.ts))).toEqual([1002, 2000]);
    // Each time is a whole nanosecond's decimal text.
    for (const e of events) expect(Math.round(e.ts * 1000) / 1000).toBe(e.ts);
  });

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
