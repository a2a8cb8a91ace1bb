import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { commands } from "../../cli/commands/index.js";
import { helpFor } from "../../cli/command.js";
import { runCli, type CliResult } from "./run-cli.js";
import { examplesSection, exampleCommands } from "./shell-words.js";

// The examples of the help texts and of the documents run as written, from a folder laid out as
// the repository root (scenarios/ and ../shared/), so that whatever they write under out/ stays
// in a temporary folder.
const REPO = process.cwd();
const sandbox = mkdtempSync(join(tmpdir(), "ccasim-examples-"));
const root = join(sandbox, "ccasim");

beforeAll(() => {
  mkdirSync(root);
  symlinkSync(join(REPO, "scenarios"), join(root, "scenarios"));
  symlinkSync(resolve(REPO, "../shared"), join(sandbox, "shared"));
  process.chdir(root);
});
afterAll(() => {
  process.chdir(REPO);
  rmSync(sandbox, { recursive: true, force: true });
});

async function help(...words: string[]): Promise<string> {
  const cmd = await commands.find((c) => c.name === words[0])!.load();
  return helpFor(cmd, words.slice(1));
}

/** Runs every example of a help text, in order, and returns what each printed. */
async function runExamples(text: string): Promise<{ args: string[]; r: CliResult }[]> {
  const out: { args: string[]; r: CliResult }[] = [];
  for (const args of exampleCommands(text)) {
    const r = await runCli(args);
    expect(r.code, `ccasim ${args.join(" ")}\n${r.err}`).toBe(0);
    out.push({ args, r });
  }
  return out;
}

/** The numbers of one column of a `ccasim query` text table (header, dashes, rows, "(n rows)"). */
function column(table: string, index: number): number[] {
  const lines = table.split("\n");
  const first = lines.findIndex((l) => /^-+( +-+)*$/.test(l)) + 1;
  const end = lines.findIndex((l, i) => i >= first && l.startsWith("("));
  return lines.slice(first, end).map((l) => Number(l.trim().split(/\s+/)[index]));
}

const ascending = (xs: number[]): boolean => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);

describe("the examples of ccasim select --help", () => {
  it("run as written and choose as the papers say", async () => {
    const text = await help("select");
    const [lo, cross, accurate, risky, , measured] = await runExamples(examplesSection(text));
    expect(lo!.r.out).toContain("A=A2, B=B1");
    expect(lo!.r.out).toContain("gap 0 (0 %)");
    expect(cross!.r.out).toMatch(/at x = 2\.0: A A2 -> A1, B B1 -> B2\n[^]*\n 0\.5  2\.0  Driver=Driver A=A2/);
    expect(accurate!.args).toContain("scenarios/flux.assembly.yaml");
    expect(accurate!.r.out).toContain("optimum (dynamic-programming): Flux=GodunovFlux");
    expect(accurate!.r.out).toContain("excluded EFMFlux (Flux): accuracy = 1 < 2");
    expect(risky!.args).toEqual(["select", "scenarios/flux.assembly.yaml", "--crossover", "Q=100:100000:log", "--risk", "2"]);
    // GodunovFlux's time per double grows with Q, EFMFlux's does not: Godunov for small patches,
    // EFM for large ones (paper 000's linear fits cross near Q = 6200).
    expect(risky!.r.out).toMatch(/\n  at Q = (\d+\.\d): Flux GodunovFlux -> EFMFlux\n[^]*\n\1  100000  Flux=EFMFlux\n/);
    expect(risky!.r.out).toMatch(/ 100 +[\d.]+ +Flux=GodunovFlux\n *[\d.]+ +100000 +Flux=EFMFlux/);
    // The run's EFMFlux::compute() survives pruning: Flux, of which EFMFlux is an implementation, is core.
    expect(measured!.r.out).toContain("heuristic over core {Flux} (2 assemblies)");
    expect(measured!.r.err).toMatch(/\d+ core timers of no component of the assembly \('ShockDriver::go\(\)', 'RK2::advance\(\)'/);
  });

  it("show the example assembly file as it is", async () => {
    const text = await help("select");
    const block = text.slice(text.indexOf("  components:"), text.indexOf("\n\n", text.indexOf("  components:")));
    expect(parseYaml(block)).toEqual(parseYaml(readFileSync("scenarios/flux.assembly.yaml", "utf8")));
  });

  it("have cost models that stay positive from Q = 1 to 10^7, with and without risk", async () => {
    for (const extra of [[], ["--risk", "2"], ["--risk", "5"], ["--require", "accuracy=2", "--risk", "3"]]) {
      const r = await runCli(["select", "scenarios/flux.assembly.yaml", "--crossover", "Q=1:1e7:log", ...extra]);
      expect(r.code, `${extra.join(" ")}: ${r.err}`).toBe(0);
    }
  });
});

describe("the examples of ccasim fit --help", () => {
  it("run as written: records with a parameter filter, a timer across trials by path and by ranks", async () => {
    const [run, records, powercap, gromacs, extrap] = await runExamples(examplesSection(await help("fit")));
    expect(run!.args).toEqual(["run", "scenarios/shock-neuronic.yaml"]);
    expect(records!.r.out).toContain("== wallTime of StatesConstructor vs Q (out/shock-neuronic)");
    expect(records!.r.out).toMatch(/data: \d+ distinct Q in \[3840, 61600\], 2862 observations/);
    expect(records!.r.err).toBe("");
    expect(powercap!.r.out).toContain("14 distinct Q in [50, 115]");
    // The documented case: the strided records jump past the cache (paper 000's Figure 3) and
    // change exponent, and the two-segment model, cross-validated, ranks first ahead of the power law.
    expect(records!.r.out).toMatch(/\nmean: +exp\(1\.\d+·log\(Q\) \+ [\d.]+·max\(0, log\(Q\) − log\(\d+\)\) \+ [\d.]+·\[Q > \d+\] − [\d.]+\)\n/);
    expect(records!.r.out).toMatch(/\nchange point: at Q = \d+, exponent [\d.]+ before, [\d.]+ after, jumping ×[\d.]+ past it; the two-segment model ranks 1 \(LOO SMAPE [\d.]+ % against [\d.]+ % for the best single-segment model\)\n/);
    expect(gromacs!.r.out).toContain("== int main(int, char **) C [{mdrun.c} {56,1}-{516,1}] vs ranks (8 trials)");
    expect(gromacs!.r.out).toContain("\ndata: 8 distinct ranks in [2, 256], 8 observations\n");
    expect(gromacs!.r.out).toMatch(/\nchange point: at ranks = 128, exponent/);
    // The Extra-P example's variable is p: its formulas and its prediction say so.
    expect(extrap!.r.out).toContain("\nmean:       2.82 + 0.483·p^(5/4)·log2(p)\n");
    expect(extrap!.r.out).toMatch(/\npredict p = 128: 1458 \(95 % interval of the mean [\d.]+ \.\. [\d.]+\), sd [\d.]+; 95 % range of one repetition [\d.]+ \.\. [\d.]+ — extrapolated beyond the data\n/);
  });
});

describe("the README's analysis section", () => {
  it("runs as written after the first run, its loop of runs included", async () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Analysis"), readme.indexOf("## Scenario files"));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    expect((await runCli(["run", "scenarios/known-models.yaml", "--quiet"])).code).toBe(0);
    // The shell loop, by hand: its body once per value, $x replaced.
    const loop = /^for (\w+) in ([^;]+); do (.*); done$/m.exec(block)!;
    for (const value of loop[2]!.trim().split(/\s+/)) await runExamples(loop[3]!.replaceAll(`$${loop[1]}`, value));
    const [fit, gromacs, prune, crossover, heuristic, flux, , power] = await runExamples(block);
    expect(fit!.args).toEqual(["fit", "out/run-1/records.csv", "out/run-2/records.csv", "out/run-3/records.csv", "out/run-4/records.csv", "out/run-5/records.csv", "--component", "A", "--parameter", "x"]);
    expect(fit!.r.out).toMatch(/\nmean: +2\.01·x\nexpression: 2\.01\*x\n/);
    // The data line names the parameter the fit is over.
    expect(fit!.r.out).toMatch(/\ndata: 5 distinct x in \[/);
    // The dummy components' costs are deterministic: no model of rounding noise for the sd.
    expect(fit!.r.out).toContain("\nsd:         0 (repeated x values give the same T, up to rounding)\n");
    expect(gromacs!.r.out).toMatch(/\nchange point: at ranks = 128, exponent/);
    expect(prune!.r.out).toContain("): 3\n  Driver::go(), A::run(), B::run()\n");
    expect(crossover!.r.out).toMatch(/at x = 2\.0: A A2 -> A1, B B1 -> B2/);
    expect(heuristic!.r.out).toContain("heuristic over core {Driver, A, B} (4 assemblies): cost 5.67, gap 0 (0 %)");
    expect(flux!.r.out).toContain("Flux=GodunovFlux");
    expect(power!.r.out).toContain("power (W)");
    // The Itanium 2 run is what the power model describes; its halo copies exceed the 122 W TDP.
    expect(power!.r.out).not.toContain("warning:");
    expect(power!.r.out).toContain("estimates above MaxPower (122 W, the thermal design power)");
  });
});

describe("the examples of ccasim profile --help", () => {
  it("run as written from the repository's root: shared profiles, and run folders converted to Extra-P", async () => {
    const ran = await runExamples(examplesSection(await help("profile")));
    expect(ran.map((x) => x.args.slice(0, 2).join(" "))).toEqual(["profile show", "profile show", "profile show", "profile diff", "profile convert", "profile convert", "profile convert", "run scenarios/known-models.yaml", "run scenarios/known-models.yaml", "run scenarios/known-models.yaml", "profile convert", "profile convert", "profile convert"]);
    expect(JSON.parse(ran[1]!.r.out).tables[0].rows).toHaveLength(10);
    // Two power caps of one program: 8 timers, the run a third shorter under the higher cap; then its 4 user events.
    expect(ran[3]!.r.out).toMatch(/top-level inclusive 188421\.598 -> 123450\.626 \(-34\.5%\)\n/);
    const [timers, events] = ran[3]!.r.out.split("\nUSER EVENTS\n");
    expect(timers!.trimEnd().split("\n").slice(6)).toHaveLength(8);
    expect(events!.trimEnd().split("\n").slice(2)).toHaveLength(4);
    expect(existsSync("out/mpas-text/MULTI__TIME")).toBe(true);
    expect(readFileSync("out/mpas.csv", "utf8")).toMatch(/^thread,timer,groups,calls,subroutines,/);
    // A --json input for fit: the proxied A's cost, 2x per call (A1), over the three runs.
    const fit = await runCli(["fit", "out/model.json", "--callpath", "A::run()", "--metric", "TIME"]);
    expect(fit.code, fit.err).toBe(0);
    expect(fit.out).toContain("== A::run() / TIME vs x");
    expect(readFileSync("out/model.jsonl", "utf8").split("\n")[0]).toContain('"params":{"x":1}');
    // A run for Cube's browser: the same timers, read back.
    const cube = await runCli(["profile", "show", "out/run-1.cubex", "--json"]);
    expect(cube.code, cube.err).toBe(0);
    const shown = await runCli(["profile", "show", "out/run-1", "--json"]);
    const [c, t] = [JSON.parse(cube.out), JSON.parse(shown.out)] as { timers: number; callpaths: number }[];
    expect([c.timers, c.callpaths]).toEqual([t.timers, t.callpaths]);
    expect(c.timers).toBeGreaterThan(3);
  });
});

describe("the README's shock-AMR section", () => {
  it("runs as written: the EFM run and the Godunov run in folders of their own, each with the shares the text gives", async () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## The shock-AMR case study"));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const [efm, godunov, madison] = await runExamples(block);
    expect(efm!.r.out).toContain("EFMFlux::compute()");
    expect(godunov!.args).toContain("out/shock-godunov");
    expect(madison!.args).toEqual(["run", "scenarios/shock-madison.yaml"]);
    // The Godunov run leaves the EFM run's folder as it was.
    expect(readFileSync("out/shock-neuronic/records.csv", "utf8")).toContain("EFMFlux");
    expect(readFileSync("out/shock-godunov/records.csv", "utf8")).toContain("GodunovFlux");
    // "about a fifth (20-21 %)"; with Godunov, 44.0 % the flux, 34.0 % the states, 19.9 % MPI_Waitsome.
    const share = Number(/\nMessage passing: ([\d.]+)% of the total/.exec(efm!.r.out)![1]);
    expect(share).toBeGreaterThanOrEqual(20);
    expect(share).toBeLessThanOrEqual(21);
    expect(godunov!.r.out).toMatch(/\n 44\.0 +[\d,]+ +[\d,]+ +1908 +0 +\d+ GodunovFlux::compute\(\)\n 34\.0 .* StatesConstructor::compute\(\)\n 19\.9 .* MPI_Waitsome\(\)\n/);
  });
});

describe("the examples of ccasim power --help", () => {
  it("run as written: a real Xeon profile gets a warning, the simulated Itanium 2 none", async () => {
    const [constants, xgc, , madison] = await runExamples(examplesSection(await help("power")));
    expect(constants!.r.out).toContain("MaxPower:    122 W (thermal design power)");
    expect(xgc!.r.out).toContain("warning: the trial ran on 'Intel(R) Xeon(R) CPU X5650 @ 2.67GHz' (CPU Type)");
    expect(madison!.r.out).not.toContain("warning:");
    expect(madison!.r.out).toMatch(/\nEFMFlux::compute\(\) +[0-9.]+ +11[0-9]\.[0-9]/);
  });
});

describe("the examples of the study commands", () => {
  it("run as written: a sweep, its fits (ccasim sweep fit --help), queries (--help, docs/study-schema.md)", async () => {
    const [sweep, byL2, compute] = await runExamples(examplesSection(await help("sweep", "fit")));
    expect(sweep!.r.out).toContain("shock-l2.sweep: 4 points run");
    expect(byL2!.r.out).toContain("T(Q, L2) = exp(");
    expect(compute!.r.out).toContain("computeTime of EFMFlux as a function of Q");

    const [tables, params, byL2Csv, exported, pivot] = await runExamples(examplesSection(await help("query")));
    expect(tables!.r.out).toMatch(/record_counter +\d+/);
    // Swept sizes in numeric order (as text, 1048576 would come before 262144).
    expect(column(params!.r.out, 1)).toEqual([262144, 524288, 1048576, 2097152]);
    const rows = byL2Csv!.r.out.trim().split("\n");
    expect(rows[0]).toBe("l2_bytes,component,mean_us");
    expect(ascending(rows.slice(1).map((l) => Number(l.split(",")[0])))).toBe(true);
    expect(rows).toHaveLength(1 + 4 * 3);
    expect(exported!.r.err).toContain("wrote records.parquet");
    expect(readFileSync("records.parquet").subarray(0, 4).toString()).toBe("PAR1");
    const wide = pivot!.r.out.trim().split("\n");
    expect(wide[0]).toBe("point_id,machine.l2.size");
    expect(wide).toHaveLength(1 + 4);

    const doc = readFileSync(join(REPO, "docs/study-schema.md"), "utf8");
    const sql = /```sql\n([\s\S]*?)```/.exec(doc)![1]!;
    const statements = sql.split(/;\s*\n/).map((s) => s.replace(/^--.*$/gm, "").trim()).filter((s) => s !== "");
    expect(statements).toHaveLength(3);
    const results = [];
    for (const s of statements) {
      const r = await runCli(["query", "out/shock-l2.sweep.db", s, "--csv"]);
      expect(r.code, `${s}\n${r.err}`).toBe(0);
      results.push(r.out.trim().split("\n"));
    }
    const [perQ, perTimer, failed] = results;
    expect(perQ![0]).toBe("l2_bytes,Q,us");
    const l2 = perQ!.slice(1).map((l) => Number(l.split(",")[0]));
    expect(ascending(l2)).toBe(true);
    expect(new Set(l2)).toEqual(new Set([262144, 524288, 1048576, 2097152]));
    expect(perTimer![0]).toBe("point_index,name,exclusive_us");
    expect(perTimer!.length).toBeGreaterThan(4);
    expect(failed).toEqual(["point_index,kind,message"]);
  });

  it("include the README's sweep section, run as written", async () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Sweeps, the study database and reports"), readme.indexOf("## Library use"));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    if (!existsSync("out/shock-neuronic")) expect((await runCli(["run", "scenarios/shock-neuronic.yaml", "--quiet"])).code).toBe(0);
    for (const db of ["out/shock-l2.sweep.db", "out/kernel-l2.sweep.db"]) if (existsSync(db)) rmSync(db);
    const ran = await runExamples(block);
    expect(ran.map((x) => x.args[0])).toEqual(["sweep", "sweep", "query", "sweep", "report", "sweep", "sweep", "report", "sweep"]);
    expect(ran[1]!.r.out).toContain("4 already stored");
    expect(ran[3]!.r.out).toContain("T(Q, L2) = exp(");
    expect(existsSync("out/shock-l2.sweep.html")).toBe(true);
    // The kernel sweep's 10 Q per cache size: the strided knee at each, moving with the cache.
    expect(ran[6]!.r.out).toContain("its change point Q0 fitted at each value of machine.l2.size");
    expect(ran[6]!.r.out).toMatch(/\n {2}Q0\(L2\) = exp\(1\.\d+·log\(L2\)/);
    expect(ran[8]!.r.out).toContain("#SBATCH --array=0-3");
  });
});
