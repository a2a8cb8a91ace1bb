/**
 * C printf's rounding of `%.<d>f` and `%.<d>e`. JavaScript's `toFixed` and `toExponential` round a
 * value exactly halfway between two outputs away from zero (150.5 gives "151"); glibc's printf, which
 * pprof's tables come from, rounds it to the even digit ("150"). Values that are not exact ties
 * round the same way in both.
 *
 * @packageDocumentation
 */

/** Extra digits that show whether a value's exact decimal expansion ends at a 5 (a tie). */
const TAIL = 25;

/**
 * The rounded text, or the same text truncated toward zero when `wide` (the value with {@link TAIL}
 * more digits) shows an exact tie and the truncated text ends in an even digit.
 */
function evenOnTie(rounded: string, wide: string, suffix: string): string {
  const mantissa = wide.slice(0, wide.length - suffix.length);
  // why: a double is a dyadic rational, so a tie's expansion ends at the 5; 25 zeros after a 5
  // cannot come from a non-tie (two doubles that close would be closer than their spacing).
  if (!/^50*$/.test(mantissa.slice(mantissa.length - TAIL))) return rounded;
  const down = mantissa.slice(0, mantissa.length - TAIL).replace(/\.$/, "");
  return (down.charCodeAt(down.length - 1) - 48) % 2 === 0 ? down + suffix : rounded;
}

/** C's `%.<digits>f` (`digits` up to 75): `toFixed`, an exact tie rounded to the even digit. */
export function fixedC(x: number, digits: number): string {
  const rounded = x.toFixed(digits);
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return rounded;
  return evenOnTie(rounded, x.toFixed(digits + TAIL), "");
}

/**
 * C's `%.<digits>e` as JavaScript writes it (`1.234e+4`; `digits` up to 75): `toExponential`, an
 * exact tie rounded to the even digit.
 */
export function exponentialC(x: number, digits: number): string {
  const rounded = x.toExponential(digits);
  if (!Number.isFinite(x)) return rounded;
  const wide = x.toExponential(digits + TAIL);
  return evenOnTie(rounded, wide, wide.slice(wide.indexOf("e")));
}
