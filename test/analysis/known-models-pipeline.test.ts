import { describe, expect, it } from "vitest";
import { loadScenario, executeScenario } from "../../scenarios/index.js";
import {
  callTreeFromTrial,
  coreComponentsOfTrial,
  pruneCallGraph,
  fitModels,
  observationsFromRecords,
  selectImplementations,
  findCrossovers,
  type Assembly,
  type InvocationRecord,
} from "../../index.js";

/** Runs scenarios/known-models.yaml at input x with the given implementations of A and B. */
function run(x: number, a: string, b: string) {
  const s = loadScenario("scenarios/known-models.yaml", {
    set: [`workload.x=${x}`, `workload.iterations=5`, `assembly.components.A.params.implementation=${a}`, `assembly.components.B.params.implementation=${b}`],
  });
  return executeScenario(s);
}

describe("paper 002 pipeline on simulated data: measure, fit, prune, select", () => {
  it("prunes C and D, fits each implementation, and selects A2+B1 below x = 2 and A1+B2 above", () => {
    const xs = [0.5, 1, 1.5, 2.5, 3, 4];
    const records: Record<string, InvocationRecord[]> = { A1: [], A2: [], B1: [], B2: [] };
    let last;
    for (const x of xs)
      for (const [a, b] of [["A1", "B1"], ["A2", "B2"]] as const) {
        const art = run(x, a, b);
        last = art;
        const recs = art.trial!.records;
        records[a]!.push(...recs.filter((r) => r.component === "A"));
        records[b]!.push(...recs.filter((r) => r.component === "B"));
      }
    const pruned = pruneCallGraph(callTreeFromTrial(last!.trial!).root);
    // Paper 002: "the pruner identified components A and B (along with the Driver) as the core components".
    expect(pruned.coreNames.map((n) => n.split("::")[0])).toEqual(["Driver", "A", "B"]);
    expect(pruned.pruned.map((p) => p.name.split("::")[0]).sort()).toEqual(["C", "D"]);

    const model = (impl: string) => fitModels(observationsFromRecords(records[impl]!, { component: impl[0], parameter: "x" }), { variable: "x" }).mean;
    const m = { A1: model("A1"), A2: model("A2"), B1: model("B1"), B2: model("B2") };
    expect(m.A1.predict(3)).toBeCloseTo(6, 0);
    expect(m.B1.predict(3)).toBeCloseTo(27, 0);
    const asm: Assembly = {
      components: [
        { name: "Driver", implementations: [{ name: "Driver", mean: 0 }] },
        { name: "A", implementations: [{ name: "A1", mean: m.A1 }, { name: "A2", mean: m.A2 }] },
        { name: "B", implementations: [{ name: "B1", mean: m.B1 }, { name: "B2", mean: m.B2.expression }] },
      ],
      callGraph: { component: "Driver", children: [{ component: "A" }, { component: "B" }] },
    };
    // The pruned timers, mapped to the assembly's components: paper 002's core.
    const core = coreComponentsOfTrial(last!.trial!, ["Driver", "A", "B", "C", "D"]);
    expect(core).toEqual(["Driver", "A", "B"]);
    const lo = selectImplementations(asm, { x: 1.5 }, { coreComponents: core });
    expect(lo.optimum.assignment).toEqual({ Driver: "Driver", A: "A2", B: "B1" });
    expect(lo.heuristic!.gap).toBe(0);
    expect(selectImplementations(asm, { x: 3 }).optimum.assignment).toEqual({ Driver: "Driver", A: "A1", B: "B2" });
    const c = findCrossovers(asm, { variable: "x", from: 0.5, to: 4 });
    // The fitted models include the callees' cost (A1 = 2.01x, A2 = x² + 0.01x, B1 = x³ + 0.02x,
    // B2 = 2x² + 0.02x), which cancels at the crossover: both components switch at x = 2.
    expect(m.A1.formula).toBe("2.01·x");
    expect(c.crossovers.length).toBe(1);
    expect(c.crossovers[0]!.at).toBeCloseTo(2, 6);
    expect(c.crossovers[0]!.changes.map((k) => k.component)).toEqual(["A", "B"]);
    expect(c.intervals[0]!.assignment).toMatchObject({ A: "A2", B: "B1" });
    expect(c.intervals[c.intervals.length - 1]!.assignment).toMatchObject({ A: "A1", B: "B2" });
  });
});
