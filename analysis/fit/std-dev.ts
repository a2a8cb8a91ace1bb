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
}

/** Result of {@link fitStdDev}. */
export interface StdDevFit {
  /** Candidates, best first; the constant is always among them. */
  readonly candidates: readonly FittedModel[];
  /** What became of the hypotheses. */
  readonly screening: Screening;
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
  const withConstant = families.some((f) => f.family.name === "constant") ? families : [{ family: fitFamilies.get("constant"), options: {} }, ...families];
  const { models, screening } = fitAll(withConstant, q, sd, { variable: options.variable, samplingVariance, maxParameters: options.maxParameters, nonNegative: true });
  return { candidates: rank(models, options.criterion), screening };
}
