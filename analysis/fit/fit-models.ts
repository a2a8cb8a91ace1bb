/**
 * Model search: group observations by Q, fit every hypothesis of the chosen families to the mean
 * (and, separately, to the standard deviation) as functions of Q, and select by leave-one-out
 * cross-validated SMAPE or adjusted R², as in paper 000 (Equations 1 and 2) and Extra-P.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import { fitFamilies, parseFamilySpec, segmentedHypothesis, changePointCandidates, MAX_SEGMENTED_CANDIDATES, type FamilyOptions, type FitFamily } from "./families.js";
import { fitHypothesis, type FittedModel } from "./fitted-model.js";
import { studentTQuantile } from "./statistics.js";

/** Observations grouped by distinct Q (ascending). */
export interface GroupedPoints {
  /** Distinct Q values, ascending. */
  readonly q: Float64Array;
  /** Mean of T at each Q. */
  readonly mean: Float64Array;
  /** Sample standard deviation of T at each Q (0 for a single observation). */
  readonly sd: Float64Array;
  /** Number of observations at each Q. */
  readonly count: Float64Array;
}

/**
 * Groups raw observations (for example 10^5 per-invocation records) by distinct Q with a
 * one-pass mean and variance (Welford).
 *
 * @param q - input parameter of each observation
 * @param t - observed value (time in microseconds, a counter ...) of each observation
 * @throws AnalysisInputError when the lengths differ, a value is not finite, or there is no data
 */
export function groupByQ(q: ArrayLike<number>, t: ArrayLike<number>): GroupedPoints {
  if (q.length !== t.length) throw new AnalysisInputError(`Q has ${q.length} values but T has ${t.length}`);
  if (q.length === 0) throw new AnalysisInputError("no observations to fit");
  // Map keyed by Q: one hash lookup per record keeps 10^5 records in a few milliseconds.
  const acc = new Map<number, { n: number; mean: number; m2: number }>();
  for (let i = 0; i < q.length; i++) {
    const x = q[i]!;
    const y = t[i]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new AnalysisInputError(`observation ${i} is not finite (Q=${x}, T=${y})`);
    let a = acc.get(x);
    if (!a) acc.set(x, (a = { n: 0, mean: 0, m2: 0 }));
    a.n++;
    const d = y - a.mean;
    a.mean += d / a.n;
    a.m2 += d * (y - a.mean);
  }
  const keys = [...acc.keys()].sort((a, b) => a - b);
  const out = { q: new Float64Array(keys.length), mean: new Float64Array(keys.length), sd: new Float64Array(keys.length), count: new Float64Array(keys.length) };
  keys.forEach((k, i) => {
    const a = acc.get(k)!;
    out.q[i] = k;
    out.mean[i] = a.mean;
    out.sd[i] = a.n > 1 ? Math.sqrt(a.m2 / (a.n - 1)) : 0;
    out.count[i] = a.n;
  });
  return out;
}

/** How the best model is chosen. */
export type SelectionCriterion = "loo-smape" | "adjusted-r2";

/** Options of {@link fitModels}. */
export interface FitOptions {
  /**
   * Families to search, as names or specs (`"polynomial:maxDegree=4"`, `"pmnf:negative=true"`).
   * Default: constant, polynomial (degrees 1..3), power-law, pmnf.
   */
  readonly families?: readonly (string | { name: string; options?: FamilyOptions })[];
  /** Selection criterion (default "loo-smape", Extra-P's; ties go to higher adjusted R², then fewer parameters). */
  readonly criterion?: SelectionCriterion;
  /**
   * Also fit the standard deviation of T as a function of Q (default true when some Q has
   * repetitions). Never when the repetitions scatter only by rounding (see `FitReport.noScatter`).
   */
  readonly fitStdDev?: boolean;
  /** Weight the mean fit by count / sd² at each Q (default false; not when the scatter is only rounding). */
  readonly weightByScatter?: boolean;
  /** Look for a change point with a two-segment model (default true with 5 to 5000 distinct Q). */
  readonly detectChangePoint?: boolean;
  /** Name of the input variable in formulas (default "Q"; a name expressions cannot use, see {@link formulaVariable}, gives "Q"). */
  readonly variable?: string;
}

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
   */
  readonly significant: boolean;
  /** The two-segment model. */
  readonly model: FittedModel;
}

/** Result of {@link fitModels}. */
export interface FitReport {
  /** The grouped data that were fitted. */
  readonly points: GroupedPoints;
  /** Range of Q the data support. */
  readonly range: { readonly min: number; readonly max: number };
  /** Best model of the mean. */
  readonly mean: FittedModel;
  /** Every candidate for the mean, best first. */
  readonly candidates: readonly FittedModel[];
  /** Best model of the standard deviation, when fitted. */
  readonly stdDev?: FittedModel;
  /**
   * True when Q values have repetitions but no scatter beyond rounding (every standard deviation at
   * most 1e-9 of the largest mean, as deterministic costs give): the standard deviation is then not
   * fitted, and the mean fit not weighted by it.
   */
  readonly noScatter: boolean;
  /** Best two-segment model, when searched. */
  readonly changePoint?: ChangePoint;
  /** Selection criterion used. */
  readonly criterion: SelectionCriterion;
  /** Whether the mean fit was weighted by the scatter. */
  readonly weighted: boolean;
  /** The input variable's name in the formulas and expressions ({@link formulaVariable}). */
  readonly variable: string;
}

const DEFAULT_FAMILIES = ["constant", "polynomial", "power-law", "pmnf"];

/** Input of {@link fitModels}: raw observations or already grouped points. */
export type FitInput = { readonly q: ArrayLike<number>; readonly t: ArrayLike<number> } | GroupedPoints;

/**
 * Fits the mean of T (and its standard deviation) as functions of Q and selects the best model.
 *
 * @example
 * const report = fitModels({ q: sizes, t: times });
 * report.mean.expression; // "exp(1.19*log(Q) - 3.68)", usable as a scenario cost model
 * @throws AnalysisInputError with fewer than 3 distinct Q, or when no hypothesis can be fitted
 */
/**
 * The name formulas and expressions give the input variable: `name` when an expression can use it
 * (an identifier that is not a mathjs constant or function such as `e`, `pi` or `log`), else `Q`
 * (parameter names such as `message size` are not identifiers).
 */
export function formulaVariable(name: string | undefined): string {
  return name !== undefined && isFormulaVariable(name) ? name : "Q";
}

/**
 * Names mathjs gives a meaning that a variable would hide or clash with: its constants and the
 * functions fitted expressions use. Why a list, not mathjs itself: importing mathjs here would
 * load it for every command that fits (it is loaded lazily, see `select/cost-model.ts`).
 */
const MATHJS_NAMES = new Set([
  "e", "E", "pi", "PI", "i", "tau", "phi", "Infinity", "NaN", "null", "undefined", "true", "false", "version",
  "LN2", "LN10", "LOG2E", "LOG10E", "SQRT1_2", "SQRT2",
  "log", "log2", "log10", "exp", "sqrt", "cbrt", "pow", "abs", "max", "min", "ceil", "floor", "round", "sign",
]);

/**
 * Whether some Q is repeated and every repeated Q's standard deviation is rounding: at most 1e-9 of
 * the largest mean magnitude (a scale that also covers means of 0).
 */
function scatterIsRounding(points: GroupedPoints): boolean {
  let scale = 0;
  let repeated = false;
  for (let i = 0; i < points.q.length; i++) {
    scale = Math.max(scale, Math.abs(points.mean[i]!));
    if (points.count[i]! > 1) repeated = true;
  }
  return repeated && points.sd.every((sd, i) => points.count[i]! <= 1 || sd <= 1e-9 * scale);
}

/** Whether an expression can read `name` as a variable: an identifier mathjs gives no meaning. */
export function isFormulaVariable(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !MATHJS_NAMES.has(name);
}

export function fitModels(input: FitInput, options: FitOptions = {}): FitReport {
  const points = "mean" in input ? input : groupByQ(input.q, input.t);
  const nq = points.q.length;
  const variable = formulaVariable(options.variable);
  if (nq < 3) throw new AnalysisInputError(`need at least 3 distinct values of ${variable} to fit a model, got ${nq}`);
  const criterion = options.criterion ?? "loo-smape";
  const families = resolveFamilies(options.families ?? DEFAULT_FAMILIES);
  const noScatter = scatterIsRounding(points);
  // why not weight then: weights count / sd^2 of rounding noise are arbitrary
  const weights = options.weightByScatter && !noScatter ? scatterWeights(points) : undefined;
  const { models: candidates, insignificant } = fitAll(families, points.q, points.mean, weights, variable);
  if (candidates.length === 0) {
    const names = families.map((f) => f.family.name).join(", ");
    throw new AnalysisInputError(
      insignificant > 0
        ? `no model of the families ${names} fits these data: the defining term of each of their ${insignificant} fitted hypotheses is not significantly different from zero (95 %); add the family 'constant'`
        : `no model of the families ${names} could be fitted to these data (check for non-positive Q or T)`,
    );
  }
  rank(candidates, criterion);
  const mean = candidates[0]!;

  let stdDev: FittedModel | undefined;
  const repeated = Array.from(points.count).filter((c) => c > 1).length;
  // why: a model of rounding noise (1e-16 x^(4/3) log2 x) fits nothing real
  if ((options.fitStdDev ?? repeated > 0) && repeated >= 3 && !noScatter) {
    const idx = Array.from(points.count.keys()).filter((i) => points.count[i]! > 1);
    const q = Float64Array.from(idx, (i) => points.q[i]!);
    const sd = Float64Array.from(idx, (i) => points.sd[i]!);
    const sdCandidates = fitAll(families, q, sd, undefined, variable).models;
    if (sdCandidates.length > 0) stdDev = rank(sdCandidates, criterion)[0];
  }

  let changePoint: ChangePoint | undefined;
  if (options.detectChangePoint ?? (nq >= 5 && nq <= 5000)) changePoint = findChangePoint(points, weights, variable, candidates.filter((c) => c.family !== "segmented"));

  return { points, range: { min: points.q[0]!, max: points.q[nq - 1]! }, mean, candidates, stdDev, noScatter, changePoint, criterion, weighted: weights !== undefined, variable };
}

function resolveFamilies(list: readonly (string | { name: string; options?: FamilyOptions })[]): { family: FitFamily; options: FamilyOptions }[] {
  return list.map((f) => (typeof f === "string" ? parseFamilySpec(f) : { family: fitFamilies.get(f.name), options: f.options ?? {} }));
}

/** Fits every hypothesis of the families; `insignificant` counts the fits {@link termsSignificant} rejected. */
function fitAll(families: { family: FitFamily; options: FamilyOptions }[], q: Float64Array, t: Float64Array, weights: Float64Array | undefined, variable: string): { models: FittedModel[]; insignificant: number } {
  const shape = { q, positiveValues: t.every((v) => v > 0) };
  const models: FittedModel[] = [];
  let insignificant = 0;
  for (const { family, options } of families)
    for (const h of family.hypotheses(shape, options)) {
      const m = fitHypothesis(h, q, t, { weights, variable });
      if (!m || !Number.isFinite(m.quality.looSmape) || !m.coefficients.every((c) => Number.isFinite(c.value))) continue;
      if (termsSignificant(m)) models.push(m);
      else insignificant++;
    }
  return { models, insignificant };
}

/**
 * True when the hypothesis's defining term (its last: the leading power of a polynomial, the PMNF
 * term, the exponent of a power law, the slope change of a two-segment model) differs from 0 by
 * more than its 95 % confidence half-width (|c| > t·se). A defining term the data cannot
 * distinguish from zero is overfitted noise, so the hypothesis is not a candidate. The constant
 * model always passes.
 */
export function termsSignificant(m: FittedModel): boolean {
  const p = m.hypothesis.terms.length;
  if (p === 1) return true;
  const dof = m.quality.n - p;
  if (dof <= 0) return false;
  const c = m.coefficients[p - 1]!;
  return Math.abs(c.value) > studentTQuantile(0.975, dof) * c.stdError || (c.stdError === 0 && c.value !== 0);
}

/** Sorts models best first by the criterion (ties: higher adjusted R², then fewer parameters). Returns the same array. @internal */
export function rank(models: FittedModel[], criterion: SelectionCriterion): FittedModel[] {
  const adj = (m: FittedModel): number => (Number.isFinite(m.quality.adjustedR2) ? m.quality.adjustedR2 : -Infinity);
  const key = (m: FittedModel): number => (criterion === "loo-smape" ? m.quality.looSmape : -adj(m));
  return models.sort((a, b) => {
    const d = key(a) - key(b);
    if (Math.abs(d) > 1e-9 * Math.max(1, Math.abs(key(a)))) return d;
    const e = adj(b) - adj(a);
    if (Math.abs(e) > 1e-12) return e;
    return a.quality.parameters - b.quality.parameters;
  });
}

/**
 * Weights count / sd² per Q for a scatter-weighted fit of the means; a Q without scatter (one
 * observation, or identical ones) gets the smallest positive sd seen, so no weight is infinite.
 */
export function scatterWeights(points: GroupedPoints): Float64Array {
  let minSd = Infinity;
  for (const s of points.sd) if (s > 0) minSd = Math.min(minSd, s);
  const w = new Float64Array(points.q.length);
  for (let i = 0; i < w.length; i++) {
    const s = points.sd[i]! > 0 ? points.sd[i]! : Number.isFinite(minSd) ? minSd : 1;
    w[i] = points.count[i]! / (s * s);
  }
  return w;
}

function findChangePoint(points: GroupedPoints, weights: Float64Array | undefined, variable: string, singles: FittedModel[]): ChangePoint | undefined {
  const positive = points.mean.every((v) => v > 0) && points.q[0]! > 0;
  const kind: "power-law" | "linear" = positive ? "power-law" : "linear";
  let best: FittedModel | undefined;
  const tryAt = (at: number): void => {
    const m = fitHypothesis(segmentedHypothesis(kind, at), points.q, points.mean, { weights, variable });
    if (m && (!best || m.quality.fittedRss < best.quality.fittedRss)) best = m;
  };
  // Why coarse then fine: one fit per distinct Q costs O(n²) for thousands of distinct Q; a
  // search over 64 evenly spaced candidates, refined level by level between the neighbours of the
  // best (64 candidates per level), costs O(n·64·log₆₄ n) and finds the same point unless the
  // error curve has several deep minima.
  const all = changePointCandidates(points.q);
  const evenly = (xs: Float64Array, k: number): number[] => [...new Set(Array.from({ length: k }, (_, c) => xs[Math.round((c * (xs.length - 1)) / (k - 1))]!))];
  const coarse = changePointCandidates(points.q, MAX_SEGMENTED_CANDIDATES);
  for (const at of coarse) tryAt(at);
  if (!best) return undefined;
  let level = coarse;
  while (level.length > 1) {
    // Refine between the neighbours of the current best, again with at most 64 candidates.
    const k = level.indexOf((best as FittedModel).changePoint!);
    const lo = level[Math.max(0, k - 1)]!;
    const hi = level[Math.min(level.length - 1, k + 1)]!;
    const inside = Float64Array.from(all.filter((at) => at > lo && at < hi));
    if (inside.length === 0) break;
    const step = inside.length <= MAX_SEGMENTED_CANDIDATES ? [...inside] : evenly(inside, MAX_SEGMENTED_CANDIDATES);
    for (const at of step) if (at !== (best as FittedModel).changePoint) tryAt(at);
    if (step.length === inside.length) break;
    level = [lo, ...step, hi].sort((a, b) => a - b);
  }
  const found = best as FittedModel;
  const [, slope, change] = found.coefficients as [unknown, { value: number }, { value: number; stdError: number }];
  const dof = found.quality.n - found.hypothesis.terms.length;
  const tCrit = dof > 0 ? studentTQuantile(0.975, dof) : Infinity;
  const bestSingle = Math.min(...singles.map((s) => s.quality.smape));
  // Material: an exponent change of at least 0.1, or a slope change of at least 10 %.
  const after = slope.value + change.value;
  const material = kind === "power-law" ? Math.abs(change.value) >= 0.1 : Math.abs(change.value) >= 0.1 * Math.max(Math.abs(slope.value), Math.abs(after));
  // Leave-one-out cannot judge a change point with a single point beyond it (its leverage is 1),
  // so significance rests on the t statistic of the change and materiality; the two-segment
  // model must still fit better than every single-segment candidate (SMAPE on all points).
  const significant = material && Math.abs(change.value) > tCrit * change.stdError && found.quality.smape < bestSingle;
  return { at: found.changePoint!, before: slope.value, after, kind, significant, model: found };
}
