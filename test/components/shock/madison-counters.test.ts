import { describe, expect, it } from "vitest";
import { counterMetrics, estimatePower, powerConstantSets, viewOf } from "../../../index.js";
import { runShock } from "./run-shock.js";

const PAPER_004 = [
  "CPU_CYCLES",
  "IA64_INST_RETIRED",
  "FP_OPS_RETIRED",
  // The power model's L1 and L2 access counters (paper 004, Table 2).
  "PAPI_L1_TCA",
  // The L1 hits of the memory-stall model.
  "PAPI_L1_DCH",
  "L2_REFERENCES",
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
    // Cycles follow time at 1.6 GHz, in whole counts: each reading within 2 of time x clock.
    const r = states[states.length - 1];
    expect(Math.abs(r.counters.CPU_CYCLES - r.wallTime * 1600)).toBeLessThan(4);
  });

  it("reports whole counts, as a PMU does, and their relations in every timer of every thread", () => {
    const trial = art.trial!;
    const metric = (name: string) => trial.metrics.indexOf(name);
    const [cycles, stalls, fp, fpu, refs, misses] = ["CPU_CYCLES", "BACK_END_BUBBLE_ALL", "BE_EXE_BUBBLE_FRALL", "BE_L1D_FPU_BUBBLE_FPU", "L2_REFERENCES", "L2_MISSES"].map(metric);
    let fractional = 0;
    let values = 0;
    for (let thread = 0; thread < trial.threads.length; thread++) {
      const view = viewOf(trial, thread);
      for (const t of trial.timers) {
        if (view.present[t.index] === 0) continue;
        for (let m = 1; m < trial.metrics.length; m++) {
          for (const v of [view.exclusive[m][t.index], view.inclusive[m][t.index]]) {
            values++;
            if (!Number.isInteger(v)) fractional++;
          }
        }
        const at = (m: number) => view.exclusive[m][t.index];
        expect(at(stalls), t.name).toBeLessThanOrEqual(at(cycles));
        expect(at(fp) + at(fpu), t.name).toBeLessThanOrEqual(at(stalls));
        expect(at(misses), t.name).toBeLessThanOrEqual(at(refs));
        // Each call's count is within 2 of its time x clock at either end.
        const calls = view.calls[t.index];
        expect(Math.abs(view.inclusive[cycles][t.index] - view.inclusive[0][t.index] * 1600), t.name).toBeLessThan(4 * Math.max(1, calls));
      }
    }
    expect(values).toBeGreaterThan(1000);
    expect(fractional).toBe(0);
  });

  it("retires work at rates compiled code sustains, so paper 004's power model stays within the processor's 122 W", () => {
    const set = powerConstantSets.get("itanium2-madison");
    for (const component of ["EFMFlux", "StatesConstructor"]) {
      const records = art.result.mastermind!.records.filter((r) => r.component === component);
      const total: Record<string, number> = {};
      for (const r of records) for (const [c, v] of Object.entries(r.counters)) total[c] = (total[c] ?? 0) + v;
      // Peak: 6 instructions and 4 flops per cycle; half of it at most between memory stalls.
      expect(total.IA64_INST_RETIRED / total.CPU_CYCLES, component).toBeLessThanOrEqual(3);
      expect(total.FP_OPS_RETIRED / total.CPU_CYCLES, component).toBeLessThanOrEqual(2);
      const power = estimatePower(total, set);
      expect(power.complete, component).toBe(true);
      expect(power.watts, component).toBeGreaterThan(set.idlePower);
      expect(power.watts, component).toBeLessThan(set.maxPower);
      // Stalls are a large share of the cycles, as on the real core: dependencies and memory.
      const stalls = counterMetrics(total, set).globalStalls;
      expect(stalls, component).toBeGreaterThan(0.2);
      expect(stalls, component).toBeLessThan(0.9);
      // Every term of the memory-stall model is measured, the L1 hits included.
      const metrics = counterMetrics(total, set);
      expect(Object.keys(metrics.memoryTerms).sort(), component).toEqual(["l1", "l2", "l3", "local", "remote", "tlb"]);
      expect(metrics.memoryTerms.l1, component).toBe(total.PAPI_L1_DCH! * set.latencies.l1);
    }
  });

  it("counts every cycle a rank spends in MPI as a back-end stall cycle (it retires nothing there)", () => {
    const trial = art.trial!;
    const metric = (name: string) => trial.metrics.indexOf(name);
    const [cycles, stalls, instructions] = [metric("CPU_CYCLES"), metric("BACK_END_BUBBLE_ALL"), metric("IA64_INST_RETIRED")];
    let mpiTimers = 0;
    for (let thread = 0; thread < trial.threads.length; thread++) {
      const view = viewOf(trial, thread);
      for (const t of trial.timers) {
        if (t.isCallpath || view.present[t.index] === 0) continue;
        const c = view.exclusive[cycles][t.index];
        const s = view.exclusive[stalls][t.index];
        // Stalls never exceed cycles, in any timer.
        expect(s, t.name).toBeLessThanOrEqual(c * (1 + 1e-12) + 1e-6);
        if (!t.name.startsWith("MPI_")) continue;
        mpiTimers++;
        expect(view.exclusive[instructions][t.index], t.name).toBe(0);
        expect(s, t.name).toBeCloseTo(c, 3);
      }
    }
    expect(mpiTimers).toBeGreaterThan(0);
  });

  it("runs faster than on the Xeon cluster (NUMAlink and the 9 MiB L3)", () => {
    const xeon = runShock(["workload.steps=2", "workload.regridInterval=1"]);
    expect(art.result.simulatedTime).toBeLessThan(xeon.result.simulatedTime);
  });
});
