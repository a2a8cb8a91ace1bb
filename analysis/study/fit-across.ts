/**
 * Fits across a sweep: T as a function of Q and of a swept parameter P (a cache size, a clock
 * rate). Built on the one-variable fitter: one shape T(Q) is chosen for every value of P, fitted at
 * each value, and each coefficient is then fitted as a function of P, giving
 * T(Q, P) = Σ c_k(P)·t_k(Q) (or exp of that sum for power laws).
 *
 * A two-segment shape (a cache overflowing at some Q) may keep its form while its change point
 * moves with P (an array overflows a cache twice as large at twice the size): such a shape is
 * fitted with each value's own change point Q0, and Q0 is then fitted as a function of P too.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import {
  changePointCandidates,
  fitHypothesis,
  fitModels,
  formulaVariable,
  groupByQ,
  negativeWarning,
  smape,
  zeroMeansWarning,
  type FitOptions,
  type FittedModel,
  type FitWarning,
  type Hypothesis,
  type SelectionCriterion,
} from "../fit/index.js";
import { searchChangePoint } from "../fit/change-point.js";
import { MAX_SEGMENTED_CANDIDATES } from "../fit/families.js";
import { rSquared } from "../fit/statistics.js";

/** Observations at one value of the swept parameter. */
export interface SweepGroup {
  /** Value of the swept parameter. */
  readonly by: number;
  readonly q: ArrayLike<number>;
  readonly t: ArrayLike<number>;
}

/**
 * What a value's own best fit (its observations fitted alone, as `ccasim fit` fits them) says of a
 * change within its observed Q:
 * - `chosen`: a two-segment model ranks first: the value has a transition of its own;
 * - `outranked`: a change point is significant, but a single-segment model ranks above it (a
 *   change small against the scatter of the observations);
 * - `not-significant`: no change point found is significant (the data do not change, change too
 *   little, or change between the two smallest or the two largest Q, where none can be placed);
 * - `not-searched`: no change point was searched (fewer than 5 or more than 5000 distinct Q, as
 *   {@link fitModels} searches), or none could be fitted.
 */
export type OwnChange = "chosen" | "outranked" | "not-significant" | "not-searched";

/** T(Q) at one value of the swept parameter, in the common shape. */
export interface PerValueFit {
  /** The value of the swept parameter P, as the study stores it (bytes for a cache size). */
  readonly by: number;
  /** T(Q) at this value, the common shape fitted to its observations (with a moving change point, at its own Q0). */
  readonly model: FittedModel;
  /** Observations. */
  readonly n: number;
  /** Reasons to doubt this value's T(Q) (see {@link FitWarning}): means of 0 under LOO SMAPE, values below 0. */
  readonly warnings: readonly FitWarning[];
  /**
   * What the value's own best fit says of a change point: a moving change point's Q0(P) is fitted
   * on the values where it is `chosen` when at least 3 are, else on every value.
   */
  readonly ownChange: OwnChange;
}

/** Options of {@link fitAcrossSweep}. */
export interface FitAcrossOptions {
  /** Families searched for T(Q) (as {@link FitOptions.families}). */
  readonly families?: FitOptions["families"];
  /**
   * How shapes are compared (default "loo-smape"): each value's best model is chosen as
   * {@link fitModels} chooses it; the common shape has the least total LOO SMAPE over the values,
   * or the least total 1 − adjusted R²; a moving change point must beat the fixed one by that
   * score and, combined, by SMAPE (or R²) over every observation.
   */
  readonly criterion?: SelectionCriterion;
  /** Families searched for each coefficient as a function of P (default constant, polynomial up to degree 2, power-law when positive, and Extra-P's normal form). */
  readonly coefficientFamilies?: FitOptions["families"];
  /** Name of Q in formulas (default "Q"). */
  readonly variable?: string;
  /** Name of P in formulas (default "P"). */
  readonly byVariable?: string;
  /**
   * What P is, named in errors beside {@link byVariable} (a sweep key, `machine.l2.size`: "the
   * swept parameter machine.l2.size (L2)"); default: P's name in formulas alone.
   */
  readonly byName?: string;
}

/** Result of {@link fitAcrossSweep}. */
export interface FitAcrossReport {
  /** The common shape of T(Q). */
  readonly shape: Hypothesis;
  /** T(Q) at each value of P, in the common shape. */
  readonly perValue: readonly PerValueFit[];
  /** Each coefficient as a function of P (undefined when fewer than 3 values of P). */
  readonly coefficients?: readonly FittedModel[];
  /**
   * For a two-segment shape whose change point moves with P: Q0 (the last Q of the first segment)
   * as a function of P (undefined when fewer than 3 values of P); each `perValue` model has its own.
   */
  readonly changePoint?: FittedModel;
  /** The values of P that Q0(P) and the coefficients were fitted on (a moving change point only). */
  readonly changePointValues?: readonly number[];
  /** mathjs expression of T(Q, P), when the coefficients were fitted. */
  readonly expression?: string;
  /** Readable formula of T(Q, P). */
  readonly formula?: string;
  /** SMAPE (%) of T(Q, P) over every observation. */
  readonly smape?: number;
  /** R² (1 − RSS/TSS) of T(Q, P) over every observation. */
  readonly r2?: number;
  /**
   * Warnings about T(Q, P) (a quantity that cannot be negative going below 0 at some value's
   * observed Q), by the value of P; those of each value's T(Q) are in `perValue`.
   */
  readonly warnings: readonly { readonly by: number; readonly warning: FitWarning }[];
  /** Predicts T at (q, p) with the combined model. */
  readonly predict?: (q: number, p: number) => number;
  /**
   * Whether every coefficient (and a moving change point) came out constant in P while the own
   * T(Q) of the values they were fitted on differ by more than a quarter at some Q those values
   * all observed ({@link spread}): T(Q, P) then does not follow P (too few values of P for a trend
   * to be significant, say), and the per-value fits say more.
   */
  readonly constantInP?: boolean;
  /**
   * Where the own T(Q) of the values the functions of P were fitted on (every value, or
   * {@link changePointValues}) differ most among the observed Q that lie within every such
   * value's range: the ratio of the largest to the smallest (dimensionless; Q where one of them
   * is not positive are skipped; 1 when there is none) and that Q. Caches of several sizes agree
   * where the arrays fit all of them or none, and differ in between, so the largest Q alone does
   * not tell.
   */
  readonly spread?: { readonly ratio: number; readonly at: number };
  /**
   * For a moving change point: whether Q0(P) came out constant (no trend in P significant) while
   * the own change points of the values it was fitted on differ by more than a quarter (the
   * largest over the smallest). T(Q, P) then puts the change at one Q for every value of P, and
   * the per-value change points say more.
   */
  readonly changePointConstantInP?: boolean;
}

/**
 * Fits T(Q, P) from observations grouped by the swept parameter P.
 * @throws AnalysisInputError with no group that has 3 distinct Q, or when no shape fits every group
 */
export function fitAcrossSweep(groups: readonly SweepGroup[], options: FitAcrossOptions = {}): FitAcrossReport {
  const variable = formulaVariable(options.variable);
  const byVariable = options.byVariable ?? "P";
  const usable = groups.filter((g) => new Set(Array.from(g.q)).size >= 3);
  const criterion = options.criterion ?? "loo-smape";
  if (usable.length === 0) {
    const most = Math.max(0, ...groups.map((g) => new Set(Array.from(g.q)).size));
    const named = options.byName === undefined ? byVariable : `${options.byName} (${byVariable})`;
    throw new AnalysisInputError(`no value of the swept parameter ${named} has observations at 3 or more distinct values of ${variable} (at most ${most})`);
  }
  // Candidate shapes: the best shape of each group (a two-segment one at its change point, and
  // with the change point of each group); the common one is the best in total LOO SMAPE.
  const candidates = new Map<string, Hypothesis>();
  const moving = new Map<string, Hypothesis>();
  /** What each value's own best model says of a change at some Q (a transition within its range). */
  const own: OwnChange[] = [];
  for (const g of usable) {
    const report = fitModels({ q: g.q, t: g.t }, { families: options.families, criterion, variable, fitStdDev: false });
    const best = report.mean;
    own.push(best.changePoint !== undefined ? "chosen" : report.changePoint === undefined ? "not-searched" : report.changePoint.significant ? "outranked" : "not-significant");
    // A two-segment shape's label names its change point Q0, not its value: the key holds both.
    const key = `${best.label}${best.hypothesis.logResponse ? " (log)" : ""}`;
    candidates.set(`${key}${best.changePoint !== undefined ? ` at ${best.changePoint}` : ""}`, best.hypothesis);
    if (best.changePoint !== undefined && best.hypothesis.withChangePoint !== undefined) moving.set(key, best.hypothesis);
  }
  const ownChange = own.map((o) => o === "chosen");
  const score = (models: readonly FittedModel[]) =>
    criterion === "loo-smape"
      ? models.reduce((a, m) => a + (Number.isFinite(m.quality.looSmape) ? m.quality.looSmape : m.quality.smape), 0)
      : models.reduce((a, m) => a + 1 - (Number.isFinite(m.quality.adjustedR2) ? m.quality.adjustedR2 : m.quality.r2), 0);
  type Choice = { shape: Hypothesis; models: FittedModel[]; score: number };
  const best = (list: Iterable<Hypothesis>, fit: (shape: Hypothesis, g: SweepGroup) => FittedModel | undefined): Choice | undefined => {
    let chosen: Choice | undefined;
    for (const shape of list) {
      const fits = usable.map((g) => fit(shape, g));
      if (fits.some((m) => m === undefined)) continue;
      const total = score(fits as FittedModel[]);
      if (!chosen || total < chosen.score - 1e-9) chosen = { shape, models: fits as FittedModel[], score: total };
    }
    return chosen;
  };
  const fixed = best(candidates.values(), (shape, g) => fitHypothesis(shape, g.q, g.t, { variable }));
  // A moving change point has one more parameter per value of P (its LOO SMAPE cross-validates the
  // change point, see searchChangePoint): it is considered only when it fits clearly better, by
  // MOVING_MARGIN of the best fixed shape's total, and then kept only if its combined T(Q, P)
  // fits all observations better too.
  let movingChoice = best(moving.values(), (shape, g) => ownChangePoint(shape, g, variable));
  if (movingChoice && fixed && movingChoice.score >= fixed.score * (1 - MOVING_MARGIN)) movingChoice = undefined;
  if (!fixed && !movingChoice) throw new AnalysisInputError("no single model shape fits every value of the swept parameter");
  if (new Set(usable.map((g) => g.by)).size < 3) {
    const c = (movingChoice ?? fixed)!;
    return { shape: c.shape, perValue: perValueFits(usable, c.models, criterion, own), warnings: [] };
  }
  const fixedReport = fixed ? combine(usable, fixed.shape, perValueFits(usable, fixed.models, criterion, own), undefined, options, variable, byVariable) : undefined;
  const movingReport = movingChoice ? combine(usable, movingChoice.shape, perValueFits(usable, movingChoice.models, criterion, own), ownChange, options, variable, byVariable) : undefined;
  if (!movingReport) return fixedReport!;
  if (!fixedReport) return movingReport;
  return (criterion === "loo-smape" ? movingReport.smape! < fixedReport.smape! : movingReport.r2! > fixedReport.r2!) ? movingReport : fixedReport;
}

/**
 * T(Q, P) from one shape fitted at each value: each coefficient fitted as a function of P. With
 * `ownChange` (a moving change point, each value's own Q0): Q0(P) too, and all of them on the
 * values whose own data change within their range when at least 3 do (the others are predicted
 * by extrapolation; the combined SMAPE counts them).
 */
function combine(
  usable: readonly SweepGroup[],
  shape: Hypothesis,
  perValue: readonly PerValueFit[],
  ownChange: readonly boolean[] | undefined,
  options: FitAcrossOptions,
  variable: string,
  byVariable: string,
): FitAcrossReport {
  let changePoint: FittedModel | undefined;
  // The values the functions of P are fitted on: with a moving change point, those whose own data
  // change within their range (when at least 3 do), since a value without a transition (a cache
  // the arrays never overflow, or always do) has a change point and coefficients of no meaning.
  let changing = usable.map(() => true);
  if (ownChange) {
    if (new Set(usable.filter((_, i) => ownChange[i]).map((g) => g.by)).size >= 3) changing = [...ownChange];
    const basis = perValue.filter((_, i) => changing[i]);
    changePoint = fitModels({ q: basis.map((v) => v.by), t: basis.map((v) => v.model.changePoint!) }, { families: ["constant", "polynomial:maxDegree=1", "power-law"], variable: byVariable, detectChangePoint: false, fitStdDev: false }).mean;
  }
  const basis = perValue.filter((_, i) => changing[i]);
  const coefficients: FittedModel[] = [];
  for (let k = 0; k < shape.terms.length; k++) {
    const c = basis.map((v) => v.model.coefficients[k].value);
    const families = options.coefficientFamilies ?? (c.every((x) => x > 0) ? ["constant", "polynomial:maxDegree=2", "power-law", "pmnf"] : ["constant", "polynomial:maxDegree=2", "pmnf"]);
    coefficients.push(fitModels({ q: basis.map((v) => v.by), t: c }, { families, variable: byVariable, detectChangePoint: false, fitStdDev: false }).mean);
  }
  // Q0(P) outside the observed Q (a line extrapolated past the sweep) is held at their bounds, in
  // predictions and in the formulas alike: a change point at 0 or below would make a power law's
  // hinge take log of it.
  let qLow = Infinity;
  let qHigh = -Infinity;
  for (const g of usable) for (let i = 0; i < g.q.length; i++) {
    qLow = Math.min(qLow, g.q[i]);
    qHigh = Math.max(qHigh, g.q[i]);
  }
  const q0At = (p: number): number => Math.min(qHigh, Math.max(qLow, changePoint!.predict(p)));
  const shapeAt = (p: number): Hypothesis => (changePoint ? shape.withChangePoint!(q0At(p)) : shape);
  const predict = (q: number, p: number) => {
    const h = shapeAt(p);
    let s = 0;
    for (let k = 0; k < h.terms.length; k++) s += coefficients[k].predict(p) * h.terms[k].evaluate(q);
    return h.logResponse ? Math.exp(s) : s;
  };
  // Formulas write Q0 as its (held) function of P.
  const lo = String(Number(qLow.toPrecision(12)));
  const hi = String(Number(qHigh.toPrecision(12)));
  const written = (text: (m: FittedModel) => string) => (changePoint ? shape.withChangePoint!(q0At(perValue[0].by), `min(${hi}, max(${lo}, ${text(changePoint)}))`) : shape);
  const sum = (coef: (m: FittedModel) => string, term: (k: number) => string, times: string) =>
    shape.terms.map((_, k) => (term(k) === "1" || term(k) === "" ? `(${coef(coefficients[k])})` : `(${coef(coefficients[k])})${times}${term(k)}`)).join(" + ");
  const exprShape = written((m) => m.expression);
  const formulaShape = written((m) => m.formula);
  const exprSum = sum((m) => m.expression, (k) => exprShape.terms[k].expression(variable).replace(/ \* /g, "*"), "*");
  const formulaSum = sum((m) => m.formula, (k) => formulaShape.terms[k].formula(variable), "·");
  const actual: number[] = [];
  const predicted: number[] = [];
  const warnings: { by: number; warning: FitWarning }[] = [];
  for (const g of usable) {
    for (let i = 0; i < g.q.length; i++) {
      actual.push(g.t[i]);
      predicted.push(predict(g.q[i], g.by));
    }
    const warning = negativeWarning((q) => predict(q, g.by), g.q, nonNegative(g));
    if (warning) warnings.push({ by: g.by, warning });
  }
  let rss = 0;
  actual.forEach((y, i) => (rss += (y - predicted[i]!) ** 2));
  // The values the functions of P were fitted on: T(Q, P) extrapolates to the others.
  const spread = largestSpread(basis, usable.filter((_, i) => changing[i]));
  return {
    shape,
    perValue,
    coefficients,
    changePoint,
    changePointValues: changePoint ? usable.filter((_, i) => changing[i]).map((g) => g.by) : undefined,
    expression: shape.logResponse ? `exp(${exprSum})` : exprSum,
    formula: shape.logResponse ? `exp(${formulaSum})` : formulaSum,
    smape: smape(actual, predicted),
    r2: rSquared(rss, actual),
    warnings,
    predict,
    constantInP: coefficients.every((m) => m.family === "constant") && (changePoint === undefined || changePoint.family === "constant") && spread.ratio > 1.25,
    spread,
    ...(changePoint ? { changePointConstantInP: changePoint.family === "constant" && ratioOf(basis.map((v) => v.model.changePoint!)) > 1.25 } : {}),
  };
}

/**
 * Where the values' own T(Q) differ most (the largest ratio of the largest to the smallest), among
 * the observed Q within every value's observed range; Q where one of them is not positive are
 * skipped (ratio 1 and the largest common Q when none is left).
 */
function largestSpread(perValue: readonly PerValueFit[], usable: readonly SweepGroup[]): { ratio: number; at: number } {
  let low = -Infinity;
  let high = Infinity;
  for (const g of usable) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < g.q.length; i++) {
      lo = Math.min(lo, g.q[i]);
      hi = Math.max(hi, g.q[i]);
    }
    low = Math.max(low, lo);
    high = Math.min(high, hi);
  }
  const common = new Set<number>();
  for (const g of usable) for (let i = 0; i < g.q.length; i++) if (g.q[i] >= low && g.q[i] <= high) common.add(g.q[i]);
  let best = { ratio: 1, at: high };
  for (const q of [...common].sort((a, b) => a - b)) {
    const ratio = ratioOf(perValue.map((v) => v.model.predict(q)));
    if (ratio > best.ratio) best = { ratio, at: q };
  }
  return best;
}

/** The largest of `values` over the smallest (1 when one of them is not positive). */
function ratioOf(values: readonly number[]): number {
  const lo = Math.min(...values);
  return lo > 0 ? Math.max(...values) / lo : 1;
}

/** Whether a value's observations cannot be negative (every one is ≥ 0: a time, a count). */
function nonNegative(g: SweepGroup): boolean {
  return Array.from(g.t).every((v) => v >= 0);
}

/**
 * Each value's T(Q) in the common shape, with its warnings: means of 0 under LOO SMAPE (scored by
 * the per-value choice), and a model of a quantity that cannot be negative going below 0 inside
 * the value's observed Q.
 */
function perValueFits(usable: readonly SweepGroup[], models: readonly FittedModel[], criterion: SelectionCriterion, own: readonly OwnChange[]): PerValueFit[] {
  return usable.map((g, i) => {
    const points = groupByQ(g.q, g.t);
    const zeroMeans = Array.from(points.mean).filter((m) => m === 0).length;
    const model = models[i]!;
    const warnings = [zeroMeansWarning(criterion, zeroMeans, points.q.length), negativeWarning((q) => model.predict(q), points.q, nonNegative(g))].filter((w): w is FitWarning => w !== undefined);
    return { by: g.by, model, n: g.q.length, warnings, ownChange: own[i]! };
  });
}

/** How much better (a fraction of the best fixed shape's total LOO SMAPE) a moving change point must fit. */
const MOVING_MARGIN = 0.02;

/**
 * `shape` fitted to one value's observations with its own change point, searched as `ccasim fit`
 * searches one (coarse candidates among the Q, then refined; cross-validated LOO SMAPE).
 */
function ownChangePoint(shape: Hypothesis, g: SweepGroup, variable: string): FittedModel | undefined {
  const q = Float64Array.from(g.q);
  const t = Float64Array.from(g.t);
  const distinct = Float64Array.from(new Set(Array.from(q))).sort();
  const coarse = changePointCandidates(distinct, MAX_SEGMENTED_CANDIDATES).map((at) => shape.withChangePoint!(at));
  return coarse.length === 0 ? undefined : searchChangePoint(coarse, q, t, { variable });
}
