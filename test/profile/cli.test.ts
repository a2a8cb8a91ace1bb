import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { readExtrap, readTrial } from "../../index.js";
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
    expect(r.out).toMatch(/ccasim profile show <dir\|profile\.N\.C\.T\|file\.ppk>/);
    expect(r.out).toMatch(/ccasim profile convert <input>\.\.\. <output>/);
    expect((await run("--help")).out).toMatch(/profile\s+show a TAU\/ParaProf profile/);
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
    expect((await run("profile", "show", join(TAU, "hatchet-cpi-mpi"), "--sort", "size")).code).toBe(2);
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
    const packed = join(scratch, "copy.ppk");
    const ppk = await run("profile", "convert", join(PPK, "xgc-nosamples.ppk"), packed);
    expect(ppk.code).toBe(2);
    expect(ppk.err).toMatch(/cannot write .*copy\.ppk: ParaProf packed profiles are read, not written/);
    expect(existsSync(packed)).toBe(false);
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
