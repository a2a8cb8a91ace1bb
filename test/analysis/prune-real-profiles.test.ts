import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readTrial, derivedView, callTreeFromTrial, pruneCallGraph, parameterBase, ALL_ROOTS, type CallNode, type Trial } from "../../index.js";

const DATA = "../shared/data/tau";
const OPENMP = join(DATA, "edge-cases/tools/src/taudb_c_api/tests/parse_tau_profile_test");
const MAIN = "int main(int, char **) [{matmult.c} {134,1}-{207,1}]";

/** Mean exclusive and inclusive TIME of a flat timer over all threads, from the profile's own mean view. */
function meanOf(trial: Trial, name: string): { exclusive: number; inclusive: number } {
  const mean = derivedView(trial, "mean");
  const t = trial.findTimer(name)!;
  return { exclusive: mean.exclusive[0]![t.index]!, inclusive: mean.inclusive[0]![t.index]! };
}

/** The node at the end of a ` => ` path of names. */
function nodeAt(root: CallNode, path: string): CallNode {
  let node = root;
  for (const name of path.split(" => ").slice(1)) node = node.children.find((c) => c.name === name)!;
  return node;
}

describe("pruning real profiles: threads with different roots", () => {
  it("gives each OpenMP thread's root its own subtree under a synthetic root in the mean view", () => {
    // Thread 0,0,0 runs under `int main` (2586970 us, compute 1080268 us), thread 0,0,1 under
    // `.TAU application` (2581083 us, compute 1120473 us).
    const built = callTreeFromTrial(readTrial(OPENMP));
    expect(built.shape).toBe("flat");
    const root = built.root;
    expect(root.name).toBe(ALL_ROOTS);
    expect(root.inclusive).toBeCloseTo((2586970 + 2581083) / 2, 6);
    expect(root.children.map((c) => [c.name, c.inclusive, c.children.map((g) => [g.name, g.inclusive])])).toEqual([
      [MAIN, 2586970 / 2, [["compute OpenMP region", 1080268 / 2]]],
      [".TAU application", 2581083 / 2, [["compute OpenMP region", 1120473 / 2]]],
    ]);
    const r = pruneCallGraph(root);
    // The second thread's root, TAU's root timer, stays in the kept tree but is no component.
    expect(r.coreNames).toEqual([MAIN, "compute OpenMP region"]);
    expect(r.kept.map((k) => k.name)).toContain(".TAU application");
    const max = callTreeFromTrial(readTrial(OPENMP), { view: "max" }).root;
    expect(max.children.map((c) => c.inclusive)).toEqual([2586970, 2581083]);
  });

  it("never lets a node's children add up to more than the node in the mean view of any real profile", () => {
    const inputs = [
      "ppk/mpas.ppk",
      "ppk/wrf-callpath.ppk",
      "ppk/xgc.ppk",
      "ppk/xgc-nosamples.ppk",
      "hatchet-cpi-mpi",
      "xgc-nosamples-text",
      "edge-cases/examples/wrap",
      "edge-cases/examples/workflow_consolidation/reader2_0",
      "edge-cases/examples/workflow_consolidation/xmain_0",
      "edge-cases/tools/src/taudb_c_api/tests/parse_tau_profile_test",
      ...readdirSync(join(DATA, "ppk/gromacs-scaling")).map((f) => `ppk/gromacs-scaling/${f}`),
      ...readdirSync(join(DATA, "powercap")).map((d) => `powercap/${d}`),
    ];
    const over: string[] = [];
    for (const input of inputs) {
      const walk = (n: CallNode): void => {
        const sum = n.children.reduce((s, c) => s + c.inclusive, 0);
        if (sum > n.inclusive * (1 + 1e-9)) over.push(`${input}: ${n.name} ${sum} > ${n.inclusive}`);
        n.children.forEach(walk);
      };
      walk(callTreeFromTrial(readTrial(join(DATA, input), { records: false })).root);
    }
    expect(inputs.length).toBeGreaterThan(60);
    expect(over).toEqual([]);
  }, 60_000);
});

describe("pruning real profiles: flat profiles", () => {
  it("judges ADIOS close by its exclusive time and keeps its recorded inclusive time for reports", () => {
    const trial = readTrial(join(DATA, "edge-cases/examples/workflow_consolidation/xmain_0"));
    const r = pruneCallGraph(callTreeFromTrial(trial).root);
    const close = r.kept.find((k) => k.name === "ADIOS close")!;
    const recorded = meanOf(trial, "ADIOS close");
    expect(recorded.inclusive).toBeCloseTo(5_051_000, -4);
    expect(close.inclusive).toBeCloseTo(recorded.exclusive, 6);
    expect(close.recordedInclusive).toBeCloseTo(recorded.inclusive, 6);
    expect(r.kept[0]!.recordedInclusive).toBeUndefined();
  });

  it("places the TAU_PARAM timers of __wrap_dgemm under it, splitting its time, not beside it", () => {
    const built = callTreeFromTrial(readTrial(join(DATA, "edge-cases/examples/wrap")));
    expect(built.parameterTimers).toEqual({ nested: 3, dropped: 0 });
    const top = built.root.children;
    expect(top.filter((c) => parameterBase(c.name) !== undefined)).toEqual([]);
    const dgemm = top.find((c) => c.name === "int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]")!;
    // Thread 0 records 58 us in 3 calls split 28/18/12 by size, thread 1 64 us split 40/12/12.
    expect(dgemm.inclusive).toBe(61);
    expect(dgemm.children.map((c) => [c.name.replace(/^.*\[ /, "[ "), c.inclusive])).toEqual([
      ["[ <size> = <100> ]", 34],
      ["[ <size> = <10000> ]", 15],
      ["[ <size> = <100000> ]", 12],
    ]);
    const everything = pruneCallGraph(built.root, { alpha: 0, beta: 0 });
    expect(everything.kept.length).toBe(8);
    expect(everything.coreNames.filter((n) => parameterBase(n) !== undefined)).toEqual([]);
  });
});

describe("pruning real profiles: the paper's rules are relative", () => {
  it("keeps WRF's MPI_Type_size() far below the root because it holds most of its parent's time alone", () => {
    const built = callTreeFromTrial(readTrial(join(DATA, "ppk/wrf-callpath.ppk")));
    const r = pruneCallGraph(built.root);
    const tiny = r.kept.filter((k) => k.name === "MPI_Type_size()").sort((a, b) => a.inclusive - b.inclusive)[0]!;
    expect(tiny.inclusive / r.total).toBeLessThan(1e-5);
    const parent = nodeAt(built.root, tiny.path.slice(0, tiny.path.lastIndexOf(" => ")));
    expect(parent.name).toBe("MODULE_DM::GETREALMPITYPE [{module_dm.f90} {933,21}]");
    // Alpha: the children hold at least 10 % of the parent; beta: an only child is its siblings' mean.
    expect(parent.children.map((c) => c.name)).toEqual(["MPI_Type_size()"]);
    expect(tiny.inclusive / parent.inclusive).toBeGreaterThan(0.1);
  });

  it("prunes every node below a share of the root with minShare, keeping the paper's core above it", () => {
    const root = callTreeFromTrial(readTrial(join(DATA, "ppk/wrf-callpath.ppk"))).root;
    const paper = pruneCallGraph(root);
    const r = pruneCallGraph(root, { minShare: 0.01 });
    expect(r.kept.every((k) => k.inclusive >= 0.01 * r.total)).toBe(true);
    expect(r.kept.map((k) => k.path)).toEqual(paper.kept.filter((k) => k.inclusive >= 0.01 * r.total).map((k) => k.path));
    expect(r.pruned.some((p) => p.reason === "min-share")).toBe(true);
    expect(r.coreNames.length).toBeLessThan(paper.coreNames.length / 2);
  });
});

describe("pruning a trial read from either format", () => {
  it("judges the same default metric in the .ppk and its TAU text conversion (the cycles: neither has a time)", () => {
    const ppk = callTreeFromTrial(readTrial(join(DATA, "ppk/xgc-nosamples.ppk"), { records: false })).root;
    const text = callTreeFromTrial(readTrial(join(DATA, "xgc-nosamples-text"), { records: false })).root;
    expect(text.inclusive).toBeCloseTo(ppk.inclusive, 6);
    // The cycles of the whole run: the PAPI_TOT_CYC inclusive value of the top-level timer, not its flops or branch misses.
    const trial = readTrial(join(DATA, "ppk/xgc-nosamples.ppk"), { records: false });
    const top = trial.findTimer("XGC2 [{main.F95} {17,1}-{345,16}]")!;
    expect(ppk.inclusive).toBeGreaterThanOrEqual(derivedView(trial, "mean").inclusive[trial.metricIndex("PAPI_TOT_CYC")]![top.index]!);
  });
});

describe("pruning with a TAU group folded into the callers", () => {
  const HATCHET = join(DATA, "hatchet-cpi-mpi");

  it("takes the MPI routines out of the call tree, their time kept as their callers' own", () => {
    const trial = readTrial(HATCHET);
    const mpi = new Set(trial.timers.filter((t) => t.groups.includes("MPI") && !t.name.includes("=>")).map((t) => t.name));
    expect(mpi.size).toBeGreaterThan(2);
    const whole = callTreeFromTrial(trial).root;
    const folded = callTreeFromTrial(trial, { foldGroups: ["MPI"] }).root;
    const names = (n: CallNode): string[] => [n.name, ...n.children.flatMap(names)];
    expect(names(whole).some((n) => mpi.has(n))).toBe(true);
    expect(names(folded).some((n) => mpi.has(n))).toBe(false);
    // Every node keeps its inclusive time; a caller's own time grows by its MPI callees' inclusive time.
    const check = (a: CallNode, b: CallNode): void => {
      expect(b.inclusive).toBe(a.inclusive);
      const gone = a.children.filter((c) => mpi.has(c.name)).reduce((s, c) => s + c.inclusive, 0);
      expect(b.exclusive).toBeCloseTo(a.exclusive + gone, 6);
      for (const c of b.children) check(a.children.find((x) => x.name === c.name)!, c);
    };
    check(whole, folded);
    const r = pruneCallGraph(folded);
    expect([...r.coreNames, ...r.prunedNames].some((n) => mpi.has(n))).toBe(false);
    expect(() => callTreeFromTrial(trial, { foldGroups: ["MPI", "NOPE"] })).toThrow("no timer is in group 'NOPE'; the groups of its timers: MPI, TAU_CALLPATH, TAU_DEFAULT");
  });
});
