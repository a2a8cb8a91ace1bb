import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { pruneCallGraph, pruneAcross, callTreeFromTimers, aggregateCallTrees, AnalysisInputError, type CallNode } from "../../analysis/index.js";

const node = (name: string, inclusive: number, children: CallNode[] = []): CallNode => ({
  name,
  inclusive,
  exclusive: inclusive - children.reduce((s, c) => s + c.inclusive, 0),
  children,
});

describe("pruneCallGraph (paper 002, section 4)", () => {
  // Paper 002's Figure 3: A's children B and C average 500; C (< 50) is pruned by beta with its
  // child; B's children together are under 10 % of B and are pruned by alpha. The figure's
  // numbers are not in the text; these values satisfy every statement the text makes.
  const figure3 = (): CallNode => node("A", 1000, [node("B", 960, [node("D", 40), node("E", 30)]), node("C", 40, [node("F", 25)])]);

  it("reproduces the example of Figure 3", () => {
    const r = pruneCallGraph(figure3(), { alpha: 0.1, beta: 0.1 });
    expect(r.coreNames).toEqual(["A", "B"]);
    expect(r.pruned.map((p) => [p.path, p.reason])).toEqual([
      ["A => B => D", "alpha"],
      ["A => B => E", "alpha"],
      ["A => C", "beta"],
    ]);
    expect(r.keptShare).toBeCloseTo(1 - (40 + 30 + 40) / 1000, 12);
    expect(r.core.children.map((c) => c.name)).toEqual(["B"]);
  });

  it("folds pruned time into the kept parent when asked", () => {
    const r = pruneCallGraph(figure3(), { fold: true });
    expect(r.keptShare).toBe(1);
    expect(r.folded).toBe(110);
    expect(r.core.exclusive).toBe(0 + 40);
    expect(r.core.children[0]!.exclusive).toBe(960 - 70 + 70);
  });

  it("keeps 15 children of 1/15 each (decisions relative to siblings, not the total)", () => {
    const r = pruneCallGraph(node("root", 15, Array.from({ length: 15 }, (_, i) => node(`c${i}`, 1))));
    expect(r.coreNames.length).toBe(16);
    expect(r.pruned).toEqual([]);
  });

  it("prunes exactly the planted insignificant components of random call trees", () => {
    // Each child is planted either significant (inclusive in [1, 2] x base) or insignificant
    // (< 0.001 x base); each parent either lets its children dominate or dwarfs them (alpha case).
    type Plan = { sig: boolean[]; dwarf: boolean; kids: Plan[] };
    const randomPlan = (rnd: () => number, depth: number): Plan => {
      const n = depth >= 4 ? 0 : Math.floor(rnd() * 5);
      return { sig: Array.from({ length: n }, () => rnd() < 0.6), dwarf: rnd() < 0.2, kids: Array.from({ length: n }, () => randomPlan(rnd, depth + 1)) };
    };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
        let s = seed;
        const rnd = (): number => ((s = (s * 16807) % 2147483647) / 2147483647);
        const p = randomPlan(rnd, 0);
        const expected = new Set<string>();
        const build = (pl: Plan, name: string, path: string, keep: boolean, depth: number): CallNode => {
          if (keep) expected.add(path);
          const n = Math.min(pl.sig.length, pl.kids.length);
          const children: CallNode[] = [];
          const anySig = pl.sig.slice(0, n).some((x) => x);
          for (let i = 0; i < n; i++) {
            const sig = pl.sig[i]! && depth < 6;
            const child = build(pl.kids[i]!, `${name}.${i}`, `${path} => ${name}.${i}`, keep && sig && !pl.dwarf && anySig, depth + 1);
            const v = sig ? 1 + rnd() : 0.0005 * rnd();
            scale(child, v / Math.max(child.inclusive, 1e-300));
            children.push(child);
          }
          const sum = children.reduce((a, c) => a + c.inclusive, 0);
          // Dwarfing parents: children < 5 % of the parent (alpha prunes them all); otherwise > 50 %.
          // Without a significant child, the parent also dwarfs its children.
          const own = pl.dwarf || !anySig ? sum * 20 + 1 : sum * 0.5;
          return { name, inclusive: sum + own, exclusive: own, children };
        };
        const root = build(p, "r", "r", true, 0);
        const r = pruneCallGraph(root, { alpha: 0.1, beta: 0.1 });
        expect(new Set(r.kept.map((k) => k.path))).toEqual(expected);
        for (const k of r.kept) expect(expected.has(k.path)).toBe(true);
      }),
      { seed: 17, numRuns: 200 },
    );
  });

  it("rejects thresholds outside [0, 1]", () => {
    expect(() => pruneCallGraph(figure3(), { alpha: 1.5 })).toThrow(AnalysisInputError);
    expect(() => pruneCallGraph(figure3(), { beta: -0.1 })).toThrow(AnalysisInputError);
  });
});

function scale(n: CallNode, f: number): void {
  n.inclusive *= f;
  n.exclusive *= f;
  for (const c of n.children) scale(c, f);
}

describe("call trees from TAU timers", () => {
  it("builds a tree from full callpaths", () => {
    const { root, shape } = callTreeFromTimers([
      { name: "main", inclusive: 100, exclusive: 10 },
      { name: "main => a", inclusive: 60, exclusive: 20 },
      { name: "main => a => b", inclusive: 40, exclusive: 40 },
      { name: "main => c", inclusive: 30, exclusive: 30 },
      { name: "a", inclusive: 60, exclusive: 20 },
      { name: "b", inclusive: 40, exclusive: 40 },
      { name: "c", inclusive: 30, exclusive: 30 },
    ]);
    expect(shape).toBe("full-callpaths");
    expect(root.name).toBe("main");
    expect(root.children.map((c) => [c.name, c.inclusive])).toEqual([["a", 60], ["c", 30]]);
    expect(root.children[0]!.children[0]!.name).toBe("b");
  });

  it("expands TAU's depth-2 callpaths, scaling a routine's callees by the share of its context", () => {
    // solve is called from main (80 of its 100) and from init (20 of 100); it calls mult for 50.
    const { root, shape } = callTreeFromTimers([
      { name: "main", inclusive: 200, exclusive: 10 },
      { name: "init", inclusive: 30, exclusive: 10 },
      { name: "solve", inclusive: 100, exclusive: 50 },
      { name: "mult", inclusive: 50, exclusive: 50 },
      { name: "main => init", inclusive: 30, exclusive: 10 },
      { name: "main => solve", inclusive: 80, exclusive: 40 },
      { name: "init => solve", inclusive: 20, exclusive: 10 },
      { name: "solve => mult", inclusive: 50, exclusive: 50 },
    ]);
    expect(shape).toBe("truncated-callpaths");
    const solve = root.children.find((c) => c.name === "solve")!;
    expect(solve.children[0]!.name).toBe("mult");
    expect(solve.children[0]!.inclusive).toBeCloseTo(40, 12);
    const init = root.children.find((c) => c.name === "init")!;
    expect(init.children[0]!.children[0]!.inclusive).toBeCloseTo(10, 12);
  });

  it("treats a flat profile as the top timer with every other timer's exclusive time below it", () => {
    const { root, shape } = callTreeFromTimers([
      { name: ".TAU application", inclusive: 100, exclusive: 5 },
      { name: "compute", inclusive: 90, exclusive: 60 },
      { name: "MPI_Send()", inclusive: 30, exclusive: 30 },
      { name: "tiny", inclusive: 5, exclusive: 5 },
    ]);
    expect(shape).toBe("flat");
    expect(root.children.map((c) => c.inclusive)).toEqual([60, 30, 5]);
    expect(pruneCallGraph(root).coreNames).toEqual([".TAU application", "compute", "MPI_Send()", "tiny"]);
    expect(pruneCallGraph(root, { beta: 0.3 }).coreNames).toEqual([".TAU application", "compute", "MPI_Send()"]);
  });

  it("aggregates ranks by mean and max, and unites cores across trials", () => {
    const a = node("main", 100, [node("x", 90), node("y", 3)]);
    const b = node("main", 100, [node("x", 3), node("y", 85)]);
    expect(aggregateCallTrees([a, b], "max").children.map((c) => c.inclusive)).toEqual([90, 85]);
    expect(aggregateCallTrees([a, b], "mean").children.map((c) => c.inclusive)).toEqual([46.5, 44]);
    const across = pruneAcross([a, b]);
    expect(across.coreNames).toEqual(["main", "x", "y"]);
    expect(across.results[0]!.coreNames).toEqual(["main", "x"]);
  });

  it("rejects negative values with the timer's name", () => {
    expect(() => callTreeFromTimers([{ name: "bad", inclusive: -1, exclusive: 0 }])).toThrow(/bad/);
  });
});
