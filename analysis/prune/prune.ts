/**
 * The alpha/beta pruning of paper 002, section 4: find the "core" components of a call tree.
 *
 * For each kept node J (depth first from the root), with children C_J of inclusive values T_i:
 * 1. if Σ T_i / T_J < alpha, all children are pruned (they contribute little to J);
 * 2. otherwise, with T' = Σ T_i / N_J the mean inclusive value of the children, each child with
 *    T_i / T' < beta is pruned (the paper prints `C_J/T'`, a typo for `T_i/T'`), and the others
 *    are kept and examined in turn.
 * A pruned child is pruned with its whole subtree: every node of the tree ends up either kept or
 * in a pruned subtree. Decisions use inclusive values only.
 *
 * Both rules are relative (to the parent, to the siblings), so on real profiles the core keeps
 * nodes that are tiny next to the root when all their siblings are tiny too: the paper's example
 * of 15 children of 1/15 each is why. An optional third rule, `minShare` (not the paper's, off by
 * default), also prunes every node below a share of the root.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import { TAU_ROOT_TIMER } from "../../profile/index.js";
import { ALL_ROOTS, type CallNode } from "./call-tree.js";
import { componentName } from "./parameter-timers.js";

/** Options of {@link pruneCallGraph}. */
export interface PruneOptions {
  /**
   * Threshold on the children's total share of their parent, in [0, 1] (default 0.1, the
   * paper's). Above 1 it would prune every child of every node, as children never hold more
   * than their parent; 0 turns the rule off.
   */
  readonly alpha?: number;
  /**
   * Threshold on a child's share of the mean of its siblings, 0 or more (default 0.1, the
   * paper's). Up to 1 the largest child always stays; above 1 only children above beta times
   * the mean of their siblings stay (the dominant ones), and siblings of equal value are all
   * pruned. 0 turns the rule off.
   */
  readonly beta?: number;
  /** Add the inclusive value of pruned children to the kept parent's exclusive value (default false). */
  readonly fold?: boolean;
  /**
   * Not in the paper: after alpha and beta, also prune every child whose inclusive value is below
   * this share of the root's (reason "min-share"). In [0, 1]; default 0 (off).
   */
  readonly minShare?: number;
}

/** Why a node was pruned: see {@link PrunedNode.reason}. */
export type PruneReason = "alpha" | "beta" | "min-share";

/** A node removed by pruning. */
export interface PrunedNode {
  /** Path from the root, names joined by ` => `. */
  readonly path: string;
  /** Routine or component name. */
  readonly name: string;
  /** Name of the kept node it was pruned from. */
  readonly parent: string;
  /** Inclusive value of the pruned subtree. */
  readonly inclusive: number;
  /**
   * "alpha": the children together were insignificant; "beta": small next to its siblings;
   * "min-share": kept by both rules but below `minShare` of the root.
   */
  readonly reason: PruneReason;
  /** Share of the root's inclusive value, in [0, 1]. */
  readonly share: number;
  /** Number of nodes below it, pruned with it (0 for a leaf). */
  readonly below: number;
}

/** A node kept in the core tree. */
export interface KeptNode {
  /** Path from the root, names joined by ` => `. */
  readonly path: string;
  /** Routine or component name. */
  readonly name: string;
  /** Inclusive value in the call tree: what the rules judged. */
  readonly inclusive: number;
  /** Exclusive value in the call tree. */
  readonly exclusive: number;
  /** The timer's recorded inclusive value, for a node that stands for its exclusive time only (see {@link CallNode.recordedInclusive}). */
  readonly recordedInclusive?: number;
  /** Depth (root 0). */
  readonly depth: number;
}

/** Result of {@link pruneCallGraph}. */
export interface PruneResult {
  /** The core tree: a copy of the input with pruned subtrees removed (and folded, if asked). */
  readonly core: CallNode;
  /** Kept nodes in depth-first order. */
  readonly kept: readonly KeptNode[];
  /** Roots of pruned subtrees in depth-first order. */
  readonly pruned: readonly PrunedNode[];
  /**
   * Distinct names of kept nodes, a parameter-profiled timer counted as its base timer: the core
   * components. Roots that are no component are left out: TAU's `.TAU application` (the whole
   * measured program, which paper 002's core of Driver, A and B does not count) and a synthetic
   * `(all roots)` root. The kept tree ({@link kept}, {@link core}) still has them.
   */
  readonly coreNames: readonly string[];
  /**
   * Distinct names of the pruned nodes that are no core component, a parameter-profiled timer
   * counted as its base timer: the roots of the pruned subtrees and every node below them, depth
   * first. With {@link coreNames} it names every node of the tree (but the roots that are no
   * component); a name in both (kept in one place, pruned in another) is core only.
   */
  readonly prunedNames: readonly string[];
  /** Root inclusive value. */
  readonly total: number;
  /** Share of the root's inclusive value still represented in the core tree (1 when folding). */
  readonly keptShare: number;
  /** Inclusive value moved into kept parents by folding (0 without folding). */
  readonly folded: number;
  /** Thresholds used (`minShare` 0 when off). */
  readonly alpha: number;
  readonly beta: number;
  readonly minShare: number;
}

/**
 * Prunes a call tree with the alpha/beta algorithm of paper 002.
 * @throws AnalysisInputError when alpha or minShare is outside [0, 1], beta is negative or not
 *   finite, or the root's value is negative
 */
export function pruneCallGraph(root: CallNode, options: PruneOptions = {}): PruneResult {
  const alpha = options.alpha ?? 0.1;
  const beta = options.beta ?? 0.1;
  const minShare = options.minShare ?? 0;
  for (const [name, v] of [["alpha", alpha], ["minShare", minShare]] as const)
    if (!(v >= 0 && v <= 1)) throw new AnalysisInputError(`${name} must be in [0, 1], got ${v}`);
  if (!(beta >= 0 && Number.isFinite(beta))) throw new AnalysisInputError(`beta must be 0 or more, got ${beta}`);
  if (!(root.inclusive >= 0)) throw new AnalysisInputError(`root '${root.name}' has a negative or invalid inclusive value ${root.inclusive}`);
  const total = root.inclusive;
  const kept: KeptNode[] = [];
  const pruned: PrunedNode[] = [];
  // Every node of the pruned subtrees, depth first: the roots and what they call.
  const prunedAll: string[] = [];
  let folded = 0;
  const share = (v: number): number => (total > 0 ? v / total : 0);

  const visit = (node: CallNode, path: string, depth: number): CallNode => {
    const recorded = node.recordedInclusive === undefined ? {} : { recordedInclusive: node.recordedInclusive };
    kept.push({ path, name: node.name, inclusive: node.inclusive, exclusive: node.exclusive, ...recorded, depth });
    const copy: CallNode = { name: node.name, inclusive: node.inclusive, exclusive: node.exclusive, ...recorded, children: [] };
    const kids = node.children;
    if (kids.length === 0) return copy;
    const sum = kids.reduce((s, c) => s + c.inclusive, 0);
    const drop = (c: CallNode, reason: PruneReason): void => {
      const before = prunedAll.length;
      collectNames(c, prunedAll);
      pruned.push({ path: `${path} => ${c.name}`, name: c.name, parent: node.name, inclusive: c.inclusive, reason, share: share(c.inclusive), below: prunedAll.length - before - 1 });
      if (options.fold) {
        copy.exclusive += c.inclusive;
        folded += c.inclusive;
      }
    };
    // A node of no time gives its children a share of 0/0: below any alpha above 0, and never
    // below alpha 0, which prunes nothing.
    if (alpha > 0 && (node.inclusive <= 0 || sum / node.inclusive < alpha)) {
      for (const c of kids) drop(c, "alpha");
      return copy;
    }
    const mean = sum / kids.length;
    for (const c of kids) {
      // An only child is its own siblings' mean (ratio 1): beta, which compares siblings, never
      // prunes it, whatever its value (a beta above 1 would otherwise cut every chain of calls).
      if (kids.length > 1 && c.inclusive / mean < beta) drop(c, "beta");
      else if (share(c.inclusive) < minShare) drop(c, "min-share");
      else copy.children.push(visit(c, `${path} => ${c.name}`, depth + 1));
    }
    return copy;
  };
  const core = visit(root, root.name, 0);
  const lost = options.fold ? 0 : pruned.reduce((s, p) => s + p.inclusive, 0);
  const keptShare = total > 0 ? Math.min(1, Math.max(0, 1 - lost / total)) : 1;
  const coreNames = [...new Set(kept.filter((k) => !NOT_COMPONENTS.has(k.name)).map((k) => componentName(k.name)))];
  const prunedNames = namesNotIn(prunedAll, coreNames);
  return { core, kept, pruned, coreNames, prunedNames, total, keptShare, folded, alpha, beta, minShare };
}

/** Appends the names of `node` and every node below it, depth first. */
function collectNames(node: CallNode, out: string[]): void {
  out.push(node.name);
  for (const c of node.children) collectNames(c, out);
}

/** The distinct component names of `names` (in order) that are not in `core`. */
function namesNotIn(names: readonly string[], core: readonly string[]): string[] {
  const skip = new Set(core);
  return [...new Set(names.filter((n) => !NOT_COMPONENTS.has(n)).map(componentName))].filter((n) => !skip.has(n));
}

/** Roots of a call tree that stand for no component: TAU's root timer and a synthetic root over several. */
const NOT_COMPONENTS: ReadonlySet<string> = new Set([TAU_ROOT_TIMER, ALL_ROOTS]);

/** Result of {@link pruneAcross}. */
export interface PruneAcrossResult {
  /** One pruning per input tree, in input order. */
  readonly results: readonly PruneResult[];
  /** Names kept in at least one tree: a component is core if it is significant in any trial. */
  readonly coreNames: readonly string[];
  /** Paths kept in at least one tree. */
  readonly corePaths: readonly string[];
  /** Names kept in no tree: the pruned subtrees' roots and every node below them. */
  readonly prunedNames: readonly string[];
}

/**
 * Prunes several call trees (trials, or ranks) and unites their cores: a component is core when
 * it is significant in any of them.
 * @throws AnalysisInputError for an empty list or bad thresholds
 */
export function pruneAcross(trees: readonly CallNode[], options: PruneOptions = {}): PruneAcrossResult {
  if (trees.length === 0) throw new AnalysisInputError("no call trees to prune");
  const results = trees.map((t) => pruneCallGraph(t, options));
  const coreNames = [...new Set(results.flatMap((r) => r.coreNames))];
  const corePaths = [...new Set(results.flatMap((r) => r.kept.map((k) => k.path)))];
  const prunedNames = namesNotIn(results.flatMap((r) => r.prunedNames), coreNames);
  return { results, coreNames, corePaths, prunedNames };
}
