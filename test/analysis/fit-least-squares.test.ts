import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { evaluate } from "mathjs";
import { leastSquares, RankDeficientError, studentTQuantile, normalQuantile, smape } from "../../analysis/index.js";

describe("least squares by QR", () => {
  it("recovers an exact cubic with Q up to 10^6 (ill-conditioned columns)", () => {
    const q = Array.from({ length: 12 }, (_, i) => (i + 1) * 1e5);
    const y = q.map((x) => 66.7 - 0.015 * x + 9.24e-7 * x ** 2 - 1.12e-11 * x ** 3);
    const cols = [q.map(() => 1), q, q.map((x) => x ** 2), q.map((x) => x ** 3)];
    const r = leastSquares(cols, y);
    expect(r.coefficients[0]).toBeCloseTo(66.7, 4);
    expect(r.coefficients[1]! / -0.015).toBeCloseTo(1, 8);
    expect(r.coefficients[2]! / 9.24e-7).toBeCloseTo(1, 8);
    expect(r.coefficients[3]! / -1.12e-11).toBeCloseTo(1, 8);
  });

  it("fits a constant column by the (weighted) mean: exact for equal data, the QR solution otherwise", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e7, max: 1e7 }).map((k) => k / 64), fc.integer({ min: 1, max: 40 }), fc.constantFrom(1, 2, 0.5), (v, n, c) => {
        const r = leastSquares([Array(n).fill(c)], Array(n).fill(v));
        expect([r.coefficients[0], r.rss]).toEqual([v / c, 0]);
      }),
      { seed: 20261129 },
    );
    const y = [3, 4.5, 7, 1.25];
    const w = [1, 2, 1, 0.5];
    const r = leastSquares([[1, 1, 1, 1]], y, w);
    const mean = (3 + 9 + 7 + 0.625) / 4.5;
    expect(r.coefficients[0]).toBeCloseTo(mean, 14);
    expect(r.inverseGram[0]).toBeCloseTo(1 / 4.5, 14);
    expect([...r.leverage]).toEqual(w.map((x) => x / 4.5));
    expect(r.rss).toBeCloseTo(y.reduce((s, x, i) => s + w[i]! * (x - mean) ** 2, 0), 12);
  });

  it("rejects a rank-deficient design", () => {
    const q = [1, 2, 3, 4];
    expect(() => leastSquares([q.map(() => 1), q, q.map((x) => 2 * x)], [1, 2, 3, 4])).toThrow(RankDeficientError);
  });

  it("gives leverages that make the leave-one-out residual exact", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 6, maxLength: 12 }), fc.integer({ min: 0, max: 5 }), (noise, drop) => {
        const q = noise.map((_, i) => i + 1);
        const y = q.map((x, i) => 3 + 2 * x + noise[i]!);
        const full = leastSquares([q.map(() => 1), q], y);
        const k = drop % q.length;
        const qo = q.filter((_, i) => i !== k);
        const yo = y.filter((_, i) => i !== k);
        const loo = leastSquares([qo.map(() => 1), qo], yo);
        const predicted = loo.coefficients[0]! + loo.coefficients[1]! * q[k]!;
        const viaLeverage = y[k]! - full.residuals[k]! / (1 - full.leverage[k]!);
        expect(viaLeverage).toBeCloseTo(predicted, 8);
      }),
      { seed: 7, numRuns: 100 },
    );
  });

  it("computes Student-t quantiles close to tabulated values", () => {
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.706, 3);
    expect(studentTQuantile(0.975, 2)).toBeCloseTo(4.303, 3);
    expect(studentTQuantile(0.975, 5)).toBeCloseTo(2.571, 2);
    expect(studentTQuantile(0.975, 30)).toBeCloseTo(2.042, 3);
    expect(normalQuantile(0.975)).toBeCloseTo(1.95996, 5);
  });

  it("computes SMAPE as Extra-P does", () => {
    expect(smape([100, 200], [110, 200])).toBeCloseTo((100 * (20 / 210)) / 2, 10);
    expect(smape([0], [0])).toBe(0);
  });

  it("mathjs evaluates its own expression syntax used in formulas", () => {
    expect(evaluate("max(0, log(Q) - log(128))", { Q: 256 })).toBeCloseTo(Math.log(2), 12);
  });
});
