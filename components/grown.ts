/**
 * A copy of the typed array `a` with room for `n` values (`n >= a.length`); the new room holds
 * `fill` (default 0). The growth step of the Mastermind's and the measurement's flat tables.
 */
export function grown<T extends Int32Array | Float64Array>(a: T, n: number, fill = 0): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}
