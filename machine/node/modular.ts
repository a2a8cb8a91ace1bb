/**
 * Modular arithmetic of address streams: gcd, inverses, and the first multiple of a stride that
 * lands in a window modulo the set period (a Euclid-like reduction, O(log m), no scan).
 *
 * @packageDocumentation
 */

/** Greatest common divisor of two non-negative integers. */
export function gcd(a: number, b: number): number {
  if (a < 2147483648 && b < 2147483648) {
    // int32 arithmetic: V8 then uses integer division instead of a floating-point fmod call.
    let x = a | 0;
    let y = b | 0;
    while (y !== 0) {
      const t = x % y;
      x = y;
      y = t;
    }
    return x;
  }
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/**
 * `x mod m` in `[0, m)` (`m > 0`, `x` of either sign), as `((x % m) + m) % m` computes it. Integers
 * that fit in int32 take integer arithmetic: V8 then divides integers instead of calling the
 * floating-point remainder, a library call, on paths that take several remainders per evaluation.
 */
export function mod(x: number, m: number): number {
  if ((x | 0) === x && (m | 0) === m && m > 0) {
    // Already reduced (x = 0 takes the remainder: its sign, -0 or 0, must come out as 0). Why
    // first: the row lengths the miss model reduces are mostly shorter than the set period, and
    // this skips the division.
    if (x > 0 && x < m) return x;
    const r = x % m | 0;
    return r < 0 ? r + m : r;
  }
  return ((x % m) + m) % m;
}

/** Whether `x` is a positive integer power of two (any safe integer; see {@link exactLog2} for int32 shifts). */
export function isPowerOfTwo(x: number): boolean {
  return Number.isInteger(x) && x > 0 && Number.isInteger(Math.log2(x));
}

/**
 * `k` when `x` is the power of two `2^k` with `0 <= k <= 30` (an int32), else -1. Lets callers
 * replace divisions by such an `x` with shifts, which give the same integers.
 */
export function exactLog2(x: number): number {
  return (x | 0) === x && x > 0 && (x & (x - 1)) === 0 ? 31 - Math.clz32(x) : -1;
}

/** Inverse of `t` modulo `m` (`gcd(t, m) = 1`). */
export function modInverse(t: number, m: number): number {
  let r0 = m;
  let r1 = t % m;
  let s0 = 0;
  let s1 = 1;
  while (r1 !== 0) {
    const qq = Math.floor(r0 / r1);
    const r2 = r0 - qq * r1;
    r0 = r1;
    r1 = r2;
    const s2 = s0 - qq * s1;
    s0 = s1;
    s1 = s2;
  }
  return ((s0 % m) + m) % m;
}

// Stack of the Euclid-like reduction (a, m, lo per level): iterative, so that no double is boxed per call.
const euclidA = new Float64Array(96);
const euclidM = new Float64Array(96);
const euclidLo = new Float64Array(96);

/**
 * Smallest x >= 0 with `lo <= (a * x) mod m <= hi` (0 <= lo <= hi < m, 0 <= a < m), or -1: the
 * classical Euclid-like reduction, O(log m). Values stay below 2^53 for caches up to 2^26 bytes.
 */
function firstMultipleInRange(a: number, m: number, lo: number, hi: number): number {
  let depth = 0;
  let y: number;
  for (;;) {
    if (lo === 0) {
      y = 0;
      break;
    }
    // All four are below 2^31 here: int32 remainders avoid V8's floating-point fmod call.
    const ai = (a | 0) % (m | 0);
    if (ai === 0) return -1;
    const k = Math.ceil(lo / ai);
    if (ai * k <= hi) {
      y = k;
      break;
    }
    // a*x = lo..hi + m*y  <=>  m*y mod a in [(-hi) mod a, (-lo) mod a]
    euclidA[depth] = ai;
    euclidM[depth] = m;
    euclidLo[depth++] = lo;
    const nlo = (ai - ((hi | 0) % ai)) % ai;
    const nhi = (ai - ((lo | 0) % ai)) % ai;
    a = (m | 0) % ai;
    m = ai;
    lo = nlo;
    hi = nhi;
  }
  while (depth > 0) {
    depth--;
    y = Math.ceil((euclidLo[depth] + euclidM[depth] * y) / euclidA[depth]);
  }
  return y;
}

/** Smallest x >= from with `(a*x + b) mod m` in [lo, hi] (a window that may wrap past m), or -1. */
export function nextInWindow(a: number, b: number, m: number, lo: number, hi: number, from: number): number {
  const shift = mod(a * from + b, m);
  // (a*y + shift) mod m in [lo, hi]  <=>  a*y mod m in [lo - shift, hi - shift] (mod m)
  const l = mod(lo - shift, m);
  const h = mod(hi - shift, m);
  let y: number;
  if (l <= h) y = firstMultipleInRange(a, m, l, h);
  else {
    const y1 = firstMultipleInRange(a, m, 0, h);
    const y2 = firstMultipleInRange(a, m, l, m - 1);
    y = y1 < 0 ? y2 : y2 < 0 ? y1 : Math.min(y1, y2);
  }
  return y < 0 ? -1 : from + y;
}

/**
 * First returns of the rotation `y -> (step * y) mod p`, `y >= 1`, to within `w` of 0 on either side
 * (integers, `2 <= w`, `2w <= p`), written to `out`: [0] the smallest y with `(step * y) mod p` in
 * `[0, w)` and [1] that value; [2] the smallest y with it in `(p - w, p)` and [3] `p` minus that value
 * (-1 and 0 when there is none). The same as two {@link nextInWindow} searches, from one subtractive
 * continued-fraction pass: the records from above and from below are the semiconvergents
 * `y1 + k*y2` of the pair of nearest approaches found so far, so the first one inside the window is
 * found in O(log p) steps.
 */
export function rotationEntries(step: number, p: number, w: number, out: Float64Array): void {
  reducedRotationEntries(mod(step, p), p, w, out);
}

/**
 * {@link rotationEntries} of a step already reduced, `0 <= s < p` (an integer). Why apart: a caller
 * that has reduced the step saves the remainder, and its inlining budget the bytecode of `mod`.
 * The range is not checked: outside it the entries mean nothing and the int32 pass need not end
 * (a negative step never does), so a step of any sign or size goes to {@link rotationEntries}.
 */
export function reducedRotationEntries(s: number, p: number, w: number, out: Float64Array): void {
  // Why two copies: every quantity of the pass stays within [0, p], so below 2^30 int32 division
  // (a few cycles) replaces the floating-point division and rounding, several times slower, that
  // dominated this function; the results are the same integers. The int32 copy writes all four.
  if (s !== 0 && p < 1073741824) return rotationEntriesInt32(s | 0, p | 0, w | 0, out);
  out[0] = -1;
  out[1] = 0;
  out[2] = -1;
  out[3] = 0;
  if (s === 0) out[0] = 1; // every multiple lands on 0
  else rotationEntriesDouble(s, p, w, out);
}

/**
 * {@link rotationEntries} for `0 < s < p < 2^30`, in int32 arithmetic. Why under 460 bytes of
 * bytecode: V8 then inlines it into the column-reuse model, where it runs on every sweep that
 * reaches the entries, instead of calling it.
 */
function rotationEntriesInt32(s: number, p: number, w: number, out: Float64Array): void {
  // (y1, d1): step*y1 = d1 (mod p), the nearest approach from above so far; (y2, d2): step*y2 = -d2.
  let y1 = 1;
  let d1 = s;
  let y2 = 1;
  let d2 = (p - s) | 0;
  // Entries found (y, approach distance); -1 while none.
  let aheadY = -1;
  let aheadD = 0;
  let behindY = -1;
  let behindD = 0;
  if (d1 < w) {
    aheadY = 1;
    aheadD = d1;
  }
  if (d2 < w) {
    behindY = 1;
    behindD = d2;
  }
  // The steps alternate: one from above leaves d1 = d1 mod d2 < d2, one from below leaves
  // 0 < d2 <= d1. So they come in pairs, without the comparison that picks the side, a branch
  // that varied from step to step and mispredicted; when d1 < d2 at the start, the first step
  // from above has the quotient 0 and changes nothing (and records nothing: d1 >= w unless the
  // entry ahead is y = 1). A partial quotient of 1 (the most frequent, over two fifths of them)
  // is taken without the division: d1 < 2 * d2 (resp. d2 - 1 < 2 * d1) with d1 >= d2 (resp.
  // d2 - 1 >= d1) gives 1. (Both products stay below 2^31: every d is below 2^30.) Why: on the
  // sweeps that reach the entries these took a third to a half of an evaluation that ends at the
  // bounds after them.
  while (aheadY < 0 || behindY < 0) {
    // From above (d1 >= d2 > 0, or at the start d1 < d2 and k = 0): y1 + k*y2 comes to
    // d1 - k*d2, k = 1..floor(d1 / d2).
    const kAbove = d1 < 2 * d2 ? (d1 < d2 ? 0 : 1) : (d1 / d2) | 0;
    const nextAbove = (d1 - kAbove * d2) | 0;
    if (aheadY < 0 && nextAbove < w) {
      const k = d1 < w ? 1 : (((d1 - w) / d2) | 0) + 1;
      aheadY = (y1 + k * y2) | 0;
      aheadD = (d1 - k * d2) | 0;
    }
    y1 = (y1 + kAbove * y2) | 0;
    d1 = nextAbove;
    if (d1 === 0 || (aheadY >= 0 && behindY >= 0)) break;
    // From below (d2 > d1 > 0): y2 + k*y1 comes to d2 - k*d1, kept above 0 (0 is an approach from above).
    const kBelow = d2 - 1 < 2 * d1 ? 1 : ((d2 - 1) / d1) | 0;
    const nextBelow = (d2 - kBelow * d1) | 0;
    if (behindY < 0 && nextBelow < w) {
      const k = d2 < w ? 1 : (((d2 - w) / d1) | 0) + 1;
      behindY = (y2 + k * y1) | 0;
      behindD = (d2 - k * d1) | 0;
    }
    y2 = (y2 + kBelow * y1) | 0;
    d2 = nextBelow;
  }
  out[0] = aheadY;
  out[1] = aheadD;
  out[2] = behindY;
  out[3] = behindD;
}

/** {@link rotationEntries} for `0 < s < p`, in double arithmetic (exact below 2^53). */
function rotationEntriesDouble(s: number, p: number, w: number, out: Float64Array): void {
  let y1 = 1;
  let d1 = s;
  let y2 = 1;
  let d2 = p - s;
  if (d1 < w) {
    out[0] = 1;
    out[1] = d1;
  }
  if (d2 < w) {
    out[2] = 1;
    out[3] = d2;
  }
  while ((out[0] < 0 || out[2] < 0) && d1 > 0) {
    if (d1 >= d2) {
      const kMax = Math.floor(d1 / d2);
      recordFirstInside(out, 0, y1, y2, d1, d2, kMax, w);
      y1 += kMax * y2;
      d1 -= kMax * d2;
    } else {
      const kMax = Math.ceil(d2 / d1) - 1;
      recordFirstInside(out, 2, y2, y1, d2, d1, kMax, w);
      y2 += kMax * y1;
      d2 -= kMax * d1;
    }
  }
}

/**
 * Unless `out[slot]` holds an approach already, records the first of `y + k*yStep`, `k = 1..kMax`,
 * at distance `d - k*dStep`, that comes within `w` (in `out[slot]` and that distance in `out[slot + 1]`).
 */
function recordFirstInside(out: Float64Array, slot: number, y: number, yStep: number, d: number, dStep: number, kMax: number, w: number): void {
  if (out[slot] >= 0 || d - kMax * dStep >= w) return;
  const k = d < w ? 1 : Math.floor((d - w) / dStep) + 1;
  out[slot] = y + k * yStep;
  out[slot + 1] = d - k * dStep;
}
