/**
 * Call trees from a {@link Trial}: per thread, or on a derived thread (mean or max over ranks).
 *
 * @packageDocumentation
 */
import type { Trial } from "../../profile/index.js";
import { metricOf, viewOf, type ViewChoice } from "../trial-access.js";
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
 * @throws AnalysisInputError for an unknown metric or thread, or a trial without timers
 */
export function callTreeFromTrial(trial: Trial, options: TrialTreeOptions = {}): BuiltCallTree {
  return callTreeFromTimers(timerValues(trial, options));
}
