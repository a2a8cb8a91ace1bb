/**
 * Set loads of arrays whose elements are larger than a line and not a whole number of lines: each
 * element's first byte touches one line, and the lines touched skip some of the lines between, in
 * a pattern that rotates against the sets. An even spread over the sets misjudges them near a
 * level's capacity (by up to 0.89 of the accesses), so the touched lines are counted set by set.
 *
 * @packageDocumentation
 */
import type { CacheGeometry } from "./geometry.js";

/** Most touched lines counted one by one (about 2 ms at the limit); beyond, the caller spreads them evenly. */
export const SCATTERED_COUNT_MAX = 1 << 20;

/** Lines per set, grown to the largest number of sets seen (one allocation per size, none per call). */
let setLoads = new Int32Array(0);

/**
 * Fraction of the lines touched by `arrays` arrays of `q` elements of `e` bytes (`e > line`,
 * array `a` at byte `a * arrayBytes`) that sit in sets holding more than `assoc` of them, counted
 * exactly; -1 when the lines are more than {@link SCATTERED_COUNT_MAX} or the sets not a whole
 * number (the caller then assumes an even spread).
 */
export function scatteredOverload(g: CacheGeometry, q: number, e: number, arrays: number, arrayBytes: number): number {
  const S = g.sets;
  const lines = q * arrays;
  if (lines > SCATTERED_COUNT_MAX || !Number.isInteger(S) || S < 1) return -1;
  // No set can hold more than its share of the line indices each array spans: nothing overloads.
  let most = 0;
  for (let a = 0; a < arrays; a++) {
    const first = Math.floor(a * arrayBytes * g.invLine);
    const last = Math.floor((a * arrayBytes + (q - 1) * e) * g.invLine);
    most += Math.ceil((last - first + 1) / S);
  }
  if (most <= g.assoc) return 0;
  if (setLoads.length < S) setLoads = new Int32Array(S);
  const loads = setLoads;
  // Each element moves `whole` lines and `rest` bytes on (e = whole * B + rest): the set and the
  // byte within the line are carried in integers (why: a floating-point remainder per element
  // costs several times the count itself).
  const B = g.line;
  const whole = Math.floor(e * g.invLine);
  const rest = e - whole * B;
  const step = whole % S;
  for (let a = 0; a < arrays; a++) {
    const base = a * arrayBytes;
    let set = Math.floor(base * g.invLine) % S;
    let byte = base - Math.floor(base * g.invLine) * B;
    for (let j = 0; j < q; j++) {
      loads[set]++;
      byte += rest;
      set += step;
      if (byte >= B) {
        byte -= B;
        set++;
      }
      if (set >= S) set -= S;
    }
  }
  let over = 0;
  for (let x = 0; x < S; x++) {
    if (loads[x] > g.assoc) over += loads[x];
    loads[x] = 0;
  }
  return over / lines;
}
