import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkInvariants, derivedEventView, derivedView, flatProfile, profileTable, readTrial, summarizeProfileWarnings, threadView, Trial, TrialBuilder } from "../../index.js";
import { arbitraryTrial } from "./arbitrary.js";
import { PPK, TAU } from "./data.js";

describe("derived threads (ParaProf's mean, total, min, max, stddev)", () => {
  it("mean divides by all threads, min/max only see threads with the timer, on real data", () => {
    const t = readTrial(join(PPK, "gromacs-scaling", "8.ppk"));
    const m = 0;
    const [total, mean, meanPresent, max, min] = [derivedView(t, "total"), derivedView(t, "mean"), derivedView(t, "mean", { includeMissing: false }), derivedView(t, "max"), derivedView(t, "min")];
    for (const timer of t.timers) {
      const xs: number[] = [];
      for (let th = 0; th < t.threads.length; th++) if (t.has(th, timer.index)) xs.push(t.inclusive(m, th, timer.index));
      const sum = xs.reduce((a, b) => a + b, 0);
      expect(total.inclusive[m][timer.index]).toBeCloseTo(sum, 6);
      expect(mean.inclusive[m][timer.index]).toBeCloseTo(sum / t.threads.length, 6);
      expect(meanPresent.inclusive[m][timer.index]).toBeCloseTo(sum / xs.length, 6);
      expect(max.inclusive[m][timer.index]).toBe(Math.max(...xs));
      expect(min.inclusive[m][timer.index]).toBe(Math.min(...xs));
    }
  });

  it("stddev is the population standard deviation across threads", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const f = b.timer("f");
    [2, 4, 4, 4, 5, 5, 7, 9].forEach((v, i) => b.setValues(b.addThread(i), f, { calls: v, exclusive: v, inclusive: v }));
    const t = b.build();
    expect(derivedView(t, "stddev").inclusive[0][f]).toBe(2);
    expect(derivedView(t, "stddev").calls[f]).toBe(2);
    expect(derivedView(t, "mean").calls[f]).toBe(5);
  });

  it("stddev across threads is taken from deviations about the mean: long timers that differ a little keep their spread", () => {
    // A sum of squares less n·mean² cancels: 1e10 us timers differing by 0..3 us gave 0, and
    // threads 3.3e9 + (0, 1.5, 2.3, 7, 11, 4) gave 45.25 for 3.71; equal values gave 1.41.
    const stddevOf = (values: number[], options?: { includeMissing?: boolean }, absent = 0): number => {
      const b = new TrialBuilder({ metrics: ["TIME"] });
      const f = b.timer("f");
      b.timer("g");
      values.forEach((v, i) => b.setValues(b.addThread(i), f, { calls: 1, exclusive: v, inclusive: v }));
      for (let i = 0; i < absent; i++) b.setValues(b.addThread(values.length + i), b.findTimer("g")!, { calls: 1, exclusive: 1, inclusive: 1 });
      return derivedView(b.build(), "stddev", options).inclusive[0][f];
    };
    expect(stddevOf([0, 1, 2, 3].map((x) => 1e10 + x))).toBeCloseTo(Math.sqrt(1.25), 5);
    expect(stddevOf([0, 1.5, 2.3, 7, 11, 4].map((x) => 3.3e9 + x))).toBeCloseTo(3.710345878689775, 5);
    expect(stddevOf(new Array(8).fill(123456789.123))).toBe(0);
    // A thread without the timer counts as 0 (ParaProf's default), or not at all.
    // (Deviations 5e9, 5e9 + 2 and twice −(5e9 + 1): a variance of (5e9 + 1)² + 0.5.)
    expect(stddevOf([1e10 + 1, 1e10 + 3], {}, 2)).toBeCloseTo(5e9 + 1, 3);
    expect(stddevOf([1e10 + 1, 1e10 + 3], { includeMissing: false }, 2)).toBe(1);
  });

  it("total over threads equals the sum of per-thread views (property)", () => {
    fc.assert(
      fc.property(arbitraryTrial, (t) => {
        const total = derivedView(t, "total");
        for (let m = 0; m < t.metrics.length; m++) {
          for (const timer of t.timers) {
            let s = 0;
            for (let th = 0; th < t.threads.length; th++) s += threadView(t, th).exclusive[m][timer.index];
            expect(total.exclusive[m][timer.index]).toBe(s);
          }
        }
      }),
      { numRuns: 40, seed: 3 },
    );
  });

  it("combines user events across threads", () => {
    const t = readTrial(join(TAU, "hatchet-cpi-mpi"));
    const e = t.findUserEvent("Message size for reduce")!;
    const total = derivedEventView(t, "total");
    expect(total.count[e.index]).toBe(4);
    expect(total.max[e.index]).toBe(8);
    const mean = derivedEventView(t, "mean");
    expect(mean.count[e.index]).toBe(1);
  });

  it("gives a flat profile and a table with pprof's percentages", () => {
    const t = readTrial(join(TAU, "hatchet-cpi-mpi"));
    const flat = flatProfile(t, threadView(t, 0));
    expect(flat.length).toBe(12);
    expect(flat.every((r) => !r.timer.isCallpath)).toBe(true);
    const table = profileTable(t, threadView(t, 0), { sort: "calls", top: 1 });
    expect(table.rows[0].percent).toBe(100);
    const byName = profileTable(t, threadView(t, 0), { sort: "name" });
    expect(byName.rows.map((r) => r.name)).toEqual([...byName.rows.map((r) => r.name)].sort());
  });

  it("lists a caller before a callee that holds all its time, when rounding makes the callee's inclusive value a last bit larger", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const [main, driver, work] = [b.timer(".TAU application"), b.timer("Driver::go()"), b.timer("A::run()")];
    const th = b.addThread(0);
    // 0.1 + 0.2 + 0.3 ran as 0.6000000000000001 in the callee; the caller summed 0.6.
    b.setValues(th, main, { calls: 1, subroutines: 1, exclusive: 0, inclusive: 0.6 });
    b.setValues(th, driver, { calls: 1, subroutines: 3, exclusive: 0, inclusive: 0.6 });
    b.setValues(th, work, { calls: 3, exclusive: 0.1 + 0.2 + 0.3, inclusive: 0.1 + 0.2 + 0.3 });
    const t = b.build({ checkInvariants: false });
    expect(profileTable(t, threadView(t, 0)).rows.map((r) => r.name)).toEqual([".TAU application", "Driver::go()", "A::run()"]);
    // Inclusive values apart beyond rounding keep their order.
    b.setValues(th, work, { calls: 3, exclusive: 0.61, inclusive: 0.61 });
    const apart = b.build({ checkInvariants: false });
    expect(profileTable(apart, threadView(apart, 0)).rows[0]!.name).toBe("A::run()");
  });
});

describe("%Time of derived views", () => {
  it("divides the min view by its own largest value, so no row of any view is above 100 (XGC, real)", () => {
    const t = readTrial(join(PPK, "xgc.ppk"));
    for (const kind of ["min", "max", "mean", "total", "stddev"] as const) {
      const table = profileTable(t, derivedView(t, kind), { callpaths: true });
      expect(table.rows.filter((r) => r.percent > 100 + 1e-9).map((r) => r.name), kind).toEqual([]);
      if (kind === "min" || kind === "stddev") expect(table.rows[0].percent, kind).toBe(100);
    }
  });

  it("caps a mean over only the threads that ran each timer at the view's largest value", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const root = b.timer("main");
    const only = b.timer("rank0 only");
    const [a, c] = [b.addThread(0), b.addThread(1)];
    b.setValues(a, root, { calls: 1, exclusive: 10, inclusive: 100 });
    b.setValues(a, only, { calls: 1, exclusive: 200, inclusive: 200 });
    b.setValues(c, root, { calls: 1, exclusive: 10, inclusive: 100 });
    const t = b.build({ checkInvariants: false });
    const rows = profileTable(t, derivedView(t, "mean", { includeMissing: false })).rows;
    expect(rows.map((r) => [r.name, r.percent])).toEqual([["rank0 only", 100], ["main", 50]]);
    // Over all threads, pprof's base: the mean of the threads' largest values, (200 + 100) / 2.
    expect(profileTable(t, derivedView(t, "mean")).rows.map((r) => r.percent)).toEqual([(100 / 150) * 100, (100 / 150) * 100]);
  });
});

describe("load-time invariants", () => {
  it("finds no inconsistency in real profiles, and reports an injected one with its timer and thread", () => {
    const t = readTrial(join(TAU, "hatchet-cpi-mpi"));
    expect(checkInvariants(t)).toEqual([]);
    const incl = t.values.inclusive.map((a) => a.slice());
    const cp = t.timer(".TAU application => MPI_Finalize() => MPI_File_open()");
    incl[0][t.slot(t.threadIndex(1), cp.index)] = 1e9;
    const bad = new Trial({ ...t, values: { ...t.values, inclusive: incl } });
    const w = checkInvariants(bad);
    expect(w.map((x) => x.kind)).toEqual(["child-exceeds-parent"]);
    expect(summarizeProfileWarnings([...w, { kind: "repeated-lines", message: "" }, { kind: "repeated-lines", message: "" }])).toBe(
      "3 load-time warning(s): 1 callpath(s) above their parent, 2 file(s) listing a user event twice (merged)",
    );
    expect(summarizeProfileWarnings([])).toBe("");
    expect(w[0].message).toMatch(/MPI_File_open\(\)' \(TIME\) on thread 1,0,0: inclusive 1000000000 > parent '\.TAU application => MPI_Finalize\(\)'/);
  });

  it("checks flat = sum of root-anchored callpaths for calls and exclusive values", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const th = b.addThread(0);
    const root = b.timer(".TAU application");
    const f = b.timer("f");
    const a = b.callpath([".TAU application", "f"]);
    const g = b.timer("g");
    const bg = b.callpath([".TAU application", "g"]);
    const gf = b.callpath([".TAU application", "g", "f"]);
    b.setValues(th, root, { calls: 1, exclusive: 10, inclusive: 100 });
    b.setValues(th, g, { calls: 1, exclusive: 20, inclusive: 50 });
    b.setValues(th, bg, { calls: 1, exclusive: 20, inclusive: 50 });
    b.setValues(th, a, { calls: 2, exclusive: 40, inclusive: 40 });
    b.setValues(th, gf, { calls: 1, exclusive: 30, inclusive: 30 });
    b.setValues(th, f, { calls: 3, exclusive: 70, inclusive: 70 });
    expect(b.build().warnings).toEqual([]);
    b.setValues(th, f, { calls: 4 });
    expect(b.build().warnings.map((w) => w.kind)).toEqual(["flat-differs-from-callpaths"]);
  });
});
