import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTree } from "../scenarios/fixtures.js";
import { runCli as run } from "./run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-output-safety-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KNOWN = "scenarios/known-models.yaml";
/** An override that makes the run itself fail: a refusal must come before it. */
const FAILING_RUN = ["--set", "assembly.components.Driver.params.cost=i-3"];

/** A project folder: a scenario, and a sweep of it beside it. */
function project(name: string): { proj: string; scenario: string; sweep: string } {
  const proj = join(dir, name);
  mkdirSync(proj);
  const scenario = join(proj, "s.yaml");
  copyFileSync(KNOWN, scenario);
  const sweep = join(proj, "solver.sweep.yaml");
  writeFileSync(sweep, "scenario: s.yaml\nseed: 3\naxes:\n  workload.x: [1, 2]\nset:\n  workload.iterations: 2\n");
  return { proj, scenario, sweep };
}

describe("an output path that is, or holds, an input", () => {
  it("is refused by ccasim run even with --overwrite, before the simulation, and the input is kept", async () => {
    const victim = join(dir, "victim.yaml");
    copyFileSync(KNOWN, victim);
    const r = await run(["run", victim, "--out", victim, "--overwrite", ...FAILING_RUN]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `ccasim run: cannot write the output folder '${victim}': it is the scenario file '${victim}', which this command reads and would replace with its output; choose another output path\n`,
    );
    expect(readFileSync(victim, "utf8")).toBe(readFileSync(KNOWN, "utf8"));
  });

  it("is refused by ccasim run for the scenario's folder, which keeps every file", async () => {
    const { proj, scenario } = project("proj-run");
    const before = readTree(proj);
    const r = await run(["run", scenario, "--out", proj, "--overwrite", ...FAILING_RUN]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`cannot write the output folder '${proj}': it holds the scenario file '${scenario}'`);
    expect(readTree(proj)).toEqual(before);
    // Spelt another way, and relative to the working directory.
    const relative = await run(["run", scenario, "--out", join(proj, "..", "proj-run", "."), "--overwrite"]);
    expect(relative.code).toBe(2);
    expect(readTree(proj)).toEqual(before);
  });

  it("is refused by ccasim sweep for --point --out, --db and --script over the sweep or its scenario", async () => {
    const { proj, scenario, sweep } = project("proj-sweep");
    const before = readTree(proj);
    const point = await run(["sweep", sweep, "--point", "0", "--out", proj, "--overwrite"]);
    expect(point.code).toBe(2);
    expect(point.err).toContain(`cannot write the output folder '${proj}': it holds the sweep file '${sweep}'`);
    const pointScenario = await run(["sweep", sweep, "--point", "0", "--out", scenario, "--overwrite"]);
    expect(pointScenario.err).toContain(`it is the sweep's scenario file '${resolve(scenario)}'`);
    const db = await run(["sweep", sweep, "--db", sweep, "--quiet"]);
    expect(db.code).toBe(2);
    expect(db.err).toContain(`ccasim sweep: cannot write the study database '${sweep}': it is the sweep file '${sweep}'`);
    const script = await run(["sweep", sweep, "--emit", "slurm", "--script", scenario, "--db", join(dir, "study-s.db")]);
    expect(script.code).toBe(2);
    expect(script.err).toContain(`cannot write the Slurm script '${scenario}': it is the sweep's scenario file`);
    expect(readTree(proj)).toEqual(before);
  });

  it("is refused by ccasim report and ccasim profile convert, which keep their input", async () => {
    const out = join(dir, "run-a");
    expect((await run(["run", KNOWN, "--out", out, "--set", "workload.iterations=2", "--quiet"])).code).toBe(0);
    const before = readTree(out);
    const report = await run(["report", join(out, "records.csv"), "--out", join(out, "records.csv")]);
    expect(report.code).toBe(2);
    expect(report.err).toContain(`cannot write the report '${join(out, "records.csv")}': it is the input`);
    const convert = await run(["profile", "convert", out, out, "--overwrite"]);
    expect(convert.code).toBe(2);
    expect(convert.err).toContain(`ccasim profile: cannot write the output '${out}': it is the input '${out}'`);
    // The profile read from a run folder is an input too, as are its records.
    const profile = await run(["profile", "convert", out, join(out, "profile"), "--overwrite"]);
    expect(profile.err).toContain(`it is the input's profile folder '${join(out, "profile")}'`);
    const records = await run(["profile", "convert", join(out, "records.csv"), join(out, "records.csv")]);
    expect(records.err).toContain("it is the input");
    expect(readTree(out)).toEqual(before);
    // Into the run folder it reports on is fine: the report is not an input.
    expect((await run(["report", out])).code).toBe(0);
  });
});

describe("an output inside a folder the command reads", () => {
  it("is refused by ccasim profile convert, and the profile folder is left as it was", async () => {
    const profile = join(dir, "hatchet-cpi-mpi");
    cpSync("../shared/data/tau/hatchet-cpi-mpi", profile, { recursive: true });
    const before = readTree(profile);
    for (const output of [join(profile, "sub"), join(profile, "timers.csv"), join(profile, "a", "b")]) {
      const r = await run(["profile", "convert", profile, output]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        `ccasim profile: cannot write the output '${output}': it is inside the input '${profile}', a folder this command reads, and would change it; choose an output path outside that folder\n`,
      );
    }
    expect(readTree(profile)).toEqual(before);
    // Beside it is fine.
    expect((await run(["profile", "convert", profile, join(dir, "hatchet-copy")])).code).toBe(0);
  });

  it("is refused by ccasim profile convert and ccasim report inside a run folder, save the run's own report", async () => {
    const out = join(dir, "run-inside");
    expect((await run(["run", KNOWN, "--out", out, "--set", "workload.iterations=2", "--quiet"])).code).toBe(0);
    const before = readTree(out);
    const convert = await run(["profile", "convert", out, join(out, "profile.csv"), "--to", "table-csv"]);
    expect([convert.code, convert.err]).toEqual([2, expect.stringContaining(`it is inside the input '${out}', a folder this command reads`)]);
    const report = await run(["report", out, "--out", join(out, "extra", "report.html")]);
    expect([report.code, report.err]).toEqual([2, expect.stringContaining(`cannot write the report '${join(out, "extra", "report.html")}': it is inside the input '${out}'`)]);
    const profileReport = await run(["report", join(out, "profile"), "--out", join(out, "profile", "r.html")]);
    expect([profileReport.code, profileReport.err]).toEqual([2, expect.stringContaining(`it is inside the input '${join(out, "profile")}'`)]);
    expect(readTree(out)).toEqual(before);
    // The run's own report goes into its folder, by default or named.
    expect((await run(["report", out, "--out", join(out, "report.html")])).code).toBe(0);
  });
});

describe("an output whose folder cannot be written", () => {
  it("is refused by ccasim run before the simulation, in words, with exit code 2", async () => {
    const r = await run(["run", KNOWN, "--out", "/proc/x", ...FAILING_RUN]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ccasim run: cannot write the output folder '\/proc\/x': its parent \/proc is not writable \(E[A-Z]+\)\n$/);
    const file = join(dir, "a-file");
    writeFileSync(file, "x");
    const under = await run(["run", KNOWN, "--out", join(file, "out"), ...FAILING_RUN]);
    expect(under.err).toBe(`ccasim run: cannot write the output folder '${join(file, "out")}': its parent ${file} is a file, not a folder\n`);
  });

  it("is refused by ccasim sweep, report, profile convert and query before they run", async () => {
    const { sweep } = project("proj-unwritable");
    const db = await run(["sweep", sweep, "--db", "/proc/x/study.db", "--quiet"]);
    expect(db.code).toBe(2);
    expect(db.err).toContain("cannot write the study database '/proc/x/study.db': its parent /proc/x does not exist and cannot be created: /proc is not writable");
    const point = await run(["sweep", sweep, "--point", "1", "--out", "/proc/x"]);
    expect([point.code, point.err]).toEqual([2, expect.stringContaining("its parent /proc is not writable")]);
    const report = await run(["report", "../shared/data/tau/hatchet-cpi-mpi", "--out", "/proc/x.html"]);
    expect([report.code, report.err]).toEqual([2, expect.stringContaining("cannot write the report '/proc/x.html': its parent /proc is not writable")]);
    const convert = await run(["profile", "convert", "../shared/data/tau/hatchet-cpi-mpi", "/proc/x"]);
    expect([convert.code, convert.err]).toEqual([2, expect.stringContaining("cannot write the output '/proc/x': its parent /proc is not writable")]);
    const study = join(dir, "small.db");
    expect((await run(["sweep", sweep, "--db", study, "--quiet"])).code).toBe(0);
    const query = await run(["query", study, "point", "--out", "/proc/x.csv"]);
    expect([query.code, query.err]).toEqual([2, expect.stringContaining("cannot write the export '/proc/x.csv': its parent /proc is not writable")]);
    const exported = join(dir, "points.csv");
    expect((await run(["query", study, "point", "--out", exported])).code).toBe(0);
    expect(readFileSync(exported, "utf8").split("\n")[0]).toContain("point_id");
    expect(readdirSync(dir).filter((n) => n.includes(".tmp-"))).toEqual([]);
    // A folder that does not exist yet is made, for every kind of output alike.
    for (const [args, made] of [
      [["query", study, "point", "--out", join(dir, "new-q", "deep", "p.csv")], join(dir, "new-q", "deep", "p.csv")],
      [["profile", "convert", "../shared/data/tau/hatchet-cpi-mpi", join(dir, "new-c", "t.csv"), "--to", "table-csv"], join(dir, "new-c", "t.csv")],
      [["profile", "convert", "../shared/data/tau/hatchet-cpi-mpi", join(dir, "new-t", "tau"), "--to", "tau"], join(dir, "new-t", "tau", "profile.0.0.0")],
      [["report", "../shared/data/tau/hatchet-cpi-mpi", "--out", join(dir, "new-r", "r.html")], join(dir, "new-r", "r.html")],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, r.err).toBe(0);
      expect(readFileSync(made, "utf8").length).toBeGreaterThan(0);
    }
    // An export named as a folder that is there: refused, naming it, and the folder is kept.
    const folder = join(dir, "points-folder.csv");
    mkdirSync(folder);
    const intoFolder = await run(["query", study, "point", "--out", folder]);
    expect([intoFolder.code, intoFolder.err]).toEqual([2, `ccasim query: cannot write the export '${folder}': it is a folder; name the file to write in it\n`]);
    expect(readdirSync(folder)).toEqual([]);
    expect(readdirSync(dir).filter((n) => n.includes(".tmp-"))).toEqual([]);
    // A path that ends with a separator names a folder too: it wrote the file before it.
    const slashed = join(dir, "slashed.csv") + "/";
    const intoSlashed = await run(["query", study, "point", "--out", slashed]);
    expect([intoSlashed.code, intoSlashed.err]).toEqual([2, `ccasim query: cannot write the export '${slashed}' (${join(dir, "slashed.csv")}): it ends with a path separator, naming a folder; name the file to write\n`]);
    expect(existsSync(join(dir, "slashed.csv"))).toBe(false);
    // A failed output leaves no folder it made.
    const failed = await run(["query", study, "SELECT nosuch FROM point", "--out", join(dir, "never", "made", "x.csv")]);
    expect(failed.code).toBe(2);
    expect(existsSync(join(dir, "never"))).toBe(false);
  });
});

beforeAll(() => {
  // The checks compare with the working directory's files: the tests run from the repository.
  expect(resolve(KNOWN)).toBe(join(process.cwd(), KNOWN));
});
