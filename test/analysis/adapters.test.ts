import { describe, expect, it } from "vitest";
import {
  TrialBuilder,
  observationsFromRecords,
  RecordObservations,
  observationsAcrossTrials,
  callTreeFromTrial,
  callTreesPerThread,
  pruneCallGraph,
  fitModels,
  selectImplementations,
  timerOf,
  trialParameter,
  AnalysisInputError,
  type Assembly,
  type InvocationRecord,
} from "../../index.js";

const record = (component: string, x: number, wall: number): InvocationRecord => ({
  component,
  port: "work",
  method: "run",
  rank: 0,
  parameters: { x },
  start: 0,
  wallTime: wall,
  mpiTime: 0,
  computeTime: wall,
  counters: { PAPI_TOT_CYC: wall * 2800 },
});

describe("adapters from the profile data model", () => {
  it("fits records of each implementation and selects with the fitted models (paper 002's pipeline)", () => {
    const xs = [0.5, 1, 1.5, 2.5, 3, 4];
    const recs = [
      ...xs.map((x) => record("A1", x, 2 * x)),
      ...xs.map((x) => record("A2", x, x * x)),
      ...xs.map((x) => record("B1", x, x ** 3)),
      ...xs.map((x) => record("B2", x, 2 * x * x)),
    ];
    const model = (c: string) => fitModels(observationsFromRecords(recs, { component: c, parameter: "x" }), { variable: "x" }).mean;
    const asm: Assembly = {
      components: [
        { name: "A", implementations: [{ name: "A1", mean: model("A1") }, { name: "A2", mean: model("A2") }] },
        { name: "B", implementations: [{ name: "B1", mean: model("B1").expression }, { name: "B2", mean: model("B2").expression }] },
      ],
      callGraph: { component: "A", children: [{ component: "B" }] },
    };
    expect(selectImplementations(asm, { x: 1.5 }).optimum.assignment).toEqual({ A: "A2", B: "B1" });
    expect(selectImplementations(asm, { x: 3 }).optimum.assignment).toEqual({ A: "A1", B: "B2" });
    const cyc = observationsFromRecords(recs, { component: "A1", parameter: "x", value: "PAPI_TOT_CYC" });
    expect(cyc.t[1]).toBe(2 * 2800);
    expect(() => observationsFromRecords(recs, { component: "Z", parameter: "x" })).toThrow(AnalysisInputError);
    // Pooled records: none has y, so the component methods and their parameters are listed.
    expect(() => observationsFromRecords(recs, { parameter: "y" })).toThrow(/no record matching .* has a numeric parameter 'y'; the records' component methods and their parameters: A1\.run \(x\), A2\.run \(x\)/);
    expect(() => observationsFromRecords(recs, { component: "A1", method: "run", parameter: "y" })).toThrow(/no numeric parameter 'y'/);
    expect(() => observationsFromRecords([...recs, record("A1", 5, -4)], { component: "A1", parameter: "x" })).toThrow(/record \d+ \(A1\.run\) has a negative wallTime \(-4\): times and counter values cannot be negative/);
  });

  it("collects Q and T record by record past its first capacity, and counts the records it saw", () => {
    const recs = Array.from({ length: 3000 }, (_, i) => record(i % 2 ? "A1" : "B1", 1 + (i % 9), i));
    const collect = new RecordObservations({ component: "A1", parameter: "x" });
    for (const r of recs) collect.add(r);
    const kept = recs.filter((r) => r.component === "A1");
    const o = collect.observations();
    expect([...o.q]).toEqual(kept.map((r) => r.parameters.x));
    expect([...o.t]).toEqual(kept.map((r) => r.wallTime));
    expect([o.qLabel, o.tLabel]).toEqual(["x", "wallTime of A1"]);
    const none = new RecordObservations({ component: "Z", parameter: "x" });
    for (const r of recs.slice(0, 10)) none.add(r);
    expect(() => none.observations()).toThrow(/no record matches component=Z port=\* method=\* \(of 10 records\)/);
  });

  it("takes the record files' and the study's column names as value names, and lists the valid ones", () => {
    const recs = [1, 2, 3].map((x) => ({ ...record("A1", x, 10 * x), mpiTime: x, computeTime: 9 * x }));
    const t = (value: string): number[] => [...observationsFromRecords(recs, { parameter: "x", value }).t];
    for (const alias of ["wallTime", "wall_time", "wall_time [us]", " wall_time "]) expect(t(alias), alias).toEqual([10, 20, 30]);
    for (const alias of ["mpiTime", "mpi_time", "mpi_time [us]"]) expect(t(alias), alias).toEqual([1, 2, 3]);
    for (const alias of ["computeTime", "compute_time", "compute_time [us]"]) expect(t(alias), alias).toEqual([9, 18, 27]);
    for (const alias of ["PAPI_TOT_CYC", "counter:PAPI_TOT_CYC", "counter:PAPI_TOT_CYC [count]"]) expect(t(alias), alias).toEqual([28000, 56000, 84000]);
    expect(observationsFromRecords(recs, { parameter: "x", value: "wall_time [us]" }).tLabel).toBe("wallTime");
    expect(() => t("wall_tme")).toThrow(
      "record 1 (A1.run) has no value 'wall_tme' (did you mean 'wall_time'?); values: wallTime (wall_time [us]), computeTime (compute_time [us]), " +
        "mpiTime (mpi_time [us]), counters PAPI_TOT_CYC (counter:PAPI_TOT_CYC [count])",
    );
  });

  it("names a bad record by its position in its input, the first being 1", () => {
    const recs = [1, 2, 3].map((x) => record("A1", x, 10 * x));
    recs[2] = { ...recs[2], wallTime: -1 };
    expect(() => observationsFromRecords(recs, { parameter: "x" })).toThrow(/^record 3 \(A1\.run\) has a negative wallTime \(-1\)/);
  });

  it("keeps only the records whose parameters have the values asked for, as text or number", () => {
    const recs = [1, 2, 3, 4].flatMap((x) =>
      ["sequential", "strided"].map((mode, k) => ({ ...record("SC", x, 10 * x + k), parameters: { x, mode, level: String(x % 2) } })),
    );
    const strided = observationsFromRecords(recs, { parameter: "x", where: { mode: "strided" } });
    expect([...strided.t]).toEqual([11, 21, 31, 41]);
    // A number matches a numeric text and the other way round ("1", "1.0" and 1 alike).
    expect([...observationsFromRecords(recs, { parameter: "x", where: { level: 1, mode: "sequential" } }).t]).toEqual([10, 30]);
    expect([...observationsFromRecords(recs, { parameter: "x", where: { x: "2.0" } }).t]).toEqual([20, 21]);
    expect(() => observationsFromRecords(recs, { parameter: "x", where: { mode: "diagonal" } })).toThrow("no record matches component=* port=* method=* where mode=diagonal (of 8 records)");
    expect(() => observationsFromRecords(recs, { parameter: "x", where: { mdoe: "strided" } })).toThrow(
      "the records have no parameter 'mdoe' (did you mean 'mode'?) (parameters: x, mode, level)",
    );
  });

  it("names the component methods whose records were pooled", () => {
    const recs = [1, 2, 3].flatMap((x) => [record("A", x, x), { ...record("A", x, x), method: "setup" }, record("B", x, x)]);
    expect(observationsFromRecords(recs, { parameter: "x" }).sources).toEqual(["A.run", "A.setup", "B.run"]);
    expect(observationsFromRecords(recs, { parameter: "x", component: "A", method: "run" }).sources).toEqual(["A.run"]);
  });

  it("reads a timer and a user event across trials, with Q from metadata", () => {
    const trials = [64, 128, 256, 512].map((size) => {
      const b = new TrialBuilder({ metrics: ["TIME"] });
      b.setMetadata("problem size", String(size));
      const th = b.addThread(0);
      const main = b.timer("int main(int, char **) C [{main.c} {1,1}]");
      b.setValues(th, main, { calls: 1, exclusive: [size * 3], inclusive: [size * 3] });
      const ev = b.userEvent("Message size");
      b.addEventSample(th, ev, size * 8);
      b.addEventSample(th, ev, size * 8);
      return b.build();
    });
    const t = observationsAcrossTrials(trials, { parameter: { metadata: "problem size" }, timer: "main" });
    expect([...t.q]).toEqual([64, 128, 256, 512]);
    expect([...t.t]).toEqual([192, 384, 768, 1536]);
    const e = observationsAcrossTrials(trials, { parameter: { metadata: "problem size" }, userEvent: "Message size" });
    expect([...e.t]).toEqual([512, 1024, 2048, 4096]);
    // A user event on one thread, by index or TAU name; derived views it does not keep are refused.
    expect([...observationsAcrossTrials(trials, { parameter: { metadata: "problem size" }, userEvent: "Message size", view: { node: 0, context: 0, thread: 0 } }).t]).toEqual([512, 1024, 2048, 4096]);
    expect(() => observationsAcrossTrials(trials, { parameter: { metadata: "problem size" }, userEvent: "Message size", view: { node: 1, context: 0, thread: 0 } })).toThrow("no thread 1,0,0; the trial has 1 thread (0,0,0)");
    expect(() => observationsAcrossTrials(trials, { parameter: { metadata: "problem size" }, userEvent: "Message size", view: "max" })).toThrow(/not on 'max'/);
    expect(() => observationsAcrossTrials(trials, { parameter: { metadata: "nope" }, timer: "main" })).toThrow("metadata 'nope' is missing");
    // A value that is there but no number is shown (a unit after it, as TAU writes "Cache Size").
    const kb = new TrialBuilder({ metrics: ["TIME"] });
    kb.setMetadata("Cache Size", "20480 KB");
    const kth = kb.addThread(0);
    kb.setValues(kth, kb.timer("main"), { calls: 1, exclusive: [1], inclusive: [1] });
    expect(() => observationsAcrossTrials([kb.build()], { parameter: { metadata: "Cache Size" }, timer: "main" })).toThrow(`metadata 'Cache Size' is "20480 KB", not a number`);
    // A key each thread has with its own value is there, but is no value of the trial.
    const core = new TrialBuilder({ metrics: ["TIME"] });
    for (const node of [0, 1]) {
      const th = core.addThread(node);
      core.setThreadMetadata(th, "CRAY_CORE_ID", String(16 + node));
      core.setValues(th, core.timer("main"), { calls: 1, exclusive: [1], inclusive: [1] });
    }
    expect(() => observationsAcrossTrials([core.build()], { parameter: { metadata: "CRAY_CORE_ID" }, timer: "main" })).toThrow(
      `metadata 'CRAY_CORE_ID' is not the trial's but each thread's own (0,0,0: "16", 1,0,0: "17"): it gives no one value of the trial`,
    );
    expect(() => timerOf(trials[0]!, "ma")).not.toThrow();
    expect(() => timerOf(trials[0]!, "zzz")).toThrow(AnalysisInputError);
  });

  it("reads Q from a trial's path only where the pattern's group holds a number", () => {
    const at = (source: string) => new TrialBuilder({ metrics: ["TIME"], source }).build();
    expect(trialParameter(at("runs/cap50_x"), { sourcePattern: /cap(\d+)/ })).toBe(50);
    expect(trialParameter(at("runs/size1.5e3"), { sourcePattern: /size([\d.e]+)/ })).toBe(1500);
    // A group that matched nothing read as Q = 0.
    expect(() => trialParameter(at("runs/cap_x"), { sourcePattern: /cap(\d*)/ })).toThrow("runs/cap_x: source path does not match /cap(\\d*)/ with a number in its first group");
    expect(() => trialParameter(at("runs/n0x10"), { sourcePattern: /n(\w+)/ })).toThrow(AnalysisInputError);
  });

  it("names a user event found by a part of its name in full, and refuses a part that finds different events", () => {
    const trial = (size: number, events: readonly string[]) => {
      const b = new TrialBuilder({ metrics: ["TIME"], source: `run-${size}` });
      b.setMetadata("problem size", String(size));
      const th = b.addThread(0);
      for (const name of events) b.addEventSample(th, b.userEvent(name), size);
      return b.build();
    };
    const same = [1, 2, 3].map((n) => trial(n, ["Message size for all-reduce", "Message size for broadcast"]));
    const e = observationsAcrossTrials(same, { parameter: { metadata: "problem size" }, userEvent: "all-reduce" });
    expect([e.tLabel, e.quantity?.name]).toEqual(["Message size for all-reduce", "Message size for all-reduce"]);
    // 'reduce' is a part of one event name in each trial: 'all-reduce' in one, 'reduce' in the other.
    const mixed = [trial(1, ["Message size for all-reduce"]), trial(2, ["Message size for reduce", "Message size for broadcast"])];
    expect(() => observationsAcrossTrials(mixed, { parameter: { metadata: "problem size" }, userEvent: "reduce" })).toThrow(
      "'reduce' is the user event 'Message size for all-reduce' in run-1 but 'Message size for reduce' here",
    );
  });

  it("fits one routine across builds whose source lines differ, and refuses a name that finds different routines", () => {
    const trial = (size: number, timer: string) => {
      const b = new TrialBuilder({ metrics: ["TIME"] });
      b.setMetadata("problem size", String(size));
      const th = b.addThread(0);
      b.setValues(th, b.timer(timer), { calls: 1, exclusive: [size], inclusive: [size] });
      return b.build();
    };
    const moved = [trial(64, "void solve() C [{solve.c} {10,1}-{40,1}]"), trial(128, "void solve() C [{solve.c} {12,1}-{44,1}]")];
    expect([...observationsAcrossTrials(moved, { parameter: { metadata: "problem size" }, timer: "solve" }).t]).toEqual([64, 128]);
    const other = [trial(64, "void solve() C [{solve.c} {10,1}-{40,1}]"), trial(128, "void solve_fast() C [{solve.c} {10,1}-{40,1}]")];
    expect(() => observationsAcrossTrials(other, { parameter: { metadata: "problem size" }, timer: "solve" })).toThrow("give a name that finds the same timer in every trial");
  });

  it("builds call trees from a trial's callpaths per thread and on the max over threads", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const t0 = b.addThread(0);
    const t1 = b.addThread(1);
    const root = b.timer("main");
    const a = b.timer("a");
    const c = b.timer("c");
    const ra = b.callpath(["main", "a"]);
    const rc = b.callpath(["main", "c"]);
    for (const [th, ta, tc] of [[t0, 90, 1], [t1, 10, 80]] as const) {
      b.setValues(th, root, { calls: 1, exclusive: [5], inclusive: [5 + ta + tc] });
      b.setValues(th, a, { calls: 1, exclusive: [ta], inclusive: [ta] });
      b.setValues(th, c, { calls: 1, exclusive: [tc], inclusive: [tc] });
      b.setValues(th, ra, { calls: 1, exclusive: [ta], inclusive: [ta] });
      b.setValues(th, rc, { calls: 1, exclusive: [tc], inclusive: [tc] });
    }
    const trial = b.build();
    expect(pruneCallGraph(callTreeFromTrial(trial, { view: 0 }).root).coreNames).toEqual(["main", "a"]);
    expect(pruneCallGraph(callTreeFromTrial(trial, { view: 1 }).root).coreNames).toEqual(["main", "a", "c"]);
    expect(pruneCallGraph(callTreeFromTrial(trial, { view: "max" }).root).coreNames).toEqual(["main", "a", "c"]);
    expect(() => callTreeFromTrial(trial, { view: 7 })).toThrow("no thread with index 7; the trial has 2 threads (0,0,0 .. 1,0,0)");
    // A thread by its TAU name is the same view as by its index.
    expect(callTreeFromTrial(trial, { view: { node: 1, context: 0, thread: 0 } })).toEqual(callTreeFromTrial(trial, { view: 1 }));
    expect(() => callTreeFromTrial(trial, { view: { node: 0, context: 0, thread: 3 } })).toThrow("no thread 0,0,3; the trial has 2 threads (0,0,0 .. 1,0,0)");
    expect(() => callTreeFromTrial(trial, { metric: "PAPI_X" })).toThrow(/no metric 'PAPI_X'/);
    expect(() => callTreeFromTrial(trial, { metric: "TIMES" })).toThrow("no metric 'TIMES' (did you mean 'TIME'?); the trial has TIME");
  });

  it("names the trial and the thread of a timer with a negative value, in every view", () => {
    const b = new TrialBuilder({ metrics: ["TIME"], source: "runs/p" });
    const t0 = b.addThread(0);
    const t1 = b.addThread(1);
    const root = b.timer("main");
    const a = b.timer("a");
    const ra = b.callpath(["main", "a"]);
    for (const [th, ea] of [[t0, 20], [t1, -1]] as const) {
      b.setValues(th, root, { calls: 1, exclusive: [5], inclusive: [25] });
      b.setValues(th, a, { calls: 1, exclusive: [20], inclusive: [20] });
      b.setValues(th, ra, { calls: 1, exclusive: [ea], inclusive: [20] });
    }
    const trial = b.build();
    const message = "runs/p: thread 1,0,0: timer 'main => a' has invalid values (inclusive 20, exclusive -1)";
    for (const view of [1, "mean", "max"] as const) expect(() => callTreeFromTrial(trial, { view })).toThrow(message);
    expect(() => callTreesPerThread(trial)).toThrow(message);
  });
});
