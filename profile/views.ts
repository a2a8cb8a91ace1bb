/**
 * Views of a trial's timers: the flat profile, the callpath tree, and lookup of TAU_PARAM
 * timers by parameter value.
 */
import type { ProfileView } from "./derived.js";
import type { Timer, Trial } from "./model.js";
import { parseParameterizedName } from "./names.js";

/** Timers without `=>`, in trial order (TAU writes every routine flat as well as in callpaths). */
export function flatTimers(trial: Trial): Timer[] {
  return trial.timers.filter((t) => !t.isCallpath);
}

/** How many flat timers and callpath timers (`A => B`) a trial has, as `profile show` and reports count them. */
export function timerCounts(trial: Trial): { readonly timers: number; readonly callpaths: number } {
  let callpaths = 0;
  for (const t of trial.timers) if (t.isCallpath) callpaths++;
  return { timers: trial.timers.length - callpaths, callpaths };
}

/** Callpath timers (`A => B`), in trial order. */
export function callpathTimers(trial: Trial): Timer[] {
  return trial.timers.filter((t) => t.isCallpath);
}

/**
 * The flat timers that are roots of the callpath tree: those that begin callpaths and are never
 * called from another timer (`.TAU application`, `main`), in trial order. Empty without callpaths.
 */
export function callpathRoots(trial: Trial): Timer[] {
  const paths = callpathTimers(trial);
  const called = calledNames(paths);
  const first = new Set(paths.map((t) => t.path[0]));
  return flatTimers(trial).filter((t) => first.has(t.name) && !called.has(t.name));
}

/** The names that appear below the first element of some path: routines some timer calls. */
function calledNames(paths: readonly Timer[]): Set<string> {
  const called = new Set<string>();
  for (const t of paths) for (let i = 1; i < t.path.length; i++) called.add(t.path[i]);
  return called;
}

/** One line of a flat profile. Values are of one metric; TIME values in microseconds. */
export interface FlatProfileRow {
  readonly timer: Timer;
  readonly calls: number;
  readonly subroutines: number;
  readonly exclusive: number;
  readonly inclusive: number;
}

/**
 * The flat profile of one view (a thread or a derived thread) for one metric: every flat timer
 * present in the view, in trial order.
 */
export function flatProfile(trial: Trial, view: ProfileView, metric = 0): FlatProfileRow[] {
  const rows: FlatProfileRow[] = [];
  for (const t of trial.timers) {
    if (t.isCallpath || view.present[t.index] === 0) continue;
    rows.push({
      timer: t,
      calls: view.calls[t.index],
      subroutines: view.subroutines[t.index],
      exclusive: view.exclusive[metric][t.index],
      inclusive: view.inclusive[metric][t.index],
    });
  }
  return rows;
}

/** A node of the callpath tree. */
export interface CallpathNode {
  /** Routine name (last path element). */
  readonly name: string;
  /** Path from the tree's root to this node (computed on access from the parent links). */
  readonly path: readonly string[];
  /** Parent node, undefined for a top-level node. */
  readonly parent: CallpathNode | undefined;
  /**
   * Timer holding this node's values: the callpath timer, the flat timer for a top-level node, or
   * -1 for a node the data only implies (the prefix of a truncated path).
   */
  readonly timer: number;
  readonly children: CallpathNode[];
}

/** @internal */
class TreeNode implements CallpathNode {
  readonly children: TreeNode[] = [];
  /** Children by name, for building. */
  readonly byName = new Map<string, TreeNode>();
  constructor(
    readonly name: string,
    readonly parent: TreeNode | undefined,
    public timer: number,
  ) {}
  get path(): string[] {
    const out: string[] = [];
    for (let n: TreeNode | undefined = this; n; n = n.parent) out.push(n.name);
    return out.reverse();
  }
}

/** The callpath tree of a trial. */
export interface CallpathTree {
  /** Top-level nodes. */
  readonly roots: CallpathNode[];
  /**
   * True when some callpaths do not start at a root (TAU's default depth 2 keeps only the last two
   * frames): such paths hang under a top-level node named after their first element.
   */
  readonly truncated: boolean;
}

/**
 * Builds the callpath tree from the callpath timers. A path `[A,B,C]` hangs under `[A,B]`; missing
 * intermediate nodes are created with `timer = -1`. Roots are the first elements of callpaths that
 * never appear deeper in any path (`.TAU application`); their values are those of the flat timer of
 * that name. A path whose first element is not a root (a truncated depth-limited path) becomes a
 * top-level subtree and the tree is marked `truncated`. Without any callpath, every flat timer is a
 * root. Children are in trial order. Linear in the total length of the paths.
 */
export function callpathTree(trial: Trial): CallpathTree {
  const paths = callpathTimers(trial);
  if (paths.length === 0) {
    return { roots: flatTimers(trial).map((t) => new TreeNode(t.name, undefined, t.index)), truncated: false };
  }
  const nonFirst = calledNames(paths);
  const top = new Map<string, TreeNode>();
  const roots: TreeNode[] = [];
  let truncated = false;
  // Walk down by child name (no path strings built), so deep paths cost linear time and no stack.
  for (const t of paths) {
    if (nonFirst.has(t.path[0])) truncated = true;
    let node: TreeNode | undefined = top.get(t.path[0]);
    if (!node) {
      node = new TreeNode(t.path[0], undefined, trial.findTimer(t.path[0])?.index ?? -1);
      top.set(t.path[0], node);
      roots.push(node);
    }
    for (let d = 1; d < t.path.length; d++) {
      let child: TreeNode | undefined = node.byName.get(t.path[d]);
      if (!child) {
        child = new TreeNode(t.path[d], node, -1);
        node.byName.set(t.path[d], child);
        node.children.push(child);
      }
      node = child;
    }
    node.timer = t.index;
  }
  return { roots, truncated };
}

/** Visits every node of a tree depth-first (parent before children), with its depth (roots have 0). */
export function walkTree(tree: CallpathTree, visit: (node: CallpathNode, depth: number) => void): void {
  // An explicit stack (children pushed in reverse) keeps pre-order without recursion.
  const stack: [CallpathNode, number][] = [];
  for (let i = tree.roots.length - 1; i >= 0; i--) stack.push([tree.roots[i], 0]);
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    visit(n, d);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push([n.children[i], d + 1]);
  }
}

/** A TAU_PARAM timer matched by {@link parameterTimers}. */
export interface ParameterTimer {
  readonly timer: Timer;
  /** The parameter's value as written (`"100"`). */
  readonly value: string;
  /** Every parameter of the timer. */
  readonly parameters: ReadonlyMap<string, string>;
}

/**
 * The TAU_PARAM timers of routine `base` that carry parameter `parameter`
 * (`"f [ <size> = <100> ]"` has base `"f"`, parameter `"size"`, value `"100"`), in trial order.
 * Flat timers only; `base` is compared after normalization.
 */
export function parameterTimers(trial: Trial, base: string, parameter: string): ParameterTimer[] {
  const want = parseParameterizedName(`${base} [ <${parameter}> = <0> ]`)?.base ?? base;
  const out: ParameterTimer[] = [];
  for (const t of trial.timers) {
    if (t.isCallpath) continue;
    const p = parseParameterizedName(t.name);
    if (!p || p.base !== want) continue;
    const v = p.parameters.get(parameter);
    if (v !== undefined) out.push({ timer: t, value: v, parameters: p.parameters });
  }
  return out;
}

/**
 * The timer of routine `base` measured with `parameter = value` (compared as numbers when both
 * parse as numbers, else as strings), or undefined. Read its values with the trial's accessors or
 * a view: `view.inclusive[metric][timer.index]`.
 */
export function findParameterTimer(trial: Trial, base: string, parameter: string, value: string | number): Timer | undefined {
  const want = String(value).trim();
  const wantNum = Number(want);
  for (const p of parameterTimers(trial, base, parameter)) {
    if (p.value === want) return p.timer;
    const n = Number(p.value);
    if (want !== "" && p.value !== "" && Number.isFinite(n) && n === wantNum) return p.timer;
  }
  return undefined;
}

/** One point of a {@link parameterSeries}: a TAU_PARAM timer's values at one parameter value. */
export interface ParameterPoint {
  /** The parameter value as a number when it is numeric, else as written. */
  readonly value: number | string;
  readonly timer: Timer;
  readonly calls: number;
  readonly exclusive: number;
  readonly inclusive: number;
}

/**
 * The values of routine `base` at every value of TAU_PARAM parameter `parameter` in one view (a
 * thread or a derived thread) and metric: what a model fit of time against a parameter needs.
 * Points the view lacks are left out; numeric values come first, in increasing order, then the
 * others in trial order.
 */
export function parameterSeries(trial: Trial, view: ProfileView, base: string, parameter: string, metric = 0): ParameterPoint[] {
  const points: ParameterPoint[] = [];
  for (const p of parameterTimers(trial, base, parameter)) {
    const i = p.timer.index;
    if (view.present[i] === 0) continue;
    const n = Number(p.value);
    points.push({
      value: p.value.trim() !== "" && Number.isFinite(n) ? n : p.value,
      timer: p.timer,
      calls: view.calls[i],
      exclusive: view.exclusive[metric][i],
      inclusive: view.inclusive[metric][i],
    });
  }
  const num = (v: number | string): number => (typeof v === "number" ? v : Infinity);
  return points.sort((a, b) => num(a.value) - num(b.value) || 0);
}
