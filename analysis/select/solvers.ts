/**
 * Exact minimisation of an assembly's cost over implementation choices: dynamic programming when
 * the interaction graph is a forest (interactions only between caller and callee in a call tree),
 * exhaustive enumeration otherwise or over a chosen subset (the pruned core set).
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import type { CostTables } from "./cost-tables.js";

/** Total cost of an assignment (implementation index per component). */
export function assignmentCost(t: CostTables, choice: ArrayLike<number>): number {
  let s = 0;
  for (let c = 0; c < t.unit.length; c++) s += t.unit[c]![choice[c]!]!;
  for (const e of t.edges) {
    const nb = t.unit[e.b]!.length;
    s += e.cost[choice[e.a]! * nb + choice[e.b]!]!;
  }
  return s;
}

/** True when the interaction graph (components as vertices, edges with tables) has no cycle. */
export function isForest(t: CostTables): boolean {
  const parent = Array.from(t.unit, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
    return x;
  };
  for (const e of t.edges) {
    const a = find(e.a);
    const b = find(e.b);
    if (a === b) return false;
    parent[a] = b;
  }
  return true;
}

/**
 * Exact optimum by dynamic programming over the interaction forest: f(v, i) = unit(v, i) +
 * Σ_children min_j [edge(v, child)(i, j) + f(child, j)]. Cost O(Σ_edges n_a·n_b + Σ n_c); ties
 * go to the implementation listed first.
 * @throws Error when the interaction graph has a cycle (check {@link isForest} first)
 */
export function solveByDynamicProgramming(t: CostTables): { choice: Int32Array; cost: number } {
  const nc = t.unit.length;
  const adj: { other: number; edge: number }[][] = Array.from({ length: nc }, () => []);
  t.edges.forEach((e, k) => {
    adj[e.a]!.push({ other: e.b, edge: k });
    adj[e.b]!.push({ other: e.a, edge: k });
  });
  const pair = (k: number, v: number, iv: number, w: number, iw: number): number => {
    const e = t.edges[k]!;
    const nb = t.unit[e.b]!.length;
    return v === e.a ? e.cost[iv * nb + iw]! : e.cost[iw * nb + iv]!;
  };
  const f: Float64Array[] = t.unit.map((u) => new Float64Array(u.length).fill(Infinity));
  // best[w][iv]: best implementation of child w given its parent's implementation iv.
  const best: Int32Array[] = t.unit.map(() => new Int32Array(0));
  const parentOf = new Int32Array(nc).fill(-2);
  const parentEdge = new Int32Array(nc).fill(-1);
  const choice = new Int32Array(nc);
  let total = 0;
  for (let r = 0; r < nc; r++) {
    if (parentOf[r] !== -2) continue;
    // Iterative DFS order so deep call chains do not overflow the stack.
    const order: number[] = [];
    const stack = [r];
    parentOf[r] = -1;
    while (stack.length > 0) {
      const v = stack.pop()!;
      order.push(v);
      for (const { other, edge } of adj[v]!) {
        if (other === parentOf[v] && edge === parentEdge[v]) continue;
        if (parentOf[other] !== -2) throw new Error("interaction graph has a cycle");
        parentOf[other] = v;
        parentEdge[other] = edge;
        stack.push(other);
      }
    }
    for (let k = order.length - 1; k >= 0; k--) {
      const v = order[k]!;
      const fv = f[v]!;
      for (const i of t.allowed[v]!) fv[i] = t.unit[v]![i]!;
      for (const { other: w, edge } of adj[v]!) {
        if (parentOf[w] !== v || parentEdge[w] !== edge) continue;
        const bw = (best[w] = new Int32Array(t.unit[v]!.length).fill(-1));
        for (const i of t.allowed[v]!) {
          let m = Infinity;
          let arg = -1;
          for (const j of t.allowed[w]!) {
            const c = pair(edge, v, i, w, j) + f[w]![j]!;
            if (c < m) {
              m = c;
              arg = j;
            }
          }
          fv[i] = fv[i]! + m;
          bw[i] = arg;
        }
      }
    }
    let m = Infinity;
    for (const i of t.allowed[r]!)
      if (f[r]![i]! < m) {
        m = f[r]![i]!;
        choice[r] = i;
      }
    total += m;
    for (const v of order) if (v !== r) choice[v] = best[v]![choice[parentOf[v]!]!]!;
  }
  return { choice, cost: total };
}

/**
 * Exhaustive search over the implementations of `free` components, the others fixed as in
 * `fixed`. Returns the best assignment and the number of assemblies evaluated.
 * @throws AnalysisInputError when the search space exceeds `limit` assemblies
 */
export function solveExhaustively(t: CostTables, free: readonly number[], fixed: ArrayLike<number>, limit = 1e7): { choice: Int32Array; cost: number; evaluated: number } {
  let space = 1;
  for (const c of free) space *= t.allowed[c]!.length;
  if (space > limit) throw new AnalysisInputError(`exhaustive search over ${space} assemblies exceeds the limit of ${limit}; prune the call graph or use the dynamic programme`);
  const cur = Int32Array.from({ length: t.unit.length }, (_, c) => fixed[c]!);
  const digit = new Int32Array(free.length);
  free.forEach((c) => (cur[c] = t.allowed[c]![0]!));
  let bestCost = assignmentCost(t, cur);
  let bestChoice = Int32Array.from(cur);
  let evaluated = 1;
  for (;;) {
    // Mixed-radix increment over the free components' allowed implementations.
    let k = 0;
    while (k < free.length) {
      const c = free[k]!;
      digit[k]!++;
      if (digit[k]! < t.allowed[c]!.length) {
        cur[c] = t.allowed[c]![digit[k]!]!;
        break;
      }
      digit[k] = 0;
      cur[c] = t.allowed[c]![0]!;
      k++;
    }
    if (k === free.length) break;
    const cost = assignmentCost(t, cur);
    evaluated++;
    if (cost < bestCost) {
      bestCost = cost;
      bestChoice = Int32Array.from(cur);
    }
  }
  return { choice: bestChoice, cost: bestCost, evaluated };
}
