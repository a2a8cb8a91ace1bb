import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../scenarios/index.js";

const scenario = (pmu: number, metrics: string) => `
name: pmu
machine:
  preset: itanium2-madison
  nodes: 1
  processesPerNode: 1
  counters: { pmuCounters: ${pmu} }
metrics: [${metrics}]
assembly:
  components:
    D: { type: driver, params: { iterations: 1 } }
`;

describe("a machine's PMU limit on the metrics of one run", () => {
  it("refuses more counters than the PMU reads at once, located at metrics", () => {
    expect(() => loadScenarioText(scenario(4, "TIME, CPU_CYCLES, L2_MISSES, L3_MISSES, FP_OPS_RETIRED, IA64_INST_RETIRED"), "pmu.yaml")).toThrow(
      /pmu\.yaml:8:1: metrics: 5 counters \(CPU_CYCLES, .*\) but the PMU reads at most 4 at once \(machine\.counters\.pmuCounters\)/,
    );
  });

  it("accepts as many counters as the PMU has, TIME not counted, and any number without a PMU", () => {
    expect(() => loadScenarioText(scenario(4, "TIME, CPU_CYCLES, L2_MISSES, L3_MISSES, FP_OPS_RETIRED"), "pmu.yaml")).not.toThrow();
    expect(() => loadScenarioText(scenario(0, "TIME, CPU_CYCLES, L2_MISSES, L3_MISSES, FP_OPS_RETIRED, IA64_INST_RETIRED"), "pmu.yaml")).not.toThrow();
  });
});
