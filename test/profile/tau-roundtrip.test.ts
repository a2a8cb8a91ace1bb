import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { formatTauProfile, readTrial, TrialBuilder, writeTauProfile } from "../../index.js";
import { arbitraryTrial, trialDifference } from "./arbitrary.js";
import { PPK, TAU } from "./data.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-profile-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(scratch, `t${n++}`);

describe("TAU text profile round trip", () => {
  it("write then read gives the same trial (random trials with awkward names)", () => {
    fc.assert(
      fc.property(arbitraryTrial, (trial) => {
        const dir = fresh();
        writeTauProfile(trial, dir);
        const back = readTrial(dir);
        const diff = trialDifference(trial, back);
        rmSync(dir, { recursive: true, force: true });
        return diff === undefined ? true : (() => { throw new Error(diff); })();
      }),
      { numRuns: 60, seed: 20261122 },
    );
  });

  it("is byte-deterministic: the same trial gives the same files", () => {
    fc.assert(
      fc.property(arbitraryTrial, (trial) => {
        expect(formatTauProfile(trial)).toEqual(formatTauProfile(trial));
      }),
      { numRuns: 20, seed: 7 },
    );
  });

  for (const [label, path] of [
    ["hatchet-cpi-mpi", join(TAU, "hatchet-cpi-mpi")],
    ["powercap lu8", join(TAU, "powercap", "cap100_wrapped_lu8")],
    ["workflow xmain", join(TAU, "edge-cases/examples/workflow_consolidation/xmain_0")],
    ["wrap (TAU_PARAM)", join(TAU, "edge-cases/examples/wrap")],
    ["xgc-nosamples-text", join(TAU, "xgc-nosamples-text")],
    ["wrf-callpath.ppk", join(PPK, "wrf-callpath.ppk")],
  ] as const) {
    it(`read, write, read again gives the same values: ${label}`, () => {
      const a = readTrial(path);
      const dir = fresh();
      writeTauProfile(a, dir);
      expect(trialDifference(a, readTrial(dir))).toBeUndefined();
    });
  }

  it("writes all of thread 0,0,0's metadata into profile.0.0.0 and into the other files only what differs", () => {
    const build = (nodes: readonly number[]) => {
      const b = new TrialBuilder({ metrics: ["TIME", "PAPI_TOT_CYC"] });
      const root = b.timer(".TAU application");
      b.setMetadata("Hostname", "altix");
      for (const node of nodes) {
        const th = b.addThread(node);
        b.addCalls(th, root, 1);
        b.setThreadMetadata(th, "pid", String(100 + node));
        b.setThreadMetadata(th, "OS Name", "Linux");
        if (node === 2) b.setThreadMetadata(th, "Local Time", "noon");
      }
      return b.build();
    };
    const attributes = (text: string) => [...text.split("\n")[1].matchAll(/<name>([^<]*)<\/name><value>([^<]*)<\/value>/g)].map((m) => `${m[1]}=${m[2]}`);
    const files = new Map(formatTauProfile(build([0, 1, 2])).map((f) => [f.path, f.text]));
    expect(attributes(files.get("MULTI__PAPI_TOT_CYC/profile.0.0.0")!)).toEqual(["Metric Name=PAPI_TOT_CYC", "Hostname=altix", "OS Name=Linux", "pid=100"]);
    expect(attributes(files.get("MULTI__TIME/profile.1.0.0")!)).toEqual(["Metric Name=TIME", "pid=101"]);
    expect(attributes(files.get("MULTI__TIME/profile.2.0.0")!)).toEqual(["Metric Name=TIME", "Local Time=noon", "pid=102"]);
    // Without a profile.0.0.0 no reader has defaults: every file holds all of its thread's attributes.
    const alone = formatTauProfile(build([1, 2])).find((f) => f.path === "MULTI__TIME/profile.2.0.0")!;
    expect(attributes(alone.text)).toEqual(["Metric Name=TIME", "Hostname=altix", "Local Time=noon", "OS Name=Linux", "pid=102"]);
    const dir = fresh();
    writeTauProfile(build([0, 1, 2]), dir);
    const back = readTrial(dir);
    expect(back.metadataString("Hostname", 2)).toBe("altix");
    expect(back.metadataString("Local Time", 2)).toBe("noon");
    expect(back.metadataString("pid", 1)).toBe("101");
  });

  it("writes MULTI__ folders with the same timer order in every metric file, root first", () => {
    const a = readTrial(join(PPK, "xgc-nosamples.ppk"));
    const dir = fresh();
    writeTauProfile(a, dir);
    expect(readdirSync(dir).sort()).toEqual(["MULTI__PAPI_BR_MSP", "MULTI__PAPI_FP_INS", "MULTI__PAPI_L1_DCM", "MULTI__PAPI_TOT_CYC", "MULTI__PAPI_TOT_INS"]);
    const names = (f: string) => readFileSync(f, "utf8").split("\n").filter((l) => l.startsWith('"') && l.includes("GROUP=")).map((l) => l.slice(0, l.indexOf('" ')));
    const first = names(join(dir, "MULTI__PAPI_BR_MSP", "profile.3.0.0"));
    expect(first.length).toBe(a.timers.filter((t) => a.has(3, t.index)).length);
    for (const m of readdirSync(dir)) expect(names(join(dir, m, "profile.3.0.0"))).toEqual(first);
    const text = readFileSync(join(dir, "MULTI__PAPI_FP_INS", "profile.3.0.0"), "utf8").split("\n");
    expect(text[0]).toBe(`${first.length} templated_functions_MULTI_PAPI_FP_INS`);
    expect(text[1]).toMatch(/^# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name<\/name><value>PAPI_FP_INS<\/value><\/attribute>/);
  });

  it("writes each file's top-level timer first, which Hatchet's TAU reader takes as the root, also when it is not '.TAU application'", () => {
    // xgc-nosamples.ppk's ranks run under XGC2 (no '.TAU application'); wrf-callpath.ppk's under
    // its main program; ParaProf stores the timers in name order, so the root came some way down.
    for (const file of ["xgc-nosamples.ppk", "wrf-callpath.ppk"]) {
      const trial = readTrial(join(PPK, file));
      expect(trial.findTimer(".TAU application")).toBeUndefined();
      // By name: every file of each trial starts with its main program.
      const expected = file === "xgc-nosamples.ppk" ? '"XGC2 [{main.F95} {17,1}-{345,16}]" ' : '"WRF [{wrf.f90} {4,1}-{32,15}]" ';
      expect(new Set(formatTauProfile(trial).map((f) => f.text.split("\n")[2]!.slice(0, expected.length)))).toEqual(new Set([expected]));
      for (const f of formatTauProfile(trial)) {
        const rank = f.path.split("/").pop()!;
        const th = trial.threads.findIndex((t) => `profile.${t.node}.${t.context}.${t.thread}` === rank);
        // The same line heads every metric file of a thread: the largest inclusive value of TIME (else the first metric).
        const m = Math.max(0, trial.metrics.indexOf("TIME"));
        const nT = trial.timers.length;
        let top = -1;
        for (const t of trial.timers) {
          if (t.isCallpath || !trial.has(th, t.index)) continue;
          if (top < 0 || trial.values.inclusive[m][th * nT + t.index] > trial.values.inclusive[m][th * nT + top]) top = t.index;
        }
        const firstLine = f.text.split("\n")[2];
        expect(firstLine.startsWith(`"${trial.timers[top].spelling ?? trial.timers[top].name}" `), `${file} ${f.path}: ${firstLine}`).toBe(true);
      }
    }
  });

  it("satisfies what Hatchet's and pprof's TAU readers assume about each file", () => {
    fc.assert(
      fc.property(arbitraryTrial, (trial) => {
        const files = formatTauProfile(trial);
        const byRank = new Map<string, string[][]>();
        for (const f of files) {
          const lines = f.text.split("\n");
          // Hatchet takes the metric from the first <value> and the columns from between the two '#'.
          expect(/^# (.*) # /.exec(lines[1])![1]).toBe("Name Calls Subrs Excl Incl ProfileCalls");
          const metric = /<value>(.*?)<\/value>/.exec(lines[1])![1];
          expect(trial.metrics.map((m) => m.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&apos;").replace(/</g, "&lt;").replace(/>/g, "&gt;"))).toContain(metric);
          // pprof reads '<n> <version>' with %d %s; Hatchet reads '"name" numbers G...'.
          const n = Number(lines[0].split(" ")[0]);
          const timerLines = lines.slice(2, 2 + n);
          for (const l of timerLines) expect(l).toMatch(/^"(.*)"\s(.*)\sGROUP="[^"]*" $/);
          expect(lines[2 + n]).toBe("0 aggregates");
          const rank = f.path.split("/").pop()!;
          const names = timerLines.map((l) => l.slice(0, l.lastIndexOf('" ', l.lastIndexOf("GROUP="))));
          byRank.set(rank, [...(byRank.get(rank) ?? []), names]);
          const root = trial.findTimer(".TAU application");
          if (root && names.length > 0 && trial.has(trial.threads.findIndex((t) => `profile.${t.node}.${t.context}.${t.thread}` === rank), root.index)) {
            expect(names[0]).toBe('".TAU application');
          }
        }
        // Every metric file of a rank has the same timer lines in the same order.
        for (const sets of byRank.values()) for (const s of sets) expect(s).toEqual(sets[0]);
      }),
      { numRuns: 40, seed: 12 },
    );
  });

  it("writes a single-metric trial flat in the directory and matches the golden file", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const r0 = b.addThread(0);
    const main = b.timer("main()", ["TAU_USER"]);
    const root = b.timer(".TAU application", ["TAU_DEFAULT"]);
    const cp = b.callpath([".TAU application", "main()"], ["TAU_CALLPATH", "TAU_USER"]);
    b.setValues(r0, root, { calls: 1, subroutines: 1, exclusive: 10.4, inclusive: 1000.6 });
    b.setValues(r0, main, { calls: 1, subroutines: 0, exclusive: 990, inclusive: 990 });
    b.setValues(r0, cp, { calls: 1, subroutines: 0, exclusive: 990, inclusive: 990 });
    const ev = b.userEvent("Message size : .TAU application => main()");
    b.addEventSample(r0, ev, 4);
    b.addEventSample(r0, ev, 8);
    b.setMetadata("Node Name", 'sim<0> & "co"');
    const files = formatTauProfile(b.build());
    expect(files.map((f) => f.path)).toEqual(["profile.0.0.0"]);
    const golden = readFileSync(new URL("./golden/profile.0.0.0", import.meta.url), "utf8");
    expect(files[0].text).toBe(golden);
  });

  it("refuses to overwrite a non-empty directory unless asked", () => {
    const a = readTrial(join(TAU, "hatchet-cpi-mpi"));
    const dir = fresh();
    writeTauProfile(a, dir);
    expect(() => writeTauProfile(a, dir)).toThrow(/not empty/);
    expect(writeTauProfile(a, dir, { overwrite: true }).length).toBe(4);
  });
});

describe("writeTauProfile's output folder", () => {
  it("is never the working directory or an ancestor, nor an empty path, even with overwrite", () => {
    const trial = readTrial(join(PPK, "xgc-nosamples.ppk"));
    const work = join(scratch, "work");
    const inner = join(work, "inner");
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(inner, "keep.txt"), "mine");
    const cwd = process.cwd();
    process.chdir(inner);
    try {
      for (const dir of [".", "..", inner, work]) {
        expect(() => writeTauProfile(trial, dir, { overwrite: true }), dir).toThrow(/it is the working directory or one of its ancestors/);
      }
      expect(() => writeTauProfile(trial, "", { overwrite: true })).toThrow("cannot write a TAU profile at an empty path");
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(inner)).toEqual(["keep.txt"]);
  });
});
