import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli as cli } from "../cli/run-cli.js";
import { profileFolderOf, ProfileFormatError, readTrial, RUN_PROFILE_FOLDER } from "../../profile/index.js";
import { runScenario } from "../../scenarios/index.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-run-folder-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let runDir = "";
let invocations = 0;
beforeAll(() => {
  const run = runScenario("scenarios/known-models.yaml", { out: join(scratch, "run"), set: ["workload.iterations=20", "outputs.records=[csv]", "metrics=[TIME,PAPI_TOT_CYC,PAPI_TOT_INS]"] });
  runDir = run.outDir;
  invocations = run.result.mastermind!.count;
});

describe("a folder written by ccasim run, given where a profile is expected", () => {
  it("is read from its profile/ folder, with the run's records attached", () => {
    expect(profileFolderOf(runDir)).toBe(join(runDir, RUN_PROFILE_FOLDER));
    const fromRun = readTrial(runDir);
    const fromProfile = readTrial(join(runDir, RUN_PROFILE_FOLDER));
    expect(fromRun.metrics).toEqual(fromProfile.metrics);
    expect(fromRun.threads).toEqual(fromProfile.threads);
    expect(fromRun.timers.map((t) => t.name)).toEqual(fromProfile.timers.map((t) => t.name));
    // The run writes its records beside profile/, not in it.
    expect(fromProfile.records).toHaveLength(0);
    expect(fromRun.records).toHaveLength(invocations);
    expect(invocations).toBeGreaterThan(0);
    expect(readTrial(runDir, { records: false }).records).toHaveLength(0);
  });

  it("names a file the run wrote beside its profile, given in the folder's place, and says to give the folder", async () => {
    const advice = (what: string) => `it is the ${what} of the ccasim run in ${runDir}: give the run's folder, ${runDir}, whose profile/ and records are read`;
    expect(() => readTrial(join(runDir, "callgraph.json"))).toThrow(advice("call graph"));
    const prune = await cli(["prune", join(runDir, "callgraph.json")]);
    expect(prune.code).toBe(2);
    expect(prune.err).toContain(advice("call graph"));
    // fit would read a .json as Extra-P input.
    const fit = await cli(["fit", join(runDir, "summary.json"), "--parameter", "x"]);
    expect(fit.code).toBe(2);
    expect(fit.err).toBe(`ccasim fit: ${join(runDir, "summary.json")}: not a profile, records or Extra-P input: ${advice("summary")}\n`);
    // A file of that name outside a run's folder is only not a profile.
    const elsewhere = join(scratch, "callgraph.json");
    writeFileSync(elsewhere, "{}");
    expect(() => readTrial(elsewhere)).toThrow(/not a TAU profile directory, a profile\.N\.C\.T file, a ParaProf \.ppk file, a TAU XML profile or a CUBE4 \.cubex file$/);
  });

  it("keeps a profile directory's own files first, and names a folder with neither", () => {
    const profile = join(runDir, RUN_PROFILE_FOLDER);
    expect(profileFolderOf(profile)).toBe(profile);
    const empty = join(scratch, "empty");
    mkdirSync(join(empty, RUN_PROFILE_FOLDER), { recursive: true });
    expect(profileFolderOf(empty)).toBe(empty);
    expect(() => readTrial(empty)).toThrow(ProfileFormatError);
    expect(() => readTrial(empty)).toThrow(`${empty}: no TAU profile files`);
  });

  it("gives the same output as its profile/ folder in profile show, prune and power", async () => {
    for (const command of [["profile", "show"], ["prune"], ["power"]]) {
      const a = await cli([...command, runDir]);
      const b = await cli([...command, join(runDir, RUN_PROFILE_FOLDER)]);
      expect(a.code, `${command.join(" ")}: ${a.err}`).toBe(0);
      expect(b.code).toBe(0);
      // The tables name their input: compare them with the path made the same.
      expect(a.out.split(runDir + "/" + RUN_PROFILE_FOLDER).join(runDir)).toBe(b.out.split(runDir + "/" + RUN_PROFILE_FOLDER).join(runDir));
      expect(a.out.length).toBeGreaterThan(100);
    }
  });
});
