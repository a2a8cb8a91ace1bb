/**
 * Per-invocation noise draws. Every draw comes from the caller's named {@link RandomStream}, so
 * the same seed and stream name give the same scatter.
 *
 * @packageDocumentation
 */
import type { RandomStream } from "../../engine/random.js";

/**
 * A Poisson draw with mean `lambda` (Knuth's method below 30, a rounded normal above).
 * Uses a number of uniforms that depends only on the draws, never on wall-clock or state.
 */
export function poisson(rng: RandomStream, lambda: number): number {
  if (!(lambda > 0)) return 0;
  if (lambda >= 30) return Math.max(0, Math.round(rng.normal(lambda, Math.sqrt(lambda))));
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = rng.next();
  while (p > limit) {
    k++;
    p *= rng.next();
  }
  return k;
}

/**
 * Microseconds lost to OS interruptions during `durationUs`: a Poisson number of interruptions at
 * `rate` Hz, each exponentially distributed with mean `cost` microseconds (a normal approximation
 * of their sum beyond 20 interruptions).
 */
export function osJitter(rng: RandomStream, durationUs: number, rate: number, cost: number): number {
  if (rate <= 0 || cost <= 0) return 0;
  const n = poisson(rng, (rate * durationUs) / 1e6);
  if (n === 0) return 0;
  if (n > 20) return Math.max(0, rng.normal(n * cost, Math.sqrt(n) * cost));
  let t = 0;
  for (let i = 0; i < n; i++) t += rng.exponential(cost);
  return t;
}

/**
 * Coefficient of variation of the memory part: `memoryCv` while the footprint fits the last cache
 * level, growing by up to `overflowCv` as it overflows (reached at twice the capacity, on a log scale).
 */
export function memoryCv(memoryCvBase: number, overflowCv: number, footprint: number, lastLevelSize: number): number {
  if (lastLevelSize <= 0 || footprint <= lastLevelSize) return memoryCvBase;
  return memoryCvBase + overflowCv * Math.min(1, Math.log2(footprint / lastLevelSize));
}
