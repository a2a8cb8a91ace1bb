import { describe, expect, it } from "vitest";
import { fitPolynomial, fitPowerLaw } from "../../analysis/fit/index.js";
import { digestRecords, meanSdPoints, meanSdVsQChart, renderSvg, trialReport } from "../../analysis/report/index.js";
import type { RecordPoint } from "../../analysis/report/data.js";
import type { InvocationRecord } from "../../profile/index.js";
import { recordEvidence } from "../../scenarios/record-evidence.js";

/** Two modes at each of 8 sizes: sequential 0.1·Q, strided 0.1·Q beyond Q = 4000 times 3, each ±5 %. */
function invocations(): RecordPoint[] {
  const out: RecordPoint[] = [];
  for (let k = 1; k <= 8; k++) {
    const q = 1000 * k;
    for (let i = 0; i < 6; i++) {
      const strided = i % 2 === 1;
      const t = 0.1 * q * (strided && q > 4000 ? 3 : 1) * (1 + 0.05 * (i % 3 === 0 ? 1 : -1));
      out.push({ routine: "K.run", q, mode: strided ? "strided" : "sequential", wallTime: t, mpiTime: 0, computeTime: t });
    }
  }
  return out;
}

type Layer = { data: { values: { Q: number; value: number; series: string }[] } };

describe("mean and standard deviation vs Q (the papers' Figures 4 and 5)", () => {
  const points = invocations();

  it("averages the modes' means at each Q, and pools the modes for the population standard deviation", () => {
    // One more sequential invocation at Q = 8000: a pooled mean would lean to the sequential mode.
    const uneven = [...points, { ...points.find((p) => p.q === 8000 && p.mode === "sequential")!, wallTime: 700 }];
    const at = meanSdPoints("K.run", uneven);
    expect(at.map((p) => p.Q)).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000]);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const p of at) {
      const of = uneven.filter((x) => x.q === p.Q);
      const ts = of.map((x) => x.wallTime);
      const modes = mean(["sequential", "strided"].map((m) => mean(of.filter((x) => x.mode === m).map((x) => x.wallTime))));
      const std = Math.sqrt(ts.reduce((a, b) => a + (b - mean(ts)) ** 2, 0) / ts.length);
      expect(p.count).toBe(ts.length);
      expect(p.mean).toBeCloseTo(modes, 9);
      expect(p.std).toBeCloseTo(std, 9);
    }
    expect(at[7].mean).not.toBeCloseTo(mean(uneven.filter((x) => x.q === 8000).map((x) => x.wallTime)), 3);
  });

  it("draws the means and deviations on two axes with the fits named in the caption", async () => {
    const chart = meanSdVsQChart("K.run", points, "Q")!;
    const at = meanSdPoints("K.run", points);
    const [meanLayer, stdLayer] = (chart.spec as unknown as { layer: { layer: Layer[] }[] }).layer;
    expect(meanLayer.layer[0].data.values.map((v) => v.value)).toEqual(at.map((p) => p.mean));
    expect(stdLayer.layer[0].data.values.map((v) => v.value)).toEqual(at.map((p) => p.std));
    const linear = fitPolynomial(at.map((p) => p.Q), at.map((p) => p.mean), 1);
    const power = fitPowerLaw(at.map((p) => p.Q), at.map((p) => p.mean));
    const std = fitPolynomial(at.map((p) => p.Q), at.map((p) => p.std), 1);
    expect(chart.caption).toContain(`mean T = ${linear.formula}; T = ${power.formula}; standard deviation = ${std.formula}`);
    for (const v of meanLayer.layer[1].data.values) expect(v.value).toBeCloseTo(v.series === "mean, power law" ? power.predict(v.Q) : linear.predict(v.Q), 6);
    for (const v of stdLayer.layer[1].data.values) expect(v.value).toBeCloseTo(std.predict(v.Q), 6);
    const svg = await renderSvg(chart.spec);
    expect(svg).toContain("mean time per invocation (us)");
    expect(svg).toContain("standard deviation (us)");
  });

  it("fits what the run's evidence fits: the same means, deviations and lines from the same records", () => {
    // The report (analysis/) and the evidence (scenarios/) each compute these: neither layer may import the other.
    const records: InvocationRecord[] = points.map((p, i) => ({ component: "K", port: "work", method: "run", rank: 0, start: i, wallTime: p.wallTime, mpiTime: 0, computeTime: p.wallTime, parameters: { Q: p.q, mode: p.mode }, counters: {} }));
    const [scaling] = recordEvidence(records, { sizeParameter: "Q", modeParameter: "mode", baselineMode: "sequential", binsPerDecade: 4, maxGroups: 12 }).scaling;
    const at = meanSdPoints("K.run", points);
    const linear = fitPolynomial(at.map((p) => p.Q), at.map((p) => p.mean), 1);
    const power = fitPowerLaw(at.map((p) => p.Q), at.map((p) => p.mean));
    const std = fitPolynomial(at.map((p) => p.Q), at.map((p) => p.std), 1);
    const coefficient = (m: typeof linear, j: number) => m.coefficients[j]!.value;
    expect(coefficient(linear, 0)).toBeCloseTo(scaling!.linear.intercept, 9);
    expect(coefficient(linear, 1)).toBeCloseTo(scaling!.linear.slope, 9);
    expect(coefficient(power, 0)).toBeCloseTo(scaling!.powerLaw.intercept, 9);
    expect(coefficient(power, 1)).toBeCloseTo(scaling!.powerLaw.slope, 9);
    expect(coefficient(std, 0)).toBeCloseTo(scaling!.stdLinear.intercept, 9);
    expect(coefficient(std, 1)).toBeCloseTo(scaling!.stdLinear.slope, 9);
  });

  it("is left out for fewer than 3 distinct Q", () => {
    expect(meanSdVsQChart("K.run", points.filter((p) => p.q <= 2000), "Q")).toBeUndefined();
  });

  it("is a section of a run's report", () => {
    const records: InvocationRecord[] = points.map((p, i) => ({ component: "K", port: "work", method: "run", rank: 0, start: i, wallTime: p.wallTime, mpiTime: 0, computeTime: p.wallTime, parameters: { Q: p.q, mode: p.mode }, counters: {} }));
    const doc = trialReport({ name: "k", records: digestRecords(records) });
    const section = doc.sections.find((s) => s.heading === "Mean and standard deviation");
    expect(section?.charts?.map((c) => c.id)).toEqual(["mean-sd-vs-q-k-run"]);
  });
});
