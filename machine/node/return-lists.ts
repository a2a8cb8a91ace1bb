/**
 * Every return list of a rotation to one line, from one pass over the orbits of its first-return map.
 *
 * In a column sweep (see `column-reuse.ts`) the partners of an access that share its set are the
 * returns of a rotation (by the row length, modulo the set period) to the window of one line: the
 * earlier partners those of the backward rotation, the later ones those of the forward rotation.
 * The first-return map of a rotation on a window is a three-interval exchange (three-gap theorem):
 * from position `x` the orbit comes back after `uF` rows at `x + vF`, after `uB` rows at `x - wB`,
 * or after `uF + uB` rows at `x + vF - wB`, depending only on which interval `x` lies in. All
 * positions of a column sweep are multiples of the element size `e` (rows are `s * e` bytes long
 * and `e` divides the line and the period), so the map permutes the `B / e` element positions of
 * the line, and the backward rotation's map is its inverse with the same return times.
 *
 * Walking each cycle of the permutation once and summing the return times along it gives, for the
 * position at index `j` of the sums,
 *
 *     t-th forward return  = cum[j + t] - cum[j],
 *     t-th backward return = cum[j] - cum[j - t],
 *
 * once every cycle's sums are extended periodically by `count` entries on both sides. This replaces
 * one orbit walk per start and direction (a hard-to-predict branch per step) by one walk per cycle.
 * For the usual rotation the map and its inverse are known from the entries alone, and are mirror
 * images of each other (`ReturnOrbits.mirrored`), which lets the caller count half the offsets.
 *
 * @packageDocumentation
 */

/** Most element positions per line the storage is sized for. */
export const MAX_POSITIONS = 64;
/** Most returns per list the storage is sized for. */
export const MAX_RETURNS = 64;
/**
 * Bound on the magnitude of every stored sum (rows): sums, differences and row counts below it
 * combine within int32, which the consumers use for branch-free comparisons.
 */
export const MAX_SUM = 2 ** 29;

/** Preallocated storage of the orbit sums (no allocation per evaluation). */
export class ReturnOrbits {
  /** Cumulative return times (rows) along each cycle, each cycle padded by `count` entries on both sides. */
  readonly cum = new Int32Array(MAX_POSITIONS * (2 * MAX_RETURNS + 1));
  /** Index in {@link ReturnOrbits.cum} of each element position `p` (`x = p * e`). */
  readonly index = new Int32Array(MAX_POSITIONS);
  /** Scratch: return time of each position under the forward map (rows). */
  readonly time = new Int32Array(MAX_POSITIONS);
  /** Scratch: the position each position returns to under the forward map. */
  readonly next = new Int32Array(MAX_POSITIONS);
  /** Scratch: return time of each position under the backward map (rows). */
  readonly dnTime = new Int32Array(MAX_POSITIONS);
  /** Scratch: the position each position returns to under the backward map. */
  readonly dnNext = new Int32Array(MAX_POSITIONS);
  /**
   * Whether the last fill found the usual rotation (see `isUsualRotation`) or a uniform one, whose
   * backward map is the forward one mirrored, `x -> W - 1 - x`, with the same times: the backward
   * list of `p` is then the forward list of `W - 1 - p`.
   */
  mirrored = false;
  /**
   * Whether the last fill found a periodic rotation that brings every position back to itself
   * after the same number of rows (no entry from behind): every position then has the same lists,
   * and all positions share one index.
   */
  uniform = false;
}

/** Sentinel of an unvisited position in {@link ReturnOrbits.index}. */
const UNSEEN = -1;

/**
 * Writes the first return of every position `p < W` to `[0, W)`, all in element positions
 * (bytes / `e`), by the rule of `column-reuse.ts`: a jump ahead (`uF` rows, `+vF`) or behind
 * (`uB`, `-wB`) that stays in the line, the nearer in rows when both do, else both; `uF` or `uB`
 * not positive disables that jump. Returns the largest return time (rows), or -1 when a return
 * time is not positive or a return leaves the line.
 *
 * The rule is a three-interval exchange: the jump ahead is allowed on `[0, W - vF)`, the jump
 * behind on `[wB, W)`; where both are allowed the nearer wins, where neither both are taken. So
 * ahead on `[0, fTo)`, both on `[fTo, bFrom)`, behind on `[bFrom, W)`. Why three plain loops
 * rather than the rule per position: the rule's branches change direction from position to
 * position and mispredict.
 */
function fillFirstReturns(time: Int32Array, next: Int32Array, uF: number, vF: number, uB: number, wB: number, W: number): number {
  const fEnd = uF > 0 ? W - vF : 0;
  const bStart = uB > 0 ? wB : W;
  const fTo = uF <= uB ? fEnd : Math.min(fEnd, bStart);
  const bFrom = Math.max(fTo, bStart);
  const both = uF + uB;
  if (fTo > 0 && !(uF > 0 && vF >= 0 && fTo + vF <= W)) return -1;
  if (bFrom < W && !(uB > 0 && bFrom - wB >= 0)) return -1;
  if (bFrom > fTo && !(both > 0 && fTo + vF - wB >= 0 && bFrom - 1 + vF - wB < W)) return -1;
  for (let p = 0; p < fTo; p++) {
    time[p] = uF;
    next[p] = p + vF;
  }
  for (let p = fTo; p < bFrom; p++) {
    time[p] = both;
    next[p] = p + vF - wB;
  }
  for (let p = bFrom; p < W; p++) {
    time[p] = uB;
    next[p] = p - wB;
  }
  return Math.max(fTo > 0 ? uF : 0, bFrom > fTo ? both : 0, bFrom < W ? uB : 0);
}

/**
 * Fills `orbits` with the return sums of the forward map (`uF`, `vF`, `uB`, `wB`) on the
 * positions `x = p * e`, `p < B / e`, after checking that the backward map (`dnUF`, `dnVF`,
 * `dnUB`, `dnWB`) is its inverse with the same times, so that both lists of every position come
 * from the same sums (see the file header).
 * @param B - line (window) size (bytes)
 * @param e - element size (bytes), dividing `B` and both displacements; `B / e <= MAX_POSITIONS`
 * @param count - returns needed per list, `<= MAX_RETURNS`
 * @returns false (storage unusable; the caller walks the orbits one by one) when a return time is
 * not positive, a return leaves the line, the backward map is not the inverse, or the sums could
 * reach {@link MAX_SUM}
 */
export function fillReturnOrbits(
  orbits: ReturnOrbits,
  uF: number,
  vF: number,
  uB: number,
  wB: number,
  dnUF: number,
  dnVF: number,
  dnUB: number,
  dnWB: number,
  B: number,
  e: number,
  count: number,
): boolean {
  // In element positions, int32 (why: no division, and no double arithmetic, per step).
  const W = (B / e) | 0;
  const vE = (vF / e) | 0;
  const wE = (wB / e) | 0;
  const dnVE = (dnVF / e) | 0;
  const dnWE = (dnWB / e) | 0;
  if (vE * e !== vF || wE * e !== wB || dnVE * e !== dnVF || dnWE * e !== dnWB || !(uF < MAX_SUM && uB < MAX_SUM && dnUF < MAX_SUM && dnUB < MAX_SUM)) return false;
  const { cum, index, time, next, dnTime, dnNext } = orbits;
  orbits.uniform = false;
  if (vE === 0 && dnVE === 0 && uF > 0 && dnUF === uF && (uB <= 0 || uF <= uB) && (dnUB <= 0 || dnUF <= dnUB)) {
    // Both rules jump ahead by 0 from every position: each is its own cycle with period uF.
    if (2 * count * uF >= MAX_SUM) return false;
    for (let t = -count; t <= count; t++) cum[count + t] = t * uF;
    for (let p = 0; p < W; p++) index[p] = count;
    orbits.mirrored = true;
    orbits.uniform = true;
    return true;
  }
  orbits.mirrored = isUsualRotation(uF, vE, uB, wE, dnUF, dnVE, dnUB, dnWE, W);
  const maxTime = fillFirstReturns(time, next, uF | 0, vE, uB | 0, wE, W);
  if (maxTime < 0) return false;
  if (!orbits.mirrored) {
    // The backward map must undo each forward step in the same time (the usual rotation's does,
    // by its entries alone: see isUsualRotation).
    if (fillFirstReturns(dnTime, dnNext, dnUF | 0, dnVE, dnUB | 0, dnWE, W) < 0) return false;
    for (let p = 0; p < W; p++) {
      const q = next[p];
      if (dnNext[q] !== p || dnTime[q] !== time[p]) return false;
    }
  }
  for (let p = 0; p < W; p++) index[p] = UNSEEN;
  // Every stored sum is within (cycle length + count) return times of 0.
  if ((W + count) * maxTime >= MAX_SUM) return false;
  let at = 0;
  for (let start = 0; start < W; start++) {
    if (index[start] !== UNSEEN) continue;
    // One cycle: positions in order, sums from 0 at the start.
    let c = 0;
    let p = start;
    const base = at + count;
    let sum = 0;
    do {
      index[p] = base + c;
      cum[base + c] = sum;
      sum += time[p];
      c++;
      p = next[p];
    } while (p !== start);
    // Periodic padding, `sum` being the cycle's period (rows); past one period (count > c) an
    // entry copies one written earlier in the same loop.
    for (let m = 0; m < count; m++) {
      cum[base + c + m] = cum[base + m] + sum;
      cum[base - 1 - m] = cum[base + c - 1 - m] - sum;
    }
    at = base + c + count;
  }
  return true;
}

/**
 * Whether the backward map is the inverse of the forward one, with the same times, by the entries
 * alone (element positions): both jumps exist with distinct times, `0 < v, w < W`, `v + w >= W`,
 * and the backward entries are the forward ones swapped. Then the forward map is ahead on
 * `[0, W - v)`, both on `[W - v, w)` and behind on `[w, W)`, whichever time is the smaller; its
 * images `[v, W)`, `[W - w, v)` and `[0, W - w)` tile the line, and the backward rule, read with
 * the swapped entries, has exactly those images as its regions, with the opposite jumps and the
 * same times. Reflected, `x -> W - 1 - x`, the forward regions and jumps become exactly these
 * backward ones, so the backward map is also the forward one mirrored. Why: this replaces the
 * backward table and a check per position, which cost about as much as the walk along the cycles.
 */
function isUsualRotation(uF: number, v: number, uB: number, w: number, dnUF: number, dnV: number, dnUB: number, dnW: number, W: number): boolean {
  return uF > 0 && uB > 0 && uF !== uB && v > 0 && v < W && w > 0 && w < W && v + w >= W && dnUF === uB && dnV === w && dnUB === uF && dnW === v;
}
