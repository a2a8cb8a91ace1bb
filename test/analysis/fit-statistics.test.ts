import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { regularizedIncompleteBeta, studentTCdf, studentTQuantile } from "../../analysis/index.js";

/** Student-t quantiles at p = 0.9, 0.95, 0.975, 0.995 to 6 significant digits (standard tables). */
const TABLE: Record<number, readonly [number, number, number, number]> = {
  1: [3.07768, 6.31375, 12.7062, 63.6567],
  2: [1.88562, 2.91999, 4.30265, 9.92484],
  3: [1.63774, 2.35336, 3.18245, 5.84091],
  4: [1.53321, 2.13185, 2.77645, 4.60409],
  5: [1.47588, 2.01505, 2.57058, 4.03214],
  6: [1.43976, 1.94318, 2.44691, 3.70743],
  7: [1.41492, 1.89458, 2.36462, 3.49948],
  8: [1.39682, 1.85955, 2.306, 3.35539],
  9: [1.38303, 1.83311, 2.26216, 3.24984],
  10: [1.37218, 1.81246, 2.22814, 3.16927],
  11: [1.36343, 1.79588, 2.20099, 3.10581],
  12: [1.35622, 1.78229, 2.17881, 3.05454],
  13: [1.35017, 1.77093, 2.16037, 3.01228],
  14: [1.34503, 1.76131, 2.14479, 2.97684],
  15: [1.34061, 1.75305, 2.13145, 2.94671],
  16: [1.33676, 1.74588, 2.11991, 2.92078],
  17: [1.33338, 1.73961, 2.10982, 2.89823],
  18: [1.33039, 1.73406, 2.10092, 2.87844],
  19: [1.32773, 1.72913, 2.09302, 2.86093],
  20: [1.32534, 1.72472, 2.08596, 2.84534],
  21: [1.32319, 1.72074, 2.07961, 2.83136],
  22: [1.32124, 1.71714, 2.07387, 2.81876],
  23: [1.31946, 1.71387, 2.06866, 2.80734],
  24: [1.31784, 1.71088, 2.0639, 2.79694],
  25: [1.31635, 1.70814, 2.05954, 2.78744],
  26: [1.31497, 1.70562, 2.05553, 2.77871],
  27: [1.3137, 1.70329, 2.05183, 2.77068],
  28: [1.31253, 1.70113, 2.04841, 2.76326],
  29: [1.31143, 1.69913, 2.04523, 2.75639],
  30: [1.31042, 1.69726, 2.04227, 2.75],
  60: [1.29582, 1.67065, 2.0003, 2.66028],
  120: [1.28865, 1.65765, 1.97993, 2.61742],
};

describe("Student's t distribution", () => {
  it("gives the tabulated quantiles to 6 significant digits for 1..30, 60 and 120 degrees of freedom", () => {
    for (const [dof, row] of Object.entries(TABLE)) {
      [0.9, 0.95, 0.975, 0.995].forEach((p, i) => {
        const q = studentTQuantile(p, Number(dof));
        expect(Math.abs(q / row[i]! - 1), `p ${p}, ${dof} degrees of freedom: ${q}`).toBeLessThan(5e-6);
        // Symmetric about 0.
        expect(studentTQuantile(1 - p, Number(dof))).toBeCloseTo(-q, 10);
      });
    }
  });

  it("gives 3.1824 at p = 0.975 with 3 degrees of freedom, where the Cornish–Fisher expansion gives 3.179", () => {
    expect(studentTQuantile(0.975, 3)).toBeCloseTo(3.182446305, 8);
  });

  it("inverts its distribution function, also for fractional degrees of freedom and far tails", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1 - 1e-6, noNaN: true }), fc.double({ min: 0.5, max: 500, noNaN: true }), (p, dof) => {
        const t = studentTQuantile(p, dof);
        expect(Math.abs(studentTCdf(t, dof) - p)).toBeLessThan(1e-12 + 1e-10 * Math.min(p, 1 - p));
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it("computes the regularized incomplete beta function: closed forms and symmetry", () => {
    // I_x(1, b) = 1 − (1 − x)^b; I_x(a, 1) = x^a; I_x(a, b) = 1 − I_{1−x}(b, a).
    expect(regularizedIncompleteBeta(0.3, 1, 4)).toBeCloseTo(1 - 0.7 ** 4, 14);
    expect(regularizedIncompleteBeta(0.3, 2.5, 1)).toBeCloseTo(0.3 ** 2.5, 14);
    expect(regularizedIncompleteBeta(0.8, 3, 7) + regularizedIncompleteBeta(0.2, 7, 3)).toBeCloseTo(1, 14);
    expect(() => regularizedIncompleteBeta(1.5, 1, 1)).toThrow(RangeError);
  });
});
