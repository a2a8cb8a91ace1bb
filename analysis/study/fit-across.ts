/**
 * Fits across a sweep: T as a function of Q and of a swept parameter P (a cache size, a clock
 * rate). Built on the one-variable fitter: one shape T(Q) is chosen for every value of P, fitted at
 * each value, and each coefficient is then fitted as a function of P, giving
 * T(Q, P) = Σ c_k(P)·t_k(Q) (or exp of that sum for power laws).
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import { fitHypothesis, fitModels, formulaVariable, smape, type FitOptions, type FittedModel, type Hypothesis } from "../fit/index.js";

/** Observations at one value of the swept parameter. */
export interface SweepGroup {
  /** Value of the swept parameter. */
  readonly by: number;
  readonly q: ArrayLike<number>;
  readonly t: ArrayLike<number>;
}

/** Options of {@link fitAcrossSweep}. */
export interface FitAcrossOptions {
  /** Families searched for T(Q) (as {@link FitOptions.families}). */
  readonly families?: FitOptions["families"];
  /** Families searched for each coefficient as a function of P (default constant, polynomial up to degree 2, power-law when positive, and Extra-P's normal form). */
  readonly coefficientFamilies?: FitOptions["families"];
  /** Name of Q in formulas (default "Q"). */
  readonly variable?: string;
  /** Name of P in formulas (default "P"). */
  readonly byVariable?: string;
}

/** Result of {@link fitAcrossSweep}. */
export interface FitAcrossReport {
  /** The common shape of T(Q). */
  readonly shape: Hypothesis;
  /** T(Q) at each value of P, in the common shape. */
  readonly perValue: readonly { readonly by: number; readonly model: FittedModel; readonly n: number }[];
  /** Each coefficient as a function of P (undefined when fewer than 3 values of P). */
  readonly coefficients?: readonly FittedModel[];
  /** mathjs expression of T(Q, P), when the coefficients were fitted. */
  readonly expression?: string;
  /** Readable formula of T(Q, P). */
  readonly formula?: string;
  /** SMAPE (%) of T(Q, P) over every observation. */
  readonly smape?: number;
  /** Predicts T at (q, p) with the combined model. */
  readonly predict?: (q: number, p: number) => number;
}

/**
 * Fits T(Q, P) from observations grouped by the swept parameter P.
 * @throws AnalysisInputError with no group that has 3 distinct Q, or when no shape fits every group
 */
export function fitAcrossSweep(groups: readonly SweepGroup[], options: FitAcrossOptions = {}): FitAcrossReport {
  const variable = formulaVariable(options.variable);
  const byVariable = options.byVariable ?? "P";
  const usable = groups.filter((g) => new Set(Array.from(g.q)).size >= 3);
  if (usable.length === 0) throw new AnalysisInputError("no value of the swept parameter has observations at 3 or more distinct Q");
  // Candidate shapes: the best shape of each group; the common one is the best in total LOO SMAPE.
  const candidates = new Map<string, Hypothesis>();
  for (const g of usable) {
    const best = fitModels({ q: g.q, t: g.t }, { families: options.families, variable, detectChangePoint: false, fitStdDev: false }).mean;
    // A two-segment shape's label names its change point Q0, not its value: the key holds both.
    candidates.set(`${best.label}${best.hypothesis.logResponse ? " (log)" : ""}${best.changePoint !== undefined ? ` at ${best.changePoint}` : ""}`, best.hypothesis);
  }
  let chosen: { shape: Hypothesis; models: FittedModel[]; score: number } | undefined;
  for (const shape of candidates.values()) {
    const models = usable.map((g) => fitHypothesis(shape, g.q, g.t, { variable }));
    if (models.some((m) => m === undefined)) continue;
    const score = (models as FittedModel[]).reduce((a, m) => a + (Number.isFinite(m.quality.looSmape) ? m.quality.looSmape : m.quality.smape), 0);
    if (!chosen || score < chosen.score - 1e-9) chosen = { shape, models: models as FittedModel[], score };
  }
  if (!chosen) throw new AnalysisInputError("no single model shape fits every value of the swept parameter");
  const perValue = usable.map((g, i) => ({ by: g.by, model: chosen!.models[i], n: g.q.length }));
  const shape = chosen.shape;
  if (new Set(usable.map((g) => g.by)).size < 3) return { shape, perValue };
  const coefficients: FittedModel[] = [];
  for (let k = 0; k < shape.terms.length; k++) {
    const p = perValue.map((v) => v.by);
    const c = perValue.map((v) => v.model.coefficients[k].value);
    const families = options.coefficientFamilies ?? (c.every((x) => x > 0) ? ["constant", "polynomial:maxDegree=2", "power-law", "pmnf"] : ["constant", "polynomial:maxDegree=2", "pmnf"]);
    coefficients.push(fitModels({ q: p, t: c }, { families, variable: byVariable, detectChangePoint: false, fitStdDev: false }).mean);
  }
  const predict = (q: number, p: number) => {
    let s = 0;
    for (let k = 0; k < shape.terms.length; k++) s += coefficients[k].predict(p) * shape.terms[k].evaluate(q);
    return shape.logResponse ? Math.exp(s) : s;
  };
  const sum = (coef: (m: FittedModel) => string, term: (k: number) => string, times: string) =>
    shape.terms.map((_, k) => (term(k) === "1" || term(k) === "" ? `(${coef(coefficients[k])})` : `(${coef(coefficients[k])})${times}${term(k)}`)).join(" + ");
  const exprSum = sum((m) => m.expression, (k) => shape.terms[k].expression(variable).replace(/ \* /g, "*"), "*");
  const formulaSum = sum((m) => m.formula, (k) => shape.terms[k].formula(variable), "·");
  const actual: number[] = [];
  const predicted: number[] = [];
  for (const g of usable) {
    for (let i = 0; i < g.q.length; i++) {
      actual.push(g.t[i]);
      predicted.push(predict(g.q[i], g.by));
    }
  }
  return {
    shape,
    perValue,
    coefficients,
    expression: shape.logResponse ? `exp(${exprSum})` : exprSum,
    formula: shape.logResponse ? `exp(${formulaSum})` : formulaSum,
    smape: smape(actual, predicted),
    predict,
  };
}
