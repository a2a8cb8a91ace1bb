/**
 * The standard deviation of T as a function of Q (paper 000's Equation 2), fitted so that it is
 * never negative and never more complex than its data support.
 *
 * @packageDocumentation
 */
import { fitFamilies, type FamilyOptions, type FitFamily } from "./families.js";
import type { FittedModel } from "./fitted-model.js";
import type { GroupedPoints } from "./fit-models.js";
import { fitAll, rank, type Screening, type SelectionCriterion } from "./screening.js";
import { logSdSamplingVariance, sdSamplingVariance } from "./statistics.js";

/** Options of {@link fitStdDev}. */
export interface StdDevOptions {
  /** Name of Q in formulas. */
  readonly variable: string;
  /** Selection criterion, as for the mean. */
  readonly criterion: SelectionCriterion;
  /**
   * Most parameters the sd model may have: {@link fitModels} passes the most of any candidate of
   * the mean fitted to the same Q.
   */
  readonly maxParameters: number;
  /**
   * Also search two-segment shapes (the family `segmented`), as the mean's change-point search
   * does (default false): {@link fitModels} asks for it when it searched the mean's change point
   * and the families were not chosen.
   */
  readonly changePoint?: boolean;
}

/**
 * How far a standard deviation model leaves the observed sds inside the observed range: the larger
 * of (its largest value / the largest observed sd) and (the smallest positive observed sd / its
 * smallest value), with where that happens.
 */
export interface StdDevDeparture {
  /** The factor (≥ 1 when the model leaves the observed sds' range; below 1 when it stays inside). */
  readonly factor: number;
  /** Q where the model is furthest out. */
  readonly at: number;
  /** The model's value there (units of T). */
  readonly value: number;
  /** The observed sd it is compared with: the largest (the model above) or the smallest positive (below). */
  readonly observed: number;
}

/**
 * Most a standard deviation model may leave the observed sds' range inside the observed Q: above
 * twice the largest sd observed anywhere, or below half the smallest. Why a bound on the range and
 * not on each sd: the sds of neighbouring Q scatter by more than their sampling error (a cache
 * that some calls miss), but a model of the sd at some Q that is twice every sd observed, at that
 * Q or any other, describes none of them.
 */
export const SD_DEPARTURE_LIMIT = 2;

/** Result of {@link fitStdDev}. */
export interface StdDevFit {
  /** Candidates, best first; the constant is always among them. */
  readonly candidates: readonly FittedModel[];
  /** What became of the hypotheses. */
  readonly screening: Screening;
  /**
   * The best candidate's departure from the observed sds, when every candidate leaves their range
   * by more than {@link SD_DEPARTURE_LIMIT} (no model of the families describes them; the ranking
   * is then kept as it is).
   */
  readonly departure?: StdDevDeparture;
}

/**
 * Fits the sample standard deviation s_i at each Q with repetitions (count ≥ 2) as a function of
 * Q, searching the same families as the mean plus the constant (the mean of the s_i, the model
 * to fall back on). Three rules keep the model one a statistician would defend:
 *
 * - **Never negative.** A shape is a candidate only if it cannot go below 0 (see
 *   {@link neverNegative}): a log-space model, or non-negative coefficients. Why not clip a line
 *   that crosses 0: it is a model of something else past that point. A decreasing sd is a power
 *   law with a negative exponent (when every s_i > 0), or a negative PMNF exponent.
 * - **Significant against the sds' own sampling error.** A standard deviation of n normal
 *   observations scatters by √(1 − c4(n)²)·σ (0.6·σ for n = 2; {@link sdSamplingVariance}), and
 *   its logarithm by √(ψ′((n − 1)/2)/4) whatever σ ({@link logSdSamplingVariance}). The fit's σ²
 *   is at least that sampling variance (σ estimated by the pooled sd, √(Σ(n_i − 1)s_i²/Σ(n_i − 1))),
 *   so a curve through three two-observation sds that happens to fit them closely is not mistaken
 *   for a trend.
 * - **No more parameters than the mean could have** (`maxParameters`): a second moment is
 *   estimated less precisely than the first from the same observations, so a shape the means do
 *   not support is not read into their scatter.
 * - **Within the observed sds.** A candidate that leaves the observed sds' range inside the observed
 *   Q by more than {@link SD_DEPARTURE_LIMIT} (see {@link sdDeparture}) is rejected, unless every
 *   candidate does (then `departure` says by how much the best does). Why: LOO SMAPE weighs every Q
 *   alike in relative terms, so a power law through sds that span 500× can fit the many small ones
 *   and miss the few large ones by 5×; the two-segment shapes (`changePoint`) often describe such
 *   sds, which rise where a cache overflows.
 */
export function fitStdDev(points: GroupedPoints, families: readonly { family: FitFamily; options: FamilyOptions }[], options: StdDevOptions): StdDevFit {
  const idx = Array.from(points.count.keys()).filter((i) => points.count[i]! > 1);
  const q = Float64Array.from(idx, (i) => points.q[i]!);
  const sd = Float64Array.from(idx, (i) => points.sd[i]!);
  const count = Float64Array.from(idx, (i) => points.count[i]!);
  let pooled = 0;
  let dof = 0;
  for (let i = 0; i < sd.length; i++) {
    pooled += (count[i]! - 1) * sd[i]! ** 2;
    dof += count[i]! - 1;
  }
  pooled /= dof;
  const samplingVariance = {
    value: Float64Array.from(count, (n) => sdSamplingVariance(n) * pooled),
    log: Float64Array.from(count, (n) => logSdSamplingVariance(n)),
  };
  const searched = [
    ...(families.some((f) => f.family.name === "constant") ? [] : [{ family: fitFamilies.get("constant"), options: {} }]),
    ...families,
    ...(options.changePoint === true && !families.some((f) => f.family.name === "segmented") ? [{ family: fitFamilies.get("segmented"), options: {} }] : []),
  ];
  const { models, screening } = fitAll(searched, q, sd, { variable: options.variable, samplingVariance, maxParameters: options.maxParameters, nonNegative: true });
  const ranked = rank(models, options.criterion);
  const departures = ranked.map((m) => sdDeparture(m, q, sd));
  const within = ranked.filter((_, i) => departures[i]!.factor <= SD_DEPARTURE_LIMIT);
  if (within.length === 0) return { candidates: ranked, screening, ...(ranked.length > 0 ? { departure: departures[0] } : {}) };
  return { candidates: within, screening: { ...screening, departing: ranked.length - within.length } };
}

/**
 * How far `model` leaves the range of the observed sds `sd` (at `q`, ascending) inside the
 * observed Q: evaluated at every observed Q and at 64 points evenly spaced in log Q between them
 * (a two-segment model turns between two Q).
 */
export function sdDeparture(model: FittedModel, q: Float64Array, sd: Float64Array): StdDevDeparture {
  let observedMax = 0;
  let observedMin = Infinity;
  for (const s of sd) {
    observedMax = Math.max(observedMax, s);
    if (s > 0) observedMin = Math.min(observedMin, s);
  }
  const at: number[] = Array.from(q);
  const lo = q[0]!;
  const hi = q[q.length - 1]!;
  if (lo > 0 && hi > lo) for (let k = 1; k < 64; k++) at.push(lo * (hi / lo) ** (k / 64));
  let worst: StdDevDeparture = { factor: 0, at: lo, value: model.predict(lo), observed: observedMax };
  for (const x of at) {
    const value = model.predict(x);
    const above = observedMax > 0 ? value / observedMax : value > 0 ? Infinity : 0;
    const below = Number.isFinite(observedMin) ? (value > 0 ? observedMin / value : Infinity) : 0;
    if (above > worst.factor) worst = { factor: above, at: x, value, observed: observedMax };
    if (below > worst.factor) worst = { factor: below, at: x, value, observed: observedMin };
  }
  return worst;
}
