/**
 * Steady-state misses of the random pattern (see `kernel.ts`: `Q` indices drawn uniformly, each
 * touching element `j` of every array), set by set.
 *
 * A draw of element `j` touches the lines holding `j` in every array: a *group* of lines, `m` of
 * which share a set when the arrays' bases are congruent modulo the set period (else one). Under
 * LRU a line of group `L` survives until its next draw iff the lines of its set touched in
 * between, the other `m - 1` of its group plus `m` per distinct other group drawn, number fewer
 * than the ways: at most `c = floor((A - m) / m)` other groups. With independent draws (groups of
 * equal probability `pi`, possibly one partial last line of probability `rho * pi`), the order in
 * which the groups of a set are first seen looking back from a draw is a race of exponential
 * clocks, whose probabilities are Beta integrals in closed form: with `n` other full groups,
 * `P(hit) = (c + 1) / (n + 1)` for equal probabilities. A hit also needs the accessed sector to
 * have been filled since the line's fill. The caches are in the steady state of many passes
 * (see `kernel.ts`): every line has been drawn before, so a line that fits its set stays.
 *
 * @packageDocumentation
 */
import type { CacheGeometry } from "./geometry.js";
import { mod } from "./modular.js";

/**
 * Probability that a draw of a full group hits when its set also holds `n` other full groups of
 * equal probability: the first `c` others may have been seen.
 */
function uniformHit(n: number, c: number): number {
  if (c < 0) return 0;
  return c >= n ? 1 : (c + 1) / (n + 1);
}

/**
 * Probability that a draw of a full group hits when its set also holds `n` other full groups and
 * a partial group drawn `rho` times as often: the first `c` others may have been seen.
 */
function fullHitWithPartial(n: number, c: number, rho: number): number {
  if (c < 0) return 0;
  if (c >= n + 1) return 1;
  // P(at most c - 1 full seen) + P(exactly c full seen and the partial one not).
  let p = c / (n + 1);
  if (c <= n) {
    // C(n, c) B(n - c + rho + 1, c + 1) = prod_{k=n-c+1}^{n} k / prod_{k=n-c+1}^{n+1} (k + rho)
    let t = 1 / (n + 1 + rho);
    for (let k = n - c + 1; k <= n; k++) t *= k / (k + rho);
    p += t;
  }
  return p;
}

/** Probability that a draw of the partial group (probability `rho` relative to a full one) hits with `n` full groups in its set. */
function partialHit(n: number, c: number, rho: number): number {
  if (c < 0) return 0;
  if (c >= n) return 1;
  // sum_{j<=c} rho C(n, j) B(n - j + rho, j + 1) = sum_j rho prod_{k=n-j+1}^{n} k / prod_{k=n-j}^{n} (k + rho)
  // Term j+1 is term j times (n - j) / (n - j - 1 + rho): O(c) rather than O(c^2).
  let t = rho / (n + rho);
  let p = t;
  for (let j = 0; j < c; j++) {
    t *= (n - j) / (n - j - 1 + rho);
    p += t;
  }
  return p;
}

/**
 * Probability that the accessed sector of a line whose draws hit with probability `h` is present:
 * it was filled during the current residency, by one of the line's previous draws before a draw
 * that found the line evicted (geometric over the draws, each survived with `h`).
 */
function sectorPresent(h: number, sectors: number): number {
  // One sector per line: the expression below is h / (1 - h * 0) = h exactly (h is in [0, 1]).
  // Why skip it: a division is among the costliest steps of an evaluation and most levels have
  // unsectored lines.
  if (sectors === 1) return h;
  return h / (sectors - h * (sectors - 1));
}

/** Misses per draw of one line drawn with probability `pi` per draw whose line hit probability is `h`. */
function lineMisses(h: number, pi: number, sectors: number): number {
  return pi * (1 - sectorPresent(h, sectors));
}

/** Misses of `count` sets of `lines` groups each, one of which holds the partial group if `withPartial`. */
function setClassMisses(count: number, lines: number, withPartial: boolean, c: number, rho: number, pi: number, sectors: number): number {
  if (count <= 0 || lines <= 0) return 0;
  let misses = 0;
  if (withPartial) {
    const full = lines - 1;
    if (full > 16 * (c + 1)) {
      // Many more groups than survive: the partial one's lighter weight changes the others' hit
      // probability by O(c / n^2) and its own accesses are 1/n of the set's; count it as full.
      // The set's full lines and those of the other sets of the class then share one hit
      // probability (n = lines - 1 others) and one miss rate. Why computed once here: the
      // general form below evaluates the same two divisions twice.
      const perLine = pi * (1 - sectorPresent(uniformHit(full, c), sectors));
      misses += (full + rho) * perLine;
      count--;
      if (count > 0) misses += count * lines * perLine;
      return misses;
    }
    if (full > 0) misses += full * lineMisses(fullHitWithPartial(full - 1, c, rho), pi, sectors);
    misses += lineMisses(partialHit(full, c, rho), pi * rho, sectors);
    count--;
  }
  if (count > 0) misses += count * lines * lineMisses(uniformHit(lines - 1, c), pi, sectors);
  return misses;
}

/**
 * Expected misses per pass of the random pattern, or -1 when the layout is outside what this
 * evaluates (elements as large as a line, arrays not line-aligned with one another, or arrays
 * whose set offsets neither coincide nor stay distinct).
 * @param g - level geometry
 * @param q - elements per array (= draws per pass)
 * @param e - element size in bytes
 * @param arrays - arrays touched per draw
 * @param arrayBytes - distance between array bases in bytes
 */
export function randomMisses(g: CacheGeometry, q: number, e: number, arrays: number, arrayBytes: number): number {
  const B = g.line;
  const S = g.sets;
  if (e >= B || arrayBytes % B !== 0) return -1;
  const perLine = B / e;
  if (!Number.isInteger(perLine)) return -1;
  const sectors = B / Math.max(e, g.sector);
  const n = Math.ceil(q / perLine);
  const partialElements = q - (n - 1) * perLine;
  const partial = partialElements < perLine;
  const rho = partialElements / perLine;
  const pi = perLine / q;
  const A = g.assoc;
  const D = arrays === 1 ? 0 : (arrayBytes / B) % S;
  if (D === 0) {
    // Every array's line L sits in the same set: groups of m = arrays lines, one layout for all.
    const m = arrays;
    // (A - m) / m is A - 1 exactly for one array. Why special-cased: it saves a division.
    const c = m === 1 ? Math.floor(A - 1) : Math.floor((A - m) / m);
    const lo = Math.floor(n / S);
    const r = n - lo * S;
    // The partial line is line n - 1, in set (n - 1) mod S; with whole S > 0 and exact n = lo S + r
    // that set is r - 1 (< r: a set with lo + 1 lines) if r > 0, else S - 1 (a set with lo).
    // Why not `mod`: it is a second integer division on every evaluation.
    const partialInHigh = partial && (Number.isInteger(S) && S > 0 && n < 2 ** 52 ? r > 0 : mod(n - 1, S) < r);
    // Sets with lo + 1 lines (r of them) and lo lines (S - r); one of them holds the partial line.
    // One call site in a loop: two inlined copies of setClassMisses exhaust the optimiser's
    // inlining budget, and its helpers then become calls returning boxed doubles.
    let misses = 0;
    for (let k = 0; k < 2; k++) {
      const high = k === 0;
      misses += setClassMisses(high ? r : S - r, high ? lo + 1 : lo, partial && high === partialInHigh, c, rho, pi, sectors);
    }
    return q * m * misses;
  }
  // Distinct offsets: array a's line L sits in set (a D + L) mod S, one line per group in a set.
  for (let a = 1; a < arrays; a++) if ((a * D) % S === 0) return -1;
  return q * distinctOffsetMisses(S, n, arrays, D, partial, A - 1, rho, pi, sectors);
}

/**
 * Misses per draw, summed over the `S` sets, when array `a`'s line `L` sits in set `(a D + L) mod S`
 * (offsets distinct modulo `S`: one line per group in a set, `c` others may survive).
 */
function distinctOffsetMisses(S: number, n: number, arrays: number, D: number, partial: boolean, c: number, rho: number, pi: number, sectors: number): number {
  let misses = 0;
  for (let x = 0; x < S; x++) {
    // Lines in set x: per array, the L < n with L = x - a D (mod S).
    let full = 0;
    let withPartial = false;
    for (let a = 0; a < arrays; a++) {
      const first = (((x - a * D) % S) + S) % S;
      if (first >= n) continue;
      const count = Math.floor((n - 1 - first) / S) + 1;
      if (partial && (n - 1 - first) % S === 0) {
        withPartial = true;
        full += count - 1;
      } else full += count;
    }
    if (full > 0) misses += full * lineMisses(withPartial ? fullHitWithPartial(full - 1, c, rho) : uniformHit(full - 1, c), pi, sectors);
    if (withPartial) misses += lineMisses(partialHit(full, c, rho), pi * rho, sectors);
  }
  return misses;
}
