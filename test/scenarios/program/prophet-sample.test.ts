import { describe, expect, it } from "vitest";
import { executeScenario, loadScenario } from "../../../scenarios/index.js";
import { callsOf, inclusiveOf } from "./trial-helpers.js";

// Paper 003, section 4: every process runs A1 (code GV = 1; P = 3.14, cost FA1 = 121/P), then,
// as GV == 1, activity SA: SA1 (FSA1 = 112) and the all-reduce SA2 whose cost FSA2(pid) =
// 32/(pid+1) in C++ long arithmetic is local work before the collective; then A4 with
// FA4(P) = 3.14 + 2.71*P. Costs in microseconds.
const FA1 = 121 / 3.14;
const FSA1 = 112;
const FSA2 = (pid: number) => Math.trunc(32 / (pid + 1)); // 32, 16, 10, 8: integer division
const FA4 = 3.14 + 2.71 * 3.14;

describe("the sample model of paper 003 (scenarios/prophet-sample.yaml)", () => {
  it("on one process takes FA1 + FSA1 + FSA2(0) + FA4", () => {
    const art = executeScenario(loadScenario("scenarios/prophet-sample.yaml", { set: ["machine.nodes=1"] }));
    expect(art.result.simulatedTime).toBe(FA1 + FSA1 + FSA2(0) + FA4);
  });

  it("on two Fast Ethernet nodes waits in the all-reduce for the slowest process, then pays one exchange", () => {
    const art = executeScenario(loadScenario("scenarios/prophet-sample.yaml"));
    // Arrival at the all-reduce: pid 0 after 38.535 + 112 + 32, pid 1 after 38.535 + 112 + 16.
    const arrive0 = FA1 + FSA1 + FSA2(0);
    // Recursive doubling on 2 processes: one exchange of 8 bytes over Fast Ethernet (Hockney,
    // alpha = 120 us, 11.25 MB/s), completing when pid 0's message reaches pid 1, then the
    // reduction of 8 bytes at gamma = 0.001 us/byte.
    const exchange = 120 + 8 / 11.25;
    const reduce = 8 * 0.001;
    const expected = arrive0 + exchange + reduce + FA4;
    expect(art.result.simulatedTime).toBeCloseTo(expected, 9);
    expect(expected).toBeCloseTo(314.90354, 4);
    // One timer per element, grouped by diagram; A2 never runs (GV is 1).
    const trial = art.trial!;
    const names = trial.timers.filter((t) => !t.isCallpath).map((t) => t.name);
    for (const n of ["A1", "SA", "SA1", "SA2", "A4", "MPI_Allreduce()"]) expect(names).toContain(n);
    expect(callsOf(trial, 0, "A2")).toBe(0);
    expect(callsOf(trial, 1, "SA2")).toBe(1);
    expect(trial.timers.find((t) => t.name === "SA1")!.groups).toContain("SA");
    expect(trial.timers.find((t) => t.name === "A1")!.groups).toContain("main");
    // SA2 on pid 1: 16 us of local work, then waiting for pid 0 (16 us later) and the exchange.
    expect(inclusiveOf(trial, 1, "SA2")).toBeCloseTo(FSA2(1) + (arrive0 - (FA1 + FSA1 + FSA2(1))) + exchange + reduce, 9);
    expect(inclusiveOf(trial, 0, "A1")).toBeCloseTo(FA1, 12);
  });
});
