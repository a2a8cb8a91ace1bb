import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { formatMicroseconds, formatPprofTime, readExtrap, readTrial } from "../../index.js";
import { PPK, TAU } from "./data.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

describe("ccasim profile", () => {
  it("explains itself with --help", async () => {
    const r = await run("profile", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ccasim profile show <dir\|profile\.N\.C\.T\|file\.ppk\|tauprofile\.xml\|profile\.cubex>/);
    expect(r.out).toMatch(/ccasim profile convert <input>\.\.\. <output>/);
    expect((await run("--help")).out).toMatch(/profile\s+show a TAU, ParaProf or CUBE4 profile/);
  });

  it("shows one thread as pprof does, sorted by inclusive time", async () => {
    const r = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--thread", "0");
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines).toContain("%Time    Exclusive    Inclusive       #Call      #Subrs  Inclusive Name");
    expect(lines).toContain("100.0        0.449           51           1           7      51781 .TAU application");
    expect(lines).toContain(" 62.4            4           32           1           4      32304 MPI_Finalize()");
    const rows = lines.filter((l) => /^\s*\d+\.\d /.test(l));
    expect(rows.length).toBe(12);
  });

  it("truncates milliseconds as pprof's ToTimeStr does, and shows the files' microseconds with --unit us", async () => {
    const profile = join(TAU, "hatchet-cpi-mpi");
    const ms = await run("profile", "show", profile, "--thread", "0");
    // 32304 usec: pprof prints whole milliseconds from 1 ms (32, not 32.3).
    expect(ms.out.split("\n")).toContain(" 62.4            4           32           1           4      32304 MPI_Finalize()");
    const us = await run("profile", "show", profile, "--thread", "0", "--unit", "us");
    expect(us.code, us.err).toBe(0);
    const lines = us.out.split("\n");
    expect(lines).toContain("              usec   total usec                          usec/call ");
    // profile.0.0.0: "MPI_Finalize()  " 1 4 4458 32304 0 GROUP="MPI"
    expect(lines).toContain(" 62.4         4458        32304           1           4      32304 MPI_Finalize()");
    // pprof's 1 for 1.806 ms; the microseconds to 3 decimals, in the same 12-character column.
    expect([formatPprofTime(1806), formatMicroseconds(1806), formatMicroseconds(603.25), formatMicroseconds(0.0004)]).toEqual(["           1", "        1806", "      603.25", "           0"]);
    const bad = await run("profile", "show", profile, "--unit", "s");
    expect([bad.code, bad.err]).toEqual([2, "ccasim profile: show: --unit must be ms or us, got 's'\n"]);
    expect((await run("profile", "show", profile, "--unit", "us", "--json")).code).toBe(2);
    expect((await run("profile", "--help")).out).toContain("--unit <u>           time columns in ms (default: pprof's, truncated");
  });

  it("shows the mean over threads with minutes, as Table 1 of the Mastermind paper", async () => {
    const r = await run("profile", "show", join(PPK, "mpas.ppk"), "--top", "3");
    expect(r.out).toMatch(/Mean over all threads, metric TIME/);
    expect(r.out).toMatch(/100\.0 {11}89 {4}13:38\.653 {11}1 {5}685\.641  818653791 \.TAU application/);
    const [timers, events] = r.out.split("USER EVENTS Profile");
    expect(timers.split("\n").filter((l) => /^\s*\d+\.\d /.test(l)).length).toBe(3);
    expect(events.split("\n").filter((l) => /^\s*[\d.E+]+ +[\d.E+]+ /.test(l)).length).toBe(3);
  });

  it("prints JSON tables for a metric and a sort key", async () => {
    const r = await run("profile", "show", join(PPK, "mpas.ppk"), "--metric", "PAPI_FP_INS", "--sort", "exclusive", "--top", "2", "--thread", "5", "--json");
    const j = JSON.parse(r.out);
    expect(j.threads).toBe(128);
    expect(j.tables[0].metric).toBe("PAPI_FP_INS");
    expect(j.tables[0].view).toBe("5,0,0");
    expect(j.tables[0].rows.length).toBe(2);
    expect(j.tables[0].rows[0].exclusive).toBeGreaterThanOrEqual(j.tables[0].rows[1].exclusive);
  });

  it("exits 2 for a --top that is not a positive integer", async () => {
    for (const top of ["0", "2.5", "abc"]) {
      const r = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--top", top);
      expect(r.code, top).toBe(2);
      expect(r.err).toBe(`ccasim profile: show: --top expects a positive integer, got '${top}'\n`);
    }
  });

  it("exits 2 with a located message for bad input", async () => {
    const missing = await run("profile", "show", join(scratch, "nope"));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/cannot read/);
    const metric = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--metric", "PAPI_X");
    expect(metric.code).toBe(2);
    expect(metric.err).toMatch(/no metric 'PAPI_X'; the trial has TIME/);
    expect((await run("profile", "frobnicate")).code).toBe(2);
    const sort = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--sort", "size");
    expect([sort.code, sort.err]).toEqual([2, "ccasim profile: show: --sort must be one of inclusive, exclusive, calls, subrs, percall, name, got 'size'\n"]);
    const to = await run("profile", "convert", join(TAU, "hatchet-cpi-mpi"), join(scratch, "never.csv"), "--to", "csv");
    expect([to.code, to.err]).toEqual([2, "ccasim profile: convert: --to must be one of tau, records-csv, records-jsonl, extrap-text, extrap-json, extrap-jsonl, table-csv, cube, ppk, tau-xml, got 'csv'\n"]);
  });

  it("converts a packed profile to a TAU directory and trials to Extra-P", async () => {
    const out = join(scratch, "xgc-text");
    const r = await run("profile", "convert", join(PPK, "xgc-nosamples.ppk"), out);
    expect(r.code).toBe(0);
    expect(readTrial(out).threads.length).toBe(16);
    // Again into the same, now full, directory: refused unless asked, saying how to ask.
    const again = await run("profile", "convert", join(PPK, "xgc-nosamples.ppk"), out);
    expect(again.code).toBe(2);
    expect(again.err).toBe(`ccasim profile: '${out}' exists and is not empty; give --overwrite to replace it\n`);
    expect((await run("profile", "convert", join(PPK, "xgc-nosamples.ppk"), out, "--overwrite")).code).toBe(0);
    // A format that is read but not written is refused, not made a TAU directory of that name.
    const cube3 = join(scratch, "copy.cube");
    const refused = await run("profile", "convert", join(PPK, "xgc-nosamples.ppk"), cube3);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/cannot write .*copy\.cube: CUBE 3 files are not written \(CUBE4, \.cubex, is\)/);
    expect(existsSync(cube3)).toBe(false);
    expect((await run("profile", "convert", join(PPK, "xgc-nosamples.ppk"), join(scratch, "run.v2"))).code).toBe(0);
    expect(readTrial(join(scratch, "run.v2")).threads.length).toBe(16);
    const ex = join(scratch, "scaling.json");
    const g = (n: number) => join(PPK, "gromacs-scaling", `${n}.ppk`);
    const c = await run("profile", "convert", g(2), g(4), g(8), ex, "--point", "p=2", "--point", "p=4", "--point", "p=8");
    expect(c.code).toBe(0);
    const e = readExtrap(ex);
    expect(e.parameters).toEqual(["p"]);
    expect(e.measurements.filter((m) => m.callpath.startsWith("int main(int, char **)")).map((m) => m.point[0])).toEqual([2, 4, 8]);
    const bad = await run("profile", "convert", g(2), g(4), ex, "--point", "p=2");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/one point/);
  });
});

describe("ccasim profile on real data: exports, metadata, names and views", () => {
  const g = (n: number) => join(PPK, "gromacs-scaling", `${n}.ppk`);
  const ns = [2, 4, 8, 16, 32];
  const points = ns.flatMap((n) => ["--point", `p=${n}`]);

  it("writes Extra-P JSON, JSON Lines and text from trials that did not all call a timer, with a note naming what was filled", async () => {
    for (const name of ["gro.json", "gro.jsonl", "gro.txt"]) {
      const out = join(scratch, name);
      const to = name.endsWith(".jsonl") ? ["--to", "extrap-jsonl"] : [];
      const r = await run("profile", "convert", ...ns.map(g), out, ...points, ...to);
      expect(r.code, name).toBe(0);
      expect(r.err).toMatch(/^note: \d+ callpath\(s\) that some trials never called are written as 0/);
      expect(r.err).toMatch(/\n {2}MPI_Alltoall\(\) at p=\d+; p=\d+\n/);
      const e = readExtrap(out);
      const a = e.measurements.filter((m) => m.callpath === "MPI_Alltoall()");
      expect(a.map((m) => m.point[0]).sort((x, y) => x - y), name).toEqual(ns);
      expect(a.filter((m) => m.values[0] === 0).length).toBe(2);
    }
  });

  it("refuses a --point that gives a parameter twice", async () => {
    const r = await run("profile", "convert", g(2), g(4), join(scratch, "twice-p.json"), "--point", "p=2,p=3", "--point", "p=4");
    expect([r.code, r.err]).toEqual([2, "ccasim profile: convert: --point 'p=2,p=3' gives parameter 'p' twice\n"]);
    expect(existsSync(join(scratch, "twice-p.json"))).toBe(false);
  });

  it("suggests --to extrap-jsonl when trials with --point are written to a .jsonl name", async () => {
    const r = await run("profile", "convert", g(2), g(4), join(scratch, "km.jsonl"), "--point", "p=2", "--point", "p=4");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/give --to extrap-jsonl/);
  });

  it("refuses records or Extra-P inputs given twice, whose measurements would be written twice", async () => {
    const extrap = "../shared/data/extrap/docs_examples_input.txt";
    const e = await run("profile", "convert", extrap, `../shared/data/extrap/./docs_examples_input.txt`, join(scratch, "twice.json"));
    expect([e.code, e.err]).toEqual([2, `ccasim profile: the input '../shared/data/extrap/./docs_examples_input.txt' is given twice (as '${extrap}' too): its measurements would be written twice\n`]);
    expect(existsSync(join(scratch, "twice.json"))).toBe(false);
    const records = join(scratch, "twice-in.csv");
    writeFileSync(records, "component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q\nSC,p,compute,0,0,10,0,10,1000\n");
    const r = await run("profile", "convert", records, records, join(scratch, "twice.csv"));
    expect([r.code, r.err]).toEqual([2, `ccasim profile: the input '${records}' is given twice: its measurements would be written twice\n`]);
  });

  it("lists a trial's metadata, with profile.0.0.0's attributes as every thread's", async () => {
    const dir = join(TAU, "powercap", "cap50_wrapped_am8");
    const r = await run("profile", "show", dir, "--metadata");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/metadata common to all 32 thread\(s\):\n/);
    expect(r.out).toContain("  CPU MHz = 2600.000\n");
    expect(r.out).toMatch(/Thread 1,0,0's own:\n( {2}.*\n)* {2}pid = 83972\n/);
    expect(r.out).not.toMatch(/own:\n( {2}.*\n)* {2}CPU MHz/);
    const one = await run("profile", "show", dir, "--metadata", "--thread", "3");
    expect(one.out).toMatch(/^Metadata of thread 3,0,0:\n/);
    expect(one.out).toContain("  CPU MHz = 2600.000\n");
    const j = JSON.parse((await run("profile", "show", dir, "--json", "--top", "1")).out);
    expect(j.metadata.common["CPU MHz"]).toBe("2600.000");
    expect(Object.keys(j.metadata.threads).length).toBe(32);
  });

  it("refuses with --metadata the options that shape tables, and derived views, which have no metadata", async () => {
    const dir = join(TAU, "hatchet-cpi-mpi");
    const mean = await run("profile", "show", dir, "--metadata", "--thread", "mean");
    expect([mean.code, mean.out, mean.err]).toEqual([2, "", "ccasim profile: show: --metadata --thread takes threads n[,c[,t]] or all; 'mean' is a view over the threads, with no metadata of its own (leave --thread out for the attributes common to every thread)\n"]);
    const shaped = await run("profile", "show", dir, "--metadata", "--top", "3", "--callpaths");
    expect([shaped.code, shaped.err]).toEqual([2, "ccasim profile: show: --top, --callpaths shape the tables; --metadata prints no table\n"]);
    const metric = await run("profile", "show", dir, "--metadata", "--metric", "TIME");
    expect([metric.code, metric.err]).toEqual([2, "ccasim profile: show: --metric shapes the tables; --metadata prints no table\n"]);
    expect((await run("profile", "show", dir, "--metadata", "--thread", "1", "--thread", "all")).code).toBe(0);
  });

  it("shows the thread of a single-thread file as that thread, and several --thread views in order", async () => {
    const one = await run("profile", "show", join(TAU, "edge-cases", "tools", "src", "taudb_c_api", "tests", "parse_tau_profile_test", "profile.0.0.1"));
    expect(one.code).toBe(0);
    expect(one.out).toMatch(/\nThread 0,0,1, metric TIME\n/);
    expect(one.out).not.toMatch(/Mean over all threads/);
    const two = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--thread", "0", "--thread", "mean", "--thread", "1");
    expect([...two.out.matchAll(/^(Thread \S+|Mean over all threads), metric TIME$/gm)].map((m) => m[1])).toEqual(["Thread 0,0,0", "Mean over all threads", "Thread 1,0,0"]);
    const bad = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--thread", "foo");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown thread 'foo'; use a thread n\[,c\[,t\]\] \(parts left out are 0\), all, or one of mean, min, max, total, stddev/);
  });

  it("writes only the metrics asked for to a TAU directory, and refuses options the output does not use", async () => {
    const out = join(scratch, "mpas-time");
    const r = await run("profile", "convert", join(PPK, "mpas.ppk"), out, "--metric", "TIME");
    expect(r.code).toBe(0);
    expect(readTrial(out).metrics).toEqual(["TIME"]);
    expect(existsSync(join(out, "profile.0.0.0"))).toBe(true);
    for (const extra of [["--callpaths"], ["--point", "p=1"]]) {
      const x = await run("profile", "convert", join(PPK, "mpas.ppk"), join(scratch, "mpas-x"), ...extra);
      expect(x.code, extra[0]).toBe(2);
      expect(x.err).toMatch(/apply only to/);
      expect(existsSync(join(scratch, "mpas-x"))).toBe(false);
    }
    const exact = await run("profile", "convert", ...ns.slice(0, 3).map(g), join(scratch, "e.json"), ...points.slice(0, 6), "--exact-time");
    expect(exact.code).toBe(2);
    expect(exact.err).toMatch(/--exact-time\) applies only to a TAU directory/);
  });

  it("computes %Time as pprof does: of each thread's top-level timer, and of their mean in the mean view", async () => {
    const j = JSON.parse((await run("profile", "show", join(PPK, "gromacs-scaling", "32.ppk"), "--json", "--top", "1")).out);
    expect(j.tables[0].rows[0].percent).toBeCloseTo(100, 9);
    const t = readTrial(join(TAU, "hatchet-cpi-mpi"));
    const root = t.timer(".TAU application").index;
    const mean = t.threads.reduce((s, _, th) => s + t.inclusive(0, th, root), 0) / t.threads.length;
    const mpi = JSON.parse((await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--json")).out).tables[0].rows.find((r: { name: string }) => r.name === "MPI_Finalize()");
    expect(mpi.percent).toBeCloseTo((mpi.inclusive / mean) * 100, 9);
    expect((await run("profile", "--help")).out).toMatch(/%Time is\nthe inclusive value as a percentage of the top-level timer's, as pprof computes it/);
  });

  it("exports a profile table as CSV with units in the column names", async () => {
    const out = join(scratch, "mpas.csv");
    const r = await run("profile", "convert", join(PPK, "mpas.ppk"), out, "--to", "table-csv", "--metric", "TIME", "--metric", "PAPI_FP_INS");
    expect(r.code).toBe(0);
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    expect(lines[0]).toBe("thread,timer,groups,calls,subroutines,TIME exclusive (usec),TIME inclusive (usec),PAPI_FP_INS exclusive (counts),PAPI_FP_INS inclusive (counts)");
    const t = readTrial(join(PPK, "mpas.ppk"));
    const root = t.timer(".TAU application").index;
    const th5 = t.threadIndex(5);
    const row = lines.find((l) => l.startsWith('"5,0,0",.TAU application,'))!;
    expect(row.split(",").slice(-4).map(Number)).toEqual([t.exclusive(t.metricIndex("TIME"), th5, root), t.inclusive(t.metricIndex("TIME"), th5, root), t.exclusive(t.metricIndex("PAPI_FP_INS"), th5, root), t.inclusive(t.metricIndex("PAPI_FP_INS"), th5, root)]);
    expect(lines.some((l) => l.startsWith("mean,.TAU application,"))).toBe(true);
    const plain = await run("profile", "convert", join(PPK, "mpas.ppk"), join(scratch, "m2.csv"));
    expect(plain.code).toBe(2);
    expect(plain.err).toMatch(/no per-invocation records .*give --to table-csv/);
  });
});

describe("ccasim profile show: percentages, warnings, counts, units and thread names", () => {
  it("keeps %Time of the min view at 100 for its top timer, on XGC where XGC2 runs on some threads only", async () => {
    const t = readTrial(join(PPK, "xgc.ppk"));
    const j = JSON.parse((await run("profile", "show", join(PPK, "xgc.ppk"), "--thread", "min", "--thread", "mean", "--thread", "max", "--thread", "total", "--thread", "stddev", "--json")).out);
    for (const table of j.tables as { view: string; rows: { name: string; percent: number; inclusive: number }[] }[]) {
      const over = table.rows.filter((r) => r.percent > 100 + 1e-9);
      expect(over.map((r) => `${r.name}: ${r.percent}`), table.view).toEqual([]);
    }
    // XGC2's minimum over the threads that run it exceeds the smallest thread's top-level timer:
    // the min view's own largest value is its base, so XGC2 is 100 and .TAU application below.
    const min = j.tables[0];
    expect(min.rows[0]).toMatchObject({ name: "XGC2 [{main.pomp.F95} {18,1}-{360,16}]", percent: 100 });
    const root = min.rows.find((r: { name: string }) => r.name === ".TAU application");
    expect(root.percent).toBeCloseTo((root.inclusive / min.rows[0].inclusive) * 100, 9);
    const tauApp = t.timer(".TAU application").index;
    const smallestTop = Math.min(...t.threads.map((_, th) => t.inclusive(t.metricIndex("TIME"), th, tauApp)));
    expect(min.rows[0].inclusive).toBeGreaterThan(smallestTop);
    expect((await run("profile", "--help")).out).toMatch(/The min view \(each row the minimum over the threads\nthat ran that timer/);
  });

  it("names the kinds of load-time warnings it counts (xmain_0 lists user events twice)", async () => {
    const dir = join(TAU, "edge-cases", "examples", "workflow_consolidation", "xmain_0");
    const r = await run("profile", "show", dir, "--top", "1");
    expect(r.code).toBe(0);
    expect(r.err).toBe("8 load-time warning(s): 8 file(s) listing a user event twice (merged); list them with --warnings\n");
    const listed = await run("profile", "show", dir, "--top", "1", "--warnings");
    expect(listed.err.split("\n").filter((l) => l.startsWith("warning: ")).every((l) => l.includes("user event line(s) listed twice"))).toBe(true);
    const c = await run("profile", "convert", dir, join(scratch, "xmain.csv"), "--to", "table-csv");
    expect(c.err).toBe("the input has 8 load-time warning(s): 8 file(s) listing a user event twice (merged); list them with 'ccasim profile show --warnings'\n");
  });

  it("suggests the metric a misspelt --metric meant", async () => {
    const r = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--metric", "TIMES");
    expect([r.code, r.err]).toEqual([2, "ccasim profile: no metric 'TIMES' (did you mean 'TIME'?); the trial has TIME\n"]);
    const c = await run("profile", "convert", join(PPK, "mpas.ppk"), join(scratch, "mpas-fp"), "--metric", "PAPI_FP_IN");
    expect(c.err).toMatch(/no metric 'PAPI_FP_IN' \(did you mean 'PAPI_FP_INS'\?\)/);
  });

  it("counts timers and callpaths apart in the header, as the table shows them", async () => {
    const r = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--thread", "0");
    const rows = r.out.split("\n").filter((l) => /^\s*\d+\.\d /.test(l));
    expect(r.out).toContain(`: 4 thread(s), 1 metric(s) [TIME], ${rows.length} timers (and 11 callpaths, shown with --callpaths), 2 user events\n`);
    const all = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--thread", "0", "--callpaths");
    const allRows = all.out.split("\n").filter((l) => /^\s*\d+\.\d /.test(l));
    expect(allRows.length).toBe(12 + 11);
    expect(all.out).toContain(", 12 timers and 11 callpaths, 2 user events\n");
    const j = JSON.parse((await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--json")).out);
    expect([j.timers, j.callpaths]).toEqual([12, 11]);
  });

  it("refuses --unit on a counter metric, naming it", async () => {
    const r = await run("profile", "show", join(PPK, "mpas.ppk"), "--metric", "PAPI_FP_INS", "--unit", "us");
    expect([r.code, r.err]).toEqual([2, "ccasim profile: show: --unit shapes time columns; metric 'PAPI_FP_INS' is a counter, shown as counts\n"]);
    expect((await run("profile", "show", join(PPK, "mpas.ppk"), "--metric", "TIME", "--unit", "us", "--top", "1")).code).toBe(0);
  });

  it("widens the columns, headers with them, to fit --unit us values (mpas mean: 818653790.859)", async () => {
    const r = await run("profile", "show", join(PPK, "mpas.ppk"), "--unit", "us", "--top", "3", "--no-user-events");
    const lines = r.out.split("\n");
    const header = lines.find((l) => l.startsWith("%Time"))!;
    const units = lines[lines.indexOf(header) + 1];
    const rows = lines.filter((l) => /^\s*\d+\.\d /.test(l));
    expect(rows[0]).toContain(" 818653790.859 ");
    // Every column's values end where its header word and unit end, with a space at least between columns.
    const ends = (l: string): number[] => [...l.matchAll(/\S+/g)].map((m) => m.index! + m[0].length);
    for (const row of rows) {
      const e = ends(row);
      expect(e.slice(1, 6), row).toEqual(ends(header).slice(1, 6));
      // units: usec, total usec, usec/call
      expect([e[1], e[2], e[5]], row).toEqual([ends(units)[0], ends(units)[2], ends(units)[3]]);
    }
  });

  it("says in every command's help what a thread name accepts: missing parts are 0", async () => {
    const syntax = "n[,c[,t]] (node, context, thread, by commas or dots; parts left out are 0: 3,1 is 3,1,0)";
    for (const cmd of ["profile", "fit", "prune", "power"]) {
      const help = (await run(cmd, "--help")).out.replace(/\s+/g, " ");
      expect(help, cmd).toContain(syntax);
      expect(help, cmd).not.toContain("n | n,c,t");
    }
    const one = await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--thread", "3,0", "--json");
    expect(JSON.parse(one.out).tables[0].view).toBe("3,0,0");
  });
});

describe("ccasim profile convert and --metadata on real data: roots and own metadata", () => {
  it("exports the root '.TAU application' with its callpaths to Extra-P text (hatchet-cpi-mpi, three ranks)", async () => {
    const files = [0, 1, 2].map((r) => join(TAU, "hatchet-cpi-mpi", `profile.${r}.0.0`));
    const out = join(scratch, "cpi-callpaths.txt");
    const r = await run("profile", "convert", ...files, out, "--point", "r=0", "--point", "r=1", "--point", "r=2", "--callpaths");
    expect(r.code, r.err).toBe(0);
    const e = readExtrap(out);
    const root = e.measurements.filter((m) => m.callpath === ".TAU application");
    const want = files.map((f) => {
      const t = readTrial(f);
      return t.inclusive(0, 0, t.timer(".TAU application").index);
    });
    expect(root.map((m) => m.values[0])).toEqual(want);
    expect(readFileSync(out, "utf8")).toMatch(/^REGION \.TAU application\nDATA 51781\n/m);
    expect(e.measurements.some((m) => m.callpath === ".TAU application->MPI_Finalize()->MPI_File_open()")).toBe(true);
    // Only the tree's root joins the callpaths, not the other flat timers.
    expect(e.measurements.some((m) => m.callpath === "MPI_Finalize()")).toBe(false);
  });

  it("lists as a thread's own metadata only what its file holds, alike from text and from .ppk (XGC)", async () => {
    const text = await run("profile", "show", join(TAU, "xgc-nosamples-text"), "--metadata", "--json");
    const ppk = await run("profile", "show", join(PPK, "xgc-nosamples.ppk"), "--metadata", "--json");
    const [jt, jp] = [JSON.parse(text.out).metadata, JSON.parse(ppk.out).metadata];
    const keys = (m: Record<string, Record<string, string>>): Record<string, string[]> => Object.fromEntries(Object.entries(m).map(([th, kv]) => [th, Object.keys(kv)]));
    expect(keys(jt.threads)).toEqual(keys(jp.threads));
    // profile.1.0.0 has no Hostname: thread 1,0,0 takes profile.0.0.0's, which is said so.
    const file = readFileSync(join(TAU, "xgc-nosamples-text", "MULTI__PAPI_TOT_CYC", "profile.1.0.0"), "utf8").split("\n")[1];
    expect(file).not.toContain("<name>Hostname</name>");
    for (const k of Object.keys(jt.threads["1,0,0"])) expect(file).toContain(`<name>${k}</name>`);
    expect(jt.inherited["1,0,0"]).toMatchObject({ Hostname: "0,0,0", "CPU MHz": "0,0,0" });
    expect(jp.inherited).toEqual({});
    const t = await run("profile", "show", join(TAU, "xgc-nosamples-text"), "--metadata");
    expect(t.out).toMatch(/Thread 1,0,0's own:\n {2}Starting Timestamp = \d+\n {2}Timestamp = \d+\n {2}pid = 10795\n {2}\(and from thread 0,0,0's file: CPU MHz, Hostname, MPI Processor Name, Node Name\)\n/);
    // The merged view keeps TAU's default: thread 1 has thread 0's Hostname.
    const one = await run("profile", "show", join(TAU, "xgc-nosamples-text"), "--metadata", "--thread", "1");
    expect(one.out).toContain("  Hostname = cn121\n");
  });
});
