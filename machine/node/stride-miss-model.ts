/**
 * The analytical, stride-dependent miss model: steady-state misses of one cache level for one
 * pass of a kernel's address stream (see `kernel.ts` for the exact stream), without allocation.
 * Against the trace-driven LRU reference (see the README's list, and the accuracy tests) it is
 * exact for sequential sweeps of one array of elements that divide the line or exceed it. In
 * column sweeps whose rows are a line or more apart it counts the accesses that continue a sector
 * partner by partner (exact for long columns, any number of arrays and element size), and the
 * sector starts from the set overload of the whole footprint, as if each line's last touch were a
 * whole pass back (off for rows a few lines long and for elements larger than a sector). It
 * predicts the expectation of the random pattern.
 *
 * How it reasons, per level (line B, sector u, S sets of A ways, LRU):
 * - **Capacity and set conflicts of the whole footprint.** The lines the pass touches are spread
 *   over the sets they map to (all sets for contiguous data; `S*B/gcd(stride, S*B)` sets when
 *   elements or rows sit a large power-of-two stride apart). A set holding more than A of them is
 *   swept cyclically, so under LRU none of its lines survives to the next pass; a set holding at
 *   most A keeps them all. `fFit` is the fraction of lines in overloaded sets; with `fFit = 0`
 *   the arrays stay resident and the pass misses nothing. A sequential pass fetches each sector
 *   of an overloaded set once.
 * - **Column sweeps with rows a line or more apart** (`column-reuse.ts`): the first access to a
 *   sector misses unless retained from the last pass (`fFit`); every other access continues the
 *   line its row touched one column earlier and hits iff fewer than A of the lines touched in
 *   between share its set, which is counted exactly from the rotation of the row length modulo
 *   the set period (LRU on a cyclic sweep is all-or-nothing, so averages do not do).
 * - **Column sweeps with shorter rows**: every line holds an element of every column, so a line
 *   and each of its sectors a column touches miss iff its set is overloaded by the lines touched
 *   since the previous column; the partial last line counts only after the columns it holds.
 * - **Random** access is evaluated set by set (`random-access.ts`).
 *
 * The TLB is evaluated by the same function as a one-set cache whose lines are pages ("TLB reach").
 * The arrays start on a line of up to 128 bytes but, after the first, inside a page: several
 * arrays through the TLB (any one-set cache of larger lines) are counted from the pages their
 * addresses touch (`unaligned-pages.ts`), exactly where those pages fit the entries and in the
 * band of a few pages per array beyond; further beyond, the counts below treat the arrays as
 * page-aligned (within 0.01 of the reference on the accuracy tests' grids).
 *
 * @packageDocumentation
 */
import type { CacheGeometry } from "./geometry.js";
import { arraySpan } from "./kernel.js";
import { gcd, modInverse, nextInWindow } from "./modular.js";
import { columnReuseMisses } from "./column-reuse.js";
import { randomMisses } from "./random-access.js";
import { unalignedOneSetMisses } from "./unaligned-pages.js";
import { scatteredOverload } from "./scattered-lines.js";

/** Pattern codes used on the hot path (strings are mapped once per call). */
export const PATTERN_SEQUENTIAL = 0;
/** See {@link PATTERN_SEQUENTIAL}. */
export const PATTERN_STRIDED = 1;
/** See {@link PATTERN_SEQUENTIAL}. */
export const PATTERN_RANDOM = 2;

// The patterns again under this module's own names, for its functions. Why: V8 reads an exported
// binding through its module cell at every use, a load on every evaluation through the exported
// names (about 2% of the cache benchmark's square-patch class); a module's own constant it
// compiles in.
const SEQUENTIAL = PATTERN_SEQUENTIAL;
const STRIDED = PATTERN_STRIDED;
const RANDOM = PATTERN_RANDOM;

/**
 * Fraction of `n` lines that land in sets holding more than `assoc` lines, when the `n` lines are
 * spread as evenly as possible over `sets` sets.
 */
export function overloadFraction(n: number, sets: number, assoc: number): number {
  if (n <= 0 || sets <= 0) return 0;
  if ((n | 0) === n && (sets | 0) === sets && (assoc | 0) === assoc && assoc >= 0 && sets < 65536 && assoc < 65536) {
    // Integers whose products below are exact: the expression below, without its two divisions
    // (why: every strided and sequential evaluation takes this fraction). With q = floor(n / sets)
    // lines per set, q < assoc overloads nothing (0), q > assoc every line (over = n: 1), and
    // q = assoc the rem = n - assoc * sets sets holding one more.
    if (n <= assoc * sets) return 0;
    if (n >= (assoc + 1) * sets) return 1;
    return ((n - assoc * sets) * (assoc + 1)) / n;
  }
  // Why apart: this function is inlined several times per evaluation, and the optimiser's
  // inlining budget is counted in bytecode; the general form is rarely taken.
  return overloadFractionByDivision(n, sets, assoc);
}

/** {@link overloadFraction} for any positive `n` and `sets`, with its divisions. */
function overloadFractionByDivision(n: number, sets: number, assoc: number): number {
  const q = Math.floor(n / sets);
  const rem = n - q * sets;
  let over = 0;
  if (q + 1 > assoc) over += rem * (q + 1);
  if (q > assoc) over += (sets - rem) * q;
  return over / n;
}

/**
 * Distinct sets covered by `n` lines per array at addresses `base_a + k*strideBytes`
 * (`strideBytes >= line`), for `arrays` arrays whose bases are `arrayBytes` apart.
 */
export function setsCovered(g: CacheGeometry, n: number, strideBytes: number, arrays: number, arrayBytes: number): number {
  const period = g.sets * g.line;
  const s = strideBytes % period;
  const gs = gcd(s === 0 ? period : s, period);
  if (gs <= g.line) return Math.min(g.sets, n * arrays);
  const perArray = Math.min(n, period / gs);
  // Arrays whose bases are congruent modulo gs (at line granularity) share the same sets.
  let classes = 0;
  for (let a = 0; a < arrays; a++) {
    const ca = Math.floor(((a * arrayBytes) % gs) / g.line);
    let seen = false;
    for (let b = 0; b < a; b++) {
      if (Math.floor(((b * arrayBytes) % gs) / g.line) === ca) {
        seen = true;
        break;
      }
    }
    if (!seen) classes++;
  }
  return Math.min(g.sets, perArray * classes);
}

// Scratch for the column-conflict sweep: partner offsets (lines), their existence weights and breakpoints.
// Preallocated once so that evaluating a level allocates nothing.
const MAX_PARTNERS = 24;
/** Above this many partners the sweep is replaced by its mean field (the count concentrates). */
const SWEEP_PARTNERS = 12;
const partnerOffset = new Float64Array(MAX_PARTNERS);
const partnerWeight = new Float64Array(MAX_PARTNERS);
const breaks = new Float64Array(2 * MAX_PARTNERS + 2);

/**
 * Whether the set holding a row at line offset `x` is overloaded: the expected number of partners
 * sharing it (existence weights summed) against the associativity, interpolated linearly between
 * A - 1 (fits) and A (one too many) so that partial existence counts partially.
 */
function overloadAt(count: number, x: number, assoc: number): number {
  let m = 0;
  for (let j = 0; j < count; j++) {
    const d = partnerOffset[j];
    if (x + d >= 0 && x + d < 1) m += partnerWeight[j];
  }
  return Math.min(1, Math.max(0, m - assoc + 1));
}

/** Overload from the expected number of partners sharing a row's set, averaged over line offsets. */
function meanFieldOverload(count: number, assoc: number): number {
  let m = 0;
  for (let j = 0; j < count; j++) m += partnerWeight[j] * (1 - Math.abs(partnerOffset[j]));
  return Math.min(1, Math.max(0, m - assoc + 1));
}

/**
 * Fraction of a column's accesses whose line shares its set with `assoc` or more other lines of
 * the same column sweep, for rows `R` bytes apart that are not line-aligned modulo the set period
 * (`gcd(R, S*B) < B`). A partner row `Delta` rows away (in this or another array) whose position
 * falls within one line of this row's, modulo the set period, shares its set for a fraction
 * `1 - |rho|/B` of line offsets (`rho` the residual distance). Partners are found with a
 * Euclid-like search (no scan over rows); the exact overlap pattern is then integrated over the
 * line offset, which the column index sweeps uniformly. Returns -1 when there are too many
 * partners for the sweep (the caller then assumes an even spread, accurate in that regime).
 */
function columnConflictFraction(g: CacheGeometry, rows: number, R: number, arrays: number, arrayBytes: number): number {
  const P = g.sets * g.line;
  const B = g.line;
  const a = R % P;
  // Expected partners under an even spread: with many, the even spread itself is accurate (and the sweep slow).
  if (((2 * rows - 1) * arrays * (2 * B - 1)) / P > 4 * g.assoc + 8) return -1;
  let count = 0;
  let capped = false;
  const perDirection = MAX_PARTNERS / (2 * arrays);
  for (let arr = 0; arr < arrays; arr++) {
    // Partner positions relative to row 0 of array 0: arr * arrayBytes + Delta * R, |Delta| < rows.
    // Search outward in both directions so that the nearest (most often present) partners come first.
    const offset = (arr * arrayBytes) % P;
    for (let dir = 0; dir < 2; dir++) {
      const step = dir === 0 ? a : (P - a) % P;
      let found = 0;
      let x = nextInWindow(step, offset, P, P - B + 1, B - 1, arr === 0 || dir === 1 ? 1 : 0);
      while (x >= 0 && x < rows) {
        if (found >= perDirection) {
          capped = true;
          break;
        }
        let rho = (((x * step + offset) % P) + P) % P;
        if (rho > P / 2) rho -= P;
        partnerOffset[count] = rho / B;
        partnerWeight[count++] = (rows - x) / rows;
        found++;
        x = nextInWindow(step, offset, P, P - B + 1, B - 1, x + 1);
      }
    }
  }
  // Many near neighbours: the count at any offset concentrates; its mean over offsets (a lower
  // bound, the search stopped at the nearest ones in each direction) decides.
  if (capped) return meanFieldOverload(count, g.assoc);
  if (count < g.assoc) return 0;
  if (count > SWEEP_PARTNERS) return meanFieldOverload(count, g.assoc);
  // Sweep the line offset x in [0, 1): the set of colliding partners changes only at breakpoints.
  let nb = 0;
  breaks[nb++] = 0;
  breaks[nb++] = 1;
  for (let j = 0; j < count; j++) {
    const a = -partnerOffset[j];
    const b = 1 - partnerOffset[j];
    if (a > 0 && a < 1) breaks[nb++] = a;
    if (b > 0 && b < 1) breaks[nb++] = b;
  }
  // Insertion sort: at most a few dozen breakpoints.
  for (let i = 1; i < nb; i++) {
    const v = breaks[i];
    let j = i - 1;
    while (j >= 0 && breaks[j] > v) {
      breaks[j + 1] = breaks[j];
      j--;
    }
    breaks[j + 1] = v;
  }
  let total = 0;
  for (let i = 0; i + 1 < nb; i++) {
    const w = breaks[i + 1] - breaks[i];
    if (w <= 0) continue;
    total += w * overloadAt(count, (breaks[i] + breaks[i + 1]) / 2, g.assoc);
  }
  return total;
}

/** Column working-set overload: exact set counting for line-aligned rows, the conflict sweep otherwise. */
function columnOverload(g: CacheGeometry, rows: number, R: number, arrays: number, arrayBytes: number): number {
  const period = g.sets * g.line;
  const rs = R % period;
  const aligned = gcd(rs === 0 ? period : rs, period) >= g.line;
  const f = aligned ? alignedOverload(g, rows, R, arrays, arrayBytes) : columnConflictFraction(g, rows, R, arrays, arrayBytes);
  return f >= 0 ? f : overloadFraction(rows * arrays, setsCovered(g, rows, R, arrays, arrayBytes), g.assoc);
}

const runStart = new Float64Array(65);
const runArray = new Float64Array(65);
const runBreaks = new Float64Array(132);

/**
 * Fraction of lines in overloaded sets when runs of `n` consecutive positions on a circle of `M`
 * positions (each position one set) start at `runStart[0..runs-1]`: every run adds floor(n/M) to
 * all positions and one more to (n mod M) positions from its start; loads add where runs overlap.
 */
function runsOverload(M: number, n: number, runs: number, assoc: number): number {
  const full = Math.floor(n / M);
  const rem = n - full * M;
  let nb = 0;
  runBreaks[nb++] = 0;
  for (let a = 0; a < runs; a++) {
    runBreaks[nb++] = runStart[a];
    runBreaks[nb++] = (runStart[a] + rem) % M;
  }
  // Insertion sort: at most 2 * 64 + 1 breakpoints.
  for (let i = 1; i < nb; i++) {
    const v = runBreaks[i];
    let j = i - 1;
    while (j >= 0 && runBreaks[j] > v) {
      runBreaks[j + 1] = runBreaks[j];
      j--;
    }
    runBreaks[j + 1] = v;
  }
  let over = 0;
  for (let i = 0; i < nb; i++) {
    const from = runBreaks[i];
    const to = i + 1 < nb ? runBreaks[i + 1] : M;
    if (to <= from) continue;
    let load = runs * full;
    for (let a = 0; a < runs; a++) if ((from - runStart[a] + M) % M < rem) load++;
    if (load > assoc) over += (to - from) * load;
  }
  return over / (n * runs);
}

/**
 * Overload fraction of `n` lines per array at `base_a + k * strideBytes` when the stride is
 * line-aligned modulo the set period (`gcd(stride, S*B) >= B`): the positions of one array form a
 * run in the cyclic group of `S*B/gcd` sets (indexed by k); arrays in the same residue class are
 * shifted runs of it, arrays in other classes use disjoint sets. Returns -1 for unaligned strides.
 */
export function alignedOverload(g: CacheGeometry, n: number, strideBytes: number, arrays: number, arrayBytes: number): number {
  const P = g.sets * g.line;
  const sr = strideBytes % P;
  const gs = gcd(sr === 0 ? P : sr, P);
  if (gs < g.line || arrays > 64) return -1;
  const M = P / gs;
  // One array is one run: the even spread over its M sets is exact (and needs no inverse).
  if (arrays === 1) return overloadFraction(n, Math.min(n, M), g.assoc);
  const inv = modInverse(sr / gs, M);
  let over = 0;
  for (let a = 0; a < arrays; a++) runArray[a] = -1;
  for (let a = 0; a < arrays; a++) {
    if (runArray[a] >= 0) continue;
    const cls = Math.floor(((a * arrayBytes) % P % gs) / g.line);
    let runs = 0;
    for (let b = a; b < arrays; b++) {
      const off = (b * arrayBytes) % P;
      if (Math.floor((off % gs) / g.line) !== cls) continue;
      runArray[b] = 1;
      runStart[runs++] = M === 1 ? 0 : (Math.floor(off / gs) * inv) % M;
    }
    over += runsOverload(M, n, runs, g.assoc) * runs;
  }
  return over / arrays;
}

/** Fraction of arrays that share their sets with more than `assoc` others at the same index (ping-pong). */
function pingPongFraction(g: CacheGeometry, arrays: number, arrayBytes: number): number {
  // Why the count apart: this is inlined into every evaluation (whose inlining budget is counted
  // in bytecode) and almost always ends here.
  if (arrays <= g.assoc) return 0;
  return crowdedFraction(g, arrays, arrayBytes);
}

/** {@link pingPongFraction} counted array by array. */
function crowdedFraction(g: CacheGeometry, arrays: number, arrayBytes: number): number {
  const P = g.sets * g.line;
  let over = 0;
  for (let a = 0; a < arrays; a++) {
    const ca = Math.floor(((a * arrayBytes) % P) / g.line);
    let same = 0;
    for (let b = 0; b < arrays; b++) if (Math.floor(((b * arrayBytes) % P) / g.line) === ca) same++;
    if (same > g.assoc) over++;
  }
  return over / arrays;
}

/**
 * Misses of one pass of the random pattern (see {@link levelMissesPerPass}): set by set where
 * `random-access.ts` covers the layout, else from the expected number of distinct lines touched.
 */
function randomPassMisses(g: CacheGeometry, q: number, e: number, arrays: number): number {
  const arrayBytes = arraySpan(q, e);
  const setwise = randomMisses(g, q, e, arrays, arrayBytes);
  if (setwise >= 0) return Math.min(q * arrays, setwise);
  return distinctLinesRandomMisses(g, q, e, arrays, arrayBytes);
}

/**
 * `1 - exp(-y)`, as that expression computes it. For `y > 40`, `exp(-y) < 4.3e-18`, less than half
 * an ulp below 1 (2^-54 = 5.6e-17), so the difference rounds to exactly 1. Why skip the
 * exponential there: it is a library call, and arrays that fit their cache give an infinite `y`.
 */
function oneMinusExpNeg(y: number): number {
  return y > 40 ? 1 : 1 - Math.exp(-y);
}

/**
 * Misses of one pass of the random pattern from the expected number of distinct lines touched
 * (layouts that `random-access.ts` does not evaluate set by set, e.g. arrays not line-aligned
 * with one another, or the TLB, whose pages the arrays' skew leaves unaligned).
 */
function distinctLinesRandomMisses(g: CacheGeometry, q: number, e: number, arrays: number, arrayBytes: number): number {
  const accesses = q * arrays;
  // LRU under uniform random access keeps a line while it is touched at least every T
  // accesses, where T makes the expected number of distinct lines equal the capacity (forever
  // when the lines fit: the steady state of many passes, see kernel.ts). A sector is present if
  // touched since its line's fill (a geometric number of line touches back).
  const B = g.line;
  const u = g.sector;
  const bytes = q * e;
  // Multiplied by the exact reciprocals: the same numbers as dividing (see CacheGeometry.invLine).
  const linesPerArray = e >= B ? q : Math.ceil(bytes * g.invLine);
  const ping = pingPongFraction(g, arrays, arrayBytes);
  const lines = linesPerArray * arrays;
  // The lines' sets hold them: elements a power-of-two number of lines long reach only some sets.
  // (One set: all of it, without the count; size / B by the line's exact reciprocal.)
  const capacity = g.sets === 1 ? g.size * g.invLine : g.assoc * setsCovered(g, linesPerArray, e >= B ? e : B, arrays, arrayBytes);
  const T = capacity >= lines ? Infinity : -lines * Math.log(1 - capacity / lines);
  // 1 - exp(-T / lines): (-T) / lines and -(T / lines) are the same double (rounding is symmetric).
  const h = oneMinusExpNeg(T / lines);
  // Units of a line touched apart: with one (a touch fills the whole line) the expression
  // 1 - 1 / max(1, B / unit) is exactly 0 for a positive line. Why tested first: it saves two divisions.
  const unit = Math.max(e, u);
  const x = unit >= B && B > 0 ? 0 : 1 - 1 / Math.max(1, B / unit);
  const sectorPresent = 1 - ((1 - h) * x) / (1 - h * x);
  return accesses * (ping + (1 - ping) * (1 - h * sectorPresent));
}

/**
 * Steady-state misses (sector fills) of one level during one pass of a kernel's stream.
 * @param g - level geometry
 * @param q - elements per array
 * @param e - element size (bytes)
 * @param arrays - arrays walked together
 * @param pattern - {@link PATTERN_SEQUENTIAL}, {@link PATTERN_STRIDED} or {@link PATTERN_RANDOM}
 * @param stride - stride in elements (strided only)
 * @returns misses per pass (a real number; at most `q * arrays`)
 */
export function levelMissesPerPass(g: CacheGeometry, q: number, e: number, arrays: number, pattern: number, stride: number): number {
  if (q <= 0) return 0;
  // Why a dispatcher over two functions: each pattern's path is then optimised on its own, with
  // its own inlining budget and type feedback, instead of one large function whose budget the
  // sweeps spend and whose code deoptimises as the callers alternate between patterns.
  if (pattern === RANDOM) return randomPassMisses(g, q, e, arrays);
  return sweepPassMisses(g, q, e, arrays, pattern, stride);
}

/**
 * {@link levelMissesPerPass} of the sequential and strided patterns. Why split (this head for one
 * contiguous array, {@link layoutSweepMisses} for the other layouts, {@link approximateSweepMisses}
 * outside the exact cases): V8 inlines a function only below 460 bytes of bytecode, and this
 * head, which every sweep takes, then fits into its callers; the other paths are rarely taken,
 * and their bytecode would count against the budget on every call.
 */
function sweepPassMisses(g: CacheGeometry, q: number, e: number, arrays: number, pattern: number, stride: number): number {
  const B = g.line;
  const bytes = q * e;
  // Multiplied by the exact reciprocals: the same numbers as dividing (see CacheGeometry.invLine).
  const linesPerArray = e >= B ? q : Math.ceil(bytes * g.invLine);
  const unitsPerArray = e >= g.sector ? q : Math.ceil(bytes * g.invSector);
  // The fit of one contiguous array, or -1.
  let oneArrayFit = -1;
  if (arrays === 1 && e < B) {
    // One contiguous array (the common case, kept short): its lines spread evenly over the sets.
    const lines = linesPerArray;
    const fit = overloadFraction(lines, lines < g.sets ? lines : g.sets, g.assoc);
    if (fit === 0) return 0;
    if (pattern === SEQUENTIAL || stride <= 1) return fit * unitsPerArray;
    // With whole sets and lines, alignedOverload reduces to this very expression (a line stride
    // has gcd B with the period: one run over all S sets). Why reuse it: recomputing it costs a
    // gcd and a second overload fraction on every strided evaluation.
    if (Number.isInteger(g.sets) && Number.isInteger(B)) {
      if (pattern === STRIDED) {
        // One array, strided: what layoutSweepMisses computes for it (no pages to follow, and
        // one array ping-pongs in no set of at least one way), without its general steps.
        const arrayBytes = arraySpan(q, e);
        if (stride * e >= B) {
          // Rows a line or more apart: sector starts miss unless retained from the last pass;
          // the other accesses continue the line of the previous column and are counted exactly.
          const reuse = columnReuseMisses(g, q, e, stride, 1, arrayBytes);
          if (reuse >= 0) return Math.min(q, fit * unitsPerArray + reuse);
        }
        return approximateSweepMisses(g, q, e, 1, stride, arrayBytes, fit, pingPongFraction(g, 1, arrayBytes), unitsPerArray);
      }
      oneArrayFit = fit;
    }
  }
  return layoutSweepMisses(g, q, e, arrays, pattern, stride, linesPerArray, unitsPerArray, oneArrayFit);
}

/**
 * {@link sweepPassMisses} of any layout, given its lines and sectors per array and the fit of one
 * contiguous array (-1 unless it applies).
 */
function layoutSweepMisses(g: CacheGeometry, q: number, e: number, arrays: number, pattern: number, stride: number, linesPerArray: number, unitsPerArray: number, oneArrayFit: number): number {
  const B = g.line;
  const arrayBytes = arraySpan(q, e);
  // Several arrays through a one-set cache of lines above 128 bytes (the TLB): the skewed arrays
  // start inside a line, so their lines are counted from the addresses (see unaligned-pages.ts).
  if (g.sets === 1 && arrays > 1) {
    const m = unalignedOneSetMisses(g, q, e, arrays, pattern === STRIDED ? stride : 1, arrayBytes);
    if (m >= 0) return m;
  }
  const accesses = q * arrays;
  const ping = pingPongFraction(g, arrays, arrayBytes);
  const fFit = oneArrayFit >= 0 ? oneArrayFit : severalArraysFit(g, q, e, arrays, arrayBytes, linesPerArray);
  if (fFit === 0) return 0;

  if (pattern !== STRIDED || stride <= 1) {
    // Arrays that ping-pong in their sets miss on every access; the others once per sector.
    return ping * accesses + (1 - ping) * fFit * unitsPerArray * arrays;
  }

  if (stride * e >= B) {
    // Rows a line or more apart: sector starts miss unless retained from the last pass; the other
    // accesses continue the line of the previous column and are counted exactly.
    const reuse = columnReuseMisses(g, q, e, stride, arrays, arrayBytes);
    if (reuse >= 0) return Math.min(accesses, fFit * unitsPerArray * arrays + reuse);
  }
  return approximateSweepMisses(g, q, e, arrays, stride, arrayBytes, fFit, ping, unitsPerArray);
}

/**
 * The fraction of the lines of `arrays` arrays (`linesPerArray` lines each) in overloaded sets,
 * for the layouts {@link sweepPassMisses} does not take as one contiguous array.
 */
function severalArraysFit(g: CacheGeometry, q: number, e: number, arrays: number, arrayBytes: number, linesPerArray: number): number {
  const B = g.line;
  let fFit = alignedOverload(g, linesPerArray, e >= B ? e : B, arrays, arrayBytes);
  // Elements larger than a line and not a whole number of lines touch an uneven share of each set's lines.
  if (fFit < 0 && e > B) fFit = scatteredOverload(g, q, e, arrays, arrayBytes);
  if (fFit < 0) fFit = overloadFraction(linesPerArray * arrays, Math.min(g.sets, linesPerArray * arrays), g.assoc);
  return fFit;
}

/**
 * {@link sweepPassMisses} of a strided sweep (`stride > 1`) that `columnReuseMisses` does not
 * count: rows shorter than a line (exact, {@link shortRowMisses}, where the elements divide the
 * line and the arrays ping-pong in no set) and, approximated, the geometries it leaves out.
 */
function approximateSweepMisses(g: CacheGeometry, q: number, e: number, arrays: number, stride: number, arrayBytes: number, fFit: number, ping: number, unitsPerArray: number): number {
  const B = g.line;
  if (stride * e < B && B % e === 0 && ping === 0) return shortRowMisses(g, q, e, stride, arrays, arrayBytes, fFit) * arrays;
  return averagedSweepMisses(g, q, e, arrays, stride, arrayBytes, fFit, ping, unitsPerArray);
}

/**
 * {@link approximateSweepMisses} outside the exact cases. Why apart: the head above, which the
 * TLB's short rows take, is then small enough for V8 to inline into its callers.
 */
function averagedSweepMisses(g: CacheGeometry, q: number, e: number, arrays: number, stride: number, arrayBytes: number, fFit: number, ping: number, unitsPerArray: number): number {
  const B = g.line;
  const u = g.sector;
  const accesses = q * arrays;
  const R = stride * e;
  // Outside the exact cases (rows shorter than a line whose elements do not divide it or whose
  // arrays ping-pong in their sets, more than 64 ways or 256 element positions per line): averaged
  // set-overload fractions of the column's working set.
  const rows = Math.ceil(q / stride);
  let fCol: number;
  if (R >= B) {
    // Columns [0, lastRow) have `rows` rows, the others one fewer (the last row is partial).
    const lastRow = q - (rows - 1) * stride;
    const full = columnOverload(g, rows, R, arrays, arrayBytes);
    // The one-row difference only matters for short columns (it decides, e.g., whether 64 rows fit 64 TLB entries).
    fCol = lastRow === stride || rows === 1 || rows > 256 ? full : (lastRow * rows * full + (stride - lastRow) * (rows - 1) * columnOverload(g, rows - 1, R, arrays, arrayBytes)) / q;
  } else {
    fCol = Math.max(fFit, ping);
  }
  let firsts: number;
  let visits: number;
  if (R >= u) {
    // Each access is its own visit; a row of R bytes overlaps (R + u - gcd(R, u)) / u sectors.
    firsts = Math.min(q, Math.max(unitsPerArray, (rows * (R + u - gcd(R, u))) / u));
    visits = q;
  } else {
    // Rows share sectors: each column touches every sector once, in bursts.
    firsts = unitsPerArray;
    visits = Math.min(q, stride * unitsPerArray);
  }
  const burstBreak = R >= u ? 0 : ping * (q - visits);
  return Math.min(accesses, (fFit * firsts + fCol * (visits - firsts) + burstBreak) * arrays);
}

/**
 * Misses per array of a column sweep whose rows are shorter than a line (`s * e < B`): every line
 * holds an element of every column, so the first touch of a line in a column comes one column
 * after its last touch, with every other line of the arrays touched in between; it (and each
 * further sector of the line the column touches) misses iff the line's set holds more than
 * `assoc` lines. The last, partial line holds only some columns: it counts in the sets' load only
 * for the columns that follow one of its columns.
 */
function shortRowMisses(g: CacheGeometry, q: number, e: number, s: number, arrays: number, arrayBytes: number, fFit: number): number {
  const B = g.line;
  const u = g.sector;
  const perLine = B / e;
  // q / perLine, exactly (e divides the line, a power of two), by the line's exact reciprocal.
  const full = Math.floor(q * e * g.invLine);
  const tail = q - full * perLine;
  const R = s * e;
  // Sector visits of one full line over all columns: each sector per column when rows share
  // sectors, else each element once.
  // (Rows shorter than a sector have elements shorter than one: B / max(u, e) is B / u, by the
  // sector's exact reciprocal.)
  const perFullLine = R < u ? s * (B * g.invSector) : perLine;
  if (tail === 0 || full === 0) return fFit * (full + (tail > 0 ? 1 : 0)) * perFullLine;
  const fWithout = fitOverload(g, full, arrays, arrayBytes);
  // fFit counts the partial line as a full one: lines in overloaded sets with it present.
  const overWith = fFit * (full + 1);
  // The partial line's own set: its lines (one per array) and the full ones sharing it.
  const tailOver = overWith - fWithout * full > 0 || fWithout === 1 ? 1 : 0;
  const fullOverWith = Math.min(full, overWith - tailOver);
  // Columns whose previous column touches the partial line see it in their window.
  const share = Math.min(tail, s) / s;
  // Its visits: one per column touching it when rows share sectors, else one per element.
  const tailVisits = R < u ? Math.min(tail, s) : tail;
  return perFullLine * ((1 - share) * fWithout * full + share * fullOverWith) + tailOver * tailVisits;
}

/** Fraction of lines in overloaded sets for `lines` contiguous lines per array. */
function fitOverload(g: CacheGeometry, lines: number, arrays: number, arrayBytes: number): number {
  if (arrays === 1) return overloadFraction(lines, Math.min(g.sets, lines), g.assoc);
  const f = alignedOverload(g, lines, g.line, arrays, arrayBytes);
  return f >= 0 ? f : overloadFraction(lines * arrays, Math.min(g.sets, lines * arrays), g.assoc);
}
