import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../scenarios/index.js";

const scenario = (pmu: number, metrics: string, preset = "itanium2-madison") => `
name: pmu
machine:
  preset: ${preset}
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
      /pmu\.yaml:8:1: metrics: they take 5 physical counters: CPU_CYCLES, L2_MISSES, L3_MISSES, FP_OPS_RETIRED, IA64_INST_RETIRED; the PMU reads at most 4 at once \(machine\.counters\.pmuCounters\)/,
    );
  });

  it("accepts as many counters as the PMU has, TIME not counted, and any number without a PMU", () => {
    expect(() => loadScenarioText(scenario(4, "TIME, CPU_CYCLES, L2_MISSES, L3_MISSES, FP_OPS_RETIRED"), "pmu.yaml")).not.toThrow();
    expect(() => loadScenarioText(scenario(0, "TIME, CPU_CYCLES, L2_MISSES, L3_MISSES, FP_OPS_RETIRED, IA64_INST_RETIRED"), "pmu.yaml")).not.toThrow();
  });

  it("counts the Itanium 2 natives PAPI builds the presets from, naming what each metric needs", () => {
    expect(() => loadScenarioText(scenario(2, "TIME, PAPI_L1_DCH, PAPI_L1_TCA"), "pmu.yaml")).toThrow(
      "pmu.yaml:8:1: metrics: they take 4 physical counters: L1D_READS_SET1, L1D_READ_MISSES_ALL, L1D_READS_SET0, L1I_READS " +
        "(PAPI_L1_DCH needs L1D_READS_SET1 and L1D_READ_MISSES_ALL; PAPI_L1_TCA needs L1D_READS_SET0 and L1I_READS); the PMU reads at most 2 at once",
    );
    expect(() => loadScenarioText(scenario(1, "TIME, PAPI_TOT_INS"), "pmu.yaml")).toThrow(/2 physical counters: IA64_INST_RETIRED, IA32_INST_RETIRED/);
  });

  it("counts a native shared by several metrics once", () => {
    expect(() => loadScenarioText(scenario(2, "TIME, PAPI_TOT_CYC, CPU_CYCLES, PAPI_STL_CCY"), "pmu.yaml")).not.toThrow();
    expect(() => loadScenarioText(scenario(2, "TIME, PAPI_L1_DCA, PAPI_L1_DCM, PAPI_L1_DCH"), "pmu.yaml")).not.toThrow();
  });

  it("follows PAPI's Pentium 4 map on the Pentium 4 Xeon: tagged loads and stores share front_end_event", () => {
    expect(() => loadScenarioText(scenario(3, "TIME, PAPI_LD_INS, PAPI_SR_INS", "xeon-2.8ghz-512k"), "pmu.yaml")).not.toThrow();
    expect(() => loadScenarioText(scenario(2, "TIME, PAPI_LD_INS, PAPI_SR_INS", "xeon-2.8ghz-512k"), "pmu.yaml")).toThrow(
      /3 physical counters: front_end_event:NBOGUS, uops_type:TAGLOADS, uops_type:TAGSTORES/,
    );
  });

  it("keeps one counter per preset on a machine without a preset map", () => {
    expect(() => loadScenarioText(scenario(2, "TIME, PAPI_TOT_INS, PAPI_L1_DCH", "pentium3-xeon-700"), "pmu.yaml")).not.toThrow();
    expect(() => loadScenarioText(scenario(2, "TIME, PAPI_TOT_INS, PAPI_L1_DCH, PAPI_TOT_CYC", "pentium3-xeon-700"), "pmu.yaml")).toThrow(
      /they take 3 physical counters: PAPI_TOT_INS, PAPI_L1_DCH, PAPI_TOT_CYC;/,
    );
  });
});
