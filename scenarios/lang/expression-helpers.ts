/**
 * Number-only versions of the mathjs functions whose semantics differ from plain JavaScript
 * (tolerant comparisons, tolerant floor/ceil, floored modulo, half-away-from-zero rounding). The
 * generated closures of {@link compileExpression} call these, so they agree with mathjs's own
 * evaluation.
 *
 * @internal
 * @packageDocumentation
 */
import { math, nearlyEqual } from "./math.js";

const mathPow = math.pow as (a: number, b: number) => unknown;

/** mathjs `round(x)`: half away from zero. */
export function round(x: number): number {
  x = +x;
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** mathjs `floor(x)`: a value within tolerance of an integer above it rounds to that integer. */
export function floor(x: number): number {
  x = +x;
  const f = Math.floor(x);
  const r = round(x);
  if (f === r) return f;
  if (nearlyEqual(x, r) && !nearlyEqual(x, f)) return r;
  return f;
}

/** mathjs `ceil(x)`: a value within tolerance of an integer below it rounds to that integer. */
export function ceil(x: number): number {
  x = +x;
  const c = Math.ceil(x);
  const r = round(x);
  if (c === r) return c;
  if (nearlyEqual(x, r) && !nearlyEqual(x, c)) return r;
  return c;
}

/** mathjs `mod(x, y)`: floored modulo, `mod(x, 0) = x`. */
export function mod(x: number, y: number): number {
  x = +x;
  y = +y;
  return y === 0 ? x : x - y * floor(x / y);
}

/** mathjs `pow(x, y)` in predictable mode. */
export function pow(x: number, y: number): number {
  x = +x;
  y = +y;
  // The common case is plain Math.pow; negative bases with fractional exponents need mathjs's odd-root rule.
  if (x >= 0 || Number.isInteger(y)) return Math.pow(x, y);
  return mathPow(x, y) as number;
}

/** mathjs `equal` for numbers. */
export function eq(a: number, b: number): boolean {
  return nearlyEqual(+a, +b);
}
/** mathjs `unequal` for numbers. */
export function ne(a: number, b: number): boolean {
  return !nearlyEqual(+a, +b);
}
/** mathjs `smaller` for numbers. */
export function lt(a: number, b: number): boolean {
  a = +a;
  b = +b;
  return a < b && !nearlyEqual(a, b);
}
/** mathjs `larger` for numbers. */
export function gt(a: number, b: number): boolean {
  a = +a;
  b = +b;
  return a > b && !nearlyEqual(a, b);
}
/** mathjs `smallerEq` for numbers. */
export function le(a: number, b: number): boolean {
  a = +a;
  b = +b;
  return a <= b || nearlyEqual(a, b);
}
/** mathjs `largerEq` for numbers. */
export function ge(a: number, b: number): boolean {
  a = +a;
  b = +b;
  return a >= b || nearlyEqual(a, b);
}

/** mathjs `min(a, b, ...)` for numbers: NaN wins, ties keep the first. */
export function min(...args: number[]): number {
  let m: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const v = +args[i];
    if (v !== v) m = v;
    else if (m === undefined || lt(v, m)) m = v;
  }
  return m as number;
}

/** mathjs `max(a, b, ...)` for numbers: NaN wins, ties keep the first. */
export function max(...args: number[]): number {
  let m: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const v = +args[i];
    if (v !== v) m = v;
    else if (m === undefined || gt(v, m)) m = v;
  }
  return m as number;
}
