/**
 * Exact reuse misses of a column sweep whose rows are at least a line apart.
 *
 * In the strided stream (see `kernel.ts`) element `j` of array `a` is preceded in its line by
 * element `j - 1` of the same array, touched one column earlier (or, for the first column, at the
 * end of the previous pass: the sweep is cyclic). Between the two, the stream touches exactly one
 * element of every other row: elements `j - k*s` (earlier rows, this column) and `j + k*s - 1`
 * (later rows, previous column), `k >= 1`, plus the same elements of the other arrays (with
 * `k = 0` for the array touched between). Each of those is a distinct line, so under LRU the access
 * hits iff fewer than `assoc` of them map to its set. Which of them do depends only on the access's
 * byte offset `o` within its line and on which partners exist (`k <= row` earlier, `k <= last - row`
 * later); for a fixed offset the access misses iff, for some `t` in `0..assoc`, the `t`-th nearest
 * earlier partner in the set exists and the `(assoc - t)`-th nearest later one does. The nearest
 * partners in the set are found by a Euclid-like search (no scan over rows), and the rows meeting the
 * condition form a union of `assoc + 1` intervals with increasing ends.
 *
 * @packageDocumentation
 */
import type { CacheGeometry } from "./geometry.js";
import { nextInWindow } from "./modular.js";

const MAX_ASSOC = 64;
const MAX_ARRAYS = 4;
/** Offsets per line evaluated one by one; beyond this the caller uses its approximation. */
const MAX_OFFSETS = 64;
// Thresholds of the nearest earlier / later partners (preallocated: no allocation per evaluation).
const earlier = new Float64Array(MAX_ASSOC + 1);
const later = new Float64Array(MAX_ASSOC + 1);
const merged = new Float64Array(2 * MAX_ASSOC + 2);

/**
 * Appends to `list[1..]` (kept sorted, at most `assoc` entries) the smallest `k >= from`, `k <= kMax`,
 * with `(o + base + k * step) mod P` in `[0, B)`. Returns the new length.
 */
function nearest(list: Float64Array, len: number, assoc: number, step: number, base: number, P: number, B: number, from: number, kMax: number): number {
  let k = nextInWindow(step, base, P, 0, B - 1, from);
  let found = 0;
  // Insert into the sorted list; entries beyond assoc are dropped.
  while (k >= 0 && k <= kMax && found < assoc) {
    if (len === assoc && k >= list[len]) break;
    let p = len < assoc ? ++len : len;
    while (p > 1 && list[p - 1] > k) {
      list[p] = list[p - 1];
      p--;
    }
    list[p] = k;
    found++;
    k = nextInWindow(step, base, P, 0, B - 1, k + 1);
  }
  return len;
}

/** Rows `i` in `[0, n)` with `earlier[t] <= i <= last - later[assoc - t]` for some t. */
function rowsMissing(nE: number, nL: number, assoc: number, n: number, last: number): number {
  let covered = 0;
  let reach = -1;
  for (let t = 0; t <= assoc; t++) {
    if (t > nE) break;
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
  if (B % e !== 0 || u % e !== 0 || B / e > MAX_OFFSETS || A > MAX_ASSOC || arrays > MAX_ARRAYS || R < B || arrayBytes < B) return -1;
  const P = g.sets * B;
  const rows = Math.ceil(q / s);
  const lastRow = q - (rows - 1) * s;
  // Column groups: (rows present n, last later row index, columns w).
  // c = 0; c in [1, lastRow - 1]; c = lastRow (if < s); c in [lastRow + 1, s - 1].
  const full = lastRow === s;
  const n0 = rows, l0 = full ? rows : rows - 1;
  const n1 = rows, l1 = rows - 1, w1 = full ? s - 1 : lastRow - 1;
  const n2 = rows - 1, l2 = rows - 1, w2 = full ? 0 : 1;
  const n3 = rows - 1, l3 = rows - 2, w3 = full ? 0 : s - 1 - lastRow;
  const down = (P - (R % P)) % P;
  const up = R % P;
  let total = 0;
  for (let a = 0; a < arrays; a++) {
    for (let o = e; o < B; o += e) {
      if (o % u < e) continue;
      // Earlier partners: same array at -k*R (k >= 1); array b at (b - a)*span - k*R (k >= 0 if b < a).
      let nE = nearest(earlier, 0, A, down, o % P, P, B, 1, rows);
      let nL = nearest(later, 0, A, up, (o - e + P) % P, P, B, 1, rows);
      for (let b = 0; b < arrays; b++) {
        if (b === a) continue;
        const off = ((((b - a) * arrayBytes) % P) + P) % P;
        nE = nearest(earlier, nE, A, down, (o + off) % P, P, B, b < a ? 0 : 1, rows);
        nL = nearest(later, nL, A, up, (o - e + off + P) % P, P, B, b > a ? 0 : 1, rows);
      }
      // k = 0 partners are thresholds 0: they always exist; rowsMissing treats entries as row bounds.
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
