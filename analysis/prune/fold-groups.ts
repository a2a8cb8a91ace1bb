/**
 * Timers of some TAU groups (`MPI`, say) folded into their callers before pruning: paper 002 prunes
 * a call graph of components, and an MPI routine is not one (its implementation cannot be chosen).
 * A folded timer's inclusive value becomes part of its caller's exclusive value, so the caller
 * keeps its inclusive value, and the timer is neither core nor pruned.
 *
 * @packageDocumentation
 */
import type { Trial } from "../../profile/index.js";
import { AnalysisInputError } from "../errors.js";
import { splitCallpath, type CallNode } from "./call-tree.js";

/**
 * The routine names of `trial`'s timers that belong to any of `groups` (a callpath timer counts
 * for its last routine).
 * @throws AnalysisInputError when a group has no timer in the trial, naming the groups it has
 */
export function routinesInGroups(trial: Trial, groups: readonly string[]): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  for (const t of trial.timers) {
    for (const g of t.groups) seen.add(g);
    if (t.groups.some((g) => groups.includes(g))) names.add(splitCallpath(t.name).at(-1)!);
  }
  const unknown = groups.filter((g) => !seen.has(g));
  if (unknown.length > 0) throw new AnalysisInputError(`no timer is in group${unknown.length > 1 ? "s" : ""} ${unknown.map((g) => `'${g}'`).join(", ")}; the groups of its timers: ${[...seen].sort().join(", ") || "(none)"}`, trial.source);
  return names;
}

/**
 * Removes from the tree under `root` (not `root` itself) every node whose name `folded` holds,
 * with the nodes below it, adding its inclusive value to its parent's exclusive value. Returns
 * how many such nodes (each with what it called) were removed.
 */
export function foldRoutines(root: CallNode, folded: ReadonlySet<string>): number {
  let count = 0;
  const visit = (node: CallNode): void => {
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]!;
      if (!folded.has(child.name)) continue;
      node.exclusive += child.inclusive;
      node.children.splice(i, 1);
      count++;
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
  return count;
}
