import { describe, expect, it } from "vitest";
import { droppedFlows, perfettoFlowBindings, perfettoImport, type TraceEvent } from "./perfetto-model.js";

const x = (name: string, tid: number, ts: number, dur: number): TraceEvent => ({ name, ph: "X", ts, dur, tid });
const flow = (ph: "s" | "f", id: number, tid: number, ts: number): TraceEvent => ({ name: "message", ph, ts, tid, id });

describe("the model of Perfetto's JSON import of flows", () => {
  it("drops an end read before its start: at an earlier time, or at the same time and earlier in the file", () => {
    const events = [x("wait", 1, 0, 10), flow("f", 0, 1, 0), x("send", 0, 5, 1), flow("s", 0, 0, 5)];
    expect(perfettoFlowBindings(events)).toEqual(new Map([[0, ["send", "(dropped)"]]]));
    expect(droppedFlows(events)).toBe(1);
    // At one time, flow events are read in file order.
    const tie = [x("wait", 1, 0, 10), flow("f", 0, 1, 5), x("send", 0, 5, 1), flow("s", 0, 0, 5)];
    expect(droppedFlows(tie)).toBe(1);
    const later = [x("wait", 1, 0, 10), flow("f", 0, 1, 5.001), x("send", 0, 5, 1), flow("s", 0, 0, 5)];
    expect(perfettoFlowBindings(later)).toEqual(new Map([[0, ["send", "wait"]]]));
    expect(droppedFlows(later)).toBe(0);
  });

  it("binds a flow event to the slice last read on its thread, also one that has ended", () => {
    // A method (m) with a child (c) from 1 to 2: an end at 3 binds to c, which no slice read
    // since has popped; one at 0.5 (before c) binds to m.
    const events = [x("send", 0, 0, 0.1), flow("s", 0, 0, 0), flow("s", 1, 0, 0), x("m", 1, 0, 10), flow("f", 0, 1, 3), flow("f", 1, 1, 0.5), x("c", 1, 1, 1)];
    expect(perfettoFlowBindings(events)).toEqual(
      new Map([
        [0, ["send", "c"]],
        [1, ["send", "m"]],
      ]),
    );
  });

  it("keeps the arrow from the slice that starts first, whatever the flow events' times", () => {
    // A late sender: the wait began (0) before the send (5); the end, read after the start, binds
    // to the wait, and Perfetto's flow table holds the arrow from the wait to the send.
    const wait = x("wait", 1, 0, 10);
    const send = x("send", 0, 5, 1);
    const f = perfettoImport([wait, flow("f", 0, 1, 5.001), send, flow("s", 0, 0, 5)]).get(0)!;
    expect([f.from, f.to, f.dropped, f.arrow]).toEqual([send, wait, false, [wait, send]]);
  });
});
