import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../../scenarios/index.js";
import { executeProgramScenario, MAX_ACTIVITY_NESTING, type ProgramEvaluator } from "../../../scenarios/program/index.js";
import { errorsOf, programScenario } from "./helpers.js";
import { callsOf } from "./trial-helpers.js";

// Recursion that ends is a model a scenario can state (a divide-and-conquer phase, a recursive
// exchange): each entry has fresh locals, the caller's are back when it returns, and a recursion
// that does not end is a located run-time error instead of a stack overflow.

/** n! by recursion: each entry keeps its own `mine` (n at entry) and multiplies it in on the way back. */
const factorial = (n: number) => ({
  globals: { n: { type: "int", init: n }, acc: { type: "int", init: 1 } },
  activities: {
    Fact: {
      locals: { mine: "int" },
      do: [
        { code: "mine = n" },
        { if: "n > 1", then: [{ code: "n = n - 1" }, { activity: "Fact" }] },
        { action: "Mul", code: "acc = acc * mine", cost: "mine" },
      ],
    },
  },
  main: [{ activity: "Fact" }, { action: "Report", cost: "acc" }],
});

/** Ping-pong between two mutually recursive diagrams, exchanging a message with the neighbour on each entry. */
const pingPong = {
  globals: { k: "int" },
  activities: {
    Ping: [
      { irecv: "RecvPing", from: "mod(pid - 1 + np, np)", size: 64, request: "r" },
      { isend: "SendPing", to: "mod(pid + 1, np)", size: 64, request: "s", cost: "k + 1" },
      { wait: "WaitPing", requests: ["r", "s"] },
      { if: "k < 5", then: [{ code: "k = k + 1" }, { activity: "Pong" }] },
    ],
    Pong: [
      { action: "Think", cost: "2 * k" },
      { activity: "Ping" },
    ],
  },
  main: [{ activity: "Ping" }, { barrier: "Done" }],
};

const load = (program: unknown, opts: Parameters<typeof programScenario>[1] = {}) => loadScenarioText(programScenario(program, opts), "model.yaml");
const run = (program: unknown, evaluator: ProgramEvaluator, opts: Parameters<typeof programScenario>[1] = {}) => executeProgramScenario(load(program, opts), { evaluator });
const calls = (r: ReturnType<typeof run>, timer: string) => callsOf(r.trial!, 0, timer);

/** A countdown `depth` entries deep. */
const countdown = (depth: number) => ({
  globals: { n: { type: "int", init: depth } },
  activities: { Down: [{ action: "Step", code: "n = n - 1", cost: 1 }, { if: "n > 0", then: [{ activity: "Down" }] }] },
  main: [{ activity: "Down" }],
});

describe("recursive activities", () => {
  it("run with fresh locals per entry, restored on return, in both evaluators alike", () => {
    expect(load(factorial(5)).program!.warnings).toEqual([]);
    for (const evaluator of ["compiled", "interpreter"] as const) {
      const r = run(factorial(5), evaluator, { nodes: 1 });
      // Mul costs mine = 1 + 2 + ... + 5 = 15 us; Report costs 5! = 120 us.
      expect(r.result.simulatedTime, evaluator).toBeCloseTo(135, 9);
      expect(calls(r, "Fact"), evaluator).toBe(5);
      expect(calls(r, "Mul"), evaluator).toBe(5);
    }
  });

  it("may call each other and communicate on every entry", () => {
    const a = run(pingPong, "compiled", { nodes: 2, trace: true });
    const b = run(pingPong, "interpreter", { nodes: 2, trace: true });
    expect(a.result.simulatedTime).toBe(b.result.simulatedTime);
    expect(calls(a, "Ping")).toBe(6);
    expect(calls(a, "Pong")).toBe(5);
    expect(Array.from(a.trial!.values.inclusive[0])).toEqual(Array.from(b.trial!.values.inclusive[0]));
  });

  it(`nest up to ${MAX_ACTIVITY_NESTING} entries; one that does not end is an error located at the call`, () => {
    expect(calls(run(countdown(MAX_ACTIVITY_NESTING), "compiled", { nodes: 1 }), "Down")).toBe(MAX_ACTIVITY_NESTING);
    const forever = { activities: { Forever: [{ action: "Spin", cost: 1 }, { activity: "Forever" }] }, main: [{ activity: "Forever" }] };
    for (const evaluator of ["compiled", "interpreter"] as const) {
      expect(() => run(forever, evaluator, { nodes: 1 }), evaluator).toThrow(
        new RegExp(`model\\.yaml(:\\d+:\\d+)?: program\\.activities\\.Forever\\[1\\]: activity 'Forever' entered more than ${MAX_ACTIVITY_NESTING} deep in recursive activities on process 0 thread 0`),
      );
      expect(() => run(countdown(MAX_ACTIVITY_NESTING + 1), evaluator, { nodes: 1 }), evaluator).toThrow(/activity 'Down' entered more than/);
    }
  });

  it("are checked as recursion: a collective entered as often as a process-dependent condition says is an error", () => {
    const uneven = { globals: { d: "int" }, activities: { R: [{ allreduce: "Sum", size: 8 }, { if: "d < pid", then: [{ code: "d = d + 1" }, { activity: "R" }] }] }, main: [{ activity: "R" }] };
    expect(errorsOf(() => load(uneven)).join("\n")).toMatch(/collective allreduce 'Sum' is inside a branch whose condition "d < pid"/);
  });
});
