import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { executeScenario, loadScenario, loadScenarioText } from "../../scenarios/index.js";
import { parseMeasuredCsv, parseMeasuredYaml, validateModel } from "../../scenarios/program/index.js";
import { loadSweepText } from "../../scenarios/sweep/index.js";
import { runCli } from "../cli/run-cli.js";
import { scenarioErrorsOf as errorsOf, tempDir } from "./fixtures.js";

const KNOWN = "scenarios/known-models.yaml";
const KNOWN_TEXT = readFileSync(KNOWN, "utf8");
const LAPW0 = "scenarios/lapw0.yaml";
const scratch = tempDir("ccasim-workload-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("setting workload variables", () => {
  it("refuses a --set of a variable the workload section does not define, naming it, the argument and the nearest", () => {
    const e = errorsOf(() => loadScenario(KNOWN, { set: ["workload.iterations=2", "workload.y=3"] }));
    expect(e.errors).toHaveLength(1);
    expect(e.errors[0].path).toBe("workload.y");
    expect(e.errors[0].line).toBe(32);
    expect(e.errors[0].message).toBe(
      `${KNOWN}:32:1: workload.y: 'y' is not a workload variable: the scenario's workload section defines x, iterations; to add a variable, define it there (from --set workload.y=3)`,
    );
    // 'x' for 'y' would replace the whole word: no likely typo, so no suggestion; a near name gets one.
    const near = errorsOf(() => loadScenario(KNOWN, { set: ["workload.iteration=3"] }));
    expect(near.errors[0].message).toContain("workload.iteration: 'iteration' is not a workload variable (did you mean 'iterations'?)");
  });

  it("names the place an override comes from when the caller gives it", () => {
    const e = errorsOf(() => loadScenario(KNOWN, { set: [{ text: "workload.xx=1", source: "study.csv:4, column 3 'workload.xx'" }] }));
    expect(e.errors[0].message).toMatch(/workload\.xx: 'xx' is not a workload variable \(did you mean 'x'\?\).*\(from study\.csv:4, column 3 'workload\.xx'\)$/);
  });

  it("reports an undefined variable together with the scenario's other mistakes", () => {
    const e = errorsOf(() => loadScenario(KNOWN, { set: ["workload.y=3", "machine.nodes=0"] }));
    expect(e.errors.map((x) => x.path)).toEqual(["machine.nodes", "workload.y"]);
  });

  it("accepts the variables the section defines, and new ones given with the whole section", () => {
    expect(loadScenario(KNOWN, { set: ["workload.x=1.5"] }).config.workload).toEqual({ x: 1.5, iterations: 100 });
    const whole = loadScenario(KNOWN, { set: ["workload={x: 2, iterations: 3, scale: 1}", "workload.scale=4"] });
    expect(whole.config.workload).toEqual({ x: 2, iterations: 3, scale: 4 });
    const e = errorsOf(() => loadScenario(KNOWN, { set: ["workload={x: 2, iterations: 3}", "workload.scale=4"] }));
    expect(e.errors[0].message).toContain("'scale' is not a workload variable");
  });

  it("exits 2 from ccasim run before writing anything", async () => {
    const r = await runCli(["run", KNOWN, "--set", "workload.y=3", "--out", join(scratch, "out")]);
    expect(r.code).toBe(2);
    expect(existsSync(join(scratch, "out"))).toBe(false);
    expect(r.err).toContain("workload.y: 'y' is not a workload variable: the scenario's workload section defines x");
    expect(r.out).toBe("");
  });
});

describe("sweeping workload variables", () => {
  const sweep = (body: string) => () => loadSweepText(`scenario: ${KNOWN}\n${body}`, "study.sweep.yaml");

  it("refuses an axis, a zipped list, a random axis or a fixed value of an undefined variable, at its key", () => {
    const cases: [string, string, number][] = [
      ["axes:\n  workload.xx: [1, 2, 4]\n", `axes["workload.xx"]`, 3],
      ["zip:\n  - { workload.x: [1, 2], workload.iteration: [3, 4] }\n", `zip[0]["workload.iteration"]`, 3],
      ["random:\n  n: 2\n  axes:\n    workload.z: { uniform: [0, 1] }\n", `random.axes["workload.z"]`, 5],
      ["set:\n  workload.itrations: 5\n", `set["workload.itrations"]`, 3],
    ];
    for (const [body, path, line] of cases) {
      const e = errorsOf(sweep(body));
      expect(e.errors[0].path, body).toBe(path);
      expect(e.errors[0].line, body).toBe(line);
      expect(e.errors[0].file).toBe("study.sweep.yaml");
      expect(e.message).toContain("is not a workload variable");
    }
    expect(errorsOf(sweep("axes:\n  workload.xx: [1]\n")).message).toContain("(did you mean 'x'?)");
  });

  it("accepts the scenario's variables and keys outside the workload", () => {
    expect(sweep("axes:\n  workload.x: [1, 2]\n  machine.nodes: [1, 2]\nset:\n  workload.iterations: 3\n")().points).toHaveLength(4);
  });
});

describe("measured tables setting workload variables", () => {
  it("names the CSV column and row of an undefined variable", () => {
    const table = parseMeasuredCsv("name,workload.NAT,workload.NTA,measured\nA,32,,264s\nB,64,2,501s\n", "m.csv");
    const e = errorsOf(() => validateModel(LAPW0, table, { repeats: 1 }));
    expect(e.errors[0].message).toContain("workload.NTA: 'NTA' is not a workload variable (did you mean 'NAT'?)");
    expect(e.errors[0].message).toContain("(from m.csv:3, column 3 'workload.NTA')");
  });

  it("names the YAML entry of an undefined variable", () => {
    const table = parseMeasuredYaml("configurations:\n  - name: a\n    set: { workload.NTA: 32 }\n    measured: 264s\n", "m.yaml");
    const e = errorsOf(() => validateModel(LAPW0, table, { repeats: 1 }));
    expect(e.errors[0].message).toContain(`(from m.yaml:3, configurations[0].set["workload.NTA"])`);
  });

  it("exits 2 from ccasim validate-model with a misspelt column", async () => {
    const file = join(scratch, "m.csv");
    writeFileSync(file, "name,workload.NTA,measured\nA,32,264s\n");
    const r = await runCli(["validate-model", LAPW0, "--measured", file, "--repeats", "1"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`(from ${file}:2, column 2 'workload.NTA')`);
    expect(r.out).toBe("");
  });
});

describe("workload values that are not numbers", () => {
  it("are refused where an expression uses them, naming the key and the --set argument", async () => {
    const r = await runCli(["validate", KNOWN, "--set", "workload.x=abc"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `${KNOWN}:33:3: workload.x: "abc" is not a number, but assembly.components.Driver.params.calls[0].args.x uses 'x' in an expression, which reads workload values as numbers (from --set workload.x=abc)`,
    );
  });

  it("say, for a formula written as a workload value, to write it where it is used", async () => {
    const r = await runCli(["validate", KNOWN, "--set", "workload.x=iterations/2"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`uses 'x' in an expression, which reads workload values as numbers; a workload value is a number or text, not an expression: write "iterations/2" in place of 'x' where it is used`);
  });

  it("say, for a quantity with a unit, what number to write, alike in the scenario, --set and a sweep", async () => {
    const bytes = "a workload value is a plain number, without a unit: write the size as a number of bytes (1KiB is 1024)";
    const r = await runCli(["validate", KNOWN, "--set", "workload.x=1KiB"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${KNOWN}:33:3: workload.x: "1KiB" is not a number, but assembly.components.Driver.params.calls[0].args.x uses 'x' in an expression, which reads workload values as numbers; ${bytes} (from --set workload.x=1KiB)`);
    const inFile = errorsOf(() => loadScenarioText(KNOWN_TEXT.replace("  x: 3\n", "  x: 2ms\n"), KNOWN));
    expect(inFile.errors[0].message).toContain(
      "a workload value is a plain number, without a unit: write the time as a number in the unit its expressions read (2ms is 2000 in us; a program model's costs are in program.costUnit)",
    );
    // A sweep sets a listed value or a set: value as --set does: its points fail with the same advice.
    for (const body of ["axes:\n  workload.x: [1KiB, 2KiB]\n", "set: { workload.x: 1KiB }\naxes:\n  workload.iterations: [1, 2]\n"]) {
      const file = join(scratch, "units.sweep.yaml");
      writeFileSync(file, `scenario: ${join(process.cwd(), KNOWN)}\n${body}`);
      const sw = await runCli(["sweep", file, "--db", join(scratch, "units.db")]);
      expect(sw.code, body).toBe(2);
      expect(sw.err, body).toContain(`; ${bytes} (from `);
    }
  });

  it("refuses a range or a distribution with a unit on a workload key at its bound, saying what to write", () => {
    const refusal = (body: string) => errorsOf(() => loadSweepText(`scenario: ${KNOWN}\n${body}`, "u.sweep.yaml")).errors.map((e) => `${e.line}:${e.column}: ${e.path}: ${e.message.split(": ").slice(2).join(": ")}`);
    expect(refusal("axes:\n  workload.x: { from: 8B, to: 1MiB, factor: 8 }\n")).toEqual([
      `3:17: axes["workload.x"].from: a workload value is a plain number, without a unit: write the size as a number of bytes (8B is 8)`,
    ]);
    expect(refusal("axes:\n  workload.x: { from: 1, to: 4ms, step: 1ms }\n")).toEqual([
      `3:26: axes["workload.x"].to: a workload value is a plain number, without a unit: write the time as a number in the unit its expressions read (4ms is 4000 in us; a program model's costs are in program.costUnit)`,
    ]);
    expect(refusal("random: { n: 2, axes: { workload.x: { loguniform: [1, 2.8GHz] } } }\n")).toEqual([
      `2:55: random.axes["workload.x"].loguniform[1]: a workload value is a plain number, without a unit: write it as a number in the unit its expressions read (2.8GHz is 2800000000 in Hz)`,
    ]);
    // Plain numbers, and units on other keys, stay as they were.
    const sw = loadSweepText(`scenario: ${KNOWN}\naxes:\n  workload.x: { from: 8, to: 512, factor: 8 }\n  machine.l2.size: { from: 256KiB, to: 512KiB, factor: 2 }\n`, "u.sweep.yaml");
    expect([...new Set(sw.points.map((p) => p.values["workload.x"]))]).toEqual([8, 64, 512]);
    expect([...new Set(sw.points.map((p) => p.values["machine.l2.size"]))]).toEqual([262144, 524288]);
  });

  it("are refused once in a program model, at the workload key", () => {
    const e = errorsOf(() => loadScenario(LAPW0, { set: ["workload.NAT=abc"] }));
    expect(e.errors).toHaveLength(1);
    expect(e.errors[0].path).toBe("workload.NAT");
    expect(e.errors[0].message).toMatch(/"abc" is not a number, but program\.functions\["AtomsOf\(p\)"\] uses 'NAT'.*\(from --set workload\.NAT=abc\)$/);
  });

  it("are accepted when no expression uses them, or a method argument of the same name shadows them", () => {
    const unused = KNOWN_TEXT.replace("  iterations: 100\n", "  iterations: 2\n  label: baseline\n");
    expect(executeScenario(loadScenarioText(unused, "unused.yaml")).result.invocations).toBeGreaterThan(0);
    // The driver passes x = 3 and A's cost reads its argument x, not the workload's text.
    const shadowed = KNOWN_TEXT.replace("  x: 3\n", "  x: three\n").replaceAll("args: { x: x }", "args: { x: 3 }").replace("iterations: 100", "iterations: 2");
    expect(shadowed).not.toBe(KNOWN_TEXT);
    const records = executeScenario(loadScenarioText(shadowed, "shadowed.yaml")).result.mastermind!.records.filter((r) => r.component === "A");
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.parameters.x === 3 && r.wallTime > 0)).toBe(true);
  });
});
