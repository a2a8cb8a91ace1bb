/**
 * The mathjs instance behind cost expressions, configured `predictable` so that numbers in give
 * numbers out (`sqrt(-4)` is NaN, not a complex number): a cost is a real quantity.
 *
 * @packageDocumentation
 */
import { createRequire } from "node:module";
import type { all as allFactories, create as createInstance, MathJsInstance } from "mathjs";

// why: mathjs's ESM entry loads ~800 modules and builds every function eagerly (about 2 s of CPU
// per process and per sweep worker thread); its single-file bundle of the same version loads in
// a tenth of that, and `create` builds functions only when first used.
const bundle = createRequire(import.meta.url)("mathjs/lib/browser/math.js") as { all: typeof allFactories; create: typeof createInstance };

/** The shared mathjs instance (predictable: real-valued results only). */
export const math: MathJsInstance = bundle.create(bundle.all);
math.config({ predictable: true }); // the bundle's `create` ignores its config argument

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
