/**
 * Call trees for pruning, built from TAU timers: full callpaths (`A => B => C`), TAU's default
 * depth-2 callpaths (truncated suffixes of the stack), or flat profiles without any callpath.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import { nestParameterTimers, type NestedParameters } from "./parameter-timers.js";

/** A node of a call tree. Values are in the metric's units (microseconds for TIME). */
export interface CallNode {
  /** Timer (component or routine) name. */
  readonly name: string;
  /** Inclusive value: this node and everything it calls. */
  inclusive: number;
  /** Exclusive value: this node alone. */
  exclusive: number;
  /**
   * Set on a node that stands for its timer's exclusive time only (the timers under the top one of
   * a flat profile, whose callees are not recorded): the timer's inclusive value as the profile
   * records it. `inclusive` (what pruning judges) is then the exclusive value. Reports only.
   */
  recordedInclusive?: number;
  /** Callees, in input order. */
  readonly children: CallNode[];
}

/** Name of the synthetic root over several top-level timers (the roots of different threads, say). */
export const ALL_ROOTS = "(all roots)";

/**
 * The one root of `tops`, or (for several, or when `synthetic` asks) a synthetic
 * {@link ALL_ROOTS} node over them whose inclusive value is their sum (it has no time of its own).
 * @internal
 */
export function rootOver(tops: CallNode[], synthetic = tops.length > 1): CallNode {
  if (!synthetic) return tops[0]!;
  return { name: ALL_ROOTS, inclusive: tops.reduce((s, r) => s + r.inclusive, 0), exclusive: 0, children: tops };
}

/** One timer of a profile: a flat name (`foo`) or a callpath (`main => foo`). */
export interface TimerValue {
  /** Timer name as TAU writes it; callpaths join names with `=>`. */
  readonly name: string;
  /** Inclusive value. */
  readonly inclusive: number;
  /** Exclusive value. */
  readonly exclusive: number;
}

/** How a call tree was assembled, for reports. */
export type CallTreeShape = "full-callpaths" | "truncated-callpaths" | "flat";

/** Result of {@link callTreeFromTimers}. */
export interface BuiltCallTree {
  /** The root (the top-level timer, such as `.TAU application` or `main`). */
  readonly root: CallNode;
  /** How the tree was built. */
  readonly shape: CallTreeShape;
  /** TAU_PARAM timers placed under their base timer, or dropped (see {@link nestParameterTimers}). */
  readonly parameterTimers: NestedParameters;
}

/** Splits a TAU callpath name into its routine names. */
export function splitCallpath(name: string): string[] {
  return name.split("=>").map((s) => s.trim()).filter((s) => s !== "");
}

/** Options of {@link callTreeFromTimers}. */
export interface CallTreeOptions {
  /** Depth limit when expanding truncated callpaths (default 64). */
  readonly maxDepth?: number;
}

/**
 * Builds a call tree from a profile's timers.
 *
 * - Full callpaths (every path starts at a root timer): the tree of the paths.
 * - Truncated callpaths (TAU's default depth 2, `caller => callee` pairs whose caller is not a
 *   root): edges are expanded from the roots; below a node reached in one context, the callee
 *   edges of its routine are scaled by the share of the routine's total inclusive time spent in
 *   that context (recursion stops at a routine already on the stack).
 * - Flat profiles (no `=>` at all): the timer with the largest inclusive value is the root, and
 *   every other timer becomes a leaf child that holds its exclusive value, its recorded inclusive
 *   value kept in `recordedInclusive`: flat profiles do not record who calls whom, inclusive
 *   values of nested timers overlap (their sum can exceed the root's), and exclusive values add
 *   up to the root's inclusive time.
 *
 * In every shape, parameter-profiled timers (`f [ <n> = <v> ]`, TAU_PARAM) that sit next to their
 * base timer `f` are moved under it (see {@link nestParameterTimers}); in callpath profiles TAU
 * does not record them in paths, so they are not in the tree at all.
 *
 * @throws AnalysisInputError when there are no timers or a value is negative or not finite
 */
export function callTreeFromTimers(timers: readonly TimerValue[], options: CallTreeOptions = {}): BuiltCallTree {
  if (timers.length === 0) throw new AnalysisInputError("no timers to build a call tree from");
  for (const t of timers)
    if (!(t.inclusive >= 0) || !(t.exclusive >= 0) || !Number.isFinite(t.inclusive) || !Number.isFinite(t.exclusive))
      throw new AnalysisInputError(`timer '${t.name}' has invalid values (inclusive ${t.inclusive}, exclusive ${t.exclusive})`);
  const flat = new Map<string, TimerValue>();
  const paths: { names: string[]; t: TimerValue }[] = [];
  for (const t of timers) {
    const names = splitCallpath(t.name);
    if (names.length === 0) continue;
    if (names.length === 1) flat.set(names[0]!, t);
    else paths.push({ names, t });
  }
  if (paths.length === 0) return finished(flatTree([...flat.values()]), "flat");

  // Roots: routines that start a path and are never called (self-recursion aside), or flat
  // timers that appear in no path.
  const called = new Set<string>();
  const appears = new Set<string>();
  for (const { names } of paths) {
    names.forEach((n, i) => {
      appears.add(n);
      if (i > 0 && n !== names[i - 1]) called.add(n);
    });
  }
  let roots = [...new Set(paths.map((p) => p.names[0]!))].filter((n) => !called.has(n));
  if (roots.length === 0) roots = [maxInclusive([...flat.values()]).name];
  const rootSet = new Set(roots);

  const trieRoots = new Map<string, CallNode>();
  const nodeOf = (names: string[]): CallNode => {
    let node = trieRoots.get(names[0]!);
    if (!node) {
      const f = flat.get(names[0]!);
      node = { name: names[0]!, inclusive: f?.inclusive ?? 0, exclusive: f?.exclusive ?? 0, children: [] };
      trieRoots.set(names[0]!, node);
    }
    for (let i = 1; i < names.length; i++) {
      let child: CallNode | undefined = node.children.find((c) => c.name === names[i]);
      if (!child) node.children.push((child = { name: names[i]!, inclusive: NaN, exclusive: NaN, children: [] }));
      node = child;
    }
    return node;
  };
  const edges = new Map<string, { callee: string; t: TimerValue }[]>();
  const addEdge = (caller: string, callee: string, t: TimerValue): void => {
    const list = edges.get(caller) ?? [];
    if (!list.some((e) => e.callee === callee)) list.push({ callee, t });
    edges.set(caller, list);
  };
  let truncated = false;
  for (const { names, t } of paths) {
    if (rootSet.has(names[0]!)) {
      const n = nodeOf(names);
      n.inclusive = t.inclusive;
      n.exclusive = t.exclusive;
    } else truncated = true;
  }
  // caller → callee edges for expanding truncated contexts: pairs (`A => B`, the routine's total
  // under that caller) first, then the last pair of longer truncated paths not already known.
  for (const { names, t } of paths) if (names.length === 2) addEdge(names[0]!, names[1]!, t);
  for (const { names, t } of paths) if (names.length > 2 && !rootSet.has(names[0]!)) addEdge(names[names.length - 2]!, names[names.length - 1]!, t);
  const maxDepth = options.maxDepth ?? 64;
  const fill = (node: CallNode, stack: string[]): void => {
    if (Number.isNaN(node.inclusive)) {
      // A path prefix that has no timer of its own: its children's sum is the best estimate.
      node.inclusive = node.children.reduce((s, c) => s + (Number.isNaN(c.inclusive) ? 0 : c.inclusive), 0);
      node.exclusive = 0;
    }
    if (node.children.length === 0 && truncated && stack.length < maxDepth) expand(node, stack);
    for (const c of node.children) fill(c, [...stack, node.name]);
  };
  const expand = (node: CallNode, stack: string[]): void => {
    const out = edges.get(node.name);
    const total = flat.get(node.name)?.inclusive;
    if (!out || !total || total <= 0) return;
    const share = Math.min(1, node.inclusive / total);
    const seen = new Set<string>();
    for (const { callee, t } of out) {
      if (callee === node.name || stack.includes(callee) || seen.has(callee)) continue;
      seen.add(callee);
      node.children.push({ name: callee, inclusive: t.inclusive * share, exclusive: t.exclusive * share, children: [] });
    }
  };
  const built = roots.map((r) => nodeOf([r]));
  for (const r of built) fill(r, []);
  return finished(rootOver(built), truncated ? "truncated-callpaths" : "full-callpaths");
}

/** The built tree, its parameter-profiled timers moved under their base timers. */
function finished(root: CallNode, shape: CallTreeShape): BuiltCallTree {
  return { root, shape, parameterTimers: nestParameterTimers(root) };
}

function maxInclusive(list: TimerValue[]): TimerValue {
  if (list.length === 0) throw new AnalysisInputError("no flat timer to take as the root");
  return list.reduce((a, b) => (b.inclusive > a.inclusive ? b : a));
}

function flatTree(list: TimerValue[]): CallNode {
  const top = maxInclusive(list);
  return {
    name: top.name,
    inclusive: top.inclusive,
    exclusive: top.exclusive,
    children: list.filter((t) => t !== top).map((t) => ({ name: t.name, inclusive: t.exclusive, exclusive: t.exclusive, recordedInclusive: t.inclusive, children: [] })),
  };
}
