/**
 * Predictions of a fit at a given Q: the mean model's value, the interval of the mean, the
 * standard deviation and the range of a single observation, kept at or above 0 for a quantity that
 * cannot be negative.
 *
 * @packageDocumentation
 */
import type { FitReport } from "./fit-models.js";
import type { Interval } from "./fitted-model.js";
import { studentTQuantile } from "./statistics.js";

/** A prediction of {@link predictAt}. All values in units of T. */
export interface Prediction {
  /** Where: a value of Q. */
  readonly q: number;
  /** The mean model's value at q (at least 0 for a quantity that cannot be negative). */
  readonly value: number;
  /**
   * Interval of the mean T at q (its low bound at least 0 likewise). The mean model is fitted to
   * the mean of T at each Q, so this is the prediction interval of a new such mean (the model's
   * uncertainty and the scatter of the means about it): not a range for single observations,
   * which scatter by the standard deviation (see `singleObservationRange`).
   */
  readonly interval: Interval;
  /** Coverage of `interval` and `singleObservationRange` (0.95 by default). */
  readonly level: number;
  /**
   * When the standard deviation was fitted: the range of one observation at q (one invocation, one
   * repetition), value ± √((t₁·se)² + (t₂·sd(q))²), with se the standard error of {@link interval}
   * (the scatter of the means it counts makes the range a little wide), t₁ its Student quantile
   * (n − p degrees of freedom of the mean fit) and t₂ the sd's (Σ (count − 1) of the repetitions).
   * For a log-space model (a power law, a segmented model on log T), whose interval of the mean is
   * exp(log value ± t₁·se_log), the same on log T: exp(log value ± √((t₁·se_log)² + (t₂·sd/value)²)),
   * positive and asymmetric like that interval. Either way it always holds the interval of the mean,
   * and is about value ± 1.96·sd when the sd is well measured and small against the value. A linear
   * model's range is clipped at 0 likewise (its own bounds in `clipped.singleObservationRange`).
   */
  readonly singleObservationRange?: Interval;
  /** True when q lies outside the range of the data. */
  readonly extrapolated: boolean;
  /**
   * When the value or the interval's low bound was clipped at 0: the model's own value and
   * bounds (a high bound below 0 too: the whole interval lies where the model cannot apply). Why clip and say so: the interval is the mean model's, with additive errors of constant
   * spread; below 0 it describes no possible time or count, only that the model's error assumption
   * fails there. A log-space model (a power law, a segmented model on log T) has a positive value,
   * interval and range and is never clipped.
   */
  readonly clipped?: { readonly value: number; readonly low: number; readonly high: number; readonly singleObservationRange?: Interval };
  /** The standard deviation model's value at q (never negative), when the sd was fitted. */
  readonly stdDev?: number;
}

/**
 * Predicts T at `q` with the report's mean model (and its standard deviation model).
 * @param level - coverage of the prediction interval (default 0.95), in (0, 1)
 * @throws AnalysisInputError when `level` is not in (0, 1)
 */
export function predictAt(report: FitReport, q: number, level = 0.95): Prediction {
  const m = report.mean;
  const value = m.predict(q);
  const interval = m.predictionInterval(q, level);
  const sd = report.stdDev === undefined ? undefined : Math.max(0, report.stdDev.predict(q));
  let single: Interval | undefined;
  if (sd !== undefined) {
    const { stdError, dof, logStdError } = m.predictionStandardError(q);
    // Each part at its own Student quantile: the mean's n − p degrees of freedom, the sd's the
    // repetitions' Σ (count − 1), so that a well-measured sd is not widened by the mean's few Q
    // and the range always holds the interval of the mean.
    let sdDof = 0;
    for (const c of report.points.count) sdDof += Math.max(0, c - 1);
    const p = 0.5 + level / 2;
    const t1 = dof > 0 ? studentTQuantile(p, dof) : NaN;
    const t2 = dof > 0 ? studentTQuantile(p, sdDof > 0 ? sdDof : dof) : NaN;
    if (logStdError !== undefined) {
      // A log-space model's interval of the mean is exp(c ± t₁·se_log), asymmetric about the value:
      // the range is built on log T the same way, with the sd as a relative error sd/value there
      // (the delta method), exp(c ± √((t₁·se_log)² + (t₂·sd/value)²)). Its half-width on log T is at
      // least t₁·se_log, so it holds the interval of the mean, and it is positive wherever it is.
      const c = Math.log(value);
      const half = Math.hypot(t1 * logStdError, t2 * (sd / value));
      single = { low: Math.exp(c - half), high: Math.exp(c + half) };
    } else {
      const half = Math.hypot(t1 * stdError, t2 * sd);
      single = { low: value - half, high: value + half };
    }
  }
  const base = { q, level, extrapolated: !m.supports(q), ...(sd !== undefined ? { stdDev: sd } : {}) };
  const clip = (i: Interval): Interval => ({ low: Math.max(0, i.low), high: Math.max(0, i.high) });
  if (!report.nonNegative || !(value < 0 || interval.low < 0 || (single !== undefined && single.low < 0))) return { ...base, value, interval, ...(single ? { singleObservationRange: single } : {}) };
  return {
    ...base,
    value: Math.max(0, value),
    interval: clip(interval),
    ...(single ? { singleObservationRange: clip(single) } : {}),
    clipped: { value, low: interval.low, high: interval.high, ...(single ? { singleObservationRange: single } : {}) },
  };
}
