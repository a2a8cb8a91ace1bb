/**
 * Shared access to {@link Trial}s for the analysis adapters: views by name, metric lookup with
 * typed errors, and values of one timer.
 *
 * @packageDocumentation
 */
import { derivedView, threadView, type ProfileView, type Trial, type DerivedKind } from "../profile/index.js";
import { AnalysisInputError } from "./errors.js";

/** Which values of a trial to use: a derived thread ("mean", "max", ...) or one thread by index. */
export type ViewChoice = DerivedKind | number;

/**
 * The view of `trial` for `choice`.
 * @throws AnalysisInputError for a thread index the trial does not have
 */
export function viewOf(trial: Trial, choice: ViewChoice): ProfileView {
  if (typeof choice === "number") {
    if (!(Number.isInteger(choice) && choice >= 0 && choice < trial.threads.length))
      throw new AnalysisInputError(`no thread ${choice}; the trial has ${trial.threads.length}`, trial.source);
    return threadView(trial, choice);
  }
  return derivedView(trial, choice);
}

/**
 * Index of metric `name` in `trial` (exact, then case-insensitive); without a name, TIME if the
 * trial has it, else the first metric.
 * @throws AnalysisInputError listing the trial's metrics
 */
export function metricOf(trial: Trial, name?: string): number {
  if (name === undefined) {
    const i = trial.metrics.findIndex((m) => m.toUpperCase() === "TIME");
    return i >= 0 ? i : 0;
  }
  let i = trial.metrics.indexOf(name);
  if (i < 0) i = trial.metrics.findIndex((m) => m.toLowerCase() === name.toLowerCase());
  if (i < 0) throw new AnalysisInputError(`no metric '${name}'; the trial has ${trial.metrics.join(", ")}`, trial.source);
  return i;
}

/**
 * Index of timer `name` in `trial`.
 * @throws AnalysisInputError naming up to 5 timers whose names contain the requested one
 */
export function timerOf(trial: Trial, name: string): number {
  const t = trial.findTimer(name);
  if (t) return t.index;
  const near = trial.timers.filter((x) => x.name.toLowerCase().includes(name.toLowerCase())).slice(0, 5).map((x) => `'${x.name}'`);
  throw new AnalysisInputError(`no timer '${name}'${near.length ? ` (similar: ${near.join(", ")})` : ""}`, trial.source);
}
