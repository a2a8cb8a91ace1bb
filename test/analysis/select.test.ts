import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  selectImplementations,
  findCrossovers,
  knownModelsAssembly,
  prepareAssembly,
  assemblyCost,
  fitModels,
  AnalysisInputError,
  AssemblyKeyError,
  AssemblyCostError,
  readAssemblyFile,
  uncalledComponents,
  type Assembly,
  type CallSite,
} from "../../analysis/index.js";
import { loadScenario } from "../../scenarios/index.js";
import { tempDir } from "../scenarios/fixtures.js";

describe("uncalledComponents", () => {
  it("names the components no call site reaches, in the order listed", () => {
    expect(uncalledComponents(knownModelsAssembly())).toEqual([]);
    const asm = knownModelsAssembly();
    const extra: Assembly = {
      ...asm,
      components: [{ name: "Z", implementations: [{ name: "Z1", mean: 1 }] }, ...asm.components, { name: "Y", implementations: [{ name: "Y1", mean: 1 }] }],
    };
    expect(uncalledComponents(extra)).toEqual(["Z", "Y"]);
    // Reached only deep in the graph: called.
    const deep: Assembly = { ...extra, callGraph: { component: "Driver", children: [{ component: "A", children: [{ component: "Z", children: [{ component: "Y" }] }] }] } };
    expect(uncalledComponents(deep)).toEqual(["B", "C", "D"]);
  });
});

describe("selectImplementations", () => {
  it("picks A2 and B1 for x < 2 and A1 and B2 for x > 2 (paper 002's known models)", () => {
    const asm = knownModelsAssembly();
    const lo = selectImplementations(asm, { x: 1.5 }, { coreComponents: ["Driver", "A", "B"] });
    expect(lo.optimum.assignment).toMatchObject({ A: "A2", B: "B1" });
    expect(lo.optimum.cost).toBeCloseTo(1.5 ** 2 + 1.5 ** 3 + 0.01 * 1.5 + 0.02 * 1.5, 12);
    expect(lo.heuristic!.gap).toBe(0);
    const hi = selectImplementations(asm, { x: 3 });
    expect(hi.optimum.assignment).toMatchObject({ A: "A1", B: "B2" });
    expect(hi.optimum.method).toBe("dynamic-programming");
  });

  it("finds the crossover at x = 2", () => {
    const r = findCrossovers(knownModelsAssembly(), { variable: "x", from: 0.5, to: 5, samples: 10 });
    expect(r.crossovers.length).toBe(1);
    expect(r.crossovers[0]!.at).toBeCloseTo(2, 9);
    expect(r.crossovers[0]!.changes).toEqual([
      { component: "A", from: "A2", to: "A1" },
      { component: "B", from: "B1", to: "B2" },
    ]);
    expect(r.intervals.map((i) => i.assignment.A)).toEqual(["A2", "A1"]);
  });

  it("judges each cell of the scan at its middle, not at its ends where costs tie", () => {
    // 2x and x^2 (x^3 and 2x^2) tie at 0 and at 2: with 128 cells over [0, 254], both are cell
    // ends, and a tie goes to A1 (B1). A2 (B1) is the optimum throughout (0, 2).
    const wide = findCrossovers(knownModelsAssembly(), { variable: "x", from: 0, to: 254 });
    expect(wide.crossovers.map((c) => c.at)).toEqual([expect.closeTo(2, 9)]);
    expect(wide.intervals.map((i) => [i.from, i.assignment.A, i.assignment.B])).toEqual([
      [0, "A2", "B1"],
      [expect.closeTo(2, 9), "A1", "B2"],
    ]);
    // The tie at the lower end makes no crossover of its own (one was reported at x = 2.9e-13).
    const narrow = findCrossovers(knownModelsAssembly(), { variable: "x", from: 0, to: 5 });
    expect(narrow.crossovers.map((c) => c.at)).toEqual([expect.closeTo(2, 9)]);
    const logScan = findCrossovers(knownModelsAssembly(), { variable: "x", from: 0.5, to: 8, spacing: "log", samples: 4 });
    expect(logScan.crossovers.map((c) => c.at)).toEqual([expect.closeTo(2, 9)]);
  });

  it("finds crossovers to the same relative precision over a range of tiny values (seconds of a microsecond)", () => {
    // Best: Low below 3s, Mid to 6s, High above. Bisection stopped at 1e-12 in absolute terms, and
    // crossovers closer than 1e-9 merged: at s = 1e-6 the first was at 2.9999998e-6, at s = 1e-12
    // the two were one, Low to High, at 2.97e-12, and Mid was lost.
    for (const s of [1, 1e-6, 1e-12, 1e-30]) {
      const asm: Assembly = {
        components: [{ name: "C", implementations: [1.5, 4.5, 7.5].map((c, i) => ({ name: ["Low", "Mid", "High"][i]!, mean: `abs(x - ${c * s})` })) }],
        callGraph: { component: "C" },
      };
      const r = findCrossovers(asm, { variable: "x", from: 0, to: 10 * s });
      expect(r.crossovers.map((c) => c.at / s), `s = ${s}`).toEqual([expect.closeTo(3, 9), expect.closeTo(6, 9)]);
      expect(r.intervals.map((i) => i.assignment.C)).toEqual(["Low", "Mid", "High"]);
    }
  });

  it("finds a crossover within half a cell of either end of the range", () => {
    const lin: Assembly = { components: [{ name: "C", implementations: [{ name: "Lin", mean: "x" }, { name: "One", mean: 1 }] }], callGraph: { component: "C" } };
    // 128 cells over [0, 1.003]: the last middle is 0.9991, below the change at 1.
    const high = findCrossovers(lin, { variable: "x", from: 0, to: 1.003 });
    expect(high.crossovers.map((c) => c.at)).toEqual([expect.closeTo(1, 9)]);
    expect(high.intervals.map((i) => i.assignment.C)).toEqual(["Lin", "One"]);
    const low = findCrossovers(lin, { variable: "x", from: 0.997, to: 2 });
    expect(low.crossovers.map((c) => c.at)).toEqual([expect.closeTo(1, 9)]);
    expect(low.intervals.map((i) => i.assignment.C)).toEqual(["Lin", "One"]);
    // A tie at an end is no crossover: the interval takes the choice inside the range.
    const tie = findCrossovers(lin, { variable: "x", from: 1, to: 3 });
    expect([tie.crossovers, tie.intervals.map((i) => i.assignment.C)]).toEqual([[], ["One"]]);
  });

  it("refuses a crossover scan of an input no cost reads (a misspelt name), naming the inputs the costs read", () => {
    expect(() => findCrossovers(knownModelsAssembly(), { variable: "X", from: 0.5, to: 5, inputs: { x: 1 } })).toThrow(
      new AnalysisInputError("no cost of the assembly reads the input 'X' (did you mean 'x'?), so the choice cannot change with it; inputs the costs read: x"),
    );
    // An input read by a call site's argument or count only is read all the same.
    const passed: Assembly = {
      components: [
        { name: "D", implementations: [{ name: "D1", mean: 0 }] },
        { name: "F", implementations: [{ name: "F1", mean: "2*Q" }, { name: "F2", mean: "Q^2" }] },
      ],
      callGraph: { component: "D", children: [{ component: "F", args: { Q: "n / ranks" }, calls: "steps" }] },
    };
    expect(findCrossovers(passed, { variable: "n", from: 1, to: 16, inputs: { ranks: 4, steps: 10 } }).crossovers[0]!.at).toBeCloseTo(8, 9);
    expect(findCrossovers(passed, { variable: "steps", from: 1, to: 2, inputs: { ranks: 4, n: 4 } }).crossovers).toEqual([]);
    // A cost given as a function may read anything: no refusal.
    const opaque: Assembly = { components: [{ name: "F", implementations: [{ name: "F1", mean: (i) => i.z! }, { name: "F2", mean: 1 }] }], callGraph: { component: "F" } };
    expect(findCrossovers(opaque, { variable: "z", from: 0, to: 2 }).crossovers[0]!.at).toBeCloseTo(1, 9);
  });

  it("takes fitted models as implementation costs", () => {
    const q = [1, 2, 3, 4, 5, 6, 7, 8];
    const a1 = fitModels({ q, t: q.map((x) => 2 * x) }, { families: ["polynomial"], variable: "x" }).mean;
    const a2 = fitModels({ q, t: q.map((x) => x * x) }, { families: ["polynomial"], variable: "x" }).mean;
    const asm: Assembly = { components: [{ name: "A", implementations: [{ name: "A1", mean: a1 }, { name: "A2", mean: a2.expression }] }], callGraph: { component: "A" } };
    expect(selectImplementations(asm, { x: 1 }).optimum.assignment.A).toBe("A2");
    expect(findCrossovers(asm, { variable: "x", from: 1, to: 8 }).crossovers[0]!.at).toBeCloseTo(2, 6);
  });

  it("accounts for invocation counts, call-site arguments and caller-callee interactions", () => {
    const asm: Assembly = {
      components: [
        { name: "Mesh", implementations: [{ name: "RowMajor", mean: 1 }, { name: "ColMajor", mean: 2 }] },
        { name: "Flux", implementations: [{ name: "EFM", mean: "0.16*Q" }, { name: "Godunov", mean: "0.1*Q" }] },
      ],
      callGraph: { component: "Mesh", children: [{ component: "Flux", calls: 10, args: { Q: "n^2" } }] },
      interactions: [{ caller: "Mesh", callee: "Flux", costs: [{ callerImpl: "RowMajor", calleeImpl: "Godunov", cost: "0.1*Q" }] }],
    };
    // n = 10: Q = 100; RowMajor+EFM = 1 + 10*16 = 161; RowMajor+Godunov = 1 + 10*(10+10) = 201;
    // ColMajor+Godunov = 2 + 100 = 102.
    const r = selectImplementations(asm, { n: 10 });
    expect(r.optimum.assignment).toEqual({ Mesh: "ColMajor", Flux: "Godunov" });
    expect(r.optimum.cost).toBeCloseTo(102, 12);
    expect(assemblyCost(asm, { n: 10 }, { Mesh: "RowMajor", Flux: "Godunov" })).toBeCloseTo(201, 12);
  });

  it("excludes implementations by quality of service (Godunov over EFM for accuracy)", () => {
    const asm: Assembly = {
      components: [{ name: "Flux", implementations: [{ name: "EFM", mean: "-8.13 + 0.16*Q", qos: { accuracy: 1 } }, { name: "Godunov", mean: "-963 + 0.315*Q", qos: { accuracy: 2 } }] }],
      callGraph: { component: "Flux" },
    };
    expect(selectImplementations(asm, { Q: 10000 }).optimum.assignment.Flux).toBe("EFM");
    const r = selectImplementations(asm, { Q: 10000 }, { constraints: [{ key: "accuracy", min: 2 }] });
    expect(r.optimum.assignment.Flux).toBe("Godunov");
    expect(r.excluded).toEqual([{ component: "Flux", implementation: "EFM", reason: "accuracy = 1 < 2" }]);
    expect(() => selectImplementations(asm, { Q: 10000 }, { constraints: [{ key: "accuracy", min: 3 }] })).toThrow(/exclude every implementation of 'Flux'/);
  });

  it("refuses a constraint on an attribute no implementation declares, naming the declared ones", () => {
    const asm: Assembly = {
      components: [
        { name: "Flux", implementations: [{ name: "EFM", mean: 1, qos: { accuracy: 1 } }, { name: "Godunov", mean: 2, qos: { accuracy: 2, order: 2 } }] },
        { name: "Mesh", implementations: [{ name: "M1", mean: 1, qos: { order: 2 } }] },
      ],
      callGraph: { component: "Flux", children: [{ component: "Mesh" }] },
    };
    const speed = (): unknown => selectImplementations(asm, {}, { constraints: [{ key: "speed", min: 2 }] });
    expect(speed).toThrow(AnalysisInputError);
    expect(speed).toThrow("no implementation declares the quality attribute 'speed'; declared attributes: accuracy, order");
    expect(() => findCrossovers(asm, { variable: "Q", from: 1, to: 2, constraints: [{ key: "acuracy", min: 2 }] })).toThrow(
      "quality attribute 'acuracy' (did you mean 'accuracy'?); declared attributes: accuracy, order",
    );
    expect(() => selectImplementations(knownModelsAssembly(), { x: 1 }, { constraints: [{ key: "accuracy", max: 1 }] })).toThrow("declared attributes: none");
    // Declared by one implementation only: the others are excluded, not the constraint refused.
    const r = selectImplementations(asm, {}, { constraints: [{ key: "order", min: 2 }] });
    expect(r.optimum.assignment.Flux).toBe("Godunov");
    expect(r.excluded).toEqual([{ component: "Flux", implementation: "EFM", reason: "no value for quality attribute 'order'" }]);
  });

  it("leaves components that declare no value of a constrained attribute unconstrained", () => {
    const asm: Assembly = {
      components: [
        { name: "Driver", implementations: [{ name: "D", mean: 0 }] },
        { name: "Solver", implementations: [{ name: "S1", mean: 1, qos: { accuracy: 1 } }, { name: "S2", mean: 5, qos: { accuracy: 2 } }, { name: "S3", mean: 2 }] },
        { name: "IO", implementations: [{ name: "I1", mean: 3 }, { name: "I2", mean: 1 }] },
      ],
      callGraph: { component: "Driver", children: [{ component: "Solver" }, { component: "IO" }] },
    };
    const r = selectImplementations(asm, {}, { constraints: [{ key: "accuracy", min: 2 }] });
    expect(r.optimum.assignment).toEqual({ Driver: "D", Solver: "S2", IO: "I2" });
    // Within Solver, S3 declares no accuracy: it is excluded, as S1 is for its value.
    expect(r.excluded.map((e) => e.implementation)).toEqual(["S1", "S3"]);
  });

  it("chooses by mean + k sd when risk-averse", () => {
    const asm: Assembly = {
      components: [{ name: "S", implementations: [{ name: "fast-but-noisy", mean: 10, sd: 8 }, { name: "steady", mean: 12, sd: 1 }] }],
      callGraph: { component: "S" },
    };
    expect(selectImplementations(asm, {}).optimum.assignment.S).toBe("fast-but-noisy");
    expect(selectImplementations(asm, {}, { riskK: 1 }).optimum.assignment.S).toBe("steady");
  });

  it("refuses a risk k that takes mean + k sd below 0, as for any other cost", () => {
    const asm: Assembly = { components: [{ name: "F", implementations: [{ name: "F1", mean: 10, sd: 4 }, { name: "F2", mean: 12, sd: 1 }] }], callGraph: { component: "F" } };
    expect(selectImplementations(asm, {}, { riskK: -2 }).optimum).toMatchObject({ assignment: { F: "F1" }, cost: 2 });
    expect(() => selectImplementations(asm, {}, { riskK: -3 })).toThrow(new AssemblyCostError(["components", 0, "implementations", 0, "sd"], "is -2 at {} (costs must be finite and >= 0)", "mean - 3·sd of F1 (F)"));
    // The key is the error's, for a file's reader to place.
    expect(() => selectImplementations(asm, {}, { riskK: -3 })).toThrow(expect.objectContaining({ path: ["components", 0, "implementations", 0, "sd"] }));
  });

  it("solves 20 components x 3 implementations (3^20 assemblies) exactly by dynamic programming", () => {
    const { asm, brute } = chain(20, 3, 99);
    const r = selectImplementations(asm, { x: 2 });
    expect(r.optimum.method).toBe("dynamic-programming");
    expect(r.optimum.cost / brute({ x: 2 }, r.optimum.assignment)).toBeCloseTo(1, 12);
  });

  it("gets the exact optimum of random assemblies, and reports the pruned heuristic's gap", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 7 }), fc.integer({ min: 2, max: 3 }), fc.integer({ min: 1, max: 1e9 }), fc.double({ min: 0.5, max: 4, noNaN: true }), (n, k, seed, x) => {
        const { asm, brute, enumerateAll } = chain(n, k, seed);
        const r = selectImplementations(asm, { x }, { coreComponents: asm.components.slice(0, 2).map((c) => c.name) });
        const all = enumerateAll({ x });
        const best = Math.min(...all.map((a) => a.cost));
        expect(r.optimum.cost).toBeCloseTo(best, 9);
        expect(brute({ x }, r.optimum.assignment)).toBeCloseTo(r.optimum.cost, 9);
        // The heuristic: best over the 2 core components with the others at their first implementation.
        const restricted = all.filter((a) => asm.components.slice(2).every((c) => a.assignment[c.name] === c.implementations[0]!.name));
        const h = Math.min(...restricted.map((a) => a.cost));
        expect(r.heuristic!.cost).toBeCloseTo(h, 9);
        expect(r.heuristic!.gap).toBeCloseTo(h - best, 9);
        expect(r.heuristic!.relativeGap).toBeCloseTo((h - best) / best, 9);
      }),
      { seed: 5, numRuns: 60 },
    );
  });

  it("searches a core component named twice once: the heuristic counts each assembly once and names the component once", () => {
    const r = selectImplementations(knownModelsAssembly(), { x: 3 }, { coreComponents: ["A", "B", "A"] });
    expect(r.heuristic!.core).toEqual(["A", "B"]);
    expect(r.heuristic!.evaluated).toBe(4);
    expect(r.heuristic!.assignment).toMatchObject({ A: "A1", B: "B2" });
  });

  it("refuses an interaction between components that never call each other, and names the known implementations", () => {
    const asm = (interactions: Assembly["interactions"]): Assembly => ({
      components: ["D", "P", "S"].map((name) => ({ name, implementations: [{ name: `${name}1`, mean: 1 }, { name: `${name}2`, mean: 2 }] })),
      callGraph: { component: "D", children: [{ component: "P" }, { component: "S" }] },
      interactions,
    });
    // P and S are siblings: the interaction was left out of every cost without a word.
    expect(() => selectImplementations(asm([{ caller: "P", callee: "S", costs: [{ callerImpl: "P2", calleeImpl: "S1", cost: 100 }] }]), {})).toThrow(
      new AssemblyKeyError(["interactions", 0], "P never calls S in the call graph, so this interaction would cost nothing (callers of S: D)"),
    );
    expect(() => selectImplementations(asm([{ caller: "D", callee: "S", costs: [{ callerImpl: "D1", calleeImpl: "S3", cost: 1 }] }]), {})).toThrow(
      new AssemblyKeyError(["interactions", 0, "costs", 0, "calleeImpl"], "unknown implementation 'S3' of 'S' (did you mean 'S1'?); known: S1, S2"),
    );
    const ok = selectImplementations(asm([{ caller: "D", callee: "S", costs: [{ callerImpl: "D1", calleeImpl: "S1", cost: 100 }] }]), {});
    expect(ok.optimum.assignment).toEqual({ D: "D1", P: "P1", S: "S2" });
  });

  it("falls back to exhaustive search when interactions form a cycle", () => {
    const asm: Assembly = {
      components: ["P", "Q", "R"].map((name) => ({ name, implementations: [{ name: `${name}1`, mean: 1 }, { name: `${name}2`, mean: 1.5 }] })),
      callGraph: { component: "P", children: [{ component: "Q", children: [{ component: "R", children: [{ component: "P" }] }] }] },
      interactions: [
        { caller: "P", callee: "Q", costs: [{ callerImpl: "P1", calleeImpl: "Q1", cost: 5 }] },
        { caller: "Q", callee: "R", costs: [{ callerImpl: "Q2", calleeImpl: "R1", cost: 5 }] },
        { caller: "R", callee: "P", costs: [{ callerImpl: "R1", calleeImpl: "P1", cost: 5 }] },
      ],
    };
    const r = selectImplementations(asm, {});
    expect(r.optimum.method).toBe("exhaustive");
    const costs = ["P1", "P2"].flatMap((p) => ["Q1", "Q2"].flatMap((q) => ["R1", "R2"].map((rr) => assemblyCost(asm, {}, { P: p, Q: q, R: rr }))));
    expect(r.optimum.cost).toBeCloseTo(Math.min(...costs), 12);
  });

  it("rejects unknown components and bad expressions with typed errors", () => {
    const bad: Assembly = { components: [{ name: "A", implementations: [{ name: "A1", mean: "2*" }] }], callGraph: { component: "A" } };
    expect(() => selectImplementations(bad, { x: 1 })).toThrow(AnalysisInputError);
    const unknown: Assembly = { components: [{ name: "A", implementations: [{ name: "A1", mean: 1 }] }], callGraph: { component: "B" } };
    expect(() => selectImplementations(unknown, {})).toThrow(new AssemblyKeyError(["callGraph", "component"], "unknown component 'B'; known: A"));
    // Each mistake at its key, as a file would place it.
    const twice: Assembly = { components: [unknown.components[0]!, { name: "A", implementations: [] }], callGraph: { component: "A", children: [{ component: "A", args: { Q: "1+" } }] } };
    expect(() => prepareAssembly(twice)).toThrow(new AssemblyKeyError(["components", 1, "name"], "component 'A' is listed twice (also components[0])"));
    expect(() => prepareAssembly({ ...twice, components: [twice.components[1]!] })).toThrow(new AssemblyKeyError(["components", 0, "implementations"], "component 'A' has no implementation: list at least one"));
    expect(() => prepareAssembly({ ...twice, components: [unknown.components[0]!] })).toThrow(/^key 'callGraph\.children\[0\]\.args\.Q': cannot parse cost expression '1\+'/);
    // An argument whose name holds a dot is one key, written quoted.
    expect(() => prepareAssembly({ components: [unknown.components[0]!], callGraph: { component: "A", args: { "a.b": "x^" } } })).toThrow(/^key 'callGraph\.args\["a\.b"\]': cannot parse cost expression 'x\^'/);
    expect(() => selectImplementations(knownModelsAssembly(), { x: -1 })).toThrow(/must be finite and >= 0/);
  });

  it("names an input a cost model reads but the caller did not give, and a model not defined at the input", () => {
    const flux: Assembly = { components: [{ name: "Flux", implementations: [{ name: "EFM", mean: "exp(1.03*log(Q) - 2.25)" }] }], callGraph: { component: "Flux" } };
    expect(() => selectImplementations(flux, { X: 5000 })).toThrow(new AssemblyCostError(["components", 0, "implementations", 0, "mean"], "'exp(1.03*log(Q) - 2.25)' reads input 'Q', which is not given (given: X=5000)", "mean of EFM (Flux)"));
    expect(() => selectImplementations(flux, { Q: -5 })).toThrow(/^mean of EFM \(Flux\): 'exp\(1\.03\*log\(Q\) - 2\.25\)' gives the complex number -0\.55\d* - 0\.052\d*i \(the expression is not defined there\) at Q=-5, not a cost$/);
  });

  it("names an input that mathjs would read as a unit, a function or a constant as not given", () => {
    const one = (mean: string): Assembly => ({ components: [{ name: "P", implementations: [{ name: "P1", mean }] }], callGraph: { component: "P" } });
    // m and N are units, size a function: without the check they gave a unit or a type error.
    const units = (name: string) => ` (mathjs reads '${name}' as a unit; costs take no units: they are plain numbers, normally microseconds)`;
    for (const [mean, missing, hint] of [["0.5*m", "m", units("m")], ["n*N", "N", units("N")], ["n*size", "size", ""], ["max(n, 2)*h", "h", units("h")], ["5 ms", "ms", units("ms")]] as const)
      expect(() => selectImplementations(one(mean), { n: 100 })).toThrow(new AssemblyCostError(["components", 0, "implementations", 0, "mean"], `'${mean}' reads input '${missing}', which is not given (given: n=100)${hint}`, "mean of P1 (P)"));
    // A branch not taken may read an input not given: only what the evaluation reads must be given.
    expect(selectImplementations(one("n > 10 ? 2*n : b"), { n: 50 }).optimum.cost).toBe(100);
    expect(() => selectImplementations(one("n > 10 ? 2*n : b"), { n: 5 })).toThrow(new AssemblyCostError(["components", 0, "implementations", 0, "mean"], `'n > 10 ? 2*n : b' reads input 'b', which is not given (given: n=5)${units("b")}`, "mean of P1 (P)"));
    // Given, they are inputs; mathjs's numeric constants (pi, e) stay constants when not given.
    expect(selectImplementations(one("n*N"), { n: 100, N: 2 }).optimum.cost).toBe(200);
    expect(selectImplementations(one("n + pi"), { n: 1 }).optimum.cost).toBeCloseTo(1 + Math.PI, 12);
    expect(selectImplementations(one("max(n, 2)"), { n: 1 }).optimum.cost).toBe(2);
  });

  it("reuses a prepared assembly", () => {
    const p = prepareAssembly(knownModelsAssembly());
    expect(selectImplementations(p, { x: 1 }).optimum.assignment.A).toBe("A2");
  });
});

/**
 * A random chain of n components with k implementations (cost c·x^e) and random caller–callee
 * interaction costs, plus brute-force evaluation for checking.
 */
function chain(n: number, k: number, seed: number) {
  let s = seed % 2147483646 + 1;
  const rnd = (): number => ((s = (s * 16807) % 2147483647) / 2147483647);
  const comps = Array.from({ length: n }, (_, i) => ({
    name: `C${i}`,
    implementations: Array.from({ length: k }, (_, j) => ({ name: `C${i}.${j}`, c: 0.5 + rnd() * 2, e: rnd() * 3 })),
  }));
  const inter = comps.slice(1).map((_, i) => ({
    caller: `C${i}`,
    callee: `C${i + 1}`,
    costs: comps[i]!.implementations.flatMap((a) => comps[i + 1]!.implementations.map((b) => ({ callerImpl: a.name, calleeImpl: b.name, cost: rnd() * 2 }))),
  }));
  let site: CallSite | undefined;
  for (let i = n - 1; i >= 0; i--) site = { component: `C${i}`, calls: 2, children: site ? [site] : [] };
  const asm: Assembly = {
    components: comps.map((c) => ({ name: c.name, implementations: c.implementations.map((im) => ({ name: im.name, mean: `${im.c}*x^${im.e}` })) })),
    callGraph: site!,
    interactions: inter,
  };
  const brute = (inp: { x: number }, a: Record<string, string>): number => {
    let total = 0;
    let calls = 1;
    for (let i = 0; i < n; i++) {
      calls *= 2;
      const im = comps[i]!.implementations.find((m) => m.name === a[comps[i]!.name])!;
      total += calls * im.c * inp.x ** im.e;
      if (i > 0) total += calls * inter[i - 1]!.costs.find((c) => c.callerImpl === a[`C${i - 1}`] && c.calleeImpl === a[`C${i}`])!.cost;
    }
    return total;
  };
  const enumerateAll = (inp: { x: number }): { assignment: Record<string, string>; cost: number }[] => {
    const out: { assignment: Record<string, string>; cost: number }[] = [];
    const rec = (i: number, a: Record<string, string>): void => {
      if (i === n) {
        out.push({ assignment: { ...a }, cost: brute(inp, a) });
        return;
      }
      for (const im of comps[i]!.implementations) rec(i + 1, { ...a, [comps[i]!.name]: im.name });
    };
    rec(0, {});
    return out;
  };
  return { asm, brute, enumerateAll };
}

describe("assembly files", () => {
  /** Reads an assembly file of `text`; the message it is refused with ("" when it is read). */
  const refusal = (text: string): string => {
    const file = join(tempDir(), "a.yaml");
    writeFileSync(file, text);
    try {
      readAssemblyFile(file);
      return "";
    } catch (e) {
      if (!(e instanceof AnalysisInputError)) throw e;
      return e.message.replace(file, "a.yaml");
    }
  };
  const one = (impl: string, site = "calls: 2") => `components:\n  - name: A\n    implementations:\n      - { name: A1, ${impl} }\ncallGraph: { component: A, ${site} }\n`;

  it("refuses qos or args left empty or written as a list, at its key", () => {
    // 'qos:' and 'args:' are null in YAML: they ended in exit 1, "Cannot convert undefined or null to object".
    expect(refusal(one("mean: 2, qos: "))).toMatch(/^a\.yaml:4:\d+: key 'components\[0\]\.implementations\[0\]\.qos': expected a mapping$/);
    expect(refusal(one("mean: 2", "args: "))).toMatch(/^a\.yaml:5:\d+: key 'callGraph\.args': expected a mapping$/);
    expect(refusal(one("mean: 2, qos: [1]"))).toMatch(/key 'components\[0\]\.implementations\[0\]\.qos': expected a mapping$/);
    expect(refusal(one("mean: 2", "args: [x]"))).toMatch(/key 'callGraph\.args': expected a mapping$/);
  });

  it("refuses a mean, sd, call count or interaction cost written as a number below 0, at its key, before any input is given", () => {
    expect(refusal(one("mean: -2"))).toBe("a.yaml:4:27: key 'components[0].implementations[0].mean': mean -2 is below 0: a cost is 0 or more");
    expect(refusal(one("mean: 2, sd: -0.5"))).toBe("a.yaml:4:34: key 'components[0].implementations[0].sd': sd -0.5 is below 0: a standard deviation is 0 or more");
    expect(refusal(one("mean: 2", "calls: -1"))).toBe("a.yaml:5:35: key 'callGraph.calls': count -1 is below 0: a call count is 0 or more");
    const interaction = `components:\n  - name: D\n    implementations: [{ name: D1, mean: 0 }]\n  - name: A\n    implementations: [{ name: A1, mean: 1 }]\ncallGraph: { component: D, children: [{ component: A }] }\ninteractions:\n  - { caller: D, callee: A, costs: [{ callerImpl: D1, calleeImpl: A1, cost: -3 }] }\n`;
    expect(refusal(interaction)).toMatch(/^a\.yaml:8:\d+: key 'interactions\[0\]\.costs\[0\]\.cost': cost -3 is below 0: a cost is 0 or more$/);
  });

  it("refuses an assembly that lists no component, at its key", () => {
    // It was refused at the call graph's component, "unknown component 'A'; known: " with nothing after it.
    expect(refusal("components: []\ncallGraph: { component: A }\n")).toBe("a.yaml:1:13: key 'components': lists no component: an assembly lists each component with its implementations");
    expect(() => prepareAssembly({ components: [], callGraph: { component: "A" } })).toThrow(new AssemblyKeyError(["components"], "lists no component: an assembly lists each component with its implementations"));
  });

  it("reads 0 and expressions, which are checked where they are evaluated", () => {
    expect(refusal(one("mean: 0, sd: 0", "calls: 0"))).toBe("");
    expect(refusal(one('mean: "x - 5"'))).toBe("");
  });
});

describe("knownModelsAssembly", () => {
  it("is the assembly scenarios/known-models.yaml runs: the same implementations, costs and call graph", () => {
    const { components, connections } = loadScenario("scenarios/known-models.yaml").config.assembly!;
    const asm = knownModelsAssembly();
    expect(asm.components.map((c) => c.name)).toEqual(Object.keys(components));
    for (const c of asm.components) {
      const params = components[c.name]!.params as { implementations?: Record<string, string>; cost?: string };
      const costs = Object.fromEntries(c.implementations.map((i) => [i.name, String(i.mean)]));
      if (params.implementations !== undefined) expect(costs).toEqual(params.implementations);
      else expect(Object.values(costs)).toEqual([params.cost ?? "0"]);
    }
    // The call graph: each component's children are the providers its uses ports connect to, in order.
    const callees = (caller: string): string[] => connections.filter((c) => c.startsWith(`${caller}.`)).map((c) => c.split("->")[1]!.trim().split(".")[0]!);
    const graph = (site: CallSite): [string, unknown[]] => [site.component, (site.children ?? []).map(graph)];
    const fromScenario = (name: string): [string, unknown[]] => [name, callees(name).map(fromScenario)];
    expect(graph(asm.callGraph)).toEqual(fromScenario("Driver"));
  });
});

describe("a crossover scan's grid", () => {
  it.each([0, -3, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("refuses samples %s, naming it", (samples) => {
    expect(() => findCrossovers(knownModelsAssembly(), { variable: "x", from: 1, to: 4, samples })).toThrow(AnalysisInputError);
    expect(() => findCrossovers(knownModelsAssembly(), { variable: "x", from: 1, to: 4, samples })).toThrow(`samples must be an integer >= 1, got ${samples}`);
  });

  it("refuses a spacing other than linear and log", () => {
    expect(() => findCrossovers(knownModelsAssembly(), { variable: "x", from: 1, to: 4, spacing: "logarithmic" as never })).toThrow("spacing must be linear or log, got 'logarithmic'");
  });

  it("scans one cell at its middle and the range at its ends", () => {
    // Costs that record where they are evaluated, and never cross: no refinement.
    const seen = new Set<number>();
    const flat: Assembly = { components: [{ name: "C", implementations: [{ name: "C1", mean: (i) => (seen.add(i.x!), 1) }, { name: "C2", mean: 2 }] }], callGraph: { component: "C" } };
    expect(findCrossovers(flat, { variable: "x", from: 0, to: 4, samples: 1 }).crossovers).toEqual([]);
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 2, 4]);
    seen.clear();
    findCrossovers(flat, { variable: "x", from: 0, to: 4, samples: 2 });
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 3, 4]);
  });
});
