import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { diffProfiles, formatProfileDiff, formatProfileTable, percentChange, ProfileModelError, profileTable, readTrial, resolveView, TrialBuilder, type ProfileDiff, type ProfileDiffRow, type TableRow, type Trial } from "../../index.js";

const POWERCAP = "../shared/data/tau/powercap";
const CAP50 = join(POWERCAP, "cap50_wrapped_lu8");
const CAP115 = join(POWERCAP, "cap115_wrapped_lu8");

/** A trial of one thread with `timers` (name, calls, exclusive, inclusive) under metrics TIME and PAPI_FP_OPS (10 per us). */
function trial(timers: [string, number, number, number][]): Trial {
  const b = new TrialBuilder({ metrics: ["TIME", "PAPI_FP_OPS"] });
  const t0 = b.addThread(0);
  for (const [name, calls, exclusive, inclusive] of timers) b.setValues(t0, b.timer(name, ["TAU_USER"]), { calls, exclusive: [exclusive, 10 * exclusive], inclusive: [inclusive, 10 * inclusive] });
  return b.build();
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(args, { out: (x) => (out += x), err: (x) => (err += x) });
  return { code, out, err };
}

describe("diffProfiles", () => {
  it("matches the timers of two real runs by name, each side's values its own profile table's", () => {
    const [a, b] = [readTrial(CAP50), readTrial(CAP115)];
    const d = diffProfiles(a, b);
    const ta = profileTable(a, resolveView(a, "mean"));
    const tb = profileTable(b, resolveView(b, "mean"));
    expect(d.rows).toHaveLength(new Set([...ta.rows, ...tb.rows].map((r) => r.name)).size);
    for (const r of d.rows) {
      expect(r.base).toEqual(ta.rows.find((x) => x.name === r.name));
      expect(r.other).toEqual(tb.rows.find((x) => x.name === r.name));
      expect(r.exclusiveChange).toBe((r.other?.exclusive ?? 0) - (r.base?.exclusive ?? 0));
      expect(r.inclusiveChange).toBe((r.other?.inclusive ?? 0) - (r.base?.inclusive ?? 0));
    }
    // Largest change of exclusive time first: the raised power cap made the run a third faster.
    const sizes = d.rows.map((r) => Math.abs(r.exclusiveChange));
    expect(sizes).toEqual([...sizes].sort((x, y) => y - x));
    expect(d.rows[0].name).toBe(".TAU application");
    expect([d.baseTotal, d.otherTotal]).toEqual([ta.rows[0].inclusive, tb.rows[0].inclusive]);
    expect(d.otherTotal / d.baseTotal).toBeCloseTo(0.655, 3);
    expect([d.metric, d.isTime, d.view, d.onlyInBase, d.onlyInOther]).toEqual(["TIME", true, "mean", 0, 0]);
    expect([d.baseThreads, d.otherThreads]).toEqual([a.threads.length, b.threads.length]);
  });

  it("gives a profile against itself no change, and keeps every row", () => {
    const a = readTrial(CAP50);
    const d = diffProfiles(a, a, { view: "3", callpaths: true, sort: "name" });
    expect(d.rows.every((r) => r.exclusiveChange === 0 && r.inclusiveChange === 0 && r.callsChange === 0)).toBe(true);
    expect(d.rows.map((r) => r.name)).toEqual(profileTable(a, resolveView(a, "3,0,0"), { callpaths: true, sort: "name" }).rows.map((r) => r.name));
  });

  it("counts a timer only one side has as 0 on the other, sorts by the change asked for, then by name", () => {
    const a = trial([["main", 1, 10, 100], ["solve", 4, 60, 60], ["io", 2, 30, 30]]);
    const b = trial([["main", 1, 10, 70], ["solve", 8, 40, 40], ["write", 1, 20, 20]]);
    const d = diffProfiles(a, b);
    expect(d.rows.map((r) => [r.name, r.exclusiveChange, r.inclusiveChange, r.callsChange])).toEqual([
      ["io", -30, -30, -2],
      ["solve", -20, -20, 4],
      ["write", 20, 20, 1],
      ["main", 0, -30, 0],
    ]);
    expect([d.rows[0].other, d.rows[2].base, d.onlyInBase, d.onlyInOther]).toEqual([undefined, undefined, 1, 1]);
    expect(diffProfiles(a, b, { sort: "calls" }).rows.map((r) => r.name)).toEqual(["solve", "io", "write", "main"]);
    expect(diffProfiles(a, b, { sort: "inclusive", top: 2 }).rows.map((r) => r.name)).toEqual(["io", "main"]);
    // A counter metric, by name in either case.
    const fp = diffProfiles(a, b, { metric: "papi_fp_ops" });
    expect([fp.metric, fp.isTime, fp.rows[0].exclusiveChange]).toEqual(["PAPI_FP_OPS", false, -300]);
  });

  it("names the profile that lacks the metric or the thread", () => {
    const a = trial([["main", 1, 10, 100]]);
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.setValues(b.addThread(0), b.timer("main", []), { calls: 1, exclusive: 1, inclusive: 1 });
    expect(() => diffProfiles(a, b.build(), { metric: "PAPI_FP_OPS" })).toThrow(new ProfileModelError("the other profile: no metric 'PAPI_FP_OPS'; the trial has TIME"));
    expect(() => diffProfiles(b.build(), a, { metric: "PAPI_FP_OPS" })).toThrow(/^the base profile: no metric 'PAPI_FP_OPS'/);
    expect(() => diffProfiles(a, a, { view: "1" })).toThrow(/^the base profile: no thread 1,0,0/);
    // With labels (the CLI's paths); the base's default metric, which the other lacks: the metrics both have.
    const c = new TrialBuilder({ metrics: ["PAPI_FP_OPS"] });
    c.setValues(c.addThread(0), c.timer("main", []), { calls: 1, exclusive: 1, inclusive: 1 });
    expect(() => diffProfiles(a, c.build(), { baseLabel: "run-a", otherLabel: "run-c" })).toThrow(new ProfileModelError("the other profile (run-c): no metric 'TIME'; the trial has PAPI_FP_OPS; both have PAPI_FP_OPS (--metric)"));
    expect(() => diffProfiles(a, b.build(), { view: "0,0,1", baseLabel: "run-a" })).toThrow(/^the base profile \(run-a\): no thread 0,0,1/);
  });

  it("takes each run's top-level inclusive value as show's %Time does: of the threads' own top-level timers, which may differ", () => {
    // Thread 0 runs under '.TAU application', thread 1 (an OpenMP thread) under 'worker' only.
    const two = (app: number, worker: number): Trial => {
      const b = new TrialBuilder({ metrics: ["TIME"] });
      const [t0, t1] = [b.addThread(0), b.addThread(0, 0, 1)];
      b.setValues(t0, b.timer(".TAU application", []), { calls: 1, exclusive: app, inclusive: app });
      b.setValues(t1, b.timer("worker", []), { calls: 1, exclusive: worker, inclusive: worker });
      return b.build();
    };
    const d = diffProfiles(two(100, 80), two(100, 40));
    // The mean of the threads' top-level values, (100 + 80) / 2 and (100 + 40) / 2, not the largest mean row (50 both).
    expect([d.baseTotal, d.otherTotal]).toEqual([90, 70]);
    expect(diffProfiles(two(100, 80), two(100, 40), { view: "total" })).toMatchObject({ baseTotal: 180, otherTotal: 140 });
    // A real OpenMP run: the heading's whole run is the value show's %Time divides by.
    const xgc = readTrial("../shared/data/tau/ppk/xgc.ppk");
    for (const view of ["mean", "total"]) {
      const t = profileTable(xgc, resolveView(xgc, view), { metric: "TIME" });
      const top = diffProfiles(xgc, xgc, { view, metric: "TIME" }).baseTotal;
      for (const r of t.rows.slice(0, 3)) expect((r.inclusive / top) * 100).toBeCloseTo(r.percent, 9);
    }
  });

  it("writes percent changes of the base, new, gone, from 0", () => {
    expect([percentChange(80, 100), percentChange(100, 80), percentChange(undefined, 5), percentChange(5, undefined), percentChange(0, 3), percentChange(0, 0)]).toEqual(["+25.0%", "-20.0%", "new", "gone", "from 0", ""]);
  });

  it("formats a table with both sides, the changes, '-' for what a side lacks, and the counts of new and gone timers", () => {
    const a = trial([["main", 1, 10, 100], ["solve", 4, 60, 60], ["io", 2, 30, 30]]);
    const b = trial([["main", 1, 10, 70], ["solve", 8, 40, 40], ["write", 1, 19.9996, 19.9996]]);
    const text = formatProfileDiff(diffProfiles(a, b), { baseLabel: "run-a", otherLabel: "run-b" });
    expect(text).toBe(
      [
        "base:  run-a (1 thread)",
        "other: run-b (1 thread)",
        "metric TIME (msec), mean over all threads; top-level inclusive 0.100 -> 0.070 (-30.0%)",
        "",
        "Excl base  Excl other  Excl change       %  Incl base  Incl other  Incl change       %  #Call base  #Call other  Name",
        "---------  ----------  -----------  ------  ---------  ----------  -----------  ------  ----------  -----------  ----",
        "    0.030           -       -0.030    gone      0.030           -       -0.030    gone           2            -  io",
        "    0.060       0.040       -0.020  -33.3%      0.060       0.040       -0.020  -33.3%           4            8  solve",
        "        -       0.020       +0.020     new          -       0.020       +0.020     new           -            1  write",
        "    0.010       0.010        0.000   +0.0%      0.100       0.070       -0.030  -30.0%           1            1  main",
        "",
        "1 timer only in the base (gone), 1 only in the other (new)",
        "",
      ].join("\n"),
    );
    // Microseconds to the nanosecond, three decimals each, so that the decimal points line up
    // (19.9996 us beside 10 us, not 20 beside 10 and 19.9996 beside 10).
    const us = formatProfileDiff(diffProfiles(a, b, { top: 2 }), { unit: "us" });
    expect(us).toMatch(/\n +30\.000 +- +-30\.000 +gone +30\.000 +- +-30\.000 +gone +2 +- +io\n +60\.000 +40\.000 +-20\.000 +-33\.3% .* solve\n/);
    expect(formatProfileDiff(diffProfiles(a, b, { sort: "name" }), { unit: "us" }).split("\n").slice(2, 10)).toEqual([
      "metric TIME (usec), mean over all threads; top-level inclusive 100.000 -> 70.000 (-30.0%)",
      "",
      "Excl base  Excl other  Excl change       %  Incl base  Incl other  Incl change       %  #Call base  #Call other  Name",
      "---------  ----------  -----------  ------  ---------  ----------  -----------  ------  ----------  -----------  ----",
      "   30.000           -      -30.000    gone     30.000           -      -30.000    gone           2            -  io",
      "   10.000      10.000        0.000   +0.0%    100.000      70.000      -30.000  -30.0%           1            1  main",
      "   60.000      40.000      -20.000  -33.3%     60.000      40.000      -20.000  -33.3%           4            8  solve",
      "        -      20.000      +20.000     new          -      20.000      +20.000     new           -            1  write",
    ]);
    // A change that rounds to 0 is 0.000, not -0.000.
    expect(formatProfileDiff(diffProfiles(trial([["main", 1, 10, 10]]), trial([["main", 1, 9.9999, 9.9999]])), { unit: "us" })).toMatch(/\n +10\.000 +10\.000 +0\.000 +-0\.0% /);
  });
});

describe("formatProfileDiff of counters", () => {
  it("writes large counts whole, fractional (a mean over threads) or not, so that a column and the heading use one notation", () => {
    const a = trial([["main", 1, 12345678901.25, 12345678901.25]]);
    const b = trial([["main", 1, 12345678902, 12345678902], ["io", 1, 0.0123, 0.0123]]);
    const text = formatProfileDiff(diffProfiles(a, b, { metric: "PAPI_FP_OPS" }));
    expect(text).toContain("metric PAPI_FP_OPS (counts), mean over all threads; top-level inclusive 123456789013 -> 123456789020 (+0.0%)\n");
    expect(text).toMatch(/\n *123456789013 +123456789020 +\+7\.5 +\+0\.0% +123456789013 +123456789020 +\+7\.5 +\+0\.0% +1 +1 +main\n/);
    // Small fractional counts keep 6 significant digits.
    expect(text).toMatch(/\n +- +0\.123 +\+0\.123 +new .* io\n/);
    // Mean calls over threads in the hundred thousands, whole as well.
    const c = new TrialBuilder({ metrics: ["TIME"] });
    for (const [n, calls] of [[0, 1234567], [1, 1234568]]) c.setValues(c.addThread(n), c.timer("MPI_Wait()", []), { calls, exclusive: 1, inclusive: 1 });
    expect(formatProfileDiff(diffProfiles(c.build(), c.build()))).toMatch(/ 1234568 +1234568 +MPI_Wait\(\)\n/);
  });
});

describe("profile diff of two views", () => {
  it("compares two threads of one profile, or a thread against the mean, with --other-thread", async () => {
    const cpi = "../shared/data/tau/hatchet-cpi-mpi";
    const t = readTrial(cpi);
    const d = diffProfiles(t, t, { view: "0", otherView: "3,0,0" });
    const [t0, t3] = [profileTable(t, resolveView(t, "0")), profileTable(t, resolveView(t, "3"))];
    expect([d.view, d.otherView]).toEqual(["0,0,0", "3,0,0"]);
    for (const r of d.rows) expect([r.base, r.other]).toEqual([t0.rows.find((x) => x.name === r.name), t3.rows.find((x) => x.name === r.name)]);
    expect(d.rows.some((r) => r.exclusiveChange !== 0)).toBe(true);
    const r = await run(["profile", "diff", cpi, cpi, "--thread", "0", "--other-thread", "mean", "--top", "1"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("metric TIME (msec), thread 0,0,0 against mean over all threads; top-level inclusive ");
    const bad = await run(["profile", "diff", cpi, cpi, "--other-thread", "rank3"]);
    expect([bad.code, bad.err]).toEqual([2, expect.stringMatching(/diff: unknown thread 'rank3'/)]);
  });
});

describe("profile diff as a call tree", () => {
  /** A trial of one thread: main calls solve (which calls io) and init; values are inclusive (exclusive the same). */
  function tree(values: [string[], number][]): Trial {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const t0 = b.addThread(0);
    for (const [path, v] of values) {
      const timer = path.length === 1 ? b.timer(path[0], ["TAU_USER"]) : b.callpath(path, ["TAU_CALLPATH"]);
      b.setValues(t0, timer, { calls: 1, exclusive: v, inclusive: v });
      if (path.length > 1) b.setValues(t0, b.timer(path[path.length - 1], ["TAU_USER"]), { calls: 1, exclusive: v, inclusive: v });
    }
    return b.build({ checkInvariants: false });
  }

  it("lists each callpath under its caller, depth first, siblings by their inclusive change", () => {
    const a = tree([[["main"], 100], [["main", "init"], 10], [["main", "solve"], 80], [["main", "solve", "io"], 20]]);
    const b = tree([[["main"], 130], [["main", "init"], 40], [["main", "solve"], 85], [["main", "solve", "io"], 30], [["main", "solve", "log"], 5]]);
    const d = diffProfiles(a, b, { tree: true });
    expect(d.tree).toBe(true);
    expect(d.rows.map((r) => [r.routine, r.depth, r.inclusiveChange])).toEqual([
      ["main", 0, 30],
      ["init", 1, 30],
      ["solve", 1, 5],
      ["io", 2, 10],
      ["log", 2, 5],
    ]);
    // Another key orders the siblings; --top counts the tree's lines.
    expect(diffProfiles(a, b, { tree: true, sort: "name", top: 3 }).rows.map((r) => r.routine)).toEqual(["main", "init", "solve"]);
    const text = formatProfileDiff(d);
    expect(text).toMatch(/\n.* main\n.*  init\n.*  solve\n.*    io\n.*    log\n/);
    // Flat profiles hold no call tree.
    expect(() => diffProfiles(trial([["main", 1, 1, 1]]), trial([["main", 1, 1, 1]]), { tree: true })).toThrow(/neither profile records callpaths/);
  });
});

describe("ccasim profile diff", () => {
  it("compares two real runs as a table and as JSON", async () => {
    const r = await run(["profile", "diff", CAP50, CAP115, "--top", "3", "--no-user-events"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`base:  ${CAP50} (27 threads)\nother: ${CAP115} (27 threads)\nmetric TIME (msec), mean over all threads; top-level inclusive 188421.598 -> 123450.626 (-34.5%)\n`);
    expect(r.out).toMatch(/\n *19085\.329 +9830\.571 +-9254\.758 +-48\.5% .* MPI_Allreduce\(\)\n/);
    expect(r.out.trimEnd().split("\n")).toHaveLength(3 + 3 + 3);
    const j = await run(["profile", "diff", CAP50, CAP115, "--json", "--sort", "name"]);
    const json = JSON.parse(j.out) as { base: string; other: string; metric: string; baseThreads: number; otherThreads: number; rows: { name: string; base: { calls: number } | null; exclusiveChange: number }[] };
    expect([json.base, json.other, json.metric, json.baseThreads, json.otherThreads]).toEqual([CAP50, CAP115, "TIME", 27, 27]);
    expect(json.rows[0].name).toBe(".TAU application");
    expect(json.rows.every((x) => x.base !== null)).toBe(true);
  });

  it("refuses what it cannot do, naming it", async () => {
    const cases: [string[], RegExp][] = [
      [["profile", "diff", CAP50], /diff: expected two profiles, the base and the other, got 1/],
      [["profile", "diff", CAP50, CAP115, "--sort", "size"], /--sort must be one of exclusive, inclusive, calls, name, got 'size'/],
      [["profile", "diff", CAP50, CAP115, "--unit", "s"], /--unit must be ms or us, got 's'/],
      [["profile", "diff", CAP50, CAP115, "--json", "--unit", "us"], /--unit shapes the table; --json writes microseconds/],
      [["profile", "diff", CAP50, CAP115, "--thread", "99"], new RegExp(`diff: the base profile \\(${CAP50}\\): no thread 99,0,0`)],
      [["profile", "diff", CAP50, CAP115, "--metric", "PAPI_TOT_CYC"], new RegExp(`diff: the base profile \\(${CAP50}\\): no metric 'PAPI_TOT_CYC'`)],
      [["profile", "diff", "../shared/data/tau/hatchet-cpi-mpi", CAP50, "--thread", "3,0,1"], /diff: the base profile \(\.\.\/shared\/data\/tau\/hatchet-cpi-mpi\): no thread 3,0,1; the trial has 4 threads/],
      [["profile", "diff", CAP50, "../shared/data/tau/hatchet-cpi-mpi", "--thread", "5"], /diff: the other profile \(\.\.\/shared\/data\/tau\/hatchet-cpi-mpi\): no thread 5,0,0/],
      // The base's default metric, which the other lacks: the message lists the metrics both have.
      [["profile", "diff", "../shared/data/tau/ppk/xgc.ppk", "../shared/data/tau/ppk/xgc-nosamples.ppk"], /diff: the other profile \(\.\.\/shared\/data\/tau\/ppk\/xgc-nosamples\.ppk\): no metric 'TIME'; the trial has PAPI_FP_INS, PAPI_TOT_CYC, PAPI_L1_DCM, PAPI_BR_MSP, PAPI_TOT_INS; both have PAPI_BR_MSP, PAPI_FP_INS, PAPI_L1_DCM, PAPI_TOT_INS \(--metric\)/],
      [["profile", "diff", CAP50, CAP115, "--snapshot", "0"], /a snapshot is chosen of a TAU XML profile only/],
      [["profile", "dif", CAP50, CAP115], /unknown subcommand 'dif' \(did you mean 'diff'\?\); expected show, diff or convert/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toMatch(message);
    }
  });
});

describe("tables of many rows", () => {
  // A row per timer of a deep callpath profile: some 200 000 rows once overflowed the call stack
  // when the column widths were taken by spreading every cell into Math.max.
  const N = 200_000;
  const row = (k: number): TableRow => ({ name: `t${k}`, percent: 1, exclusive: k, inclusive: 2 * k, calls: 1, subroutines: 0, inclusivePerCall: 2 * k });

  it("formats a diff of 200 000 timers, every column as wide as its widest cell", () => {
    const rows: ProfileDiffRow[] = Array.from({ length: N }, (_, k) => ({ name: `t${k}`, base: row(k), other: row(k + 1), exclusiveChange: 1, inclusiveChange: 2, callsChange: 0 }));
    const diff: ProfileDiff = { metric: "TIME", isTime: true, view: "mean", otherView: "mean", baseTotal: 1, otherTotal: 1, baseThreads: 1, otherThreads: 1, rows, tree: false, onlyInBase: 0, onlyInOther: 0 };
    const lines = formatProfileDiff(diff, { unit: "us" }).split("\n").slice(4, -1);
    expect(lines).toHaveLength(N + 2);
    // Every line's name starts in one column, after the widest cells ('399999.000' and 'Excl change').
    const nameAt = lines[0].length - "Name".length;
    expect(lines.slice(2).every((line, k) => line.length - `t${k}`.length === nameAt)).toBe(true);
    expect(lines[N + 1].startsWith(`${(N - 1).toFixed(3)}  ${N.toFixed(3)}`)).toBe(true);
  });

  it("formats a profile table of 200 000 timers", () => {
    const rows = Array.from({ length: N }, (_, k) => row(k));
    const text = formatProfileTable({ view: "0,0,0", metric: "TIME", isTime: false, rows }, {});
    expect(text.split("\n")).toHaveLength(N + 7);
  });
});
