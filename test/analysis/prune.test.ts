import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  pruneCallGraph,
  pruneAcross,
  callTreeFromTimers,
  aggregateCallTrees,
  parameterBase,
  componentName,
  ALL_ROOTS,
  AnalysisInputError,
  type CallNode,
  type TimerValue,
} from "../../analysis/index.js";

/** A flat timer of a profile; exclusive equals inclusive unless given. */
const timer = (name: string, inclusive: number, exclusive = inclusive): TimerValue => ({ name, inclusive, exclusive });

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
    // F goes with C: every node is either core or pruned.
    expect(r.prunedNames).toEqual(["D", "E", "C", "F"]);
    expect(r.pruned.map((p) => p.below)).toEqual([0, 0, 1]);
  });

  it("names every node of a tree either core or pruned, whatever the thresholds", () => {
    const names = (n: CallNode): string[] => [n.name, ...n.children.flatMap(names)];
    const tree: fc.Memo<CallNode> = fc.memo((depth) =>
      fc
        .tuple(fc.integer({ min: 1, max: 1000 }), depth <= 1 ? fc.constant<CallNode[]>([]) : fc.array(tree(depth - 1), { maxLength: 3 }))
        .map(([own, kids]) => node("", own + kids.reduce((s, c) => s + c.inclusive, 0), kids)),
    );
    fc.assert(
      fc.property(tree(5), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), (t, alpha, beta) => {
        // Unique names, depth first.
        let i = 0;
        const named = (n: CallNode): CallNode => ({ ...n, name: `n${i++}`, children: n.children.map(named) });
        const root = named(t);
        const r = pruneCallGraph(root, { alpha, beta });
        const all = names(root);
        expect([...r.coreNames, ...r.prunedNames].sort()).toEqual([...all].sort());
        expect(r.coreNames.filter((n) => r.prunedNames.includes(n))).toEqual([]);
        expect(r.kept.length + r.pruned.reduce((s, p) => s + 1 + p.below, 0)).toBe(all.length);
      }),
      { seed: 2002, numRuns: 200 },
    );
  });

  it("keeps only the children above beta times their siblings' mean when beta is above 1", () => {
    const r = pruneCallGraph(node("R", 100, [node("x", 60), node("y", 30), node("z", 10)]), { beta: 1.5 });
    expect(r.kept.map((k) => k.name)).toEqual(["R", "x"]);
    expect(r.pruned.map((p) => [p.name, p.reason])).toEqual([["y", "beta"], ["z", "beta"]]);
  });

  it("never prunes an only child by beta, which has no siblings to compare with", () => {
    // A driver holding the whole program, its only child, and below it two siblings.
    const r = pruneCallGraph(node("R", 100, [node("Driver", 99, [node("x", 60), node("y", 30)])]), { beta: 1.2 });
    expect(r.kept.map((k) => k.name)).toEqual(["R", "Driver", "x"]);
    expect(r.pruned.map((p) => [p.name, p.reason])).toEqual([["y", "beta"]]);
  });

  it("prunes nothing by alpha when alpha is 0, even under a node of no time (whose ratio is 0/0)", () => {
    // A timer too short to count (0 us) whose callees are too; alpha 0 and beta 0 prune nothing.
    const tree = node("R", 10, [node("main", 10, [node("setup", 0, [node("a", 0), node("b", 0)])])]);
    const r = pruneCallGraph(tree, { alpha: 0, beta: 0 });
    expect(r.pruned).toEqual([]);
    expect(r.kept.map((k) => k.name)).toEqual(["R", "main", "setup", "a", "b"]);
    // Any alpha above 0 prunes them: setup's share of main (0 of 10) is below it, with its callees.
    expect(pruneCallGraph(tree, { alpha: 0.01, beta: 0 }).pruned.map((p) => [p.name, p.reason, p.below])).toEqual([["setup", "alpha", 2]]);
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

  it("rejects alpha and minShare outside [0, 1] and a negative or infinite beta", () => {
    expect(() => pruneCallGraph(figure3(), { alpha: 1.5 })).toThrow(AnalysisInputError);
    expect(() => pruneCallGraph(figure3(), { beta: -0.1 })).toThrow("beta must be 0 or more, got -0.1");
    expect(() => pruneCallGraph(figure3(), { beta: Infinity })).toThrow(AnalysisInputError);
    expect(() => pruneCallGraph(figure3(), { minShare: 2 })).toThrow("minShare must be in [0, 1], got 2");
  });

  it("prunes nodes below a share of the root with minShare, after alpha and beta and only then", () => {
    // With loose alpha and beta everything survives; D is 4 % of the root, E 3 %, C 4 %, F 2.5 %.
    const loose = { alpha: 0.01, beta: 0.01 };
    expect(pruneCallGraph(figure3(), loose).pruned).toEqual([]);
    const r = pruneCallGraph(figure3(), { ...loose, minShare: 0.035 });
    expect(r.pruned.map((p) => [p.path, p.reason, p.parent])).toEqual([
      ["A => B => E", "min-share", "B"],
      ["A => C => F", "min-share", "C"],
    ]);
    expect(r.minShare).toBe(0.035);
    // The paper's rules decide first: C goes by beta, not by the minimum share.
    expect(pruneCallGraph(figure3(), { minShare: 0.05 }).pruned.find((p) => p.name === "C")!.reason).toBe("beta");
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
    // The recorded inclusive values stay with the leaves for reports; the root has its own.
    expect(root.children.map((c) => c.recordedInclusive)).toEqual([90, 30, 5]);
    expect(root.recordedInclusive).toBeUndefined();
    const kept = pruneCallGraph(root).kept;
    expect(kept.map((k) => [k.name, k.inclusive, k.exclusive, k.recordedInclusive])).toEqual([
      [".TAU application", 100, 5, undefined],
      ["compute", 60, 60, 90],
      ["MPI_Send()", 30, 30, 30],
      ["tiny", 5, 5, 5],
    ]);
    expect(pruneCallGraph(root).coreNames).toEqual(["compute", "MPI_Send()", "tiny"]);
    expect(pruneCallGraph(root, { beta: 0.3 }).coreNames).toEqual(["compute", "MPI_Send()"]);
  });

  it("aggregates ranks by mean and max, and unites cores across trials", () => {
    const a = node("main", 100, [node("x", 90), node("y", 3)]);
    const b = node("main", 100, [node("x", 3), node("y", 85)]);
    expect(aggregateCallTrees([a, b], "max").children.map((c) => c.inclusive)).toEqual([90, 85]);
    expect(aggregateCallTrees([a, b], "mean").children.map((c) => c.inclusive)).toEqual([46.5, 44]);
    expect(aggregateCallTrees([a, b], "min").children.map((c) => c.inclusive)).toEqual([3, 3]);
    // Over 4 threads, two of them idle: the mean counts the idle ones as 0.
    expect(aggregateCallTrees([a, b], "mean", { threads: 4 }).children.map((c) => c.inclusive)).toEqual([23.25, 22]);
    expect(() => aggregateCallTrees([a, b], "mean", { threads: 1 })).toThrow(AnalysisInputError);
    // An unknown way is refused, not taken for the mean.
    expect(() => aggregateCallTrees([a, b], "median" as never)).toThrow(new AnalysisInputError("cannot aggregate call trees by 'median': use mean, min, max, sum"));
    const across = pruneAcross([a, b]);
    expect(across.coreNames).toEqual(["main", "x", "y"]);
    expect(across.results[0]!.coreNames).toEqual(["main", "x"]);
  });

  it("puts threads with different roots under a synthetic root, never one root under another", () => {
    const t0 = node("int main", 100, [node("compute", 40)]);
    const t1 = node(".TAU application", 80, [node("compute", 50)]);
    const mean = aggregateCallTrees([t0, t1], "mean");
    expect(mean.name).toBe(ALL_ROOTS);
    expect(mean.inclusive).toBe(90);
    expect(mean.children.map((c) => [c.name, c.inclusive, c.children.map((g) => [g.name, g.inclusive])])).toEqual([
      ["int main", 50, [["compute", 20]]],
      [".TAU application", 40, [["compute", 25]]],
    ]);
    // A thread that already has several roots joins the others' under the same synthetic root.
    const t2 = { name: ALL_ROOTS, inclusive: 30, exclusive: 0, children: [node("int main", 10), node("helper", 20)] };
    const max = aggregateCallTrees([t0, t1, t2], "max");
    expect(max.children.map((c) => [c.name, c.inclusive])).toEqual([["int main", 100], [".TAU application", 80], ["helper", 20]]);
    expect(max.inclusive).toBe(100);
    // The synthetic root is no component.
    expect(pruneCallGraph(mean).coreNames).toEqual(["int main", "compute"]);
  });

  it("rejects negative values with the timer's name", () => {
    expect(() => callTreeFromTimers([{ name: "bad", inclusive: -1, exclusive: 0 }])).toThrow(/bad/);
  });
});

describe("parameter-profiled timers (TAU_PARAM)", () => {
  const dgemm = "int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]";

  it("reads the base timer from TAU's parameter suffix", () => {
    expect(parameterBase(`${dgemm} [ <size> = <100> ]`)).toBe(dgemm);
    expect(parameterBase("f [<n> = <x y>]")).toBe("f");
    expect(parameterBase(dgemm)).toBeUndefined();
    expect(parameterBase("[ <n> = <1> ]")).toBeUndefined();
    expect(componentName(`${dgemm} [ <size> = <100> ]`)).toBe(dgemm);
    expect(componentName("MPI_Init()")).toBe("MPI_Init()");
  });

  it("nests them under their base timer in a flat profile, so beta's sibling mean counts the base's time once", () => {
    const built = callTreeFromTimers([timer("main", 100, 5), timer("A", 40), timer("A [ <n> = <1> ]", 30), timer("A [ <n> = <2> ]", 10), timer("B", 12), timer("C", 43)]);
    expect(built.parameterTimers).toEqual({ nested: 2, dropped: 0 });
    expect(built.root.children.map((c) => c.name)).toEqual(["A", "B", "C"]);
    const a = built.root.children[0]!;
    expect(a.children.map((c) => [c.name, c.inclusive])).toEqual([["A [ <n> = <1> ]", 30], ["A [ <n> = <2> ]", 10]]);
    expect([a.inclusive, a.exclusive]).toEqual([40, 0]);
    // Siblings A, B, C average 31.7: B (12) is below 0.4 of that. Counting A's parameter values
    // as siblings too would lower the mean to 27 and keep B.
    const r = pruneCallGraph(built.root, { beta: 0.4 });
    expect(r.pruned.map((p) => p.name)).toEqual(["B"]);
    expect(r.kept.map((k) => k.name)).toEqual(["main", "A", "A [ <n> = <1> ]", "A [ <n> = <2> ]", "C"]);
    // The parameter values are A's time, so the core components are A's.
    expect(r.coreNames).toEqual(["main", "A", "C"]);
    const siblings = node("main", 100, [node("A", 40), node("A [ <n> = <1> ]", 30), node("A [ <n> = <2> ]", 10), node("B", 12), node("C", 43)]);
    expect(pruneCallGraph(siblings, { beta: 0.4 }).coreNames).toContain("B");
  });

  it("scales them to the exclusive time a flat profile's base timer holds", () => {
    // A spends 40 of its 60 in itself; its instances with n = 1 took 45 in all, with n = 2 15.
    const { root } = callTreeFromTimers([timer("main", 100, 20), timer("A", 60, 40), timer("A [ <n> = <1> ]", 45), timer("A [ <n> = <2> ]", 15), timer("B", 20), timer("main [ <k> = <3> ]", 100)]);
    const a = root.children.find((c) => c.name === "A")!;
    expect(a.children.map((c) => [c.inclusive, c.recordedInclusive])).toEqual([[30, 45], [10, 15]]);
    // The root's own parameter timer repeats the whole run: it is left out.
    expect(root.children.map((c) => c.name)).toEqual(["A", "B"]);
  });
});
