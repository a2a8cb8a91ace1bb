import type { TopLevelSpec } from "vega-lite";
import { fitPolynomial, fitPowerLaw, groupByQ, type FittedModel } from "../fit/index.js";
import { base, slug } from "./charts.js";
import type { ReportChart } from "./render.js";
import type { RecordPoint } from "./data.js";

/** Points drawn along each fitted curve, evenly spaced in Q. */
const CURVE_POINTS = 40;

/** The mean and the standard deviation of the time at each distinct Q. */
export interface MeanSdPoint {
  readonly Q: number;
  /** Invocations at this Q. */
  readonly count: number;
  /** Mean time per invocation (us): the mean of each mode's mean time, the modes present at this Q. */
  readonly mean: number;
  /** Standard deviation of the time per invocation (us) over all of them, modes pooled (divided by n), 0 for one invocation. */
  readonly std: number;
}

/**
 * The mean and standard deviation of `routine`'s time per invocation at each distinct Q, as a
 * run's evidence (`evidence.json`'s `points`) gives them: the mean is the average of the modes'
 * means (the papers' "average of the sequential and strided array processing times"), the
 * standard deviation that of all the invocations at that Q, modes pooled ("the mean includes
 * both").
 */
export function meanSdPoints(routine: string, points: readonly RecordPoint[]): MeanSdPoint[] {
  const own = points.filter((p) => p.routine === routine && p.q > 0);
  if (own.length === 0) return [];
  const all = groupByQ(
    own.map((p) => p.q),
    own.map((p) => p.wallTime),
  );
  // Each mode's mean at each of its Q, summed per Q with the number of modes there.
  const sums = new Map<number, { n: number; sum: number }>();
  for (const mode of new Set(own.map((p) => p.mode))) {
    const of = own.filter((p) => p.mode === mode);
    const m = groupByQ(
      of.map((p) => p.q),
      of.map((p) => p.wallTime),
    );
    m.q.forEach((q, i) => {
      const s = sums.get(q) ?? { n: 0, sum: 0 };
      sums.set(q, { n: s.n + 1, sum: s.sum + m.mean[i]! });
    });
  }
  return Array.from(all.q, (q, i) => {
    const n = all.count[i]!;
    const modes = sums.get(q)!;
    return { Q: q, count: n, mean: modes.sum / modes.n, std: n > 1 ? all.sd[i]! * Math.sqrt((n - 1) / n) : 0 };
  });
}

/** `count` points of `model` over its fitted range, evenly spaced in Q. */
function curve(model: FittedModel, series: string, count: number): { Q: number; value: number; series: string }[] {
  const { min, max } = model.range;
  return Array.from({ length: count }, (_, i) => {
    const q = min + ((max - min) * i) / (count - 1);
    return { Q: q, value: model.predict(q), series };
  });
}

/**
 * Mean time per invocation against Q (squares, left axis) with the straight line and the power
 * law fitted to the means, and the standard deviation (circles, right axis) with the straight
 * line fitted to it: the papers' Figures 4 and 5 (paper 000 Eq. 1 and 2, paper 001 Figure
 * 6(c)-(e)). The fits are those a run's evidence prints ("mean (modes averaged) = ...", "std =
 * ..."); the standard deviation's is over the Q with two invocations or more.
 * @returns undefined when the routine has fewer than 3 distinct Q
 */
export function meanSdVsQChart(routine: string, points: readonly RecordPoint[], qLabel: string): ReportChart | undefined {
  const at = meanSdPoints(routine, points);
  if (at.length < 3) return undefined;
  const linear = fitPolynomial(
    at.map((p) => p.Q),
    at.map((p) => p.mean),
    1,
    qLabel,
  );
  const positive = at.filter((p) => p.mean > 0);
  const power = positive.length >= 2 ? fitPowerLaw(positive.map((p) => p.Q), positive.map((p) => p.mean), qLabel) : undefined;
  const spread = at.filter((p) => p.count >= 2);
  const stdLine = spread.length >= 2 ? fitPolynomial(spread.map((p) => p.Q), spread.map((p) => p.std), 1, qLabel) : undefined;
  const meanSeries = "mean";
  const stdSeries = "standard deviation";
  // Short legend entries: the formulas, too long for a legend, are in the caption.
  const lineSeries = "mean, straight line";
  const powerSeries = power ? "mean, power law" : undefined;
  const stdLineSeries = stdLine ? "standard deviation, straight line" : undefined;
  const order = [meanSeries, lineSeries, ...(powerSeries ? [powerSeries] : []), stdSeries, ...(stdLineSeries ? [stdLineSeries] : [])];
  const x = { field: "Q", type: "quantitative", title: qLabel } as const;
  const color = { field: "series", type: "nominal", title: null, sort: order, scale: { domain: order } } as const;
  const meanLines = [...curve(linear, lineSeries, 2), ...(power && powerSeries ? curve(power, powerSeries, CURVE_POINTS) : [])];
  const spec = {
    ...base(`${routine}: mean and standard deviation vs ${qLabel}`),
    layer: [
      {
        layer: [
          { data: { values: at.map((p) => ({ Q: p.Q, value: p.mean, series: meanSeries })) }, mark: { type: "point", shape: "square", size: 22, filled: true }, encoding: { x, y: { field: "value", type: "quantitative", title: "mean time per invocation (us)" }, color } },
          { data: { values: meanLines }, mark: { type: "line", strokeWidth: 2 }, encoding: { x, y: { field: "value", type: "quantitative" }, color } },
        ],
      },
      {
        layer: [
          { data: { values: spread.map((p) => ({ Q: p.Q, value: p.std, series: stdSeries })) }, mark: { type: "point", shape: "circle", size: 22, filled: true }, encoding: { x, y: { field: "value", type: "quantitative", title: "standard deviation (us)", axis: { orient: "right" } }, color } },
          ...(stdLine && stdLineSeries ? [{ data: { values: curve(stdLine, stdLineSeries, 2) }, mark: { type: "line", strokeDash: [4, 3] }, encoding: { x, y: { field: "value", type: "quantitative" }, color } }] : []),
        ],
      },
    ],
    resolve: { scale: { y: "independent" } },
  } as TopLevelSpec;
  const fits = [`mean T = ${linear.formula}`, ...(power ? [`T = ${power.formula}`] : []), ...(stdLine ? [`standard deviation = ${stdLine.formula}`] : [])];
  return {
    id: `mean-sd-vs-q-${slug(routine)}`,
    title: `Mean and standard deviation of ${routine}`,
    caption:
      `As in the papers' Figures 4 and 5 (paper 000 Eq. 1 and 2). Squares: the mean time per invocation at each of the ${at.length} values of ${qLabel}, the average of the modes' means (left axis); ` +
      `circles: the standard deviation of the invocations at that ${qLabel}, modes pooled (right axis). Lines, fitted to the points as the run's evidence fits them: ${fits.join("; ")} (us).`,
    spec,
  };
}
