import { describe, expect, it } from "vitest";
import { ModelRuntimeError } from "../../../scenarios/program/index.js";
import { programScenario, runText } from "./helpers.js";
import { callsOf, inclusiveOf } from "./trial-helpers.js";
import type { ProgramRunSummary } from "../../../scenarios/index.js";

const run = (program: unknown, opts: Parameters<typeof programScenario>[1] = {}, set: string[] = []) => runText(programScenario(program, opts), "compiled", set);

describe("program model semantics", () => {
  it("runs a for loop from..to inclusive by step, fixing the trip count at entry", () => {
    const art = run({ globals: { i: "int", s: "int" }, main: [{ for: "i", from: 2, to: 11, step: 3, do: [{ action: "A", code: "s = s + i", cost: "i" }] }, { action: "Z", cost: "s" }] }, { nodes: 1 });
    // i = 2, 5, 8, 11: A costs 26 us in 4 calls; Z costs the sum, 26.
    expect(callsOf(art.trial!, 0, "A")).toBe(4);
    expect(inclusiveOf(art.trial!, 0, "A")).toBe(26);
    expect(art.result.simulatedTime).toBe(52);
  });

  it("runs count loops zero times when the count is not positive", () => {
    const art = run({ globals: { i: "int" }, main: [{ for: "i", count: "np - 2", do: [{ action: "A", cost: 5 }] }, { action: "B", cost: 1 }] });
    expect(callsOf(art.trial!, 0, "A")).toBe(0);
    expect(art.result.simulatedTime).toBe(1);
  });

  it.each(["compiled", "interpreter"] as const)("leaves a for loop's variable one step past its last value, or at from when it ran none, as C and Fortran do (%s)", (evaluator) => {
    const p = {
      globals: { i: "int", j: "int", k: "int" },
      main: [
        { for: "i", from: 2, to: 11, step: 3, do: [{ action: "A", cost: 1 }] },
        { for: "j", count: 4, do: [{ action: "B", cost: 1 }] },
        { for: "k", from: 5, to: 1, do: [{ action: "C", cost: 1 }] },
        { action: "I", cost: "i" },
        { action: "J", cost: "j" },
        { action: "K", cost: "k" },
      ],
    };
    const art = runText(programScenario(p, { nodes: 1 }), evaluator);
    // i ran 2, 5, 8, 11 and ends at 14; j ran 0..3 and ends at 4; k ran none and is 5.
    expect([inclusiveOf(art.trial!, 0, "I"), inclusiveOf(art.trial!, 0, "J"), inclusiveOf(art.trial!, 0, "K")]).toEqual([14, 4, 5]);
    expect(callsOf(art.trial!, 0, "C")).toBe(0);
  });

  it.each(["compiled", "interpreter"] as const)("gives expressions the system parameters: nodes, processors per node (npn), processes, threads (%s)", (evaluator) => {
    const p = { threads: 2, main: [{ action: "A", cost: "1000 * npn + 100 * nodes + 10 * np + nt" }, { action: "B", cost: "node + pid + tid" }] };
    const art = runText(programScenario(p, { nodes: 3, ppn: 2 }), evaluator, ["machine.processorsPerNode=4"]);
    // 4 processors a node (the machine's, not the 2 processes placed on it), 3 nodes, 6 processes of 2 threads.
    expect(inclusiveOf(art.trial!, 0, "A")).toBe(4362);
    // Process 5 (node 2), thread 1: the trial's last thread.
    expect(inclusiveOf(art.trial!, art.trial!.threads.length - 1, "B")).toBe(2 + 5 + 1);
    expect(art.result.simulatedTime).toBe(4362 + 8);
  });

  it("stores C conversions: int truncates toward zero, bool is 0 or 1", () => {
    const art = run({ globals: { n: "int", f: "bool" }, main: [{ code: "n = -7 / 2; f = 5" }, { action: "A", cost: "(n + 10) * 10 + f" }] }, { nodes: 1 });
    expect(art.result.simulatedTime).toBe((-3 + 10) * 10 + 1);
  });

  it("re-initialises an activity's locals on every entry", () => {
    const art = run({
      globals: { k: "int" },
      activities: { Step: { locals: { c: { type: "int", init: 1 } }, do: [{ action: "A", code: "c = c + 1", cost: "c" }] } },
      main: [{ for: "k", count: 3, do: [{ activity: "Step" }] }],
    }, { nodes: 1 });
    expect(inclusiveOf(art.trial!, 0, "A")).toBe(6);
    expect(callsOf(art.trial!, 0, "Step")).toBe(3);
  });

  it("converts costs in the program's unit and an element's own unit", () => {
    const art = run({ costUnit: "ms", main: [{ action: "A", cost: 2 }, { action: "B", cost: 3, unit: "us" }] }, { nodes: 1 });
    expect(art.result.simulatedTime).toBe(2003);
  });

  it("fails with the element and process when a cost is negative", () => {
    expect(() => run({ main: [{ action: "A", cost: "pid - 1" }] })).toThrow(ModelRuntimeError);
    expect(() => run({ main: [{ action: "A", cost: "pid - 1" }] })).toThrow(/test\.yaml: program\.main\[0\]: cost of 'A' is -1 us on process 0/);
  });

  it("fails when a while loop runs past its bound", () => {
    const p = { globals: { w: "int" }, main: [{ while: "w >= 0", bound: 5, do: [{ code: "w = w + 1" }] }] };
    expect(() => run(p)).toThrow(/the while loop is still running after its bound of 5 iterations/);
  });

  it("runs threads of a process on its clock and funnels MPI through thread 0", () => {
    const art = run({ threads: 2, main: [{ action: "W", cost: "10 * (tid + 1)" }, { barrier: "B" }, { action: "V", cost: 1 }] }, { nodes: 2, ppn: 2 });
    const trial = art.trial!;
    expect(trial.threads.map((t) => `${t.node}.${t.thread}`)).toEqual(["0.0", "0.1", "1.0", "1.1", "2.0", "2.1", "3.0", "3.1"]);
    // Thread 1 skips the barrier: 20 + 1 us; thread 0 waits in the barrier.
    expect((art.summary as ProgramRunSummary).finishTimes).toHaveLength(8);
    expect((art.summary as ProgramRunSummary).finishTimes[1]).toBe(21);
    expect((art.summary as ProgramRunSummary).finishTimes[0]).toBeGreaterThan(11);
    expect(callsOf(trial, 1, "MPI_Barrier()")).toBe(0);
    expect(callsOf(trial, 0, "MPI_Barrier()")).toBe(1);
  });

  it("moves messages with isend, irecv and wait in a ring", () => {
    const art = run({
      main: [
        { irecv: "R", from: "mod(pid - 1 + np, np)", size: 1000, request: "r" },
        { isend: "S", to: "mod(pid + 1, np)", size: 1000, request: "s", cost: "pid * 100" },
        { wait: "W", requests: ["r", "s"] },
      ],
    }, { nodes: 3 });
    expect(art.result.unreceived).toEqual([]);
    // Process 0 waits for the message process 2 sends after 200 us of local work.
    expect(inclusiveOf(art.trial!, 0, "W")).toBeGreaterThan(200);
  });

  it("writes a Chrome trace with one complete event per element execution", () => {
    const art = run({ main: [{ action: "A", cost: 3 }, { allreduce: "R", size: 8, cost: "pid" }] }, { nodes: 2, trace: true });
    const trace = art.trace as { traceEvents: Array<Record<string, unknown>> };
    const x = trace.traceEvents.filter((e) => e.ph === "X");
    expect(x.map((e) => `${e.name}@${e.pid}/${e.tid}`)).toEqual(["A@0/0", "R@0/0", "A@1/1", "R@1/1"]);
    expect(x[0]).toMatchObject({ ts: 0, dur: 3, cat: "main" });
    expect(x[3].ts).toBe(3);
    expect(JSON.parse(JSON.stringify(trace)).traceEvents.some((e: Record<string, unknown>) => e.name === "thread_name")).toBe(true);
  });

  it("gives identical outputs for the same scenario and seed", () => {
    const p = { globals: { x: "double" }, main: [{ action: "A", code: "x = pid * 1.5", cost: "x + 1" }, { allreduce: "R", size: 64 }] };
    const a = run(p, { nodes: 3 });
    const b = run(p, { nodes: 3 });
    expect(JSON.stringify(a.summary)).toBe(JSON.stringify(b.summary));
  });
});

describe("scenarios/program-elements.yaml", () => {
  it("runs every element kind, with both evaluators agreeing", async () => {
    const { loadScenario } = await import("../../../scenarios/index.js");
    const { executeProgramScenario } = await import("../../../scenarios/program/index.js");
    const sc = loadScenario("scenarios/program-elements.yaml");
    const a = executeProgramScenario(sc, { evaluator: "compiled" });
    const b = executeProgramScenario(sc, { evaluator: "interpreter" });
    expect(a.result.simulatedTime).toBe(b.result.simulatedTime);
    // The residual falls by 4 per iteration from 1: below 1e-3 after 5 sweeps.
    expect(callsOf(a.trial!, 0, "Sweep")).toBe(5);
    expect(callsOf(a.trial!, 1, "Sweep")).toBe(5);
    expect(callsOf(a.trial!, 0, "MPI_Waitall()")).toBe(5);
    expect(callsOf(a.trial!, 1, "MPI_Waitall()")).toBe(0);
    expect(a.result.unreceived).toEqual([]);
  });
});
