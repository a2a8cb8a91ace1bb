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
 * `x mod m` for integers `x >= 0`, `m > 0`: in int32 arithmetic when both fit (V8 then divides
 * integers instead of calling the floating-point remainder), else in doubles; the same value.
 */
export function modNonNegative(x: number, m: number): number {
  if ((x | 0) === x && (m | 0) === m && x >= 0 && m > 0) return x % m | 0;
  return x % m;
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
  const x = a * from + b;
  let shift: number;
  let l: number;
  let h: number;
  if ((x | 0) === x && x >= 0 && (m | 0) === m && m < 1073741824 && (lo | 0) === lo && (hi | 0) === hi && lo >= 0 && hi >= 0 && lo < m && hi < m) {
    // The same remainders in int32 arithmetic: V8 then divides integers instead of calling fmod
    // (the common case: addresses within a cache's set period).
    const mi = m | 0;
    shift = (x | 0) % mi;
    l = ((lo | 0) - shift + mi) % mi;
    h = ((hi | 0) - shift + mi) % mi;
  } else {
    shift = ((x % m) + m) % m;
    l = (((lo - shift) % m) + m) % m;
    h = (((hi - shift) % m) + m) % m;
  }
  // (a*y + shift) mod m in [lo, hi]  <=>  a*y mod m in [lo - shift, hi - shift] (mod m)
  let y: number;
  if (l <= h) y = firstMultipleInRange(a, m, l, h);
  else {
    const y1 = firstMultipleInRange(a, m, 0, h);
    const y2 = firstMultipleInRange(a, m, l, m - 1);
    y = y1 < 0 ? y2 : y2 < 0 ? y1 : Math.min(y1, y2);
  }
  return y < 0 ? -1 : from + y;
}

