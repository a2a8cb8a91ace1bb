/**
 * Two-segment models: the search for the change point of a shape, its honest leave-one-out error,
 * and the change point {@link fitModels} reports.
 *
 * @packageDocumentation
 */
import { changePointCandidates, MAX_SEGMENTED_CANDIDATES, segmentedHypothesis } from "./families.js";
import { fitHypothesis, type FittedModel } from "./fitted-model.js";
import type { Hypothesis } from "./hypothesis.js";
import { smape, studentTQuantile } from "./statistics.js";
import type { GroupedPoints } from "./fit-models.js";

/** A change point found by {@link fitModels}. */
export interface ChangePoint {
  /** Q where the slope (or power-law exponent) changes. */
  readonly at: number;
  /** Slope before the change (exponent for power-law segments: T ∝ Q^before). */
  readonly before: number;
  /** Slope after the change. */
  readonly after: number;
  /** "power-law" (exponents) or "linear" (slopes). */
  readonly kind: "power-law" | "linear";
  /**
   * True when the change is material (an exponent change of at least 0.1, or a slope change of at
   * least 10 %), statistically significant (|t| of the change above the 97.5 % Student-t
   * quantile), and the two-segment model fits better (SMAPE) than every single-segment candidate.
   * A significant change point's model competes with the other candidates for the mean.
   */
  readonly significant: boolean;
  /**
   * The two-segment model. Its leave-one-out SMAPE re-chooses the change point without each
   * left-out point (see {@link searchChangePoint}); its parameters count the change point.
   */
  readonly model: FittedModel;
}

/** Options of {@link searchChangePoint}. @internal */
export interface ChangePointSearch {
  readonly weights?: ArrayLike<number>;
  readonly variable: string;
  readonly samplingVariance?: { readonly value: ArrayLike<number>; readonly log: ArrayLike<number> };
}

/**
 * Fits one two-segment shape with its change point searched: at each hypothesis given (the coarse
 * level), then level by level between the neighbours of the best (at most
 * {@link MAX_SEGMENTED_CANDIDATES} change points per level, among {@link changePointCandidates}).
 * The best is the fit of least residual sum of squares (on the fitted scale).
 *
 * Why the leave-one-out SMAPE is recomputed: a fit at a fixed change point leaves a point out but
 * keeps the change point that all points chose, so the search goes unpaid. Here each left-out
 * point's prediction comes from the change point the other points choose among those tried (the
 * least RSS without the point, exact by the deletion formula RSS − w·r²/(1 − h)), so the change
 * point is cross-validated like the coefficients.
 *
 * Why coarse then fine: one fit per distinct Q costs O(n²) for thousands of distinct Q; 64 evenly
 * spaced candidates refined level by level cost O(n·64·log₆₄ n) and find the same point unless the
 * error curve has several deep minima.
 *
 * @param coarse - hypotheses of one shape (the same family and label), each with a change point
 * @returns the best fit, with the cross-validated LOO SMAPE, or undefined when none could be fitted
 * @internal
 */
export function searchChangePoint(coarse: readonly Hypothesis[], q: Float64Array, t: Float64Array, options: ChangePointSearch): FittedModel | undefined {
  const tried = new Map<number, FittedModel>();
  let best: FittedModel | undefined;
  const tryHypothesis = (h: Hypothesis): void => {
    if (tried.has(h.changePoint!)) return;
    const m = fitHypothesis(h, q, t, options);
    if (!m) return;
    tried.set(h.changePoint!, m);
    if (!best || m.quality.fittedRss < best.quality.fittedRss) best = m;
  };
  for (const h of coarse) tryHypothesis(h);
  const make = coarse[0]?.withChangePoint;
  if (best && make) {
    const all = changePointCandidates(q);
    const evenly = (xs: number[], k: number): number[] => [...new Set(Array.from({ length: k }, (_, c) => xs[Math.round((c * (xs.length - 1)) / (k - 1))]!))];
    let level = coarse.map((h) => h.changePoint!).sort((a, b) => a - b);
    while (level.length > 1) {
      const at = (best as FittedModel).changePoint!;
      const k = level.indexOf(at);
      const lo = level[Math.max(0, k - 1)]!;
      const hi = level[Math.min(level.length - 1, k + 1)]!;
      const inside = all.filter((x) => x > lo && x < hi);
      if (inside.length === 0) break;
      const step = inside.length <= MAX_SEGMENTED_CANDIDATES ? inside : evenly(inside, MAX_SEGMENTED_CANDIDATES);
      for (const x of step) tryHypothesis(make(x));
      if (step.length === inside.length) break;
      level = [lo, ...step, hi].sort((a, b) => a - b);
    }
  }
  if (!best) return undefined;
  return (best as FittedModel).withQuality({ looSmape: changePointLooSmape([...tried.values()], t) });
}

/**
 * Leave-one-out SMAPE (%) of a change-point search over `fits` (one shape at several change
 * points, fitted to the same points `t`): each point is predicted by the fit whose change point
 * the other points choose. A point no fit can predict without it counts as 200 %, as in
 * {@link fitHypothesis}.
 */
function changePointLooSmape(fits: readonly FittedModel[], t: ArrayLike<number>): number {
  const predicted = Float64Array.from(t, (_, i) => {
    let chosen: FittedModel | undefined;
    for (const m of fits) {
      const rss = m.leaveOneOut.fittedRss[i]!;
      if (Number.isFinite(rss) && Number.isFinite(m.leaveOneOut.prediction[i]!) && (!chosen || rss < chosen.leaveOneOut.fittedRss[i]!)) chosen = m;
    }
    return chosen ? chosen.leaveOneOut.prediction[i]! : NaN;
  });
  return smape(t, predicted, { undetermined: 200 });
}

/**
 * The best two-segment model of the means (power laws when every Q and mean is positive, else
 * lines), and whether its change is significant against the single-segment candidates `singles`.
 * @internal
 */
export function findChangePoint(points: GroupedPoints, weights: Float64Array | undefined, variable: string, singles: readonly FittedModel[]): ChangePoint | undefined {
  const positive = points.mean.every((v) => v > 0) && points.q[0]! > 0;
  const kind: "power-law" | "linear" = positive ? "power-law" : "linear";
  const coarse = changePointCandidates(points.q, MAX_SEGMENTED_CANDIDATES).map((at) => segmentedHypothesis(kind, at));
  const found = searchChangePoint(coarse, points.q, points.mean, { weights, variable });
  if (!found) return undefined;
  const [, slope, change] = found.coefficients as [unknown, { value: number }, { value: number; stdError: number }];
  const dof = found.quality.n - found.hypothesis.terms.length;
  const tCrit = dof > 0 ? studentTQuantile(0.975, dof) : Infinity;
  const bestSingle = Math.min(...singles.map((s) => s.quality.smape));
  // Material: an exponent change of at least 0.1, or a slope change of at least 10 %.
  const after = slope.value + change.value;
  const material = kind === "power-law" ? Math.abs(change.value) >= 0.1 : Math.abs(change.value) >= 0.1 * Math.max(Math.abs(slope.value), Math.abs(after));
  // Significance rests on the t statistic of the change and materiality; the two-segment model
  // must also fit better (SMAPE on all points) than every single-segment candidate.
  const significant = material && Math.abs(change.value) > tCrit * change.stdError && found.quality.smape < bestSingle;
  return { at: found.changePoint!, before: slope.value, after, kind, significant, model: found };
}
