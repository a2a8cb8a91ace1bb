/**
 * Shared access to {@link Trial}s for the analysis adapters: views by name, metric lookup with
 * typed errors, and values of one timer.
 *
 * @packageDocumentation
 */
import { defaultMetric, derivedView, ProfileModelError, describeThreads, isTimeMetric, metricUnit, threadView, type ProfileView, type ThreadId, type Trial, type DerivedKind } from "../profile/index.js";
import { DERIVED_KINDS, didYouMean, quotedNames } from "../profile/internal.js";
import { AnalysisInputError } from "./errors.js";

/**
 * Which values of a trial to use: a derived thread ("mean", "max", ...), one thread by its index
 * in `trial.threads`, or one thread by its TAU name `node,context,thread` ({@link ThreadId}).
 */
export type ViewChoice = DerivedKind | number | ThreadId;

/**
 * The index in `trial.threads` of the thread `choice` names, or undefined for a derived view.
 * @throws AnalysisInputError for a thread the trial does not have, naming the threads it has, or
 *   a text that names no derived view (`"avg"`, `"0,0,0"`)
 */
export function threadIndexOf(trial: Trial, choice: ViewChoice): number | undefined {
  if (typeof choice === "string") {
    // why: the type names the derived views, but a caller from JavaScript may pass TAU's thread
    // name or a misspelt view, which would otherwise fail deep inside with a TypeError
    if (!(DERIVED_KINDS as readonly string[]).includes(choice))
      throw new AnalysisInputError(`unknown view '${choice}'${didYouMean(choice, DERIVED_KINDS)}; use one of ${DERIVED_KINDS.join(", ")}, a thread's index or { node, context, thread }`, trial.source);
    return undefined;
  }
  if (typeof choice === "number") {
    if (!(Number.isInteger(choice) && choice >= 0 && choice < trial.threads.length)) throw new AnalysisInputError(`no thread with index ${choice}; the trial has ${describeThreads(trial)}`, trial.source);
    return choice;
  }
  const i = trial.threadIndex(choice.node, choice.context, choice.thread);
  if (i < 0) throw new AnalysisInputError(`no thread ${choice.node},${choice.context},${choice.thread}; the trial has ${describeThreads(trial)}`, trial.source);
  return i;
}

/**
 * The view of `trial` for `choice`.
 * @throws AnalysisInputError for a thread the trial does not have, or a text that names no derived view
 */
export function viewOf(trial: Trial, choice: ViewChoice): ProfileView {
  const i = threadIndexOf(trial, choice);
  return i === undefined ? derivedView(trial, choice as DerivedKind) : threadView(trial, i);
}

/**
 * Checks an analysis's `kind` option: "inclusive" or "exclusive" (undefined, the default, is
 * inclusive). Why check: the type names the two, but a caller from JavaScript may misspell one,
 * which would otherwise read inclusive values under the name given.
 * @throws AnalysisInputError for anything else
 * @internal
 */
export function valueKindOf(kind: unknown): "inclusive" | "exclusive" {
  if (kind === undefined || kind === "inclusive" || kind === "exclusive") return kind ?? "inclusive";
  throw new AnalysisInputError(`kind must be inclusive or exclusive, got '${String(kind)}'`);
}

/**
 * Index of metric `name` in `trial` (exact, then case-insensitive); without a name, the trial's
 * default metric (`defaultMetric`: TIME, another time metric, the cycles, else the first by name),
 * as `ccasim profile show` takes it, whatever format the trial was read from.
 * @throws AnalysisInputError naming a likely correction and listing the trial's metrics
 */
export function metricOf(trial: Trial, name?: string): number {
  if (name === undefined) return trial.metricIndex(defaultMetric(trial));
  try {
    return trial.metricIndex(name);
  } catch (e) {
    // The same message, as an analysis error that names the trial's source.
    if (e instanceof ProfileModelError) throw new AnalysisInputError(e.message, trial.source);
    throw e;
  }
}

/** The metric an analysis used, for its report. */
export interface MetricUsed {
  /** The metric's name in the trial. */
  readonly name: string;
  /** True for a time metric (values in microseconds, as TAU writes them). */
  readonly isTime: boolean;
  /** Unit of its values: `usec` for a time metric, else `counts` (see `metricUnit`). */
  readonly unit: string;
  /**
   * True when no metric was asked for and the trial measured no time: the default fell back to
   * a counter (the cycles, else the first metric by name), which a report should say.
   */
  readonly fallback: boolean;
}

/**
 * The metric {@link metricOf} takes for `name` (the trial's default without one), with its unit.
 * @throws AnalysisInputError naming a likely correction and listing the trial's metrics
 */
export function metricUsed(trial: Trial, name?: string): MetricUsed {
  const metric = trial.metrics[metricOf(trial, name)]!;
  const isTime = isTimeMetric(metric);
  return { name: metric, isTime, unit: metricUnit(metric), fallback: name === undefined && !isTime };
}

/**
 * Index of timer `name` in `trial`: the exact name, else the only flat timer whose name starts
 * with it, else the only flat timer whose name contains it (so `main` finds
 * `int main(int, char **) C [{mdrun.c} {56,1}-{516,1}]`). The name `(top)` means the flat timer
 * with the largest inclusive value of the first metric on average.
 * @throws AnalysisInputError when nothing or several timers match (naming up to 5 of them)
 */
export function timerOf(trial: Trial, name: string): number {
  const t = trial.findTimer(name);
  if (t) return t.index;
  const flat = trial.timers.filter((x) => !x.isCallpath);
  if (name === "(top)") {
    const mean = derivedView(trial, "mean");
    let best = -1;
    for (const x of flat) if (mean.present[x.index] === 1 && (best < 0 || mean.inclusive[0]![x.index]! > mean.inclusive[0]![best]!)) best = x.index;
    if (best >= 0) return best;
    throw new AnalysisInputError("the trial has no flat timer", trial.source);
  }
  return byNamePart(trial, "timer", name, flat);
}

/**
 * Index of user event `name` in `trial`, found as {@link timerOf} finds a timer: the exact name,
 * else the only user event whose name starts with it, else the only one that contains it (so
 * `all-reduce` finds `Message size for all-reduce`).
 * @throws AnalysisInputError when nothing or several user events match (naming up to 5 of them)
 */
export function userEventOf(trial: Trial, name: string): number {
  const e = trial.findUserEvent(name);
  if (e) return e.index;
  return byNamePart(trial, "user event", name, trial.userEvents);
}

/** The only entry whose name starts with `name`, else the only one containing it (case-insensitive). */
function byNamePart(trial: Trial, kind: string, name: string, entries: readonly { readonly name: string; readonly index: number }[]): number {
  const hit = entryByNamePart(kind, name, entries, trial.source);
  if (hit) return hit.index;
  const names = entries.map((x) => x.name);
  const known = kind === "user event" ? `; its user events: ${quotedNames(names, 10) || "none"}` : "";
  throw new AnalysisInputError(`no ${kind} '${name}'${didYouMean(name, names)}${known}`, trial.source);
}

/**
 * The only entry whose name starts with `name`, else the only one containing it
 * (case-insensitive): how a timer, a user event or an Extra-P callpath is found by a part of its
 * name; undefined when none matches.
 * @param kind - what the entries are, for the error ("timer", "callpath")
 * @throws AnalysisInputError when several match at the first step that matches any (naming up to
 *   5), or `name` is empty (or blank)
 * @internal
 */
export function entryByNamePart<T extends { readonly name: string }>(kind: string, name: string, entries: readonly T[], source?: string): T | undefined {
  // Why refused: an empty name is a part of every name, so it would pick an input's only entry.
  if (name.trim() === "") throw new AnalysisInputError(`the ${kind} name is empty: give a name or a part of one`, source);
  const lower = name.toLowerCase();
  for (const match of [(x: string) => x.startsWith(lower), (x: string) => x.includes(lower)]) {
    const hits = entries.filter((x) => match(x.name.toLowerCase()));
    if (hits.length === 1) return hits[0]!;
    if (hits.length > 1) throw new AnalysisInputError(`${kind} name '${name}' is ambiguous: ${quotedNames(hits.map((x) => x.name), 5)}`, source);
  }
  return undefined;
}
