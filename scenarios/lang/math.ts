/**
 * The mathjs instance behind cost expressions, configured `predictable` so that numbers in give
 * numbers out (`sqrt(-4)` is NaN, not a complex number): a cost is a real quantity.
 *
 * @packageDocumentation
 */
import { all, create, type MathJsInstance } from "mathjs";

/** The shared mathjs instance (predictable: real-valued results only). */
export const math: MathJsInstance = create(all, { predictable: true });

/** Relative tolerance mathjs uses in comparisons, floor and ceil. */
export const REL_TOL: number = (math.config({}) as { relTol: number }).relTol;
/** Absolute tolerance mathjs uses in comparisons, floor and ceil. */
export const ABS_TOL: number = (math.config({}) as { absTol: number }).absTol;

/**
 * mathjs's `nearlyEqual` for numbers: |a-b| <= max(relTol * max(|a|,|b|), absTol), NaN never equal,
 * infinities equal only to themselves.
 */
export function nearlyEqual(a: number, b: number): boolean {
  if (a !== a || b !== b) return false; // NaN
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  if (a === b) return true;
  return Math.abs(a - b) <= Math.max(REL_TOL * Math.max(Math.abs(a), Math.abs(b)), ABS_TOL);
}
