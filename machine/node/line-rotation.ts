/**
 * Whether every continuation of a one-array column sweep misses, in closed form, when the
 * rotation's returns to a line are themselves a rotation of the line (`vF + wB = B`).
 *
 * In `column-reuse.ts` the access at offset `x` of row `i` misses iff, for some `t`, its `t`-th
 * earlier partner and its `(A - t)`-th later one both lie in the column's rows `0..last`; the rows
 * meeting that are a union of intervals `[E_t, last - L_{A-t}]`, which covers every row iff
 * `E_{t+1} + L_{A-t} <= last + 1` for every `t < A` (each interval reaches the next). Here `E_n` is
 * the time (rows) of `n` returns to the line `[0, B)` that end at `x`, and `L_n` that of `n`
 * returns from `x - e` (the element before it).
 *
 * With jumps ahead by `vF` and behind by `wB = B - vF`, every return from `y` is exactly one of
 * them: ahead (`uF` rows) iff `y + vF < B`, else behind (`uB` rows), which is the rotation
 * `y -> (y + vF) mod B` taking `uB` rows when it wraps. So `n` returns from `y` take
 * `n*uF + (uB - uF) * floor((y + n*vF) / B)` rows, and with `M = (A+1)*vF = m*B + rho` and
 * `r_t = (t+1)*vF mod B`, the wraps of `E_{t+1} + L_{A-t}` number
 * `m + [x < r_t] + floor((x - e + rho - r_t) / B)`: a step up at offsets below `r_t` and a
 * non-decreasing floor, whose extremes over the offsets lie at a few known ones. The offsets taken
 * are every multiple of the position unit `d` in `[e, B - d]`, the continuations and, with sectors
 * shorter than the line, the sector starts too (a superset: the longest span can only grow).
 *
 * Why: the orbit walk and its spans decide such sweeps too, at several times the cost; in the
 * cache benchmark's strided classes most sweeps decided as "every continuation misses" have this
 * rotation (its induced rotation has no point beyond the line).
 *
 * @packageDocumentation
 */
import { exactLog2 } from "./modular.js";

/**
 * Whether `E_{t+1} + L_{A-t} <= limit` for every offset `x` (multiples of `d` in `[e, B - d]`) and
 * every `t < A` (see the file header), for entries ahead (`uF` rows, `vF` bytes) and behind
 * (`uB` rows, `wB` bytes) into a line of `B` bytes and elements of `e` bytes. False when
 * undecided: the jumps do not add up to the line, or an entry is missing.
 */
export function lineRotationSpansWithin(uF: number, vF: number, uB: number, wB: number, B: number, e: number, d: number, A: number, limit: number): boolean {
  if (!(uF > 0 && vF > 0 && uB > 0 && wB > 0) || vF + wB !== B) return false;
  // Int32 shifts and masks for the quotients by the line and the unit (powers of two): arithmetic
  // shifts floor negative values too. Why: this runs before the orbit walk on every one-array
  // sweep that reaches it, and divisions by doubles would cost a good part of what it saves.
  const lineBits = exactLog2(B);
  if (lineBits < 0 || exactLog2(d) < 0 || (A + 1) * vF >= 1 << 30) return false;
  const longer = uB - uF;
  const total = (A + 1) * vF;
  const m = total >> lineBits;
  const rho = total - (m << lineBits);
  const xLo = e;
  const xHi = B - d;
  // The extreme wrap count beyond m over offsets and t: the most when a wrap takes longer than a
  // step ahead, the fewest when it takes less.
  let extreme = longer > 0 ? -2 : 2;
  let r = 0;
  for (let t = 0; t < A; t++) {
    r += vF;
    if (r >= B) r -= B;
    const c = rho - r - e;
    if (longer > 0) {
      // Most: the largest offset below r_t (with its step), or the largest offset.
      let g = (xHi + c) >> lineBits;
      const below = (r - 1) & -d;
      if (below >= xLo && 1 + ((below + c) >> lineBits) > g) g = 1 + ((below + c) >> lineBits);
      if (g > extreme) extreme = g;
    } else {
      // Fewest: the smallest offset (with its step when below r_t), or the smallest at or above r_t.
      let g = (xLo < r ? 1 : 0) + ((xLo + c) >> lineBits);
      const at = Math.max(xLo, (r + d - 1) & -d);
      if (at <= xHi && (at + c) >> lineBits < g) g = (at + c) >> lineBits;
      if (g < extreme) extreme = g;
    }
  }
  return (A + 1) * uF + longer * (m + extreme) <= limit;
}
