/**
 * Every return list of a rotation to one line, from one pass over the orbits of its first-return map.
 *
 * In a column sweep (see `column-reuse.ts`) the partners of an access that share its set are the
 * returns of a rotation (by the row length, modulo the set period) to the window of one line: the
 * earlier partners those of the backward rotation, the later ones those of the forward rotation.
 * The first-return map of a rotation on a window is a three-interval exchange (three-gap theorem):
 * from position `x` the orbit comes back after `uF` rows at `x + vF`, after `uB` rows at `x - wB`,
 * or after `uF + uB` rows at `x + vF - wB`, depending only on which interval `x` lies in. All
 * positions of a column sweep are multiples of a unit `e`, the element size's lowest set bit
 * (rows are a whole number of elements long, and `e` divides the line and the period: see
 * `positionUnit` in `column-reuse.ts`), so the map permutes the `B / e` positions of the line, and
 * the backward rotation's map is its inverse with the same return times.
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
import { exactLog2, gcd } from "./modular.js";

/** Most element positions per line the storage is sized for. */
export const MAX_POSITIONS = 256;
/** Most returns per list the storage is sized for. */
export const MAX_RETURNS = 64;
/**
 * Bound on the magnitude of every stored sum (rows): sums, differences and row counts below it
 * combine within int32, which the consumers use for branch-free comparisons.
 */
export const MAX_SUM = 2 ** 29;

// The storage of every fill: one per process, preallocated (no allocation per evaluation).
// Why module-level constants: V8 compiles a constant typed array's storage and length into the
// code that uses it, while arrays read from an object's fields cost loads and checks in every loop
// (a third of a fill, measured). The functions read them through this module's own names (below),
// and the modules importing them through theirs: an exported or imported binding is not compiled in.

/** Cumulative return times (rows) along each cycle, each cycle padded by `count` entries on both sides. */
export const orbitSums = new Int32Array(MAX_POSITIONS * (2 * MAX_RETURNS + 1));
/**
 * Index in {@link orbitSums} of each position `p` (`x = p * e`, `e` the position unit); past the line, scratch
 * of the usual rotation's walk.
 */
export const orbitIndex = new Int32Array(2 * MAX_POSITIONS);
/** Return time of each position under the forward map (rows). */
const forwardTime = new Int32Array(MAX_POSITIONS);
/** The position each position returns to under the forward map. */
const forwardNext = new Int32Array(MAX_POSITIONS);
/** Return time of each position under the backward map (rows). */
const backwardTime = new Int32Array(MAX_POSITIONS);
/** The position each position returns to under the backward map. */
const backwardNext = new Int32Array(MAX_POSITIONS);
/**
 * Times (rows, from a visit to position 0) of one period's visits to the window widened by one
 * position, `0..W` (byte `B` is the next line's first), with room to extend them by more periods
 * (see `partner-spans.ts`).
 */
export const widenedTimes = new Int32Array(2 * (MAX_POSITIONS + MAX_RETURNS) + 2);
/** Same for the window narrowed by one position, `1..W-1`. */
export const narrowedTimes = new Int32Array(2 * (MAX_POSITIONS + MAX_RETURNS) + 2);

/**
 * What the last fill found. Its sums are in the module's storage ({@link orbitSums},
 * {@link orbitIndex}, {@link widenedTimes}, {@link narrowedTimes}), which every fill overwrites:
 * with several instances, only the one passed to the last fill describes the storage.
 */
export class ReturnOrbits {
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
  /** Visits in {@link widenedTimes}; 0 when the last fill did not record them (any rotation but the usual one). */
  widenedVisits = 0;
  /** Visits in {@link narrowedTimes}. */
  narrowedVisits = 0;
  /** Rows of one period of the orbit of position 0 (when the visits above are recorded). */
  period = 0;
  /**
   * Whether the last fill ({@link startReturnOrbits}) left the sums' padding and the element
   * positions' indices to {@link finishReturnOrbits}; then the coarse positions, their number of
   * elements and the padding, for it.
   */
  pending = false;
  pendingPositions = 0;
  pendingElements = 1;
  pendingCount = 0;
}

// The storage and the bound again under this module's own names, for its functions. Why: V8
// reads an exported binding through its module cell at every use, so through the exported names
// the typed arrays would not be constants of the compiled walks (their length and data loaded
// again in every loop, about 5% of the cache benchmark's square-patch class); a module's own
// constant it compiles in.
const sumStore = orbitSums;
const indexStore = orbitIndex;
const widenedStore = widenedTimes;
const narrowedStore = narrowedTimes;
const sumBound = MAX_SUM;

/** Sentinel of an unvisited position in {@link orbitIndex}. */
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
 * Fills the module's storage with the return sums of the forward map (`uF`, `vF`, `uB`, `wB`) on
 * the positions `x = p * e`, `p < B / e`, after checking that the backward map (`dnUF`, `dnVF`,
 * `dnUB`, `dnWB`) is its inverse with the same times, so that both lists of every position come
 * from the same sums (see the file header), and records in `orbits` what it found: {@link startReturnOrbits}
 * (whose arguments it takes), then {@link finishReturnOrbits}.
 * @returns false as {@link startReturnOrbits} does
 */
export function fillReturnOrbits(...args: Parameters<typeof startReturnOrbits>): boolean {
  if (!startReturnOrbits(...args)) return false;
  finishReturnOrbits(args[0]);
  return true;
}

/**
 * {@link fillReturnOrbits} up to the visits `partner-spans.ts` reads: for the usual rotation, the
 * sums' padding and the element positions' indices wait for {@link finishReturnOrbits}. Why
 * apart: a third of the sweeps that reach the sums are decided by the spans of those visits alone,
 * and need neither.
 * @param B - line (window) size (bytes)
 * @param e - position unit (bytes; the element size when a power of two), dividing `B` and both displacements; `B / e <= MAX_POSITIONS`
 * @param count - returns needed per list, `<= MAX_RETURNS`
 * @returns false (storage unusable; the caller walks the orbits one by one) when a displacement is
 * not a multiple of `e`, a return time is not positive, a return leaves the line, the backward map
 * is not the inverse, or the sums could reach {@link MAX_SUM}
 */
export function startReturnOrbits(
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
  // Until a walk records them, no visits: a refused fill leaves none of the last fill's.
  orbits.widenedVisits = 0;
  orbits.pending = false;
  if (!(uF < sumBound && uB < sumBound && dnUF < sumBound && dnUB < sumBound)) return false;
  // Positions move by multiples of the unit (bytes) that divides the line and every jump: each
  // residue modulo it follows the same map on the coarse positions, whose sums then serve all
  // residues. Why: one cycle of B / unit positions is filled and padded instead of several.
  const unit = coarseUnit(vF, wB, dnVF, dnWB, B, e);
  if (unit < 0) return false;
  // Int32 quotients, by shifts for a power-of-two unit (why: up to six divisions per fill otherwise).
  const shift = exactLog2(unit);
  const W = shift >= 0 ? B >> shift : (B / unit) | 0;
  const v = shift >= 0 ? vF >> shift : (vF / unit) | 0;
  const w = shift >= 0 ? wB >> shift : (wB / unit) | 0;
  const dnV = shift >= 0 ? dnVF >> shift : (dnVF / unit) | 0;
  const dnW = shift >= 0 ? dnWB >> shift : (dnWB / unit) | 0;
  const G = unit === e ? 1 : (unit / e) | 0;
  const cum = sumStore;
  const index = indexStore;
  orbits.uniform = false;
  if (v === 0 && dnV === 0 && uF > 0 && dnUF === uF && (uB <= 0 || uF <= uB) && (dnUB <= 0 || dnUF <= dnUB)) {
    // Both rules jump ahead by 0 from every position: each is its own cycle with period uF.
    if (2 * count * uF >= sumBound) return false;
    for (let t = -count; t <= count; t++) cum[count + t] = t * uF;
    for (let p = 0; p < W * G; p++) index[p] = count;
    orbits.mirrored = true;
    orbits.uniform = true;
    return true;
  }
  const usual = isUsualRotation(uF, v, uB, w, dnUF, dnV, dnUB, dnW, W);
  // The induced rotation covers the map when its walk is one cycle (always for a power-of-two
  // number of sets; otherwise the general fill below takes the several cycles).
  if (usual && walkUsualRotation(orbits, uF | 0, v, uB | 0, w, W, count)) {
    orbits.pending = true;
    orbits.pendingPositions = W;
    orbits.pendingElements = G;
    orbits.pendingCount = count;
    return true;
  }
  if (!fillCoarse(orbits, usual, uF, v, uB, w, dnUF, dnV, dnUB, dnW, W, count)) return false;
  expandCoarse(indexStore, W, G);
  return true;
}

/**
 * The largest multiple of `e` (bytes) dividing the line `B` and the jumps (non-negative int32
 * multiples of `e`), or -1 when a jump is not such a multiple. For a power-of-two line and element
 * it is the lowest set bit of them all (why: no remainders).
 */
function coarseUnit(vF: number, wB: number, dnVF: number, dnWB: number, B: number, e: number): number {
  if ((vF | 0) !== vF || (wB | 0) !== wB || (dnVF | 0) !== dnVF || (dnWB | 0) !== dnWB || vF < 0 || wB < 0 || dnVF < 0 || dnWB < 0) return -1;
  if (exactLog2(B) >= 0 && exactLog2(e) >= 0) {
    const bits = vF | wB | dnVF | dnWB | B;
    return (bits & (e - 1)) !== 0 ? -1 : bits & -bits;
  }
  const g = gcd(gcd(gcd(vF, wB), gcd(dnVF, dnWB)), B);
  return g % e !== 0 ? -1 : g;
}

/**
 * Gives every element position `p < W * G` the index of its coarse position `p / G` (downwards:
 * the coarse index `a` is read before any position at or below `a` is written).
 */
function expandCoarse(index: Int32Array, W: number, G: number): void {
  if (G === 1) return;
  for (let a = W - 1; a >= 0; a--) {
    const j = index[a];
    for (let r = G - 1; r >= 0; r--) index[a * G + r] = j;
  }
}

/** Completes a fill that {@link startReturnOrbits} left pending: pads the sums, expands the indices. */
export function finishReturnOrbits(orbits: ReturnOrbits): void {
  if (!orbits.pending) return;
  orbits.pending = false;
  padOrbitSums(orbits.pendingPositions, orbits.pendingCount, orbits.period);
  expandCoarse(indexStore, orbits.pendingPositions, orbits.pendingElements);
}

/** Extends the one cycle's sums of `W` positions (period `t` rows) periodically by `count` entries on both sides. */
function padOrbitSums(W: number, count: number, t: number): void {
  const cum = sumStore;
  const base = count;
  for (let m = 0; m < count; m++) {
    cum[base + W + m] = cum[base + m] + t;
    cum[base - 1 - m] = cum[base + W - 1 - m] - t;
  }
}

/**
 * The visits of {@link fillReturnOrbits} for the usual rotation (see {@link isUsualRotation}) on
 * `W` positions: unpadded sums, coarse indices, and the widened and narrowed visits. Returns false
 * when the rotation's walk is not one cycle (the caller then fills from the tables).
 */
function walkUsualRotation(orbits: ReturnOrbits, uF: number, v: number, uB: number, w: number, W: number, count: number): boolean {
  // Every stored sum is within (W + count) return times of 0, each at most uF + uB.
  if ((W + count + 1) * (uF + uB) >= sumBound) return false;
  return v + w > W ? walkWidenedWindow(orbits, uF, v, uB, w, W, count) : walkInducedRotation(orbits, uF, v, uB, w, W, count);
}

/**
 * {@link walkUsualRotation} when its induced rotation (by `v` on `N = v + w > W` points, see
 * {@link walkInducedRotation}) has the point `W` beyond the line: the walk of the first return to
 * the widened window `0..W`, one step per visit. From `x`, the induced rotation steps ahead to
 * `x + v` (`uF` rows) when `x < w`, and wraps to `x - w` (`uB` rows) from `x >= w`; ahead from
 * `x <= W - v` lands in the window, ahead from `W - v < x < w` lands beyond it, on a point `>= w`
 * whose wrap returns at `x + v - w`. So the return adds `v` (`uF` rows) iff `x < w` and subtracts
 * `w` (`uB` rows) iff `x > W - v`. Why: `W + 1` steps instead of the induced rotation's `N`, up to
 * `2W - 1`, with the same visits in the same order.
 */
function walkWidenedWindow(orbits: ReturnOrbits, uF: number, v: number, uB: number, w: number, W: number, count: number): boolean {
  const cum = sumStore;
  const index = indexStore;
  const widened = widenedStore;
  const narrowed = narrowedStore;
  const base = count;
  const behindFrom = W - v;
  let x = 0;
  let t = 0;
  let k = base;
  let nn = 0;
  let zeros = 0;
  for (let step = 0; step <= W; step++) {
    // Written at every step, kept (the counts advance) only where they apply: no branch. Point W
    // writes its index past the line and a sum the next visit overwrites.
    index[x] = k;
    cum[k] = t;
    widened[step] = t;
    narrowed[nn] = t;
    // Signed shifts: `>>>` gives uint32, which V8 may carry as a double into the indices.
    const inLine = ((x - W) >> 31) & 1;
    k += inLine;
    nn += inLine & ((-x >> 31) & 1);
    zeros += ((x - 1) >> 31) & 1;
    const ahead = (x - w) >> 31;
    const behind = (behindFrom - x) >> 31;
    x += (v & ahead) - (w & behind);
    t += (uF & ahead) + (uB & behind);
  }
  // One cycle iff position 0 comes back only after all W + 1 points.
  if (zeros !== 1) return false;
  orbits.mirrored = true;
  orbits.widenedVisits = W + 1;
  orbits.narrowedVisits = nn;
  orbits.period = t;
  return true;
}

/**
 * {@link walkUsualRotation} when the induced rotation has no point beyond the line (`v + w = W`),
 * or any usual rotation (the walk is then longer): the map is the first return to `[0, W)`, from its induced rotation: the map is the first return to `[0, W)` of the rotation by `v` on
 * `N = v + w` positions whose steps take `uF` rows, or `uB` rows when they wrap past `N` (the jump
 * ahead is one plain step, the jump behind one wrapping step, and the combined jump one of each,
 * passing through a point `W..N-1` beyond the line; point `W` is byte `B`, the next line's
 * first). One walk of the `N` steps from position 0 visits the window's cycle in order and, on
 * the way, the windows widened and narrowed by one position (when `N = W` there is no point `W`
 * to visit: see {@link addNextLineVisit}). Why: one walk without tables or
 * data-dependent branches replaces the first-return tables and the dependent walk along them.
 * Returns false when the walk is not one cycle through all `W` positions (then the caller fills
 * from the tables, which handle several cycles). `v`, `w` and `W` share no factor. The sums are
 * left unpadded, and the indices those of the coarse positions (see {@link finishReturnOrbits}).
 */
function walkInducedRotation(orbits: ReturnOrbits, uF: number, v: number, uB: number, w: number, W: number, count: number): boolean {
  const N = v + w;
  const cum = sumStore;
  const index = indexStore;
  const widened = widenedStore;
  const narrowed = narrowedStore;
  const base = count;
  let x = 0;
  let t = 0;
  let k = base;
  let nw = 0;
  let nn = 0;
  const longer = uB - uF;
  for (let step = 0; step < N; step++) {
    // Written at every step, kept (the counts advance) only at visits: no branch. Points beyond
    // the line write their index past it and a sum the next visit overwrites.
    index[x] = k;
    cum[k] = t;
    widened[nw] = t;
    narrowed[nn] = t;
    // Signed shifts: `>>>` gives uint32, which V8 may carry as a double into the indices.
    const inLine = ((x - W) >> 31) & 1;
    k += inLine;
    nw += ((x - W - 1) >> 31) & 1;
    nn += inLine & ((-x >> 31) & 1);
    const y = x + v;
    const wrap = (N - 1 - y) >> 31;
    x = y - (N & wrap);
    t += uF + (longer & wrap);
  }
  // One cycle iff W visits: with v and w sharing a factor d (which cannot divide W, else the
  // coarse unit would have taken it), the walk goes d times round the cycle of 0, which holds
  // ceil(W / d) of the positions: d * ceil(W / d) > W visits.
  if (k - base !== W) return false;
  orbits.mirrored = true;
  if (N === W) addNextLineVisit(widened, W, uF, uB, t);
  orbits.widenedVisits = W + 1;
  orbits.narrowedVisits = nn;
  orbits.period = t;
  return true;
}

/**
 * Completes the widened visits when `v + w = W`: the induced rotation then has no point beyond
 * the line, and its walk visited only `0..W-1`. Position `W` (byte `B`) is the jump ahead from
 * `w` (`w + v = W`), `uF` rows after that visit, which itself is `uB` rows before the cycle's
 * return to 0 (from `w` the rule jumps behind): `uF - uB` rows after a visit to 0, modulo the
 * period `t`. So it is the period's last visit when `uF < uB`, else the one after the visit to 0.
 * Why: without it these rotations skipped both bounds of `partner-spans.ts`, and they are common
 * (about half of the cache benchmark's strided sweeps that reach the sums).
 */
function addNextLineVisit(widened: Int32Array, W: number, uF: number, uB: number, t: number): void {
  if (uF < uB) {
    widened[W] = t - uB + uF;
    return;
  }
  for (let j = W; j > 1; j--) widened[j] = widened[j - 1];
  widened[1] = uF - uB;
}

/**
 * {@link fillReturnOrbits} on `W` (coarse) positions from the first-return tables: any rotation
 * the rule covers. `usual` says whether it is the usual one (see {@link isUsualRotation}).
 */
function fillCoarse(orbits: ReturnOrbits, usual: boolean, uF: number, vE: number, uB: number, wE: number, dnUF: number, dnVE: number, dnUB: number, dnWE: number, W: number, count: number): boolean {
  const cum = sumStore;
  const index = indexStore;
  const time = forwardTime;
  const next = forwardNext;
  const dnTime = backwardTime;
  const dnNext = backwardNext;
  orbits.mirrored = usual;
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
  if ((W + count) * maxTime >= sumBound) return false;
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
