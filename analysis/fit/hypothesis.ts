/**
 * Hypotheses: models that are linear in their coefficients, c0·t0(Q) + c1·t1(Q) + …, optionally
 * fitted to log(T) instead of T (power laws). Every model family produces hypotheses; the fitter
 * treats them all alike.
 *
 * @packageDocumentation
 */

/** One basis function t(Q) of a hypothesis. */
export interface BasisTerm {
  /** Value at Q. */
  evaluate(q: number): number;
  /** Readable form with the variable named `v` ("Q^(2/3)·log2(Q)"); "" for the constant term. */
  formula(v: string): string;
  /** mathjs form with the variable named `v` ("Q^(2/3) * log2(Q)"); "1" for the constant term. */
  expression(v: string): string;
}

/** A model shape whose coefficients least squares determines. */
export interface Hypothesis {
  /** Registered family that produced it ("polynomial", "power-law", "pmnf", "segmented", "constant"). */
  readonly family: string;
  /** Short label of the shape ("c0 + c1·Q^(1/2)·log2(Q)"). */
  readonly label: string;
  /** Basis terms; the first is the constant term. */
  readonly terms: readonly BasisTerm[];
  /** True when log(T) is fitted and the model is T = exp(Σ c_i t_i(Q)). Requires T > 0. */
  readonly logResponse: boolean;
  /** Change point of a two-segment hypothesis, in units of Q. */
  readonly changePoint?: number;
  /**
   * For a two-segment hypothesis, the indices (into `terms`) of what changes at the change point:
   * the hinge (a change of slope or exponent) and the step (a jump), whichever the shape has.
   */
  readonly changeTerms?: { readonly hinge?: number; readonly step?: number };
  /**
   * For a two-segment hypothesis: the same shape (same family and label) with its change point at
   * `at`. The fitter treats the hypotheses of one such shape as one model whose change point it
   * searches, refining between the change points it was given.
   */
  readonly withChangePoint?: (at: number, atText?: string) => Hypothesis;
}

/** The constant term 1. */
export const constantTerm: BasisTerm = {
  evaluate: () => 1,
  formula: () => "",
  expression: () => "1",
};

/** Formats an exponent i/j as "2", "1/2" or "-3/4". */
export function fractionText(num: number, den: number): string {
  return den === 1 ? String(num) : `${num}/${den}`;
}

/**
 * The PMNF term Q^(i/j)·log2(Q)^k (Extra-P's performance model normal form).
 * @param num - i, the numerator of the polynomial exponent (0 for a pure log term)
 * @param den - j, its denominator
 * @param logExp - k, the exponent of log2(Q)
 */
export function pmnfTerm(num: number, den: number, logExp: number): BasisTerm {
  const e = num / den;
  const powText = (v: string): string => {
    if (num === 0) return "";
    if (e === 1) return v;
    return den === 1 ? `${v}^${num}` : `${v}^(${fractionText(num, den)})`;
  };
  const logText = (v: string): string => (logExp === 0 ? "" : logExp === 1 ? `log2(${v})` : `log2(${v})^${logExp}`);
  const join = (v: string, sep: string): string => [powText(v), logText(v)].filter((s) => s !== "").join(sep);
  return {
    evaluate: (q) => (num === 0 ? 1 : Math.pow(q, e)) * (logExp === 0 ? 1 : Math.pow(Math.log2(q), logExp)),
    formula: (v) => join(v, "·"),
    expression: (v) => join(v, " * "),
  };
}

/** The term log(Q) (natural logarithm), used by power laws fitted in log space. */
export const lnTerm: BasisTerm = {
  evaluate: (q) => Math.log(q),
  formula: (v) => `log(${v})`,
  expression: (v) => `log(${v})`,
};

/** The term Q (identity). */
export const linearTerm: BasisTerm = pmnfTerm(1, 1, 0);

/**
 * How formulas and expressions write a change point Q0: its value to 12 significant digits, so
 * that a report naming the change point names the Q its model's formula holds (13325, not 13330).
 */
export function changePointText(at: number): string {
  return String(Number(at.toPrecision(12)));
}

/**
 * The hinge max(0, t(Q) − t(Q0)) that lets a two-segment model change slope at Q0 while staying
 * continuous.
 * @param inner - t, the term whose slope changes (log(Q) for power laws, Q for lines)
 * @param at - Q0, the change point
 * @param atText - how formulas and expressions write Q0 (default its value): an expression of
 *   another variable when Q0 depends on it
 */
export function hingeTerm(inner: BasisTerm, at: number, atText?: string): BasisTerm {
  const shift = inner.evaluate(at);
  const at12 = atText ?? changePointText(at);
  return {
    evaluate: (q) => Math.max(0, inner.evaluate(q) - shift),
    formula: (v) => `max(0, ${inner.formula(v)} − ${inner.formula(at12)})`,
    expression: (v) => `max(0, ${inner.expression(v)} - ${inner.expression(at12)})`,
  };
}

/**
 * The step [Q > Q0]: 1 past the change point, 0 up to it, which lets a two-segment model jump
 * there (a cache overflowing between two sizes). Q0 is the last Q of the first segment; `atText`
 * as for {@link hingeTerm}.
 */
export function stepTerm(at: number, atText?: string): BasisTerm {
  const at12 = atText ?? changePointText(at);
  return {
    evaluate: (q) => (q > at ? 1 : 0),
    formula: (v) => `[${v} > ${at12}]`,
    expression: (v) => `(${v} > ${at12} ? 1 : 0)`,
  };
}

