import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../scenarios/fixtures.js";
import { otherInputFileKindText } from "../../profile/index.js";
import { runCli as run } from "./run-cli.js";

const SWEEP = "scenarios/shock-l2.sweep.yaml";
const ASSEMBLY = "scenarios/flux.assembly.yaml";
const SCENARIO = "scenarios/known-models.yaml";

const sweepText = `this is a sweep file (it has 'scenario', 'axes'), not a scenario: run it with 'ccasim sweep ${SWEEP}' (check it with 'ccasim validate ${SWEEP}')`;
const assemblyText = `this is a selection assembly (it has 'components', 'callGraph'), not a scenario: choose its implementations with 'ccasim select ${ASSEMBLY} --input <name>=<value>'`;

describe("a file given to a command that reads another kind", () => {
  it("is named for what it is by run and validate, with the command that takes it, exit code 2", async () => {
    const sweep = await run(["run", SWEEP]);
    expect([sweep.code, sweep.err]).toEqual([2, `ccasim run: ${SWEEP}: 1 error\n  ${SWEEP}: ${sweepText}\n`]);
    // validate checks a sweep file as a sweep.
    expect((await run(["validate", SWEEP])).out).toContain(`${SWEEP}: valid — sweep 'shock-l2.sweep'`);
    for (const command of ["run", "validate"]) {
      const assembly = await run([command, ASSEMBLY]);
      expect([assembly.code, assembly.err]).toEqual([2, `ccasim ${command}: ${ASSEMBLY}: 1 error\n  ${ASSEMBLY}: ${assemblyText}\n`]);
    }
  });

  it("is named for what it is by sweep and select", async () => {
    const sweep = await run(["sweep", SCENARIO, "--db", "/proc/never.db"]);
    expect(sweep.code).toBe(2);
    expect(sweep.err).toContain(`${SCENARIO}: this is a scenario (it has 'machine', 'workload', 'assembly', 'metrics', 'outputs'), not a sweep file: run it with 'ccasim run ${SCENARIO}'`);
    const select = await run(["select", SWEEP, "--input", "Q=5"]);
    expect(select.code).toBe(2);
    expect(select.err).toContain(`${SWEEP}: this is a sweep file (it has 'scenario', 'axes'), not a selection assembly: run it with 'ccasim sweep ${SWEEP}'`);
  });

  it("is named for what it is by the commands that read measurements", async () => {
    const notProfile = "not a TAU profile directory, a profile.N.C.T file, a ParaProf .ppk file, a TAU XML profile or a CUBE4 .cubex file: it is";
    const report = await run(["report", SWEEP]);
    expect([report.code, report.err]).toEqual([2, `ccasim report: ${SWEEP}: ${notProfile} a sweep file (it has 'scenario', 'axes'): run it with 'ccasim sweep ${SWEEP}' (check it with 'ccasim validate ${SWEEP}')\n`]);
    const show = await run(["profile", "show", SCENARIO]);
    expect(show.code).toBe(2);
    expect(show.err).toContain(`${SCENARIO}: ${notProfile} a scenario (it has 'machine', 'workload', 'assembly', 'metrics', 'outputs'): run it with 'ccasim run ${SCENARIO}'`);
    const power = await run(["power", ASSEMBLY]);
    expect(power.code).toBe(2);
    expect(power.err).toContain(`${ASSEMBLY}: ${notProfile} a selection assembly (it has 'components', 'callGraph'): choose its implementations`);
    // An assembly in JSON, as select reads it too.
    const json = join(tempDir(), "assembly.json");
    writeFileSync(json, JSON.stringify({ components: [{ name: "F", implementations: [{ name: "F1", mean: 1 }] }], callGraph: { component: "F" } }));
    const shown = await run(["profile", "show", json]);
    expect([shown.code, shown.err]).toEqual([2, `ccasim profile: ${json}: ${notProfile} a selection assembly (it has 'components', 'callGraph'): choose its implementations with 'ccasim select ${json} --input <name>=<value>'\n`]);
  });

  it("is named for what it is when it is a power constants file, whose 'components' an assembly has too", async () => {
    const dir = tempDir();
    const constants = join(dir, "my-cpu.yaml");
    writeFileSync(constants, "name: my-cpu\nmaxPower: 95\nidlePower: 40\ncomponents:\n  - { name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS] }\n");
    const use = `give it to 'ccasim power --constants-file ${constants} <trial>' (list its sets with 'ccasim power --constants-file ${constants} --list-constants')`;
    const it = "a power constants file (it has 'maxPower', 'idlePower')";
    // Given as the trial, to the commands that read measurements.
    const notProfile = "not a TAU profile directory, a profile.N.C.T file, a ParaProf .ppk file, a TAU XML profile or a CUBE4 .cubex file: it is";
    for (const args of [["power", constants], ["prune", constants], ["profile", "show", constants]]) {
      const r = await run(args);
      expect([r.code, r.err]).toEqual([2, `ccasim ${args[0]}: ${constants}: ${notProfile} ${it}: ${use}\n`]);
    }
    // Given to the commands that read a scenario or an assembly.
    const run1 = await run(["run", constants]);
    expect([run1.code, run1.err]).toEqual([2, `ccasim run: ${constants}: 1 error\n  ${constants}: this is ${it}, not a scenario: ${use}\n`]);
    const select = await run(["select", constants, "--input", "x=1"]);
    expect([select.code, select.err]).toEqual([2, `ccasim select: ${constants}: this is ${it}, not a selection assembly: ${use}\n`]);
    // A file of several sets is one too.
    const list = join(dir, "sets.yaml");
    writeFileSync(list, "- { name: a, maxPower: 95, idlePower: 40, components: [{ name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS] }] }\n- { name: b, maxPower: 90, idlePower: 30, components: [{ name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS] }] }\n");
    expect((await run(["power", list])).err).toContain(`${list}: ${notProfile} a power constants file (it has 'maxPower', 'idlePower'): give it to 'ccasim power --constants-file ${list} <trial>'`);
    // And a constants file is read as one.
    expect((await run(["power", "--constants-file", constants, "--list-constants"])).code).toBe(0);
  });

  it("names an assembly, a scenario or a sweep file given as power constants", async () => {
    for (const [file, it] of [
      [ASSEMBLY, `a selection assembly (it has 'components', 'callGraph'), not a power constants file: choose its implementations with 'ccasim select ${ASSEMBLY} --input <name>=<value>'`],
      [SCENARIO, `a scenario (it has 'machine', 'workload', 'assembly', 'metrics', 'outputs'), not a power constants file: run it with 'ccasim run ${SCENARIO}'`],
      [SWEEP, `a sweep file (it has 'scenario', 'axes'), not a power constants file: run it with 'ccasim sweep ${SWEEP}'`],
    ]) {
      const r = await run(["power", "--constants-file", file!, "--list-constants"]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`ccasim power: ${file}: this is ${it}`);
    }
  });

  it("checks a constant set that has only the 'components' an assembly shares with it key by key, not as an assembly", async () => {
    // A set begun with its name and components, its power constants not written yet: no assembly
    // ('ccasim select' refuses its 'name'), and the key it lacks is the one to name.
    const file = join(tempDir(), "started.yaml");
    writeFileSync(file, "name: my-cpu\ncomponents:\n  - { name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS] }\n");
    const r = await run(["power", "--constants-file", file, "--list-constants"]);
    expect([r.code, r.err]).toEqual([2, `ccasim power: ${file}:1:1: key 'maxPower': missing: expected a non-negative number\n`]);
    expect(otherInputFileKindText({ components: [] }, "s.yaml", "power")).toBeUndefined();
  });

  it("is not claimed when the file has keys of its own kind, or of no kind or of two", () => {
    // A scenario with a stray sweep key gets its schema's errors instead.
    expect(otherInputFileKindText({ name: "s", machine: {}, axes: {} }, "s.yaml", "scenario")).toBeUndefined();
    expect(otherInputFileKindText({ name: "s" }, "s.yaml", "scenario")).toBeUndefined();
    expect(otherInputFileKindText({ axes: {}, components: [] }, "s.yaml", "scenario")).toBeUndefined();
    expect(otherInputFileKindText("text", "s.yaml", "scenario")).toBeUndefined();
    expect(otherInputFileKindText({ zip: [] }, "s.yaml", "scenario")).toMatch(/^this is a sweep file \(it has 'zip'\)/);
    // An assembly's own keys beside a constant set's 'components' make it no constant set.
    expect(otherInputFileKindText({ components: [], callGraph: {}, maxPower: 1 }, "s.yaml", "assembly")).toBeUndefined();
    expect(otherInputFileKindText({ components: [], maxPower: 1 }, "s.yaml", "power")).toBeUndefined();
    expect(otherInputFileKindText({ components: [] }, "s.yaml", "scenario")).toMatch(/^this is a selection assembly \(it has 'components'\)/);
  });
});

describe("the keys that tell input files apart", () => {
  it("are top-level keys of each kind's own schema, and no kind's keys are another's", async () => {
    const { INPUT_FILE_KEYS } = await import("../../profile/index.js");
    const { scenarioJsonSchema, sweepJsonSchema } = await import("../../scenarios/scenario-json-schema.js");
    const keysOf = (schema: object) => Object.keys((schema as { properties: Record<string, unknown> }).properties);
    for (const k of INPUT_FILE_KEYS.scenario) expect(keysOf(scenarioJsonSchema())).toContain(k);
    for (const k of INPUT_FILE_KEYS.sweep) expect(keysOf(sweepJsonSchema())).toContain(k);
    // A selection assembly's top level (analysis/select/assembly-file.ts reads exactly these).
    expect([...INPUT_FILE_KEYS.assembly].sort()).toEqual(["callGraph", "components", "interactions"]);
    // A power constant set's (analysis/power/constants.ts), but those shared with every kind or with an assembly.
    const { CONSTANT_SET_KEYS } = await import("../../analysis/power/constants.js");
    expect([...INPUT_FILE_KEYS.power, "components", "name", "summary"].sort()).toEqual([...CONSTANT_SET_KEYS].sort());
    const all = Object.values(INPUT_FILE_KEYS).flat();
    expect(new Set(all).size).toBe(all.length);
  });
});
