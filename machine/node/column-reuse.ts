/**
 * Exact reuse misses of a column sweep whose rows are at least a line apart.
 *
 * In the strided stream (see `kernel.ts`) element `j` of array `a` is preceded in its line by
 * element `j - 1` of the same array, touched one column earlier (or, for the first column, at the
 * end of the previous pass: the sweep is cyclic). Between the two, the stream touches exactly one
 * element of every other row: elements `j - k*s` (earlier rows, this column) and `j + k*s - 1`
 * (later rows, previous column), `k >= 1`, plus the same elements of the other arrays (with
 * `k = 0` for the array touched in between). Each is a distinct line, so under LRU the access
 * hits iff fewer than `assoc` of them map to its set. Which of them do depends only on the
 * access's byte offset `o` within its line and on which partners exist (`k <= row` earlier,
 * `k <= last - row` later): for a fixed offset the access misses iff, for some `t` in
 * `0..assoc`, the `t`-th nearest earlier partner in its set exists and so does the
 * `(assoc - t)`-th nearest later one. The rows meeting that form a union of `assoc + 1` intervals
 * with increasing ends.
 *
 * The nearest partners in the set are the returns of a rotation (by the row length, modulo the
 * set period `S*B`) to a window of one line. By the three-gap theorem (Slater) successive returns
 * are `uF`, `uB` or `uF + uB` rows apart, where `uF` (`uB`) is the first row distance whose
 * displacement falls within a line ahead (behind); so after one Euclid-like search per rotation
 * each further partner costs O(1).
 *
 * @packageDocumentation
 */
import type { CacheGeometry } from "./geometry.js";
import { nextInWindow } from "./modular.js";

const MAX_ASSOC = 64;
const MAX_ARRAYS = 4;
/** Offsets per line evaluated one by one; beyond this the caller uses its approximation. */
const MAX_OFFSETS = 64;
// Thresholds of the nearest earlier / later partners, 1-based (preallocated: no allocation per evaluation).
const earlier = new Float64Array(MAX_ASSOC + 1);
const later = new Float64Array(MAX_ASSOC + 1);

// Return structure of the two rotations (backward by the row length for earlier rows, forward for
// later ones): first forward entry (rows, displacement) and first backward entry.
let dnUF = 0, dnVF = 0, dnUB = 0, dnWB = 0;
let upUF = 0, upVF = 0, upUB = 0, upWB = 0;

/**
 * Merges into `list[1..len]` (sorted, at most `assoc` entries) the returns of the orbit
 * `x_k = (x0 + k * step) mod P`, `k >= from`, to `[0, B)`, for `k <= kMax`. `inWindow` says that
 * `from` itself is a return (the orbit starts inside the window). Returns the new length.
 */
function merge(list: Float64Array, len: number, assoc: number, step: number, x0: number, P: number, B: number, from: number, kMax: number, up: boolean): number {
  const uF = up ? upUF : dnUF, vF = up ? upVF : dnVF, uB = up ? upUB : dnUB, wB = up ? upWB : dnWB;
  let k: number;
  let x: number;
  if (from === 1 && x0 >= 0 && x0 < B) {
    // The orbit starts inside the window: its first return is one three-gap step away.
    k = 0;
    x = x0;
    const f = uF > 0 && x + vF < B;
    const b = uB > 0 && x - wB >= 0;
    if (f && (!b || uF <= uB)) {
      k = uF;
      x += vF;
    } else if (b) {
      k = uB;
      x -= wB;
    } else {
      k = uF + uB;
      x += vF - wB;
    }
  } else {
    k = nextInWindow(step, x0, P, 0, B - 1, from);
    if (k < 0) return len;
    x = (((x0 + ((k * step) % P)) % P) + P) % P;
  }
  let found = 0;
  while (k <= kMax && found < assoc) {
    if (len === assoc && k >= list[len]) break;
    let p = len < assoc ? ++len : len;
    while (p > 1 && list[p - 1] > k) {
      list[p] = list[p - 1];
      p--;
    }
    list[p] = k;
    found++;
    // Next return: the nearest of a forward jump, a backward jump, or both.
    const f = uF > 0 && x + vF < B;
    const b = uB > 0 && x - wB >= 0;
    if (f && (!b || uF <= uB)) {
      k += uF;
      x += vF;
    } else if (b) {
      k += uB;
      x -= wB;
    } else {
      k += uF + uB;
      x += vF - wB;
    }
  }
  return len;
}

/** Rows `i` in `[0, n)` with `earlier[t] <= i <= last - later[assoc - t]` for some t. */
function rowsMissing(nE: number, nL: number, assoc: number, n: number, last: number): number {
  let covered = 0;
  let reach = -1;
  for (let t = 0; t <= assoc && t <= nE; t++) {
    const r = assoc - t;
    if (r > nL) continue;
    const lo = Math.max(t === 0 ? 0 : earlier[t], reach + 1);
    const hi = Math.min(n - 1, last - (r === 0 ? 0 : later[r]));
    if (hi >= lo) {
      covered += hi - lo + 1;
      reach = hi;
    }
  }
  return covered;
}

function entries(step: number, P: number, B: number): void {
  const uF = nextInWindow(step, 0, P, 0, B - 1, 1);
  const uB = nextInWindow(step, 0, P, P - B + 1, P - 1, 1);
  const vF = uF < 0 ? 0 : (uF * step) % P;
  const wB = uB < 0 ? 0 : P - ((uB * step) % P);
  return void (ret[0] = uF, ret[1] = vF, ret[2] = uB, ret[3] = wB);
}
const ret = new Float64Array(4);

/**
 * Misses of the accesses that continue a sector (byte offset within the sector at least one element)
 * in a column sweep of `arrays` arrays of `q` elements of `e` bytes with rows of `s` elements
 * (`s * e >= line`). Returns -1 when the geometry is outside what this evaluates exactly (the caller
 * then approximates): elements not dividing the line, too many offsets, arrays or ways.
 */
export function columnReuseMisses(g: CacheGeometry, q: number, e: number, s: number, arrays: number, arrayBytes: number): number {
  const B = g.line;
  const u = g.sector;
  const A = g.assoc;
  const R = s * e;
  if (e >= u) return 0;
  if (B % e !== 0 || u % e !== 0 || A > MAX_ASSOC || arrays > MAX_ARRAYS || R < B || arrayBytes < B) return -1;
  const rows = Math.ceil(q / s);
  // Fewer partners than ways: every continuation hits.
  if (rows * arrays <= A) return 0;
  const P = g.sets * B;
  const lastRow = q - (rows - 1) * s;
  // Column groups (rows present n, last row index reachable by later partners, columns w):
  // c = 0; c in [1, lastRow - 1]; c = lastRow (if < s); c in [lastRow + 1, s - 1].
  const full = lastRow === s;
  const n0 = rows, l0 = full ? rows : rows - 1;
  const n1 = rows, l1 = rows - 1, w1 = full ? s - 1 : lastRow - 1;
  const n2 = rows - 1, l2 = rows - 1, w2 = full ? 0 : 1;
  const n3 = rows - 1, l3 = rows - 2, w3 = full ? 0 : s - 1 - lastRow;
  // Offsets that continue a sector, per line.
  const hOffsets = (B / e) - B / u;
  if (g.sets === 1) {
    // One set: every partner shares it; the thresholds are 1, 2, 3, ... per list.
    let total = 0;
    for (let a = 0; a < arrays; a++) {
      let nE = 0, nL = 0;
      for (let b = 0; b < arrays; b++) {
        nE = mergeAll(earlier, nE, A, b < a ? 0 : 1, rows);
        nL = mergeAll(later, nL, A, b > a ? 0 : 1, rows);
      }
      total += rowsMissing(nE, nL, A, n0, l0) + w1 * rowsMissing(nE, nL, A, n1, l1) + w2 * rowsMissing(nE, nL, A, n2, l2) + w3 * rowsMissing(nE, nL, A, n3, l3);
    }
    return (total * hOffsets * e) / B;
  }
  if (B / e > MAX_OFFSETS) return -1;
  const down = (P - (R % P)) % P;
  const up = R % P;
  entries(up, P, B);
  upUF = ret[0]; upVF = ret[1]; upUB = ret[2]; upWB = ret[3];
  // The backward rotation enters ahead where the forward one enters behind, and vice versa
  // (a zero displacement, a period of the rotation, is ahead for both).
  if (upVF === 0) {
    dnUF = upUF; dnVF = 0; dnUB = -1; dnWB = 0;
  } else {
    dnUF = upUB; dnVF = upWB; dnUB = upUF; dnWB = upVF;
  }
  // Bounds from the three-gap return times: every run of tMax consecutive rows holds a partner,
  // no two partners of a list are closer than tMin rows.
  const tMin = upUB > 0 && upVF > 0 ? Math.min(upUF, upUB) : upUF;
  const tMax = upUB > 0 && upVF > 0 ? upUF + upUB : upUF;
  const lastMin = w3 > 0 ? l3 : w2 > 0 ? l2 : l1;
  const lastMax = l0;
  const hTotal = arrays * (q - Math.ceil((q * e) / u));
  // Fewest partners of any row, counting only its own array's.
  if (Math.floor(lastMin / tMax) - 1 >= A) return hTotal;
  // Most partners of any row.
  if (Math.floor(lastMax / tMin) + (arrays - 1) * (Math.floor((lastMax + 1) / tMin) + 2) < A) return 0;
  let total = 0;
  for (let a = 0; a < arrays; a++) {
    for (let o = e; o < B; o += e) {
      if (o % u < e) continue;
      // Earlier partners: same array at -k*R (k >= 1); array b at (b - a)*span - k*R (k >= 0 if b < a).
      let nE = merge(earlier, 0, A, down, o, P, B, 1, rows, false);
      let nL = merge(later, 0, A, up, o - e, P, B, 1, rows, true);
      for (let b = 0; b < arrays; b++) {
        if (b === a) continue;
        const off = ((((b - a) * arrayBytes) % P) + P) % P;
        nE = merge(earlier, nE, A, down, (o + off) % P, P, B, b < a ? 0 : 1, rows, false);
        nL = merge(later, nL, A, up, (o - e + off) % P, P, B, b > a ? 0 : 1, rows, true);
      }
      let sum = rowsMissing(nE, nL, A, n0, l0);
      if (w1 > 0) sum += w1 * rowsMissing(nE, nL, A, n1, l1);
      if (w2 > 0) sum += w2 * rowsMissing(nE, nL, A, n2, l2);
      if (w3 > 0) sum += w3 * rowsMissing(nE, nL, A, n3, l3);
      total += sum;
    }
  }
  // Each row's accesses visit every offset equally often over the columns (e divides the line).
  return (total * e) / B;
}

/** Merges thresholds from, from + 1, ... (every partner in the one set) into `list`. */
function mergeAll(list: Float64Array, len: number, assoc: number, from: number, kMax: number): number {
  for (let k = from; k <= kMax; k++) {
    if (len === assoc && k >= list[len]) break;
    let p = len < assoc ? ++len : len;
    while (p > 1 && list[p - 1] > k) {
      list[p] = list[p - 1];
      p--;
    }
    list[p] = k;
  }
  return len;
}
