/**
 * Call trees from a {@link Trial}: per thread, or on a derived thread (mean, max ... over the
 * threads' call trees).
 *
 * @packageDocumentation
 */
import type { DerivedKind, Trial } from "../../profile/index.js";
import { AnalysisInputError } from "../errors.js";
import { metricOf, metricUsed, threadIndexOf, viewOf, type MetricUsed, type ViewChoice } from "../trial-access.js";
import { callTreeFromTimers, type BuiltCallTree, type CallTreeShape, type TimerValue } from "./call-tree.js";
import { aggregateCallTrees, type TreeAggregate } from "./aggregate.js";
import { foldRoutines, routinesInGroups } from "./fold-groups.js";

/** Options of {@link callTreeFromTrial}. */
export interface TrialTreeOptions {
  /** Metric (default: the trial's default metric, see `defaultMetric`: TIME, another time metric, the cycles, else the first by name). */
  readonly metric?: string;
  /** Thread index, or a derived view ("mean" by default, "max", "min", "total"). */
  readonly view?: ViewChoice;
  /** TAU groups (`MPI`) whose timers are folded into their callers (see `fold-groups.ts`); none by default. */
  readonly foldGroups?: readonly string[];
}

/** A call tree of a trial and the metric its values are in. */
export interface TrialCallTree extends BuiltCallTree {
  /** The metric of the tree's values (and whether the default fell back from time to a counter). */
  readonly metric: MetricUsed;
}

/** The timers of one view of a trial, as {@link TimerValue}s (present timers only). */
export function timerValues(trial: Trial, options: TrialTreeOptions = {}): TimerValue[] {
  const m = metricOf(trial, options.metric);
  const v = viewOf(trial, options.view ?? "mean");
  const out: TimerValue[] = [];
  for (const t of trial.timers) if (v.present[t.index] === 1) out.push({ name: t.name, inclusive: v.inclusive[m]![t.index]!, exclusive: v.exclusive[m]![t.index]! });
  return out;
}

/** The combination of thread trees each derived view stands for. */
const AGGREGATE_OF: Partial<Record<DerivedKind, TreeAggregate>> = { mean: "mean", min: "min", max: "max", total: "sum" };

/**
 * The call tree of one view of a trial (see {@link callTreeFromTimers} for full, truncated and
 * flat profiles). A derived view combines the call trees of the threads node by node (see
 * {@link aggregateCallTrees}; the mean divides by all threads, idle ones included, as ParaProf's
 * mean thread does), so each thread's timers nest under that thread's own root: threads whose
 * roots differ meet under a synthetic `(all roots)` root.
 * @throws AnalysisInputError for an unknown metric or thread, the stddev view (a standard
 *   deviation does not split into callees), or a view without timers (naming the trial and the view)
 */
export function callTreeFromTrial(trial: Trial, options: TrialTreeOptions = {}): TrialCallTree {
  const metric = metricUsed(trial, options.metric);
  const choice = options.view ?? "mean";
  const i = threadIndexOf(trial, choice);
  if (i === undefined) return { ...derivedTree(trial, choice as DerivedKind, options), metric };
  const timers = timerValues(trial, { metric: options.metric, view: i });
  if (timers.length === 0) throw new AnalysisInputError(`no timers to build a call tree from: thread ${trial.threadLabel(i)} recorded none`, trial.source);
  return { ...folded(threadTree(trial, i, timers), foldedRoutines(trial, options.foldGroups)), metric };
}

/** {@link callTreeFromTimers} of thread `th`'s timers, its errors naming the trial and the thread (a value the tree refuses is one thread's). */
function threadTree(trial: Trial, th: number, timers: readonly TimerValue[]): BuiltCallTree {
  try {
    return callTreeFromTimers(timers);
  } catch (e) {
    if (e instanceof AnalysisInputError && e.where === undefined) throw new AnalysisInputError(`thread ${trial.threadLabel(th)}: ${e.detail}`, trial.source);
    throw e;
  }
}

/** The routines of the groups to fold, or undefined for none. */
function foldedRoutines(trial: Trial, groups: readonly string[] | undefined): Set<string> | undefined {
  return groups === undefined || groups.length === 0 ? undefined : routinesInGroups(trial, groups);
}

/** `built` with the routines `names` folded into their callers. */
function folded(built: BuiltCallTree, names: ReadonlySet<string> | undefined): BuiltCallTree {
  if (names !== undefined) foldRoutines(built.root, names);
  return built;
}

/** The threads' call trees combined as the derived view `kind` combines timers. */
function derivedTree(trial: Trial, kind: DerivedKind, options: TrialTreeOptions): BuiltCallTree {
  const how = AGGREGATE_OF[kind];
  if (how === undefined) throw new AnalysisInputError(`no call tree for the ${kind} view: pruning needs a thread or the mean, min, max or total of the threads`, trial.source);
  const { trees } = callTreesPerThread(trial, { metric: options.metric, foldGroups: options.foldGroups });
  const shapes = new Set(trees.map((t) => t.built.shape));
  const shape: CallTreeShape = shapes.has("truncated-callpaths") ? "truncated-callpaths" : shapes.has("full-callpaths") ? "full-callpaths" : "flat";
  const most = (f: (b: BuiltCallTree) => number): number => Math.max(...trees.map((t) => f(t.built)));
  return {
    root: aggregateCallTrees(trees.map((t) => t.built.root), how, { threads: trial.threads.length }),
    shape,
    parameterTimers: { nested: most((b) => b.parameterTimers.nested), dropped: most((b) => b.parameterTimers.dropped) },
  };
}

/** Result of {@link callTreesPerThread}. */
export interface PerThreadTrees {
  /** The call tree of every thread that recorded a timer, by thread index. */
  readonly trees: readonly { readonly thread: number; readonly built: BuiltCallTree }[];
  /** Indices of the threads that recorded no timer (idle threads TAU still wrote a file for). */
  readonly empty: readonly number[];
  /** The metric of the trees' values. */
  readonly metric: MetricUsed;
}

/**
 * The call tree of each thread of a trial, for pruning every rank separately. Threads without
 * timers have no call tree: they are listed in `empty` instead of failing the others.
 * @throws AnalysisInputError for an unknown metric, or when no thread recorded a timer
 */
export function callTreesPerThread(trial: Trial, options: Omit<TrialTreeOptions, "view"> = {}): PerThreadTrees {
  const metric = metricUsed(trial, options.metric);
  const names = foldedRoutines(trial, options.foldGroups);
  const trees: { thread: number; built: BuiltCallTree }[] = [];
  const empty: number[] = [];
  for (let th = 0; th < trial.threads.length; th++) {
    const timers = timerValues(trial, { metric: options.metric, view: th });
    if (timers.length === 0) empty.push(th);
    else trees.push({ thread: th, built: folded(threadTree(trial, th, timers), names) });
  }
  if (trees.length === 0) throw new AnalysisInputError(`no timers to build a call tree from: none of its ${trial.threads.length} threads recorded one`, trial.source);
  return { trees, empty, metric };
}
