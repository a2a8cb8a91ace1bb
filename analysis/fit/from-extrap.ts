/**
 * Observations for fitting from an Extra-P experiment: one data set per callpath and metric.
 *
 * @packageDocumentation
 */
import type { ExtrapExperiment } from "../../profile/index.js";
import { didYouMean, quotedNames } from "../../profile/internal.js";
import { AnalysisInputError } from "../errors.js";
import { entryByNamePart } from "../trial-access.js";
import type { FitDefaults, fitModels } from "./fit-models.js";
import type { Observations } from "./from-trial.js";

/** Options of {@link observationsFromExtrap}. */
export interface ExtrapSelection {
  /**
   * Only measurements of this callpath: its full name (`main->solve`), else the only callpath
   * whose name starts with it, else the only one containing it (case-insensitive), as a timer is
   * found. Default: all.
   * @throws AnalysisInputError (from {@link observationsFromExtrap}) when the part is ambiguous
   */
  readonly callpath?: string;
  /** Only measurements of this metric. Default: all. */
  readonly metric?: string;
  /** Names the experiment in errors (usually its file). */
  readonly source?: string;
}

/**
 * One data set of an Extra-P experiment: the observations of one callpath and metric, which
 * {@link fitModels} fits as Extra-P does unless told otherwise (see `FitOptions.rule`).
 */
export interface ExtrapObservations extends Observations {
  readonly callpath: string;
  readonly metric: string;
  /** {@link EXTRAP_FIT_DEFAULTS}. */
  readonly fitDefaults: FitDefaults;
}

/**
 * The families of Extra-P's search space, the default of `ccasim fit` on Extra-P inputs: the
 * constant and the performance model normal form over its exponent pairs (no power law with a
 * free exponent, no two-segment model), so that a fit gives the models Extra-P 4.x gives.
 */
export const EXTRAP_FAMILIES: readonly string[] = ["constant", "pmnf"];

/**
 * How Extra-P observations are fitted by default ({@link ExtrapObservations.fitDefaults}):
 * Extra-P's families, ranked by Extra-P's selection rule.
 */
export const EXTRAP_FIT_DEFAULTS: FitDefaults = { families: EXTRAP_FAMILIES, rule: "extra-p" };

/**
 * The observations of a single-parameter Extra-P experiment (what `ccasim fit <extrap file>`
 * fits, as {@link fitModels} fits them by default: Extra-P's families and rule): for each callpath and metric, in first-seen order, Q is the parameter's value at each
 * measurement point and T each repetition's value (one observation per repetition), in the
 * experiment's own units. `qLabel` is the parameter's name; `tLabel` is `<callpath> / <metric>` (the callpath alone for the metric '').
 * @throws AnalysisInputError when the experiment has more or fewer than one parameter, or no
 *   measurement matches the selection
 */
export function observationsFromExtrap(experiment: ExtrapExperiment, selection: ExtrapSelection = {}): ExtrapObservations[] {
  const { metric, source } = selection;
  const params = experiment.parameters;
  if (params.length !== 1) {
    throw new AnalysisInputError(`the experiment has ${params.length} parameters (${params.join(", ")}); only single-parameter Extra-P inputs can be fitted: multi-parameter models are not supported, and there is no option to fix the other parameters`, source);
  }
  const callpath = selection.callpath === undefined ? undefined : resolveCallpath(experiment, selection.callpath, source);
  const chosen = experiment.measurements.filter((m) => (callpath === undefined || m.callpath === callpath) && (metric === undefined || m.metric === metric));
  if (chosen.length === 0) throw new AnalysisInputError(missingMeasurement(experiment, callpath, metric), source);
  const groups = new Map<string, { callpath: string; metric: string; q: number[]; t: number[] }>();
  for (const m of chosen) {
    const key = JSON.stringify([m.callpath, m.metric]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { callpath: m.callpath, metric: m.metric, q: [], t: [] }));
    for (const v of m.values) {
      g.q.push(m.point[0]!);
      g.t.push(v);
    }
  }
  return [...groups.values()].map((g) => ({
    callpath: g.callpath,
    metric: g.metric,
    q: Float64Array.from(g.q),
    t: Float64Array.from(g.t),
    qLabel: params[0]!,
    // A file without a METRIC line has the metric '' (as Extra-P names it): the callpath alone.
    tLabel: g.metric === "" ? g.callpath : `${g.callpath} / ${g.metric}`,
    // Extra-P inputs name a metric but not its unit.
    quantity: { name: g.metric, source: "extrap-metric" as const, unit: null, of: g.callpath, kind: null, view: null, perCall: false },
    fitDefaults: EXTRAP_FIT_DEFAULTS,
  }));
}

/** The experiment's callpath `name` names: itself, or the one callpath it is a unique part of (else `name`, which matches nothing). */
function resolveCallpath(experiment: ExtrapExperiment, name: string, source: string | undefined): string {
  const callpaths = [...new Set(experiment.measurements.map((m) => m.callpath))];
  if (callpaths.includes(name)) return name;
  return entryByNamePart("callpath", name, callpaths.map((c) => ({ name: c })), source)?.name ?? name;
}

/** Which of the selected callpath and metric the experiment lacks, with the nearest name and the names it has. */
function missingMeasurement(experiment: ExtrapExperiment, callpath: string | undefined, metric: string | undefined): string {
  const callpaths = [...new Set(experiment.measurements.map((m) => m.callpath))];
  const metrics = [...new Set(experiment.measurements.map((m) => m.metric))];
  const list = (names: string[]): string => quotedNames(names, 10);
  if (callpath !== undefined && !callpaths.includes(callpath)) return `no callpath '${callpath}'${didYouMean(callpath, callpaths)}; callpaths: ${list(callpaths)}`;
  if (metric !== undefined && !metrics.includes(metric)) return `no metric '${metric}'${didYouMean(metric, metrics)}; metrics: ${list(metrics)}`;
  return `no measurement of callpath '${callpath}' in metric '${metric}'`;
}
