import { describe, expect, it } from "vitest";
import { runShock } from "./run-shock.js";

const PAPER_004 = [
  "CPU_CYCLES",
  "IA64_INST_RETIRED",
  "FP_OPS_RETIRED",
  "BACK_END_BUBBLE_ALL",
  "BE_EXE_BUBBLE_FRALL",
  "BE_L1D_FPU_BUBBLE_FPU",
  "L2_DATA_REFERENCES_L2_ALL",
  "L2_MISSES",
  "L3_REFERENCES",
  "L3_MISSES",
  "L2DTLB_MISSES",
  "DATA_EAR_CACHE_LAT128",
];

describe("shock-madison: the same application on the Altix with Itanium 2 counters", () => {
  const art = runShock(["workload.steps=2", "workload.regridInterval=1"], "shock-madison.yaml");

  it("records every counter paper 004's stall and power models read", () => {
    expect(art.trial!.metrics).toEqual(["TIME", ...PAPER_004]);
    const states = art.result.mastermind!.records.filter((r) => r.component === "StatesConstructor");
    expect(states.length).toBeGreaterThan(100);
    for (const r of states) for (const c of PAPER_004) expect(r.counters[c], c).toBeGreaterThanOrEqual(0);
    const sum = (c: string) => states.reduce((s, r) => s + r.counters[c], 0);
    expect(sum("FP_OPS_RETIRED")).toBeGreaterThan(0);
    expect(sum("L2_DATA_REFERENCES_L2_ALL")).toBeGreaterThan(0);
    // Cycles follow time at 1.6 GHz.
    const r = states[states.length - 1];
    expect(r.counters.CPU_CYCLES).toBeCloseTo(r.wallTime * 1600, 0);
  });

  it("runs faster than on the Xeon cluster (NUMAlink and the 9 MiB L3)", () => {
    const xeon = runShock(["workload.steps=2", "workload.regridInterval=1"]);
    expect(art.result.simulatedTime).toBeLessThan(xeon.result.simulatedTime);
  });
});
