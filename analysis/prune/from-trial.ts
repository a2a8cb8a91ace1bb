/**
 * Call trees from a {@link Trial}: per thread, or on a derived thread (mean or max over ranks).
 *
 * @packageDocumentation
 */
import type { Trial } from "../../profile/index.js";
import { AnalysisInputError } from "../errors.js";
import { metricOf, threadIndexOf, viewOf, type ViewChoice } from "../trial-access.js";
import { callTreeFromTimers, type BuiltCallTree, type TimerValue } from "./call-tree.js";

/** Options of {@link callTreeFromTrial}. */
export interface TrialTreeOptions {
  /** Metric (default TIME, else the first). */
  readonly metric?: string;
  /** Thread index, or a derived view ("mean" by default, "max", "total" ...). */
  readonly view?: ViewChoice;
}

/** The timers of one view of a trial, as {@link TimerValue}s (present timers only). */
export function timerValues(trial: Trial, options: TrialTreeOptions = {}): TimerValue[] {
  const m = metricOf(trial, options.metric);
  const v = viewOf(trial, options.view ?? "mean");
  const out: TimerValue[] = [];
  for (const t of trial.timers) if (v.present[t.index] === 1) out.push({ name: t.name, inclusive: v.inclusive[m]![t.index]!, exclusive: v.exclusive[m]![t.index]! });
  return out;
}

/**
 * The call tree of one view of a trial (see {@link callTreeFromTimers} for full, truncated and
 * flat profiles).
 * @throws AnalysisInputError for an unknown metric or thread, or a view without timers (naming
 *   the trial and the view)
 */
export function callTreeFromTrial(trial: Trial, options: TrialTreeOptions = {}): BuiltCallTree {
  const timers = timerValues(trial, options);
  if (timers.length === 0) {
    const choice = options.view ?? "mean";
    const i = threadIndexOf(trial, choice);
    const view = i === undefined ? `the ${String(choice)} view` : `thread ${trial.threadLabel(i)}`;
    throw new AnalysisInputError(`no timers to build a call tree from: ${view} recorded none`, trial.source);
  }
  return callTreeFromTimers(timers);
}

/** Result of {@link callTreesPerThread}. */
export interface PerThreadTrees {
  /** The call tree of every thread that recorded a timer, by thread index. */
  readonly trees: readonly { readonly thread: number; readonly built: BuiltCallTree }[];
  /** Indices of the threads that recorded no timer (idle threads TAU still wrote a file for). */
  readonly empty: readonly number[];
}

/**
 * The call tree of each thread of a trial, for pruning every rank separately. Threads without
 * timers have no call tree: they are listed in `empty` instead of failing the others.
 * @throws AnalysisInputError for an unknown metric, or when no thread recorded a timer
 */
export function callTreesPerThread(trial: Trial, options: { readonly metric?: string } = {}): PerThreadTrees {
  const trees: { thread: number; built: BuiltCallTree }[] = [];
  const empty: number[] = [];
  for (let th = 0; th < trial.threads.length; th++) {
    const timers = timerValues(trial, { metric: options.metric, view: th });
    if (timers.length === 0) empty.push(th);
    else trees.push({ thread: th, built: callTreeFromTimers(timers) });
  }
  if (trees.length === 0) throw new AnalysisInputError(`no timers to build a call tree from: none of its ${trial.threads.length} threads recorded one`, trial.source);
  return { trees, empty };
}
