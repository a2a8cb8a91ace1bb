/**
 * Sample statistics and fits that the evidence of a run is made of.
 */

/** Mean, standard deviation (population) and count of a sample. */
export interface Stats {
  readonly count: number;
  readonly mean: number;
  readonly std: number;
}

/** A least-squares fit `y = intercept + slope x` with its coefficient of determination. */
export interface LinearFit {
  readonly intercept: number;
  readonly slope: number;
  readonly r2: number;
  readonly points: number;
}

/** Statistics of a sample (sums taken in the sample's order). @internal */
export function stats(xs: ArrayLike<number>): Stats {
  const n = xs.length;
  if (n === 0) return { count: 0, mean: 0, std: 0 };
  let s = 0;
  for (let i = 0; i < n; i++) s += xs[i];
  const mean = s / n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (xs[i] - mean) * (xs[i] - mean);
  return { count: n, mean, std: Math.sqrt(v / n) };
}

/**
 * Ordinary least squares `y = a + b x`, on deviations from the means scaled by their largest
 * magnitude (so that squares neither overflow nor underflow).
 * @returns the fit; r2 is 0 and the slope 0 when y does not vary (by more than rounding: 1e-12 of
 *   its largest magnitude, as means of equal times summed in different numbers differ in their
 *   last bits), and NaN-free for fewer than two points (slope 0)
 */
export function linearFit(xs: readonly number[], ys: readonly number[]): LinearFit {
  const n = xs.length;
  if (n === 0) return { intercept: 0, slope: 0, r2: 0, points: 0 };
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i];
    sy += ys[i];
  }
  const mx = sx / n;
  const my = sy / n;
  let dxMax = 0;
  let dyMax = 0;
  let yMax = 0;
  for (let i = 0; i < n; i++) {
    dxMax = Math.max(dxMax, Math.abs(xs[i] - mx));
    dyMax = Math.max(dyMax, Math.abs(ys[i] - my));
    yMax = Math.max(yMax, Math.abs(ys[i]));
  }
  // Why a threshold and not syy > 0: a slope and an R² fitted to rounding say nothing (a constant
  // 3.3 us at 7 sizes gave a slope of 4e-19 and R² -0.090).
  if (!(dyMax > 1e-12 * yMax) || !(dxMax > 0)) return { intercept: my, slope: 0, r2: 0, points: n };
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] - mx) / dxMax;
    const dy = (ys[i] - my) / dyMax;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  const scaledSlope = sxy / sxx;
  const slope = scaledSlope * (dyMax / dxMax);
  const intercept = my - slope * mx;
  let sse = 0;
  for (let i = 0; i < n; i++) {
    const e = (ys[i] - my) / dyMax - scaledSlope * ((xs[i] - mx) / dxMax);
    sse += e * e;
  }
  return { intercept, slope, r2: 1 - sse / syy, points: n };
}

function ranks(xs: readonly number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b] || a - b);
  const r = new Array<number>(xs.length);
  for (let k = 0; k < order.length; ) {
    let j = k;
    while (j + 1 < order.length && xs[order[j + 1]] === xs[order[k]]) j++;
    for (let t = k; t <= j; t++) r[order[t]] = (k + j) / 2;
    k = j + 1;
  }
  return r;
}

/** Spearman's rank correlation (0 for fewer than three points). */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length < 3) return 0;
  const fit = linearFit(ranks(xs), ranks(ys));
  const sign = Math.sign(fit.slope);
  return sign * Math.sqrt(Math.max(0, fit.r2));
}

/** Median of a sorted sample. @internal */
export function median(sorted: ArrayLike<number>): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Indices of `values` from the largest value down; equal values keep their index order. */
export function largestFirst(values: ArrayLike<number>): number[] {
  return Array.from({ length: values.length }, (_, k) => k).sort((a, b) => values[b] - values[a] || a - b);
}
