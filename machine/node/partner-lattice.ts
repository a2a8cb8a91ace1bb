/**
 * A lower bound on how many rows `A` partners of one access span, from the rotation's three-gap
 * entries alone: when it exceeds every column's last row, no continuation of a one-array column
 * sweep misses, decided before the orbit sums are filled.
 *
 * In `column-reuse.ts` the access at offset `x` of row `i` misses iff, for some `t`, its `t`-th
 * earlier partner (row `i - E`, at `x - D_E` in `[0, B)`) and its `(A - t)`-th later one (row
 * `i + L`, at `x + D_L` in `[e, B + e)`) both lie in the column's rows: then `E + L <= last`. The
 * row distances and displacements `(k, k*R mod P)` form a lattice, and the entries ahead
 * `(uF, vF)` and behind `(uB, -wB)` are a basis of it when `uF*wB + uB*vF = P` (its covolume).
 * Every return to the line is one jump ahead, one behind, or both (three-gap theorem), so the
 * path from the earliest of these partners to the latest, `A` returns in all (`t` to the access,
 * `A - t` from the element before it), is `a` jumps ahead and `b` behind with `a + b >= A`, `a`
 * and `b` non-negative, `E + L = a*uF + b*uB`, and a displacement `D_E + D_L = a*vF - b*wB`
 * strictly between `e - B` and `B + e` (the two windows' extremes). The least `a*uF + b*uB` over
 * such `(a, b)` bounds every `E + L` from below.
 *
 * Why: for a sweep with few rows for its ways this often decides "no miss" where the bound from
 * the shortest return time alone does not, in a few steps instead of filling the orbit sums and
 * their spans or counting offset by offset (in the cache benchmark's strided classes it decides
 * a third to two thirds of the evaluations that reached the sums).
 *
 * @packageDocumentation
 */

/** Most jumps of the larger time enumerated; beyond it the bound is not tried (rows many for the period). */
const MAX_ENUMERATED = 64;

/**
 * Whether every path of `A` returns (see the file header) spans more than `limit` rows, for the
 * entries ahead (`uF` rows, `vF` bytes) and behind (`uB` rows, `wB` bytes) of a rotation modulo
 * `P` into a line of `B` bytes, elements of `e` bytes. False when undecided: the entries are not
 * the usual pair of a basis, or the bound would take more than {@link MAX_ENUMERATED} steps.
 */
export function partnerSpanExceeds(uF: number, vF: number, uB: number, wB: number, P: number, B: number, e: number, A: number, limit: number): boolean {
  if (!(uF > 0 && vF > 0 && uB > 0 && wB > 0) || uF * wB + uB * vF !== P) return false;
  // Enumerate the count of the longer jump (fewer values fit under the limit); the other count's
  // least value then follows in closed form. Behind jumps enumerated: the displacement's sign flips.
  return uF >= uB ? leastCostExceeds(uF, vF, uB, wB, e - B, B + e, A, limit) : leastCostExceeds(uB, wB, uF, vF, -B - e, B - e, A, limit);
}

/**
 * Whether every `(n1, n2)` of non-negative integers with `n1 + n2 >= A` and `lo < n1*d1 - n2*d2 < hi`
 * has `n1*t1 + n2*t2 > limit` (`t1, t2, d1, d2 > 0`). For each `n1` the cost grows with `n2`, so
 * only its least admissible value counts: `n2 > (n1*d1 - hi) / d2` and `n2 >= A - n1`.
 */
function leastCostExceeds(t1: number, d1: number, t2: number, d2: number, lo: number, hi: number, A: number, limit: number): boolean {
  if (limit >= MAX_ENUMERATED * t1) return false;
  for (let n1 = 0; n1 * t1 <= limit; n1++) {
    const shift = n1 * d1;
    let n2 = Math.floor((shift - hi) / d2) + 1;
    if (n2 < A - n1) n2 = A - n1;
    if (n2 < 0) n2 = 0;
    if (shift - n2 * d2 > lo && n1 * t1 + n2 * t2 <= limit) return false;
  }
  return true;
}
