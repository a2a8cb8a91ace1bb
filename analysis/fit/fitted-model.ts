/**
 * A fitted model: a {@link Hypothesis} with coefficients, their uncertainty and quality measures,
 * printable as a readable formula and as a mathjs expression a scenario can use as a cost model.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import { leastSquares } from "./least-squares.js";
import { rSquared, smape, studentTQuantile } from "./statistics.js";
import type { Hypothesis } from "./hypothesis.js";

/** A fitted coefficient. */
export interface Coefficient {
  /** Value (in the units of T, or of log T for log-space models). */
  readonly value: number;
  /** Standard error; NaN when the fit has no residual degrees of freedom. */
  readonly stdError: number;
}

/** Quality measures of a fit, all on the original scale of T unless said otherwise. */
export interface FitQuality {
  /** Number of points fitted. */
  readonly n: number;
  /** Number of coefficients (plus one for a fitted change point). */
  readonly parameters: number;
  /** Residual sum of squares Σ (T_i − T̂_i)² of the fit to all points (in-sample). */
  readonly rss: number;
  /** Weighted residual sum of squares on the fitted scale (log T for log-space models): what least squares minimised. */
  readonly fittedRss: number;
  /** SMAPE of the fit to all points, in percent. */
  readonly smape: number;
  /** Leave-one-out cross-validated SMAPE, in percent (exact for linear least squares, via leverages). */
  readonly looSmape: number;
  /** Coefficient of determination 1 − RSS/TSS on the original scale of T (comparable across families). */
  readonly r2: number;
  /** Adjusted R² of the fit to all points (in-sample), 1 − (1 − R²)(n − 1)/(n − parameters); NaN without degrees of freedom. */
  readonly adjustedR2: number;
  /**
   * Leave-one-out residual sum of squares Σ (T_i − T̂_(−i))², each point predicted by the fit
   * without it (what Extra-P reports as RSS with cross-validation on); NaN when a point alone
   * determines a coefficient.
   */
  readonly looRss: number;
  /**
   * Adjusted R² from the leave-one-out RSS, 1 − (looRss/TSS)(n − 1)/(n − parameters), as Extra-P
   * computes its AR2 with cross-validation on (it can be below 0); NaN without degrees of freedom.
   */
  readonly looAdjustedR2: number;
}

/** Interval bounds in units of T. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** Options for {@link fitHypothesis}. */
export interface FitHypothesisOptions {
  /** Per-point weights (for example count / sd² to weight means by their scatter). */
  readonly weights?: ArrayLike<number>;
  /** Name of the input variable in formulas (default "Q"). */
  readonly variable?: string;
  /**
   * Known sampling variance of each point, on the scale of T (`value`) and of log T (`log`, for
   * log-space hypotheses): σ² of the fit is at least their (weighted) mean, so the coefficients'
   * standard errors and the intervals are never smaller than the points' own sampling error allows
   * (used for standard deviations, whose sampling error follows from their counts).
   */
  readonly samplingVariance?: { readonly value: ArrayLike<number>; readonly log: ArrayLike<number> };
}

/**
 * Leave-one-out detail of a fit, per point: what the fit without the point predicts there (units
 * of T; NaN when the point alone determines a coefficient) and the residual sum of squares of that
 * fit on the fitted scale (NaN likewise).
 * @internal
 */
export interface LeaveOneOut {
  readonly prediction: Float64Array;
  readonly fittedRss: Float64Array;
}

/** A model fitted to data. Immutable; `toJSON()` gives its plain description. */
export class FittedModel {
  /** Registered family name. */
  readonly family: string;
  /** Shape label ("c0 + c1·Q^(1/2)"). */
  readonly label: string;
  /** Change point of a segmented model, in units of Q. */
  readonly changePoint: number | undefined;

  /** @internal use {@link fitHypothesis} */
  constructor(
    readonly hypothesis: Hypothesis,
    /** Coefficients, one per basis term (the first is the constant term). */
    readonly coefficients: readonly Coefficient[],
    /** Quality measures. */
    readonly quality: FitQuality,
    /** Range of Q the fitted data cover; predictions outside are extrapolations. */
    readonly range: { readonly min: number; readonly max: number },
    private readonly inverseGram: Float64Array,
    private readonly sigma2: number,
    private readonly typicalWeight: number,
    /** Name of the input variable in formulas. */
    readonly variable: string,
    /** @internal */
    readonly leaveOneOut: LeaveOneOut,
  ) {
    this.family = hypothesis.family;
    this.label = hypothesis.label;
    this.changePoint = hypothesis.changePoint;
  }

  /** Predicted T at `q` (units of the fitted values). */
  predict(q: number): number {
    const lin = this.linear(q);
    return this.hypothesis.logResponse ? Math.exp(lin) : lin;
  }

  /**
   * Prediction interval for a single new observation at `q` (default level 0.95): the fitted
   * curve ± t·σ·√(1/w̄ + xᵀ(XᵀWX)⁻¹x), with w̄ the mean weight (1 for unweighted fits); for
   * log-space models the interval is computed on log T and transformed back.
   * @throws AnalysisInputError when `level` is not in (0, 1)
   */
  predictionInterval(q: number, level = 0.95): Interval {
    return this.interval(q, level, true);
  }

  /**
   * What {@link predictionInterval} is built from, on the scale of T: the standard error of a new
   * observation of the fitted quantity at `q` (for a fit to means per Q, a new mean),
   * σ·√(1/w̄ + xᵀ(XᵀWX)⁻¹x) (for a log-space model, by the delta method: the model's value times
   * the error on log T, which that error itself gives as `logStdError`), and the residual degrees
   * of freedom n − p of its t quantile. NaN without degrees of freedom.
   */
  predictionStandardError(q: number): { readonly stdError: number; readonly dof: number; readonly logStdError?: number } {
    const dof = this.quality.n - this.hypothesis.terms.length;
    const se = dof > 0 ? Math.sqrt(this.sigma2 * (1 / this.typicalWeight + this.curveVariance(q))) : NaN;
    return this.hypothesis.logResponse ? { stdError: this.predict(q) * se, dof, logStdError: se } : { stdError: se, dof };
  }

  /** xᵀ(XᵀWX)⁻¹x at `q`: the fitted curve's variance there, in units of σ². */
  private curveVariance(q: number): number {
    const terms = this.hypothesis.terms;
    const p = terms.length;
    const x = terms.map((t) => t.evaluate(q));
    let g = 0;
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) g += x[i]! * this.inverseGram[i * p + j]! * x[j]!;
    return g;
  }

  /**
   * Confidence interval of the fitted curve at `q` (default level 0.95).
   * @throws AnalysisInputError when `level` is not in (0, 1)
   */
  confidenceInterval(q: number, level = 0.95): Interval {
    return this.interval(q, level, false);
  }

  /** True when `q` lies inside the range of the fitted data. */
  supports(q: number): boolean {
    return q >= this.range.min && q <= this.range.max;
  }

  /** Readable formula, for example `exp(1.19·log(Q) − 3.68)` or `−8.13 + 0.16·Q` (3 significant digits). */
  get formula(): string {
    return this.render((v) => short(v), (t) => t.formula(this.variable), "·", " − ", " + ", "exp");
  }

  /** mathjs expression usable as a scenario cost model, for example `exp(1.1903*log(Q) - 3.6801)` (full precision). */
  get expression(): string {
    return this.render((v) => full(v), (t) => t.expression(this.variable).replace(/ \* /g, "*"), "*", " - ", " + ", "exp");
  }

  /**
   * The same fit with some quality measures replaced (a change-point search's leave-one-out SMAPE).
   * @internal
   */
  withQuality(patch: Partial<FitQuality>): FittedModel {
    return new FittedModel(this.hypothesis, this.coefficients, { ...this.quality, ...patch }, this.range, this.inverseGram, this.sigma2, this.typicalWeight, this.variable, this.leaveOneOut);
  }

  /**
   * The basis term coefficient `j` multiplies, as formulas write it (`x`, `x^(2/3)·log2(x)`, `log(x)`
   * for a log-space model), `1` for the constant term.
   */
  termText(j: number): string {
    return this.hypothesis.terms[j]!.formula(this.variable) || "1";
  }

  /** Plain description for JSON output. */
  toJSON(): Record<string, unknown> {
    return {
      family: this.family,
      label: this.label,
      formula: this.formula,
      expression: this.expression,
      coefficients: this.coefficients.map((c, j) => ({ term: this.termText(j), value: c.value, stdError: nullIfNaN(c.stdError) })),
      changePoint: this.changePoint,
      ...Object.fromEntries(Object.entries(this.quality).map(([k, v]) => [k, nullIfNaN(v as number)])),
      range: this.range,
    };
  }

  /**
   * True when term `j`'s contribution is below 1e-12 of the largest term's at both ends of the
   * range: rounding noise of an exact fit (as Extra-P's clean_constant_coefficient), left out of
   * the printed formula.
   * @internal
   */
  isRoundingNoise(j: number): boolean {
    const terms = this.hypothesis.terms;
    const size = (k: number): number =>
      Math.max(Math.abs(this.coefficients[k]!.value * terms[k]!.evaluate(this.range.min)), Math.abs(this.coefficients[k]!.value * terms[k]!.evaluate(this.range.max)));
    let scale = 0;
    for (let k = 0; k < terms.length; k++) scale = Math.max(scale, size(k));
    return size(j) < 1e-12 * scale;
  }

  /**
   * True when coefficient `j` differs from 0 by more than its 95 % confidence half-width
   * (|c| > t·se, Student's t with n − p degrees of freedom; an exact fit's nonzero coefficient,
   * se 0, counts). False without a degree of freedom left.
   */
  significant(j: number): boolean {
    const dof = this.quality.n - this.hypothesis.terms.length;
    if (dof <= 0) return false;
    const c = this.coefficients[j]!;
    return Math.abs(c.value) > studentTQuantile(0.975, dof) * c.stdError || (c.stdError === 0 && c.value !== 0);
  }

  private linear(q: number): number {
    const terms = this.hypothesis.terms;
    let s = 0;
    for (let j = 0; j < terms.length; j++) s += this.coefficients[j]!.value * terms[j]!.evaluate(q);
    return s;
  }

  private interval(q: number, level: number, prediction: boolean): Interval {
    // `!(a && b)` refuses NaN too. A level of 0 would give an empty interval, a negative one an inverted one.
    if (!(level > 0 && level < 1)) throw new AnalysisInputError(`level must be in (0, 1), got ${level}`);
    const dof = this.quality.n - this.hypothesis.terms.length;
    const center = this.linear(q);
    if (dof <= 0) return { low: NaN, high: NaN };
    const half = studentTQuantile(0.5 + level / 2, dof) * Math.sqrt(this.sigma2 * ((prediction ? 1 / this.typicalWeight : 0) + this.curveVariance(q)));
    const tf = this.hypothesis.logResponse ? Math.exp : (v: number) => v;
    return { low: tf(center - half), high: tf(center + half) };
  }

  private render(num: (v: number) => string, term: (t: Hypothesis["terms"][number]) => string, times: string, minus: string, plus: string, exp: string): string {
    const parts: { value: number; text: string }[] = [];
    const terms = this.hypothesis.terms;
    // Constant last for log-space models (the paper's exp(1.19 log(Q) − 3.68)), first otherwise (−963 + 0.315Q).
    const order = terms.map((_, j) => j);
    if (this.hypothesis.logResponse) order.push(order.shift()!);
    for (const j of order) {
      const c = this.coefficients[j]!.value;
      const t = term(terms[j]!);
      const isConst = t === "" || t === "1";
      if (terms.length > 1 && !this.hypothesis.logResponse && this.isRoundingNoise(j)) continue;
      parts.push({ value: c, text: isConst ? num(Math.abs(c)) : `${num(Math.abs(c))}${times}${t}` });
    }
    let s = "";
    parts.forEach((part, i) => {
      if (i === 0) s = (part.value < 0 ? minus.trim() : "") + part.text;
      else s += (part.value < 0 ? minus : plus) + part.text;
    });
    return this.hypothesis.logResponse ? `${exp}(${s})` : s;
  }
}

function short(v: number): string {
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e6) return String(Number(a.toPrecision(3)));
  return a.toExponential(2).replace("e+", "e");
}

function full(v: number): string {
  return String(Math.abs(Number(v.toPrecision(12))));
}

function nullIfNaN(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/**
 * Fits one hypothesis by least squares (on log T for log-space hypotheses).
 *
 * @param q - Q of each point
 * @param t - T of each point (must be > 0 for log-space hypotheses)
 * @returns the fitted model, or undefined when the design is rank deficient or a value is outside the hypothesis's domain
 */
export function fitHypothesis(hypothesis: Hypothesis, q: ArrayLike<number>, t: ArrayLike<number>, options: FitHypothesisOptions = {}): FittedModel | undefined {
  const n = q.length;
  const p = hypothesis.terms.length;
  if (n < p) return undefined;
  const columns = hypothesis.terms.map((term) => {
    const c = new Float64Array(n);
    for (let i = 0; i < n; i++) c[i] = term.evaluate(q[i]!);
    return c;
  });
  for (const c of columns) for (let i = 0; i < n; i++) if (!Number.isFinite(c[i]!)) return undefined;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (hypothesis.logResponse && !(t[i]! > 0)) return undefined;
    y[i] = hypothesis.logResponse ? Math.log(t[i]!) : t[i]!;
  }
  let ls;
  try {
    ls = leastSquares(columns, y, options.weights);
  } catch {
    return undefined;
  }
  const w = options.weights;
  const fitted = new Float64Array(n);
  const loo = new Float64Array(n);
  const looRss = new Float64Array(n);
  let rss = 0;
  let wSum = 0;
  for (let i = 0; i < n; i++) wSum += w ? w[i]! : 1;
  let tss = 0;
  let tMean = 0;
  for (let i = 0; i < n; i++) tMean += t[i]! / n;
  for (let i = 0; i < n; i++) {
    const fy = y[i]! - ls.residuals[i]!;
    // Exact leave-one-out prediction of a linear least-squares fit: y_i − r_i / (1 − h_ii).
    const h = ls.leverage[i]!;
    const looY = h < 1 - 1e-12 ? y[i]! - ls.residuals[i]! / (1 - h) : NaN;
    // Deleting point i lowers the weighted RSS by w_i r_i² / (1 − h_ii).
    looRss[i] = h < 1 - 1e-12 ? ls.rss - ((w ? w[i]! : 1) * ls.residuals[i]! ** 2) / (1 - h) : NaN;
    fitted[i] = hypothesis.logResponse ? Math.exp(fy) : fy;
    loo[i] = hypothesis.logResponse ? Math.exp(looY) : looY;
    rss += (t[i]! - fitted[i]!) ** 2;
    tss += (t[i]! - tMean) ** 2;
  }
  // An undetermined leave-one-out prediction (leverage 1) counts as the worst possible error, 200 %.
  const looSmape = smape(t, loo, { undetermined: 200 });
  const parameters = p + (hypothesis.changePoint !== undefined ? 1 : 0);
  const dof = n - p;
  let floor = 0;
  const sv = options.samplingVariance && (hypothesis.logResponse ? options.samplingVariance.log : options.samplingVariance.value);
  if (sv) for (let i = 0; i < n; i++) floor += ((w ? w[i]! : 1) * sv[i]!) / n;
  const sigma2 = dof > 0 ? Math.max(ls.rss / dof, floor) : NaN;
  const r2 = rSquared(rss, t, tss);
  const adjustedR2 = n - parameters > 0 ? 1 - ((1 - r2) * (n - 1)) / (n - parameters) : NaN;
  let looSquares = 0;
  for (let i = 0; i < n; i++) looSquares += (t[i]! - loo[i]!) ** 2;
  const coefficients = Array.from(ls.coefficients, (value, j) => ({ value, stdError: Math.sqrt(sigma2 * ls.inverseGram[j * p + j]!) }));
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    min = Math.min(min, q[i]!);
    max = Math.max(max, q[i]!);
  }
  const quality: FitQuality = { n, parameters, rss, fittedRss: ls.rss, smape: smape(t, fitted), looSmape, r2, adjustedR2, looRss: looSquares, looAdjustedR2: looAdjustedR2(looSquares, t, parameters, tss) };
  return new FittedModel(hypothesis, coefficients, quality, { min, max }, ls.inverseGram, sigma2, wSum / n, options.variable ?? "Q", { prediction: loo, fittedRss: looRss });
}

/**
 * Adjusted R² from a leave-one-out RSS (see {@link FitQuality.looAdjustedR2}); NaN without
 * degrees of freedom or when the RSS is not a number.
 * @internal
 */
export function looAdjustedR2(looRss: number, t: ArrayLike<number>, parameters: number, tss?: number): number {
  const n = t.length;
  if (!(n - parameters > 0) || !Number.isFinite(looRss)) return NaN;
  return 1 - ((1 - rSquared(looRss, t, tss)) * (n - 1)) / (n - parameters);
}

/**
 * True when the hypothesis's defining terms differ from 0 by more than their 95 % confidence
 * half-width (|c| > t·se): its last term (the leading power of a polynomial, the PMNF term, the
 * exponent of a power law), or for a two-segment model every term that changes at the change
 * point (the slope change and the jump, whichever it has). A defining term the data cannot
 * distinguish from zero is overfitted noise, so the hypothesis is not a candidate. The constant
 * model always passes.
 */
export function termsSignificant(m: FittedModel): boolean {
  const p = m.hypothesis.terms.length;
  if (p === 1) return true;
  const changes = m.hypothesis.changeTerms;
  if (changes === undefined) return m.significant(p - 1);
  return [changes.hinge, changes.step].every((i) => i === undefined || m.significant(i));
}
