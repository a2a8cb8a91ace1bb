/**
 * Reuse misses of a column sweep whose rows are at least a line apart, partner by partner (exact
 * for long columns: each column group's accesses are spread evenly over the positions within a
 * line, which short columns of many arrays are not, by up to 0.13 of the accesses).
 *
 * In the strided stream (see `kernel.ts`) an element `j` that starts at least `e` bytes into its
 * sector (a continuation; the others start a sector, and the caller counts them) is preceded in
 * its line by element `j - 1` of the same array, touched one column earlier (or, for the first
 * column, at the end of the previous pass: the sweep is cyclic). Between the two, the stream
 * touches exactly one element of every other row: elements `j - k*s` (earlier rows, this
 * column) and `j + k*s - 1` (later rows, previous column), `k >= 1`, plus the same elements of
 * the other arrays (with `k = 0` for the array touched in between). Each is a distinct line, so under LRU the access
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
 * each further partner costs O(1). With one array, the lists of every offset come at once from the
 * sums along the orbits of the rotation's first-return map (`return-lists.ts`), and each offset's
 * misses are counted band by band without data-dependent branches ({@link bandRowsAndShift}). Before
 * the sums, bounds from the entries alone decide the sweeps where no continuation misses (a
 * lattice bound on the rows `A` partners span, `partner-lattice.ts`) or, when the returns rotate
 * the line itself, where every one misses (`line-rotation.ts`).
 *
 * @packageDocumentation
 */
import type { CacheGeometry } from "./geometry.js";
import { exactLog2, gcd, mod, nextInWindow, reducedRotationEntries } from "./modular.js";
import { lineRotationSpansWithin } from "./line-rotation.js";
import { partnerSpanExceeds } from "./partner-lattice.js";
import { partnerSpans, PartnerSpans } from "./partner-spans.js";
import { finishReturnOrbits, MAX_POSITIONS, MAX_RETURNS, MAX_SUM, orbitIndex, orbitSums, ReturnOrbits, startReturnOrbits } from "./return-lists.js";

const MAX_ASSOC = MAX_RETURNS;
/** Most arrays counted exactly: every kernel's (see `validateKernel`). */
const MAX_ARRAYS = 64;
/** Array distances `b - a` of the walk, `1 - MAX_ARRAYS..MAX_ARRAYS - 1`. */
const MAX_DISTANCES = 2 * MAX_ARRAYS - 1;
/** Offsets per line evaluated one by one; beyond this the caller uses its approximation. */
const MAX_OFFSETS = MAX_POSITIONS;

/**
 * Preallocated state of one evaluation (no allocation per call; fields of one object rather than
 * module-level `let` bindings, which optimised code re-checks on every access). The return sums
 * are module-level `const` typed arrays instead (see `return-lists.ts`), which V8 embeds when they
 * are read through this module's own names ({@link sums}, {@link sumIndex}).
 */
class Scratch {
  /** Thresholds (row distances) of the nearest earlier partners in the set, 1-based, sorted. */
  readonly earlier = new Float64Array(MAX_ASSOC + 1);
  /** Same for later partners. */
  readonly later = new Float64Array(MAX_ASSOC + 1);
  /** An offset's own earlier and later partners (several arrays: each array's lists start from them). */
  readonly ownEarlier = new Float64Array(MAX_ASSOC + 1);
  readonly ownLater = new Float64Array(MAX_ASSOC + 1);
  /**
   * An offset's earlier and later partners in the array `delta` arrays away (index
   * `delta + MAX_ARRAYS - 1`), 1-based like {@link earlier}, and how many. Views made once.
   */
  readonly otherEarlier = partnerLists();
  readonly otherLater = partnerLists();
  readonly otherEarlierCount = new Int32Array(MAX_DISTANCES);
  readonly otherLaterCount = new Int32Array(MAX_DISTANCES);
  /** Column groups: rows present, last row reachable by later partners, columns. */
  readonly groupRows = new Float64Array(4);
  readonly groupLast = new Float64Array(4);
  readonly groupColumns = new Float64Array(4);
  groups = 0;
  /** Group 0 as int32 for the bands: its top row (`rows - 1`) and `last`. */
  top0 = 0;
  last0 = 0;
  /** Rows the shifted group loses against group 0 in the bands `t < A` (see {@link bandRowsAndShift}). */
  shiftLoss = 0;
  /** The plan of {@link planGroups}: columns of group 0's rows, of the shifted loss, of the threshold (row `thresholdLast`, -1 for none). */
  rowsWeight = 0;
  lossWeight = 0;
  thresholdLast = -1;
  thresholdColumns = 0;
  /** The group whose rows end at `last` (it takes a correction at mirror offsets): `last` (-1 for none) and columns. */
  mirrorLast = -1;
  mirrorColumns = 0;
  /** What the last fill of the return sums found (the sums themselves are `return-lists.ts`'s storage). */
  readonly orbits = new ReturnOrbits();
  /** Extreme partner spans of the orbit sums (see `partner-spans.ts`). */
  readonly spans = new PartnerSpans();
  /** Output of {@link reducedRotationEntries}. */
  readonly rotation = new Float64Array(4);
  /** Largest start of the last {@link ownReturns} orbit that fills the same list. */
  startMax = 0;
  // Three-gap return structure of the forward (later rows) and backward (earlier rows) rotations:
  // first entry ahead within a line (rows uF, displacement vF), first entry behind (uB, wB).
  upUF = 0;
  upVF = 0;
  upUB = 0;
  upWB = 0;
  dnUF = 0;
  dnVF = 0;
  dnUB = 0;
  dnWB = 0;
}
const scratch = new Scratch();

/** One list per array distance, views of one buffer (see `Scratch.otherEarlier`). */
function partnerLists(): Float64Array[] {
  const buffer = new Float64Array(MAX_DISTANCES * (MAX_ASSOC + 1));
  return Array.from({ length: MAX_DISTANCES }, (_, i) => buffer.subarray(i * (MAX_ASSOC + 1), (i + 1) * (MAX_ASSOC + 1)));
}

// The orbit sums' storage under this module's own constants. Why: V8 compiles a module's own
// constant typed array into its code, but reads an imported one through the import's cell and
// checks its map and length again at every element of the band loops.
const sums = orbitSums;
const sumIndex = orbitIndex;

/**
 * Fills `list[1..]` with the first `assoc` returns (row distances `k <= kMax`) to `[0, B)` of an
 * orbit that starts inside it at `x`, stepping by the three-gap rule. Returns how many, and sets
 * `scratch.startMax` to the largest start that takes the same jumps (hence fills the same list).
 */
function ownReturns(list: Float64Array, assoc: number, uF: number, vF: number, uB: number, wB: number, x: number, B: number, kMax: number): number {
  let k = 0;
  let n = 0;
  // Every test below that fails for a larger start bounds the starts sharing this list.
  const x0 = x;
  let startMax = Infinity;
  while (n < assoc) {
    // Next return: the nearer of a jump ahead and a jump behind that stays in the line, else both.
    const f = uF > 0 && x + vF < B;
    const b = uB > 0 && x - wB >= 0;
    // x + vF < B holds for starts up to B - vF - 1 - (x - x0); x - wB < 0 up to wB - 1 - (x - x0).
    if (f && B - vF - 1 - x + x0 < startMax) startMax = B - vF - 1 - x + x0;
    if (uB > 0 && !b && wB - 1 - x + x0 < startMax) startMax = wB - 1 - x + x0;
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
    if (k > kMax) break;
    list[++n] = k;
  }
  scratch.startMax = startMax;
  return n;
}

/**
 * Fills `list[1..]` with the first `assoc` returns to `[0, B)` of the orbit `(x0 + k * step) mod P`,
 * `from <= k <= kMax`, whose start need not lie in the window (another array's), stepping by the
 * three-gap rule once inside. Returns how many.
 */
function otherReturns(list: Float64Array, assoc: number, step: number, x0: number, P: number, B: number, from: number, kMax: number, uF: number, vF: number, uB: number, wB: number): number {
  let k = nextInWindow(step, x0, P, 0, B - 1, from);
  if (k < 0) return 0;
  let x = (x0 + ((k * step) % P)) % P;
  let len = 0;
  while (k <= kMax && len < assoc) {
    list[++len] = k;
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

/**
 * Accesses (rows times columns) of the column groups whose row `i` has, for some `t`, its `t`-th
 * earlier partner (`earlier[t] <= i`) and its `(assoc - t)`-th later one (`i <= last - later[...]`).
 * For each group the rows form a union of intervals with increasing ends.
 */
function missingAccesses(sc: Scratch, nE: number, nL: number, assoc: number): number {
  const earlier = sc.earlier;
  const later = sc.later;
  let sum = 0;
  for (let gi = 0; gi < sc.groups; gi++) {
    const n = sc.groupRows[gi];
    const last = sc.groupLast[gi];
    let covered = 0;
    let reach = -1;
    const tMax = nE < assoc ? nE : assoc;
    for (let t = assoc - nL > 0 ? assoc - nL : 0; t <= tMax; t++) {
      const r = assoc - t;
      const lo0 = t === 0 ? 0 : earlier[t];
      const lo = lo0 > reach + 1 ? lo0 : reach + 1;
      const hi0 = last - (r === 0 ? 0 : later[r]);
      const hi = hi0 < n - 1 ? hi0 : n - 1;
      if (hi >= lo) {
        covered += hi - lo + 1;
        reach = hi;
      }
    }
    sum += covered * sc.groupColumns[gi];
  }
  return sum;
}

// The two helpers below are constants, not function declarations. Why: a module's function
// declaration is a mutable binding, so V8 checks, at every inlined call in a loop, that it still
// holds the function it inlined; a constant it compiles in.

/** `min(a, b)` for int32 `a`, `b` less than 2^31 apart, without a branch. */
const min32 = (a: number, b: number): number => {
  const d = a - b;
  return b + (d & (d >> 31));
};

/** `max(a, 0)` for int32 `a`, without a branch. */
const positive32 = (a: number): number => a & ~(a >> 31);

/**
 * Rows of one column group (`top + 1` rows, later partners up to row `last`, `top >= last - 1`)
 * whose accesses miss, for the offset whose earlier partners are the backward returns from sum
 * index `j` and whose later ones the forward returns from `jl` (see `return-lists.ts`):
 * {@link missingAccesses} counted band by band. The rows with exactly `t` earlier partners,
 * `[E_t, E_{t+1})`, miss up to `last - L_{A-t}` (the later partner that completes `A`), so the
 * count is a sum of clamped band lengths; for `t < A` that end is below `last`, hence at most
 * `top`, and only the last band is cut at `top`. Why this form: the union of intervals carries its
 * reach from one interval to the next and tests each for emptiness, a branch that varies from
 * offset to offset and mispredicts; here every term is independent and the clamping is integer
 * arithmetic. Partners beyond the rows give empty bands (they start after `top` or end before
 * row 0), as missing partners do, so the lists need no cut. All values are below 2^30 in
 * magnitude (`MAX_SUM`).
 *
 * Sets `sc.shiftLoss` to how many of those rows a group with `last` one smaller (and the same
 * `top`) loses: band `t < A` loses a row iff its end `K - 1 - l` is inside it,
 * `lower < K - l <= upper`, so the shorter group's count follows from the same loads. Why: the
 * column groups of a sweep whose last row is partial are two such groups, and the bands of the
 * second cost as much as the first. Why also when no group is shifted (the plan then weighs the
 * loss by 0): one copy of the band loop, not two, is inlined into the count over the offsets,
 * which leaves V8's inlining budget room for the loop's own helpers.
 */
function bandRowsAndShift(sc: Scratch, cum: Int32Array, j: number, jl: number, assoc: number, top: number, last: number): number {
  const J = cum[j];
  // Band t: rows lower..min(upper - 1, K - 1 - l) with K = last + 1 + cum[jl], l = cum[jl + A - t].
  const K = last + 1 + cum[jl];
  let rows = 0;
  let loss = 0;
  let lower = 0;
  for (let t = 0; t < assoc; t++) {
    const upper = J - cum[j - t - 1];
    const end = K - cum[jl + assoc - t];
    // `| 0`: the counts stay far below 2^31, and int32 sums need no overflow checks.
    rows = (rows + positive32(min32(upper, end) - lower)) | 0;
    // Sign bits: lower - end < 0 and upper - end >= 0.
    loss = (loss + (((lower - end) >> 31) & ~((upper - end) >> 31) & 1)) | 0;
    lower = upper;
  }
  sc.shiftLoss = loss;
  // Rows with all `assoc` earlier partners miss whatever follows.
  return rows + positive32(top + 1 - lower);
}

/**
 * Sets the plan of {@link orbitOffsetsMisses}, in closed form for the column groups
 * {@link addGroups} builds (`n` rows, the last holding `lastRow` of `s` elements), each counted
 * from group 0's bands (top row `n - 1`, later partners up to `last0`):
 * - a group one row short of the previous one with the same `last` (its rows end at `last`, and
 *   it has the same later partners) loses that row iff all `A` earlier partners exist by it: a
 *   threshold at `last`;
 * - a group whose `last` is one below group 0's loses the rows of group 0's bands that end on
 *   their last row (`shiftLoss`, see {@link bandRowsAndShift}), and, when its top row is also one
 *   below, that row iff all `A` earlier partners exist by group 0's top: a threshold there.
 * With a full last row: column 0 (`last0 = n`, rows ending at `last`: a mirror correction) and,
 * for `s > 1`, `s - 1` columns shifted by one, with the same top. With a partial one: `lastRow`
 * columns (`last0 = n - 1`); for `n > 1`, one column one row short (threshold `n - 1`, rows ending
 * at `last`: the mirror correction) and `s - 1 - lastRow` columns shifted with their top one
 * below (the same threshold). Why closed form: the general plan, group by group, took close to a
 * tenth of an evaluation that counts from the orbit sums.
 */
function planGroups(sc: Scratch, n: number, s: number, lastRow: number): void {
  sc.top0 = n - 1;
  sc.rowsWeight = s;
  if (lastRow === s) {
    sc.last0 = n;
    sc.lossWeight = s - 1;
    sc.thresholdLast = -1;
    sc.thresholdColumns = 0;
    sc.mirrorLast = n;
    sc.mirrorColumns = 1;
    return;
  }
  sc.last0 = n - 1;
  const shiftedColumns = s - 1 - lastRow;
  sc.lossWeight = n > 1 && shiftedColumns > 0 ? shiftedColumns : 0;
  if (n > 1) {
    sc.thresholdLast = n - 1;
    sc.thresholdColumns = s - lastRow;
    sc.mirrorLast = n - 1;
    sc.mirrorColumns = 1;
  } else {
    sc.rowsWeight = lastRow;
    sc.thresholdLast = -1;
    sc.thresholdColumns = 0;
    sc.mirrorLast = -1;
    sc.mirrorColumns = 0;
  }
}

/**
 * First entries of the rotation by `step` modulo `P` (`0 <= step < P`) into a line ahead and a line behind (`B >= 2`
 * and at least two sets, `P >= 2B`: lines are 4 bytes or more, and one set is handled apart).
 */
function entries(sc: Scratch, step: number, P: number, B: number): void {
  const r = sc.rotation;
  reducedRotationEntries(step, P, B, r);
  sc.upUF = r[0];
  sc.upVF = r[1];
  sc.upUB = r[2];
  sc.upWB = r[3];
  // The backward rotation enters ahead where the forward one enters behind, and vice versa
  // (a zero displacement, a period of the rotation, is ahead for both).
  if (sc.upVF === 0) {
    sc.dnUF = sc.upUF;
    sc.dnVF = 0;
    sc.dnUB = -1;
    sc.dnWB = 0;
  } else {
    sc.dnUF = sc.upUB;
    sc.dnVF = sc.upWB;
    sc.dnUB = sc.upUF;
    sc.dnWB = sc.upVF;
  }
}

/**
 * The unit (bytes) of the positions of a column sweep's accesses within a line: `gcd(e, B)` for an
 * integer element size `e` (`0 < e < u`), that is `e`'s lowest set bit, which divides the sector
 * `u` and the line `B` (powers of two above `e`, as `CacheGeometry` has them); -1 for a
 * non-integer `e`. An element of `e` bytes starts at `j * e`, and `j * e mod B` takes every
 * multiple of the unit equally often over any `B / unit` consecutive elements.
 */
function positionUnit(e: number): number {
  return (e | 0) === e && e > 0 ? e & -e : -1;
}

/**
 * Accesses per array that continue a sector (the element before them, one column earlier, starts
 * in the same sector): all but the first element starting in each sector the array touches.
 */
function continuations(q: number, e: number, g: CacheGeometry): number {
  return q - 1 - Math.floor((q - 1) * e * g.invSector);
}

/**
 * Misses of the accesses that continue a sector (byte offset within the sector at least one element)
 * in a column sweep of `arrays` arrays of `q` elements of `e` bytes with rows of `s` elements
 * (`s * e >= line`), arrays `arrayBytes` apart. Returns -1 when the geometry is outside what this
 * evaluates (the caller then approximates): a non-integer element size, more than 256 element
 * positions per line (see {@link positionUnit}), more than 64 ways or arrays, arrays closer than a
 * line.
 */
export function columnReuseMisses(g: CacheGeometry, q: number, e: number, s: number, arrays: number, arrayBytes: number): number {
  const B = g.line;
  const u = g.sector;
  const A = g.assoc;
  const R = s * e;
  if (e >= u) return 0;
  const d = positionUnit(e);
  if (d < 0 || A > MAX_ASSOC || arrays > MAX_ARRAYS || R < B || arrayBytes < B) return -1;
  // One set, thrashing for certain: the exit of the one-set case below without the row count.
  // Every group's `last` is at least `rows - 2 >= q / s - 2`, so `arrays * (q - s) >= (A + 1) * s`
  // gives `arrays * lastMin + arrays - 1 >= A` (and more partners than ways, past the exit that
  // follows). Why first: most one-set sweeps (the TLB's) end here, and the division for the rows
  // and the values derived from it were most of their cost.
  if (g.sets === 1 && arrays * (q - s) >= (A + 1) * s) return q * arrays * (1 - e * g.invSector);
  const rows = Math.ceil(q / s);
  const lastRow = q - (rows - 1) * s;
  const full = lastRow === s;
  // Fewer partners than ways: every continuation hits. A row has at most `arrays * (last + 1) - 1`
  // (as in one set below): `arrays * rows - 1` in every column but the first of a sweep whose
  // last row is full, one more per array in its rows after the first (row 0 of column 0 starts
  // its array, hence a sector, and continues nothing).
  if (arrays * (full && rows > 1 ? rows + 1 : rows) <= A) return 0;
  const P = g.sets * B;
  const sc = scratch;
  // The largest and smallest `last` of the column groups (see addGroups), before building them:
  // most evaluations end at the bounds below.
  const lastMax = full ? rows : rows - 1;
  const lastMin = full ? (s > 1 ? rows - 1 : rows) : rows > 1 && s - 1 - lastRow > 0 ? rows - 2 : rows - 1;
  if (g.sets === 1) {
    // One set, every group thrashing (the one with the smallest `last` does): the sum below adds
    // every group's rows times columns, the `q` elements of the array. Why apart: most one-set
    // sweeps that get here end so, without building the groups.
    if (arrays * lastMin + arrays - 1 >= A) return q * arrays * (1 - e * g.invSector);
    addGroups(sc, rows, s, lastRow);
    // One set: every partner shares it, so every row of a column has the same number of them,
    // `arrays * last + arrays - 1` (its own array's other rows, the other arrays' rows including
    // the same row), and a whole column group either thrashes or fits.
    let missed = 0;
    for (let gi = 0; gi < sc.groups; gi++) if (arrays * sc.groupLast[gi] + arrays - 1 >= A) missed += sc.groupRows[gi] * sc.groupColumns[gi];
    // The continuations: a fraction 1 - e / u of the accesses (the positions within a sector at
    // or beyond one element). (e / u by the sector's exact reciprocal, a power of two.)
    return missed * arrays * (1 - e * g.invSector);
  }
  // B / d > MAX_OFFSETS, without the division (B / d is an integer, and MAX_OFFSETS * d exact).
  if (B > MAX_OFFSETS * d) return -1;
  // The row length modulo the set period, by a mask when the period is a power of two (why: `mod`
  // divides whenever the row is longer than the period, a twentieth of the time of the cache
  // benchmark's square-patch class; both give the same integer, R being positive).
  const periodBits = exactLog2(P);
  const up = periodBits >= 0 && (R | 0) === R ? R & (P - 1) : mod(R, P);
  // Partners each array gives a row at least, for every continuation to miss: a run of t rows
  // of any array holds at least floor(t / T) of its returns when none takes longer than T rows,
  // and a row's partners in each array span `last` rows, earlier and later: at least
  // floor(last / T) - 1 of them per array. The other arrays' rows start outside the line; they
  // reach it within T rows too when every orbit of the rotation passes through the line (the
  // orbits are the classes modulo gcd(up, P), all in the line when the gcd is at most B), else
  // only the array's own rows count.
  const need = arrays > 1 && (up === 0 ? P : gcd(up, P)) <= B ? Math.ceil(A / arrays) : A;
  // The exit below (every continuation misses) with the rotation's period for its largest return
  // time: every position is back after P / gcd(up, P) rows, so no return takes longer, and for a
  // power-of-two P and integer `up` the gcd is the lowest set bit of `up`. Why before the entries: with many rows
  // this weaker bound already decides, and the continued-fraction pass of the entries is a third
  // of such an evaluation.
  // (P / lowest bit by a shift: both are powers of two, the bit below P.)
  if (up > 0 && (up | 0) === up && periodBits >= 0 && lastMin >= (need + 1) * (P >> (31 - Math.clz32(up & -up)))) return arrays * continuations(q, e, g);
  entries(sc, up, P, B);
  // Bounds from the three-gap return times: every run of tMax consecutive rows holds a partner,
  // no two partners of a list are closer than tMin rows. The combined jump is needed only from
  // positions where neither single jump stays in the line, which exist iff vF + wB > B.
  const aperiodic = sc.upUB > 0 && sc.upVF > 0;
  const tMin = aperiodic ? Math.min(sc.upUF, sc.upUB) : sc.upUF;
  const tMax = !aperiodic ? sc.upUF : sc.upVF + sc.upWB > B ? sc.upUF + sc.upUB : Math.max(sc.upUF, sc.upUB);
  // Fewest partners of any row: every continuation misses.
  // (`floor(lastMin / tMax) - 1 >= need` for integers and tMax >= 1, without a division.)
  if (lastMin >= (need + 1) * tMax) return arrays * continuations(q, e, g);
  // Most partners of any row: every continuation hits (one array: `floor(lastMax / tMin) < A`).
  if (arrays === 1 ? lastMax < A * tMin : Math.floor(lastMax / tMin) + (arrays - 1) * (Math.floor((lastMax + 1) / tMin) + 2) < A) return 0;
  if (arrays === 1) return oneArrayMisses(sc, rows, s, lastRow, B, e, d, u, A, P, lastMin, lastMax);
  addGroups(sc, rows, s, lastRow);
  return walkedArraysMisses(sc, B, e, d, u, A, arrays, arrayBytes, P, up, rows);
}

/**
 * {@link columnReuseMisses} of one array past the bounds of the rotation's entries (in `sc`):
 * `rows` rows of `s` elements, the last holding `lastRow`, the groups' `last` from `lastMin` to
 * `lastMax`. Why a function apart: the bounds before it end most
 * evaluations, and V8 inlines into one function at most 920 bytes of bytecode; here the lattice
 * and line-rotation bounds inline instead of costing a call each on the evaluations that reach the
 * orbit sums, and the column groups are built only for the walk (the other counts take their
 * shapes in closed form, {@link sweepAccesses} and {@link planGroups}).
 */
function oneArrayMisses(sc: Scratch, rows: number, s: number, lastRow: number, B: number, e: number, d: number, u: number, A: number, P: number, lastMin: number, lastMax: number): number {
  // No `A` partners of any access within the rows, by the lattice of the entries.
  if (partnerSpanExceeds(sc.upUF, sc.upVF, sc.upUB, sc.upWB, P, B, e, A, lastMax)) return 0;
  // Returns that rotate the line: every continuation misses, decided in closed form (the same
  // count as every offset's, below, or the spans' of orbitMisses): all accesses of the column
  // groups at every position that continues a sector.
  if (lineRotationSpansWithin(sc.upUF, sc.upVF, sc.upUB, sc.upWB, B, e, d, A, lastMin + 1)) return (sweepAccesses(rows, s, lastRow) * continuingPositions(B, u, d, (e / d) | 0) * d) / B;
  // Every offset's lists from the orbit sums, when they cover the rotation.
  if (rows < MAX_SUM && startReturnOrbits(sc.orbits, sc.upUF, sc.upVF, sc.upUB, sc.upWB, sc.dnUF, sc.dnVF, sc.dnUB, sc.dnWB, B, d, A)) {
    return orbitMisses(sc, rows, s, lastRow, B, d, (e / d) | 0, u, A, lastMin | 0, lastMax | 0);
  }
  addGroups(sc, rows, s, lastRow);
  return walkedMisses(sc, B, e, d, u, A, rows);
}

/**
 * The accesses of the column groups {@link addGroups} builds for `rows` rows of `s` elements
 * whose last holds `lastRow`: each group's rows times its columns, summed group by group in the
 * order addGroups builds them (the same double as summing the built groups), without building them.
 */
function sweepAccesses(rows: number, s: number, lastRow: number): number {
  if (lastRow === s) return s > 1 ? 0 + rows * 1 + rows * (s - 1) : 0 + rows * 1;
  if (rows <= 1) return 0 + rows * lastRow;
  const all = 0 + rows * lastRow + (rows - 1) * 1;
  return s - 1 - lastRow > 0 ? all + (rows - 1) * (s - 1 - lastRow) : all;
}

/**
 * Positions of `d` bytes in a line of `B` that continue a sector of `u`: `k..u/d - 1` of each
 * sector, `k` positions to an element. (Int32 quotients: `d` divides the sector and the line.)
 */
function continuingPositions(B: number, u: number, d: number, k: number): number {
  const perSector = (u / d) | 0;
  return (((B / d) | 0) / perSector) * (perSector - k);
}

/**
 * {@link columnReuseMisses} of one array from the orbit sums just filled, on the element
 * positions of unit `d` bytes (see {@link positionUnit}), `k` of them to an element: the earlier
 * partners of position p are the backward returns from p, the later ones the forward returns from
 * p - k (the element before it). (A function apart from the walks below keeps each small enough
 * for V8 to inline its helpers: here the spans and the groups' accesses; the count over the
 * offsets is apart, {@link orbitOffsetsMisses}, and says why.)
 */
function orbitMisses(sc: Scratch, rows: number, s: number, lastRow: number, B: number, d: number, k: number, u: number, A: number, lastMin: number, lastMax: number): number {
  const allRows = sweepAccesses(rows, s, lastRow);
  const continuing = continuingPositions(B, u, d, k);
  // The spans are of one position's shift (the element is the unit).
  if (k === 1 && partnerSpans(sc.orbits, A, sc.spans)) {
    // No row of any group holds A partners (the first group's `last` is the largest), or every
    // row of every group does: the sum below would be 0, or all rows at every offset.
    if (sc.spans.shortestWidened > lastMax) return 0;
    if (sc.spans.longestNarrowed <= lastMin + 1) return (allRows * continuing * d) / B;
  }
  // The spans did not decide: the count below reads the padded sums of every element position.
  return orbitOffsetsMisses(sc, rows, s, lastRow, B, d, k, u, A, lastMin, allRows, continuing);
}

/**
 * {@link orbitMisses} counted offset by offset from the padded sums and the plan of the groups
 * (`allRows` the accesses of all groups, `continuing` the positions that continue a sector).
 *
 * The offset at position `p` has its earlier partners returning to `p` and its later ones to
 * `p - k`, the position of the element before it. Its {@link missingAccesses} are all the rows
 * when the `A`-th partners on both sides span at most `lastMin + 1` rows (then each band is whole
 * and the last reaches the group's end), else they follow from group 0's bands
 * ({@link bandRowsAndShift}) by the plan of {@link planGroups}; the first group has the most rows
 * and the largest `last`, so when none of its rows misses none of any group does (the common case
 * when rows are few for the ways).
 *
 * When the orbits are mirrored (see `ReturnOrbits.mirrored`), positions `p` and
 * `m = W - 1 - p + k` are counted together: the earlier list of `m` is the later list of `p` and
 * the other way round (continuations pair with continuations: the sector divides the line).
 * Swapping the lists and reading the rows backwards, `i -> last - i`, leaves the count over rows
 * `0..last` unchanged, so a group whose rows end at `last` counts the same rows and one whose
 * rows end at `last - 1` differs by its row `last`: it misses with all `A` earlier partners
 * (`E_A <= last`) and, mirrored, with all `A` later ones (`L_A <= last`). Why: half the offsets
 * then cost O(1) each instead of the bands. When they are uniform, every position has the same
 * lists, hence the same count: one position counts for all.
 *
 * Why an offset's count is written out in the loop, one loop for the three cases, rather than a
 * helper called per offset: this function then exceeds the 460 bytes of bytecode below which V8
 * inlines a callee, so it is compiled on its own in every run, and its own inlining budget takes
 * the bands, the plan and the padding of the sums. With a helper it would be small enough to be
 * inlined into orbitMisses in the runs that compile orbitMisses first, whose budget would then
 * leave the helper a call at every offset (and a call site per case would be an inlined copy per
 * case). About 1 to 2% on the cache benchmark's square-patch class.
 */
function orbitOffsetsMisses(sc: Scratch, rows: number, s: number, lastRow: number, B: number, d: number, k: number, u: number, A: number, lastMin: number, allRows: number, continuing: number): number {
  finishReturnOrbits(sc.orbits);
  planGroups(sc, rows, s, lastRow);
  const cum = sums;
  const orbits = sc.orbits;
  // Int32 (d divides the sector and the line): a remainder by a double would be a library call.
  const perSector = (u / d) | 0;
  const W = (B / d) | 0;
  // Positions below k start a sector (k < perSector). Mirrored, p up to pairSum / 2, its mirror
  // at or above it; uniform, p = k alone.
  const pairSum = W - 1 + k;
  const end = orbits.uniform ? k + 1 : orbits.mirrored ? (pairSum >> 1) + 1 : W;
  const mirrored = orbits.mirrored && !orbits.uniform;
  let sum = 0;
  // (`r` is p mod perSector, counted: why, an integer division per offset otherwise.)
  for (let p = k, r = k; p < end; p++, r = r + 1 === perSector ? 0 : r + 1) {
    if (r < k) continue;
    // With its mirror, unless that is p itself.
    const mirror = mirrored && 2 * p < pairSum;
    const j = sumIndex[p];
    const jl = sumIndex[p - k];
    const earliestA = cum[j] - cum[j - A];
    const latestA = cum[jl + A] - cum[jl];
    if (earliestA + latestA <= lastMin + 1) {
      sum += mirror ? 2 * allRows : allRows;
      continue;
    }
    // Group 0's rows times all columns, less the shifted group's loss and, once all `A` earlier
    // partners come by the threshold row, one row of the threshold's columns.
    const rows0 = bandRowsAndShift(sc, cum, j, jl, A, sc.top0, sc.last0);
    let missing = 0;
    if (rows0 !== 0) missing = rows0 * sc.rowsWeight - sc.shiftLoss * sc.lossWeight - (earliestA <= sc.thresholdLast ? sc.thresholdColumns : 0);
    if (mirror) {
      const last = sc.mirrorLast;
      missing = 2 * missing + ((earliestA <= last ? 1 : 0) - (latestA <= last ? 1 : 0)) * sc.mirrorColumns;
    }
    sum += missing;
  }
  if (orbits.uniform) sum *= continuing;
  return (sum * d) / B;
}

/**
 * {@link columnReuseMisses} by walking each offset's orbits (the rotations the orbit sums do not
 * cover; several arrays in {@link walkedArraysMisses}), from the rotation entries in `sc`.
 */
function walkedMisses(sc: Scratch, B: number, e: number, d: number, u: number, A: number, rows: number): number {
  const { upUF, upVF, upUB, upWB, dnUF, dnVF, dnUB, dnWB } = sc;
  let total = 0;
  let earlierMax = -1;
  let laterMax = -1;
  let lastMissing = 0;
  let nE = 0;
  let nL = 0;
  for (let o = d; o < B; o += d) {
    if (o % u < e) continue;
    // Earlier partners: the rows at -k*R (k >= 1); later partners: the rows at k*R - e (k >= 1).
    // A list whose orbit starts within the range that fills it as for the last offset is that
    // list again (offsets only grow, so the upper bounds alone decide); with both lists
    // unchanged, so are the rows that miss.
    const sameEarlier = o <= earlierMax;
    const sameLater = o - e <= laterMax;
    if (sameEarlier && sameLater) {
      total += lastMissing;
      continue;
    }
    if (!sameEarlier) {
      nE = ownReturns(sc.earlier, A, dnUF, dnVF, dnUB, dnWB, o, B, rows);
      earlierMax = sc.startMax;
    }
    if (!sameLater) {
      nL = ownReturns(sc.later, A, upUF, upVF, upUB, upWB, o - e, B, rows);
      laterMax = sc.startMax;
    }
    lastMissing = missingAccesses(sc, nE, nL, A);
    total += lastMissing;
  }
  // Each row's accesses visit every position equally often over the columns (see positionUnit).
  return (total * d) / B;
}

/**
 * {@link walkedMisses} of several arrays. The partners of array `a`'s access at offset `o` are its
 * own rows' and, for each other array `b`, the rows of `b` at `(b - a)*span - k*R` (earlier,
 * `k >= 0` if `b < a`, else `k >= 1`) and `(b - a)*span + k*R - e` (later, `k >= 0` if `b > a`):
 * lists that depend on the distance `b - a` alone. So each offset's lists are walked once per
 * distance and merged per array, instead of walked once per pair of arrays (why: 64 arrays take
 * 4032 pairs per offset, and a walk starts with a Euclid-like search).
 */
function walkedArraysMisses(sc: Scratch, B: number, e: number, d: number, u: number, A: number, arrays: number, arrayBytes: number, P: number, up: number, rows: number): number {
  const { upUF, upVF, upUB, upWB, dnUF, dnVF, dnUB, dnWB } = sc;
  const down = mod(P - up, P);
  const zero = MAX_ARRAYS - 1;
  let total = 0;
  for (let o = d; o < B; o += d) {
    if (o % u < e) continue;
    const ownE = ownReturns(sc.ownEarlier, A, dnUF, dnVF, dnUB, dnWB, o, B, rows);
    const ownL = ownReturns(sc.ownLater, A, upUF, upVF, upUB, upWB, o - e, B, rows);
    // With its own list full, an array keeps no other array's partner at or beyond its A-th own
    // one (the merge drops it): the other lists stop short of it.
    const kMaxE = ownE === A ? sc.ownEarlier[A] - 1 : rows;
    const kMaxL = ownL === A ? sc.ownLater[A] - 1 : rows;
    for (let delta = 1 - arrays; delta < arrays; delta++) {
      if (delta === 0) continue;
      const off = (((delta * arrayBytes) % P) + P) % P;
      sc.otherEarlierCount[zero + delta] = otherReturns(sc.otherEarlier[zero + delta], A, down, (o + off) % P, P, B, delta < 0 ? 0 : 1, kMaxE, dnUF, dnVF, dnUB, dnWB);
      sc.otherLaterCount[zero + delta] = otherReturns(sc.otherLater[zero + delta], A, up, (o - e + off) % P, P, B, delta > 0 ? 0 : 1, kMaxL, upUF, upVF, upUB, upWB);
    }
    for (let a = 0; a < arrays; a++) {
      for (let i = 1; i <= ownE; i++) sc.earlier[i] = sc.ownEarlier[i];
      for (let i = 1; i <= ownL; i++) sc.later[i] = sc.ownLater[i];
      let nE = ownE;
      let nL = ownL;
      for (let delta = -a; delta < arrays - a; delta++) {
        if (delta === 0) continue;
        nE = mergeReturns(sc.earlier, nE, A, sc.otherEarlier[zero + delta], sc.otherEarlierCount[zero + delta]);
        nL = mergeReturns(sc.later, nL, A, sc.otherLater[zero + delta], sc.otherLaterCount[zero + delta]);
      }
      total += missingAccesses(sc, nE, nL, A);
    }
  }
  // Each row's accesses visit every position equally often over the columns (see positionUnit).
  return (total * d) / B;
}

/**
 * Merges the sorted returns `from[1..count]` into `list[1..len]` (sorted, at most `assoc`
 * entries, the nearest kept; partners of several arrays at the same distance are all kept).
 * Returns the new length.
 */
function mergeReturns(list: Float64Array, len: number, assoc: number, from: Float64Array, count: number): number {
  for (let i = 1; i <= count; i++) {
    const k = from[i];
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

/**
 * Sets the column groups (rows present, last row index reachable by later partners, columns) of
 * a sweep with `rows >= 1` rows of `s` elements whose last row holds `lastRow` (`1..s`): column
 * 0; columns `1..lastRow - 1`; column `lastRow` (if `< s`); columns `lastRow + 1..s - 1`, adjacent
 * groups with the same rows and `last` merged (the same rows then miss). Their `last` never
 * increases from one group to the next, and every group has `last` or `last + 1` rows
 * (`last - 1 <= top <= last`), as the band count from the orbit sums ({@link bandRowsAndShift}) and the
 * partner spans (a row's partners within `last + 1` rows holding it) assume. {@link planGroups}
 * and {@link sweepAccesses} count from these shapes in closed form: the three change together.
 */
function addGroups(sc: Scratch, rows: number, s: number, lastRow: number): void {
  const groupRows = sc.groupRows;
  const groupLast = sc.groupLast;
  const groupColumns = sc.groupColumns;
  let n = 0;
  if (lastRow === s) {
    // Every column has all rows; column 0's later partners (previous column: the last of the
    // previous pass) reach row `rows`, the others' row `rows - 1`.
    groupRows[n] = rows;
    groupLast[n] = rows;
    groupColumns[n++] = 1;
    if (s > 1) {
      groupRows[n] = rows;
      groupLast[n] = rows - 1;
      groupColumns[n++] = s - 1;
    }
  } else {
    // Column 0 and columns 1..lastRow - 1 (merged): all rows, later partners up to row rows - 1.
    groupRows[n] = rows;
    groupLast[n] = rows - 1;
    groupColumns[n++] = lastRow;
    if (rows > 1) {
      groupRows[n] = rows - 1;
      groupLast[n] = rows - 1;
      groupColumns[n++] = 1;
      if (s - 1 - lastRow > 0) {
        groupRows[n] = rows - 1;
        groupLast[n] = rows - 2;
        groupColumns[n++] = s - 1 - lastRow;
      }
    }
  }
  sc.groups = n;
}
