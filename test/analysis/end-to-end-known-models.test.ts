import { describe, expect, it } from "vitest";
import {
  callTreeFromTrial,
  findCrossovers,
  fitModels,
  pruneCallGraph,
  selectImplementations,
  type Assembly,
} from "../../analysis/index.js";
import { executeScenario, loadScenario } from "../../scenarios/index.js";

const XS = [0.5, 1, 1.5, 2.5, 3, 4, 5];

/** Simulates known-models with implementations a and b at every x; returns the proxy records. */
function simulate(a: string, b: string) {
  const recs = [];
  for (const x of XS) {
    const s = loadScenario("scenarios/known-models.yaml", {
      set: [`workload.x=${x}`, "workload.iterations=4", `assembly.components.A.params.implementation=${a}`, `assembly.components.B.params.implementation=${b}`],
    });
    recs.push(...executeScenario(s).result.mastermind!.records);
  }
  return recs;
}

/** Fits a component's wall time per invocation as a function of x from simulated records. */
function fitted(records: ReturnType<typeof simulate>, component: string): string {
  const mine = records.filter((r) => r.component === component);
  const report = fitModels({ q: mine.map((r) => Number(r.parameters.x)), t: mine.map((r) => r.wallTime) }, { variable: "x" });
  return report.mean.expression;
}

describe("end to end: simulate, fit, prune and select the known-models assembly (paper 002)", () => {
  const run12 = simulate("A1", "B2");
  const run21 = simulate("A2", "B1");
  const models = {
    A1: fitted(run12, "A"),
    B2: fitted(run12, "B"),
    A2: fitted(run21, "A"),
    B1: fitted(run21, "B"),
  };

  it("fits each implementation's model back from the simulated records", () => {
    // A's and B's measured times include their insignificant callees (0.01x and 0.02x).
    const truth: Record<string, (x: number) => number> = {
      A1: (x) => 2 * x + 0.01 * x,
      A2: (x) => x * x + 0.01 * x,
      B1: (x) => x ** 3 + 0.02 * x,
      B2: (x) => 2 * x * x + 0.02 * x,
    };
    for (const [name, expr] of Object.entries(models)) {
      for (const x of [0.7, 2, 4.5]) {
        const f = new Function("x", `return ${expr.replace(/\^/g, "**").replace(/\blog\(/g, "Math.log(").replace(/\bexp\(/g, "Math.exp(")};`) as (x: number) => number;
        expect(f(x), `${name}: ${expr} at x=${x}`).toBeCloseTo(truth[name](x), 2);
      }
    }
  });

  it("prunes C and D and keeps the Driver, A and B", () => {
    const s = loadScenario("scenarios/known-models.yaml", { set: ["workload.x=3", "workload.iterations=4"] });
    const trial = executeScenario(s).trial!;
    const tree = callTreeFromTrial(trial);
    const result = pruneCallGraph(tree.root, { alpha: 0.1, beta: 0.1 });
    expect(result.coreNames).toEqual(expect.arrayContaining(["Driver::go()", "A::run()", "B::run()"]));
    expect(result.coreNames).not.toContain("C::run()");
    expect(result.coreNames).not.toContain("D::run()");
    expect(result.pruned.map((p) => p.name).sort()).toEqual(["C::run()", "D::run()"]);
  });

  it("selects A2 and B1 below x = 2 and A1 and B2 above, with the crossover at 2", () => {
    const assembly: Assembly = {
      components: [
        { name: "Driver", implementations: [{ name: "Driver", mean: 0 }] },
        { name: "A", implementations: [{ name: "A1", mean: models.A1 }, { name: "A2", mean: models.A2 }] },
        { name: "B", implementations: [{ name: "B1", mean: models.B1 }, { name: "B2", mean: models.B2 }] },
      ],
      callGraph: { component: "Driver", children: [{ component: "A" }, { component: "B" }] },
    };
    const low = selectImplementations(assembly, { x: 1.2 });
    expect(low.optimum.assignment).toMatchObject({ A: "A2", B: "B1" });
    const high = selectImplementations(assembly, { x: 3.5 });
    expect(high.optimum.assignment).toMatchObject({ A: "A1", B: "B2" });
    const cross = findCrossovers(assembly, { variable: "x", from: 0.5, to: 5, samples: 200 });
    expect(cross.crossovers.length).toBeGreaterThanOrEqual(1);
    for (const c of cross.crossovers) expect(c.at).toBeCloseTo(2, 1);
  });
});
