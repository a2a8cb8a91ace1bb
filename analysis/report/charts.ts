import type { TopLevelSpec } from "vega-lite";
import { fitPowerLaw } from "../fit/index.js";
import type { LevelPoint, RecordPoint } from "./data.js";
import { meanBy, thin } from "./data.js";
import { compareText } from "../../profile/internal.js";
import type { ReportChart } from "./render.js";
import { tableCellText } from "./html.js";

const WIDTH = 520;
const HEIGHT = 300;
/** The smallest heatmap cell (px) that prints its value (3 significant digits, `2.05e+3`, at 10 px). */
const LABELLED_CELL_WIDTH = 40;
const LABELLED_CELL_HEIGHT = 14;
/** Most points a scatter chart embeds; more are thinned evenly (see `thin`). */
export const MAX_POINTS = 4000;

/** What every chart of a report shares: the schema, its size, its title and fonts. */
export function base(title: string): Record<string, unknown> {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: WIDTH,
    height: HEIGHT,
    title,
    config: { font: "sans-serif", axis: { labelFontSize: 11, titleFontSize: 12 }, legend: { labelFontSize: 11 } },
  };
}

/** Routines with enough distinct Q to fit (at least 3), most records first, at most `max`. */
export function fittableRoutines(points: readonly RecordPoint[], max = 4): string[] {
  const byRoutine = new Map<string, Set<number>>();
  const count = new Map<string, number>();
  for (const p of points) {
    (byRoutine.get(p.routine) ?? byRoutine.set(p.routine, new Set()).get(p.routine)!).add(p.q);
    count.set(p.routine, (count.get(p.routine) ?? 0) + 1);
  }
  return [...byRoutine]
    .filter(([, qs]) => qs.size >= 3)
    .map(([r]) => r)
    .sort((a, b) => count.get(b)! - count.get(a)! || compareText(a, b))
    .slice(0, max);
}

/** Points drawn along each fitted line (evenly spaced in log Q). */
const LINE_POINTS = 40;

/**
 * The power law `ccasim fit --family power-law` gives (T = exp(a·log Q + b), fitted to the means
 * of T at each Q, its formula naming Q `variable`) for each group of `rows`, fitted on every row, and each as a line of
 * {@link LINE_POINTS} points over the group's Q range; groups with fewer than 2 distinct Q get none.
 * Why not the chart grammar's own regression: it would fit the embedded (possibly thinned)
 * points, one by one, and show no coefficients.
 */
function powerLawLines<R extends { readonly Q: number }>(
  rows: readonly R[],
  group: (r: R) => string,
  value: (r: R) => number,
  variable: string,
): { lines: { Q: number; value: number; group: string }[]; formulas: { group: string; formula: string }[] } {
  const byGroup = new Map<string, R[]>();
  for (const r of rows) (byGroup.get(group(r)) ?? byGroup.set(group(r), []).get(group(r))!).push(r);
  const lines: { Q: number; value: number; group: string }[] = [];
  const formulas: { group: string; formula: string }[] = [];
  for (const [g, members] of byGroup) {
    const q = members.map((r) => r.Q);
    if (new Set(q).size < 2) continue;
    const model = fitPowerLaw(q, members.map(value), variable);
    formulas.push({ group: g, formula: model.formula });
    const lo = Math.log(model.range.min);
    const hi = Math.log(model.range.max);
    for (let i = 0; i < LINE_POINTS; i++) {
      const at = Math.exp(lo + ((hi - lo) * i) / (LINE_POINTS - 1));
      lines.push({ Q: at, value: model.predict(at), group: g });
    }
  }
  return { lines, formulas };
}

/** What a scatter of `shown` of `total` points and its fitted lines are, for a caption. */
function scatterText(shown: number, total: number, what: string): string {
  return shown === total ? `${total} ${what}` : `${shown} of the ${total} ${what} (evenly spaced: the page embeds at most ${MAX_POINTS})`;
}

/**
 * Per-invocation time against Q by mode, log-log, with the power law fitted per mode (T = exp(a
 * log Q + b)) on every invocation: the papers' Figure 3 (their Figures 4 and 5, the mean and
 * standard deviation, are `meanSdVsQChart`'s).
 */
export function timeVsQChart(routine: string, points: readonly RecordPoint[], qLabel: string): ReportChart {
  const all = points.filter((p) => p.routine === routine && p.wallTime > 0 && p.q > 0).map((p) => ({ Q: p.q, time: p.wallTime, mode: p.mode || "all" }));
  const rows = thin(all, MAX_POINTS);
  const fit = powerLawLines(all, (r) => r.mode, (r) => r.time, qLabel);
  const x = { field: "Q", type: "quantitative", scale: { type: "log" }, title: qLabel } as const;
  const y = { field: "time", type: "quantitative", scale: { type: "log" }, title: "time per invocation (us)" } as const;
  const color = { field: "mode", type: "nominal", title: "mode" } as const;
  const spec = {
    ...base(`${routine}: time per invocation vs ${qLabel}`),
    layer: [
      { data: { values: rows }, mark: { type: "point", opacity: 0.45, size: 18 }, encoding: { x, y, color } },
      {
        data: { values: fit.lines.map((l) => ({ Q: l.Q, time: l.value, mode: l.group })) },
        mark: { type: "line", strokeWidth: 2 },
        encoding: { x, y, color },
      },
    ],
  } as TopLevelSpec;
  return {
    id: `time-vs-q-${slug(routine)}`,
    title: `Time per invocation of ${routine}`,
    caption: `As in the papers' Figure 3 (paper 000; paper 001's Figure 6(a)). Points: ${scatterText(rows.length, all.length, "invocations")}. Lines: per mode, the power law fitted to the mean time at each ${qLabel} of all the invocations (as \`ccasim fit --family power-law\` gives it)${formulaText(fit.formulas)}.`,
    spec,
  };
}

/** `: sequential T = exp(...); strided T = exp(...)`, or nothing without formulas. */
function formulaText(formulas: readonly { group: string; formula: string }[]): string {
  return formulas.length === 0 ? "" : `: ${formulas.map((f) => `${f.group} T = ${f.formula}`).join("; ")}`;
}

/**
 * The mode a routine's other modes are compared with: `sequential` when among `modes`, else the
 * first by name, by character code (as a run's evidence takes it: `x` of modes `x` and `y`);
 * undefined for no mode.
 */
export function baselineMode(modes: Iterable<string>): string | undefined {
  const all = [...modes];
  return all.includes("sequential") ? "sequential" : all.sort(compareText)[0];
}

/**
 * The mean time of each mode over its routine's baseline mode at each Q, per routine of two or
 * more modes: the baseline is `sequential` when the routine has it, else its first mode by name,
 * as a run's evidence compares them (`y/x` for modes named after the papers' X- and
 * Y-derivatives). A routine whose modes are `sequential` and `strided` alone gives the papers'
 * chart, "Strided over sequential" (id `strided-ratio`); other modes, "Time ratio of the modes"
 * (id `mode-ratio`), one line per routine and mode. Undefined with fewer than 2 ratios.
 */
export function stridedRatioChart(points: readonly RecordPoint[], qLabel: string): ReportChart | undefined {
  const means = meanBy(points, (p) => `${p.routine}\u0000${p.q}\u0000${p.mode}`, (p) => p.wallTime);
  const modesOf = new Map<string, Set<string>>();
  for (const key of means.keys()) {
    const [routine, , mode] = key.split("\u0000");
    if (mode !== "") (modesOf.get(routine) ?? modesOf.set(routine, new Set()).get(routine)!).add(mode);
  }
  const baselineOf = new Map<string, string>();
  for (const [routine, modes] of modesOf) if (modes.size >= 2) baselineOf.set(routine, baselineMode(modes)!);
  const rows: { routine: string; mode: string; series: string; Q: number; ratio: number }[] = [];
  for (const [key, m] of means) {
    const [routine, q, mode] = key.split("\u0000");
    const baseline = baselineOf.get(routine);
    if (baseline === undefined || mode === "" || mode === baseline) continue;
    const base = means.get(`${routine}\u0000${q}\u0000${baseline}`);
    if (base && base.mean > 0) rows.push({ routine, mode, series: `${routine} ${mode}/${baseline}`, Q: Number(q), ratio: m.mean / base.mean });
  }
  if (rows.length < 2) return undefined;
  rows.sort((a, b) => compareText(a.routine, b.routine) || compareText(a.mode, b.mode) || a.Q - b.Q);
  const papers = rows.every((r) => r.mode === "strided" && baselineOf.get(r.routine) === "sequential");
  const x = { field: "Q", type: "quantitative", scale: { type: "log" }, title: qLabel } as const;
  if (papers) {
    const spec = {
      ...base(`Strided / sequential time vs ${qLabel}`),
      data: { values: rows.map(({ routine, Q, ratio }) => ({ routine, Q, ratio })) },
      mark: { type: "line", point: true },
      encoding: { x, y: { field: "ratio", type: "quantitative", title: "mean strided time / mean sequential time" }, color: { field: "routine", type: "nominal" } },
    } as TopLevelSpec;
    return { id: "strided-ratio", title: "Strided over sequential", caption: "Mean time of the strided mode divided by the sequential mode's at the same Q: the cost of the cache-unfriendly access.", spec };
  }
  const spec = {
    ...base(`Time of each mode / its baseline mode's vs ${qLabel}`),
    data: { values: rows },
    mark: { type: "line", point: true },
    encoding: { x, y: { field: "ratio", type: "quantitative", title: "mean time / mean time of the baseline mode" }, color: { field: "series", type: "nominal", title: "routine mode/baseline" } },
  } as TopLevelSpec;
  const baselines = [...baselineOf].filter(([routine]) => rows.some((r) => r.routine === routine)).sort((a, b) => compareText(a[0], b[0]));
  return {
    id: "mode-ratio",
    title: "Time ratio of the modes",
    caption: `Mean time of each mode divided by its routine's baseline mode's at the same ${qLabel} (${baselines.map(([routine, b]) => `${routine}: ${b}`).join("; ")}): sequential when the routine has it, else its first mode by name, as the run's evidence compares them.`,
    spec,
  };
}

/** Most ranks the level chart gives a symbol each (Vega-Lite's shape scale has eight). */
const MAX_RANK_SHAPES = 8;

/**
 * Time of each level-tagged invocation (AMR ghost-cell updates) by level: the papers' Figure 6.
 * The y value is the MPI time when the records have it, else the wall time.
 */
export function levelChart(points: readonly LevelPoint[]): ReportChart | undefined {
  if (points.length < 2) return undefined;
  const useMpi = points.some((p) => p.mpiTime > 0);
  const rows = thin(points, MAX_POINTS).map((p) => ({ invocation: p.invocation, time: useMpi ? p.mpiTime : p.wallTime, level: `level ${p.level}`, routine: p.routine, rank: `rank ${p.rank}` }));
  // One symbol per processor, as the papers' figure has (square, circle, triangle for its three),
  // while there are few enough for symbols to tell apart.
  const ranks = new Set(points.map((p) => p.rank)).size;
  const byRank = ranks > 1 && ranks <= MAX_RANK_SHAPES;
  const spec = {
    ...base(`${useMpi ? "Message-passing" : "Wall"} time per ${points[0].routine} invocation by level`),
    data: { values: rows },
    mark: { type: "point", opacity: 0.5, size: byRank ? 24 : 16, filled: true },
    encoding: {
      x: { field: "invocation", type: "quantitative", title: "invocation (per rank and level)" },
      y: { field: "time", type: "quantitative", title: `${useMpi ? "MPI" : "wall"} time per invocation (us)` },
      color: { field: "level", type: "nominal", title: "level" },
      ...(byRank ? { shape: { field: "rank", type: "nominal", title: "rank" } } : {}),
    },
  } as TopLevelSpec;
  return {
    id: "message-passing-levels",
    title: "Message passing per level",
    caption: `${useMpi ? "Time in MPI" : "Wall time"} of each ${[...new Set(points.map((p) => p.routine))].join(", ")} invocation, one colour per AMR level${byRank ? " and one symbol per rank" : ""} (the papers' Figure 6).`,
    spec,
  };
}

/** Message-passing time per invocation against Q, by routine (for records with Q and MPI time). */
export function messagePassingChart(points: readonly RecordPoint[], qLabel: string): ReportChart | undefined {
  const mpi = points.filter((p) => p.mpiTime > 0 && p.q > 0);
  if (new Set(mpi.map((p) => p.q)).size < 2) return undefined;
  const all = mpi.map((p) => ({ Q: p.q, mpi: p.mpiTime, routine: p.routine }));
  const rows = thin(all, MAX_POINTS);
  const fit = powerLawLines(all, (r) => r.routine, (r) => r.mpi, qLabel);
  const x = { field: "Q", type: "quantitative", scale: { type: "log" }, title: qLabel } as const;
  const y = { field: "mpi", type: "quantitative", scale: { type: "log" }, title: "message-passing time per invocation (us)" } as const;
  const color = { field: "routine", type: "nominal", title: "routine" } as const;
  const spec = {
    ...base(`Message-passing time vs ${qLabel}`),
    layer: [
      { data: { values: rows }, mark: { type: "point", opacity: 0.45, size: 18 }, encoding: { x, y, color } },
      { data: { values: fit.lines.map((l) => ({ Q: l.Q, mpi: l.value, routine: l.group })) }, mark: { type: "line" }, encoding: { x, y, color } },
    ],
  } as TopLevelSpec;
  return {
    id: "message-passing-q",
    title: `Message passing vs ${qLabel}`,
    caption: `Time spent in MPI during each invocation against ${qLabel}. Points: ${scatterText(rows.length, all.length, "invocations")}. Lines: per routine, the power law fitted to the mean at each ${qLabel} of all the invocations${formulaText(fit.formulas)}.`,
    spec,
  };
}

/** A horizontal bar chart of the top timers (mean exclusive and inclusive time over threads). */
export function topTimersChart(rows: readonly { name: string; exclusive: number; inclusive: number }[], metric: string, unit: string): ReportChart {
  const data = rows.flatMap((r) => [
    { timer: r.name, kind: "exclusive", value: r.exclusive },
    { timer: r.name, kind: "inclusive", value: r.inclusive },
  ]);
  const spec = {
    ...base(`Top timers by inclusive ${metric} (mean over threads)`),
    height: { step: 12 },
    data: { values: data },
    mark: "bar",
    encoding: {
      y: { field: "timer", type: "nominal", sort: rows.map((r) => r.name), title: null, axis: { labelLimit: 320 } },
      yOffset: { field: "kind" },
      x: { field: "value", type: "quantitative", title: `${metric}${unit ? ` (${unit})` : ""}` },
      color: { field: "kind", type: "nominal", title: null },
    },
  } as TopLevelSpec;
  return { id: "top-timers", title: "Top timers", caption: `The ${rows.length} timers with the largest mean inclusive ${metric} (flat profile, as pprof shows it).`, spec };
}

/** What a study chart's values hold beyond the parameters it draws (see {@link heatmapChart}, {@link timeVsQBySweepChart}). */
export interface SweepContext {
  /** Other swept parameters, with their values, that each cell's mean runs over (the caption names them). */
  readonly averaged?: readonly { name: string; values: readonly string[] }[];
  /** Other swept parameters held at one value in this chart, one of a set of panels. */
  readonly at?: readonly { name: string; value: string }[];
  /** Colour domain shared by the panels of one measure, so that a colour means one value in all of them. */
  readonly domain?: readonly [number, number];
}

/** The values a panel holds its other swept parameters at: `L2=256KiB, mode=strided` (`sep` " = " for prose). */
export function atText(at: SweepContext["at"], sep = "="): string {
  return (at ?? []).map((x) => `${x.name}${sep}${x.value}`).join(", ");
}

/** The swept parameters a chart mixes in, with their values: `Q (1000, 2000), mode (a, b)`. */
function averagedText(averaged: NonNullable<SweepContext["averaged"]>): string {
  return averaged.map((x) => `${x.name} (${x.values.join(", ")})`).join(", ");
}

/**
 * A heatmap of a value over two swept parameters; `context` says what else each cell holds:
 * the other swept parameters it averages over, or the values they are held at.
 */
export function heatmapChart(
  id: string,
  title: string,
  rows: readonly { a: string; b: string; value: number }[],
  aLabel: string,
  bLabel: string,
  valueLabel: string,
  order: { a: string[]; b: string[] },
  context: SweepContext = {},
): ReportChart {
  // Values over two orders of magnitude or more (times over a range of Q) take a log colour
  // scale: on a linear one all but the largest cells share one colour.
  const values = rows.map((r) => r.value);
  const [lo, hi] = context.domain ?? [Math.min(...values), Math.max(...values)];
  const logScale = values.length > 0 && lo > 0 && values.every((v) => v > 0) && hi >= 100 * lo;
  const domain = context.domain ? { domain: [...context.domain] } : {};
  // Where viridis turns light enough for dark text: 55 % up its scale (on log values for a log scale).
  const lightFrom = logScale ? lo * (hi / lo) ** 0.55 : lo + 0.55 * (hi - lo);
  const width = Math.min(WIDTH, 60 * order.a.length + 60);
  const height = Math.min(HEIGHT, 40 * order.b.length + 40);
  // Values printed in the cells only when a cell holds one (`2.05e+3` at 10 px): in narrower
  // cells (30 values of a random axis) they print over each other.
  const labelled = width / Math.max(1, order.a.length) >= LABELLED_CELL_WIDTH && height / Math.max(1, order.b.length) >= LABELLED_CELL_HEIGHT;
  const spec = {
    ...base(title),
    width,
    height,
    data: { values: rows },
    layer: [
      {
        mark: "rect",
        encoding: {
          x: { field: "a", type: "ordinal", sort: order.a, title: aLabel },
          y: { field: "b", type: "ordinal", sort: order.b, title: bLabel },
          color: {
            field: "value",
            type: "quantitative",
            title: valueLabel,
            scale: logScale ? { scheme: "viridis", type: "log", ...domain } : { scheme: "viridis", ...domain },
            legend: rangeLegend(valueLabel, lo, hi),
          },
        },
      },
      ...(labelled
        ? [
            {
              mark: { type: "text", fontSize: 10 },
              encoding: {
                x: { field: "a", type: "ordinal", sort: order.a },
                y: { field: "b", type: "ordinal", sort: order.b },
                text: { field: "value", type: "quantitative", format: ".3~g" },
                // Dark text on the light (green to yellow) upper part of viridis, white on the dark rest.
                color: { condition: { test: `datum.value >= ${lightFrom}`, value: "black" }, value: "white" },
              },
            },
          ]
        : []),
    ],
  } as TopLevelSpec;
  const averaged = context.averaged ?? [];
  const at = context.at ?? [];
  let over = averaged.length === 0 ? "over replications" : `over replications and every value of ${averagedText(averaged)}, which the cells mix`;
  if (at.length) over += `; at ${atText(at, " = ")}`;
  const shared = context.domain ? "; colours on one scale with the other panels" : "";
  const unlabelled = labelled ? "" : "; the cells are too small to print their values in";
  return { id, title, caption: `Mean ${valueLabel} for each combination of ${aLabel} and ${bLabel} (${over})${logScale ? "; colours on a log scale" : ""}${shared}${unlabelled}.`, spec };
}

/**
 * A colour legend labelled at the ends of its range, `lo` and `hi`, written as the report's tables
 * write numbers ({@link tableCellText}: 2.37327, not Vega's 2.37326777918), in its labels and in
 * the description screen readers read.
 */
function rangeLegend(title: string, lo: number, hi: number): { values: number[]; labelExpr: string; description: string } | Record<string, never> {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return {};
  const [low, high] = [tableCellText(lo), tableCellText(hi)];
  if (lo === hi) return { values: [lo], labelExpr: JSON.stringify(low), description: `Colour legend of ${title}: ${low}` };
  // (The legend labels exactly the values it is given: the midpoint only tells the two apart.)
  return { values: [lo, hi], labelExpr: `datum.value < ${(lo + hi) / 2} ? ${JSON.stringify(low)} : ${JSON.stringify(high)}`, description: `Colour legend of ${title}, from ${low} to ${high}` };
}

/**
 * Whether values, all above 0, span two orders of magnitude or more (as a heatmap's colours take
 * a log scale): on a linear axis all but the largest would crowd into its first hundredth.
 */
function spansDecades(values: readonly number[]): boolean {
  return values.length > 0 && values.every((v) => Number.isFinite(v) && v > 0) && Math.max(...values) >= 100 * Math.min(...values);
}

/**
 * A line chart of a value against one swept parameter; an axis whose values span two orders of
 * magnitude or more (a log-spaced range of Q, the times over it) is on a log scale, as its caption says.
 */
export function sweepLineChart(id: string, title: string, rows: readonly { x: number | string; value: number; series: string }[], xLabel: string, valueLabel: string, numericX: boolean): ReportChart {
  const logX = numericX && spansDecades(rows.map((r) => r.x as number));
  const logY = spansDecades(rows.map((r) => r.value));
  const log = { scale: { type: "log" } } as const;
  const spec = {
    ...base(title),
    data: { values: rows },
    mark: { type: "line", point: true },
    encoding: {
      x: numericX ? { field: "x", type: "quantitative", title: xLabel, ...(logX ? log : {}) } : { field: "x", type: "ordinal", title: xLabel },
      y: { field: "value", type: "quantitative", title: valueLabel, ...(logY ? log : {}) },
      color: { field: "series", type: "nominal", title: null },
    },
  } as TopLevelSpec;
  const scales = logX && logY ? "; both axes on log scales" : logX ? `; ${xLabel} on a log scale` : logY ? "; the values on a log scale" : "";
  return { id, title, caption: `Mean ${valueLabel} against ${xLabel}${scales}.`, spec };
}

/**
 * Time per invocation vs Q, one colour per value of a swept parameter, with power-law fits.
 * @param rows - the invocations (thinned to {@link MAX_POINTS} here when more)
 * @param all - when `rows` are already a sample: how many invocations there are, and their mean
 *   time at each Q and swept value (the power laws are fitted to these)
 */
export function timeVsQBySweepChart(
  routine: string,
  rows: readonly { Q: number; time: number; swept: string }[],
  qLabel: string,
  sweptLabel: string,
  order?: readonly string[],
  all?: { readonly total: number; readonly means: readonly { Q: number; time: number; swept: string }[] },
  context: SweepContext = {},
): ReportChart {
  const x = { field: "Q", type: "quantitative", scale: { type: "log" }, title: qLabel } as const;
  const y = { field: "time", type: "quantitative", scale: { type: "log" }, title: "time per invocation (us)" } as const;
  const color = { field: "swept", type: "nominal", title: sweptLabel, ...(order ? { sort: [...order] } : {}) };
  const shown = thin(rows, MAX_POINTS);
  const fit = powerLawLines(
    (all?.means ?? rows).filter((r) => r.Q > 0 && r.time > 0),
    (r) => r.swept,
    (r) => r.time,
    qLabel,
  );
  // The formulas in the axis's order (numeric values ascending), as the legend lists them.
  if (order) fit.formulas.sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
  const spec = {
    ...base(`${routine}: time vs ${qLabel} by ${sweptLabel}${context.at?.length ? ` at ${atText(context.at)}` : ""}`),
    layer: [
      { data: { values: shown }, mark: { type: "point", opacity: 0.4, size: 16 }, encoding: { x, y, color } },
      { data: { values: fit.lines.map((l) => ({ Q: l.Q, time: l.value, swept: l.group })) }, mark: "line", encoding: { x, y, color } },
    ],
  } as TopLevelSpec;
  const at = atText(context.at);
  const averaged = context.averaged ?? [];
  const scope = `${at ? ` At ${atText(context.at, " = ")}.` : ""}${averaged.length ? ` Every value of ${averagedText(averaged)} is mixed in.` : ""}`;
  return {
    id: `sweep-time-vs-q-${slug(routine)}${at ? `-${slug(at)}` : ""}`,
    title: `${routine} across the sweep${at ? ` at ${at}` : ""}`,
    caption: `Per-invocation time of ${routine} against ${qLabel}.${scope} Points: ${scatterText(shown.length, all?.total ?? rows.length, "invocations")}. Lines: per value of ${sweptLabel}, the power law fitted to the mean time at each ${qLabel} of all the invocations${formulaText(fit.formulas.map((f) => ({ group: `${sweptLabel} ${f.group}:`, formula: f.formula })))}.`,
    spec,
  };
}

/**
 * The mean time of one mode of a routine over its baseline mode's at each Q, one line per value of
 * the swept parameter: the papers' strided / sequential ratio (Figure 3) across a sweep, about 1
 * while the arrays fit the cache and rising where they overflow it, at a Q that moves with a swept
 * cache size. `mode` and `baseline` are values of the record parameter `parameter`.
 */
export function modeRatioBySweepChart(
  routine: string,
  parameter: string,
  mode: string,
  baseline: string,
  rows: readonly { Q: number; ratio: number; swept: string }[],
  qLabel: string,
  sweptLabel: string,
  order?: readonly string[],
  context: SweepContext = {},
): ReportChart {
  const x = { field: "Q", type: "quantitative", scale: { type: "log" }, title: qLabel } as const;
  const y = { field: "ratio", type: "quantitative", title: `mean time ratio ${mode} / ${baseline}` } as const;
  const color = { field: "swept", type: "nominal", title: sweptLabel, ...(order ? { sort: [...order] } : {}) };
  const at = atText(context.at);
  const spec = {
    ...base(`${routine}: ${parameter}=${mode} / ${parameter}=${baseline} time vs ${qLabel} by ${sweptLabel}${at ? ` at ${at}` : ""}`),
    data: { values: rows },
    mark: { type: "line", point: true },
    encoding: { x, y, color },
  } as TopLevelSpec;
  const averaged = context.averaged ?? [];
  const scope = `${at ? ` At ${atText(context.at, " = ")}.` : ""}${averaged.length ? ` Every value of ${averagedText(averaged)} is mixed in.` : ""}`;
  return {
    id: `sweep-ratio-${slug(routine)}-${slug(parameter)}-${slug(mode)}-over-${slug(baseline)}${at ? `-${slug(at)}` : ""}`,
    title: `${routine}: ${parameter}=${mode} over ${parameter}=${baseline} across the sweep${at ? ` at ${at}` : ""}`,
    caption:
      `Mean time of the ${routine} invocations of ${parameter}=${mode} divided by the mean of those of ${parameter}=${baseline} at the same ${qLabel} and value of ${sweptLabel}, one line per value.${scope} ` +
      `The baseline is ${parameter}=sequential when the routine has it, else its first ${parameter} by name, as a run's evidence takes it. About 1 where the mode costs nothing more (arrays that fit the cache, for a strided sweep).`,
    spec,
  };
}

/** A chart id part from a label: letters and digits, other runs as one hyphen, lower case. */
export function slug(s: string): string {
  return s.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase();
}

/** Power (W) and energy per call (J) of the main events, from paper 004's counter-based model. */
export function powerEnergyChart(rows: readonly { event: string; watts: number; joulesPerCall: number }[], constants: string): ReportChart {
  const data = rows.flatMap((r) => [
    { event: r.event, what: "power (W)", value: r.watts },
    { event: r.event, what: "energy per call (J)", value: r.joulesPerCall },
  ]);
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: "Power and energy per event (mean thread)",
    data: { values: data },
    facet: { column: { field: "what", type: "nominal", title: null } },
    spec: {
      width: 260,
      height: { step: 14 },
      mark: "bar",
      encoding: {
        y: { field: "event", type: "nominal", title: null, sort: rows.map((r) => r.event), axis: { labelLimit: 260 } },
        x: { field: "value", type: "quantitative", title: null },
      },
    },
    resolve: { scale: { x: "independent" } },
  } as TopLevelSpec;
  return {
    id: "power-energy",
    title: "Power and energy",
    caption: `Power = Σ AccessRate·ArchitecturalScaling·MaxPower + idle (paper 004, constants ${constants}) from each event's inclusive counters, and the energy of one call.`,
    spec,
  };
}
