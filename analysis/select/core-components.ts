/**
 * The core components of an assembly from a measured trial: paper 002 prunes the *component*
 * call graph, a component's inclusive time being "the cumulative time spent during the execution
 * of any of the component's methods", and searches exhaustively over the components it keeps. A
 * trial records timers, one per method (`Mesh::a()`, `Mesh::b()`), so the timers of one component
 * called from the same place are joined into one node before pruning.
 *
 * @packageDocumentation
 */
import type { Trial } from "../../profile/index.js";
import { quotedNames } from "../../profile/internal.js";
import { AnalysisInputError } from "../errors.js";
import { joinSiblingsByName } from "../prune/aggregate.js";
import { pruneCallGraph, type PruneOptions } from "../prune/prune.js";
import type { CallNode } from "../prune/call-tree.js";
import { callTreeFromTrial, type TrialTreeOptions } from "../prune/from-trial.js";
import type { Assembly } from "./assembly.js";

/** Core timer names quoted in the error of {@link coreComponentsFromTimers}. */
const QUOTED_TIMERS = 6;

/**
 * The component a timer measures, if any: a timer `A::run()`, `A::<anything>` or exactly `A`
 * belongs to component `A`, and so does one named after an implementation of `A` (`EFMFlux::compute()`
 * to the component `Flux` whose implementations are `EFMFlux` and `GodunovFlux`). The simulator
 * names a component method's timer `<instance>::<method>()` (as TAU's C++ instrumentation names
 * `Class::method()`), and an instance is one implementation, so every method of an instance maps
 * to it; `.TAU application`, MPI calls and other routines map to none. When several names match
 * (`A` and `A::B`), the longest wins.
 * @param implementations - implementation names by component (default none)
 */
export function componentOfTimer(timer: string, components: readonly string[], implementations: ImplementationNames = {}): string | undefined {
  let best: string | undefined;
  let bestLength = 0;
  for (const c of components) {
    for (const name of [c, ...(implementations[c] ?? [])]) {
      if (name === "" || name.length <= bestLength) continue;
      if (timer === name || timer.startsWith(`${name}::`)) {
        best = c;
        bestLength = name.length;
      }
    }
  }
  return best;
}

/** Implementation names by component name, whose timers count for the component (see {@link componentOfTimer}). */
export type ImplementationNames = Readonly<Record<string, readonly string[]>>;

/** The implementation names of every component of an assembly, for {@link componentOfTimer}. */
export function implementationNames(assembly: Assembly): ImplementationNames {
  return Object.fromEntries(assembly.components.map((c) => [c.name, c.implementations.map((i) => i.name)]));
}

/**
 * The components of an assembly that the core timers of a pruned call graph measure (see
 * {@link componentOfTimer}), in the assembly's order.
 * @param coreTimers - names of the kept timers (`pruneCallGraph(...).coreNames`)
 * @param components - the assembly's component names
 * @param source - what the timers come from (a trial's path), for the error message
 * @param implementations - implementation names by component, whose timers count too
 * @throws AnalysisInputError when no core timer names a component: the trial is not a
 *   measurement of this assembly, and a heuristic over an empty core would say nothing
 */
export function coreComponentsFromTimers(coreTimers: readonly string[], components: readonly string[], source?: string, implementations: ImplementationNames = {}): string[] {
  const found = new Set<string>();
  for (const t of coreTimers) {
    const c = componentOfTimer(t, components, implementations);
    if (c !== undefined) found.add(c);
  }
  if (found.size === 0) {
    const quoted = quotedNames(coreTimers, QUOTED_TIMERS);
    throw new AnalysisInputError(
      `no core timer names a component of the assembly (a timer 'A::run()', 'A::<anything>' or 'A' belongs to component A, or to the component of which A is an implementation): ` +
        `core timers ${quoted || "none"}; components ${components.join(", ")}`,
      source,
    );
  }
  return components.filter((c) => found.has(c));
}

/**
 * The core timers that look like component methods (`X::method()`, any name with `::`) but belong
 * to no component of the assembly: a trial of another assembly, or components the assembly file
 * lacks. Their time counts for no component, so a heuristic over the others may miss a core one.
 * @param coreTimers - names of the kept timers (`pruneCallGraph(...).coreNames`)
 * @param components - the assembly's component names
 * @param implementations - implementation names by component, whose timers count too
 */
export function unmatchedComponentTimers(coreTimers: readonly string[], components: readonly string[], implementations: ImplementationNames = {}): string[] {
  return coreTimers.filter((t) => t.includes("::") && componentOfTimer(t, components, implementations) === undefined);
}

/**
 * The component call graph of a call tree of timers (paper 002, section 4): every timer that
 * belongs to a component (see {@link componentOfTimer}) is named after it, and the nodes of one
 * name under one caller are joined into one, whose inclusive and exclusive values are the sums of
 * theirs and whose callees are theirs, joined alike. A component called from the same place
 * through several methods is then one node holding "the cumulative time spent during the
 * execution of any of the component's methods", as the paper's pruning judges it; the same
 * component called from elsewhere stays a node of its own there (its context differs). Timers of
 * no component keep their names. The input is not changed.
 * @param root - a call tree of timers (`callTreeFromTrial(...).root`)
 * @param components - the assembly's component names
 * @param implementations - implementation names by component, whose timers count too
 */
export function componentCallTree(root: CallNode, components: readonly string[], implementations: ImplementationNames = {}): CallNode {
  const named = (n: CallNode): CallNode => {
    const out: CallNode = { name: componentOfTimer(n.name, components, implementations) ?? n.name, inclusive: n.inclusive, exclusive: n.exclusive, children: joinSiblingsByName(n.children.map(named)) };
    if (n.recordedInclusive !== undefined) out.recordedInclusive = n.recordedInclusive;
    return out;
  };
  return named(root);
}

/** Options of {@link coreComponentsOfTrial}: how the trial's call tree is built and pruned, and whose timers count for a component. */
export interface CoreComponentsOptions extends PruneOptions, TrialTreeOptions {
  /**
   * The assembly's component names: when given, the call tree is pruned as the component call
   * graph ({@link componentCallTree}), each component's methods judged together. Without them
   * every timer is judged alone, as `ccasim prune` judges it. {@link coreComponentsOfTrial} gives
   * its own.
   */
  readonly components?: readonly string[];
  /** Implementation names by component, whose timers count for it (see {@link componentOfTimer}). */
  readonly implementations?: ImplementationNames;
}

/**
 * The nodes of a trial's call tree (mean over threads by default) that survive alpha/beta
 * pruning: the input of {@link coreComponentsFromTimers} and {@link unmatchedComponentTimers}.
 * With `options.components`, the tree pruned is the component call graph, and a kept component
 * is named by its component name (`Mesh`, not `Mesh::a()`); other kept timers keep their names.
 * @throws for the errors of {@link callTreeFromTrial} and {@link pruneCallGraph}
 */
export function coreTimersOfTrial(trial: Trial, options: CoreComponentsOptions = {}): readonly string[] {
  const root = callTreeFromTrial(trial, options).root;
  const tree = options.components === undefined ? root : componentCallTree(root, options.components, options.implementations);
  return pruneCallGraph(tree, options).coreNames;
}

/**
 * Paper 002's core components of an assembly, measured: the trial's component call graph (mean
 * over threads by default; the methods of a component called from one place judged together, see
 * {@link componentCallTree}) pruned with the alpha/beta algorithm, its kept nodes mapped to
 * components.
 * @throws AnalysisInputError when no kept timer names a component (see
 *   {@link coreComponentsFromTimers}), or for the errors of {@link callTreeFromTrial} and
 *   {@link pruneCallGraph}
 */
export function coreComponentsOfTrial(trial: Trial, components: readonly string[], options: CoreComponentsOptions = {}): string[] {
  return coreComponentsFromTimers(coreTimersOfTrial(trial, { ...options, components }), components, trial.source, options.implementations);
}
