/**
 * Model search: group observations by Q, fit every hypothesis of the chosen families to the mean
 * (and, separately, to the standard deviation) as functions of Q, and select by leave-one-out
 * cross-validated SMAPE or adjusted R², as in paper 000 (Equations 1 and 2) and Extra-P.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import { findChangePoint, type ChangePoint } from "./change-point.js";
import { fitFamilies, parseFamilySpec, type FamilyOptions, type FitFamily } from "./families.js";
import { type FittedModel } from "./fitted-model.js";
import { rankExtrap, type SelectionRule } from "./extrap-rule.js";
import { fitAll, rank, type Screening, type SelectionCriterion } from "./screening.js";
import { fitStdDev, type SD_DEPARTURE_LIMIT, type StdDevDeparture } from "./std-dev.js";

export type { ChangePoint } from "./change-point.js";

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

export type { SelectionCriterion } from "./screening.js";

/** Options of {@link fitModels}. */
export interface FitOptions {
  /**
   * Families to search, as names or specs (`"polynomial:maxDegree=4"`, `"pmnf:negative=true"`).
   * Default: the input's own (`fitDefaults`, Extra-P's for Extra-P observations), else
   * constant, polynomial (degrees 1..3), power-law, pmnf, and a significant change
   * point's two-segment model; families given without `segmented` keep that model out of the
   * candidates (the report still names the change point).
   */
  readonly families?: readonly (string | { name: string; options?: FamilyOptions })[];
  /** Selection criterion (default "loo-smape", Extra-P's; ties go to higher adjusted R², then fewer parameters). */
  readonly criterion?: SelectionCriterion;
  /**
   * Also fit the standard deviation of T as a function of Q (default true when some Q has
   * repetitions; needs 3 repeated Q). Never when the repetitions scatter only by rounding (see
   * `FitReport.noScatter`). How the sd model is chosen: see {@link fitStdDev}.
   */
  readonly fitStdDev?: boolean;
  /** Weight the mean fit by count / sd² at each Q (default false; not when the scatter is only rounding). */
  readonly weightByScatter?: boolean;
  /**
   * Look for a change point with a two-segment model (default true with 5 to 5000 distinct Q). A
   * significant change point's model ({@link ChangePoint.significant}) joins the candidates for
   * the mean and wins when the criterion ranks it first.
   */
  readonly detectChangePoint?: boolean;
  /**
   * Whether T cannot be negative (a time, a count), so that predictions and their intervals are
   * clipped at 0 (see {@link predictAt}). Default: every observation (every mean, for grouped
   * input) is ≥ 0.
   */
  readonly nonNegative?: boolean;
  /** Name of the input variable in formulas (default "Q"; a name expressions cannot use, see {@link formulaVariable}, gives "Q"). */
  readonly variable?: string;
  /**
   * How the mean's model is chosen among the hypotheses fitted (default: see below):
   * `significance` keeps a hypothesis whose defining term is significant (95 %) and ranks those
   * by the criterion; `extra-p` is Extra-P's default single-parameter modeler's rule (see
   * `extrap-rule.ts`): the constant model, scored by its SMAPE on all points, is replaced only by
   * a hypothesis of strictly lower leave-one-out SMAPE (Extra-P's LOO, with its constant
   * cleaning) whose terms each contribute at least 0.05 % of T somewhere; no significance test, no
   * change-point model among the candidates; it ranks Extra-P's families only (`EXTRAP_FAMILIES`:
   * constant and pmnf). The standard deviation is fitted as ever.
   *
   * Default: the input's own rule when it carries one (`fitDefaults`: Extra-P observations from
   * `observationsFromExtrap` carry `extra-p` with Extra-P's families) and the options leave the
   * families unset or name those same families, with the `loo-smape` criterion and no scatter
   * weights, as `ccasim fit` fits an Extra-P input with its defaults; else `significance`.
   * @throws AnalysisInputError (from {@link fitModels}) with `extra-p` and the `adjusted-r2`
   *   criterion, scatter weights, or a family other than constant and pmnf, which Extra-P has not
   */
  readonly rule?: SelectionRule;
}

/** Result of {@link fitModels}. */
export interface FitReport {
  /** The grouped data that were fitted. */
  readonly points: GroupedPoints;
  /** Range of Q the data support. */
  readonly range: { readonly min: number; readonly max: number };
  /** Best model of the mean. */
  readonly mean: FittedModel;
  /** Every candidate for the mean, best first (with the two-segment model of a significant change point). */
  readonly candidates: readonly FittedModel[];
  /** What became of the mean's hypotheses: fitted, rejected, skipped for lack of points. */
  readonly screening: Screening;
  /** Best model of the standard deviation, when fitted; never negative (see {@link fitStdDev}). */
  readonly stdDev?: FittedModel;
  /** Every candidate for the standard deviation, best first (empty when it was not fitted). */
  readonly stdDevCandidates: readonly FittedModel[];
  /** What became of the standard deviation's hypotheses, when it was fitted. */
  readonly stdDevScreening?: Screening;
  /**
   * When every candidate for the standard deviation leaves the observed sds' range by more than
   * {@link SD_DEPARTURE_LIMIT} inside the observed Q: how far the chosen one does (see {@link fitStdDev}).
   */
  readonly stdDevDeparture?: StdDevDeparture;
  /** Whether T cannot be negative ({@link FitOptions.nonNegative}). */
  readonly nonNegative: boolean;
  /**
   * True when Q values have repetitions but no scatter beyond rounding (every standard deviation at
   * most 1e-9 of the largest mean, as deterministic costs give): the standard deviation is then not
   * fitted, and the mean fit not weighted by it.
   */
  readonly noScatter: boolean;
  /**
   * Distinct Q whose mean T is exactly 0 (a counter below a cache knee, say). SMAPE scores any
   * non-zero prediction at such a point 200 %, so under the `loo-smape` criterion every candidate
   * scores high there and the ranking says little; `adjusted-r2` (squared errors) with the
   * `segmented` family can choose a hinge that is 0 below its change point.
   */
  readonly zeroMeans: number;
  /** Best two-segment model, when searched; when significant, its model is among `candidates`. */
  readonly changePoint?: ChangePoint;
  /** Selection criterion used. */
  readonly criterion: SelectionCriterion;
  /** Selection rule used ({@link FitOptions.rule}). */
  readonly rule: SelectionRule;
  /** Whether the mean fit was weighted by the scatter. */
  readonly weighted: boolean;
  /** The input variable's name in the formulas and expressions ({@link formulaVariable}). */
  readonly variable: string;
}

const DEFAULT_FAMILIES = ["constant", "polynomial", "power-law", "pmnf"];

/**
 * How the source of some observations fits them by default: its families and selection rule
 * (Extra-P inputs carry Extra-P's, see `observationsFromExtrap`).
 */
export interface FitDefaults {
  /** Families searched when the options name none. */
  readonly families: readonly string[];
  /** Rule used when the options name none and the fit is one the rule can make (see {@link fitModels}). */
  readonly rule: SelectionRule;
}

/**
 * Input of {@link fitModels}: raw observations (with the defaults of their source, when it has
 * its own) or already grouped points.
 */
export type FitInput = { readonly q: ArrayLike<number>; readonly t: ArrayLike<number>; readonly fitDefaults?: FitDefaults } | GroupedPoints;

/** Families Extra-P's rule can rank: the constant and the PMNF, linear in their coefficients. */
const EXTRAP_RULE_FAMILIES = new Set(["constant", "pmnf"]);

/**
 * The rule of a fit: the options', else the input's default rule when the options leave the
 * families unset or name the input's own, with the LOO SMAPE criterion and no scatter weights
 * (the fit its source makes), else `significance`.
 */
function ruleOf(input: FitInput, options: FitOptions): SelectionRule {
  if (options.rule !== undefined) return options.rule;
  const d = "fitDefaults" in input ? input.fitDefaults : undefined;
  if (d === undefined || (options.criterion ?? "loo-smape") !== "loo-smape" || options.weightByScatter === true) return "significance";
  const own = options.families === undefined || (options.families.length === d.families.length && options.families.every((f, i) => f === d.families[i]));
  return own ? d.rule : "significance";
}

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
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !isMathjsName(name);
}

/** Whether mathjs defines `name` (a constant such as `E` or `pi`, or a function): no formula variable may take it. */
export function isMathjsName(name: string): boolean {
  return MATHJS_NAMES.has(name);
}

/**
 * Fits the mean of T (and its standard deviation) as functions of Q and selects the best model:
 * every hypothesis of the families with enough points (p coefficients need p + 1 distinct Q) is
 * fitted, those whose defining term is significant are ranked by the criterion, with the
 * two-segment model of a significant change point among them (under {@link FitOptions.rule}
 * `extra-p`, Extra-P's rule instead: see there); the standard deviation follows {@link fitStdDev}. T and the standard deviation are in the units of the observations, Q in its own.
 *
 * @example
 * const report = fitModels({ q: sizes, t: times });
 * report.mean.expression; // "exp(1.19*log(Q) - 3.68)", usable as a scenario cost model
 * @throws AnalysisInputError with fewer than 3 distinct Q, or when no hypothesis can be fitted
 *   (naming why: too few points, insignificant terms, or values outside the families' domain),
 *   or for an unknown `criterion` or `rule`
 */
export function fitModels(input: FitInput, options: FitOptions = {}): FitReport {
  const points = "mean" in input ? input : groupByQ(input.q, input.t);
  const nq = points.q.length;
  const variable = formulaVariable(options.variable);
  if (nq < 3) throw new AnalysisInputError(`need at least 3 distinct values of ${variable} to fit a model, got ${nq}`);
  const criterion = options.criterion ?? "loo-smape";
  // The types name the choices; a caller from plain JavaScript (or a parsed settings file) can pass
  // any text, which would otherwise rank as adjusted R² or fit by the significance rule unnoticed.
  if (criterion !== "loo-smape" && criterion !== "adjusted-r2") throw new AnalysisInputError(`unknown selection criterion '${String(criterion)}'; known: loo-smape, adjusted-r2`);
  if (options.rule !== undefined && options.rule !== "significance" && options.rule !== "extra-p") throw new AnalysisInputError(`unknown selection rule '${String(options.rule)}'; known: significance, extra-p`);
  const rule = ruleOf(input, options);
  if (rule === "extra-p" && criterion !== "loo-smape") throw new AnalysisInputError(`Extra-P's selection rule compares leave-one-out SMAPE; it has no criterion '${criterion}'`);
  if (rule === "extra-p" && options.weightByScatter) throw new AnalysisInputError("Extra-P's selection rule fits unweighted means; it cannot weight by scatter");
  // Families chosen by the options or by the input's source (or Extra-P's own, for its rule):
  // no change-point model joins them.
  const chosen = options.families ?? ("fitDefaults" in input ? input.fitDefaults?.families : undefined) ?? (rule === "extra-p" ? [...EXTRAP_RULE_FAMILIES] : undefined);
  const families = resolveFamilies(chosen ?? DEFAULT_FAMILIES);
  if (rule === "extra-p") {
    // why: the rule scores a one-term model as the constant and tests terms' contributions on the
    // scale of T, which a power law (fitted on log T) or another family's terms do not fit
    const other = [...new Set(families.map((f) => f.family.name).filter((n) => !EXTRAP_RULE_FAMILIES.has(n)))];
    if (other.length > 0) throw new AnalysisInputError(`Extra-P's selection rule ranks the families constant and pmnf only (linear in their coefficients, as Extra-P's search space); it cannot rank ${other.map((n) => `'${n}'`).join(", ")}: fit those with the rule 'significance'`);
  }
  const noScatter = scatterIsRounding(points);
  // why not weight then: weights count / sd^2 of rounding noise are arbitrary
  const weights = options.weightByScatter && !noScatter ? scatterWeights(points) : undefined;
  const { models: candidates, screening } = fitAll(families, points.q, points.mean, { weights, variable, rule });
  if (candidates.length === 0) throw new AnalysisInputError(noModelMessage(families.map((f) => f.family.name).join(", "), screening, nq, variable));

  let changePoint: ChangePoint | undefined;
  // Extra-P's rule searches its hypotheses only: no change point joins them, so none is reported.
  const searchChange = options.detectChangePoint ?? (rule !== "extra-p" && nq >= 5 && nq <= 5000);
  if (searchChange) changePoint = findChangePoint(points, weights, variable, candidates.filter((c) => c.family !== "segmented"));
  if (changePoint?.significant) {
    // The same search as the family 'segmented' makes: when that family is searched, its
    // candidate is this model; else, unless the families were chosen, the model joins the
    // candidates (a choice of families without 'segmented' keeps it out of the ranking).
    const cp = changePoint;
    const same = candidates.find((c) => c.family === cp.model.family && c.label === cp.model.label && c.changePoint === cp.at);
    if (same) changePoint = { ...cp, model: same };
    else if (chosen === undefined && rule !== "extra-p") candidates.push(cp.model);
  }
  if (rule === "extra-p") rankExtrap(candidates);
  else rank(candidates, criterion);
  const mean = candidates[0]!;

  const repeated = Array.from(points.count).filter((c) => c > 1).length;
  // why: a model of rounding noise (1e-16 x^(4/3) log2 x) fits nothing real
  const sd =
    (options.fitStdDev ?? repeated > 0) && repeated >= 3 && !noScatter
      ? fitStdDev(points, families, {
          variable,
          criterion,
          maxParameters: Math.max(...candidates.map((c) => c.quality.parameters)),
          // As for the mean: two-segment shapes compete unless the families were chosen.
          changePoint: searchChange && chosen === undefined && repeated >= 5,
        })
      : undefined;
  const nonNegative = options.nonNegative ?? ("mean" in input ? points.mean.every((v) => v >= 0) : Array.from(input.t).every((v) => v >= 0));
  return {
    points,
    range: { min: points.q[0]!, max: points.q[nq - 1]! },
    mean,
    candidates,
    screening,
    stdDev: sd?.candidates[0],
    stdDevCandidates: sd?.candidates ?? [],
    stdDevScreening: sd?.screening,
    ...(sd?.departure ? { stdDevDeparture: sd.departure } : {}),
    nonNegative,
    noScatter,
    zeroMeans: Array.from(points.mean).filter((m) => m === 0).length,
    changePoint,
    criterion,
    rule,
    weighted: weights !== undefined,
    variable,
  };
}

/** Why no hypothesis of the families became a candidate. */
function noModelMessage(names: string, s: Screening, nq: number, variable: string): string {
  if (s.insignificant > 0)
    return `no model of the families ${names} fits these data: the defining term of each of their ${s.insignificant} fitted hypotheses is not significantly different from zero (95 %); add the family 'constant'`;
  if (s.fitted === 0 && s.tooFewPoints.length > 0) {
    const needs = Math.min(...s.tooFewPoints.map((x) => x.needs));
    return `no model of the families ${names} can be fitted to ${nq} distinct values of ${variable}: their hypotheses need at least ${needs}`;
  }
  return `no model of the families ${names} could be fitted to these data (check for non-positive Q or T)`;
}

function resolveFamilies(list: readonly (string | { name: string; options?: FamilyOptions })[]): { family: FitFamily; options: FamilyOptions }[] {
  return list.map((f) => (typeof f === "string" ? parseFamilySpec(f) : { family: fitFamilies.get(f.name), options: f.options ?? {} }));
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
