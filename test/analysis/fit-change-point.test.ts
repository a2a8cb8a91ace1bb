import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { evaluate } from "mathjs";
import { RandomStream } from "../../engine/random.js";
import { fitHypothesis, fitModels, segmentedHypothesis } from "../../analysis/index.js";
import { changePointCandidates } from "../../analysis/fit/families.js";
import { searchChangePoint } from "../../analysis/fit/change-point.js";

/** T(Q)·(1 + noise·u), u uniform in [-1, 1), one observation per Q. */
function sample(f: (q: number) => number, qs: number[], noise: number, seed: number): { q: number[]; t: number[] } {
  const rng = new RandomStream(seed, "change-point-test");
  return { q: qs, t: qs.map((x) => f(x) * (1 + noise * rng.uniform(-1, 1))) };
}

const bend = (at: number, before: number, after: number) => (p: number): number => (p <= at ? 1e6 * p ** before : 1e6 * at ** before * (p / at) ** after);
const RANKS = [2, 4, 8, 16, 32, 64, 128, 256, 512];

describe("the two-segment model", () => {
  it("competes for the mean when its change is significant, and wins when it predicts better", () => {
    const d = sample(bend(128, -0.9, 0.3), RANKS, 0.01, 4);
    const r = fitModels(d);
    expect(r.changePoint!.significant).toBe(true);
    expect(r.mean).toBe(r.changePoint!.model);
    expect(r.candidates.filter((c) => c.family === "segmented")).toHaveLength(1);
    // Adjusted R² counts the change point as a parameter.
    expect(r.mean.quality.parameters).toBe(4);
    expect(r.mean.quality.looSmape).toBeLessThan(r.candidates[1]!.quality.looSmape);
    expect(evaluate(r.mean.expression, { Q: 300 }) / r.mean.predict(300)).toBeCloseTo(1, 9);
  });

  it("finds a cliff: the same exponent on both sides and a jump past the change point (a cache overflowing)", () => {
    // T = 0.005 Q up to Q = 10^4, then 0.037 Q (x7.4), Q in ten log steps from 10^3 to 10^6, 3 % scatter.
    const qs = Array.from({ length: 10 }, (_, i) => Math.round(1000 * 10 ** (i / 3)));
    const d = sample((q) => (q <= 10_000 ? 0.005 : 0.037) * q, qs, 0.03, 9);
    const r = fitModels(d);
    const cp = r.changePoint!;
    expect(cp.significant).toBe(true);
    expect(cp.change).toBe("step");
    expect(cp.at).toBe(10_000);
    expect(cp.before).toBeCloseTo(1, 1);
    expect(cp.after).toBe(cp.before);
    expect(cp.jump!).toBeGreaterThan(6.4);
    expect(cp.jump!).toBeLessThan(8.4);
    expect(r.mean).toBe(cp.model);
    expect(r.mean.formula).toMatch(/^exp\([\d.]+·log\(Q\) \+ [\d.]+·\[Q > 10000\] − [\d.]+\)$/);
    // The expression is a cost expression: mathjs reads the step as a comparison.
    for (const q of [5000, 10_000, 10_001, 50_000]) expect(evaluate(r.mean.expression, { Q: q }) / r.mean.predict(q)).toBeCloseTo(1, 9);
    // A single power law cannot follow it.
    const single = r.candidates.find((c) => c.family === "power-law")!;
    expect(single.quality.looSmape).toBeGreaterThan(2 * r.mean.quality.looSmape);
  });

  it("screens out a shape one of whose change terms is not significant: a pure cliff has no exponent change", () => {
    const qs = Array.from({ length: 10 }, (_, i) => Math.round(1000 * 10 ** (i / 3)));
    const d = sample((q) => (q <= 10_000 ? 0.005 : 0.037) * q, qs, 0.03, 9);
    const both = fitModels(d, { families: ["segmented:change=both", "power-law"] });
    expect(both.candidates.map((c) => c.family)).toEqual(["power-law"]);
    expect(both.screening.insignificant).toBe(1);
    const step = fitModels(d, { families: ["segmented:change=step", "power-law"] });
    expect(step.candidates[0]!.label).toBe("exp(a·log(Q) + b + c·[Q > Q0])");
  });

  it("does not compete when its change is not significant", () => {
    const r = fitModels(sample((p) => 1e6 * p ** -0.9, RANKS, 0.01, 4));
    expect(r.changePoint!.significant).toBe(false);
    expect(r.candidates.some((c) => c.family === "segmented")).toBe(false);
    expect(r.mean.family).toBe("power-law");
  });

  it("cross-validates the change point: each left-out point is predicted from the change point the others choose", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 6, max: 11 }),
        fc.integer({ min: 2, max: 4 }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 1e6 }),
        (n, k, before, after, seed) => {
          const qs = RANKS.concat([1024, 2048]).slice(0, n);
          const d = sample(bend(qs[k]!, before, after), qs, 0.05, seed);
          const q0 = Float64Array.from(qs);
          const knots = changePointCandidates(q0);
          const model = searchChangePoint(knots.map((at) => segmentedHypothesis("power-law", at)), q0, Float64Array.from(d.t), { variable: "Q" })!;
          // By brute force: refit without each point at every change point tried (all of them,
          // with fewer than 64 candidates) and keep the least squares. Change points whose fits
          // tie (a segment left with one point fits it exactly whatever the change point) may
          // each be the one chosen: the SMAPE lies between the best and worst choices.
          const term = (a: number, b: number): number => (Number.isFinite(b) ? (2 * Math.abs(b - a)) / (Math.abs(a) + Math.abs(b)) : 2);
          let lo = 0;
          let hi = 0;
          qs.forEach((x, i) => {
            const q = qs.filter((_, j) => j !== i);
            const t = d.t.filter((_, j) => j !== i);
            const fits = knots.map((at) => fitHypothesis(segmentedHypothesis("power-law", at), q, t)).filter((m) => m !== undefined);
            const least = Math.min(...fits.map((m) => m.quality.fittedRss));
            const errors = fits.filter((m) => m.quality.fittedRss <= least * (1 + 1e-9) + 1e-300).map((m) => term(d.t[i]!, m.predict(x)));
            lo += errors.length > 0 ? Math.min(...errors) : 2;
            hi += errors.length > 0 ? Math.max(...errors) : 2;
          });
          expect(model.quality.looSmape).toBeGreaterThanOrEqual((100 * lo) / n - 1e-6);
          expect(model.quality.looSmape).toBeLessThanOrEqual((100 * hi) / n + 1e-6);
          // The change point chosen by all points: its fit's own leave-one-out would not pay for the search.
          const fixed = fitHypothesis(segmentedHypothesis("power-law", model.changePoint!), d.q, d.t)!;
          expect(fixed.formula).toBe(model.formula);
        },
      ),
      { seed: 7, numRuns: 60 },
    );
  });

  it("is one candidate per shape under --family segmented, the same model the change-point search finds", () => {
    const d = sample(bend(128, -0.9, 0.3), RANKS, 0.01, 4);
    const auto = fitModels(d);
    const seg = fitModels(d, { families: ["segmented", "segmented:inner=linear", "power-law"] });
    const segs = seg.candidates.filter((c) => c.family === "segmented");
    // At most one candidate per shape (a shape whose change term is not significant is screened out).
    const labels = segs.map((c) => c.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const l of labels)
      expect([
        "c0 + c1·Q + c2·max(0, Q − Q0)",
        "c0 + c1·Q + c2·[Q > Q0]",
        "c0 + c1·Q + c2·max(0, Q − Q0) + c3·[Q > Q0]",
        "exp(a·log(Q) + b + c·max(0, log(Q) − log(Q0)))",
        "exp(a·log(Q) + b + c·[Q > Q0])",
        "exp(a·log(Q) + b + c·max(0, log(Q) − log(Q0)) + d·[Q > Q0])",
      ]).toContain(l);
    expect(labels).toContain("exp(a·log(Q) + b + c·max(0, log(Q) − log(Q0)))");
    expect(seg.mean.formula).toBe(auto.mean.formula);
    expect(seg.mean.quality.looSmape).toBe(auto.mean.quality.looSmape);
    expect(seg.changePoint!.model).toBe(seg.mean);
  });

  it("finds the change point among 500 distinct Q by a search refined between the best's neighbours", () => {
    expect(changePointCandidates(Float64Array.from(Array.from({ length: 500 }, (_, i) => 10 + 2 * i)), 64).filter((x) => x > 600 && x < 640)).toEqual([612, 628]);
    const qs = Array.from({ length: 500 }, (_, i) => 10 + 2 * i);
    const f = (p: number): number => (p <= 620 ? 5000 * p ** -0.5 : 5000 * 620 ** -0.5 * (p / 620) ** 0.4);
    const r = fitModels(sample(f, qs, 0.002, 13), { families: ["segmented", "power-law"] });
    expect(r.mean.family).toBe("segmented");
    expect(Math.abs(r.mean.changePoint! - 620)).toBeLessThanOrEqual(4);
    // The 64 coarse candidates are about 16 apart (612, 628 here): the refinement finds the point.
    expect(changePointCandidates(Float64Array.from(qs), 64)).not.toContain(r.mean.changePoint);
  });
});
