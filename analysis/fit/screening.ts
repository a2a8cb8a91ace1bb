/**
 * Which hypotheses become candidates: fitted when there are enough points, kept when their
 * defining term is significant (and, for quantities that cannot be negative, when they never are),
 * with a count of what was left out and why.
 *
 * @packageDocumentation
 */
import { searchChangePoint } from "./change-point.js";
import type { FamilyOptions, FitFamily } from "./families.js";
import { extrapLeaveOneOut, extrapTermsContribute, type SelectionRule } from "./extrap-rule.js";
import { fitHypothesis, looAdjustedR2, termsSignificant, type FitHypothesisOptions, type FittedModel } from "./fitted-model.js";
import type { Hypothesis } from "./hypothesis.js";

/** How the best model is chosen. */
export type SelectionCriterion = "loo-smape" | "adjusted-r2";

/** A hypothesis not fitted for lack of points. */
export interface SkippedHypothesis {
  /** Its family. */
  readonly family: string;
  /** Its shape label. */
  readonly label: string;
  /** Distinct Q it needs: its coefficients plus one (so leave-one-out still has a determined fit). */
  readonly needs: number;
}

/**
 * What became of the hypotheses of a search. A two-segment shape counts once, whatever the number
 * of change points tried.
 */
export interface Screening {
  /** Hypotheses fitted: the candidates and those rejected as `insignificant` or `negative`. */
  readonly fitted: number;
  /** Fitted, but the defining term is not significantly different from 0 (95 %): not candidates. */
  readonly insignificant: number;
  /**
   * Under Extra-P's rule (which has no significance test): fitted, but some term has a coefficient
   * of 0 or contributes less than 0.05 % of T at every point (see `extrap-rule.ts`); undefined
   * under ccasim's rule.
   */
  readonly negligible?: number;
  /** Fitted, but the shape can give values below 0 (only for a quantity that cannot be negative). */
  readonly negative: number;
  /** Not fitted: more parameters than allowed (only when a limit is set). */
  readonly tooComplex: number;
  /** Not fitted for lack of points, in the families' order. */
  readonly tooFewPoints: readonly SkippedHypothesis[];
  /**
   * Candidates of a standard deviation left out for leaving the observed sds' range (see
   * `fitStdDev`); undefined for the mean.
   */
  readonly departing?: number;
}

/** Options of {@link fitAll}. @internal */
export interface FitAllOptions extends FitHypothesisOptions {
  readonly variable: string;
  /** Most parameters a candidate may have (default no limit). */
  readonly maxParameters?: number;
  /** Keep only shapes that are never negative ({@link neverNegative}). */
  readonly nonNegative?: boolean;
  /**
   * How a fitted hypothesis becomes a candidate (default `significance`). Under `extra-p` its
   * leave-one-out SMAPE and RSS are Extra-P's (refits with the constant cleaned) and it is screened
   * by Extra-P's term contribution instead of significance (see `extrap-rule.ts`).
   */
  readonly rule?: SelectionRule;
}

/** Parameters of a hypothesis: its coefficients, plus one for a change point. */
export function parametersOf(h: Hypothesis): number {
  return h.terms.length + (h.changePoint !== undefined ? 1 : 0);
}

/**
 * Fits every hypothesis of the families to (q, t) and keeps the candidates. A hypothesis of p
 * coefficients needs p + 1 distinct Q; the hypotheses of one two-segment shape (with
 * {@link Hypothesis.withChangePoint}) are one model whose change point is searched
 * ({@link searchChangePoint}).
 * @internal
 */
export function fitAll(families: readonly { family: FitFamily; options: FamilyOptions }[], q: Float64Array, t: Float64Array, options: FitAllOptions): { models: FittedModel[]; screening: Screening } {
  const shape = { q, positiveValues: t.every((v) => v > 0) };
  // Hypotheses in the families' order, the change points of one shape gathered at its first.
  const items: Hypothesis[][] = [];
  const shapes = new Map<string, Hypothesis[]>();
  for (const { family, options: familyOptions } of families)
    for (const h of family.hypotheses(shape, familyOptions)) {
      if (!h.withChangePoint) {
        items.push([h]);
        continue;
      }
      const key = `${h.family}\u0000${h.label}`;
      const group = shapes.get(key);
      if (group) group.push(h);
      else {
        shapes.set(key, [h]);
        items.push(shapes.get(key)!);
      }
    }
  const models: FittedModel[] = [];
  const tooFewPoints: SkippedHypothesis[] = [];
  let fitted = 0;
  let insignificant = 0;
  let negative = 0;
  let tooComplex = 0;
  let negligible = 0;
  const extrap = options.rule === "extra-p";
  for (const group of items) {
    const h = group[0]!;
    const needs = h.terms.length + 1;
    if (options.maxParameters !== undefined && parametersOf(h) > options.maxParameters) {
      tooComplex++;
      continue;
    }
    if (q.length < needs) {
      tooFewPoints.push({ family: h.family, label: h.label, needs });
      continue;
    }
    let m = h.withChangePoint ? searchChangePoint(group, q, t, options) : fitHypothesis(h, q, t, options);
    if (m && extrap && h.terms.length > 1 && !h.withChangePoint) {
      const loo = extrapLeaveOneOut(h, q, t);
      m = loo && m.withQuality({ looSmape: loo.looSmape, looRss: loo.looRss, looAdjustedR2: looAdjustedR2(loo.looRss, t, m.quality.parameters) });
    }
    // Extra-P's validity test is a finite (leave-one-out) RSS; a finite LOO SMAPE implies it here.
    if (!m || !Number.isFinite(m.quality.looSmape) || !m.coefficients.every((c) => Number.isFinite(c.value))) continue;
    fitted++;
    if (options.nonNegative && !neverNegative(m)) negative++;
    else if (extrap ? !extrapTermsContribute(m, q, t) : !termsSignificant(m)) {
      if (extrap) negligible++;
      else insignificant++;
    } else models.push(m);
  }
  return { models, screening: { fitted, insignificant, ...(extrap ? { negligible } : {}), negative, tooComplex, tooFewPoints } };
}


/**
 * True when the fitted model cannot give a value below 0 wherever its terms are defined and
 * non-negative (every term the families offer is ≥ 0 for Q ≥ 1, and without log terms for Q ≥ 0):
 * a log-space model (exp of anything), or a sum of terms whose coefficients are all ≥ 0. A
 * negative coefficient is ignored when its term is rounding noise of the fit (below 1e-12 of the
 * largest term at both ends of the data's range, as the printed formula leaves it out).
 *
 * Why the sign of every coefficient and not the values at the data: a shape such as
 * 10 − 0.58·Q^(1/4) that is positive at the data crosses 0 a little further on.
 */
export function neverNegative(m: FittedModel): boolean {
  if (m.hypothesis.logResponse) return true;
  return m.coefficients.every((c, j) => c.value >= 0 || m.isRoundingNoise(j));
}

/**
 * Whether two scores of `criterion` tie for {@link rank}: LOO SMAPEs (%) within 1e-6, adjusted R²
 * within 1e-9, relative to the first when it is above 1 (rounding noise, as between exact fits of
 * noise-free data).
 */
export function scoresTie(a: number, b: number, criterion: SelectionCriterion): boolean {
  const tie = criterion === "loo-smape" ? 1e-6 : 1e-9;
  return !(Math.abs(a - b) > tie * Math.max(1, Math.abs(a)));
}

/**
 * Sorts models best first by the criterion. Ties (a LOO SMAPE difference below 1e-6 %, far below
 * what is printed, as between two exact fits of noise-free data): a model linear in its
 * coefficients (PMNF, polynomial, constant) before a power law fitted on log T, whose free
 * exponent Extra-P never considers; then higher adjusted R², then fewer parameters. Returns the
 * same array. @internal
 */
export function rank(models: FittedModel[], criterion: SelectionCriterion): FittedModel[] {
  const adj = (m: FittedModel): number => (Number.isFinite(m.quality.adjustedR2) ? m.quality.adjustedR2 : -Infinity);
  const key = (m: FittedModel): number => (criterion === "loo-smape" ? m.quality.looSmape : -adj(m));
  const logFit = (m: FittedModel): number => (m.hypothesis.logResponse ? 1 : 0);
  return models.sort((a, b) => {
    const d = key(a) - key(b);
    if (!scoresTie(key(a), key(b), criterion)) return d;
    if (logFit(a) !== logFit(b)) return logFit(a) - logFit(b);
    const e = adj(b) - adj(a);
    if (Math.abs(e) > 1e-12) return e;
    return a.quality.parameters - b.quality.parameters;
  });
}

