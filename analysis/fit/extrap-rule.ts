/**
 * Extra-P's selection rule, as its default single-parameter modeler applies it (Extra-P 4.x,
 * `extrap/modelers/single_parameter/basic.py` and `abstract_base.py`, cross-validation on): the
 * constant model (the mean of the values) is the best so far, scored by its SMAPE on all points;
 * each hypothesis in turn replaces the best when its leave-one-out SMAPE is strictly lower, unless
 * one of its non-constant terms has a coefficient of exactly 0 or contributes less than
 * {@link EXTRAP_MIN_TERM_CONTRIBUTION} of the measured value at every point. No significance test.
 * In each leave-one-out fit, a constant coefficient below {@link EXTRAP_CLEAN_CONSTANT} of the
 * smallest training value (below it in absolute terms when that value is 0) is set to 0 before
 * predicting the point left out; the final coefficients are those of the fit to all points.
 *
 * @packageDocumentation
 */
import { fitHypothesis, type FittedModel } from "./fitted-model.js";
import type { Hypothesis } from "./hypothesis.js";
import { smape } from "./statistics.js";

/** Extra-P's `minimum_term_contribution`: a term contributing less at every point is rejected. */
export const EXTRAP_MIN_TERM_CONTRIBUTION = 0.0005;

/** Extra-P's `epsilon` of `clean_constant_coefficient` in cross-validation. */
export const EXTRAP_CLEAN_CONSTANT = 0.0005;

/**
 * How fitted hypotheses become the model: `significance`, ccasim's own (a hypothesis is a
 * candidate when its defining term is significantly different from 0, 95 %; the candidates are
 * ranked by the criterion, every model by the same score), or `extra-p` (see above).
 */
export type SelectionRule = "significance" | "extra-p";

/**
 * The leave-one-out SMAPE (percent) and RSS of a hypothesis as Extra-P computes them: refitted
 * without each point in turn, its constant coefficient cleaned as above. A log-space hypothesis
 * (which Extra-P has not) is not cleaned.
 * @returns undefined when a leave-one-out fit cannot be made (too few points, rank deficient)
 * @internal
 */
export function extrapLeaveOneOut(h: Hypothesis, q: Float64Array, t: Float64Array): { readonly looSmape: number; readonly looRss: number; readonly prediction: Float64Array } | undefined {
  const n = q.length;
  const prediction = new Float64Array(n);
  const qi = new Float64Array(n - 1);
  const ti = new Float64Array(n - 1);
  for (let i = 0; i < n; i++) {
    let k = 0;
    let min = Infinity;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      qi[k] = q[j]!;
      ti[k++] = t[j]!;
      min = Math.min(min, t[j]!);
    }
    const m = fitHypothesis(h, qi, ti);
    if (!m) return undefined;
    let c0 = m.coefficients[0]!.value;
    if (!h.logResponse && (min === 0 ? Math.abs(c0) < EXTRAP_CLEAN_CONSTANT : Math.abs(c0 / min) < EXTRAP_CLEAN_CONSTANT)) c0 = 0;
    let lin = c0 * h.terms[0]!.evaluate(q[i]!);
    for (let j = 1; j < h.terms.length; j++) lin += m.coefficients[j]!.value * h.terms[j]!.evaluate(q[i]!);
    prediction[i] = h.logResponse ? Math.exp(lin) : lin;
  }
  let looRss = 0;
  for (let i = 0; i < n; i++) looRss += (prediction[i]! - t[i]!) ** 2;
  return { looSmape: smape(t, prediction), looRss, prediction };
}

/**
 * Whether every non-constant term of a fitted model passes Extra-P's test: a coefficient other
 * than exactly 0, and a contribution |c·term(Q)/T| of at least {@link EXTRAP_MIN_TERM_CONTRIBUTION}
 * at some point (a contribution that is not a number, at T = 0, passes, as in Extra-P).
 * @internal
 */
export function extrapTermsContribute(m: FittedModel, q: ArrayLike<number>, t: ArrayLike<number>): boolean {
  const terms = m.hypothesis.terms;
  for (let j = 1; j < terms.length; j++) {
    const c = m.coefficients[j]!.value;
    if (c === 0) return false;
    let max = -Infinity;
    for (let i = 0; i < q.length; i++) {
      const v = Math.abs((c * terms[j]!.evaluate(q[i]!)) / t[i]!);
      // why: numpy's max propagates NaN, and NaN < the threshold is false, so the term stays
      if (Number.isNaN(v)) {
        max = NaN;
        break;
      }
      max = Math.max(max, v);
    }
    if (max < EXTRAP_MIN_TERM_CONTRIBUTION) return false;
  }
  return true;
}

/**
 * The score Extra-P compares a model by: SMAPE on all points for the constant model (its starting
 * point), leave-one-out SMAPE for every other.
 */
export function extrapScore(m: FittedModel): number {
  return m.hypothesis.terms.length === 1 ? m.quality.smape : m.quality.looSmape;
}

/**
 * Sorts models best first as Extra-P's sequential comparison would choose among them: by
 * {@link extrapScore}, ties to the constant model (Extra-P's starting best, replaced only by a
 * strictly lower score), then to the hypothesis tried first (the order of `models`, the
 * families'). Returns the same array. @internal
 */
export function rankExtrap(models: FittedModel[]): FittedModel[] {
  const order = new Map(models.map((m, i) => [m, m.hypothesis.terms.length === 1 ? -1 : i]));
  return models.sort((a, b) => extrapScore(a) - extrapScore(b) || order.get(a)! - order.get(b)!);
}
