import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../scenarios/fixtures.js";
import { runCli as run } from "./run-cli.js";

const KNOWN = resolve("scenarios/known-models.yaml");
const SMALL = ["--set", "workload.iterations=2", "--set", "outputs.records=[csv]"];
const scratch = tempDir("ccasim-run-command-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder holding the user's own file. */
function notesFolder(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "notes.txt"), "mine");
  return dir;
}

describe("ccasim run --out", () => {
  it("refuses a folder holding other files before the simulation, naming it and --overwrite, and keeps the files", async () => {
    const dir = notesFolder("notes");
    // A negative cost fails the run itself: the folder's refusal must come first.
    const r = await run(["run", KNOWN, "--out", dir, "--set", "assembly.components.Driver.params.cost=i-3"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `ccasim run: cannot write the output folder '${dir}': it holds files a run does not write (notes.txt), and a run replaces its output folder whole; choose another output folder, or replace it with --overwrite\n`,
    );
    expect(r.out).toBe("");
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    expect(readdirSync(scratch)).toEqual(["notes"]); // no temporary sibling left either
  });

  it("refuses a file at the path, and replaces it with --overwrite", async () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "mine");
    const refused = await run(["run", KNOWN, ...SMALL, "--out", file, "--quiet"]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("it is a file, not a folder");
    expect(readFileSync(file, "utf8")).toBe("mine");
    const replaced = await run(["run", KNOWN, ...SMALL, "--out", file, "--quiet", "--overwrite"]);
    expect(replaced.code, replaced.err).toBe(0);
    expect(existsSync(join(file, "summary.json"))).toBe(true);
  });

  it("reruns into the default out/<name> without flags, also after ccasim report added its page, saying it deleted the page", async () => {
    const cwd = process.cwd();
    const home = join(scratch, "project");
    mkdirSync(home);
    process.chdir(home);
    try {
      expect((await run(["run", KNOWN, ...SMALL, "--quiet"])).code).toBe(0);
      expect((await run(["report", "out/known-models"])).code).toBe(0);
      expect(existsSync("out/known-models/report.html")).toBe(true);
      const again = await run(["run", KNOWN, ...SMALL, "--quiet", "--seed", "5"]);
      expect(again.code, again.err).toBe(0);
      expect(JSON.parse(readFileSync("out/known-models/summary.json", "utf8")).seed).toBe(5);
      // The report is gone with the folder it was in, and the run says so in one line.
      const dir = resolve("out/known-models");
      expect(existsSync("out/known-models/report.html")).toBe(false);
      expect(again.err).toBe(`note: replacing ${dir} deleted report.html, which 'ccasim report' wrote there after the earlier run; 'ccasim report ${dir}' writes it again\n`);
      // Nothing to say when the replaced folder held only what a run writes.
      expect((await run(["run", KNOWN, ...SMALL, "--quiet"])).err).toBe("");
    } finally {
      process.chdir(cwd);
    }
  });

  it("never replaces the working directory or its ancestors, even with --overwrite", async () => {
    const cwd = process.cwd();
    const inner = join(notesFolder("work"), "inner");
    mkdirSync(inner);
    process.chdir(inner);
    try {
      for (const out of [".", ".."]) {
        const r = await run(["run", KNOWN, ...SMALL, "--out", out, "--overwrite"]);
        expect(r.code, out).toBe(2);
        expect(r.err).toContain("it is the working directory or one of its ancestors, which a run never replaces");
      }
      // An unset variable in a script (`--out "$DIR"`), from the command line or the scenario.
      for (const args of [["--out", ""], ["--set", 'outputs.dir=""']]) {
        const r = await run(["run", KNOWN, ...SMALL, ...args]);
        expect(r.code, args.join(" ")).toBe(2);
      }
      expect(readdirSync(inner)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(join(scratch, "work")).sort()).toEqual(["inner", "notes.txt"]);
  });
});

describe("ccasim run's output folder by default", () => {
  it("is the scenario's outputs.dir, relative to the working directory, as the help says; --out replaces it", async () => {
    const help = await run(["run", "--help"]);
    expect(help.out).toContain("Writes into DIR (default: the scenario's outputs.dir, else\nout/<scenario name>; relative to the working directory)");
    expect(help.out).toContain("--out DIR            output folder (replaces the scenario's outputs.dir)");
    const cwd = process.cwd();
    const work = join(scratch, "outputs-dir");
    mkdirSync(work);
    const scenario = resolve(KNOWN);
    process.chdir(work);
    try {
      expect((await run(["run", scenario, ...SMALL, "--set", "outputs.dir=mine", "--quiet"])).code).toBe(0);
      expect(existsSync(join(work, "mine", "summary.json"))).toBe(true);
      expect((await run(["run", scenario, ...SMALL, "--set", "outputs.dir=mine", "--out", "given", "--quiet"])).code).toBe(0);
      expect(readdirSync(work).sort()).toEqual(["given", "mine"]);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe("ccasim run --seed", () => {
  it("reads the seed as the file's 'seed:' is: an integer or a text, and refuses 1.5 and true as the file does", async () => {
    const out = join(scratch, "seeded");
    for (const [given, recorded] of [["7", 7], ["abc", "abc"]] as const) {
      const r = await run(["run", KNOWN, ...SMALL, "--out", out, "--overwrite", "--quiet", "--seed", given]);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(readFileSync(join(out, "summary.json"), "utf8")).seed).toBe(recorded);
    }
    const file = join(scratch, "seed-1.5.yaml");
    writeFileSync(file, readFileSync(KNOWN, "utf8").replace(/^seed: 1$/m, "seed: 1.5"));
    const inFile = await run(["run", file, ...SMALL, "--out", join(scratch, "never"), "--quiet"]);
    expect([inFile.code, inFile.err]).toEqual([2, expect.stringContaining("seed: expected an integer, got 1.5\n")]);
    const fraction = await run(["run", KNOWN, ...SMALL, "--out", join(scratch, "never"), "--quiet", "--seed", "1.5"]);
    expect([fraction.code, fraction.err]).toEqual([2, expect.stringContaining("seed: expected an integer, got 1.5 (from --seed 1.5)\n")]);
    const flag = await run(["run", KNOWN, ...SMALL, "--out", join(scratch, "never"), "--quiet", "--seed", "true"]);
    expect([flag.code, flag.err]).toEqual([2, expect.stringContaining("seed: expected an integer or a string, got true (from --seed true)\n")]);
    expect(existsSync(join(scratch, "never"))).toBe(false);
  });
});

describe("ccasim run --top", () => {
  it("rejects a count that is not a positive integer with exit code 2", async () => {
    for (const top of ["abc", "0", "2.5", "-1", ""]) {
      const r = await run(["run", KNOWN, ...SMALL, "--out", join(scratch, "top"), `--top=${top}`]);
      expect(r.code, top).toBe(2);
      expect(r.err).toBe(`ccasim run: --top expects a positive integer, got '${top}'\n`);
      expect(existsSync(join(scratch, "top"))).toBe(false);
    }
  });

  it("refuses --top and --no-evidence with --quiet, which prints no report for them to shape", async () => {
    for (const option of ["--top=3", "--no-evidence"]) {
      const r = await run(["run", KNOWN, ...SMALL, "--out", join(scratch, "quiet-top"), "--quiet", option]);
      expect(r.code, option).toBe(2);
      expect(r.err).toBe(`ccasim run: ${option.replace(/=.*/, "")} shapes the printed report, which --quiet does not print: give one of them\n`);
      expect(existsSync(join(scratch, "quiet-top"))).toBe(false);
    }
  });

  it("refuses --top and --no-evidence with --no-measure, whose report has no table or evidence for them to shape", async () => {
    for (const option of ["--top=3", "--no-evidence"]) {
      const r = await run(["run", KNOWN, ...SMALL, "--out", join(scratch, "unmeasured-top"), "--no-measure", option]);
      expect(r.code, option).toBe(2);
      expect(r.err).toBe(`ccasim run: ${option.replace(/=.*/, "")} shapes the profile table and evidence a run prints, which --no-measure leaves out (it measures nothing): give one of them\n`);
      expect(existsSync(join(scratch, "unmeasured-top"))).toBe(false);
    }
  });

  it("refuses --no-evidence for a program model, whose run prints no evidence, before it runs", async () => {
    const out = join(scratch, "program-no-evidence");
    const r = await run(["run", "scenarios/prophet-sample.yaml", "--out", out, "--no-evidence"]);
    expect([r.code, r.out, r.err]).toEqual([2, "", "ccasim run: --no-evidence leaves out the evidence section, which a program model's run does not print (it has no proxy records): leave it out\n"]);
    expect(existsSync(out)).toBe(false);
  });

  it("prints as many timers as asked", async () => {
    const r = await run(["run", KNOWN, ...SMALL, "--out", join(scratch, "top3"), "--top", "3", "--no-evidence"]);
    expect(r.code, r.err).toBe(0);
    const rows = r.out.split("\n").filter((l) => /^\s*\d+\.\d\s/.test(l));
    expect(rows).toHaveLength(3);
    expect(r.out).not.toContain("Evidence");
  });

  it("lists every option in the usage line of --help", async () => {
    const r = await run(["run", "--help"]);
    const usage = r.out.slice(0, r.out.indexOf("\n\n"));
    for (const option of ["--out", "--overwrite", "--seed", "--set", "--top", "--quiet", "--no-evidence", "--no-measure"]) expect(usage, option).toContain(option);
  });

  it("writes the profile files its help names: profile.N.C.T for one metric, a MULTI__ folder per metric for several", async () => {
    const help = (await run(["run", "--help"])).out;
    expect(help).toContain("profile/          TAU profile: profile.N.C.T, or MULTI__<metric>/profile.N.C.T per metric when\n                    there are several");
    const one = join(tempDir(), "one");
    expect((await run(["run", "scenarios/prophet-sample.yaml", "--out", one, "--quiet", "--set", "outputs.trace=false"])).code).toBe(0);
    expect(readdirSync(join(one, "profile")).sort()).toEqual(["profile.0.0.0", "profile.1.0.0"]);
    const two = join(tempDir(), "two");
    expect((await run(["run", "scenarios/prophet-sample.yaml", "--out", two, "--quiet", "--set", "outputs.trace=false", "--set", "metrics=[TIME, PAPI_TOT_CYC]"])).code).toBe(0);
    expect(readdirSync(join(two, "profile")).sort()).toEqual(["MULTI__PAPI_TOT_CYC", "MULTI__TIME"]);
    expect(readdirSync(join(two, "profile", "MULTI__TIME")).sort()).toEqual(["profile.0.0.0", "profile.1.0.0"]);
    // A program model's threads are the T of profile.N.C.T, as the README's table of a run's files says too.
    const threads = join(tempDir(), "threads");
    expect((await run(["run", "scenarios/program-elements.yaml", "--out", threads, "--quiet"])).code).toBe(0);
    expect(readdirSync(join(threads, "profile"))).toContain("profile.0.0.1");
    expect(readFileSync("README.md", "utf8")).toContain("| `profile/profile.N.C.T`, or `profile/MULTI__<metric>/profile.N.C.T` per metric when there are several (node, context, thread: `profile.3.0.1`) |");
  });

  it("--no-measure writes no profile and gives the simulated time of a measured run, as its help says", async () => {
    const help = (await run(["run", "--help"])).out;
    expect(help).toContain("measurement and proxy overhead are not modelled");
    expect(help).not.toContain("overhead comparisons");
    const measured = await run(["run", "scenarios/known-models.yaml", "--out", join(tempDir(), "m")]);
    const bare = await run(["run", "scenarios/known-models.yaml", "--out", join(tempDir(), "b"), "--no-measure"]);
    const simulated = (out: string) => /simulated (\d+\.\d+) s/.exec(out)![1];
    expect(simulated(bare.out)).toBe(simulated(measured.out));
  });

  it("--no-measure writes only summary.json and timing.json, even for a program model that asks for a trace", async () => {
    const out = join(tempDir(), "p");
    expect((await run(["run", "scenarios/program-elements.yaml", "--out", out, "--no-measure", "--quiet"])).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["summary.json", "timing.json"]);
    const bare = join(tempDir(), "k");
    expect((await run(["run", "scenarios/known-models.yaml", "--out", bare, "--no-measure", "--quiet"])).code).toBe(0);
    expect(readdirSync(bare).sort()).toEqual(["summary.json", "timing.json"]);
    // The summary says so, and the commands that read a profile name the run for what it is.
    for (const folder of [out, bare]) expect(JSON.parse(readFileSync(join(folder, "summary.json"), "utf8")).measured).toBe(false);
    const why = `${bare}: a ccasim run made with --no-measure: it wrote no profile, records or call graph (run it again without --no-measure)`;
    for (const args of [["profile", "show", bare], ["report", bare], ["fit", bare, "--parameter", "x"], ["power", bare]]) {
      const r = await run(args);
      expect([r.code, r.out], args.join(" ")).toEqual([2, ""]);
      expect(r.err).toBe(`ccasim ${args[0]}: ${why}\n`);
    }
  });

  it("writes no 'measured' key in a measured run's summary", async () => {
    const out = join(tempDir(), "measured");
    expect((await run(["run", KNOWN, ...SMALL, "--out", out, "--quiet"])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "summary.json"), "utf8"))).not.toHaveProperty("measured");
  });
});

describe("ccasim run --quiet", () => {
  it("prints only the output folder on stdout, and the run's warnings on stderr all the same", async () => {
    const file = join(scratch, "unreceived.yaml");
    writeFileSync(
      file,
      `name: unreceived
seed: 1
machine: { preset: pentium3-xeon-700, nodes: 1, processesPerNode: 2 }
program:
  main:
    - if: pid == 0
      then:
        - send: S
          to: 1
          size: 100
        - send: S2
          to: 1
          size: 100
    - if: pid == 1
      then:
        - recv: R
          from: 0
          size: 100
`,
    );
    const out = join(scratch, "unreceived-out");
    const r = await run(["run", file, "--out", out, "--quiet"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`${out}\n`);
    expect(r.err).toMatch(/warning: unreceived message from process 0 to process 1 \(tag 0, 100 bytes, sent at element 'S2' \(.*unreceived\.yaml:11:11\)\)/);
  });
});

describe("ccasim run's summary line", () => {
  it("counts one rank and one invocation in the singular, as validate does", async () => {
    const file = join(scratch, "one.yaml");
    writeFileSync(
      file,
      `name: one
machine: { preset: pentium3-xeon-700, nodes: 1, processesPerNode: 1, network: { preset: fast-ethernet } }
program:
  main:
    - action: A
      cost: 5
outputs: { records: [], callgraph: false, trace: false }
`,
    );
    const r = await run(["run", file, "--out", join(scratch, "one-out")]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^one: 1 rank, simulated 0\.000005 s in \d+\.\d\d s wall \([\d,]+ events\/s, 1 invocation, 0 records\)\n/);
    expect(r.out).toContain("\nMean profile over 1 rank (top timers");
  });
});
