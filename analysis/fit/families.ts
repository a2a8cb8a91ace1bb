/**
 * Fit model families, registered by name. A family turns the data's Q values into candidate
 * {@link Hypothesis}es; the fitter fits them all and selects one. Add a family with
 * `fitFamilies.register({...})`.
 *
 * @packageDocumentation
 */
import { NamedRegistry } from "../registry.js";
import { AnalysisInputError } from "../errors.js";
import { constantTerm, hingeTerm, stepTerm, linearTerm, lnTerm, pmnfTerm, type BasisTerm, type Hypothesis } from "./hypothesis.js";

/** Options a family accepts, as `name=value` pairs (`polynomial:degree=2`, `pmnf:negative=true`). */
export type FamilyOptions = Readonly<Record<string, string | number | boolean>>;

/** What the data look like, so families only propose hypotheses the data can support. */
export interface DataShape {
  /** Distinct Q values, ascending. */
  readonly q: Float64Array;
  /** True when every value of the response is > 0 (log-space fits allowed). */
  readonly positiveValues: boolean;
}

/** A registered model family. */
export interface FitFamily {
  /** Registered name. */
  readonly name: string;
  /** One line for listings and `--help`. */
  readonly summary: string;
  /**
   * Option documentation, one `key: meaning (default)` per entry. When every entry starts with its
   * key so (an empty list included: no options), {@link parseFamilySpec} refuses an option of
   * another name before any data is read; otherwise only `hypotheses` checks the options.
   */
  readonly optionDocs: readonly string[];
  /**
   * Candidate hypotheses for data of this shape (possibly none, for example log terms when Q < 1).
   * A family need not check the number of points: the fitter skips, and reports, a hypothesis of p
   * coefficients when there are fewer than p + 1 distinct Q.
   * @throws AnalysisInputError for an unknown or invalid option
   */
  hypotheses(shape: DataShape, options: FamilyOptions): Hypothesis[];
}

/** The registry of fit model families: `constant`, `polynomial`, `power-law`, `pmnf`, `segmented`. */
export const fitFamilies = new NamedRegistry<FitFamily>("fit model family");

function checkOptions(family: string, options: FamilyOptions, allowed: readonly string[]): void {
  for (const k of Object.keys(options))
    if (!allowed.includes(k)) throw new AnalysisInputError(`unknown option '${k}' of fit model family '${family}'; known: ${allowed.join(", ") || "none"}`);
}

function intOption(family: string, options: FamilyOptions, key: string, dflt: number, min: number, max: number): number {
  const raw = options[key];
  if (raw === undefined) return dflt;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) throw new AnalysisInputError(`option '${key}' of '${family}' must be an integer in [${min}, ${max}], got '${raw}'`);
  return v;
}

function boolOption(family: string, options: FamilyOptions, key: string, dflt: boolean): boolean {
  const raw = options[key];
  if (raw === undefined) return dflt;
  if (raw === true || raw === "true" || raw === 1 || raw === "1") return true;
  if (raw === false || raw === "false" || raw === 0 || raw === "0") return false;
  throw new AnalysisInputError(`option '${key}' of '${family}' must be true or false, got '${raw}'`);
}

fitFamilies.register({
  name: "constant",
  summary: "T = c0 (the baseline every other model must beat)",
  optionDocs: [],
  hypotheses(shape, options) {
    checkOptions("constant", options, []);
    return [{ family: "constant", label: "c0", terms: [constantTerm], logResponse: false }];
  },
});

/** A full polynomial c0 + c1·Q + … + cd·Q^d. */
export function polynomialHypothesis(degree: number): Hypothesis {
  const terms: BasisTerm[] = [constantTerm];
  for (let d = 1; d <= degree; d++) terms.push(pmnfTerm(d, 1, 0));
  const label = ["c0", ...terms.slice(1).map((t, i) => `c${i + 1}·${t.formula("Q")}`)].join(" + ");
  return { family: "polynomial", label, terms, logResponse: false };
}

fitFamilies.register({
  name: "polynomial",
  summary: "T = c0 + c1·Q + … + cd·Q^d, of a chosen degree or every degree up to maxDegree",
  optionDocs: ["degree: fit exactly this degree (1..8)", "maxDegree: search degrees 1..maxDegree (default 3)"],
  hypotheses(shape, options) {
    checkOptions("polynomial", options, ["degree", "maxDegree"]);
    const fixed = options.degree !== undefined ? intOption("polynomial", options, "degree", 1, 1, 8) : undefined;
    const maxDegree = intOption("polynomial", options, "maxDegree", 3, 1, 8);
    const degrees = fixed !== undefined ? [fixed] : Array.from({ length: maxDegree }, (_, i) => i + 1);
    // A degree-d polynomial needs d + 2 distinct Q (the fitter's rule) so leave-one-out still has a determined fit.
    return degrees.map(polynomialHypothesis);
  },
});

/** The power law T = exp(a·log(Q) + b), fitted as a line in log-log space. */
export const powerLawHypothesis: Hypothesis = {
  family: "power-law",
  label: "exp(a·log(Q) + b)",
  terms: [constantTerm, lnTerm],
  logResponse: true,
};

fitFamilies.register({
  name: "power-law",
  summary: "T = exp(a·log(Q) + b) with a continuous exponent a (least squares on log T; needs Q > 0, T > 0)",
  optionDocs: [],
  hypotheses(shape, options) {
    checkOptions("power-law", options, []);
    return shape.positiveValues && shape.q[0]! > 0 ? [powerLawHypothesis] : [];
  },
});

/**
 * Extra-P's default exponent triples (i, j, k) for the single-parameter PMNF term
 * Q^(i/j)·log2(Q)^k, in Extra-P's order (extrap/modelers/single_parameter/basic.py,
 * `create_default_building_blocks` with log terms allowed).
 */
export const EXTRAP_EXPONENTS: readonly (readonly [number, number, number])[] = [
  [0, 1, 1], [0, 1, 2], [1, 4, 0], [1, 3, 0], [1, 4, 1], [1, 3, 1], [1, 4, 2], [1, 3, 2], [1, 2, 0], [1, 2, 1],
  [1, 2, 2], [2, 3, 0], [3, 4, 0], [2, 3, 1], [3, 4, 1], [4, 5, 0], [2, 3, 2], [3, 4, 2], [1, 1, 0], [1, 1, 1],
  [1, 1, 2], [5, 4, 0], [5, 4, 1], [4, 3, 0], [4, 3, 1], [3, 2, 0], [3, 2, 1], [3, 2, 2], [5, 3, 0], [7, 4, 0],
  [2, 1, 0], [2, 1, 1], [2, 1, 2], [9, 4, 0], [7, 3, 0], [5, 2, 0], [5, 2, 1], [5, 2, 2], [8, 3, 0], [11, 4, 0],
  [3, 1, 0], [3, 1, 1],
];

/**
 * Extra-P's extra exponents for strong scaling with negative polynomial exponents and no log
 * term, from the same function with `allow_negative_exponents` (added with or without log terms).
 */
export const EXTRAP_NEGATIVE_EXPONENTS: readonly (readonly [number, number, number])[] = [
  [-1, 4, 0], [-1, 3, 0], [-1, 2, 0], [-2, 3, 0], [-3, 4, 0], [-4, 5, 0], [-1, 1, 0], [-5, 4, 0], [-4, 3, 0], [-3, 2, 0],
  [-5, 3, 0], [-7, 4, 0], [-2, 1, 0], [-9, 4, 0], [-7, 3, 0], [-5, 2, 0], [-8, 3, 0], [-11, 4, 0], [-3, 1, 0],
];

/**
 * Extra-P's extra exponents for strong scaling with a negative log exponent (Q^(-i/j)·log2(Q)^-k,
 * and log2(Q)^-k alone), from the same function with `allow_negative_exponents` and log terms
 * allowed; Extra-P tries them before {@link EXTRAP_NEGATIVE_EXPONENTS}.
 */
export const EXTRAP_NEGATIVE_LOG_EXPONENTS: readonly (readonly [number, number, number])[] = [
  [0, 1, -1], [0, 1, -2], [-1, 4, -1], [-1, 3, -1], [-1, 4, -2], [-1, 3, -2], [-1, 2, -1], [-1, 2, -2], [-2, 3, -1],
  [-3, 4, -1], [-2, 3, -2], [-3, 4, -2], [-1, 1, -1], [-1, 1, -2], [-5, 4, -1], [-4, 3, -1], [-3, 2, -1], [-3, 2, -2],
  [-2, 1, -1], [-2, 1, -2], [-5, 2, -1], [-5, 2, -2], [-3, 1, -1],
];

/** The PMNF hypothesis c0 + c1·Q^(i/j)·log2(Q)^k. */
export function pmnfHypothesis(i: number, j: number, k: number): Hypothesis {
  const t = pmnfTerm(i, j, k);
  return { family: "pmnf", label: `c0 + c1·${t.formula("Q")}`, terms: [constantTerm, t], logResponse: false };
}

fitFamilies.register({
  name: "pmnf",
  summary: "Extra-P's performance model normal form c0 + c1·Q^(i/j)·log2(Q)^k over Extra-P's 42 exponent pairs",
  optionDocs: ["negative: also try Extra-P's negative exponents for strong scaling, polynomial and logarithmic (default false)"],
  hypotheses(shape, options) {
    checkOptions("pmnf", options, ["negative"]);
    const negative = boolOption("pmnf", options, "negative", false);
    const qMin = shape.q[0]!;
    // Q below 0 has no real fractional power (Extra-P's least squares fails on it).
    if (qMin < 0) return [];
    // Log terms only when every Q >= 1 (log2 would be negative below, as Extra-P requires), and a
    // log with a negative exponent only when every Q > 1 (log2(1)^-1 is infinite): per term, so
    // Q = 1 keeps the positive log terms. A negative power of Q only when every Q > 0; Q = 0
    // keeps the positive powers (0 there), as Extra-P fits them.
    const termOk = (i: number, k: number): boolean => (i >= 0 || qMin > 0) && (k === 0 ? true : k > 0 ? qMin >= 1 : qMin > 1);
    const list = negative ? [...EXTRAP_EXPONENTS, ...EXTRAP_NEGATIVE_LOG_EXPONENTS, ...EXTRAP_NEGATIVE_EXPONENTS] : EXTRAP_EXPONENTS;
    return list.filter(([i, , k]) => termOk(i, k)).map(([i, j, k]) => pmnfHypothesis(i, j, k));
  },
});

/** What a two-segment shape changes at its change point: the slope (a hinge), the level (a step), or both. */
export type SegmentChange = "hinge" | "step" | "both";

/** The two-segment shapes, in the order they are tried. */
export const SEGMENT_CHANGES: readonly SegmentChange[] = ["hinge", "step", "both"];

/**
 * A two-segment hypothesis with its change point Q0 at `at`: a power law (inner "power-law") or a
 * line (inner "linear") whose exponent or slope changes at Q0 while staying continuous (`hinge`),
 * that jumps past Q0 with the same exponent or slope (`step`: a cache overflowing between two
 * sizes), or both. The label names the change point Q0 (the same for every `at`: one shape), the
 * formula its value (or `atText`, an expression of another variable when Q0 depends on it).
 */
export function segmentedHypothesis(inner: "power-law" | "linear", at: number, change: SegmentChange = "hinge", atText?: string): Hypothesis {
  const base = inner === "power-law" ? lnTerm : linearTerm;
  const hinge = change !== "step";
  const step = change !== "hinge";
  const parts = inner === "power-law" ? ["a·log(Q)", "b", ...(hinge ? ["c·max(0, log(Q) − log(Q0))"] : []), ...(step ? [`${hinge ? "d" : "c"}·[Q > Q0]`] : [])] : [];
  const lineParts = ["c0", "c1·Q", ...(hinge ? ["c2·max(0, Q − Q0)"] : []), ...(step ? [`${hinge ? "c3" : "c2"}·[Q > Q0]`] : [])];
  return {
    family: "segmented",
    label: inner === "power-law" ? `exp(${parts.join(" + ")})` : lineParts.join(" + "),
    terms: [constantTerm, base, ...(hinge ? [hingeTerm(base, at, atText)] : []), ...(step ? [stepTerm(at, atText)] : [])],
    logResponse: inner === "power-law",
    changePoint: at,
    changeTerms: { ...(hinge ? { hinge: 2 } : {}), ...(step ? { step: hinge ? 3 : 2 } : {}) },
    withChangePoint: (other, otherText) => segmentedHypothesis(inner, other, change, otherText),
  };
}

/**
 * Candidate change points: interior distinct Q (at least two points on the left, inclusive, and
 * one on the right), at most `max` of them evenly spaced by rank (default all).
 */
export function changePointCandidates(q: Float64Array, max = Infinity): number[] {
  const interior = q.length - 2;
  if (interior <= 0) return [];
  const k = Math.min(interior, Math.max(1, Math.floor(max)));
  const out: number[] = [];
  for (let c = 0; c < k; c++) out.push(q[1 + Math.round((c * (interior - 1)) / Math.max(1, k - 1))]!);
  return [...new Set(out)];
}

/**
 * Most change points the `segmented` family proposes, and the fitter tries per level of its search
 * (it refines between the neighbours of the best, again with at most this many).
 */
export const MAX_SEGMENTED_CANDIDATES = 64;

fitFamilies.register({
  name: "segmented",
  summary: "two segments at a change point Q0 (searched among the data's Q): power laws or lines whose exponent or slope changes at Q0, that jump there, or both",
  optionDocs: [
    "inner: power-law or linear (default power-law when Q > 0 and T > 0, else linear)",
    "change: hinge (the exponent or slope changes, continuously), step (a jump, same exponent), both, or all (default: each shape)",
  ],
  hypotheses(shape, options) {
    checkOptions("segmented", options, ["inner", "change"]);
    const inner = options.inner ?? (shape.positiveValues && shape.q[0]! > 0 ? "power-law" : "linear");
    if (inner !== "power-law" && inner !== "linear") throw new AnalysisInputError(`option 'inner' of 'segmented' must be power-law or linear, got '${inner}'`);
    const change = String(options.change ?? "all");
    if (change !== "all" && !(SEGMENT_CHANGES as readonly string[]).includes(change)) throw new AnalysisInputError(`option 'change' of 'segmented' must be hinge, step, both or all, got '${change}'`);
    if (inner === "power-law" && !(shape.positiveValues && shape.q[0]! > 0)) return [];
    const changes = change === "all" ? SEGMENT_CHANGES : [change as SegmentChange];
    const at = changePointCandidates(shape.q, MAX_SEGMENTED_CANDIDATES);
    return changes.flatMap((c) => at.map((x) => segmentedHypothesis(inner, x, c)));
  },
});

/**
 * Parses a family specification such as `polynomial`, `polynomial:degree=2` or
 * `segmented:inner=linear`, and checks its option names against the family's `optionDocs` (their
 * values are checked with the data, by the family's `hypotheses`).
 * @throws AnalysisInputError for an unknown family, a malformed option or one the family does not take
 */
export function parseFamilySpec(spec: string): { family: FitFamily; options: FamilyOptions } {
  const [name, ...rest] = spec.split(":");
  const family = fitFamilies.get(name!.trim());
  const options: Record<string, string> = {};
  for (const part of rest.join(":").split(",").filter((s) => s.trim() !== "")) {
    const eq = part.indexOf("=");
    if (eq <= 0) throw new AnalysisInputError(`malformed option '${part}' in fit family '${spec}' (expected key=value)`);
    options[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  // The names the docs give (`name: what it does`); a family whose docs do not all name their
  // option so checks its options in `hypotheses` only.
  const named = family.optionDocs.map((d) => /^\s*([A-Za-z_][\w-]*)\s*:/.exec(d)?.[1]);
  if (named.every((n) => n !== undefined)) checkOptions(family.name, options, named as string[]);
  return { family, options };
}
