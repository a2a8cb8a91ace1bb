/**
 * What a user should be told about a fit before trusting it: a ranking that says little (means of
 * 0 under LOO SMAPE), a model of a time or count that goes below 0 where there are data, a
 * standard deviation model that describes none of the observed sds. `ccasim fit` and
 * `ccasim sweep fit` word the same warnings.
 *
 * @packageDocumentation
 */
import type { FitReport } from "./fit-models.js";
import type { SelectionCriterion } from "./screening.js";
import type { StdDevDeparture } from "./std-dev.js";
import type { Observations, PartialThreads } from "./from-trial.js";

/** A reason to doubt a fit, with what the CLI needs to word it. */
export type FitWarning =
  | {
      /**
       * Some distinct Q have a mean of 0 and the criterion is LOO SMAPE, which scores any non-zero
       * prediction there 200 %: every candidate scores high and the ranking says little.
       */
      readonly kind: "zero-means";
      readonly zeroMeans: number;
      readonly distinct: number;
    }
  | {
      /** The mean model of a quantity that cannot be negative goes below 0 inside the observed Q. */
      readonly kind: "negative";
      /** Where it is lowest, and its value there (units of T). */
      readonly at: number;
      readonly value: number;
    }
  | {
      /** Every standard deviation candidate leaves the observed sds' range (see `fitStdDev`). */
      readonly kind: "sd-departs";
      readonly departure: StdDevDeparture;
    }
  | {
      /**
       * Extra-P's rule on fewer distinct Q than its modeler asks for ({@link EXTRAP_MIN_POINTS}):
       * Extra-P warns and fits all the same, as this does; a hypothesis of two coefficients then
       * has two or fewer points left over to be told from the others.
       */
      readonly kind: "few-points";
      readonly distinct: number;
    }
  | {
      /**
       * The fitted mean over threads is of a timer that only some threads run in some trials (see
       * `Observations.partialThreads`): it scales with their share, not only with Q.
       */
      readonly kind: "partial-threads";
      readonly trials: readonly PartialThreads[];
    };

/** Extra-P's `min_measurement_points`: fewer distinct values of a parameter and its modeler warns. */
export const EXTRAP_MIN_POINTS = 5;

/** Points where {@link lowestWithin} evaluates a model between the observed Q. */
const GRID = 256;

/**
 * The lowest value of `predict` inside [min, max] of the observed `q` (at each of them and at
 * {@link GRID} points spaced evenly in log Q, or in Q when some Q ≤ 0, between them: a polynomial
 * can dip between two Q), with where it is.
 */
export function lowestWithin(predict: (q: number) => number, q: ArrayLike<number>): { readonly at: number; readonly value: number } {
  let lo = Infinity;
  let hi = -Infinity;
  const at: number[] = [];
  for (let i = 0; i < q.length; i++) {
    lo = Math.min(lo, q[i]!);
    hi = Math.max(hi, q[i]!);
    at.push(q[i]!);
  }
  if (hi > lo) for (let k = 1; k < GRID; k++) at.push(lo > 0 ? lo * (hi / lo) ** (k / GRID) : lo + ((hi - lo) * k) / GRID);
  let best = { at: at[0]!, value: predict(at[0]!) };
  for (const x of at) {
    const v = predict(x);
    if (v < best.value) best = { at: x, value: v };
  }
  return best;
}

/**
 * The warning for means of 0 under LOO SMAPE, when some (`zeroMeans` of `distinct` Q) but not all
 * are 0: when every mean is 0 the constant 0 fits them exactly, with a LOO SMAPE of 0, and the
 * ranking is sound (an MPI time of a run without messages, say).
 */
export function zeroMeansWarning(criterion: SelectionCriterion, zeroMeans: number, distinct: number): FitWarning | undefined {
  return criterion === "loo-smape" && zeroMeans > 0 && zeroMeans < distinct ? { kind: "zero-means", zeroMeans, distinct } : undefined;
}

/**
 * The warning for a model of a quantity that cannot be negative (`nonNegative`) that goes below 0
 * inside the observed Q `q` (see {@link lowestWithin}) by more than rounding (1e-9 of its largest
 * magnitude at the data); undefined when it does not. Why inside:
 * beyond the data a model extrapolates, and `predictAt` says so.
 */
export function negativeWarning(predict: (q: number) => number, q: ArrayLike<number>, nonNegative: boolean): FitWarning | undefined {
  if (!nonNegative) return undefined;
  const low = lowestWithin(predict, q);
  // Rounding of the fit (an intercept of −1e-13 where the data are 0) is no value below 0.
  let scale = 0;
  for (let i = 0; i < q.length; i++) scale = Math.max(scale, Math.abs(predict(q[i]!)));
  return low.value < -1e-9 * scale ? { kind: "negative", ...low } : undefined;
}

/**
 * Every warning about a report of {@link fitModels} of `obs` (the observations' own, then the
 * fit's), in the order above.
 */
export function fitWarnings(report: FitReport, obs?: Observations): FitWarning[] {
  const m = report.mean;
  return [
    report.rule === "extra-p" && report.points.q.length < EXTRAP_MIN_POINTS ? ({ kind: "few-points", distinct: report.points.q.length } as const) : undefined,
    obs?.partialThreads ? ({ kind: "partial-threads", trials: obs.partialThreads } as const) : undefined,
    zeroMeansWarning(report.criterion, report.zeroMeans, report.points.q.length),
    negativeWarning((q) => m.predict(q), report.points.q, report.nonNegative),
    report.stdDevDeparture ? ({ kind: "sd-departs", departure: report.stdDevDeparture } as const) : undefined,
  ].filter((w): w is FitWarning => w !== undefined);
}
