/**
 * Linear least squares by Householder QR on a column-scaled design matrix.
 *
 * Why QR and not the normal equations: forming XᵀX squares the condition number, and design
 * matrices such as [1, Q, Q², Q³] with Q up to 10^6 are badly conditioned. Each column is first
 * divided by its largest absolute value (so all columns have unit scale), then factored X = QR with
 * Householder reflections; coefficients come from back substitution and are unscaled at the end.
 * The unscaled covariance (XᵀWX)⁻¹ = R⁻¹R⁻ᵀ and the leverages h_i = ‖R⁻ᵀx_i‖² come from the same R.
 *
 * @packageDocumentation
 */

/** Result of {@link leastSquares}. All arrays are in the caller's (unscaled) units. */
export interface LeastSquaresResult {
  /** Fitted coefficients, one per design column. */
  readonly coefficients: Float64Array;
  /** (XᵀWX)⁻¹, p×p row-major: multiply by σ² for the coefficient covariance. */
  readonly inverseGram: Float64Array;
  /** Residuals y_i − ŷ_i (unweighted). */
  readonly residuals: Float64Array;
  /** Leverages h_ii of the (weighted) hat matrix, in [0, 1]. */
  readonly leverage: Float64Array;
  /** Weighted residual sum of squares Σ w_i r_i². */
  readonly rss: number;
  /** Number of observations. */
  readonly n: number;
  /** Number of coefficients. */
  readonly p: number;
}

/** Thrown when the design matrix is (numerically) rank deficient. */
export class RankDeficientError extends Error {
  constructor(readonly column: number) {
    super(`design matrix is rank deficient at column ${column}`);
    this.name = "RankDeficientError";
  }
}

/**
 * Solves min Σ w_i (y_i − Σ_j X_ij β_j)².
 *
 * @param columns - the design matrix as p columns of length n
 * @param y - observations, length n
 * @param weights - optional non-negative weights w_i (default all 1)
 * @throws RankDeficientError when a column is a linear combination of the others (relative
 *   pivot below 1e-11), or when n < p
 */
export function leastSquares(columns: readonly ArrayLike<number>[], y: ArrayLike<number>, weights?: ArrayLike<number>): LeastSquaresResult {
  const p = columns.length;
  const n = y.length;
  if (n < p) throw new RankDeficientError(n);
  if (p === 1 && n > 0) {
    const c = columns[0]![0]!;
    let constant = c !== 0 && Number.isFinite(c);
    for (let i = 1; i < n && constant; i++) constant = columns[0]![i] === c;
    if (constant) return constantColumn(c, y, weights);
  }
  const sqrtW = new Float64Array(n);
  for (let i = 0; i < n; i++) sqrtW[i] = weights ? Math.sqrt(weights[i]!) : 1;
  // a: column-major working copy of the scaled, weighted design matrix.
  const a = new Float64Array(n * p);
  const scale = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    const col = columns[j]!;
    let m = 0;
    for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(col[i]!));
    scale[j] = m > 0 ? m : 1;
    for (let i = 0; i < n; i++) a[j * n + i] = (col[i]! / scale[j]!) * sqrtW[i]!;
  }
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) b[i] = y[i]! * sqrtW[i]!;

  const diag = new Float64Array(p);
  let maxDiag = 0;
  for (let k = 0; k < p; k++) {
    const off = k * n;
    let norm = 0;
    for (let i = k; i < n; i++) norm += a[off + i]! * a[off + i]!;
    norm = Math.sqrt(norm);
    const alpha = a[off + k]! > 0 ? -norm : norm;
    maxDiag = Math.max(maxDiag, norm);
    if (norm === 0 || norm <= 1e-11 * maxDiag) throw new RankDeficientError(k);
    // v = x − alpha e1, stored in place; vᵀv = 2 norm (norm − |x_k|)... computed directly below.
    a[off + k] = a[off + k]! - alpha;
    let vv = 0;
    for (let i = k; i < n; i++) vv += a[off + i]! * a[off + i]!;
    for (let j = k + 1; j < p; j++) {
      const oj = j * n;
      let s = 0;
      for (let i = k; i < n; i++) s += a[off + i]! * a[oj + i]!;
      const f = (2 * s) / vv;
      for (let i = k; i < n; i++) a[oj + i] = a[oj + i]! - f * a[off + i]!;
    }
    let s = 0;
    for (let i = k; i < n; i++) s += a[off + i]! * b[i]!;
    const f = (2 * s) / vv;
    for (let i = k; i < n; i++) b[i] = b[i]! - f * a[off + i]!;
    diag[k] = alpha;
  }
  // R: upper triangle, r[k][j] for j > k lives in a[j*n + k]; diagonal in diag.
  const r = (k: number, j: number): number => (k === j ? diag[k]! : a[j * n + k]!);
  const beta = new Float64Array(p);
  for (let k = p - 1; k >= 0; k--) {
    let s = b[k]!;
    for (let j = k + 1; j < p; j++) s -= r(k, j) * beta[j]!;
    beta[k] = s / diag[k]!;
  }
  // Rinv (upper triangular), for the covariance and leverages.
  const rinv = new Float64Array(p * p);
  for (let k = p - 1; k >= 0; k--) {
    rinv[k * p + k] = 1 / diag[k]!;
    for (let j = k + 1; j < p; j++) {
      let s = 0;
      for (let m = k + 1; m <= j; m++) s += r(k, m) * rinv[m * p + j]!;
      rinv[k * p + j] = -s / diag[k]!;
    }
  }
  const coefficients = new Float64Array(p);
  for (let j = 0; j < p; j++) coefficients[j] = beta[j]! / scale[j]!;
  const inverseGram = new Float64Array(p * p);
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++) {
      let s = 0;
      for (let m = Math.max(i, j); m < p; m++) s += rinv[i * p + m]! * rinv[j * p + m]!;
      inverseGram[i * p + j] = s / (scale[i]! * scale[j]!);
    }
  const residuals = new Float64Array(n);
  const leverage = new Float64Array(n);
  const z = new Float64Array(p);
  let rss = 0;
  for (let i = 0; i < n; i++) {
    let fit = 0;
    for (let j = 0; j < p; j++) fit += columns[j]![i]! * coefficients[j]!;
    const res = y[i]! - fit;
    residuals[i] = res;
    rss += (weights ? weights[i]! : 1) * res * res;
    // h_i = ‖R⁻ᵀ x̃_i‖² with x̃_i the scaled, weighted row: z = x̃_i R⁻¹.
    let h = 0;
    for (let j = 0; j < p; j++) {
      let s = 0;
      for (let m = 0; m <= j; m++) s += ((columns[m]![i]! / scale[m]!) * sqrtW[i]!) * rinv[m * p + j]!;
      z[j] = s;
      h += s * s;
    }
    leverage[i] = Math.min(1, h);
  }
  return { coefficients, inverseGram, residuals, leverage, rss, n, p };
}

/**
 * {@link leastSquares} of one column whose entries are all `c` (a constant model): the weighted
 * mean over `c`. Why apart: the Householder pass rounds (constant data of 5 came out 5 ± 9e-16,
 * with a residual sum of squares of 1.6e-29), where the mean of equal values is exact, as
 * Extra-P's constant model (`numpy.mean`) is; for other data it is the same solution.
 */
function constantColumn(c: number, y: ArrayLike<number>, weights?: ArrayLike<number>): LeastSquaresResult {
  const n = y.length;
  let sw = 0;
  let swy = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i]! : 1;
    sw += w;
    swy += w * y[i]!;
  }
  if (!(sw > 0)) throw new RankDeficientError(0);
  const mean = swy / sw;
  const residuals = new Float64Array(n);
  const leverage = new Float64Array(n);
  let rss = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i]! : 1;
    residuals[i] = y[i]! - mean;
    rss += w * residuals[i]! * residuals[i]!;
    leverage[i] = Math.min(1, w / sw);
  }
  return { coefficients: Float64Array.of(mean / c), inverseGram: Float64Array.of(1 / (c * c * sw)), residuals, leverage, rss, n, p: 1 };
}
