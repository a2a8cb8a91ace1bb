/**
 * Call trees of several threads (or ranks) combined into one, as ParaProf's derived threads
 * combine timers: the mean, minimum, maximum or total of every node along its path.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import { ALL_ROOTS, rootOver, type CallNode } from "./call-tree.js";

/** How per-thread call trees are combined. */
export type TreeAggregate = "mean" | "min" | "max" | "sum";
const AGGREGATES: readonly TreeAggregate[] = ["mean", "min", "max", "sum"];

/** Options of {@link aggregateCallTrees}. */
export interface AggregateOptions {
  /**
   * The number of threads the mean divides by (default: the number of trees). Threads without a
   * tree (idle threads) then count as zero everywhere, as in ParaProf's mean thread.
   */
  readonly threads?: number;
}

/**
 * Combines call trees of several threads node by node along paths. Mean and sum count a path
 * missing on a thread as 0; min and max consider the threads that have it. When the trees do not
 * all have the same root (thread 0 under `main`, thread 1 under `.TAU application`), the result
 * is a synthetic {@link ALL_ROOTS} root over the threads' roots, valued by the combined per-thread
 * totals: one thread's root never becomes another's child.
 * @throws AnalysisInputError for an empty list, or `threads` below the number of trees
 */
export function aggregateCallTrees(trees: readonly CallNode[], how: TreeAggregate, options: AggregateOptions = {}): CallNode {
  if (trees.length === 0) throw new AnalysisInputError("no call trees to aggregate");
  // An unknown word would aggregate as the mean (the fall-through below) without a word.
  if (!(AGGREGATES as readonly string[]).includes(how)) throw new AnalysisInputError(`cannot aggregate call trees by '${String(how)}': use ${AGGREGATES.join(", ")}`);
  const threads = options.threads ?? trees.length;
  if (!(Number.isInteger(threads) && threads >= trees.length)) throw new AnalysisInputError(`cannot average ${trees.length} call trees over ${threads} threads`);
  const combine = (v: number[]): number => {
    if (how === "max") return v.reduce((a, b) => (b > a ? b : a));
    if (how === "min") return v.reduce((a, b) => (b < a ? b : a));
    const s = v.reduce((a, b) => a + b, 0);
    return how === "sum" ? s : s / threads;
  };
  const first = trees[0]!.name;
  const oneRoot = first !== ALL_ROOTS && trees.every((t) => t.name === first);
  return mergeNodes(oneRoot ? trees : trees.map((t) => (t.name === ALL_ROOTS ? t : rootOver([t], true))), combine);
}

/**
 * Nodes of one name (sibling nodes, or one node of several threads) merged into one: each value
 * the `combine` of theirs, and their callees grouped by name and merged alike.
 */
function mergeNodes(nodes: readonly CallNode[], combine: (values: number[]) => number): CallNode {
  const out: CallNode = {
    name: nodes[0]!.name,
    inclusive: combine(nodes.map((n) => n.inclusive)),
    exclusive: combine(nodes.map((n) => n.exclusive)),
    children: groupByName(nodes.flatMap((n) => n.children)).map((same) => mergeNodes(same, combine)),
  };
  if (nodes.some((n) => n.recordedInclusive !== undefined)) out.recordedInclusive = combine(nodes.map((n) => n.recordedInclusive ?? n.inclusive));
  return out;
}

/** Nodes grouped by name, groups in order of first appearance. */
function groupByName(nodes: readonly CallNode[]): CallNode[][] {
  const byName = new Map<string, CallNode[]>();
  for (const n of nodes) {
    const same = byName.get(n.name);
    if (same) same.push(n);
    else byName.set(n.name, [n]);
  }
  return [...byName.values()];
}

const total = (values: number[]): number => values.reduce((a, b) => a + b, 0);

/**
 * Sibling nodes of one name joined into one (in order of first appearance): inclusive and
 * exclusive values summed, callees joined alike; a name that appears once keeps its node. The
 * input is not changed.
 */
export function joinSiblingsByName(nodes: readonly CallNode[]): CallNode[] {
  return groupByName(nodes).map((same) => (same.length === 1 ? same[0]! : mergeNodes(same, total)));
}
