import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { RandomStream } from "../../engine/random.js";
import { readTrial } from "../../profile/index.js";
import {
  fitHypothesis,
  fitModels,
  fitWarnings,
  logGamma,
  logSdSamplingVariance,
  neverNegative,
  observationsFromParameterTimers,
  parametersOf,
  pmnfHypothesis,
  predictAt,
  sdSamplingVariance,
  termsSignificant,
  trigamma,
  type GroupedPoints,
} from "../../analysis/index.js";

const DATA = join(process.cwd(), "../shared/data");

const grouped = (q: number[], mean: number[], sd: number[], count: number[]): GroupedPoints => ({
  q: Float64Array.from(q),
  mean: Float64Array.from(mean),
  sd: Float64Array.from(sd),
  count: Float64Array.from(count),
});

describe("the sampling error of a standard deviation", () => {
  it("is computed from the gamma and trigamma functions, exactly where they are known", () => {
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 10);
    expect(logGamma(0.1)).toBeCloseTo(2.252712651734206, 10);
    expect(trigamma(1)).toBeCloseTo(Math.PI ** 2 / 6, 10);
    expect(trigamma(0.5)).toBeCloseTo(Math.PI ** 2 / 2, 10);
    expect(trigamma(20)).toBeCloseTo(0.05127082293520312, 10);
    // Two observations: s = σ|Z|·√2/√2, Var(s)/σ² = 1 − 2/π, Var(log s) = π²/8.
    expect(sdSamplingVariance(2)).toBeCloseTo(1 - 2 / Math.PI, 12);
    expect(logSdSamplingVariance(2)).toBeCloseTo(Math.PI ** 2 / 8, 10);
    // Many observations: both tend to 1/(2(n − 1)).
    expect(sdSamplingVariance(1001) * 2000).toBeCloseTo(1, 2);
    expect(logSdSamplingVariance(1001) * 2000).toBeCloseTo(1, 2);
    expect(() => sdSamplingVariance(1)).toThrow(RangeError);
    expect(() => logSdSamplingVariance(1.5)).toThrow(RangeError);
  });

  it("matches the scatter of simulated sample standard deviations", () => {
    const rng = new RandomStream(5, "sd-sampling");
    for (const n of [2, 3, 8]) {
      const s: number[] = [];
      for (let k = 0; k < 40000; k++) {
        const x = Array.from({ length: n }, () => rng.normal(10, 3));
        const m = x.reduce((a, b) => a + b, 0) / n;
        s.push(Math.sqrt(x.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1)));
      }
      const variance = (v: number[]): number => {
        const m = v.reduce((a, b) => a + b, 0) / v.length;
        return v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1);
      };
      expect(variance(s) / 9 / sdSamplingVariance(n)).toBeCloseTo(1, 1);
      expect(variance(s.map(Math.log)) / logSdSamplingVariance(n)).toBeCloseTo(1, 1);
    }
  });
});

describe("the standard deviation model", () => {
  it("is never negative, at the data or beyond, and never has more parameters than some model of the mean", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 5000 }), { minLength: 3, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 10000 }).map((v) => v / 100), { minLength: 12, maxLength: 12 }),
        // A trend a + b·Q^c under the noise, rising or falling, so shapes other than the constant compete.
        fc.tuple(fc.integer({ min: 0, max: 5000 }).map((v) => v / 100), fc.integer({ min: 0, max: 500 }).map((v) => v / 100), fc.constantFrom(-0.5, 0.5, 1)),
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.integer({ min: 2, max: 300 }), { minLength: 12, maxLength: 12 }),
        (qs, noise, [a, b, c], means, counts) => {
          const q = [...qs].sort((x, y) => x - y);
          const n = q.length;
          const sd = q.map((x, i) => Math.max(0, a + b * x ** c + 0.05 * noise[i]!));
          const r = fitModels(grouped(q, q.map((x, i) => 10 * x * (1 + 0.02 * means[i]!)), sd, counts.slice(0, n)), {
            families: ["constant", "polynomial", "power-law", "pmnf:negative=true", "segmented:inner=linear"],
            detectChangePoint: false,
          });
          if (r.noScatter) return;
          expect(r.stdDev).toBeDefined();
          const most = Math.max(...r.candidates.map((c) => c.quality.parameters));
          for (const m of r.stdDevCandidates) {
            expect(neverNegative(m)).toBe(true);
            expect(m.quality.parameters).toBeLessThanOrEqual(most);
            for (let x = 1; x <= 100 * q[n - 1]!; x *= 1.7) expect(m.predict(x)).toBeGreaterThanOrEqual(0);
          }
          expect(r.stdDevCandidates.some((m) => m.family === "constant")).toBe(true);
        },
      ),
      { seed: 17, numRuns: 150 },
    );
  });

  it("takes no trend from three sizes of two observations each (TAU_PARAM dgemm of edge-cases/examples/wrap)", () => {
    const trial = readTrial(join(DATA, "tau/edge-cases/examples/wrap"));
    const r = fitModels(observationsFromParameterTimers(trial, { routine: "__wrap_dgemm", parameter: "size" }), { variable: "size" });
    expect([...r.points.sd].map((s) => Number(s.toFixed(3)))).toEqual([8.485, 4.243, 0]);
    // The mean: only the constant is significant; the cubic and quadratic lack points.
    expect(r.mean.family).toBe("constant");
    expect(r.screening).toMatchObject({ fitted: 45, insignificant: 44, negative: 0 });
    expect(r.screening.tooFewPoints.map((h) => [h.family, h.needs])).toEqual([["polynomial", 4], ["polynomial", 5]]);
    // The sd: no more parameters than the mean could have, and so the constant, the mean of the sds.
    expect(r.stdDev!.family).toBe("constant");
    expect(r.stdDev!.predict(1e5)).toBeCloseTo((Math.sqrt(72) + Math.sqrt(18)) / 3, 9);
    expect(r.stdDevScreening!.tooComplex).toBeGreaterThan(40);
    // The shape 10.2 − 0.58·size^(1/4) a fit once chose is negative at size = 100000 and
    // inadmissible whatever the limit on parameters.
    const quarter = fitHypothesis(pmnfHypothesis(1, 4, 0), r.points.q, r.points.sd)!;
    expect(quarter.predict(1e5)).toBeLessThan(0);
    expect(neverNegative(quarter)).toBe(false);
  });

  it("needs a trend beyond the sds' own sampling error: the same sds support it from 200 observations each, not from 2", () => {
    const q = [1, 2, 4, 8, 16];
    const mean = [10, 20.5, 39, 81, 159];
    const sd = [1, 2, 3, 4, 5]; // 1 + log2(Q), exactly
    const few = fitModels(grouped(q, mean, sd, [2, 2, 2, 2, 2]), { detectChangePoint: false });
    const many = fitModels(grouped(q, mean, sd, [200, 200, 200, 200, 200]), { detectChangePoint: false });
    // The mean is the same either way, with 2-parameter candidates: the limit is not what decides.
    expect(few.mean.formula).toBe(many.mean.formula);
    expect(Math.max(...few.candidates.map((c) => c.quality.parameters))).toBeGreaterThanOrEqual(2);
    expect(many.stdDev!.label).toBe("c0 + c1·log2(Q)");
    expect(many.stdDev!.coefficients[1]!.value).toBeCloseTo(1, 9);
    expect(few.stdDev!.family).toBe("constant");
    // Without the sampling error the exact line through the two-observation sds would pass.
    const line = fitHypothesis(pmnfHypothesis(0, 1, 1), Float64Array.from(q), Float64Array.from(sd))!;
    expect(termsSignificant(line)).toBe(true);
  });

  it("models a falling sd with a power law of negative exponent, not a line that crosses 0", () => {
    const q = [2, 4, 8, 16, 32, 64, 128, 256];
    const rng = new RandomStream(3, "falling-sd");
    const sd = q.map((x) => 100 * x ** -0.5 * (1 + 0.02 * rng.uniform(-1, 1)));
    const r = fitModels(grouped(q, q.map((x) => 5 * x), sd, q.map(() => 50)), { detectChangePoint: false });
    expect(r.stdDev!.family).toBe("power-law");
    expect(r.stdDev!.coefficients[1]!.value).toBeCloseTo(-0.5, 1);
    expect(r.stdDevScreening!.negative).toBeGreaterThan(0);
    expect(r.stdDevCandidates.every(neverNegative)).toBe(true);
    expect(parametersOf(r.stdDev!.hypothesis)).toBe(2);
  });
});

describe("predictions of a time", () => {
  it("clip the interval at 0 and keep the model's own numbers (TAU_PARAM dgemm, size = 100000)", () => {
    const trial = readTrial(join(DATA, "tau/edge-cases/examples/wrap"));
    const r = fitModels(observationsFromParameterTimers(trial, { routine: "__wrap_dgemm", parameter: "size" }), { variable: "size" });
    expect(r.nonNegative).toBe(true);
    const p = predictAt(r, 1e5);
    expect(p.value).toBeCloseTo(20.333, 3);
    expect(p.interval.low).toBe(0);
    expect(p.interval.high).toBeCloseTo(79.61, 2);
    expect(p.clipped!.low).toBeCloseTo(-38.94, 2);
    expect(p.clipped!.value).toBeCloseTo(20.333, 3);
    expect(p.stdDev).toBeCloseTo(4.243, 3);
    expect(p.extrapolated).toBe(false);
  });

  it("are never below 0 for data that are not, and are the model's own for data that can be", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5000 }).map((v) => v / 100), { minLength: 6, maxLength: 6 }),
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        fc.double({ min: -60, max: 0, noNaN: true }),
        (t, x, shift) => {
          const q = [1, 2, 3, 4, 5, 6];
          const r = fitModels({ q, t }, { families: ["constant", "polynomial"] });
          const p = predictAt(r, x);
          expect(p.value).toBeGreaterThanOrEqual(0);
          expect(p.interval.low).toBeGreaterThanOrEqual(0);
          const iv = r.mean.predictionInterval(x);
          if (p.clipped) expect(p.clipped).toEqual({ value: r.mean.predict(x), low: iv.low, high: iv.high });
          else expect([p.value, p.interval.low, p.interval.high]).toEqual([r.mean.predict(x), iv.low, iv.high]);
          // Shifted below 0 somewhere, the data are not a time: nothing is clipped.
          const s = fitModels({ q, t: t.map((v, i) => (i === 0 ? Math.min(shift, -1e-3) : v)) }, { families: ["constant", "polynomial"] });
          expect(s.nonNegative).toBe(false);
          const ps = predictAt(s, x);
          expect(ps.clipped).toBeUndefined();
          expect(ps.value).toBe(s.mean.predict(x));
        },
      ),
      { seed: 23, numRuns: 100 },
    );
  });
});

describe("the standard deviation model across a cache knee", () => {
  it("is a two-segment model that stays within the observed sds, not a power law that overshoots them fivefold", () => {
    // sds that grow slowly while the arrays fit the cache, jump 30x where they overflow it, then level off.
    const q = Array.from({ length: 40 }, (_, k) => Math.round(4000 * 1.07 ** k));
    const sd = q.map((Q, k) => (Q < 15000 ? 1e-3 * Q : 30e-3 * 15000 * (Q / 15000) ** 0.3) * (1 + 0.15 * Math.sin(3 * k)));
    const points = grouped(q, q.map((Q) => Q * (Q < 15000 ? 0.1 : 0.4)), sd, q.map(() => 12));
    const r = fitModels(points, { variable: "Q" });
    const largest = Math.max(...sd);
    const smallest = Math.min(...sd);
    expect(r.stdDev!.family).toBe("segmented");
    for (const x of [q[0]!, 15000, q[q.length - 1]!]) {
      expect(r.stdDev!.predict(x)).toBeLessThanOrEqual(2 * largest);
      expect(r.stdDev!.predict(x)).toBeGreaterThanOrEqual(smallest / 2);
    }
    expect(r.stdDevDeparture).toBeUndefined();
    expect(fitWarnings(r)).toEqual([]);
    // The families without segmented: the power law through them leaves the observed sds and is
    // rejected; the constant (the mean of the sds, always within their range) remains.
    const single = fitModels(points, { variable: "Q", families: ["constant", "power-law"] });
    expect(single.stdDevScreening!.departing).toBe(1);
    expect(single.stdDev!.family).toBe("constant");
  });
});

