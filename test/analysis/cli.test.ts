import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluate } from "mathjs";
import { runCli as run } from "../cli/run-cli.js";
import { formatRecordsJsonl, parseRecordsCsv } from "../../profile/index.js";
import { runScenario } from "../../scenarios/index.js";

describe("ccasim fit", () => {
  it("fits records and prints a formula and a mathjs expression", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-"));
    const lines = ["component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q"];
    let s = 7;
    for (let i = 0; i < 400; i++) {
      s = (s * 16807) % 2147483647;
      const q = 1000 * (1 + (i % 20));
      const t = Math.exp(1.19 * Math.log(q) - 3.68) * (1 + 0.05 * (s / 2147483647 - 0.5));
      lines.push(`SC,p,compute,0,${i},${t},0,${t},${q}`);
    }
    const file = join(dir, "records.csv");
    writeFileSync(file, lines.join("\n") + "\n");
    const r = await run(["fit", file, "--parameter", "Q", "--component", "SC", "--predict", "5000"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/mean: +exp\(1\.19·log\(Q\) − 3\.6\d\)/);
    const expr = /expression: (exp\(.*\))/.exec(r.out)![1]!;
    expect(evaluate(expr, { Q: 5000 })).toBeCloseTo(Math.exp(1.19 * Math.log(5000) - 3.68), -1);
    expect(r.out).toContain("predict Q = 5000");
    // The values asked for are echoed as typed, not rounded to the table's 4 digits nor rewritten.
    const exact = await run(["fit", file, "--parameter", "Q", "--component", "SC", "--predict", "30315", "--predict", "1234.5678", "--predict", "1e5", "--predict", "0x10"]);
    expect(exact.out).toMatch(/\npredict Q = 30315: \d/);
    expect(exact.out).toMatch(/\npredict Q = 1234\.5678: \d/);
    expect(exact.out).toMatch(/\npredict Q = 1e5: \d/);
    expect(exact.out).toMatch(/\npredict Q = 0x10: \d/);
    // JSON gives the numbers.
    const json = JSON.parse((await run(["fit", file, "--parameter", "Q", "--component", "SC", "--predict", "1e5", "--predict", "0x10", "--json"])).out)[0];
    expect(json.predictions.map((p: { q: number }) => p.q)).toEqual([100000, 16]);
    const j = await run(["fit", file, "--parameter", "Q", "--json"]);
    expect(JSON.parse(j.out)[0].mean.family).toBe("power-law");
    // --port chooses records by their provides port, as sweep fit's does; one no record has is named.
    const port = await run(["fit", file, "--parameter", "Q", "--port", "p", "--json"]);
    expect(port.code, port.err).toBe(0);
    expect(JSON.parse(port.out)[0].mean).toEqual(JSON.parse(j.out)[0].mean);
    const noPort = await run(["fit", file, "--parameter", "Q", "--port", "q"]);
    expect(noPort.code).toBe(2);
    expect(noPort.err).toMatch(/port=q/);
    expect((await run(["fit", file, "--timer", "x", "--q", "ranks", "--port", "p"])).err).toMatch(/--port does not apply to/);
    // The folder holding the records file (as a run folder does): its records, the same fit.
    const folder = await run(["fit", dir, "--parameter", "Q", "--json"]);
    expect(folder.code, folder.err).toBe(0);
    expect(JSON.parse(folder.out)[0].mean).toEqual(JSON.parse(j.out)[0].mean);
    // The same records split over a CSV and a JSON Lines file: pooled, the same fit.
    const [header, ...rows] = lines;
    const half = join(dir, "half.csv");
    writeFileSync(half, [header, ...rows.slice(0, 200)].join("\n") + "\n");
    const rest = join(dir, "rest.jsonl");
    writeFileSync(rest, formatRecordsJsonl(parseRecordsCsv([header, ...rows.slice(200)].join("\n") + "\n")));
    const pooled = await run(["fit", half, rest, "--parameter", "Q", "--json"]);
    expect(pooled.code).toBe(0);
    const [a, b] = [JSON.parse(j.out)[0], JSON.parse(pooled.out)[0]];
    expect(b.title).toBe("wallTime vs Q (2 inputs)");
    expect(b.mean).toEqual(a.mean);
    expect(b.points).toEqual(a.points);
    // A record without the parameter is reported with the input it came from.
    const noQ = join(dir, "noq.ndjson");
    writeFileSync(noQ, formatRecordsJsonl([{ component: "SC", port: "p", method: "compute", rank: 0, parameters: {}, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} }]));
    const bad = await run(["fit", half, noQ, "--parameter", "Q"]);
    expect(bad.code).toBe(2);
    // (Its position in that input, not among the records pooled so far.)
    expect(bad.err).toContain(`${noQ}: record 1 (SC.compute) has no numeric parameter 'Q'`);
    // A negative wall time is refused as the file is read, at its line.
    const neg = join(dir, "neg.csv");
    writeFileSync(neg, [header, rows[0], rows[1]!.replace(/^SC,/, "Other,"), ...rows.slice(2, 5), rows[5]!.replace(/^([^,]*,[^,]*,[^,]*,[^,]*,[^,]*),[^,]*/, "$1,-6.5")].join("\n") + "\n");
    const negative = await run(["fit", neg, "--parameter", "Q", "--component", "SC"]);
    expect(negative.code).toBe(2);
    expect(negative.err).toContain(`ccasim fit: ${neg}:7: 'wall_time [us]' must be 0 or more (a duration), found -6.5`);
  });

  it("names the change point as the two-segment model's formula writes it, not rounded to 4 digits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-change-"));
    const lines = ["component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q"];
    let i = 0;
    // A cache overflowing past Q = 12345: the time per element jumps fourfold.
    for (const q of [1000, 2000, 3000, 5000, 8000, 12345, 16000, 24000, 32000, 48000, 64000]) {
      for (let k = 0; k < 10; k++) {
        const t = (q > 12345 ? 0.4 : 0.1) * q * (1 + 0.01 * ((k % 5) - 2));
        lines.push(`SC,p,compute,0,${i++},${t},0,${t},${q}`);
      }
    }
    const file = join(dir, "records.csv");
    writeFileSync(file, lines.join("\n") + "\n");
    const r = await run(["fit", file, "--parameter", "Q", "--family", "segmented"]);
    rmSync(dir, { recursive: true, force: true });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/\nmean: .*\[Q > 12345\]/);
    expect(r.out).toMatch(/\nchange point: at Q = 12345, /);
  });

  it("fits a timer across trials with Q from the path", async () => {
    const r = await run(["fit", "../shared/data/tau/powercap/cap50_wrapped_lu8", "../shared/data/tau/powercap/cap75_wrapped_lu8", "../shared/data/tau/powercap/cap100_wrapped_lu8", "../shared/data/tau/powercap/cap115_wrapped_lu8", "--timer", ".TAU application", "--q", "path:cap(\\d+)", "--family", "power-law"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("4 distinct Q in [50, 115]");
  });

  it("fits TAU_PARAM timers found by a part of the routine name", async () => {
    const r = await run(["fit", "../shared/data/tau/edge-cases/examples/wrap", "--param-timer", "__wrap_dgemm", "--parameter", "size", "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out)[0];
    expect(j.points.map((p: { q: number }) => p.q)).toEqual([100, 10000, 100000]);
  });

  it("names Q of TAU_PARAM fits after the parameter in formulas and expressions", async () => {
    const r = await run(["fit", "../shared/data/tau/edge-cases/examples/wrap", "--param-timer", "__wrap_dgemm", "--parameter", "size", "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out)[0];
    for (const m of [j.mean, j.stdDev, ...j.candidates]) {
      expect(m.expression).not.toMatch(/\bQ\b/);
      expect(m.formula).not.toMatch(/\bQ\b/);
    }
    expect(j.variable).toBe("size");
    // Three sizes support only constants; the text names the size where a formula would.
    const text = (await run(["fit", "../shared/data/tau/edge-cases/examples/wrap", "--param-timer", "__wrap_dgemm", "--parameter", "size", "--predict", "100000"])).out;
    expect(text).toContain("\ndata: 3 distinct size in [100, 100000], 6 observations\n");
    expect(text).toContain("polynomial c0 + c1·size + c2·size^2 (needs 4)");
    expect(text).toMatch(/\npredict size = 100000: /);
  });

  it("finds a user event by a unique part of its name, and suggests names for one it cannot find", async () => {
    const dir = "../shared/data/tau/ppk/gromacs-scaling/";
    const full = await run(["fit", `${dir}2.ppk`, `${dir}4.ppk`, `${dir}8.ppk`, "--user-event", "Message size for all-reduce", "--q", "ranks", "--json"]);
    const part = await run(["fit", `${dir}2.ppk`, `${dir}4.ppk`, `${dir}8.ppk`, "--user-event", "all-reduce", "--q", "ranks", "--json"]);
    expect(part.code).toBe(0);
    expect(JSON.parse(part.out)[0].points).toEqual(JSON.parse(full.out)[0].points);
    const typo = await run(["fit", `${dir}2.ppk`, `${dir}4.ppk`, "--user-event", "Message size for all-reduse", "--q", "ranks"]);
    expect(typo.code).toBe(2);
    expect(typo.out).toBe("");
    expect(typo.err).toContain(`${dir}2.ppk: no user event 'Message size for all-reduse' (did you mean 'Message size for all-reduce'?); its user events: 'Message size for `);
    const several = await run(["fit", `${dir}2.ppk`, `${dir}4.ppk`, "--user-event", "Message size", "--q", "ranks"]);
    expect(several.code).toBe(2);
    expect(several.err).toContain("user event name 'Message size' is ambiguous: 'Message size for");
    const timer = await run(["fit", `${dir}2.ppk`, `${dir}4.ppk`, "--timer", "int mian", "--q", "ranks"]);
    expect(timer.err).toContain("no timer 'int mian'");
  });

  it("names the callpath or metric an Extra-P input lacks, with a likely correction", async () => {
    const file = "../shared/data/extrap/tests_data_text_one_parameter_2.txt";
    const path = await run(["fit", file, "--callpath", "main-merge"]);
    expect(path.code).toBe(2);
    expect(path.out).toBe("");
    expect(path.err).toBe(`ccasim fit: ${file}: no callpath 'main-merge' (did you mean 'main->merge'?); callpaths: 'main', 'main->merge', 'main->merge->comp1', 'main->merge->comp2', 'main->sort', 'main->sort->comp1', 'main->sort->comp2', 'side', 'side->test1', 'side->test2' and 5 more\n`);
    // An empty name is a part of every name: refused, not taken for the input's only callpath.
    const empty = await run(["fit", "../shared/data/extrap/docs_examples_input.txt", "--callpath", ""]);
    expect([empty.code, empty.out]).toEqual([2, ""]);
    expect(empty.err).toBe("ccasim fit: ../shared/data/extrap/docs_examples_input.txt: the callpath name is empty: give a name or a part of one\n");
    const metric = await run(["fit", file, "--metric", "tme"]);
    expect(metric.code).toBe(2);
    expect(metric.err).toBe(`ccasim fit: ${file}: no metric 'tme' (did you mean 'time'?); metrics: 'time'\n`);
  });

  it("warns when the mean over threads is of a timer only some threads run, which then falls as ranks are added (GROMACS read_tpx_state)", async () => {
    const dir = "../shared/data/tau/ppk/gromacs-scaling/";
    const ppk = [8, 2, 4].map((n) => `${dir}${n}.ppk`);
    const r = await run(["fit", ...ppk, "--timer", "read_tpx_state", "--q", "ranks"]);
    expect(r.code).toBe(0);
    const name = "void read_tpx_state(char *, int *, real *, t_inputrec *, t_state *, rvec *, gmx_mtop_t *) C [{tpxio.c} {1943,1}-{1951,1}]";
    expect(r.out).toContain(`== ${name} vs ranks (3 trials)\n`);
    expect(r.err).toBe(
      `warning: ${name} vs ranks (3 trials): the timer runs on only some threads, and T is its mean over all of them; it runs on 1 of 2 at ranks = 2, 1 of 4 at ranks = 4, 1 of 8 at ranks = 8: ` +
        "that mean scales with the share of threads that run it as well as with the work; --view max, or a thread that runs it (--view 0,0,0 in every trial here), fits its time where it runs\n",
    );
    const j = JSON.parse((await run(["fit", ...ppk, "--timer", "read_tpx_state", "--q", "ranks", "--json"])).out)[0];
    expect(j.quantity.of).toBe(name);
    expect(j.warnings).toEqual([{ kind: "partial-threads", trials: [8, 2, 4].map((n) => ({ source: `${dir}${n}.ppk`, q: n, present: 1, threads: n, runsOn: "0,0,0" })) }]);
    // Where it runs, its time does not fall as 1/ranks: the warning's advice gives that fit, and no warning.
    const max = await run(["fit", ...ppk, "--timer", "read_tpx_state", "--q", "ranks", "--view", "max", "--json"]);
    const means = JSON.parse(max.out)[0].points.map((p: { mean: number }) => p.mean);
    expect(Math.max(...means) / Math.min(...means)).toBeLessThan(1.2);
    expect(JSON.parse(max.out)[0].warnings).toEqual([]);
  });

  it("says what an input is when the options ask for records it does not have: a TAU profile, Extra-P JSON Lines, a profile given to select", async () => {
    const profile = await run(["fit", "../shared/data/tau/hatchet-cpi-mpi", "--parameter", "x"]);
    expect(profile.code).toBe(2);
    expect(profile.err).toBe(
      "ccasim fit: ../shared/data/tau/hatchet-cpi-mpi: a TAU profile without per-invocation records, which --parameter fits (a ccasim run folder, records.csv or .jsonl): fit its TAU_PARAM timers with --param-timer and --parameter, or a timer across trials with --timer and --q\n",
    );
    const jsonl = await run(["fit", "../shared/data/extrap/tests_data_jsonlines_extended2.jsonl", "--parameter", "x"]);
    expect(jsonl.code).toBe(2);
    expect(jsonl.err).toContain("tests_data_jsonlines_extended2.jsonl:1: this is an Extra-P JSON Lines input (params, metric, callpath, value), not ccasim per-invocation records: read it as Extra-P (ccasim fit without --parameter)");
    const select = await run(["select", "../shared/data/tau/ppk/mpas.ppk", "--input", "Q=1"]);
    expect(select.code).toBe(2);
    expect(select.err).toBe("ccasim select: ../shared/data/tau/ppk/mpas.ppk: this is a ParaProf packed profile (.ppk), not an assembly file: ccasim select reads an assembly in YAML or JSON (ccasim select --help); a profile is for ccasim profile, fit, prune or power\n");
  });

  it("refuses an input given twice, whose observations would count twice", async () => {
    const dir = "../shared/data/tau/ppk/gromacs-scaling/";
    const r = await run(["fit", `${dir}2.ppk`, `${dir}4.ppk`, `${dir}/2.ppk`, "--timer", "int main", "--q", "ranks"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(`ccasim fit: the input '${dir}/2.ppk' is given twice (as '${dir}2.ppk' too): its observations would count twice\n`);
  });

  it("refuses a folder given with the records file or profile folder it is read from", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-twice-"));
    try {
      const lines = ["component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q"];
      for (let i = 0; i < 40; i++) lines.push(`SC,p,compute,0,${i},${10 + i},0,${10 + i},${1000 * (1 + (i % 5))}`);
      writeFileSync(join(dir, "records.csv"), lines.join("\n") + "\n");
      const records = await run(["fit", dir, join(dir, "records.csv"), "--parameter", "Q"]);
      expect(records.code).toBe(2);
      expect(records.err).toBe(`ccasim fit: the input '${join(dir, "records.csv")}' is given twice (as '${dir}' too): its observations would count twice\n`);
      // A run writes its records in both formats: the other file is the same records.
      writeFileSync(join(dir, "records.jsonl"), "");
      for (const pair of [[dir, join(dir, "records.jsonl")], [join(dir, "records.csv"), join(dir, "records.jsonl")]]) {
        const both = await run(["fit", ...pair, "--parameter", "Q"]);
        expect([both.code, both.err]).toEqual([2, `ccasim fit: the input '${pair[1]}' is given twice (as '${pair[0]}' too): its observations would count twice\n`]);
      }
      // A run's folder is read at its profile/.
      mkdirSync(join(dir, "profile"));
      for (const n of [0, 1, 2, 3]) writeFileSync(join(dir, "profile", `profile.${n}.0.0`), readFileSync(`../shared/data/tau/hatchet-cpi-mpi/profile.${n}.0.0`));
      const trials = await run(["fit", dir, join(dir, "profile"), "../shared/data/tau/hatchet-cpi-mpi", "--timer", "MPI_Init", "--q", "threads"]);
      expect(trials.code).toBe(2);
      expect(trials.err).toBe(`ccasim fit: the input '${join(dir, "profile")}' is given twice (as '${dir}' too): its observations would count twice\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a prediction where the model has no value: Q of 0 or below in a model of log Q", async () => {
    const args = ["fit", "../shared/data/extrap/docs_examples_input.txt"];
    for (const q of ["0", "-5"]) {
      const r = await run([...args, "--predict", q]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toBe(`ccasim fit: --predict ${q}: the model of example / time vs p (../shared/data/extrap/docs_examples_input.txt), 2.82 + 0.483·p^(5/4)·log2(p), has no value at p = ${q} (it takes log(p), defined for p > 0)\n`);
    }
    expect((await run([...args, "--predict", "1e-3"])).code).toBe(0);
  });

  it("fits a user event's mean across trials", async () => {
    const dir = "../shared/data/tau/ppk/gromacs-scaling/";
    const r = await run(["fit", `${dir}2.ppk`, `${dir}4.ppk`, `${dir}8.ppk`, "--user-event", "Message size for all-reduce", "--q", "ranks", "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out)[0];
    expect(j.title).toBe("Message size for all-reduce vs ranks (3 trials)");
    expect(j.points.map((p: { q: number }) => p.q)).toEqual([2, 4, 8]);
    expect(j.points.every((p: { mean: number }) => p.mean > 900 && p.mean < 1000)).toBe(true);
  });

  it("says why three sizes give one candidate, and clips a time's interval at 0 with the model's own bound (dgemm of examples/wrap)", async () => {
    const args = ["fit", "../shared/data/tau/edge-cases/examples/wrap", "--param-timer", "__wrap_dgemm", "--parameter", "size", "--predict", "100000"];
    const r = await run(args);
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    const at = (prefix: string): string => lines.find((l) => l.startsWith(prefix))!;
    expect(at("candidates: ")).toBe(
      "candidates: 1 of 45 fitted hypotheses; 44 rejected as not significantly different from 0 (95 %; with 3 distinct size a 2-parameter model keeps 1 degree of freedom, so its term must exceed 12.71 standard errors)",
    );
    expect(lines[lines.indexOf(at("candidates: ")) + 1]).toBe(
      "            not fitted for lack of points (a model of p coefficients needs p + 1 distinct size): polynomial c0 + c1·size + c2·size^2 (needs 4), polynomial c0 + c1·size + c2·size^2 + c3·size^3 (needs 5)",
    );
    // The sd: the constant, as the mean could be no more; never the negative 10.2 − 0.58·size^(1/4).
    expect(at("sd: ")).toBe("sd:         4.24");
    expect(at("sd candidates: ")).toBe("sd candidates: 1 of 1 fitted hypotheses; 45 not fitted: more parameters than any candidate of the mean (1)");
    expect(at("predict ")).toBe(
      "predict size = 100000: 20.33 (95 % interval of the mean 0 .. 79.61; low end clipped at 0 from -38.94, as T cannot be negative), sd 4.243; 95 % range of one thread's value 0 .. 81.12, low end clipped at 0 from -40.46",
    );
    const j = JSON.parse((await run([...args, "--json"])).out)[0];
    expect(j.nonNegative).toBe(true);
    expect(j.screening.tooFewPoints.map((h: { needs: number }) => h.needs)).toEqual([4, 5]);
    expect(j.predictions[0].interval.low).toBe(0);
    expect(j.predictions[0].clipped.low).toBeCloseTo(-38.94, 2);
    expect(j.predictions[0].stdDev).toBeGreaterThan(0);
  });

  it("names the variable in titles, formulas and predictions alike, and the view, metric and exclusive values when not the default", async () => {
    const dir = "../shared/data/tau/ppk/gromacs-scaling/";
    const ppk = [2, 4, 8, 16, 32, 64, 128, 256].map((n) => `${dir}${n}.ppk`);
    const byRanks = await run(["fit", ...ppk, "--timer", "int main", "--q", "ranks", "--predict", "512"]);
    expect(byRanks.out).toContain("== int main(int, char **) C [{mdrun.c} {56,1}-{516,1}] vs ranks (8 trials)\n");
    // Every thread runs main: no warning.
    expect(byRanks.err).toBe("");
    expect(byRanks.out).toMatch(/\nmean: +exp\(−0\.677·log\(ranks\) \+ 0\.724·max\(0, log\(ranks\) − log\(128\)\) \+ 20\.7\)\n/);
    expect(byRanks.out).toMatch(/\npredict ranks = 512: [\d.e]+ \(95 % interval/);
    const max = await run(["fit", ...ppk, "--timer", "int main", "--q", "ranks", "--view", "max", "--exclusive"]);
    expect(max.out).toContain("== int main(int, char **) C [{mdrun.c} {56,1}-{516,1}] (exclusive, max over threads) vs ranks (8 trials)\n");
    const named = await run(["fit", ...ppk, "--timer", "int main", "--q", "ranks", "--variable", "n"]);
    expect(named.out).toContain("== int main(int, char **) C [{mdrun.c} {56,1}-{516,1}] vs n (ranks) (8 trials)\n");
    expect(named.out).toContain("\ndata: 8 distinct n in [2, 256]");
    const wrap = ["fit", "../shared/data/tau/edge-cases/examples/wrap", "--param-timer", "__wrap_dgemm", "--parameter", "size"];
    expect((await run([...wrap, "--view", "max"])).out).toContain("== TIME per call of int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] (max over threads) vs size (");
    expect((await run([...wrap, "--view", "1"])).out).toContain("== TIME per call of int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] (thread 1,0,0) vs size (");
    expect((await run(wrap)).out).toContain("== TIME per call of int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] vs size (");
    const extrap = await run(["fit", "../shared/data/extrap/docs_examples_input.txt", "--predict", "128"]);
    expect(extrap.out).toMatch(/\npredict p = 128: 1458 \(/);
  });

  it("prints adjusted R² with enough decimals that an adjusted-R² ranking can be checked", async () => {
    const args = ["fit", "../shared/data/extrap/docs_examples_input.txt", "--criterion", "adjusted-r2", "--top", "8"];
    const r = await run(args);
    const lines = r.out.split("\n");
    const rows = lines.slice(lines.findIndex((l) => l.startsWith("----")) + 1).filter((l) => /^\d/.test(l));
    const adj = rows.map((l) => l.trim().split(/\s+/).at(-1)!);
    expect(adj).toHaveLength(8);
    // All above 0.99, none printed as 1, each below the one before.
    for (const [i, a] of adj.entries()) {
      expect(Number(a)).toBeGreaterThan(0.99);
      expect(Number(a)).toBeLessThan(1);
      if (i > 0) expect(Number(a)).toBeLessThan(Number(adj[i - 1]));
    }
    const j = JSON.parse((await run([...args, "--json"])).out)[0];
    expect(adj.map(Number)).toEqual(j.candidates.map((c: { adjustedR2: number }) => Number(c.adjustedR2.toFixed(adj[0]!.length - 2))));
    expect(r.out).toMatch(/adj\. R² \(in-sample\) 0\.99997\d\d, RSS \(in-sample\)/);
  });

  it("fits Extra-P inputs", async () => {
    const r = await run(["fit", "../shared/data/extrap/docs_examples_input.txt"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("== example / time vs p");
  });

  it("takes the record files' column names as --value and lists the valid names for an unknown one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-value-"));
    const header = "component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q,counter:PAPI_FP_OPS [count]";
    const rows = [1, 2, 4, 8, 16].map((q, i) => `K,k,run,0,${i},${3 * q},${q},${2 * q},${q},${100 * q}`);
    const file = join(dir, "records.csv");
    writeFileSync(file, [header, ...rows].join("\n") + "\n");
    const fitOf = async (value: string) => JSON.parse((await run(["fit", file, "--parameter", "Q", "--value", value, "--json"])).out)[0];
    expect((await fitOf("wall_time")).mean.expression).toBe((await fitOf("wallTime")).mean.expression);
    expect((await fitOf("wall_time [us]")).points.map((p: { mean: number }) => p.mean)).toEqual([3, 6, 12, 24, 48]);
    expect((await fitOf("mpi_time")).points.map((p: { mean: number }) => p.mean)).toEqual([1, 2, 4, 8, 16]);
    expect((await fitOf("counter:PAPI_FP_OPS [count]")).title).toBe(`PAPI_FP_OPS vs Q (${file})`);
    const bad = await run(["fit", file, "--parameter", "Q", "--value", "wall-time"]);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe("");
    expect(bad.err).toBe(
      `ccasim fit: ${file}: record 1 (K.run) has no value 'wall-time' (did you mean 'wallTime'?); values: wallTime (wall_time [us]), computeTime (compute_time [us]), ` +
        "mpiTime (mpi_time [us]), counters PAPI_FP_OPS (counter:PAPI_FP_OPS [count])\n",
    );
  });

  it("warns when the runs it pools set a fitted component up differently (records do not say which implementation ran)", async () => {
    const root = mkdtempSync(join(tmpdir(), "ccasim-fit-settings-"));
    const header = "component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:n";
    const runFolder = (name: string, implementation: string | undefined, cost: (n: number) => number) => {
      const dir = join(root, name);
      mkdirSync(dir);
      writeFileSync(join(dir, "records.csv"), [header, ...[1, 2, 4].map((n, i) => `Solver,s,run,0,${i},${cost(n)},0,${cost(n)},${n}`)].join("\n") + "\n");
      const params = { cost: "3*n", ...(implementation === undefined ? {} : { implementation }) };
      writeFileSync(join(dir, "summary.json"), JSON.stringify({ ccasim: "run summary", resolved: { assembly: { components: { Solver: { type: "dummy", params }, Other: { type: "dummy", params: { cost: name } } } } } }));
      return dir;
    };
    const cg = runFolder("cg", "CG", (n) => 3 * n);
    const gmres = runFolder("gmres", "GMRES", (n) => n * n);
    const fit = (inputs: string[]) => run(["fit", ...inputs, "--parameter", "n", "--component", "Solver", "--json"]);
    const mixed = await fit([cg, join(gmres, "records.csv")]);
    expect(mixed.code).toBe(0);
    expect(mixed.err).toBe(`warning: the runs pooled into one fit set Solver's implementation differently ("CG" in ${cg}, "GMRES" in ${join(gmres, "records.csv")}): one fit blends them; fit the runs of each setting apart (or keep one with --where, where the records carry the setting)\n`);
    // A run that leaves the key out, and components not fitted (Other differs in every run), are compared as such.
    const plain = runFolder("plain", undefined, (n) => 3 * n);
    expect((await fit([cg, plain])).err).toContain(`set Solver's implementation differently ("CG" in ${cg}, (unset) in ${plain})`);
    // The same setting in every run, or a records file without a run's summary: no warning.
    const again = runFolder("cg2", "CG", (n) => 3 * n);
    expect((await fit([cg, again])).err).toBe("");
    const bare = join(root, "bare.csv");
    writeFileSync(bare, readFileSync(join(gmres, "records.csv")));
    expect((await fit([cg, bare])).err).toBe("");
  });

  it("tells implementations apart by the implementation a proxy records (known-models), without the settings warning", async () => {
    const root = mkdtempSync(join(tmpdir(), "ccasim-fit-impl-"));
    const inputs: string[] = [];
    for (const impl of ["A1", "A2"])
      for (const x of [1, 2, 3]) inputs.push(runScenario("scenarios/known-models.yaml", { out: join(root, `${impl}-${x}`), set: [`workload.x=${x}`, `assembly.components.A.params.implementation=${impl}`, "workload.iterations=5", "outputs.records=[csv]"] }).outDir);
    const pooled = await run(["fit", ...inputs, "--parameter", "x", "--component", "A", "--json"]);
    expect(pooled.code).toBe(0);
    expect(pooled.err).toBe("warning: one fit pools records that differ in implementation at the same x (a sequential and a strided mode, say); fit one at a time with --where implementation=<value>\n");
    const a2 = await run(["fit", ...inputs, "--parameter", "x", "--component", "A", "--where", "implementation=A2", "--json"]);
    expect(a2.err).toBe("");
    // A2's cost is x^2 microseconds per call.
    expect(JSON.parse(a2.out)[0].points.map((p: { mean: number }) => Math.round(p.mean))).toEqual([1, 4, 9]);
    // Implementations at different x share no x: the column alone does not tell, the runs' settings do.
    const apart = [...inputs.slice(0, 2), inputs[5]!];
    const blended = await run(["fit", ...apart, "--parameter", "x", "--component", "A", "--json"]);
    expect(blended.err).toBe(`warning: the runs pooled into one fit set A's implementation differently ("A1" in ${apart[0]}, "A2" in ${apart[2]}): one fit blends them; fit the runs of each setting apart (or keep one with --where, where the records carry the setting)\n`);
    // A type's default written out in one run and left out in the other is the same setting.
    const written = runScenario("scenarios/known-models.yaml", { out: join(root, "written"), set: ["workload.x=4", "assembly.components.A.params.order=cost-first", "workload.iterations=5", "outputs.records=[csv]"] }).outDir;
    const same = await run(["fit", inputs[0]!, inputs[1]!, written, "--parameter", "x", "--component", "A", "--json"]);
    expect(same.err).toBe("");
    const other = runScenario("scenarios/known-models.yaml", { out: join(root, "calls-first"), set: ["workload.x=4", "assembly.components.A.params.order=calls-first", "workload.iterations=5", "outputs.records=[csv]"] }).outDir;
    expect((await run(["fit", inputs[0]!, other, "--parameter", "x", "--component", "A", "--json"])).err).toContain(`set A's order differently ("cost-first" in ${inputs[0]}, "calls-first" in ${other})`);
  });

  it("names each coefficient by its term, and says which is rounding noise left out of the formula", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-terms-"));
    const file = join(dir, "records.csv");
    // T = 2.01 x exactly (0.01 x does not round to a whole number of ulps: the intercept is noise).
    const rows = [1, 2, 3, 4, 5].flatMap((x) => [0, 1].map((k) => `A,a,run,0,${x * 10 + k},${2.01 * x},0,${2.01 * x},${x}`));
    writeFileSync(file, ["component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:x", ...rows].join("\n") + "\n");
    const r = await run(["fit", file, "--parameter", "x", "--family", "polynomial:degree=1"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("mean:       2.01·x\n");
    expect(r.out).toMatch(/coefficients ± standard error: 1: \S+ ± \S+ \(rounding noise, not in the formula\), x: 2\.01 ± /);
    const json = JSON.parse((await run(["fit", file, "--parameter", "x", "--family", "polynomial:degree=1", "--json"])).out);
    expect(json[0].mean.coefficients.map((c: { term: string }) => c.term)).toEqual(["1", "x"]);
  });

  it("warns when it pools the records of several component methods, and filters records by parameter with --where", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-where-"));
    const header = "component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q,param:mode";
    const rows = [1, 2, 4, 8].flatMap((q, i) => [`SC,s,compute,0,${i},${q},0,${q},${q},sequential`, `SC,s,compute,0,${i},${4 * q},0,${4 * q},${q},strided`, `Flux,f,compute,0,${i},${2 * q},0,${2 * q},${q},`]);
    const file = join(dir, "records.csv");
    writeFileSync(file, [header, ...rows].join("\n") + "\n");
    const pooled = await run(["fit", file, "--parameter", "Q"]);
    expect(pooled.code).toBe(0);
    const modes = "warning: one fit pools records that differ in mode at the same Q (a sequential and a strided mode, say); fit one at a time with --where mode=<value>\n";
    expect(pooled.err).toBe("warning: pooling the records of 2 component methods (SC.compute, Flux.compute) into one fit; choose one with --component and --method\n" + modes);
    // One component method still pools its two modes at each Q: the same warning as 'ccasim sweep fit'.
    const one = await run(["fit", file, "--parameter", "Q", "--component", "SC", "--json"]);
    expect(one.err).toBe(modes);
    expect(JSON.parse(one.out)[0].points.map((p: { count: number }) => p.count)).toEqual([2, 2, 2, 2]);
    const strided = await run(["fit", file, "--parameter", "Q", "--where", "mode=strided", "--json"]);
    expect(strided.err).toBe("");
    expect(JSON.parse(strided.out)[0].points.map((p: { mean: number }) => p.mean)).toEqual([4, 8, 16, 32]);
    const numeric = await run(["fit", file, "--parameter", "Q", "--component", "SC", "--where", "Q=4.0", "--where", "mode=sequential", "--json"]);
    expect(numeric.code).toBe(2);
    expect(numeric.err).toContain("need at least 3 distinct values of Q");
    const typo = await run(["fit", file, "--parameter", "Q", "--component", "SC", "--where", "mdoe=strided"]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("no record matches component=SC port=* method=* where mdoe=strided (of 12 records); the records have no parameter 'mdoe' (did you mean 'mode'?)");
    for (const [args, message] of [
      [["--where", "mode"], "--where expects name=value, got 'mode'"],
      [["--where", "mode="], "--where expects name=value, got 'mode='"],
      // The last was used; a record has one mode.
      [["--where", "mode=strided", "--where", "mode=sequential"], "--where gives 'mode' twice (mode=strided, mode=sequential): give each name once"],
      [["--timer", "main", "--q", "ranks", "--where", "mode=x"], "does not apply to a timer or user event across trials (--timer, --user-event)"],
    ] as const) {
      const r = await run(["fit", file, "--parameter", "Q", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toContain(message);
    }
    expect((await run(["fit", "--help"])).out).toContain("--where name=value");
  });

  it("exits 2 with a clear message for bad usage", async () => {
    expect((await run(["fit"])).code).toBe(2);
    const few = await run(["fit", "../shared/data/tau/edge-cases/examples/wrap", "--param-timer", "__wrap_dgemm", "--parameter", "size", "--family", "polynomial:degree=2"]);
    expect(few.code).toBe(2);
    expect(few.err).toBe("ccasim fit: no model of the families polynomial can be fitted to 3 distinct values of size: their hypotheses need at least 4\n");
    const r = await run(["fit", "../shared/data/extrap/docs_examples_input.txt", "--family", "polynomal"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("did you mean 'polynomial'");
    expect((await run(["fit", "x", "--timer", "t"])).err).toContain("--timer needs --q");
  });

  it("names a misspelt --family, or option of one, before reading the inputs, which could not be fitted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-family-"));
    const file = join(dir, "records.csv");
    // One distinct x: no model could be fitted, which must not hide the misspelt family.
    writeFileSync(file, "component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:x\nA,work,run,0,0,2,0,2,1\n");
    const cases: [string, string][] = [
      ["poly", "ccasim fit: unknown fit model family 'poly' (did you mean 'polynomial'?); known: constant, pmnf, polynomial, power-law, segmented\n"],
      ["polynomial:degre=2", "ccasim fit: unknown option 'degre' of fit model family 'polynomial'; known: degree, maxDegree\n"],
      ["segmented:inner", "ccasim fit: malformed option 'inner' in fit family 'segmented:inner' (expected key=value)\n"],
    ];
    for (const [family, message] of cases) {
      const r = await run(["fit", file, "--parameter", "x", "--family", family]);
      expect(r.err).toBe(message);
      expect(r.code).toBe(2);
      const sweep = await run(["sweep", "fit", join(dir, "none.db"), "--parameter", "x", "--family", family]);
      expect(sweep.err).toBe(message.replace("ccasim fit:", "ccasim sweep fit:"));
      expect(sweep.code).toBe(2);
    }
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("ccasim prune", () => {
  it("names Driver, A and B the core components of known-models, as paper 002 and the README do, not TAU's root timer", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-prune-known-"));
    try {
      const out = join(dir, "known-models");
      expect((await run(["run", "scenarios/known-models.yaml", "--out", out, "--quiet"])).code).toBe(0);
      const r = await run(["prune", out]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^core components \(significant in any of 1 call tree, metric TIME \(usec\), alpha 0\.1, beta 0\.1\): 3\n {2}Driver::go\(\), A::run\(\), B::run\(\)\npruned everywhere: 2 components \(the roots of 2 pruned subtrees and everything below them\)\n/);
      // The kept tree still starts at the root timer.
      expect(r.out).toMatch(/\n\.TAU application +\d/);
      expect(JSON.parse((await run(["prune", out, "--json"])).out).coreComponents).toEqual(["Driver::go()", "A::run()", "B::run()"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prints the core components of the Hatchet profile", async () => {
    const r = await run(["prune", "../shared/data/tau/hatchet-cpi-mpi"]);
    expect(r.code).toBe(0);
    // TAU's root timer is the whole program, not a component (paper 002's core is Driver, A and B).
    expect(r.out).toContain("): 3\n  MPI_Init(), MPI_Finalize(), MPI_File_open()\n");
    const j = JSON.parse((await run(["prune", "../shared/data/tau/hatchet-cpi-mpi", "--per-rank", "--json"])).out);
    expect(j.coreComponents).toContain("MPI_Info_create()");
    expect(j.trees.length).toBe(4);
  });

  it("folds a TAU group into the callers with --fold-group, and refuses a group no timer is in", async () => {
    const hatchet = "../shared/data/tau/hatchet-cpi-mpi";
    const r = await run(["prune", hatchet, "--fold-group", "MPI"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("alpha 0.1, beta 0.1; group MPI folded into callers): ");
    expect(r.out).not.toContain("MPI_Init()");
    const j = JSON.parse((await run(["prune", hatchet, "--fold-group", "MPI", "--json"])).out);
    expect(j.foldGroups).toEqual(["MPI"]);
    expect([...j.coreComponents, ...j.prunedComponents].filter((n: string) => n.startsWith("MPI_"))).toEqual([]);
    const bad = await run(["prune", hatchet, "--fold-group", "MPl"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("no timer is in group 'MPl'; the groups of its timers: MPI, TAU_CALLPATH, TAU_DEFAULT");
    expect((await run(["prune", hatchet, "--fold-group", ","])).code).toBe(2);
  });

  it("folds the same groups in select --prune-trial, and refuses --fold-group without it", async () => {
    const out = runScenario("scenarios/known-models.yaml", { out: join(mkdtempSync(join(tmpdir(), "ccasim-select-fold-")), "km"), set: ["workload.iterations=5"] }).outDir;
    const r = await run(["select", "--known-models", "--input", "x=1.5", "--prune-trial", out, "--fold-group", "CCA_COMPONENT"]);
    // Every component timer folded into the driver's caller: no core timer names a component.
    expect(r.code).toBe(2);
    expect(r.err).toContain("no core timer names a component of the assembly");
    expect((await run(["select", "--known-models", "--input", "x=1.5", "--prune-trial", out, "--fold-group", "MPI"])).err).toContain("no timer is in group 'MPI'");
    const bad = await run(["select", "--known-models", "--input", "x=1.5", "--fold-group", "MPI"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--fold-group sets the pruning of --prune-trial; it needs --prune-trial");
  });

  it("states the risk-weighted cost with the sign of k", async () => {
    expect((await run(["select", "--known-models", "--input", "x=3", "--risk", "-0.5"])).out).toContain("inputs: x=3; cost = mean - 0.5·sd\n");
    expect((await run(["select", "--known-models", "--input", "x=3", "--risk", "2"])).out).toContain("inputs: x=3; cost = mean + 2·sd\n");
    expect((await run(["select", "--known-models", "--input", "x=3"])).out).toContain("inputs: x=3\n");
  });

  it("rejects a count that is not a positive integer, as fit, power and profile show do, printing nothing", async () => {
    const trial = "../shared/data/tau/hatchet-cpi-mpi";
    for (const [args, option] of [
      [["prune", trial, "--rows", "0"], "rows"],
      [["prune", trial, "--rows", "2.5"], "rows"],
      [["fit", "../shared/data/extrap/docs_examples_input.txt", "--top", "0"], "top"],
      [["fit", "../shared/data/extrap/docs_examples_input.txt", "--top", "x"], "top"],
      [["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--top", "0"], "top"],
      [["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--top=-3"], "top"],
      [["profile", "show", trial, "--top", "0"], "top"],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.out).toBe("");
      const value = args[args.length - 1]!.replace(/^--top=/, "");
      const prefix = args[0] === "profile" ? "ccasim profile: show: " : `ccasim ${args[0]}: `;
      expect(r.err).toBe(`${prefix}--${option} expects a positive integer, got '${value}'\n`);
    }
    const one = await run(["prune", trial, "--rows", "1"]);
    expect(one.code).toBe(0);
    expect(one.out).toContain("  MPI_Init(), ... (2 more)");
  });

  it("prunes every rank but the idle ones with --per-rank, naming the threads left out", async () => {
    // Rank 0 of the Hatchet profile, and a rank whose file holds no timer (as TAU writes for idle threads).
    const dir = mkdtempSync(join(tmpdir(), "ccasim-prune-idle-"));
    try {
      writeFileSync(join(dir, "profile.0.0.0"), readFileSync("../shared/data/tau/hatchet-cpi-mpi/profile.0.0.0"));
      writeFileSync(
        join(dir, "profile.1.0.0"),
        '0 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>TIME</value></attribute></metadata>\n0 aggregates\n',
      );
      const r = await run(["prune", dir, "--per-rank", "--json"]);
      expect(r.code).toBe(0);
      expect(r.err).toBe(`warning: ${dir}: 1 thread(s) recorded no timers and are left out (1,0,0)\n`);
      const j = JSON.parse(r.out);
      expect(j.trees.map((t: { input: string }) => t.input)).toEqual([`${dir} [thread 0,0,0]`]);
      expect(j.coreComponents).toEqual(["MPI_Init()", "MPI_Finalize()", "MPI_File_open()"]);
      const idle = await run(["prune", dir, "--view", "1"]);
      expect(idle.code).toBe(2);
      expect(idle.out).toBe("");
      expect(idle.err).toBe(`ccasim prune: ${dir}: no timers to build a call tree from: thread 1,0,0 recorded none\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects a bad threshold", async () => {
    const r = await run(["prune", "../shared/data/tau/hatchet-cpi-mpi", "--alpha", "x"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--alpha expects a number");
  });

  it("puts OpenMP threads with different roots side by side under '(all roots)' in the mean view", async () => {
    const r = await run(["prune", "../shared/data/tau/edge-cases/tools/src/taudb_c_api/tests/parse_tau_profile_test"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("): 2\n  int main(int, char **) [{matmult.c} {134,1}-{207,1}], compute OpenMP region\n");
    expect(r.out).toContain("root '(all roots)' 2584026.5 (TIME, usec)\n");
    expect(r.out).toMatch(/\n {2}int main\(int, char \*\*\) \[\{matmult\.c\} \{134,1\}-\{207,1\}\] +1293485 +1293485 +50\.06\n {4}compute OpenMP region +540134 +540134 +20\.9\n {2}\.TAU application +1290541\.5 +1290541\.5 +49\.94\n/);
  });

  it("heads a flat profile's values by what they are: the exclusive time judged and the recorded inclusive time", async () => {
    const r = await run(["prune", "../shared/data/tau/edge-cases/examples/workflow_consolidation/xmain_0"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("flat profile: who calls whom is not recorded");
    expect(r.out).toMatch(/\nkept \(largest first under each parent\) +judged +inclusive +% of root\n/);
    expect(r.out).toMatch(/\n {2}ADIOS close +2450034\.3 +5051498\.4 +3\.919\n/);
    expect(r.out).toMatch(/\npruned \(subtree root, largest first\) +under +rule +judged +% of root +below\n/);
  });

  it("places TAU_PARAM timers under their base timer and says so", async () => {
    const r = await run(["prune", "../shared/data/tau/edge-cases/examples/wrap", "--alpha", "0", "--beta", "0"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("parameter-profiled timers (TAU_PARAM): 3 placed under their base timer (they split its time by parameter value)\n");
    // Too long for the column once indented, the parameter values lose the source location.
    expect(r.out).toMatch(/\n {2}int __wrap_dgemm\(int\) C \[\{wb\.c\} \{5,1\}-\{11,1\}\] +61 +61 +0\.005813\n {4}int __wrap_dgemm\(int\) C \[ <size> = <100> \] +34 +34 /);
  });

  it("keeps the tables of a deep callpath profile readable, with full names in --json", async () => {
    const args = ["prune", "../shared/data/tau/ppk/wrf-callpath.ppk", "--view", "max", "--beta", "0.2"];
    const r = await run(args);
    expect(r.code, r.err).toBe(0);
    expect(Math.max(...r.out.split("\n").map((l) => l.length))).toBeLessThanOrEqual(140);
    // Deep rows are indented by depth, their names shortened to fit the column.
    expect(r.out).toMatch(/\n {12}MODULE_BIG_STEP_UTILITIES_EM:…_PRESSURE_GRADIENT +15504452 +1\.639\n/);
    expect(r.out).toContain("core tree: 391 nodes covering 96.27 % of the root's time; 279 of them below 1 % of the root each\n");
    const j = JSON.parse((await run([...args, "--json"])).out);
    expect(Math.max(...j.trees[0].pruned.map((p: { path: string }) => p.path.length))).toBeGreaterThan(900);
    expect(j.coreComponents).toContain("MODULE_WRF_TOP::WRF_INIT [{module_wrf_top.f90} {73,4}-{245,26}]");
    const full = "MODULE_WRF_TOP::WRF_INIT [{module_wrf_top.f90} {73,4}-{245,26}]";
    expect(r.out).not.toContain(full);
    expect((await run([...args, "--name-width", "200", "--rows", "3"])).out).toContain(`, ${full},`);
    // 0 keeps every name whole, the pruned table's parents too.
    const whole = (await run([...args, "--name-width", "0", "--rows", "3"])).out;
    expect(whole).toContain(`, ${full},`);
    expect(whole).not.toContain("…");
  });

  it("counts every node of paper 002's Figure 3 either core or pruned, the pruned subtree's descendants too", async () => {
    // A 1000 calls B 960 (which calls D 20 and E 10) and C 40 (which calls F 10): D and E go by
    // alpha, C by beta, and F with C. The figure shades 4 nodes.
    const fig = "test/analysis/golden/paper002-figure3";
    const r = await run(["prune", fig]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe("");
    expect(r.out).toMatch(/^core components \(significant in any of 1 call tree, metric TIME \(usec\), alpha 0\.1, beta 0\.1\): 2\n {2}A, B\npruned everywhere: 4 components \(the roots of 3 pruned subtrees and everything below them\)\n/);
    expect(r.out).toContain(`== ${fig} (full-callpaths): root 'A' 1000 (TIME, usec)\ncore tree: 2 nodes covering 93 % of the root's time\n`);
    expect(r.out).toMatch(/\nC +A +beta +40 +4 +1\nD +B +alpha +20 +2 +0\nE +B +alpha +10 +1 +0\n/);
    const j = JSON.parse((await run(["prune", fig, "--json"])).out);
    expect(j.metrics).toEqual([{ name: "TIME", isTime: true, unit: "usec", fallback: false }]);
    expect(j.coreComponents).toEqual(["A", "B"]);
    expect(j.prunedComponents).toEqual(["D", "E", "C", "F"]);
    expect(j.trees[0].metric).toBe("TIME");
    expect(j.trees[0].prunedComponents).toEqual(["D", "E", "C", "F"]);
    expect(j.trees[0].pruned.map((p: { path: string; below: number }) => [p.path, p.below])).toEqual([
      ["A => B => D", 0],
      ["A => B => E", 0],
      ["A => C", 1],
    ]);
  });

  it("names the metric and warns when the default falls back from time to a counter", async () => {
    const trial = "../shared/data/tau/ppk/xgc-nosamples.ppk";
    const r = await run(["prune", trial]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(`warning: ${trial}: no time metric; pruning by PAPI_TOT_CYC (counts) instead (choose one with --metric)\n`);
    expect(r.out).toContain(", metric PAPI_TOT_CYC (counts), alpha 0.1, beta 0.1): 1\n");
    expect(r.out).toContain("' 916097656657.9 (PAPI_TOT_CYC, counts)\ncore tree: 1 node covering 95.26 % of the root's PAPI_TOT_CYC\n");
    expect(r.out).not.toContain("root's time");
    const j = JSON.parse((await run(["prune", trial, "--json"])).out);
    expect(j.metrics).toEqual([{ name: "PAPI_TOT_CYC", isTime: false, unit: "counts", fallback: true }]);
    expect(j.trees[0].unit).toBe("counts");
    // Asked for by name, the counter is no fallback.
    expect((await run(["prune", trial, "--metric", "PAPI_TOT_CYC"])).err).toBe("");
  });

  it("accepts beta above 1 (only children above beta x their siblings' mean stay) and states both ranges in --help", async () => {
    const fig = "test/analysis/golden/paper002-figure3";
    const j = JSON.parse((await run(["prune", fig, "--beta", "1.05", "--json"])).out);
    expect(j.beta).toBe(1.05);
    expect(j.coreComponents).toEqual(["A", "B"]);
    const help = (await run(["prune", "--help"])).out;
    expect(help).toMatch(/--alpha <a> +children-share threshold, in \[0, 1\]/);
    expect(help).toMatch(/--beta <b> +sibling-share threshold, 0 or more/);
    for (const [args, message] of [
      [["--beta=-0.1"], "ccasim prune: --beta must be 0 or more, got -0.1\n"],
      [["--alpha", "1.5"], "ccasim prune: --alpha must be in [0, 1], got 1.5\n"],
    ] as const) {
      const bad = await run(["prune", fig, ...args]);
      expect(bad.code).toBe(2);
      expect(bad.err).toBe(message);
    }
  });

  it("prunes below a share of the root with --min-share, and refuses bad values", async () => {
    const trial = "../shared/data/tau/ppk/wrf-callpath.ppk";
    const r = await run(["prune", trial, "--min-share", "0.01"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("(significant in any of 1 call tree, metric TIME (usec), alpha 0.1, beta 0.1, min share 0.01): 77\n");
    expect(r.out).toContain("core tree: 94 nodes covering 73.81 % of the root's time; --min-share 0.01 pruned 92 more\n");
    const j = JSON.parse((await run(["prune", trial, "--min-share", "0.01", "--json"])).out);
    expect(j.minShare).toBe(0.01);
    expect(j.trees[0].kept.every((k: { inclusive: number }) => k.inclusive >= 0.01 * j.trees[0].total)).toBe(true);
    for (const [args, message] of [
      [["--min-share", "x"], "ccasim prune: --min-share expects a number, got 'x'\n"],
      [["--min-share", "2"], "ccasim prune: --min-share must be in [0, 1], got 2\n"],
      [["--name-width", "wide"], "ccasim prune: --name-width expects a positive integer, got 'wide'\n"],
      // A negative value is read as the option's value and refused for what it is, not as an option.
      [["--beta", "-1"], "ccasim prune: --beta must be 0 or more, got -1\n"],
      [["--alpha", "-.5"], "ccasim prune: --alpha must be in [0, 1], got -0.5\n"],
    ] as const) {
      const bad = await run(["prune", trial, ...args]);
      expect(bad.code).toBe(2);
      expect(bad.out).toBe("");
      expect(bad.err).toBe(message);
    }
  });
});

describe("ccasim select", () => {
  it("selects A2 and B1 below x = 2 and finds the crossover", async () => {
    const r = await run(["select", "--known-models", "--input", "x=1.5", "--core", "Driver,A,B"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("A=A2, B=B1");
    expect(r.out).toContain("gap 0 (0 %)");
    const c = await run(["select", "--known-models", "--crossover", "x=0.5:5"]);
    expect(c.out).toMatch(/at x = 2\.0: A A2 -> A1, B B1 -> B2/);
  });

  it("refuses an input or a requirement given twice (the last value was used)", async () => {
    for (const [args, message] of [
      [["--input", "x=1.5", "--input", "x=3"], "--input gives 'x' twice (x=1.5, x=3): give each name once"],
      [["--input", "x=1.5,x=3"], "--input gives 'x' twice (x=1.5, x=3): give each name once"],
      [["--input", "x=1.5", "--require", "accuracy=1", "--require", "accuracy=2"], "--require gives 'accuracy' twice (accuracy=1, accuracy=2): give each name once"],
    ] as const) {
      const r = await run(["select", "--known-models", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toContain(message);
    }
  });

  it("refuses a --core that names no component (an empty list left every component to its default)", async () => {
    for (const core of ["", " , "]) {
      const r = await run(["select", "--known-models", "--input", "x=1", "--core", core]);
      expect([r.code, r.out]).toEqual([2, ""]);
      expect(r.err).toContain(`--core names no component ('${core}'): give component names separated by commas`);
    }
  });

  it("counts the heuristic's one assembly in the singular (a core of one component with one implementation)", async () => {
    const r = await run(["select", "--known-models", "--input", "x=1", "--core", "Driver"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("heuristic over core {Driver} (1 assembly): cost 3.03, gap 1 (49.26 %)\n");
  });

  it("writes the predicted cost as the table writes the same value", async () => {
    const r = await run(["select", "scenarios/flux.assembly.yaml", "--input", "Q=5000", "--require", "accuracy=2"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("; predicted cost 58120.4\n");
    expect(r.out).toMatch(/\nFlux +GodunovFlux +58120\.4 +\*\n/);
  });

  it("reads an assembly file with quality-of-service attributes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-select-"));
    const file = join(dir, "flux.yaml");
    writeFileSync(
      file,
      [
        "components:",
        "  - name: Flux",
        "    implementations:",
        '      - { name: EFM, mean: "-8.13 + 0.16*Q", qos: { accuracy: 1 } }',
        '      - { name: Godunov, mean: "-963 + 0.315*Q", qos: { accuracy: 2 } }',
        "callGraph: { component: Flux, calls: 100 }",
      ].join("\n"),
    );
    expect((await run(["select", file, "--input", "Q=10000"])).out).toContain("Flux=EFM");
    // The input is echoed as typed, not rounded nor rewritten.
    expect((await run(["select", file, "--input", "Q=30315"])).out).toMatch(/^inputs: Q=30315\n/);
    expect((await run(["select", file, "--input", "Q=1e4"])).out).toMatch(/^inputs: Q=1e4\n/);
    const q = await run(["select", file, "--input", "Q=10000", "--require", "accuracy=2"]);
    expect(q.out).toContain("Flux=Godunov");
    expect(q.out).toContain("excluded EFM (Flux): accuracy = 1 < 2");
    writeFileSync(file, "components: []\ncallGraph: { component: Flux, extra: 1 }\n");
    const bad = await run(["select", file, "--input", "Q=1"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("key 'callGraph.extra'");
  });
});

describe("ccasim select with measured cores and quality attributes", () => {
  it("maps the timers kept by pruning a run to the assembly's components (--prune-trial)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-select-prune-"));
    const runDir = join(dir, "known-models");
    expect((await run(["run", "scenarios/known-models.yaml", "--set", "workload.iterations=10", "--out", runDir, "--quiet"])).code).toBe(0);
    for (const trial of [runDir, join(runDir, "profile")]) {
      const r = await run(["select", "--known-models", "--input", "x=1.5", "--prune-trial", trial]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain("heuristic over core {Driver, A, B} (4 assemblies): cost 5.67, gap 0 (0 %)");
    }
    // --core and --prune-trial both name the core: refused, not united.
    const both = await run(["select", "--known-models", "--input", "x=3", "--prune-trial", runDir, "--core", "C"]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("give the heuristic's core with --core or have it found with --prune-trial, not both");
    // --alpha and --beta set the pruning: beta 0 keeps every child, so C and D are core too.
    const loose = JSON.parse((await run(["select", "--known-models", "--input", "x=3", "--prune-trial", runDir, "--alpha", "0", "--beta", "0", "--json"])).out);
    expect(loose.selection.heuristic.core).toEqual(["Driver", "A", "B", "C", "D"]);
    const alone = await run(["select", "--known-models", "--input", "x=3", "--alpha", "0.2"]);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain("--alpha sets the pruning of --prune-trial; it needs --prune-trial");
    // A crossover scan alone runs no heuristic: a core for it was silently ignored.
    for (const core of [["--prune-trial", runDir], ["--core", "A,B"]]) {
      const scan = await run(["select", "--known-models", "--crossover", "x=0.5:5", ...core]);
      expect(scan.code).toBe(2);
      expect(scan.err).toContain(`${core[0]} sets the core of the heuristic, which runs at the --input values; a --crossover scan alone runs no heuristic: add --input`);
    }
    const both2 = await run(["select", "--known-models", "--crossover", "x=0.5:5", "--input", "x=1.5", "--core", "A,B"]);
    expect(both2.out).toContain("heuristic over core {A, B}");
    rmSync(dir, { recursive: true, force: true });
  });

  it("judges the methods of a component together when it prunes the --prune-trial (paper 002's component inclusive time)", async () => {
    // Ten methods of Mesh, 60 us each, beside Solver::solve() (9400 us): each method alone is below
    // beta = 0.1 of its siblings' mean, Mesh as a whole (600 us) is 0.12 of the mean of Solver and Mesh.
    const dir = mkdtempSync(join(tmpdir(), "ccasim-select-methods-"));
    const file = join(dir, "mesh.assembly.yaml");
    writeFileSync(
      file,
      [
        "components:",
        "  - { name: Driver, implementations: [{ name: Driver, mean: 0 }] }",
        "  - { name: Solver, implementations: [{ name: CG, mean: 9400 }, { name: GMRES, mean: 9800 }] }",
        "  - { name: Mesh, implementations: [{ name: Uniform, mean: 60 }, { name: Adaptive, mean: 30 }] }",
        "callGraph: { component: Driver, children: [{ component: Solver }, { component: Mesh, calls: 10 }] }",
        "",
      ].join("\n"),
    );
    const r = await run(["select", file, "--input", "n=1", "--prune-trial", "test/analysis/golden/paper002-component-methods"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("heuristic over core {Driver, Solver, Mesh} (4 assemblies): cost 9700, gap 0 (0 %)");
    rmSync(dir, { recursive: true, force: true });
  });

  it("warns of core timers of components the assembly lacks (a trial of another assembly)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-select-other-"));
    const runDir = join(dir, "renamed");
    // The known-models run with A renamed to Solver: the trial's core Solver::run() is no component of the assembly.
    const yaml = readFileSync("scenarios/known-models.yaml", "utf8").replace(/\bA:\n/, "Solver:\n").replace("Driver.a -> A.work", "Driver.a -> Solver.work").replace("A.c -> C.work", "Solver.c -> C.work").replace("port: A.work", "port: Solver.work");
    const file = join(dir, "renamed.yaml");
    writeFileSync(file, yaml);
    expect((await run(["run", file, "--set", "workload.iterations=5", "--out", runDir, "--quiet"])).code).toBe(0);
    const r = await run(["select", "--known-models", "--input", "x=1.5", "--prune-trial", runDir]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("heuristic over core {Driver, B}");
    expect(r.err).toMatch(/warning: .*1 core timer of no component of the assembly \('Solver::run\(\)'\) left out of the heuristic's core; components: Driver, A, B, C, D/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a trial whose core timers name none of the components", async () => {
    const r = await run(["select", "--known-models", "--input", "x=1.5", "--prune-trial", "../shared/data/tau/hatchet-cpi-mpi"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toContain("no core timer names a component of the assembly");
    expect(r.err).toContain("core timers 'MPI_Init()', 'MPI_Finalize()', 'MPI_File_open()'; components Driver, A, B, C, D");
  });

  it("refuses a quality attribute no implementation declares, naming the declared ones", async () => {
    const speed = await run(["select", "scenarios/flux.assembly.yaml", "--input", "Q=5000", "--require", "speed=2"]);
    expect(speed.code).toBe(2);
    expect(speed.out).toBe("");
    expect(speed.err).toBe("ccasim select: no implementation declares the quality attribute 'speed'; declared attributes: accuracy\n");
    const typo = await run(["select", "scenarios/flux.assembly.yaml", "--crossover", "Q=100:1000", "--require", "acuracy=2"]);
    expect(typo.err).toContain("'acuracy' (did you mean 'accuracy'?)");
    expect((await run(["select", "--known-models", "--input", "x=1", "--require", "speed=2"])).err).toContain("declared attributes: none");
  });
});

describe("ccasim power", () => {
  it("refuses a CPU clock of 0 or below, which would make every time, energy and FLOP/J undefined", async () => {
    for (const mhz of ["0", "-100"]) {
      const r = await run(["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--cpu-mhz", mhz]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toBe(`ccasim power: --cpu-mhz expects a clock above 0 MHz, got ${mhz}\n`);
    }
  });

  it("refuses --inefficiency, printing nothing, when no event has the metrics it ranks by (exit 2, naming the counters)", async () => {
    const r = await run(["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--inefficiency"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^ccasim power: \.\.\/shared\/data\/tau\/ppk\/xgc-nosamples\.ppk: --inefficiency: no event has %FLPStalls and FLPIneffI, which the inefficiency ranking compares: %FLPStalls \(needs BE_EXE_BUBBLE_FRALL, BE_L1D_FPU_BUBBLE_FPU\)/);
  });

  it("prints power per event and the missing counters for XGC", async () => {
    const r = await run(["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--exclusive", "--top", "3"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("time from PAPI_TOT_CYC / CPU MHz; CPU 2666.82 MHz\n");
    // XGC counted FP instructions, not operations: FLOP/J says so.
    expect(r.out).toContain("FLOP/J from PAPI_FP_INS, FP instructions: a fused multiply-add counts once, so FLOP/J reads up to 2x low where code fuses them\n");
    expect(r.out).toContain("L3: no access counter");
    // Every thread: each with its own clock, the line gives their range.
    const each = await run(["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--thread", "each", "--top", "1"]);
    expect(each.out).toContain("; CPU 2666.68 to 2666.99 MHz (each thread its own)\n");
    expect(r.out).toContain("(39 more rows");
    const j = JSON.parse((await run(["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--json"])).out);
    expect(j.events.length).toBe(42);
  });

  it("rejects an unknown constant set with a suggestion", async () => {
    const r = await run(["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--constants", "itanium2"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown power constant set 'itanium2'");
  });
});

describe("a thread named on the command line", () => {
  it("is the thread n,c,t that profile show names, in power, prune and fit alike", async () => {
    // xgc.ppk: 16 nodes of 6 threads, so the node number and the thread's position differ.
    const xgc = "../shared/data/tau/ppk/xgc.ppk";
    const show = await run(["profile", "show", xgc, "--thread", "5"]);
    expect(show.out).toContain("Thread 5,0,0, metric TIME");
    const power = await run(["power", xgc, "--thread", "5", "--json"]);
    expect(power.code, power.err).toBe(0);
    expect(new Set((JSON.parse(power.out) as { events: { view: string }[] }).events.map((e) => e.view))).toEqual(new Set(["5,0,0"]));
    expect((await run(["power", xgc, "--thread", "5,0,5", "--json"])).out).toContain('"view": "5,0,5"');
    const prune = await run(["prune", xgc, "--view", "5,0,5", "--json"]);
    expect(prune.code, prune.err).toBe(0);
    const missing = await run(["prune", xgc, "--view", "16"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe(`ccasim prune: ${xgc}: no thread 16,0,0; the trial has 96 threads (0,0,0 .. 15,0,5)\n`);
    const bad = await run(["fit", xgc, "--timer", "(top)", "--q", "threads", "--view", "first"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe("ccasim fit: --view expects each, mean, max, min, total, stddev or a thread n[,c[,t]] (parts left out are 0), got 'first'\n");
  });
});

describe("ccasim select on an assembly file with a mistake", () => {
  it("warns of a component no call site names, at its line, and still selects", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ccasim-select-")), "uncalled.yaml");
    writeFileSync(file, ["components:", "  - name: Flux", "    implementations:", '      - { name: EFMFlux, mean: "Q" }', "  - name: Limiter", "    implementations:", '      - { name: Slow, mean: "10*Q" }', '      - { name: Fast, mean: "Q" }', "callGraph: { component: Flux, calls: 100 }", ""].join("\n"));
    const r = await run(["select", file, "--input", "Q=10"]);
    expect(r.code).toBe(0);
    const warning = `warning: ${file}:5:11: component 'Limiter' is on no call site of the call graph: it costs 0 whatever its implementation, and the first of its implementations allowed is shown as chosen\n`;
    expect(r.err).toBe(warning);
    expect(r.out).toContain("optimum (dynamic-programming): Flux=EFMFlux, Limiter=Slow; predicted cost 1000\n");
    // A --require that excludes the first leaves the next one allowed shown as chosen.
    writeFileSync(file, readFileSync(file, "utf8").replace('{ name: Slow, mean: "10*Q" }', '{ name: Slow, mean: "10*Q", qos: { accuracy: 1 } }').replace('{ name: Fast, mean: "Q" }', '{ name: Fast, mean: "Q", qos: { accuracy: 2 } }'));
    const required = await run(["select", file, "--input", "Q=10", "--require", "accuracy=2"]);
    expect(required.code).toBe(0);
    expect(required.err).toBe(warning);
    expect(required.out).toContain("optimum (dynamic-programming): Flux=EFMFlux, Limiter=Fast; predicted cost 1000\n");
    expect((await run(["select", "scenarios/flux.assembly.yaml", "--input", "Q=10"])).err).toBe("");
  });

  it("places a cost that fails at the inputs given at its line in the file", async () => {
    const missing = await run(["select", "scenarios/flux.assembly.yaml", "--input", "Z=5"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe("ccasim select: scenarios/flux.assembly.yaml:37:32: mean of EFMFlux (Flux): 'exp(1.03*log(Q) - 2.25)' reads input 'Q', which is not given (given: Z=5)\n");
    const scan = await run(["select", "scenarios/flux.assembly.yaml", "--crossover", "Q=-5:-1"]);
    expect(scan.err).toMatch(/^ccasim select: scenarios\/flux\.assembly\.yaml:37:32: mean of EFMFlux \(Flux\): .* gives the complex number .* at Q=-5, not a cost\n$/);
    // A scan of an input no cost reads is named as such, with the inputs they read (not as Q not given).
    const unread = await run(["select", "scenarios/flux.assembly.yaml", "--crossover", "q=1:5"]);
    expect([unread.code, unread.err]).toEqual([2, "ccasim select: no cost of the assembly reads the input 'q' (did you mean 'Q'?), so the choice cannot change with it; inputs the costs read: Q\n"]);
    // A cost below 0 at these inputs (mean - 5 sd with a negative --risk): placed at the sd.
    const risky = await run(["select", "scenarios/flux.assembly.yaml", "--input", "Q=100000", "--risk", "-5"]);
    expect(risky.code).toBe(2);
    expect(risky.err).toMatch(/^ccasim select: scenarios\/flux\.assembly\.yaml:3\d:\d+: mean - 5·sd of \w+ \(Flux\): is -\d[\d.e+]* at \{"Q":100000\} \(costs must be finite and >= 0\)\n$/);
    // A call count below 0, and an interaction cost, at their keys.
    const dir = mkdtempSync(join(tmpdir(), "ccasim-select-"));
    const file = join(dir, "a.yaml");
    writeFileSync(
      file,
      ["components:", "  - { name: D, implementations: [{ name: D1, mean: 0 }] }", "  - { name: A, implementations: [{ name: A1, mean: x }] }", "callGraph:", "  component: D", "  children:", "    - { component: A, calls: x - 3 }", "interactions:", "  - caller: D", "    callee: A", "    costs:", "      - { callerImpl: D1, calleeImpl: A1, cost: x - 5 }"].join("\n"),
    );
    expect((await run(["select", file, "--input", "x=2"])).err).toBe(`ccasim select: ${file}:7:30: invocation count of A: is -1 at {"x":2} (costs must be finite and >= 0)\n`);
    expect((await run(["select", file, "--input", "x=4"])).err).toBe(`ccasim select: ${file}:12:49: interaction cost D1 -> A1: is -1 at {"x":4} (costs must be finite and >= 0)\n`);
    // The built-in assembly has no file to name.
    expect((await run(["select", "--known-models", "--input", "y=5"])).err).toBe("ccasim select: mean of A1 (A): '2*x' reads input 'x', which is not given (given: y=5)\n");
  });

  it("names the file of an unknown component or a cost that does not parse", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-select-file-"));
    try {
      const text = readFileSync("scenarios/flux.assembly.yaml", "utf8");
      const unknown = join(dir, "unknown.yaml");
      writeFileSync(unknown, text.replace("callGraph: { component: Flux", "callGraph: { component: Flx"));
      const a = await run(["select", unknown, "--input", "Q=5000"]);
      expect(a.code).toBe(2);
      expect(a.err).toBe(`ccasim select: ${unknown}:39:25: key 'callGraph.component': unknown component 'Flx' (did you mean 'Flux'?); known: Flux\n`);
      const broken = join(dir, "broken.yaml");
      const brokenText = text.replace(/(name: EFMFlux, mean: )"[^"]*"/, '$1"exp(1.03*log(Q) - "');
      expect(brokenText).not.toBe(text);
      writeFileSync(broken, brokenText);
      const b = await run(["select", broken, "--input", "Q=1000"]);
      expect(b.code).toBe(2);
      expect(b.err).toMatch(new RegExp(`^ccasim select: ${broken.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:37:32: key 'components\\[0\\]\\.implementations\\[0\\]\\.mean': cannot parse cost expression`));
      // Every mistake is named at its line and column, with its key.
      const cases: [string, string][] = [
        [text.replace("callGraph: { component: Flux, calls: 100 }", "callGraph: { component: Flux, calls: 100 }\ncallGraph: { component: Flux }"), ":40:1: not valid YAML or JSON: duplicate key 'callGraph': map keys must be unique"],
        [text.replace("name: GodunovFlux", "name: EFMFlux"), ":38:17: key 'components[0].implementations[1].name': implementation 'EFMFlux' is listed twice (also components[0].implementations[0])"],
        [text.replace("callGraph: { component: Flux, calls: 100 }", ""), ":34:1: key 'callGraph': missing: expected a mapping"],
        [`${text}extra: 3\n`, ":40:8: key 'extra': unknown key (known: components, callGraph, interactions)"],
        // A key holding a dot is one key: placed at its own line, written quoted.
        [`${text}extra.key: 3\n`, `:40:12: key '["extra.key"]': unknown key (known: components, callGraph, interactions)`],
        [`${text}interactions:\n  - { caller: Flux, callee: Flux, costs: [{ callerImpl: EFM, calleeImpl: EFMFlux, cost: 1 }] }\n`, ":41:57: key 'interactions[0].costs[0].callerImpl': unknown implementation 'EFM' of 'Flux' (did you mean 'EFMFlux'?); known: EFMFlux, GodunovFlux"],
      ];
      // A YAML alias back to a caller: the call graph would never end (it was walked 1000 levels deep).
      cases.push(["components:\n  - name: A\n    implementations: [{ name: A1, mean: 1 }]\ncallGraph: &g\n  component: A\n  children: [*g]\n", ":6:14: key 'callGraph.children[0]': refers back to its caller 'callGraph' (a YAML alias): the call graph would never end; a call graph is a tree"]);
      for (const [mistake, message] of cases) {
        const file = join(dir, "mistake.yaml");
        writeFileSync(file, mistake);
        const r = await run(["select", file, "--input", "Q=1000"]);
        expect(r.code).toBe(2);
        expect(r.err).toBe(`ccasim select: ${file}${message}\n`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("ccasim fit --predict where the whole interval lies below 0", () => {
  it("says the model does not apply there instead of printing 0 .. 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-predict-"));
    try {
      const csv = join(dir, "falling.csv");
      // A time falling to 0: its line goes below 0 past the data.
      writeFileSync(csv, ["component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q", ...[10, 8, 6.1, 4, 2.05, 0.1, 0.05].map((t, i) => `K,k,run,0,${i},${t},0,${t},${i + 1}`)].join("\n") + "\n");
      const r = await run(["fit", csv, "--component", "K", "--parameter", "Q", "--family", "polynomial:degree=1", "--predict", "12"]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/\npredict Q = 12: the model gives -[\d.]+ \(95 % interval of the mean -[\d.]+ \.\. -[\d.]+\), below 0 where T cannot be: it does not apply here \(extrapolated beyond the data\)\n/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("ccasim fit refuses what it would ignore, and pools only what it can fit", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-pool-"));
  // Solver.run records have only x; Stencil.compute records have Q (T = 2Q).
  const lines = ["component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q,param:x"];
  for (let i = 0; i < 12; i++) {
    lines.push(`Solver,s,run,0,${i},${5 + i},0,${5 + i},,${i}`);
    const q = 10 * (1 + (i % 4));
    lines.push(`Stencil,p,compute,0,${i},${2 * q},0,${2 * q},${q},`);
  }
  const file = join(dir, "records.csv");
  writeFileSync(file, lines.join("\n") + "\n");

  it("pools only the records that have the parameter, naming the component methods left out", async () => {
    const r = await run(["fit", file, "--parameter", "Q", "--family", "polynomial:degree=1", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe("warning: left out the records of 1 component method without a parameter 'Q': Solver.run (has x)\n");
    expect(JSON.parse(r.out)[0].points.map((p: { q: number }) => p.q)).toEqual([10, 20, 30, 40]);
  });

  it("lists the component methods and their parameters when none has the parameter", async () => {
    const r = await run(["fit", file, "--parameter", "N"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no record matching component=* port=* method=* has a numeric parameter 'N'; the records' component methods and their parameters: Solver.run (x), Stencil.compute (Q)");
  });

  it("names the command that fits a study database", async () => {
    const db = join(dir, "study.db");
    writeFileSync(db, "");
    const r = await run(["fit", db, "--parameter", "Q"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${db} is a study database ('ccasim sweep' wrote it): use 'ccasim sweep fit <study.db> --parameter Q'`);
  });

  it("refuses options the kind of input does not read", async () => {
    const trials = ["../shared/data/tau/ppk/gromacs-scaling/2.ppk", "../shared/data/tau/ppk/gromacs-scaling/4.ppk"];
    for (const [args, message] of [
      [[...trials, "--timer", "MPI_Init", "--q", "ranks", "--parameter", "Q"], "--parameter does not apply to a timer or user event across trials"],
      [[file, "--parameter", "Q", "--q", "ranks"], "--q says how to read Q from each trial; it needs --timer or --user-event"],
      [[file, "--parameter", "Q", "--view", "max"], "--view does not apply to records"],
      [[file, "--parameter", "Q", "--metric", "TIME"], "--metric does not apply to records"],
      [[...trials, "--user-event", "Message size", "--q", "ranks", "--exclusive"], "--exclusive does not apply to a user event"],
      [["../shared/data/extrap/docs_examples_input.txt", "--component", "A"], "--component does not apply to Extra-P inputs"],
      [["../shared/data/tau/edge-cases/examples/wrap", "--param-timer", "__wrap_dgemm", "--parameter", "size", "--value", "mpiTime"], "--value does not apply to TAU_PARAM timers"],
    ] as const) {
      const r = await run(["fit", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toContain(message);
    }
  });
});

describe("ccasim fit on Extra-P inputs", () => {
  it("fits one metric of an Extra-P input with --metric, as its help says", async () => {
    const help = await run(["fit", "--help"]);
    expect(help.out).toMatch(/--metric <name> +metric of trial inputs[^]*of Extra-P inputs, the one\n +metric to fit/);
    expect(help.out).toContain("--metric\nfor profiles and Extra-P) are refused with the others rather than ignored.");
    const r = await run(["fit", "../shared/data/extrap/docs_examples_input.txt", "--metric", "time"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("mean:       2.82 + 0.483·p^(5/4)·log2(p)\n");
  });

  it("warns that LOO SMAPE says little when some means are 0, and adjusted R² with segmented models finds the hinge at 0 below the knee", async () => {
    // L2 misses vs Q: none while the arrays fit in the cache, then growing with Q past 16000.
    const qs = [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000];
    const data = qs.map((q) => `DATA ${[0, 1, 2].map((r) => (q <= 16000 ? 0 : (q - 16000) * 0.05 * (1 + 0.01 * r))).join(" ")}`);
    const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-zeros-"));
    const file = join(dir, "l2.txt");
    writeFileSync(file, ["PARAMETER Q", `POINTS ${qs.map((q) => `(${q})`).join(" ")}`, "", "REGION kernel", "METRIC L2_MISSES", ...data, ""].join("\n"));
    try {
      const smape = await run(["fit", file]);
      expect(smape.code, smape.err).toBe(0);
      expect(smape.err).toContain("5 of 9 distinct Q have a mean of 0; LOO SMAPE scores any non-zero prediction at a 0 as 200 %");
      expect(smape.err).toContain("try --criterion adjusted-r2 with --family segmented");
      const json = await run(["fit", file, "--json"]);
      expect(JSON.parse(json.out)[0].zeroMeans).toBe(5);
      const hinge = await run(["fit", file, "--criterion", "adjusted-r2", "--family", "segmented", "--predict", "4000", "--predict", "100000"]);
      expect(hinge.code, hinge.err).toBe(0);
      expect(hinge.err).toBe("");
      expect(hinge.out).toMatch(/\nmean: +0\.05\d*·max\(0, Q − 16000\)\n/);
      // 0 below the knee, up to rounding (the least-squares intercept is a few 1e-13).
      expect(Math.abs(Number(/\npredict Q = 4000: (\S+) \(/.exec(hinge.out)![1]))).toBeLessThan(1e-9);
      expect(hinge.out).toMatch(/\npredict Q = 100000: 4242 \(/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("does not warn of means of 0 when every mean is 0: the constant 0 fits them exactly", async () => {
    const qs = [1000, 2000, 4000, 8000, 16000];
    const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-all-zeros-"));
    const file = join(dir, "mpi.txt");
    writeFileSync(file, ["PARAMETER Q", `POINTS ${qs.map((q) => `(${q})`).join(" ")}`, "", "REGION kernel", "METRIC MPI_TIME", ...qs.map(() => "DATA 0 0 0"), ""].join("\n"));
    try {
      const r = await run(["fit", file]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).not.toContain("have a mean of 0");
      expect(r.out).toContain("\nmean:       0\n");
      expect(JSON.parse((await run(["fit", file, "--json"])).out)[0].warnings).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("searches Extra-P's space by default and says so: Extra-P 4.x's model of its documentation example", async () => {
    const r = await run(["fit", "../shared/data/extrap/docs_examples_input.txt"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("families:   constant, pmnf (Extra-P's search space, the default for Extra-P inputs; --family widens it)\n");
    expect(r.out).toContain("mean:       2.82 + 0.483·p^(5/4)·log2(p)\n");
    const wide = await run(["fit", "../shared/data/extrap/docs_examples_input.txt", "--family", "power-law", "--family", "pmnf"]);
    expect(wide.out).not.toContain("families:   constant, pmnf");
    expect(wide.out).toContain("mean:       exp(1.5·log(p) + 0.00924)");
  });

  it("says plainly that multi-parameter models are not supported", async () => {
    const r = await run(["fit", "../shared/data/extrap/tests_data_jsonlines_extended2.jsonl"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("the experiment has 2 parameters (x, y); only single-parameter Extra-P inputs can be fitted: multi-parameter models are not supported");
  });
});

describe("prune and power refuse options their output ignores", () => {
  it("refuses table options with --json and --view with --per-rank", async () => {
    for (const [args, message] of [
      [["prune", "../shared/data/tau/hatchet-cpi-mpi", "--json", "--rows", "5"], "--rows shapes the tables; --json prints every node with full names"],
      [["prune", "../shared/data/tau/hatchet-cpi-mpi", "--per-rank", "--view", "max"], "--per-rank prunes each thread's own"],
      [["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--json", "--top", "3"], "--top shapes the table; --json prints every row in full"],
      [["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--json", "--inefficiency"], "--inefficiency shapes the table"],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toContain(message);
    }
  });
});

describe("ccasim fit's candidates table", () => {
  it("says why ranks that tie on LOO SMAPE are listed out of the order of their printed values", async () => {
    const { tiedOutOfOrder } = await import("../../cli/commands/fit.js");
    const models = (...smape: number[]) => smape.map((looSmape) => ({ quality: { looSmape } })) as unknown as Parameters<typeof tiedOutOfOrder>[0];
    expect(tiedOutOfOrder(models(4.143e-13, 4.143e-13, 3.443e-13, 3.177), "loo-smape", false)).toBe(
      "(ranks 1 to 3 tie on LOO SMAPE, within 1e-6 % (rounding noise): linear in the coefficients first, then higher adj. R², then fewer parameters)",
    );
    // In order, or apart by more than the tie: nothing to explain.
    expect(tiedOutOfOrder(models(0, 0, 3.8e-14, 3.177), "loo-smape", false)).toBeUndefined();
    expect(tiedOutOfOrder(models(1.5, 1.2), "loo-smape", false)).toBeUndefined();
    expect(tiedOutOfOrder(models(4e-13, 3e-13), "adjusted-r2", false)).toBeUndefined();
  });
});
