import { describe, expect, it } from "vitest";
import { AnalysisInputError, fitModels, predictAt } from "../../analysis/index.js";

// T = exp(1.19 log Q - 3.68) with 4 repetitions at each Q, scattered by ±3 %.
function report() {
  const q: number[] = [];
  const t: number[] = [];
  for (const Q of [10, 20, 40, 80, 160, 320, 640])
    for (let r = 0; r < 4; r++) {
      q.push(Q);
      t.push(Math.exp(1.19 * Math.log(Q) - 3.68) * (1 + 0.02 * (r - 1.5)));
    }
  return fitModels({ q, t });
}

describe("the coverage level of an interval", () => {
  const r = report();

  it.each([0, -0.5, 1, 1.5, Number.NaN])("refuses level %s, which is not in (0, 1), naming it", (level) => {
    expect(() => predictAt(r, 100, level)).toThrow(AnalysisInputError);
    expect(() => predictAt(r, 100, level)).toThrow(`level must be in (0, 1), got ${level}`);
    expect(() => r.mean.predictionInterval(100, level)).toThrow(AnalysisInputError);
    expect(() => r.mean.confidenceInterval(100, level)).toThrow(AnalysisInputError);
  });

  it("gives a wider interval for a higher level inside (0, 1)", () => {
    const narrow = predictAt(r, 100, 0.5).interval;
    const wide = predictAt(r, 100, 0.99).interval;
    expect(narrow.low).toBeLessThan(narrow.high);
    expect(wide.low).toBeLessThan(narrow.low);
    expect(wide.high).toBeGreaterThan(narrow.high);
  });
});
