import { describe, expect, it } from "vitest";
import { COUNTER_NAMES, counterNatives, pmuDemand, presetMapOf, supportedCounters } from "../../machine/index.js";

describe("the physical counters behind counter names", () => {
  it("expands PAPI presets to the natives of PAPI's Itanium 2 map", () => {
    expect(counterNatives("PAPI_TOT_INS", "itanium2")).toEqual(["IA64_INST_RETIRED", "IA32_INST_RETIRED"]);
    expect(counterNatives("PAPI_L1_DCH", "itanium2")).toEqual(["L1D_READS_SET1", "L1D_READ_MISSES_ALL"]);
    expect(counterNatives("PAPI_L1_TCA", "itanium2")).toEqual(["L1D_READS_SET0", "L1I_READS"]);
    expect(counterNatives("PAPI_STL_CCY", "itanium2")).toEqual(["BACK_END_BUBBLE_ALL"]);
    expect(counterNatives("CPU_CYCLES", "itanium2")).toEqual(["CPU_CYCLES"]);
  });

  it("maps every Itanium 2 preset the model emits but PAPI_FP_INS, which PAPI's Itanium 2 map lacks", () => {
    const itanium = supportedCounters(["l1", "l2", "l3"], "itanium2").filter((n) => n.startsWith("PAPI_"));
    const unmapped = itanium.filter((n) => counterNatives(n, "itanium2")[0] === n);
    expect(unmapped).toEqual(["PAPI_FP_INS"]);
  });

  it("counts a native once however many names need it, in order of first use", () => {
    const d = pmuDemand(["PAPI_L1_DCA", "PAPI_L1_DCM", "PAPI_L1_DCH", "CPU_CYCLES", "PAPI_TOT_CYC"], "itanium2");
    expect(d.natives).toEqual(["L1D_READS_SET1", "L1D_READ_MISSES_ALL", "CPU_CYCLES"]);
    expect(d.byName.map((b) => b.natives.length)).toEqual([1, 1, 2, 1, 1]);
  });

  it("takes one counter per name without a map", () => {
    const names = COUNTER_NAMES.filter((n) => n.startsWith("PAPI_"));
    expect(pmuDemand(names, "none").natives).toEqual(names);
  });

  it("defaults the map from the native event table", () => {
    expect(presetMapOf({ native: "itanium2" })).toBe("itanium2");
    expect(presetMapOf({ native: "none" })).toBe("none");
    expect(presetMapOf({ native: "none", presetMap: "pentium4" })).toBe("pentium4");
  });
});
