import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  powerConstantSets,
  estimatePower,
  counterMetrics,
  parsePowerConstantSet,
  loadPowerConstantFile,
  estimateTrialPower,
  rankInefficiencies,
  TrialBuilder,
  readTrial,
  AnalysisInputError,
  cpuMHzOf,
} from "../../index.js";

const itanium = powerConstantSets.get("itanium2-madison");

describe("power model (paper 004, Eqs. 5 and 6)", () => {
  it("uses TAU PerfExplorer's Itanium 2 constants", () => {
    expect(itanium.maxPower).toBe(122);
    expect(itanium.idlePower).toBe(97.66);
    expect(itanium.components.map((c) => [c.name, c.scaling])).toEqual([["core", 0.0459], ["L1", 0.0017], ["L2", 0.0171], ["L3", 0.935]]);
  });

  it("sums AccessRate x ArchitecturalScaling x MaxPower over components, plus idle power", () => {
    const v = { CPU_CYCLES: 1e9, IA64_INST_RETIRED_THIS: 2e9, PAPI_L1_TCA: 5e8, L2_REFERENCES: 2e8, L3_REFERENCES: 1e7, LINUX_TIMERS: 2e6, PAPI_FP_OPS: 4e8 };
    const p = estimatePower(v, itanium);
    const expected = 2 * 0.0459 * 122 + 0.5 * 0.0017 * 122 + 0.2 * 0.0171 * 122 + 0.01 * 0.935 * 122 + 97.66;
    expect(p.watts).toBeCloseTo(expected, 10);
    expect(p.complete).toBe(true);
    expect(p.joules).toBeCloseTo(expected * 2, 10);
    expect(p.flopsPerJoule).toBeCloseTo(4e8 / (expected * 2), 6);
  });

  it("derives cycles from TIME and CPU MHz, and omits and reports missing cache counters", () => {
    const p = estimatePower({ TIME: 1e6, PAPI_TOT_INS: 2.6e9, PAPI_FP_INS: 1e9 }, itanium, { cpuMHz: 2600 });
    expect(p.basis.cyclesFrom).toBe("TIME × CPU MHz");
    expect(p.basis.cycles).toBeCloseTo(2.6e9, 3);
    expect(p.components.map((c) => c.component)).toEqual(["core"]);
    expect(p.watts).toBeCloseTo(1 * 0.0459 * 122 + 97.66, 10);
    expect(p.omitted.map((o) => o.component)).toEqual(["L1", "L2", "L3"]);
    expect(p.complete).toBe(false);
    expect(p.flopsFrom).toBe("PAPI_FP_INS");
  });

  it("derives time from cycles and CPU MHz for energy", () => {
    const p = estimatePower({ PAPI_TOT_CYC: 2.6e9, PAPI_TOT_INS: 1.3e9 }, itanium, { cpuMHz: 2600 });
    expect(p.basis.timeFrom).toBe("PAPI_TOT_CYC / CPU MHz");
    expect(p.joules).toBeCloseTo(p.watts * 1, 9);
    expect(Number.isNaN(p.flopsPerJoule)).toBe(true);
  });

  it("refuses a clock that is not above 0 MHz (it was taken as no clock: cycles and time unavailable)", () => {
    for (const cpuMHz of [0, -2600, NaN, Infinity]) {
      expect(() => estimatePower({ TIME: 1e6, PAPI_TOT_INS: 2.6e9 }, itanium, { cpuMHz })).toThrow(new AnalysisInputError(`cpuMHz must be a clock above 0 MHz, got ${cpuMHz}`));
      expect(() => counterMetrics({ TIME: 1e6, PAPI_TOT_INS: 2.6e9 }, itanium, { cpuMHz })).toThrow(AnalysisInputError);
    }
  });

  it("reports every component omitted when there is no cycle basis", () => {
    const p = estimatePower({ PAPI_TOT_INS: 1e9 }, itanium);
    expect(p.components).toEqual([]);
    expect(p.omitted[0]!.reason).toMatch(/no cycle count/);
    expect(p.watts).toBe(97.66);
    expect(Number.isNaN(p.joules)).toBe(true);
  });
});

describe("counter metrics (paper 004, Eqs. 1-4 and the memory-stall model)", () => {
  const v = {
    CPU_CYCLES: 1000,
    BACK_END_BUBBLE_ALL: 400,
    BE_EXE_BUBBLE_FRALL: 100,
    BE_L1D_FPU_BUBBLE_FPU: 50,
    PAPI_FP_OPS: 600,
    IA64_INST_RETIRED_THIS: 1200,
    PAPI_L1_DCH: 300,
    L2_DATA_REFERENCES_L2_ALL: 100,
    L2_MISSES: 40,
    L3_MISSES: 10,
    DATA_EAR_CACHE_LAT128: 4,
    L2DTLB_MISSES: 2,
  };
  it("computes GlobalStalls, %FLPStalls, FLPIneffD and FLPIneffI", () => {
    const m = counterMetrics(v, itanium);
    expect(m.globalStalls).toBeCloseTo(0.4, 12);
    expect(m.flpStalls).toBeCloseTo(0.15, 12);
    expect(m.flpIneffD).toBeCloseTo(600 * 0.15, 12);
    expect(m.flpIneffI).toBeCloseTo((600 / 1200) * 0.4, 12);
    expect(m.missing).toEqual([]);
  });

  it("computes memory stalls with configurable latencies and the remote access ratio", () => {
    const m = counterMetrics(v, itanium);
    expect(m.memoryTerms).toEqual({ l1: 300, l2: 60 * 2, l3: 30 * 10, local: 6 * 127, remote: 4 * 232, tlb: 2 * 30 });
    expect(m.memoryStalls).toBe(300 + 120 + 300 + 762 + 928 + 60);
    expect(m.remoteMemoryAccessRatio).toBeCloseTo(0.4, 12);
    const custom = parsePowerConstantSet({ name: "slow-remote", maxPower: 100, idlePower: 50, components: [{ name: "core", scaling: 0.1, accessCounters: "PAPI_TOT_INS" }], latencies: { remote: 500 } }, "test");
    expect(counterMetrics(v, custom).memoryTerms.remote).toBe(2000);
  });

  it("flags a memory-stall estimate above the cycles it explains", () => {
    expect(counterMetrics(v, itanium).memoryStallRatio).toBeCloseTo(2.47, 12);
    expect(counterMetrics(v, itanium).memoryStallsAboveCycles).toBe(true);
    const light = { ...v, PAPI_L1_DCH: 30, L2_DATA_REFERENCES_L2_ALL: 40, L3_MISSES: 1, DATA_EAR_CACHE_LAT128: 0 };
    expect(counterMetrics(light, itanium).memoryStallRatio).toBeLessThan(1);
    expect(counterMetrics(light, itanium).memoryStallsAboveCycles).toBe(false);
  });

  it("gives no FLPIneffI, rather than 0/0, to an event that retired no instruction", () => {
    // A simulated rank blocked in MPI: every cycle a stall, no instruction, no FP operation.
    const m = counterMetrics({ CPU_CYCLES: 1000, BACK_END_BUBBLE_ALL: 1000, BE_EXE_BUBBLE_FRALL: 0, BE_L1D_FPU_BUBBLE_FPU: 0, PAPI_FP_OPS: 0, IA64_INST_RETIRED_THIS: 0 }, itanium);
    expect(m.retiredInstructions).toBe(0);
    expect(m.flpStalls).toBe(0);
    expect(m.flpIneffI).toBeUndefined();
    expect(m.missing).toContain("FLPIneffI (no instruction retired: IA64_INST_RETIRED_THIS is 0)");
  });

  it("lists what is missing instead of failing", () => {
    const m = counterMetrics({ PAPI_TOT_CYC: 100, PAPI_FP_INS: 10, PAPI_TOT_INS: 50 }, itanium);
    expect(m.globalStalls).toBeUndefined();
    expect(m.missing.some((s) => s.startsWith("GlobalStalls (needs BACK_END_BUBBLE_ALL)"))).toBe(true);
    expect(m.missing.some((s) => s.startsWith("%FLPStalls"))).toBe(true);
    expect(m.memoryStalls).toBeUndefined();
  });
});

describe("constant sets from files", () => {
  it("loads and registers a YAML set", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-power-"));
    const file = join(dir, "arch.yaml");
    writeFileSync(file, "name: test-arch-yaml\nmaxPower: 95\nidlePower: 10\ncomponents:\n  - { name: core, scaling: 0.5, accessCounters: [PAPI_TOT_INS] }\n");
    const [set] = loadPowerConstantFile(file);
    expect(powerConstantSets.get("test-arch-yaml")).toBe(set);
    expect(estimatePower({ PAPI_TOT_CYC: 100, PAPI_TOT_INS: 100 }, set!).watts).toBeCloseTo(0.5 * 95 + 10, 12);
  });

  it("names the file and key of a bad set", () => {
    expect(() => parsePowerConstantSet({ name: "x", maxPower: -1, idlePower: 1, components: [{ name: "c", scaling: 1, accessCounters: ["A"] }] }, "arch.yaml")).toThrow(/arch.yaml: key 'maxPower'/);
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 1, idlePower: 1, components: [], extra: 1 }, "f")).toThrow(AnalysisInputError);
    expect(() => loadPowerConstantFile("/nonexistent/arch.yaml")).toThrow(AnalysisInputError);
    expect(() => powerConstantSets.get("itanium2-madisn")).toThrow(/did you mean 'itanium2-madison'/);
  });

  it("names the line and column of the bad key in the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-power-"));
    const one = join(dir, "one.yaml");
    writeFileSync(one, "name: bad-scaling\nmaxPower: 95\nidlePower: 40\ncomponents:\n  - { name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS] }\n  - { name: L2, scaling: -0.2, accessCounters: [PAPI_L2_TCA] }\n");
    expect(() => loadPowerConstantFile(one)).toThrow(new AnalysisInputError("key 'components[1].scaling': expected a non-negative number, got -0.2", `${one}:6:26`));
    const two = join(dir, "two.yaml");
    writeFileSync(two, "- { name: ok-set, maxPower: 10, idlePower: 5, components: [{ name: core, scaling: 0.1, accessCounters: [X] }] }\n- name: no-components\n  maxPower: 10\n  idlePower: 5\n");
    // A key left out is placed at its set.
    expect(() => loadPowerConstantFile(two)).toThrow(new AnalysisInputError("set 2: key 'components': expected a non-empty list", `${two}:2:3`));
    const json = join(dir, "set.json");
    writeFileSync(json, '{"name": "j", "maxPower": 10, "idlePower": 5,\n "components": [{"name": "core", "scaling": 0.1, "accessCounters": ["X"]}],\n "latencies": {"l5": 3}}\n');
    expect(() => loadPowerConstantFile(json)).toThrow(`${json}:3:22: key 'latencies.l5': unknown latency`);
  });

  it("reads merge keys as scenario files do, and places a merged key at its own line", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-power-"));
    const merged = join(dir, "merged.yaml");
    // The second set is the first with a lower MaxPower: its idle power, merged from the first, is refused at the first's line.
    writeFileSync(merged, "- &one\n  name: merged-a\n  maxPower: 95\n  idlePower: 10\n  components: [{ name: core, scaling: 0.5, accessCounters: [PAPI_TOT_INS] }]\n- <<: *one\n  name: merged-b\n  maxPower: 5\n");
    expect(() => loadPowerConstantFile(merged)).toThrow(new AnalysisInputError("set 2: key 'idlePower': 10 W is above maxPower (5 W, the thermal design power): every estimate would exceed it", `${merged}:4:14`));
    const slip = join(dir, "slip.yaml");
    writeFileSync(slip, "name: slip\nmaxPower: 95\n  idlePower: 10\ncomponents: []\n");
    expect(() => loadPowerConstantFile(slip)).toThrow(/^.*slip\.yaml:3:3: not valid YAML or JSON: this line is indented by 2 spaces, more than the key on line 2 \(0\)/);
  });

  it("refuses a component listed twice or without access counters, at its key", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-power-"));
    const twice = join(dir, "twice.yaml");
    writeFileSync(twice, "name: core-twice\nmaxPower: 95\nidlePower: 40\ncomponents:\n  - { name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS] }\n  - { name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS] }\n");
    // Summed twice, the core's power would be doubled.
    expect(() => loadPowerConstantFile(twice)).toThrow(new AnalysisInputError("key 'components[1].name': 'core' is components[0]'s name too: each component is listed once (the total sums them)", `${twice}:6:13`));
    const none = join(dir, "none.yaml");
    writeFileSync(none, "name: no-counter\nmaxPower: 95\nidlePower: 40\ncomponents:\n  - { name: core, scaling: 0.05, accessCounters: [] }\n");
    expect(() => loadPowerConstantFile(none)).toThrow(new AnalysisInputError("key 'components[0].accessCounters': expected at least one counter name (the component's accesses)", `${none}:5:50`));
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 1, idlePower: 1, components: [{ name: "", scaling: 1, accessCounters: ["A"] }] }, "f")).toThrow("f: key 'components[0].name': expected a non-empty string");
  });

  it("refuses a key of a component that the model does not read, at its line", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-power-"));
    const extra = join(dir, "extra.yaml");
    // Eq. 5 scales every component by the one MaxPower: a component's own maxPower, and a misspelt key beside a right one, are refused where they stand.
    writeFileSync(extra, "name: own-max\nmaxPower: 95\nidlePower: 40\ncomponents:\n  - { name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS], maxPower: 30 }\n");
    expect(() => loadPowerConstantFile(extra)).toThrow(new AnalysisInputError("key 'components[0].maxPower': unknown key (known: name, scaling, accessCounters)", `${extra}:5:76`));
    // A misspelt scaling is named as such, not as a scaling that is missing.
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components: [{ name: "core", scalling: 0.05, accessCounters: ["A"] }] }, "f")).toThrow("f: key 'components[0].scalling': unknown key (known: name, scaling, accessCounters)");
    // A list is no component: refused as such, not for a missing name.
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components: [["core", 0.05]] }, "f")).toThrow("f: key 'components[0]': expected a mapping");
  });

  it("refuses an empty counter name, or a counter role with no name, at its key", () => {
    // The sets were accepted, and the trial was then refused for lacking counter '' (naming the trial, not this file).
    const components = [{ name: "core", scaling: 0.1, accessCounters: ["PAPI_TOT_INS"] }];
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components, counters: { cycles: [] } }, "f")).toThrow("f: key 'counters.cycles': expected at least one counter name (leave the role out to use itanium2-madison's)");
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components, counters: { flops: ["PAPI_FP_OPS", ""] } }, "f")).toThrow("f: key 'counters.flops[1]': expected a non-empty counter name");
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components: [{ name: "core", scaling: 0.1, accessCounters: "" }] }, "f")).toThrow("f: key 'components[0].accessCounters': expected a non-empty counter name");
    // A blank processor name is part of every CPU Type: it claimed every trial's processor.
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components, processors: ["Itanium", " "] }, "f")).toThrow("f: key 'processors[1]': expected a non-empty processor name");
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components, processors: "" }, "f")).toThrow("f: key 'processors': expected a non-empty processor name");
  });

  it("says that a required number is missing, and shows a number that is not finite as it is", () => {
    const components = [{ name: "core", scaling: 0.1, accessCounters: ["PAPI_TOT_INS"] }];
    // They said "got undefined", and "got null" for Infinity (YAML's .inf, 1e400).
    expect(() => parsePowerConstantSet({ name: "x", idlePower: 40, components }, "f")).toThrow("f: key 'maxPower': missing: expected a non-negative number");
    expect(() => parsePowerConstantSet({ name: "x", maxPower: Infinity, idlePower: 40, components }, "f")).toThrow("f: key 'maxPower': expected a non-negative number, got Infinity");
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: NaN, components }, "f")).toThrow("f: key 'idlePower': expected a non-negative number, got NaN");
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components: [{ name: "core", accessCounters: ["A"] }] }, "f")).toThrow("f: key 'components[0].scaling': missing: expected a non-negative number");
  });

  it("refuses a constant file that holds no set", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-power-"));
    const empty = join(dir, "empty.yaml");
    writeFileSync(empty, "[]\n");
    expect(() => loadPowerConstantFile(empty)).toThrow(new AnalysisInputError("holds no power constant set: write one set (a mapping) or a list of sets", empty));
  });

  it("refuses latencies or counters that are not a mapping", () => {
    const components = [{ name: "core", scaling: 0.1, accessCounters: ["PAPI_TOT_INS"] }];
    // A number was read as no latency at all (every latency itanium2-madison's), a text as latencies '0', '1', ...
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components, latencies: 5 }, "f")).toThrow("f: key 'latencies': expected a mapping");
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components, latencies: "slow" }, "f")).toThrow("f: key 'latencies': expected a mapping");
    expect(() => parsePowerConstantSet({ name: "x", maxPower: 95, idlePower: 40, components, counters: ["PAPI_TOT_CYC"] }, "f")).toThrow("f: key 'counters': expected a mapping");
  });

  it("refuses an idle power above MaxPower and a MaxPower of 0", () => {
    const components = [{ name: "core", scaling: 0.1, accessCounters: ["PAPI_TOT_INS"] }];
    expect(() => parsePowerConstantSet({ name: "hot-idle", maxPower: 95, idlePower: 140, components }, "x.yaml")).toThrow(
      "x.yaml: key 'idlePower': 140 W is above maxPower (95 W, the thermal design power): every estimate would exceed it",
    );
    expect(() => parsePowerConstantSet({ name: "no-tdp", maxPower: 0, idlePower: 0, components }, "x.yaml")).toThrow(/key 'maxPower': expected the thermal design power in watts, above 0/);
    expect(parsePowerConstantSet({ name: "flat", maxPower: 95, idlePower: 95, components }, "x.yaml").idlePower).toBe(95);
  });
});

describe("estimateTrialPower", () => {
  it("gives power, energy and FLOP/J per event from a trial, deriving time from cycles and CPU MHz", () => {
    const b = new TrialBuilder({ metrics: ["PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_FP_INS"] });
    const th = b.addThread(0);
    b.setMetadata("CPU MHz", "2000");
    const main = b.timer("main");
    const k = b.timer("kernel");
    b.setValues(th, main, { calls: 1, exclusive: [1e9, 5e8, 1e8], inclusive: [4e9, 4e9, 2e9] });
    b.setValues(th, k, { calls: 10, exclusive: [3e9, 3.5e9, 1.9e9], inclusive: [3e9, 3.5e9, 1.9e9] });
    const r = estimateTrialPower(b.build(), itanium, { view: 0 });
    expect(r.events.map((e) => e.event)).toEqual(["main", "kernel"]);
    const main0 = r.events[0]!.power;
    expect(main0.watts).toBeCloseTo(1 * 0.0459 * 122 + 97.66, 10);
    expect(main0.basis.timeUs).toBeCloseTo(2e6, 6);
    expect(main0.flopsPerJoule).toBeCloseTo(2e9 / (main0.watts * 2), 3);
    expect(r.omittedComponents.length).toBe(3);
    expect(r.cpuMHz).toBe(2000);
    expect(r.basis.timeFrom).toBe("PAPI_TOT_CYC / CPU MHz");
    expect(r.clockUsed).toBe(true);
    expect(r.measuredMHz).toBeUndefined();
    const ex = estimateTrialPower(b.build(), itanium, { view: 0, kind: "exclusive" });
    expect(ex.events[0]!.power.basis.cycles).toBe(1e9);
  });

  it("refuses a clock that is not above 0 MHz rather than giving NaN times and energies", () => {
    const b = new TrialBuilder({ metrics: ["PAPI_TOT_CYC", "PAPI_TOT_INS"] });
    const th = b.addThread(0);
    b.setMetadata("CPU MHz", "2000");
    b.setValues(th, b.timer("main"), { calls: 1, exclusive: [1e9, 5e8], inclusive: [1e9, 5e8] });
    const trial = b.build();
    for (const cpuMHz of [0, -1, NaN, Infinity]) expect(() => estimateTrialPower(trial, itanium, { cpuMHz })).toThrow(new AnalysisInputError(`cpuMHz must be a clock above 0 MHz, got ${cpuMHz}`));
    expect(estimateTrialPower(trial, itanium, { cpuMHz: 1000 }).events[0]!.power.basis.timeUs).toBe(1e6);
  });

  it("takes a metadata clock of 0 or below as no clock: the thread's node's, or the trial's, applies", () => {
    const b = new TrialBuilder({ metrics: ["PAPI_TOT_CYC", "PAPI_TOT_INS"] });
    const t0 = b.addThread(0);
    const t1 = b.addThread(0, 0, 1);
    b.setThreadMetadata(t0, "CPU MHz", "0");
    b.setThreadMetadata(t1, "CPU MHz", "2000");
    const main = b.timer("main");
    for (const th of [t0, t1]) b.setValues(th, main, { calls: 1, exclusive: [1e9, 5e8], inclusive: [1e9, 5e8] });
    const trial = b.build();
    expect(cpuMHzOf(trial, 0)).toBe(2000);
    expect(cpuMHzOf(trial)).toBe(2000);
    expect(estimateTrialPower(trial, itanium, { view: 0 }).events[0]!.power.basis.timeUs).toBe(5e5);
  });

  it("lists the events that spent no cycles apart from the components and metrics left out", () => {
    const b = new TrialBuilder({ metrics: ["PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_L2_TCA"] });
    const th = b.addThread(0);
    b.setMetadata("CPU MHz", "1600");
    b.setValues(th, b.timer("main"), { calls: 1, exclusive: [1e9, 5e8, 1e7], inclusive: [4e9, 4e9, 4e7] });
    b.setValues(th, b.timer("kernel"), { calls: 10, exclusive: [3e9, 3.5e9, 3e7], inclusive: [3e9, 3.5e9, 3e7] });
    // A call that takes no cycles has no access rate: only it lacks the cycle basis.
    b.setValues(th, b.timer("MPI_Isend()"), { calls: 5, exclusive: [0, 0, 0], inclusive: [0, 0, 0] });
    const r = estimateTrialPower(b.build(), itanium, { view: 0 });
    // Without cycles there is no power to estimate: listed apart, it makes no estimate a lower bound.
    expect(r.noCycles).toEqual(["MPI_Isend() (0,0,0)"]);
    expect(r.omittedComponents).toEqual(["L1: no access counter (PAPI_L1_TCA|L1_REFERENCES)", "L3: no access counter (L3_REFERENCES|PAPI_L3_TCA)"]);
    expect(r.missingMetrics.some((m) => m.includes("MPI_Isend"))).toBe(false);
    expect(r.events.find((e) => e.event === "kernel")!.power.components.map((c) => c.component)).toEqual(["core", "L2"]);
    // A zero cycle count is no cycle basis either; it is said as such.
    const idle = counterMetrics({ PAPI_TOT_CYC: 0, BACK_END_BUBBLE_ALL: 0 }, itanium);
    expect(idle.missing).toContain("GlobalStalls (no cycles spent: PAPI_TOT_CYC is 0)");
  });

  it("flags estimates above MaxPower (the model has no cap): per event and over the trial", () => {
    // 6 instructions and 0.2 L3 references per cycle: 6 x 0.0459 x 122 + 0.2 x 0.935 x 122 + 97.66 = 154.1 W > 122 W.
    const hot = estimatePower({ CPU_CYCLES: 1e9, IA64_INST_RETIRED_THIS: 6e9, L3_REFERENCES: 2e8 }, itanium);
    expect(hot.watts).toBeCloseTo(6 * 0.0459 * 122 + 0.2 * 0.935 * 122 + 97.66, 10);
    expect(hot.aboveMaxPower).toBe(true);
    expect(estimatePower({ CPU_CYCLES: 1e9, IA64_INST_RETIRED_THIS: 1e9, L3_REFERENCES: 1e7 }, itanium).aboveMaxPower).toBe(false);
    const b = new TrialBuilder({ metrics: ["CPU_CYCLES", "IA64_INST_RETIRED_THIS", "L3_REFERENCES"] });
    const th = b.addThread(0);
    b.setMetadata("CPU MHz", "1600");
    b.setValues(th, b.timer("main"), { calls: 1, exclusive: [1e9, 1e9, 1e7], inclusive: [2e9, 7e9, 2.1e8] });
    b.setValues(th, b.timer("halo copy"), { calls: 4, exclusive: [1e9, 6e9, 2e8], inclusive: [1e9, 6e9, 2e8] });
    expect(estimateTrialPower(b.build(), itanium, { view: 0, kind: "exclusive" }).aboveMaxPower).toEqual(["halo copy (0,0,0)"]);
    // Inclusive, main averages its own 1 instruction per cycle with the copy's 6: 3.5 per cycle, 0.105 L3 references, 129.2 W.
    expect(estimateTrialPower(b.build(), itanium, { view: 0 }).aboveMaxPower).toEqual(["main (0,0,0)", "halo copy (0,0,0)"]);
  });

  it("names the event and thread of a negative counter", () => {
    const b = new TrialBuilder({ metrics: ["PAPI_TOT_CYC", "PAPI_TOT_INS"] });
    const th = b.addThread(0);
    b.setValues(th, b.timer("main"), { calls: 1, exclusive: [1e9, 5e8], inclusive: [4e9, 4e9] });
    b.setValues(th, b.timer("kernel"), { calls: 1, exclusive: [-1e-9, 5e8], inclusive: [3e9, 3.5e9] });
    expect(() => estimateTrialPower(b.build(), itanium, { view: 0, kind: "exclusive" })).toThrow(new AnalysisInputError("kernel (0,0,0): counter 'PAPI_TOT_CYC' is negative (-1e-9)"));
  });
});

describe("rankInefficiencies (paper 004, Table 3)", () => {
  it("finds events more than 50 % above average on both metrics that take more than half of the time", () => {
    const b = new TrialBuilder({ metrics: ["LINUX_TIMERS", "CPU_CYCLES", "BACK_END_BUBBLE_ALL", "BE_EXE_BUBBLE_FRALL", "BE_L1D_FPU_BUBBLE_FPU", "PAPI_FP_OPS", "IA64_INST_RETIRED_THIS"] });
    const th = b.addThread(0);
    // [time, cycles, stalls, frall, fpu, fp ops, instructions]
    const rows: [string, number[]][] = [
      ["main", [100, 1000, 300, 60, 40, 100, 1000]],
      ["KSPSolve", [70, 700, 500, 200, 100, 400, 700]], // stalls heavy, FP heavy, 70 % of time
      ["MatMult", [20, 200, 20, 2, 2, 10, 200]],
      ["VecNorm", [5, 50, 40, 15, 10, 40, 50]], // inefficient but only 5 % of time
    ];
    for (const [name, v] of rows) b.setValues(th, b.timer(name), { calls: 1, exclusive: v, inclusive: v });
    const r = rankInefficiencies(estimateTrialPower(b.build(), itanium, { view: 0 }));
    expect(r.map((e) => e.event)).toEqual(["KSPSolve"]);
    expect(r[0]!.share).toBeCloseTo(0.7, 12);
    expect(r[0]!.i1Ratio).toBeGreaterThan(1.5);
    expect(rankInefficiencies(estimateTrialPower(b.build(), itanium, { view: 0 }), { minShare: 0.01 }).map((e) => e.event)).toEqual(["KSPSolve", "VecNorm"]);
  });

  it("leaves events that retired no instruction out of the averages, and lists them", () => {
    const b = new TrialBuilder({ metrics: ["LINUX_TIMERS", "CPU_CYCLES", "BACK_END_BUBBLE_ALL", "BE_EXE_BUBBLE_FRALL", "BE_L1D_FPU_BUBBLE_FPU", "PAPI_FP_OPS", "IA64_INST_RETIRED_THIS", "L3_REFERENCES"] });
    const th = b.addThread(0);
    // [time, cycles, stalls, frall, fpu, fp ops, instructions, L3 references]
    const rows: [string, number[]][] = [
      ["main", [100, 1000, 500, 120, 60, 400, 900, 10]],
      ["solve", [60, 600, 480, 160, 80, 400, 500, 5]], // FP stalls and FP-heavy, 60 % of the time
      ["kernel", [55, 550, 200, 40, 30, 100, 550, 5]],
      ["MPI_Waitsome", [40, 400, 400, 0, 0, 0, 0, 0]], // blocked: cycles, all stalls, no instruction
    ];
    for (const [name, v] of rows) b.setValues(th, b.timer(name), { calls: 1, exclusive: v, inclusive: v });
    const p = estimateTrialPower(b.build(), itanium, { view: 0 });
    expect(p.noInstructions).toEqual(["MPI_Waitsome (0,0,0)"]);
    const wait = p.events.find((e) => e.event === "MPI_Waitsome")!;
    expect(wait.power.watts).toBe(itanium.idlePower);
    expect(wait.metrics.flpStalls).toBe(0);
    // The averages are over main, solve and kernel: MPI_Waitsome's %FLPStalls of 0 would pull
    // the first down, and its FLPIneffI (0/0) would leave the second undefined.
    const r = rankInefficiencies(p);
    expect(r.map((e) => e.event)).toEqual(["solve"]);
    const i1 = (e: string) => p.events.find((x) => x.event === e)!.metrics.flpStalls!;
    expect(r[0]!.i1Ratio).toBeCloseTo(i1("solve") / ((i1("main") + i1("solve") + i1("kernel")) / 3), 12);
  });
});

describe("rankInefficiencies with exclusive values", () => {
  it("takes the share of the total from inclusive time, not from the largest exclusive time", () => {
    const b = new TrialBuilder({ metrics: ["LINUX_TIMERS", "CPU_CYCLES", "BACK_END_BUBBLE_ALL", "BE_EXE_BUBBLE_FRALL", "BE_L1D_FPU_BUBBLE_FPU", "PAPI_FP_OPS", "IA64_INST_RETIRED_THIS"] });
    const th = b.addThread(0);
    // [time, cycles, stalls, frall, fpu, fp ops, instructions]; main only calls: no exclusive time.
    const main = b.timer("main");
    b.setValues(th, main, { calls: 1, exclusive: [0, 0, 0, 0, 0, 0, 0], inclusive: [100, 1000, 350, 120, 40, 260, 1000] });
    // The flux kernel is inefficient but takes 40 % of the run: the largest exclusive time all the same.
    b.setValues(th, b.timer("flux"), { calls: 1, exclusive: [40, 400, 300, 100, 30, 200, 300], inclusive: [40, 400, 300, 100, 30, 200, 300] });
    b.setValues(th, b.timer("states"), { calls: 1, exclusive: [35, 350, 30, 5, 5, 40, 400], inclusive: [35, 350, 30, 5, 5, 40, 400] });
    b.setValues(th, b.timer("copy"), { calls: 1, exclusive: [25, 250, 20, 15, 5, 20, 300], inclusive: [25, 250, 20, 15, 5, 20, 300] });
    const p = estimateTrialPower(b.build(), itanium, { view: 0, kind: "exclusive" });
    expect(p.events.find((e) => e.event === "flux")!.inclusiveTimeUs).toBe(40);
    expect(p.events.find((e) => e.event === "main")!.inclusiveTimeUs).toBe(100);
    expect(rankInefficiencies(p)).toEqual([]);
    const r = rankInefficiencies(p, { minShare: 0.3 });
    expect(r.map((e) => e.event)).toEqual(["flux"]);
    expect(r[0]!.share).toBeCloseTo(0.4, 12);
  });
});

describe("estimateTrialPower's list of what it could not compute", () => {
  it("says why FLOP/J, or energy and FLOP/J, are missing", () => {
    const noFlops = new TrialBuilder({ metrics: ["TIME", "CPU_CYCLES", "IA64_INST_RETIRED"] });
    const th = noFlops.addThread(0);
    noFlops.setValues(th, noFlops.timer("main"), { calls: 1, exclusive: [1000, 1.6e6, 2e6], inclusive: [1000, 1.6e6, 2e6] });
    const a = estimateTrialPower(noFlops.build(), itanium, { view: 0 });
    expect(a.events[0]!.power.joules).toBeGreaterThan(0);
    expect(a.missingMetrics).toContain("FLOP/J (needs PAPI_FP_OPS|FP_OPS_RETIRED|PAPI_FP_INS)");
    // Cycles without a time metric or a clock: no energy either.
    const noTime = new TrialBuilder({ metrics: ["CPU_CYCLES", "IA64_INST_RETIRED", "FP_OPS_RETIRED"] });
    const t2 = noTime.addThread(0);
    noTime.setValues(t2, noTime.timer("main"), { calls: 1, exclusive: [1.6e6, 2e6, 1e6], inclusive: [1.6e6, 2e6, 1e6] });
    const b = estimateTrialPower(noTime.build(), itanium, { view: 0 });
    expect(b.missingMetrics.filter((m) => m.includes("FLOP/J"))).toEqual([
      'energy and FLOP/J (need a time metric, LINUX_TIMERS|TIME|GET_TIME_OF_DAY|P_WALL_CLOCK_TIME|WALL_CLOCK_TIME, or the cycles with a CPU clock: --cpu-mhz or "CPU MHz" metadata)',
    ]);
    expect(estimateTrialPower(noTime.build(), itanium, { view: 0, cpuMHz: 1600 }).missingMetrics.some((m) => m.includes("FLOP/J"))).toBe(false);
  });
});

describe("the thresholds of rankInefficiencies", () => {
  const power = estimateTrialPower(readTrial("../shared/data/tau/ppk/xgc-nosamples.ppk"), itanium, { view: "each" });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("refuses a factor of %s", (factor) => {
    expect(() => rankInefficiencies(power, { factor })).toThrow(AnalysisInputError);
    expect(() => rankInefficiencies(power, { factor })).toThrow(`factor must be a finite number >= 0, got ${factor}`);
  });

  it.each([-0.1, 1.5, Number.NaN])("refuses a least share of %s", (minShare) => {
    expect(() => rankInefficiencies(power, { minShare })).toThrow(`minShare must be in [0, 1], got ${minShare}`);
  });

  it("takes the bounds of the ranges", () => {
    const b = new TrialBuilder({ metrics: ["LINUX_TIMERS", "CPU_CYCLES", "BACK_END_BUBBLE_ALL", "BE_EXE_BUBBLE_FRALL", "BE_L1D_FPU_BUBBLE_FPU", "PAPI_FP_OPS", "IA64_INST_RETIRED_THIS"] });
    const th = b.addThread(0);
    const v = [100, 1000, 300, 60, 40, 100, 1000];
    b.setValues(th, b.timer("main"), { calls: 1, exclusive: v, inclusive: v });
    const measurable = estimateTrialPower(b.build(), itanium, { view: 0 });
    expect(() => rankInefficiencies(measurable, { factor: 0, minShare: 0 })).not.toThrow();
    expect(() => rankInefficiencies(measurable, { minShare: 1 })).not.toThrow();
  });

  it("refuses to rank a trial none of whose events has both metrics (XGC: no stall counters), which an empty ranking would hide", () => {
    expect(() => rankInefficiencies(power)).toThrow(
      new AnalysisInputError("no event has %FLPStalls and FLPIneffI, which the inefficiency ranking compares: %FLPStalls (needs BE_EXE_BUBBLE_FRALL, BE_L1D_FPU_BUBBLE_FPU); FLPIneffI (needs BACK_END_BUBBLE_ALL)"),
    );
  });
});
