import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { evaluate } from "mathjs";
import { RandomStream } from "../../engine/random.js";
import { fitModels, fitPowerLaw, groupByQ, EXTRAP_EXPONENTS, EXTRAP_NEGATIVE_EXPONENTS, EXTRAP_NEGATIVE_LOG_EXPONENTS, fitFamilies, AnalysisInputError } from "../../analysis/index.js";

/** Observations T(Q)·(1 + noise·u), u uniform in [-1, 1), `reps` per Q. */
function sample(f: (q: number) => number, qs: number[], reps: number, noise: number, seed: number): { q: number[]; t: number[] } {
  const rng = new RandomStream(seed, "fit-test");
  const q: number[] = [];
  const t: number[] = [];
  for (const x of qs) for (let r = 0; r < reps; r++) {
    q.push(x);
    t.push(f(x) * (1 + noise * rng.uniform(-1, 1)));
  }
  return { q, t };
}

describe("fitModels", () => {
  it("fits no standard deviation to repetitions that scatter only by rounding, and says so", () => {
    const qs = [1, 2, 3, 4, 5, 6];
    // The same cost, summed in different orders: equal up to the last bits.
    const exact = { q: qs.flatMap((q) => [q, q, q]), t: qs.flatMap((q) => [2.01 * q, 0.01 * q + 2 * q, 2 * q + 0.01 * q]) };
    const r = fitModels(exact);
    expect(r.noScatter).toBe(true);
    expect(r.stdDev).toBeUndefined();
    // Means of 0 with rounding-size scatter: rounding too (the scale is the largest mean).
    const aroundZero = { q: [...qs.flatMap((q) => [q, q]), 7, 7], t: [...qs.flatMap((q) => [q, q]), 1e-17, -1e-17] };
    expect(fitModels(aroundZero).noScatter).toBe(true);
    // Weighting by rounding noise is not done: the weighted fit is the unweighted one.
    const ragged = { q: qs.flatMap((q) => [q, q]), t: qs.flatMap((q, i) => [3 + q * q, 3 + q * q + (i === 2 ? 1e-12 : 0)]) };
    expect(fitModels(ragged, { weightByScatter: true }).mean.formula).toBe(fitModels(ragged).mean.formula);
    const noisy = sample((q) => 2 * q, qs, 5, 0.05, 3);
    const n = fitModels(noisy);
    expect(n.noScatter).toBe(false);
    expect(n.stdDev).toBeDefined();
  });

  it("gives R² 1 to the constant fitted to means that do not vary, not a ratio of rounding errors", () => {
    // The mean message size of a power-cap study: the same 6.6345... at every cap.
    const qs = Array.from({ length: 14 }, (_, i) => 50 + 5 * i);
    const r = fitModels({ q: qs, t: qs.map(() => 6.634538152610442) });
    expect(r.mean.family).toBe("constant");
    expect([r.mean.quality.r2, r.mean.quality.adjustedR2, r.mean.quality.looAdjustedR2]).toEqual([1, 1, 1]);
    // Data that vary keep 1 − RSS/TSS.
    const varied = fitModels({ q: qs, t: qs.map((q) => 3 + (q % 2)) });
    expect(varied.mean.quality.r2).toBeLessThan(1);
  });

  it("recovers paper 000's StatesConstructor model exp(1.19 log(Q) - 3.68)", () => {
    const qs = Array.from({ length: 20 }, (_, i) => 2000 * (i + 1));
    const d = sample((q) => Math.exp(1.19 * Math.log(q) - 3.68), qs, 20, 0.05, 1);
    const r = fitModels(d);
    expect(r.mean.family).toBe("power-law");
    expect(r.mean.formula).toMatch(/^exp\(1\.19·log\(Q\) − 3\.6[6-9]\)$/);
    expect(r.mean.coefficients[1]!.value).toBeCloseTo(1.19, 2);
    expect(r.mean.expression).toMatch(/^exp\(1\.1[89]\d*\*log\(Q\) - 3\.6\d*\)$/);
    expect(evaluate(r.mean.expression, { Q: 12345 }) / r.mean.predict(12345)).toBeCloseTo(1, 9);
    expect(r.range).toEqual({ min: 2000, max: 40000 });
    expect(r.stdDev).toBeDefined();
  });

  it("selects by adjusted R² on the original scale when asked", () => {
    const qs = Array.from({ length: 20 }, (_, i) => 2000 * (i + 1));
    const d = sample((q) => Math.exp(1.19 * Math.log(q) - 3.68), qs, 5, 0.01, 2);
    const r = fitModels(d, { criterion: "adjusted-r2", families: ["power-law", "polynomial:degree=1"] });
    expect(r.criterion).toBe("adjusted-r2");
    expect(r.mean.family).toBe("power-law");
    expect(r.candidates[0]!.quality.adjustedR2).toBeGreaterThan(r.candidates[1]!.quality.adjustedR2);
  });

  it("fits random polynomials with noise back to the polynomial family and its coefficients", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.double({ min: 0.5, max: 5, noNaN: true }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (degree, coef, seed) => {
          const f = (q: number): number => coef.slice(0, degree + 1).reduce((s, c, k) => s + c * q ** k, 0);
          const d = sample(f, Array.from({ length: 12 }, (_, i) => i + 1), 10, 0.002, seed);
          const r = fitModels(d, { families: ["polynomial"] });
          // Never underfits; a spurious higher term (a 5 % chance per term at the 95 % significance
          // test) must stay negligible, and the generating coefficients are recovered.
          const fitted = r.mean.hypothesis.terms.length - 1;
          expect(fitted).toBeGreaterThanOrEqual(degree);
          for (let k = degree + 1; k <= fitted; k++) expect(Math.abs(r.mean.coefficients[k]!.value * 12 ** k) / f(12)).toBeLessThan(0.01);
          if (fitted === degree)
            for (let k = 0; k <= degree; k++) {
              // Each coefficient's error, as a share of T at the largest Q.
              expect(Math.abs(r.mean.coefficients[k]!.value - coef[k]!) * 12 ** k / f(12)).toBeLessThan(0.02);
            }
          for (const q of [1, 6.5, 12]) expect(Math.abs(r.mean.predict(q) - f(q)) / f(12)).toBeLessThan(0.005);
        },
      ),
      { seed: 42, numRuns: 40 },
    );
  });

  it("fits random power laws with noise back to their exponent, and prefers them to other families", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.3, max: 2.7, noNaN: true }), fc.double({ min: -4, max: 4, noNaN: true }), fc.integer({ min: 1, max: 1e6 }), (a, b, seed) => {
        const d = sample((q) => Math.exp(a * Math.log(q) + b), Array.from({ length: 15 }, (_, i) => 100 * 1.5 ** i), 5, 0.01, seed);
        const pl = fitModels(d, { families: ["power-law"] }).mean;
        expect(Math.abs(pl.coefficients[1]!.value - a)).toBeLessThan(0.01);
        expect(Math.abs(pl.coefficients[0]!.value - b)).toBeLessThan(0.1);
        const best = fitModels(d, { families: ["power-law", "polynomial"] }).mean;
        expect(best.family).toBe("power-law");
      }),
      { seed: 3, numRuns: 40 },
    );
  });

  it("finds Extra-P's PMNF term c0 + c1 Q^(3/2) log2(Q)", () => {
    const d = sample((q) => 10 + 0.5 * q ** 1.5 * Math.log2(q), [4, 8, 16, 32, 64, 128, 256], 3, 0.001, 5);
    const r = fitModels(d, { families: ["pmnf"] });
    expect(r.mean.label).toBe("c0 + c1·Q^(3/2)·log2(Q)");
    expect(r.mean.coefficients[1]!.value).toBeCloseTo(0.5, 2);
    expect(r.mean.expression).toContain("Q^(3/2)*log2(Q)");
    expect(evaluate(r.mean.expression, { Q: 100 }) / r.mean.predict(100)).toBeCloseTo(1, 9);
  });

  it("uses Extra-P's 42 default exponent pairs, and no log terms when Q < 1", () => {
    expect(EXTRAP_EXPONENTS.length).toBe(42);
    const pmnf = fitFamilies.get("pmnf");
    const withLogs = pmnf.hypotheses({ q: Float64Array.from([1, 2, 3]), positiveValues: true }, {});
    const noLogs = pmnf.hypotheses({ q: Float64Array.from([0.5, 2, 3]), positiveValues: true }, {});
    expect(withLogs.length).toBe(42);
    expect(noLogs.length).toBe(EXTRAP_EXPONENTS.filter(([, , k]) => k === 0).length);
  });

  it("adds Extra-P's 23 negative log and 19 negative polynomial exponents with pmnf:negative, log terms only when every Q > 1", () => {
    expect(EXTRAP_NEGATIVE_LOG_EXPONENTS.length).toBe(23);
    expect(EXTRAP_NEGATIVE_EXPONENTS.length).toBe(19);
    const pmnf = fitFamilies.get("pmnf");
    const above1 = pmnf.hypotheses({ q: Float64Array.from([2, 4, 8]), positiveValues: true }, { negative: "true" });
    expect(above1.length).toBe(42 + 23 + 19);
    expect(above1.map((h) => h.label)).toContain("c0 + c1·Q^(-1/2)·log2(Q)^-1");
    expect(above1.map((h) => h.label)).toContain("c0 + c1·log2(Q)^-2");
    const at1 = pmnf.hypotheses({ q: Float64Array.from([1, 2, 4]), positiveValues: true }, { negative: "true" });
    // Q = 1: the positive log terms stay (log2(1) = 0 is finite); only the negative log ones go.
    expect(at1.length).toBe(42 + 19);
    expect(at1.map((h) => h.label)).toContain("c0 + c1·Q·log2(Q)");
    expect(at1.map((h) => h.label)).not.toContain("c0 + c1·log2(Q)^-1");
    const below1 = pmnf.hypotheses({ q: Float64Array.from([0.5, 2, 4]), positiveValues: true }, { negative: "true" });
    expect(below1.length).toBe(EXTRAP_EXPONENTS.filter(([, , k]) => k === 0).length + 19);
  });

  it("names the variable after the parameter only when an expression can use the name", () => {
    const d = sample((q) => 3 + 2 * q, [1, 2, 4, 8, 16, 32], 2, 0.001, 5);
    const named = fitModels(d, { variable: "size" });
    expect(named.variable).toBe("size");
    expect(evaluate(named.mean.expression, { size: 10 }) / named.mean.predict(10)).toBeCloseTo(1, 9);
    // TAU parameter names hold spaces; e and log mean something to mathjs: the formulas use Q.
    for (const name of ["message size", "e", "log", "2x"]) {
      const r = fitModels(d, { variable: name });
      expect(r.variable).toBe("Q");
      expect(evaluate(r.mean.expression, { Q: 10 }) / r.mean.predict(10)).toBeCloseTo(1, 9);
    }
  });

  it("finds a strong-scaling term 1/log2(p) with pmnf:negative, as Extra-P does", () => {
    const d = sample((p) => 5 + 100 / Math.log2(p), [2, 4, 8, 16, 32, 64, 128, 256], 3, 0.001, 11);
    const r = fitModels(d, { families: ["pmnf:negative=true"], variable: "p" });
    expect(r.mean.label).toBe("c0 + c1·log2(Q)^-1");
    expect(r.mean.coefficients[1]!.value).toBeCloseTo(100, 0);
    expect(evaluate(r.mean.expression, { p: 100 }) / r.mean.predict(100)).toBeCloseTo(1, 9);
  });

  it("reports a prediction interval that covers about 95 % of new observations", () => {
    const f = (q: number): number => 5 + 2 * q;
    const d = sample(f, Array.from({ length: 30 }, (_, i) => i + 1), 1, 0.05, 11);
    const m = fitModels(d, { families: ["polynomial:degree=1"] }).mean;
    const rng = new RandomStream(12, "coverage");
    let inside = 0;
    const n = 2000;
    for (let i = 0; i < n; i++) {
      const q = 1 + 29 * rng.next();
      const y = f(q) * (1 + 0.05 * rng.uniform(-1, 1));
      const iv = m.predictionInterval(q);
      if (y >= iv.low && y <= iv.high) inside++;
    }
    expect(inside / n).toBeGreaterThan(0.9);
    expect(m.coefficients[1]!.stdError).toBeGreaterThan(0);
    expect(m.supports(31)).toBe(false);
  });

  it("fits the standard deviation separately, as paper 000's Equation 2", () => {
    const rng = new RandomStream(9, "sd");
    const q: number[] = [];
    const t: number[] = [];
    for (let x = 1000; x <= 20000; x += 1000)
      for (let r = 0; r < 200; r++) {
        q.push(x);
        // Two modes (sequential and strided) whose gap grows with Q: sd ∝ Q.
        t.push(0.16 * x + (rng.next() < 0.5 ? -1 : 1) * 0.05 * x);
      }
    const r = fitModels({ q, t }, { families: ["polynomial:maxDegree=2", "power-law"] });
    expect(Math.abs(r.mean.predict(10000) / 1600 - 1)).toBeLessThan(0.02);
    expect(Math.abs(r.stdDev!.predict(10000) / 500 - 1)).toBeLessThan(0.02);
  });

  it("weights the mean fit by the scatter when asked", () => {
    // Large scatter at the ends, tight points in the middle: the weighted fit follows the tight points.
    const g = { q: Float64Array.from([1, 2, 3, 4, 5, 6]), mean: Float64Array.from([3, 5, 7, 9, 11, 20]), sd: Float64Array.from([0.1, 0.1, 0.1, 0.1, 0.1, 50]), count: Float64Array.from([10, 10, 10, 10, 10, 10]) };
    const w = fitModels(g, { families: ["polynomial:degree=1"], weightByScatter: true });
    const u = fitModels(g, { families: ["polynomial:degree=1"] });
    expect(w.weighted).toBe(true);
    expect(w.mean.coefficients[1]!.value).toBeCloseTo(2, 1);
    expect(Math.abs(u.mean.coefficients[1]!.value - 2)).toBeGreaterThan(0.5);
  });

  it("finds the change point of a two-segment power law", () => {
    const f = (p: number): number => (p <= 128 ? 1e6 * p ** -0.9 : 1e6 * 128 ** -0.9 * (p / 128) ** 0.3);
    const d = sample(f, [2, 4, 8, 16, 32, 64, 128, 256, 512], 3, 0.01, 4);
    const r = fitModels(d);
    expect(r.changePoint!.at).toBe(128);
    expect(r.changePoint!.significant).toBe(true);
    expect(r.changePoint!.before).toBeCloseTo(-0.9, 1);
    expect(r.changePoint!.after).toBeCloseTo(0.3, 1);
    const seg = fitModels(d, { families: ["segmented", "power-law"] });
    expect(seg.mean.family).toBe("segmented");
    expect(evaluate(seg.mean.expression, { Q: 300 }) / seg.mean.predict(300)).toBeCloseTo(1, 9);
  });

  it("finds a change point among 500 distinct Q (coarse then fine search)", () => {
    const qs = Array.from({ length: 500 }, (_, i) => 10 + 2 * i);
    const f = (p: number): number => (p <= 612 ? 5000 * p ** -0.5 : 5000 * 612 ** -0.5 * (p / 612) ** 0.4);
    const r = fitModels(sample(f, qs, 1, 0.002, 13));
    expect(r.changePoint!.significant).toBe(true);
    expect(Math.abs(r.changePoint!.at - 612)).toBeLessThanOrEqual(4);
  });

  it("does not flag a change point in a single power law", () => {
    const d = sample((p) => 1e6 * p ** -0.9, [2, 4, 8, 16, 32, 64, 128, 256, 512], 3, 0.01, 4);
    expect(fitModels(d).changePoint!.significant).toBe(false);
  });

  it("prints an exact fit without a rounding-noise constant", () => {
    const q = [1, 2, 3, 4, 5, 6];
    const r = fitModels({ q, t: q.map((x) => 0.02 * x + 2 * x * x) }, { families: ["polynomial"], variable: "x" });
    expect(r.mean.formula).toBe("0.02·x + 2·x^2");
    expect(r.mean.expression).toBe("0.02*x + 2*x^2");
  });

  it("groups 10^5 records by Q", () => {
    const q = Float64Array.from({ length: 100000 }, (_, i) => (i % 100) + 1);
    const t = Float64Array.from(q, (x) => 3 * x);
    const g = groupByQ(q, t);
    expect(g.q.length).toBe(100);
    expect(g.count[0]).toBe(1000);
    expect(g.mean[99]).toBeCloseTo(300, 10);
    expect(g.sd[5]).toBe(0);
  });

  it("rejects bad input with typed errors", () => {
    expect(() => fitModels({ q: [1, 2], t: [1, 2] })).toThrow(AnalysisInputError);
    expect(() => fitModels({ q: [1, 2], t: [1, 2] })).toThrow(/at least 3 distinct values of Q to fit a model, got 2/);
    expect(() => fitModels({ q: [3, 3], t: [1, 2] }, { variable: "x" })).toThrow(/at least 3 distinct values of x to fit a model, got 1/);
    expect(() => groupByQ([1, 2], [1])).toThrow(/2 values but T has 1/);
    expect(() => groupByQ([1, NaN], [1, 2])).toThrow(AnalysisInputError);
    expect(() => fitModels({ q: [1, 2, 3], t: [1, 2, 3] }, { families: ["polynomal"] })).toThrow(/did you mean 'polynomial'/);
    expect(() => fitModels({ q: [1, 2, 3], t: [1, 2, 3] }, { families: ["polynomial:deg=2"] })).toThrow(/unknown option 'deg'/);
    expect(() => fitPowerLaw([1, 2, 3], [1, -2, 3])).toThrow(AnalysisInputError);
    expect(() => fitModels({ q: [1, 2, 3], t: [1, 4, 9] }, { families: ["polynomial:degree=3"], variable: "n" })).toThrow(
      "no model of the families polynomial can be fitted to 3 distinct values of n: their hypotheses need at least 5",
    );
  });

  it("fits a hypothesis of p coefficients only with p + 1 distinct Q, and lists those it skipped", () => {
    const cubic = (q: number): number => 1 + q + q ** 3;
    for (const n of [3, 4, 5, 6]) {
      const q = Array.from({ length: n }, (_, i) => i + 1);
      const r = fitModels({ q, t: q.map(cubic) }, { families: ["constant", "polynomial"] });
      expect(r.screening.tooFewPoints.map((h) => h.needs)).toEqual([4, 5].filter((needs) => needs > n));
      expect(r.screening.tooFewPoints.every((h) => h.family === "polynomial")).toBe(true);
      expect(r.candidates.every((c) => c.quality.parameters + 1 <= n)).toBe(true);
      expect(r.screening.fitted).toBe(1 + [1, 2, 3].filter((d) => d + 2 <= n).length);
    }
  });

  it("says why positive data get no model: every hypothesis of the families was insignificant", () => {
    // TAU_PARAM dgemm times of edge-cases/examples/wrap: per-call time against size, no trend.
    const data = { q: [100, 10000, 100000, 100, 10000, 100000], t: [28, 18, 12, 40, 12, 12] };
    expect(() => fitModels(data, { families: ["power-law"] })).toThrow(/families power-law fits these data: the defining term of each of their 1 fitted hypotheses is not significantly different from zero \(95 %\); add the family 'constant'/);
    expect(() => fitModels(data, { families: ["power-law"] })).not.toThrow(/non-positive/);
    expect(fitModels(data, { families: ["constant", "power-law"] }).mean.family).toBe("constant");
    expect(() => fitModels({ q: [0, 1, 2], t: [1, 2, 3] }, { families: ["power-law"] })).toThrow(/families power-law could be fitted to these data \(check for non-positive Q or T\)/);
  });

  it("gives the same result for the same data (determinism)", () => {
    const d = sample((q) => 3 * q ** 1.3, [10, 20, 40, 80, 160, 320], 4, 0.05, 8);
    expect(JSON.stringify(fitModels(d).mean)).toBe(JSON.stringify(fitModels(d).mean));
  });
});

describe("exact fits that tie", () => {
  it("rank the model linear in its coefficients before the power law fitted on log T", () => {
    const q = Float64Array.from([4, 8, 16, 32, 64]);
    const t = q.map((x) => 3 * x ** 1.5);
    const r = fitModels({ q, t });
    expect(r.mean.family).toBe("pmnf");
    expect(r.mean.formula).toBe("3·Q^(3/2)");
    expect(r.candidates.findIndex((c) => c.family === "power-law")).toBeGreaterThan(0);
  });
});

describe("fitModels' choices given as text", () => {
  const q = [1, 2, 4, 8, 16, 32];
  const t = q.map((x) => 3 * x + 1);

  it("refuses an unknown selection criterion, naming the known ones", () => {
    expect(() => fitModels({ q, t }, { criterion: "adjusted_r2" as never })).toThrow(AnalysisInputError);
    expect(() => fitModels({ q, t }, { criterion: "adjusted_r2" as never })).toThrow("unknown selection criterion 'adjusted_r2'; known: loo-smape, adjusted-r2");
  });

  it("refuses an unknown selection rule, naming the known ones", () => {
    expect(() => fitModels({ q, t }, { rule: "extrap" as never })).toThrow("unknown selection rule 'extrap'; known: significance, extra-p");
  });

  it("takes each known criterion and rule", () => {
    for (const criterion of ["loo-smape", "adjusted-r2"] as const) expect(fitModels({ q, t }, { criterion }).criterion).toBe(criterion);
    for (const rule of ["significance", "extra-p"] as const) expect(fitModels({ q, t }, { rule, families: ["constant", "pmnf"] }).rule).toBe(rule);
  });
});
