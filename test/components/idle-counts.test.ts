import { describe, expect, it } from "vitest";
import { prepareAssembly, runAssembly, runToTrial, type AssemblyConfig, type Platform } from "../../components/index.js";
import { viewOf } from "../../analysis/index.js";
import { testSink } from "./helpers.js";

/**
 * A platform whose kernels take awkward times (fractions of a microsecond that floating point
 * cannot hold) and stall no cycle: every stall a timer sees comes from the time outside kernels.
 */
const RATE = 1000;
const stallFree: Platform = {
  ranks: 1,
  counterNames: ["CYC", "STL"],
  timeDerivedCounters: {},
  idleCounters: { CYC: RATE, STL: RATE },
  kernel(_rank, spec, counters) {
    const us = spec.elements * 0.0013 + 0.1;
    counters[0] += Math.floor(us * RATE);
    return us;
  },
};

/** A driver alternating a kernel and a plain cost of 0.3 us, `iterations` times. */
const assembly: AssemblyConfig = {
  instances: [
    { name: "Driver", type: "driver", params: { iterations: 300, calls: [{ port: "k", portType: "Kernel", method: "compute", args: { N: "N" } }, { port: "d", args: { x: "N" } }] } },
    { name: "K", type: "kernel", params: { args: ["N"], elements: "N" } },
    { name: "D", type: "dummy", params: { cost: "0.3" } },
  ],
  connections: [
    { user: "Driver", usesPort: "k", provider: "K", providesPort: "compute" },
    { user: "Driver", usesPort: "d", provider: "D", providesPort: "work" },
  ],
  proxies: [{ component: "K", port: "compute", parameters: { N: "argument N" } }],
};

describe("counts outside kernels", () => {
  it("never go back: no timer or record of a stall-free kernel has a negative stall count", () => {
    const asm = prepareAssembly(assembly, ["N"], testSink);
    const r = runAssembly(asm, stallFree, { seed: 1, workload: { N: 777 }, metrics: ["TIME", "CYC", "STL"] });
    const trial = runToTrial(r);
    const view = viewOf(trial, 0);
    for (const t of trial.timers) {
      if (view.present[t.index] === 0) continue;
      for (const m of [1, 2]) expect(view.exclusive[m][t.index], `${trial.metrics[m]} of ${t.name}`).toBeGreaterThanOrEqual(0);
      expect(view.exclusive[2][t.index], t.name).toBeLessThanOrEqual(view.exclusive[1][t.index]);
    }
    const records = r.mastermind!.records;
    expect(records).toHaveLength(300);
    for (const rec of records) expect(rec.counters.STL).toBeGreaterThanOrEqual(0);
  });
});
