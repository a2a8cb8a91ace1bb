import { describe, expect, it } from "vitest";
import { sweepLineChart } from "../../analysis/report/charts.js";

/** The x and y scales of a line chart's spec, and its caption. */
function lineChart(xs: readonly (number | string)[], values: readonly number[], numericX = true) {
  const rows = xs.map((x, i) => ({ x, value: values[i]!, series: "time (us)" }));
  const chart = sweepLineChart("l", "L", rows, "workload.Q", "time (us)", numericX);
  const enc = (chart.spec as unknown as { encoding: { x: { scale?: unknown }; y: { scale?: unknown } } }).encoding;
  return { x: enc.x.scale, y: enc.y.scale, caption: chart.caption };
}

describe("a study's line chart over one swept parameter", () => {
  it("puts values spanning two orders of magnitude or more on log scales (a log-spaced range of Q), and says so", () => {
    const q = [1000, 3162, 10000, 31623, 100000, 316228, 1000000];
    const both = lineChart(q, q.map((v) => v / 50));
    expect([both.x, both.y]).toEqual([{ type: "log" }, { type: "log" }]);
    expect(both.caption).toBe("Mean time (us) against workload.Q; both axes on log scales.");
    const xOnly = lineChart(q, q.map((_, i) => 10 + i));
    expect([xOnly.x, xOnly.y]).toEqual([{ type: "log" }, undefined]);
    expect(xOnly.caption).toBe("Mean time (us) against workload.Q; workload.Q on a log scale.");
  });

  it("keeps linear scales for a narrow range, a value of 0 or below, and text values", () => {
    const narrow = lineChart([1, 2, 4, 8], [10, 20, 40, 80]);
    expect([narrow.x, narrow.y, narrow.caption]).toEqual([undefined, undefined, "Mean time (us) against workload.Q."]);
    expect(lineChart([0, 10, 1000], [1, 2, 3]).x).toBeUndefined();
    const text = lineChart(["A1", "A2"], [1, 1000], false);
    expect([text.x, text.y]).toEqual([undefined, { type: "log" }]);
    expect(text.caption).toBe("Mean time (us) against workload.Q; the values on a log scale.");
  });
});
