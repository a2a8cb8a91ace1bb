/**
 * The core components of an assembly from a measured trial: paper 002 prunes the call graph of
 * *timers* and searches exhaustively over the *components* whose inclusive time is significant
 * (a component counts by "the cumulative time spent during the execution of any of the
 * component's methods"), so the kept timers are mapped to the components they measure.
 *
 * @packageDocumentation
 */
import type { Trial } from "../../profile/index.js";
import { quotedNames } from "../../profile/internal.js";
import { AnalysisInputError } from "../errors.js";
import { pruneCallGraph, type PruneOptions } from "../prune/prune.js";
import { callTreeFromTrial, type TrialTreeOptions } from "../prune/from-trial.js";

/** Core timer names quoted in the error of {@link coreComponentsFromTimers}. */
const QUOTED_TIMERS = 6;

/**
 * The component a timer measures, if any: a timer `A::run()`, `A::<anything>` or exactly `A`
 * belongs to component `A`. The simulator names a component method's timer
 * `<instance>::<method>()` (as TAU's C++ instrumentation names `Class::method()`), so every
 * method of an instance maps to it; `.TAU application`, MPI calls and other routines map to none.
 * When several components match (`A` and `A::B`), the longest name wins.
 */
export function componentOfTimer(timer: string, components: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const c of components) {
    if (c === "" || (best !== undefined && c.length <= best.length)) continue;
    if (timer === c || timer.startsWith(`${c}::`)) best = c;
  }
  return best;
}

/**
 * The components of an assembly that the core timers of a pruned call graph measure (see
 * {@link componentOfTimer}), in the assembly's order.
 * @param coreTimers - names of the kept timers (`pruneCallGraph(...).coreNames`)
 * @param components - the assembly's component names
 * @param source - what the timers come from (a trial's path), for the error message
 * @throws AnalysisInputError when no core timer names a component: the trial is not a
 *   measurement of this assembly, and a heuristic over an empty core would say nothing
 */
export function coreComponentsFromTimers(coreTimers: readonly string[], components: readonly string[], source?: string): string[] {
  const found = new Set<string>();
  for (const t of coreTimers) {
    const c = componentOfTimer(t, components);
    if (c !== undefined) found.add(c);
  }
  if (found.size === 0) {
    const quoted = quotedNames(coreTimers, QUOTED_TIMERS);
    throw new AnalysisInputError(
      `no core timer names a component of the assembly (a timer 'A::run()', 'A::<anything>' or 'A' belongs to component A): ` +
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
 */
export function unmatchedComponentTimers(coreTimers: readonly string[], components: readonly string[]): string[] {
  return coreTimers.filter((t) => t.includes("::") && componentOfTimer(t, components) === undefined);
}

/** Options of {@link coreComponentsOfTrial}: how the trial's call tree is built and pruned. */
export interface CoreComponentsOptions extends PruneOptions, TrialTreeOptions {}

/**
 * The timers of a trial that survive alpha/beta pruning of its call tree (mean over threads by
 * default): the input of {@link coreComponentsFromTimers} and {@link unmatchedComponentTimers}.
 * @throws for the errors of {@link callTreeFromTrial} and {@link pruneCallGraph}
 */
export function coreTimersOfTrial(trial: Trial, options: CoreComponentsOptions = {}): readonly string[] {
  return pruneCallGraph(callTreeFromTrial(trial, options).root, options).coreNames;
}

/**
 * Paper 002's core components of an assembly, measured: the trial's call tree (mean over threads
 * by default) pruned with the alpha/beta algorithm, its kept timers mapped to components.
 * @throws AnalysisInputError when no kept timer names a component (see
 *   {@link coreComponentsFromTimers}), or for the errors of {@link callTreeFromTrial} and
 *   {@link pruneCallGraph}
 */
export function coreComponentsOfTrial(trial: Trial, components: readonly string[], options: CoreComponentsOptions = {}): string[] {
  return coreComponentsFromTimers(coreTimersOfTrial(trial, options), components, trial.source);
}
