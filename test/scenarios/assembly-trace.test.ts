import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { executeScenario, loadScenarioText, runScenario } from "../../scenarios/index.js";
import { MIXED_SCENARIO, tempDir } from "./fixtures.js";
import { callBefore, droppedFlows, perfettoFlowBindings } from "../profile/perfetto-model.js";

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts?: number;
  dur?: number;
  pid: number;
  tid: number;
  args: Record<string, unknown>;
}

/** The mixed assembly (2 nodes x 2 ranks, a halo exchange over MPI) with `outputs.trace: true`. */
function tracedRun(set: string[] = []) {
  return executeScenario(loadScenarioText(MIXED_SCENARIO, "mixed.yaml", { set: ["outputs.trace=true", ...set] }));
}

describe("the trace of an assembly run (outputs.trace)", () => {
  it("holds every call of every timer of every rank: the profile's calls and inclusive times, nested per rank", () => {
    const art = tracedRun();
    const trial = art.trial!;
    const events = (JSON.parse(JSON.stringify(art.trace)) as { traceEvents: TraceEvent[]; otherData: object }).traceEvents;
    // Calls that took time are slices, those that took none (MPI_Isend, MPI_Irecv) instants.
    const calls = events.filter((e) => e.ph === "X" || e.ph === "i");
    expect(calls.filter((e) => e.ph === "i").every((e) => e.dur === undefined && (e as unknown as { s: string }).s === "t")).toBe(true);
    expect(calls.some((e) => e.ph === "i") && calls.some((e) => e.ph === "X")).toBe(true);
    // Ranks by node (block placement: ranks 0, 1 on node 0), each its own row.
    const meta = events.filter((e) => e.ph === "M" && e.name.endsWith("_name")).map((e) => [e.name, e.pid, e.tid, e.args.name]);
    expect(meta).toEqual([
      ["process_name", 0, 0, "node 0"],
      ["process_name", 1, 0, "node 1"],
      ["thread_name", 0, 0, "rank 0"],
      ["thread_name", 0, 1, "rank 1"],
      ["thread_name", 1, 2, "rank 2"],
      ["thread_name", 1, 3, "rank 3"],
    ]);
    let compared = 0;
    for (let th = 0; th < trial.threads.length; th++) {
      const rank = trial.threads[th]!.node;
      for (const timer of trial.timers) {
        if (timer.name.includes(" => ") || !trial.has(th, timer.index)) continue;
        const mine = calls.filter((e) => e.tid === rank && e.name === timer.name);
        expect(mine.length, `${timer.name} on rank ${rank}`).toBe(trial.calls(th, timer.index));
        const total = mine.reduce((a, e) => a + (e.dur ?? 0), 0);
        // Times are whole nanoseconds: each call's length is within 1 ns (0.001 us) of the profile's.
        expect(Math.abs(total - trial.inclusive(0, th, timer.index))).toBeLessThanOrEqual(0.001 * mine.length + 1e-9);
        for (const e of mine) expect([e.pid, e.cat, e.args.rank]).toEqual([rank < 2 ? 0 : 1, timer.groups.join("|"), rank]);
        compared++;
      }
      // Nested as the profile's callpaths: the slices, read in file order, each lie within the
      // one that encloses them, and the slices along each path are the callpath timer's calls
      // that took time (all of them for a timer with no instant).
      const stack: TraceEvent[] = [];
      const paths = new Map<string, number>();
      const instants = new Set(calls.filter((c) => c.tid === rank && c.ph === "i").map((c) => c.name));
      for (const e of calls.filter((c) => c.tid === rank && c.ph === "X")) {
        // In whole nanoseconds, as viewers read the times.
        const ns = (us: number): number => Math.round(us * 1000);
        const end = (x: TraceEvent): number => ns(x.ts!) + ns(x.dur!);
        while (stack.length > 0 && ns(e.ts!) >= end(stack[stack.length - 1]!)) stack.pop();
        if (stack.length > 0) expect(end(e)).toBeLessThanOrEqual(end(stack[stack.length - 1]!));
        stack.push(e);
        const path = stack.map((x) => x.name).join(" => ");
        paths.set(path, (paths.get(path) ?? 0) + 1);
      }
      const callpaths = trial.timers.filter((t) => t.name.includes(" => ") && trial.has(th, t.index));
      expect(callpaths.length).toBeGreaterThanOrEqual(6);
      for (const t of callpaths) {
        const leaf = t.name.slice(t.name.lastIndexOf(" => ") + 4);
        if (instants.has(leaf)) expect(paths.get(t.name) ?? 0, t.name).toBeLessThanOrEqual(trial.calls(th, t.index));
        else expect(paths.get(t.name), t.name).toBe(trial.calls(th, t.index));
      }
      for (const path of paths.keys()) expect(callpaths.some((t) => t.name === path) || !path.includes(" => "), path).toBe(true);
    }
    // Components, MPI calls and the application timer, on every rank.
    expect(compared).toBeGreaterThanOrEqual(4 * 6);
    expect(new Set(calls.map((e) => e.cat))).toEqual(new Set(["TAU_DEFAULT", "CCA_COMPONENT", "MPI"]));
    expect(calls.filter((e) => e.name === ".TAU application").map((e) => e.ts)).toEqual([0, 0, 0, 0]);
  });

  it("shows every message of the program as a flow from its send to its receive's completion", () => {
    const art = tracedRun();
    const events = (JSON.parse(JSON.stringify(art.trace)) as { traceEvents: (TraceEvent & { id?: number; bp?: string })[] }).traceEvents;
    const starts = events.filter((e) => e.ph === "s");
    const ends = events.filter((e) => e.ph === "f");
    const trial = art.trial!;
    const isend = trial.timer("MPI_Isend()").index;
    const sent = trial.threads.reduce((a, _t, th) => a + trial.calls(th, isend), 0);
    // 4 ranks x 4 steps x 3 neighbours (a 2 x 2 grid with corners).
    expect(sent).toBe(48);
    expect(starts).toHaveLength(sent);
    expect(ends).toHaveLength(sent);
    // In Perfetto's reading, each message leaves the MPI_Isend that sent it and arrives in the
    // call its receive completed in (the event just before its end in the file, on its rank):
    // none is dropped, its end read before its start.
    const bindings = perfettoFlowBindings(events as never);
    expect(droppedFlows(events as never)).toBe(0);
    expect(new Set(starts.map((e) => e.id))).toEqual(new Set(ends.map((e) => e.id)));
    const ns = (us: number): number => Math.round(us * 1000);
    let late = 0;
    for (const s of starts) {
      const k = s.id!;
      const f = ends.find((e) => e.id === k)!;
      expect([s.name, f.name, s.cat, f.cat, f.bp]).toEqual(["message", "message", "flow", "flow", "e"]);
      expect(f.tid).not.toBe(s.tid);
      expect([s.pid, f.pid]).toEqual([s.tid < 2 ? 0 : 1, f.tid < 2 ? 0 : 1]);
      const sender = callBefore(events, s)!;
      const receiver = callBefore(events, f)!;
      expect([sender.name, sender.tid, sender.ts]).toEqual(["MPI_Isend()", s.tid, s.ts]);
      expect(receiver.tid).toBe(f.tid);
      // The end is at the send time if the receiving call had begun by then (a late sender),
      // else at the call's start; 1 ns later when that is the start's time and the start is
      // written after it (on a later rank), so that Perfetto reads the start first.
      const at = Math.max(ns(receiver.ts!), ns(f.args.sent as number));
      expect(ns(f.ts!)).toBe(at === ns(s.ts!) && events.indexOf(s) > events.indexOf(f) ? at + 1 : at);
      if (ns(receiver.ts!) < ns(s.ts!)) late++;
      expect(bindings.get(k)).toEqual(["MPI_Isend()", receiver.name]);
      expect(f.args.bytes).toBeGreaterThan(0);
    }
    // Most messages arrive while their receiver waits for them, some sent after it began waiting.
    expect([...bindings.values()].filter(([, to]) => to === "MPI_Waitsome()").length).toBeGreaterThan(sent / 2);
    expect(late).toBeGreaterThan(0);
  });

  it("loses no message in Perfetto's reading of a longer halo exchange with late senders (8 ranks, 50 steps)", () => {
    const art = tracedRun(["workload.steps=50", "machine.nodes=4"]);
    const events = (JSON.parse(JSON.stringify(art.trace)) as { traceEvents: TraceEvent[] }).traceEvents;
    const ends = events.filter((e) => e.ph === "f");
    expect(ends).toHaveLength(1600);
    expect(droppedFlows(events as never)).toBe(0);
    const bindings = perfettoFlowBindings(events as never);
    for (const f of ends) expect(bindings.get((f as { id?: number }).id!)![1]).toBe(callBefore(events, f).name);
  });

  it("is written as trace.json, byte-identical for the same seed, and not at all without measurement", () => {
    const dir = tempDir();
    const file = join(dir, "mixed.yaml");
    writeFileSync(file, MIXED_SCENARIO + "outputs: { trace: true }\n");
    runScenario(file, { out: join(dir, "a") });
    runScenario(file, { out: join(dir, "b") });
    const a = readFileSync(join(dir, "a", "trace.json"));
    expect(a.equals(readFileSync(join(dir, "b", "trace.json")))).toBe(true);
    expect((JSON.parse(a.toString()) as { otherData: object }).otherData).toEqual({ ccasim: "assembly trace", scenario: "mixed" });
    runScenario(file, { out: join(dir, "c"), measure: false });
    expect(existsSync(join(dir, "c", "summary.json"))).toBe(true);
    expect(existsSync(join(dir, "c", "trace.json"))).toBe(false);
  });

  it("is kept only when outputs.trace asks for it, and not by a caller that writes none (a sweep point)", () => {
    const art = executeScenario(loadScenarioText(MIXED_SCENARIO, "mixed.yaml"));
    expect(art.trace).toBeUndefined();
    const asked = loadScenarioText(MIXED_SCENARIO, "mixed.yaml", { set: ["outputs.trace=true"] });
    expect(executeScenario(asked, { trace: false }).trace).toBeUndefined();
    expect(executeScenario(asked, { trace: false }).result.measurement!.trace).toBeUndefined();
  });
});
