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

/** Callpath timers (`A => B`), in trial order. */
export function callpathTimers(trial: Trial): Timer[] {
  return trial.timers.filter((t) => t.isCallpath);
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
  /** Path from the tree's root to this node. */
  readonly path: readonly string[];
  /**
   * Timer holding this node's values: the callpath timer, the flat timer for a root, or -1 for a
   * node the data only implies (the prefix of a truncated path).
   */
  readonly timer: number;
  readonly children: CallpathNode[];
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
 * root. Children are in trial order.
 */
export function callpathTree(trial: Trial): CallpathTree {
  const paths = callpathTimers(trial);
  if (paths.length === 0) {
    return { roots: flatTimers(trial).map((t) => ({ name: t.name, path: t.path, timer: t.index, children: [] })), truncated: false };
  }
  const nonFirst = new Set<string>();
  for (const t of paths) for (let i = 1; i < t.path.length; i++) nonFirst.add(t.path[i]);
  const byKey = new Map<string, CallpathNode>();
  const roots: CallpathNode[] = [];
  let truncated = false;
  const nodeFor = (path: readonly string[]): CallpathNode => {
    const key = path.join(" => ");
    let n = byKey.get(key);
    if (n) return n;
    const timer = trial.findTimer(key);
    n = { name: path[path.length - 1], path, timer: timer ? timer.index : -1, children: [] };
    byKey.set(key, n);
    if (path.length === 1) roots.push(n);
    else nodeFor(path.slice(0, -1)).children.push(n);
    return n;
  };
  for (const t of paths) {
    if (nonFirst.has(t.path[0])) truncated = true;
    nodeFor(t.path);
  }
  return { roots, truncated };
}

/** Visits every node of a tree depth-first (parent before children), with its depth (roots have 0). */
export function walkTree(tree: CallpathTree, visit: (node: CallpathNode, depth: number) => void): void {
  const go = (n: CallpathNode, d: number): void => {
    visit(n, d);
    for (const c of n.children) go(c, d + 1);
  };
  for (const r of tree.roots) go(r, 0);
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
