/**
 * Error measures and distribution quantiles used by the fitting module.
 *
 * @packageDocumentation
 */

/**
 * Symmetric mean absolute percentage error, in percent, as Extra-P defines it:
 * mean of 2|ŷ − y| / (|ŷ| + |y|) × 100 (pairs with ŷ = y = 0 count as 0).
 * @param options.undetermined - the error (%) a prediction that is not a finite number counts
 *   as (200, the worst possible, for a leave-one-out prediction no fit could make); by default
 *   a NaN prediction counts as 0 and an infinite one makes the result NaN
 */
export function smape(actual: ArrayLike<number>, predicted: ArrayLike<number>, options: { readonly undetermined?: number } = {}): number {
  let s = 0;
  const n = actual.length;
  for (let i = 0; i < n; i++) {
    const a = actual[i]!;
    const p = predicted[i]!;
    const d = Math.abs(a) + Math.abs(p);
    if (!Number.isFinite(p) && options.undetermined !== undefined) s += options.undetermined / 100;
    else if (d > 0) s += (2 * Math.abs(p - a)) / d;
  }
  return n > 0 ? (100 * s) / n : 0;
}

/** Total sum of squares Σ (t_i − t̄)² of values about their mean (0 for no values). */
export function totalSumOfSquares(t: ArrayLike<number>): number {
  let mean = 0;
  for (let i = 0; i < t.length; i++) mean += t[i]! / t.length;
  let s = 0;
  for (let i = 0; i < t.length; i++) s += (t[i]! - mean) ** 2;
  return s;
}

/**
 * R² = 1 − rss/tss of a fit to the values `t` (`tss` their {@link totalSumOfSquares}). Values that
 * do not vary, their spread no more than rounding noise (1e-12 of the largest |t| at each point),
 * give 1 when the fit's rss is rounding noise too (an exact fit), else 0: the ratio of two
 * rounding errors says nothing (it gave R² = −8 for a constant fitted to 14 equal means).
 */
export function rSquared(rss: number, t: ArrayLike<number>, tss: number = totalSumOfSquares(t)): number {
  let scale = 0;
  for (let i = 0; i < t.length; i++) scale = Math.max(scale, Math.abs(t[i]!));
  const noise = t.length * (1e-12 * scale) ** 2;
  if (tss > noise) return 1 - rss / tss;
  return rss <= noise ? 1 : 0;
}

/** Quantile of the standard normal distribution (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`probability must be in (0, 1), got ${p}`);
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/**
 * Quantile of Student's t distribution with `dof` degrees of freedom (which need not be an
 * integer): closed forms for 1 and 2 degrees of freedom, else the root of {@link studentTCdf}
 * found by Newton's method from the Cornish–Fisher expansion (Abramowitz & Stegun 26.7.5),
 * safeguarded by bisection; relative error below 1e-12 (3.182446 at p = 0.975 with 3 degrees of
 * freedom, where the expansion alone gives 3.179).
 * @throws RangeError for p outside (0, 1) or dof ≤ 0
 */
export function studentTQuantile(p: number, dof: number): number {
  if (!(dof > 0)) throw new RangeError(`degrees of freedom must be positive, got ${dof}`);
  if (!(p > 0 && p < 1)) throw new RangeError(`probability must be in (0, 1), got ${p}`);
  if (dof === 1) return Math.tan(Math.PI * (p - 0.5));
  if (dof === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  if (p < 0.5) return -studentTQuantile(1 - p, dof);
  if (p === 0.5) return 0;
  // Bracket [lo, hi] around the root: F(0) = 0.5 < p, and F grows without bound in t.
  let lo = 0;
  let hi = Math.max(1, cornishFisher(p, dof));
  while (studentTCdf(hi, dof) < p) hi *= 2;
  let t = Math.min(Math.max(cornishFisher(p, dof), lo), hi);
  const logNorm = logGamma((dof + 1) / 2) - logGamma(dof / 2) - 0.5 * Math.log(dof * Math.PI);
  for (let k = 0; k < 100; k++) {
    const f = studentTCdf(t, dof) - p;
    if (f === 0) return t;
    if (f < 0) lo = t;
    else hi = t;
    const density = Math.exp(logNorm - ((dof + 1) / 2) * Math.log1p((t * t) / dof));
    let next = t - f / density;
    // A Newton step that leaves the bracket (far in a tail) is replaced by bisection.
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - t) <= 1e-14 * Math.max(1, Math.abs(t))) return next;
    t = next;
  }
  return t;
}

/** The Cornish–Fisher expansion of the t quantile (A&S 26.7.5), the start of {@link studentTQuantile}'s search. */
function cornishFisher(p: number, dof: number): number {
  const z = normalQuantile(p);
  const z2 = z * z;
  const g1 = (z * (z2 + 1)) / 4;
  const g2 = (z * ((5 * z2 + 16) * z2 + 3)) / 96;
  const g3 = (z * (((3 * z2 + 19) * z2 + 17) * z2 - 15)) / 384;
  const g4 = (z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945)) / 92160;
  return z + g1 / dof + g2 / dof ** 2 + g3 / dof ** 3 + g4 / dof ** 4;
}

/**
 * Cumulative distribution function of Student's t distribution with `dof` degrees of freedom:
 * 1 − I_x(dof/2, 1/2)/2 for t ≥ 0, with x = dof/(dof + t²) and I the
 * {@link regularizedIncompleteBeta}.
 * @throws RangeError for dof ≤ 0
 */
export function studentTCdf(t: number, dof: number): number {
  if (!(dof > 0)) throw new RangeError(`degrees of freedom must be positive, got ${dof}`);
  if (Number.isNaN(t)) return NaN;
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0;
  // why x = dof/(dof + t²) and not 1 − t²/(dof + t²): no cancellation in the far tail
  const tail = 0.5 * regularizedIncompleteBeta(dof / (dof + t * t), dof / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/**
 * The regularized incomplete beta function I_x(a, b) for 0 ≤ x ≤ 1 and a, b > 0, by its continued
 * fraction (modified Lentz), on the side of the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) where it
 * converges fast; relative error about 1e-15.
 * @throws RangeError for x outside [0, 1] or a, b ≤ 0
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(x >= 0 && x <= 1)) throw new RangeError(`the incomplete beta function needs 0 <= x <= 1, got ${x}`);
  if (!(a > 0 && b > 0)) throw new RangeError(`the incomplete beta function needs a, b > 0, got ${a}, ${b}`);
  if (x === 0 || x === 1) return x;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x > (a + 1) / (a + b + 2)) return 1 - (front / b) * betaContinuedFraction(1 - x, b, a);
  return (front / a) * betaContinuedFraction(x, a, b);
}

/** The continued fraction of the incomplete beta function (Lentz's method). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 1000; m++) {
    const m2 = 2 * m;
    // Even step: d_{2m} = m(b − m)x / ((a + 2m − 1)(a + 2m)).
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    // Odd step: d_{2m+1} = −(a + m)(a + b + m)x / ((a + 2m)(a + 2m + 1)).
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/** Natural logarithm of the gamma function for x > 0 (Lanczos, g = 7, 9 terms; relative error below 1e-13). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`);
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  const z = x - 1;
  let a = c[0]!;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The trigamma function ψ′(x) for x > 0 (recurrence up to x ≥ 10, then its asymptotic series to x⁻⁹; relative error below 1e-11). */
export function trigamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`trigamma needs x > 0, got ${x}`);
  let s = 0;
  while (x < 10) {
    s += 1 / (x * x);
    x += 1;
  }
  const x2 = 1 / (x * x);
  return s + 1 / x + x2 / 2 + (x2 / x) * (1 / 6 - x2 * (1 / 30 - x2 * (1 / 42 - x2 / 30)));
}

/**
 * Sampling variance of the sample standard deviation s of `n` normal observations, as a share of
 * σ²: Var(s)/σ² = 1 − c4(n)², with c4(n) = √(2/(n − 1))·Γ(n/2)/Γ((n − 1)/2) (0.363 for n = 2,
 * about 1/(2(n − 1)) for large n).
 * @throws RangeError for n < 2
 */
export function sdSamplingVariance(n: number): number {
  if (!(n >= 2)) throw new RangeError(`a standard deviation needs at least 2 observations, got ${n}`);
  const c4 = Math.sqrt(2 / (n - 1)) * Math.exp(logGamma(n / 2) - logGamma((n - 1) / 2));
  return 1 - c4 * c4;
}

/**
 * Sampling variance of log(s), the natural logarithm of the sample standard deviation of `n`
 * normal observations: ψ′((n − 1)/2)/4, whatever σ (1.23 for n = 2, about 1/(2(n − 1)) for large n).
 * @throws RangeError for n < 2
 */
export function logSdSamplingVariance(n: number): number {
  if (!(n >= 2)) throw new RangeError(`a standard deviation needs at least 2 observations, got ${n}`);
  return trigamma((n - 1) / 2) / 4;
}
