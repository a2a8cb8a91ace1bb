import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ChromeTrace, TraceRecorder } from "../../../scenarios/program/trace.js";
import type { ProgramModel } from "../../../scenarios/program/model.js";
import { readFileSync } from "node:fs";
import { callBefore, droppedFlows, perfettoFlowBindings } from "../../profile/perfetto-model.js";

/** The fields of a program model a trace reads: 2 nodes, `processes` processes of `threads` threads, 3 elements. */
function model(processes: number, threads: number): ProgramModel {
  return {
    nodes: 2,
    processes,
    threads,
    processToNode: Int32Array.from({ length: processes }, (_, p) => p % 2),
    elements: [
      { name: "A", diagram: "main", kind: "action" },
      { name: 'quote " and \\ backslash', diagram: "main", kind: "activity" },
      { name: "R", diagram: "inner", kind: "allreduce" },
    ],
  } as unknown as ProgramModel;
}

/** Element intervals: each thread runs `n` elements back to back, some nested in the one before. */
function record(m: ProgramModel, n: number, seed: number): TraceRecorder {
  const uids = m.processes * m.threads;
  const rec = new TraceRecorder();
  let x = seed;
  for (let uid = 0; uid < uids; uid++) {
    let t = 0.5 * uid;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      rec.begin(uid, t);
      if (x % 3 === 0) {
        rec.begin(uid, t + 0.25);
        rec.end(uid, 2, t + 0.75);
      }
      t += 1 + (x % 7) / 3;
      rec.end(uid, x % 2, t);
    }
  }
  return rec;
}

/** Runs `writeTo`, returning its pieces. */
function pieces(trace: ChromeTrace): string[] {
  const out: string[] = [];
  trace.writeTo((s) => out.push(s));
  return out;
}

describe("ChromeTrace", () => {
  it("writes exactly the text JSON.stringify gives of the trace object", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 0, max: 20 }), fc.nat(), (processes, threads, n, seed) => {
        const m = model(processes, threads);
        const trace = new ChromeTrace(record(m, n, seed), m, "s");
        const text = pieces(trace).join("");
        expect(text).toBe(JSON.stringify(trace));
        expect(text).toBe(JSON.stringify(record(m, n, seed).toChromeTrace(m, "s")));
        const parsed = JSON.parse(text) as { traceEvents: { ph: string }[] };
        // 2 metadata events per node and per thread, then one X event per interval.
        expect(parsed.traceEvents.filter((e) => e.ph === "X")).toHaveLength(trace.traceEvents.length - 2 * 2 - 2 * processes * threads);
      }),
      { numRuns: 50, seed: 3 },
    );
  });

  it("writes the events of a small trace exactly as Chrome's trace-event format lays them out", () => {
    const m = model(1, 2);
    const rec = new TraceRecorder();
    rec.begin(1, 0.5);
    rec.end(1, 2, 2);
    rec.begin(0, 0);
    rec.end(0, 0, 1.25);
    const text = pieces(new ChromeTrace(rec, m, "tiny")).join("");
    const meta = (name: string, pid: number, tid: number, args: string) => `{"name":"${name}","ph":"M","pid":${pid},"tid":${tid},"args":{${args}}}`;
    expect(text).toBe(
      '{"traceEvents":[' +
        [
          meta("process_name", 0, 0, '"name":"node 0"'),
          meta("process_sort_index", 0, 0, '"sort_index":0'),
          meta("process_name", 1, 0, '"name":"node 1"'),
          meta("process_sort_index", 1, 0, '"sort_index":1'),
          meta("thread_name", 0, 0, '"name":"process 0 thread 0"'),
          meta("thread_sort_index", 0, 0, '"sort_index":0'),
          meta("thread_name", 0, 1, '"name":"process 0 thread 1"'),
          meta("thread_sort_index", 0, 1, '"sort_index":1'),
          '{"name":"A","cat":"main","ph":"X","ts":0,"dur":1.25,"pid":0,"tid":0,"args":{"kind":"action","process":0,"thread":0}}',
          '{"name":"R","cat":"inner","ph":"X","ts":0.5,"dur":1.5,"pid":0,"tid":1,"args":{"kind":"allreduce","process":0,"thread":1}}',
        ].join(",") +
        '],"displayTimeUnit":"ms","otherData":{"ccasim":"program model trace","scenario":"tiny"}}',
    );
  });

  it("hands a large trace over in pieces of about 64 Ki characters that join to the whole text", () => {
    const m = model(4, 1);
    const trace = new ChromeTrace(record(m, 8000, 7), m, "big");
    const out = pieces(trace);
    expect(out.length).toBeGreaterThan(1);
    for (const p of out) expect(p.length).toBeLessThan((1 << 16) + 1000);
    expect(out.join("")).toBe(JSON.stringify(trace));
  });
});

describe("a program model's trace, run", () => {
  it("shows each message between processes as a flow between their threads 0, one per send", async () => {
    const { executeScenario, loadScenario } = await import("../../../scenarios/index.js");
    const art = executeScenario(loadScenario("scenarios/program-elements.yaml"));
    const trial = art.trial!;
    const threads = art.scenario.program!.threads;
    expect(threads).toBe(2);
    const events = (JSON.parse(JSON.stringify(art.trace)) as { traceEvents: { name: string; ph: string; ts: number; tid: number; pid: number; id?: number }[] }).traceEvents;
    const starts = events.filter((e) => e.ph === "s");
    const ends = events.filter((e) => e.ph === "f");
    const sends = ["MPI_Send()", "MPI_Isend()"].map((n) => trial.findTimer(n)).filter((t) => t !== undefined);
    const sent = sends.reduce((a, t) => a + trial.threads.reduce((b, _x, th) => b + trial.calls(th, t!.index), 0), 0);
    expect(sent).toBeGreaterThan(0);
    expect(starts).toHaveLength(sent);
    expect(ends).toHaveLength(sent);
    const bindings = perfettoFlowBindings(events as never);
    for (const s of starts) {
      const f = ends.find((e) => e.id === s.id)!;
      expect(s.tid % threads).toBe(0);
      expect(f.tid % threads).toBe(0);
      // Each leaves the element that sent it, and arrives in the one its receive completed in.
      const [from, to] = bindings.get(s.id!)!;
      expect(["SendRight", "SendLeft"]).toContain(from);
      expect(callBefore(events, s)).toMatchObject({ name: from, tid: s.tid, ts: s.ts });
      expect(callBefore(events, f)).toMatchObject({ name: to, tid: f.tid });
    }
    expect([...bindings.values()].filter(([, to]) => to === "WaitHalos").length).toBeGreaterThan(0);
  });

  it("loses no message of a stencil whose slower processes send late, and binds each to the element its receive completed in", async () => {
    const { executeScenario, loadScenarioText } = await import("../../../scenarios/index.js");
    // The example's sweep made slower with the process number: its neighbours wait for it in
    // WaitHalos from before it sends.
    const text = readFileSync("scenarios/program-elements.yaml", "utf8").replace("cost: Sweep(N)\n", "cost: Sweep(N) * (1 + pid)\n");
    expect(text).toContain("Sweep(N) * (1 + pid)");
    const art = executeScenario(loadScenarioText(text, "late-sender.yaml"));
    const events = (JSON.parse(JSON.stringify(art.trace)) as { traceEvents: { name: string; ph: string; ts: number; tid: number; id?: number; args?: { sent: number } }[] }).traceEvents;
    const ends = events.filter((e) => e.ph === "f");
    expect(ends.length).toBeGreaterThan(0);
    expect(droppedFlows(events as never)).toBe(0);
    const bindings = perfettoFlowBindings(events as never);
    let late = 0;
    for (const f of ends) {
      const s = events.find((e) => e.ph === "s" && e.id === f.id)!;
      const call = callBefore(events, f);
      expect(bindings.get(f.id!)).toEqual([callBefore(events, s).name, call.name]);
      if (call.ts < s.ts) {
        late++;
        expect([call.name, f.ts]).toEqual(["WaitHalos", Math.max(call.ts, f.args!.sent) + (f.tid < s.tid && f.args!.sent === s.ts ? 0.001 : 0)]);
      }
    }
    expect(late).toBeGreaterThan(0);
  });
});

describe("a program model's trace with one thread per process", () => {
  it("binds each flow to the elements of the processes themselves (LAPW0)", async () => {
    const { executeScenario, loadScenario } = await import("../../../scenarios/index.js");
    const art = executeScenario(loadScenario("scenarios/lapw0.yaml", { set: ["outputs.trace=true"] }));
    expect(art.scenario.program!.threads).toBe(1);
    const events = (JSON.parse(JSON.stringify(art.trace)) as { traceEvents: { name: string; ph: string; ts: number; tid: number; id?: number }[] }).traceEvents;
    const flows = events.filter((e) => e.ph === "s" || e.ph === "f");
    expect(flows.length).toBeGreaterThan(0);
    const bindings = perfettoFlowBindings(events as never);
    expect(droppedFlows(events as never)).toBe(0);
    for (const f of flows) {
      const call = callBefore(events, f);
      expect(call.tid).toBe(f.tid);
      if (f.ph === "s") expect(call.ts).toBe(f.ts);
      else expect(f.ts).toBeGreaterThanOrEqual(call.ts);
      expect(bindings.get(f.id!)![f.ph === "s" ? 0 : 1]).toBe(call.name);
    }
  });
});
