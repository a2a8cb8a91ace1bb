import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { estimateTrialPower, parsePowerConstantSet, powerConstantSets, processorMismatch, readTrial, readTrialInput, trialProcessors, trialReport, TrialBuilder } from "../../index.js";
import { runCli } from "../cli/run-cli.js";

const itanium = powerConstantSets.get("itanium2-madison");
const XGC = "../shared/data/tau/ppk/xgc-nosamples.ppk";
const dir = mkdtempSync(join(tmpdir(), "ccasim-power-cpu-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the processor a power constant set describes", () => {
  it("is compared with a real trial's CPU Type: a Xeon is not an Itanium 2", () => {
    const trial = readTrial(XGC, { records: false });
    expect(trialProcessors(trial)).toEqual([{ key: "CPU Type", value: "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz" }]);
    expect(processorMismatch(trial, itanium)).toMatch(/^the trial ran on 'Intel\(R\) Xeon\(R\) CPU X5650 @ 2\.67GHz' \(CPU Type\), not on a processor the constant set 'itanium2-madison' describes \(Itanium\): the watts are estimated with the power constants of Itanium, so they are not the trial's own processor's$/);
    expect(estimateTrialPower(trial, itanium).processorMismatch).toBe(processorMismatch(trial, itanium));
    // A set that names no processors, or one that names this one, raises nothing.
    const anyCpu = parsePowerConstantSet({ name: "any", maxPower: 100, idlePower: 50, components: [{ name: "core", scaling: 0.1, accessCounters: "PAPI_TOT_INS" }] }, "any.yaml");
    expect(processorMismatch(trial, anyCpu)).toBeUndefined();
    expect(anyCpu.processors).toBeUndefined();
    const westmere = parsePowerConstantSet({ name: "westmere", processors: "X5650", maxPower: 95, idlePower: 40, components: [{ name: "core", scaling: 0.1, accessCounters: "PAPI_TOT_INS" }] }, "w.yaml");
    expect(westmere.processors).toEqual(["X5650"]);
    expect(processorMismatch(trial, westmere)).toBeUndefined();
    expect(() => parsePowerConstantSet({ name: "bad", processors: 5, maxPower: 1, idlePower: 1, components: [{ name: "core", scaling: 0.1, accessCounters: "PAPI_TOT_INS" }] }, "b.yaml")).toThrow("b.yaml: key 'processors': expected a processor name or a list of them");
  });

  it("is compared with a simulated run's machine preset, and says nothing when the metadata names no processor", async () => {
    const itaniumRun = join(dir, "madison");
    const xeonRun = join(dir, "xeon");
    expect((await runCli(["run", "scenarios/shock-madison.yaml", "--quiet", "--out", itaniumRun])).code).toBe(0);
    expect((await runCli(["run", "scenarios/known-models.yaml", "--quiet", "--out", xeonRun, "--set", "workload.iterations=2"])).code).toBe(0);
    expect(processorMismatch(readTrial(itaniumRun, { records: false }), itanium)).toBeUndefined();
    expect(processorMismatch(readTrial(xeonRun, { records: false }), itanium)).toMatch(/'xeon-2\.8ghz-512k' \(Machine preset\)/);
    const b = new TrialBuilder({ metrics: ["PAPI_TOT_CYC", "PAPI_TOT_INS"] });
    b.setValues(b.addThread(0), b.timer("main"), { calls: 1, exclusive: [1e9, 1e9], inclusive: [1e9, 1e9] });
    expect(processorMismatch(b.build(), itanium)).toBeUndefined();
  });

  it("is a warning of ccasim power, and the report estimates no power for another processor", async () => {
    const r = await runCli(["power", XGC, "--top", "2"]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[2]).toMatch(/^warning: the trial ran on 'Intel\(R\) Xeon\(R\) CPU X5650/);
    const report = trialReport(readTrialInput(XGC));
    const power = report.sections.find((s) => s.heading === "Power and energy")!;
    expect(power.notes![0]).toMatch(/^Not estimated: the trial ran on 'Intel\(R\) Xeon\(R\) CPU X5650/);
    // The note says the report did not estimate, not that the watts are estimated.
    expect(power.notes![0]).not.toContain("the watts are estimated");
    expect(power.notes![0]).toContain("'ccasim power' estimates it with those constants all the same, with a warning");
    expect(power.charts ?? []).toEqual([]);
  });
});

describe("ccasim power on a trial without the counters of any power component", () => {
  it("refuses it, naming what each component lacks, instead of printing the idle power for every event", async () => {
    const r = await runCli(["power", "../shared/data/tau/hatchet-cpi-mpi"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toContain("../shared/data/tau/hatchet-cpi-mpi: no event has what any component of the power model needs, so every estimate would be the idle power (97.66 W): core: no access counter (IA64_INST_RETIRED_THIS|IA64_INST_RETIRED|PAPI_TOT_INS); L1: no access counter");
    expect(estimateTrialPower(readTrial("../shared/data/tau/hatchet-cpi-mpi", { records: false }), itanium).anyComponent).toBe(false);
  });
});
