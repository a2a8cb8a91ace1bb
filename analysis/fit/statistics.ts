/**
 * Error measures and distribution quantiles used by the fitting module.
 *
 * @packageDocumentation
 */

/**
 * Symmetric mean absolute percentage error, in percent, as Extra-P defines it:
 * mean of 2|ŷ − y| / (|ŷ| + |y|) × 100 (pairs with ŷ = y = 0 count as 0).
 */
export function smape(actual: ArrayLike<number>, predicted: ArrayLike<number>): number {
  let s = 0;
  const n = actual.length;
  for (let i = 0; i < n; i++) {
    const a = actual[i]!;
    const p = predicted[i]!;
    const d = Math.abs(a) + Math.abs(p);
    if (d > 0) s += (2 * Math.abs(p - a)) / d;
  }
  return n > 0 ? (100 * s) / n : 0;
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
 * Quantile of Student's t distribution with `dof` degrees of freedom: exact for 1 and 2 degrees of
 * freedom, the Cornish–Fisher expansion (Abramowitz & Stegun 26.7.5) above (relative error below
 * 1e-3 from 3 degrees of freedom, 1e-5 from 10).
 */
export function studentTQuantile(p: number, dof: number): number {
  if (!(dof > 0)) throw new RangeError(`degrees of freedom must be positive, got ${dof}`);
  if (dof === 1) return Math.tan(Math.PI * (p - 0.5));
  if (dof === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  const z = normalQuantile(p);
  const z2 = z * z;
  const g1 = (z * (z2 + 1)) / 4;
  const g2 = (z * ((5 * z2 + 16) * z2 + 3)) / 96;
  const g3 = (z * (((3 * z2 + 19) * z2 + 17) * z2 - 15)) / 384;
  const g4 = (z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945)) / 92160;
  return z + g1 / dof + g2 / dof ** 2 + g3 / dof ** 3 + g4 / dof ** 4;
}
