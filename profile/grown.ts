/**
 * A copy of the typed array `a` with room for `n` values (`n >= a.length`); the new room holds
 * `fill` (default 0). The growth step of flat tables filled one value at a time: the Mastermind's
 * and the measurement's, the trace of a program model, the observations of a fit. (In `profile/`,
 * the one layer that all of those may import.)
 * @internal
 */
export function grown<T extends Int32Array | Float64Array | Uint8Array>(a: T, n: number, fill = 0): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}
