/**
 * How tables write a number that is not an integer: one rule for the text tables of the commands
 * and the HTML reports, each with its own precision.
 *
 * @packageDocumentation
 */

/** Options of {@link fractionText}. */
export interface FractionTextOptions {
  /** Significant digits (at least; a large value keeps one decimal more). */
  readonly digits: number;
  /** Magnitudes below this are written in exponent form (as are those from 1e15). */
  readonly exponentBelow: number;
}

/**
 * A non-integer with `digits` significant digits, or with one decimal when its integer part has
 * more digits, and always with a decimal point, so that rounding never makes it read as an
 * integer (at 4 digits 53511.75 is 53511.8, 1234.96 is 1235.0, 0.5 stays 0.5); exponent form with
 * `digits - 1` decimals below `exponentBelow` and from 1e15. Meant for finite non-integers
 * (an integer or a non-finite value is the caller's to write).
 */
export function fractionText(v: number, options: FractionTextOptions): string {
  const { digits, exponentBelow } = options;
  const a = Math.abs(v);
  if (a < exponentBelow || a >= 1e15) return v.toExponential(digits - 1).replace("e+", "e");
  // (0.99996 at 4 digits rounds to 1: written 1.0, not an integer's "1".)
  if (a < 1) return withPoint(String(Number(v.toPrecision(digits))));
  const decimals = Math.max(1, digits - (Math.floor(Math.log10(a)) + 1));
  // Trailing zeros go, but one decimal stays: the value is not an integer.
  return v.toFixed(decimals).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, ".0");
}

/** `text` with a decimal point: `1` becomes `1.0` (an exponent form is left as it is). */
function withPoint(text: string): string {
  return /[.e]/.test(text) ? text : `${text}.0`;
}
