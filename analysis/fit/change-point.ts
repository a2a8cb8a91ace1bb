/**
 * Two-segment models: the search for the change point of a shape, its honest leave-one-out error,
 * and the change point {@link fitModels} reports.
 *
 * @packageDocumentation
 */
import { changePointCandidates, MAX_SEGMENTED_CANDIDATES, SEGMENT_CHANGES, segmentedHypothesis, type SegmentChange } from "./families.js";
import { fitHypothesis, looAdjustedR2, termsSignificant, type FittedModel } from "./fitted-model.js";
import type { Hypothesis } from "./hypothesis.js";
import { smape } from "./statistics.js";
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
  /** What changes at the change point: the slope (`hinge`), the level (`step`), or both. */
  readonly change: SegmentChange;
  /**
   * The jump past the change point, when the shape has one: a factor for power laws (T jumps to
   * `jump` times its value), a difference in T for lines.
   */
  readonly jump?: number;
  /**
   * True when the change is material (an exponent change of at least 0.1 or a slope change of at
   * least 10 %, or a jump of at least 10 %), statistically significant (|t| of every change term
   * above the 97.5 % Student-t quantile), and the two-segment model fits better (SMAPE) than every
   * single-segment candidate. A significant change point's model competes with the other
   * candidates for the mean.
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
  const loo = changePointLeaveOneOut([...tried.values()], t);
  const b = best as FittedModel;
  return b.withQuality({ looSmape: loo.looSmape, looRss: loo.looRss, looAdjustedR2: looAdjustedR2(loo.looRss, t, b.quality.parameters) });
}

/**
 * Leave-one-out SMAPE (%) and RSS of a change-point search over `fits` (one shape at several
 * change points, fitted to the same points `t`): each point is predicted by the fit whose change
 * point the other points choose. A point no fit can predict without it counts as 200 %, as in
 * {@link fitHypothesis} (and makes the RSS NaN).
 */
function changePointLeaveOneOut(fits: readonly FittedModel[], t: ArrayLike<number>): { looSmape: number; looRss: number } {
  const predicted = Float64Array.from(t, (_, i) => {
    let chosen: FittedModel | undefined;
    for (const m of fits) {
      const rss = m.leaveOneOut.fittedRss[i]!;
      if (Number.isFinite(rss) && Number.isFinite(m.leaveOneOut.prediction[i]!) && (!chosen || rss < chosen.leaveOneOut.fittedRss[i]!)) chosen = m;
    }
    return chosen ? chosen.leaveOneOut.prediction[i]! : NaN;
  });
  let looRss = 0;
  for (let i = 0; i < t.length; i++) looRss += (t[i]! - predicted[i]!) ** 2;
  return { looSmape: smape(t, predicted, { undetermined: 200 }), looRss };
}

/**
 * The best two-segment model of the means (power laws when every Q and mean is positive, else
 * lines), among the shapes that change the slope, jump, or both: a significant one before one that
 * is not, then the least leave-one-out SMAPE (cross-validated with its change point, so the extra
 * parameters and the search pay for themselves); and whether its change is significant against
 * the single-segment candidates `singles`.
 * @internal
 */
export function findChangePoint(points: GroupedPoints, weights: Float64Array | undefined, variable: string, singles: readonly FittedModel[]): ChangePoint | undefined {
  const positive = points.mean.every((v) => v > 0) && points.q[0]! > 0;
  const kind: "power-law" | "linear" = positive ? "power-law" : "linear";
  const candidates = changePointCandidates(points.q, MAX_SEGMENTED_CANDIDATES);
  const bestSingle = Math.min(...singles.map((s) => s.quality.smape));
  let best: ChangePoint | undefined;
  for (const change of SEGMENT_CHANGES) {
    const found = searchChangePoint(
      candidates.map((at) => segmentedHypothesis(kind, at, change)),
      points.q,
      points.mean,
      { weights, variable },
    );
    if (!found) continue;
    const cp = describeChange(found, kind, change, bestSingle);
    if (!best || (cp.significant && !best.significant) || (cp.significant === best.significant && cp.model.quality.looSmape < best.model.quality.looSmape)) best = cp;
  }
  return best;
}

/**
 * A fitted two-segment model as a {@link ChangePoint}. Material: an exponent change of at least
 * 0.1 or a jump of at least 10 % (power laws), a slope change of at least 10 % or a jump of at
 * least 10 % of the model's value at the change point (lines). Significant: every change term's
 * |t| above the 97.5 % Student-t quantile, one of them material, and a better SMAPE on all points
 * than every single-segment candidate (`bestSingle`).
 */
function describeChange(found: FittedModel, kind: "power-law" | "linear", change: SegmentChange, bestSingle: number): ChangePoint {
  const c = found.coefficients;
  const { hinge, step } = found.hypothesis.changeTerms ?? {};
  const level = c[0]!.value;
  const slope = c[1]!.value;
  const hingeValue = hinge === undefined ? 0 : c[hinge]!.value;
  const after = slope + hingeValue;
  const at = found.changePoint!;
  let material = false;
  if (hinge !== undefined) {
    const h = c[hinge]!.value;
    material ||= kind === "power-law" ? Math.abs(h) >= 0.1 : Math.abs(h) >= 0.1 * Math.max(Math.abs(slope), Math.abs(after));
  }
  let jump: number | undefined;
  if (step !== undefined) {
    const d = c[step]!.value;
    jump = kind === "power-law" ? Math.exp(d) : d;
    material ||= kind === "power-law" ? Math.abs(d) >= Math.log(1.1) : Math.abs(d) >= 0.1 * Math.abs(level + slope * at);
  }
  // Every change term significant: the screening's own test of a two-segment model.
  const significant = termsSignificant(found) && material && found.quality.smape < bestSingle;
  return { at, before: slope, after, kind, change, ...(jump === undefined ? {} : { jump }), significant, model: found };
}
