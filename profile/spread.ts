/**
 * The standard deviation the derived views take across threads.
 *
 * @packageDocumentation
 */

/**
 * Population standard deviation of `values` and `n - values.length` zeros (threads without the
 * event, when they count), from deviations about the mean, corrected for the mean's rounding so
 * that equal values give 0. Why not sum(x²)/n − mean²: it cancels for large values that differ a
 * little. @internal
 */
export function populationStddev(values: readonly number[], n: number = values.length): number {
  if (n <= 1) return 0;
  let sum = 0;
  for (const x of values) sum += x;
  const mean = sum / n;
  const zeros = n - values.length;
  let deviations = -zeros * mean;
  let squares = zeros * mean * mean;
  for (const x of values) {
    const d = x - mean;
    deviations += d;
    squares += d * d;
  }
  return Math.sqrt(Math.max(0, squares - (deviations * deviations) / n) / n);
}
