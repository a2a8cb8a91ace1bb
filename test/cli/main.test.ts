import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../cli/commands/index.js";
import { runCli as run } from "./run-cli.js";

describe("ccasim command line", () => {
  it("prints help with --help and exits 0", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Usage: ccasim <command>");
  });

  it("prints the package version", async () => {
    const r = await run(["--version"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ccasim \d+\.\d+\.\d+\n$/);
  });

  it("exits 2 with a one-line message for an unknown command", async () => {
    const r = await run(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ccasim: unknown command 'frobnicate'/);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  it("names a misspelt subcommand with the nearest, where a sweep file or nothing was asked for", async () => {
    const cases: [string[], string][] = [
      [["profile", "shwo", "x"], "ccasim profile: unknown subcommand 'shwo' (did you mean 'show'?); expected show, diff or convert\n"],
      [["profile", "frobnicate"], "ccasim profile: unknown subcommand 'frobnicate'; expected show, diff or convert\n"],
      [["sweep", "mrege", "a.db", "b.db"], "ccasim sweep: unknown subcommand 'mrege' (did you mean 'merge'?), and no sweep file of that name (see ccasim sweep --help)\n"],
      [["sweep", "fitt", "out/x.db", "--parameter", "Q"], "ccasim sweep: unknown subcommand 'fitt' (did you mean 'fit'?), and no sweep file of that name (see ccasim sweep --help)\n"],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toBe(message);
    }
  });

  it("names a bad option in the command's words, suggesting the nearest and pointing to --help", async () => {
    const cases: [string[], string][] = [
      [["run", "scenarios/known-models.yaml", "--seeds", "3"], "ccasim run: unknown option '--seeds' (did you mean '--seed'?); see 'ccasim run --help'\n"],
      [["run", "scenarios/known-models.yaml", "--frobnicate"], "ccasim run: unknown option '--frobnicate'; see 'ccasim run --help'\n"],
      [["run", "--out"], "ccasim run: option '--out <value>' argument missing; see 'ccasim run --help'\n"],
      [["profile", "show", "x", "--tpo", "3"], "ccasim profile: show: unknown option '--tpo' (did you mean '--top'?); see 'ccasim profile show --help'\n"],
      [["schema", "extra"], "ccasim schema: unexpected argument 'extra': this command takes options only; see 'ccasim schema --help'\n"],
      // A command's own checks name it once, a subcommand's after it.
      [["validate-model", "scenarios/lapw0.yaml"], "ccasim validate-model: --measured <table> is required\n"],
      [["sweep", "fit"], "ccasim sweep fit: give one study database (see 'ccasim sweep fit --help')\n"],
      [["sweep", "merge", "x.db"], "ccasim sweep: merge: give the study database and at least one shard (ccasim sweep merge study.db shard-*.db)\n"],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toBe(message);
      expect(r.out).toBe("");
    }
  });

  it("refuses an option that takes one value given twice with different values, instead of keeping the last", async () => {
    const cases: [string[], string][] = [
      [["profile", "show", "../shared/data/tau/hatchet-cpi-mpi", "--top", "3", "--top", "5"], "ccasim profile: show: option '--top' is given twice ('3' and '5'): it takes one value; see 'ccasim profile show --help'\n"],
      [["run", "scenarios/known-models.yaml", "--out", "out/a", "--out=out/b"], "ccasim run: option '--out' is given twice ('out/a' and 'out/b'): it takes one value; see 'ccasim run --help'\n"],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toBe(message);
      expect(r.out).toBe("");
    }
    // The same value twice, a flag twice and a repeatable option are fine.
    const same = await run(["profile", "show", "../shared/data/tau/hatchet-cpi-mpi", "--top", "3", "--top", "3", "--callpaths", "--callpaths", "--thread", "0", "--thread", "1"]);
    expect(same.code).toBe(0);
  });

  it("exits 1 for a simulated deadlock, naming where each rank waits, and writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-deadlock-"));
    try {
      const file = join(dir, "ring.yaml");
      // Every rank receives from its left neighbour before sending to its right one.
      writeFileSync(
        file,
        [
          "name: ring-deadlock",
          "machine: { preset: pentium3-xeon-700, nodes: 2, processesPerNode: 1, network: { preset: fast-ethernet } }",
          "program:",
          "  main:",
          "    - recv: FromLeft",
          "      from: mod(pid - 1 + np, np)",
          "      size: 1000000",
          "    - send: ToRight",
          "      to: mod(pid + 1, np)",
          "      size: 1000000",
          "",
        ].join("\n"),
      );
      const r = await run(["run", file, "--out", join(dir, "out")]);
      expect(r.code).toBe(1);
      expect(r.err).toBe(
        "ccasim run: MPI deadlock at t=0 us: 2 ranks are blocked with no event left\n" +
          `  rank 0 in MPI_Recv() at element 'FromLeft' (${file}:5:7) waits for receive from rank 1 with tag 0 on MPI_COMM_WORLD\n` +
          `  rank 1 in MPI_Recv() at element 'FromLeft' (${file}:5:7) waits for receive from rank 0 with tag 0 on MPI_COMM_WORLD\n`,
      );
      expect(existsSync(join(dir, "out"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 2 and prints help when no command is given", async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("Commands:");
  });

  it("exits 2, writing nothing, when a parameter evaluates during the run to a value it cannot take", async () => {
    const out = mkdtempSync(join(tmpdir(), "ccasim-main-"));
    try {
      const cases: [string[], string][] = [
        // Located at the parameter in the scenario (its file's key, or the nearest enclosing one), as the loader's errors are.
        // A count is whole and 0 or more: at load when workload values alone decide it, else in the run.
        [["--set", "workload.iterations=-5"], "scenarios/known-models.yaml:42:9: assembly.components.Driver.params.iterations: expected a whole number, 0 or more, got -5 (from 'iterations' with iterations = -5)\n"],
        [["--set", "assembly.components.Driver.params.calls[0].count=2-i"], "scenarios/known-models.yaml:44:13: assembly.components.Driver.params.calls[0].count: evaluated to -1; a count is a whole number, 0 or more (overridden: --set assembly.components.Driver.params.calls[0].count=2-i)\n"],
        [["--set", "assembly.components.Driver.params.calls[0].count=1.5"], "scenarios/known-models.yaml:44:13: assembly.components.Driver.params.calls[0].count: expected a whole number, 0 or more, got 1.5 (from --set assembly.components.Driver.params.calls[0].count=1.5)\n"],
        [["--set", 'assembly.components.Driver.params.cost="i - 3"'], `scenarios/known-models.yaml:41:7: assembly.components.Driver.params.cost: evaluated to -3 microseconds in iteration 0; a cost is 0 or more (overridden: --set assembly.components.Driver.params.cost="i - 3")\n`],
        [["--set", 'assembly.components.C.params.cost="x - 10"', "--set", "workload.x=4", "--set", "assembly.components.A.params.implementation=A2"], `scenarios/known-models.yaml:60:17: assembly.components.C.params.cost: evaluated to -6 microseconds; a cost is 0 or more (overridden: --set assembly.components.C.params.cost="x - 10", --set workload.x=4)\n`],
        // An expression that does not evaluate to a finite number is located at its parameter.
        [["--set", "assembly.components.C.params.cost=1/(x-3)"], 'scenarios/known-models.yaml:60:17: assembly.components.C.params.cost: expression "1/(x-3)": evaluates to Infinity (not a finite number) for x=3 (overridden: --set assembly.components.C.params.cost=1/(x-3))\n'],
        [["--set", "assembly.components.Driver.params.calls[0].args.x=x/(x-3)"], 'scenarios/known-models.yaml:44:32: assembly.components.Driver.params.calls[0].args.x: expression "x/(x-3)": evaluates to Infinity (not a finite number) for x=3 (overridden: --set assembly.components.Driver.params.calls[0].args.x=x/(x-3))\n'],
      ];
      // A kernel the node model refuses names its component's key.
      const kernel = await run(["run", "scenarios/kernel-l2.yaml", "--set", "workload.Q=-5", "--quiet", "--out", join(out, "run")]);
      expect(kernel.code).toBe(2);
      expect(kernel.err).toBe("ccasim run: scenarios/kernel-l2.yaml: 1 error\n  scenarios/kernel-l2.yaml:39:7: assembly.components.DerivX.params.elements: expected an integer >= 0, got -5 (elements: \"Q\" with Q = -5) (overridden: --set workload.Q=-5)\n");
      for (const [set, message] of cases) {
        const r = await run(["run", "scenarios/known-models.yaml", ...set, "--quiet", "--out", join(out, "run")]);
        expect(r.code, r.err).toBe(2);
        expect(r.err).toBe(`ccasim run: scenarios/known-models.yaml: 1 error\n  ${message}`);
        expect(existsSync(join(out, "run"))).toBe(false);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("loads each listed command only when asked, as the command of its name, with its own help", async () => {
    for (const entry of commands) {
      const cmd = await entry.load();
      expect(cmd.name).toBe(entry.name);
      expect(cmd.help).toContain(`ccasim ${entry.name}`);
      const viaHelp = await run(["help", entry.name]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.out).toBe(cmd.help + "\n");
      expect((await run([entry.name, "--help"])).out).toBe(cmd.help + "\n");
    }
    const list = (await run(["--help"])).out;
    for (const entry of commands) expect(list).toContain(`  ${entry.name.padEnd(14)}  ${entry.summary}\n`);
  });

  it("refuses a count that is not a positive integer before running anything", async () => {
    const out = mkdtempSync(join(tmpdir(), "ccasim-counts-"));
    try {
      for (const [argv, message] of [
        [["run", "scenarios/known-models.yaml", "--top", "0", "--out", join(out, "run")], "ccasim run: --top expects a positive integer, got '0'"],
        [["sweep", "test/scenarios/sweeps/small.sweep.yaml", "--jobs", "0", "--db", join(out, "s.db")], "ccasim sweep: --jobs expects a positive integer, got '0'"],
        [["sweep", "test/scenarios/sweeps/small.sweep.yaml", "--emit", "slurm", "--tasks", "1.5", "--db", join(out, "s.db")], "ccasim sweep: --tasks expects a positive integer, got '1.5'"],
        [["validate-model", "scenarios/lapw0.yaml", "--measured", "scenarios/lapw0-measured.csv", "--repeats", "0"], "ccasim validate-model: --repeats expects a positive integer, got '0'"],
        // An empty value is no number of seconds (Number("") is 0).
        [["sweep", "test/scenarios/sweeps/small.sweep.yaml", "--progress-every", "", "--db", join(out, "s.db")], "ccasim sweep: --progress-every expects seconds >= 0, got ''"],
        [["sweep", "test/scenarios/sweeps/small.sweep.yaml", "--progress-every", "-1", "--db", join(out, "s.db")], "ccasim sweep: --progress-every expects seconds >= 0, got '-1'"],
      ] as const) {
        const r = await run([...argv]);
        expect(r.code, argv.join(" ")).toBe(2);
        expect(r.out).toBe("");
        expect(r.err).toBe(message + "\n");
      }
      expect(existsSync(join(out, "run"))).toBe(false);
      expect(existsSync(join(out, "s.db"))).toBe(false);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("prints a subcommand's own help (sweep fit), which documents every option it reads", async () => {
    const sweep = await commands.find((c) => c.name === "sweep")!.load();
    const fitHelp = sweep.subcommandHelp!.fit!;
    expect(fitHelp).not.toBe(sweep.help);
    for (const argv of [["sweep", "fit", "--help"], ["sweep", "fit", "out/x.db", "-h"], ["help", "sweep", "fit"]]) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(0);
      expect(r.out, argv.join(" ")).toBe(fitHelp + "\n");
    }
    for (const option of ["--parameter", "--by", "--by-variable", "--component", "--port", "--method", "--value", "--json"]) expect(fitHelp).toContain(`  ${option} `);
    expect(fitHelp).not.toContain("sweep fit --help");
    // The general help still comes for the command itself and for subcommands without their own.
    expect((await run(["sweep", "--help"])).out).toBe(sweep.help + "\n");
    expect((await run(["sweep", "merge", "--help"])).out).toBe(sweep.help + "\n");
    expect(sweep.help).toContain("'ccasim sweep fit --help'");
  });
});
