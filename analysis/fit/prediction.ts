/**
 * Predictions of a fit at a given Q: the mean model's value, its prediction interval and the
 * standard deviation, kept at or above 0 for a quantity that cannot be negative.
 *
 * @packageDocumentation
 */
import type { FitReport } from "./fit-models.js";
import type { Interval } from "./fitted-model.js";

/** A prediction of {@link predictAt}. All values in units of T. */
export interface Prediction {
  /** Where: a value of Q. */
  readonly q: number;
  /** The mean model's value at q (at least 0 for a quantity that cannot be negative). */
  readonly value: number;
  /** Prediction interval for one new observation at q (its low bound at least 0 likewise). */
  readonly interval: Interval;
  /** True when q lies outside the range of the data. */
  readonly extrapolated: boolean;
  /**
   * When the value or the interval's low bound was clipped at 0: the model's own value and
   * bounds (a high bound below 0 too: the whole interval lies where the model cannot apply). Why clip and say so: the interval is the mean model's, with additive errors of constant
   * spread; below 0 it describes no possible time or count, only that the model's error assumption
   * fails there. A log-space model (a power law) has a positive interval and is never clipped.
   */
  readonly clipped?: { readonly value: number; readonly low: number; readonly high: number };
  /** The standard deviation model's value at q (never negative), when the sd was fitted. */
  readonly stdDev?: number;
}

/**
 * Predicts T at `q` with the report's mean model (and its standard deviation model).
 * @param level - coverage of the prediction interval (default 0.95)
 */
export function predictAt(report: FitReport, q: number, level = 0.95): Prediction {
  const m = report.mean;
  const value = m.predict(q);
  const interval = m.predictionInterval(q, level);
  const sd = report.stdDev?.predict(q);
  const base = { q, extrapolated: !m.supports(q), ...(sd !== undefined ? { stdDev: Math.max(0, sd) } : {}) };
  if (!report.nonNegative || !(value < 0 || interval.low < 0)) return { ...base, value, interval };
  return { ...base, value: Math.max(0, value), interval: { low: Math.max(0, interval.low), high: Math.max(0, interval.high) }, clipped: { value, low: interval.low, high: interval.high } };
}
