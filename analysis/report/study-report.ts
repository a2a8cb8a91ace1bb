import { sqlString, type StudyStore } from "../../profile/study/index.js";
import { MAX_POINTS, atText, baselineMode, heatmapChart, modeRatioBySweepChart, slug, sweepLineChart, timeVsQBySweepChart, type SweepContext } from "./charts.js";
import { compareText } from "../../profile/internal.js";
import type { ReportChart } from "./render.js";
import type { ReportDocument, ReportSection } from "./html.js";

interface Axis {
  readonly name: string;
  /** Distinct values in order (numeric ascending when numeric). */
  readonly values: string[];
  readonly numeric: boolean;
}

async function axesOf(store: StudyStore): Promise<Axis[]> {
  const r = await store.query(`SELECT name, value, any_value(numeric_value) AS n FROM parameter GROUP BY name, value ORDER BY name, n NULLS LAST, value`);
  const byName = new Map<string, { values: string[]; numeric: boolean }>();
  for (const [name, value, n] of r.rows as [string, string, number | null][]) {
    const a = byName.get(name) ?? byName.set(name, { values: [], numeric: true }).get(name)!;
    a.values.push(value);
    if (n === null) a.numeric = false;
  }
  return [...byName].map(([name, a]) => ({ name, ...a }));
}

/**
 * Kernel invocations whose misses each engine computed, summed over the points that ran (the run
 * summaries' `missEngines`); undefined when no summary has them (a study of an older version)
 * or no point ran a kernel.
 */
async function missEngines(store: StudyStore): Promise<{ analytical: number; reference: number } | undefined> {
  const row = (
    await store.query(
      `SELECT count(json_extract(summary, '$.missEngines')), coalesce(sum(CAST(json_extract(summary, '$.missEngines.analytical') AS BIGINT)), 0), coalesce(sum(CAST(json_extract(summary, '$.missEngines.reference') AS BIGINT)), 0) FROM point WHERE status = 'ok'`,
    )
  ).rows[0];
  // No summary with them, or no kernel at all (components whose costs are expressions).
  if (row === undefined || Number(row[0]) === 0 || Number(row[1]) + Number(row[2]) === 0) return undefined;
  return { analytical: Number(row[1]), reference: Number(row[2]) };
}

/**
 * The report of a study: points and errors, heatmaps (or lines) of simulated time and of each
 * main routine's mean time over the swept parameters, and time vs Q by swept value.
 */
export async function studyReport(store: StudyStore, name: string): Promise<ReportDocument> {
  const sections: ReportSection[] = [];
  const meta = await store.meta();
  const status = (await store.query(`SELECT status, count(*) FROM point GROUP BY status ORDER BY status`)).rows as [string, number][];
  const total = status.reduce((a, [, n]) => a + n, 0);
  const axes = await axesOf(store);
  const fixed = Object.entries(JSON.parse(meta.get("set") ?? "{}") as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const scenarioFile = meta.get("scenario_file");
  const engines = await missEngines(store);
  sections.push({
    heading: "Study",
    tables: [
      {
        columns: ["", "value"],
        rows: [
          ["study", meta.get("name") ?? name],
          ["points stored", total],
          ...status.map(([s, n]) => [`points ${s}`, n] as [string, number]),
          ["points planned", meta.get("points") ?? "?"],
          ["replications", meta.get("replications") ?? "?"],
          ["study seed", meta.get("seed") ?? "?"],
          ...(scenarioFile ? [["scenario", scenarioFile.split(/[\\/]/).pop()!] as [string, string]] : []),
          ...axes.map((a) => [`axis ${a.name}`, `${a.values.length} ${a.values.length === 1 ? "value" : "values"}: ${a.values.slice(0, 8).join(", ")}${a.values.length > 8 ? ", ..." : ""}`] as [string, string]),
          ...fixed.map(([k, v]) => [`set ${k}`, typeof v === "string" ? v : JSON.stringify(v)] as [string, string]),
          ...(engines ? [["kernel invocations by miss engine", `analytical ${engines.analytical}, reference ${engines.reference}`] as [string, string]] : []),
        ],
      },
    ],
  });
  const errors = (await store.query(`SELECT p.point_index, e.kind, e.message FROM error e JOIN point p USING (point_id) ORDER BY p.point_index LIMIT ${FAILED_POINTS_LISTED}`)).rows as [number, string, string][];
  if (errors.length) {
    // Said when the table holds only some of them: a table that ends looks like all there are.
    const failed = errors.length < FAILED_POINTS_LISTED ? errors.length : Number((await store.query(`SELECT count(*) FROM error`)).rows[0]![0]);
    const notes = failed > errors.length ? [`The first ${errors.length} of the ${failed} failed points, by index; 'ccasim query' lists them all: SELECT p.point_index, e.kind, e.message FROM point p JOIN error e USING (point_id) ORDER BY p.point_index`] : [];
    sections.push({ heading: "Failed points", notes, tables: [{ columns: ["point", "error", "message"], rows: errors.map(([i, k, m]) => [i, k, m.split("\n").slice(0, 3).join(" ")]) }] });
  }

  const swept = [...axes].filter((a) => a.values.length > 1).sort((x, y) => y.values.length - x.values.length || compareText(x.name, y.name));
  const charts: ReportChart[] = [];
  const routines = await routineSelections(store);
  // Means summed in the order of the points' and records' ids, rows in the order of their keys:
  // a study holds its rows in the order its workers finished, and a sum of doubles depends on its
  // order, so two databases of the same study would otherwise give reports that differ.
  // `where`: further conditions on the point `p` (a panel's values of the other axes).
  const measures: { id: string; label: string; sql: (groupCols: string, where?: string) => string }[] = [
    { id: "simulated-time", label: "simulated time (us)", sql: (g, w = "") => `SELECT ${g}, avg(p.simulated_time ORDER BY p.point_id) AS v FROM point p ${joins(swept)} WHERE p.status = 'ok' ${w} GROUP BY ALL ORDER BY ALL` },
    ...routines.map((r) => ({
      id: `wall-${slug(r.label)}`,
      label: `${r.label} time per invocation (us)`,
      sql: (g: string, w = "") =>
        `SELECT ${g}, avg(r.wall_time ORDER BY r.point_id, r.record_index) AS v FROM record r JOIN point p USING (point_id) ${joins(swept)} WHERE p.status = 'ok' AND ${routineCondition(r)} ${w} GROUP BY ALL ORDER BY ALL`,
    })),
    // Without records (a program model's study), the main timers of the profiles.
    ...(routines.length > 0 ? [] : await mainTimers(store)).map((name) => ({
      id: `timer-${slug(name)}`,
      label: `${name} inclusive time, mean over threads (us)`,
      sql: (g: string, w = "") =>
        `SELECT ${g}, avg(x.t ORDER BY x.point_id) AS v FROM (${timerMeanSql(name)}) x JOIN point p USING (point_id) ${joins(swept)} WHERE p.status = 'ok' ${w} GROUP BY ALL ORDER BY ALL`,
    })),
  ];
  if (swept.length >= 2) {
    const [a, b] = swept;
    const rest = swept.slice(2);
    const panelList = panels(rest);
    for (const m of measures) {
      if (panelList === undefined) {
        const rows = (await store.query(m.sql(`a0.value AS a, a1.value AS b`))).rows as [string, string, number][];
        if (rows.length) charts.push(heatmapChart(`heatmap-${m.id}`, `${m.label} over ${a.name} x ${b.name}`, rows.map(([x, y, v]) => ({ a: x, b: y, value: v })), a.name, b.name, m.label, { a: a.values, b: b.values }, { averaged: rest }));
        continue;
      }
      // One heatmap per combination of the other axes' values, on one colour scale.
      const panelRows: [string, string, number][][] = [];
      for (const panel of panelList) panelRows.push((await store.query(m.sql(`a0.value AS a, a1.value AS b`, panel.where))).rows as [string, string, number][]);
      const values = panelRows.flat().map((r) => r[2]);
      if (values.length === 0) continue;
      const domain: [number, number] = [Math.min(...values), Math.max(...values)];
      panelList.forEach((panel, i) => {
        const rows = panelRows[i];
        if (rows.length === 0) return;
        const where = atText(panel.at);
        charts.push(
          heatmapChart(`heatmap-${m.id}-${slug(where)}`, `${m.label} over ${a.name} x ${b.name} at ${where}`, rows.map(([x, y, v]) => ({ a: x, b: y, value: v })), a.name, b.name, m.label, { a: a.values, b: b.values }, { at: panel.at, domain }),
        );
      });
    }
  } else if (swept.length === 1) {
    const a = swept[0];
    for (const m of measures) {
      const rows = (await store.query(m.sql(`a0.value AS a, any_value(a0.numeric_value) AS an`))).rows as [string, number | null, number][];
      const data = rows.map(([x, xn, v]) => ({ x: a.numeric ? (xn as number) : x, value: v, series: m.label })).sort((p, q) => a.values.indexOf(String(p.x)) - a.values.indexOf(String(q.x)));
      if (data.length) charts.push(sweepLineChart(`line-${m.id}`, `${m.label} vs ${a.name}`, data, a.name, m.label, a.numeric));
    }
  }
  if (charts.length) sections.push({ heading: "Sweep results", charts });

  const qName = await qParameter(store);
  // Colour by a swept parameter other than Q itself (a sweep of Q is already the x axis).
  const others = qName === undefined ? swept : await notQAxes(store, swept, qName);
  const numericAxis = others.find((a) => a.numeric) ?? others[0];
  if (qName && numericAxis) {
    const byQ: ReportChart[] = [];
    const ratios: ReportChart[] = [];
    // The further axes: a chart per combination of their values, or mixed in (and said so).
    const rest = others.filter((a) => a !== numericAxis);
    const restPanels = panels(rest);
    // The routines of most time among those whose records have Q (the main ones may have none);
    // of a routine in several modes, the mean times of each mode per panel, for their ratios.
    const modeMeans = new Map<string, { routine: string; parameter: string; context: SweepContext; byMode: Map<string, [number, number, string][]> }>();
    for (const r of await routineSelections(store, qName)) {
      for (const [k, panel] of (restPanels ?? [{ at: [], where: "" }]).entries()) {
        const { rows, distinctQ, total, means } = await timeVsQRows(store, r, qName, numericAxis.name, MAX_POINTS, panel.where);
        const all = { total, means: means.map(([Q, time, sw]) => ({ Q, time, swept: sw })) };
        const context = restPanels ? { at: panel.at } : { averaged: rest };
        if (distinctQ >= 2) byQ.push(timeVsQBySweepChart(r.label, rows.map(([Q, time, sw]) => ({ Q, time, swept: sw })), qName, numericAxis.name, numericAxis.values, all, context));
        if (r.parameter === undefined) continue;
        const key = `${r.routine}\u0000${r.parameter.name}\u0000${k}`;
        const entry = modeMeans.get(key) ?? modeMeans.set(key, { routine: r.routine, parameter: r.parameter.name, context, byMode: new Map() }).get(key)!;
        entry.byMode.set(r.parameter.value, means);
      }
    }
    for (const { routine, parameter, context, byMode } of modeMeans.values()) {
      if (byMode.size < 2) continue;
      const modes = [...byMode.keys()].sort(compareText);
      const baseline = baselineMode(modes)!;
      const baseMeans = new Map(byMode.get(baseline)!.map(([Q, mean, sw]) => [`${sw}\u0000${Q}`, mean]));
      for (const mode of modes) {
        if (mode === baseline) continue;
        const rows = byMode
          .get(mode)!
          .filter(([Q, , sw]) => (baseMeans.get(`${sw}\u0000${Q}`) ?? 0) > 0)
          .map(([Q, mean, sw]) => ({ Q, ratio: mean / baseMeans.get(`${sw}\u0000${Q}`)!, swept: sw }));
        if (new Set(rows.map((x) => x.Q)).size >= 2) ratios.push(modeRatioBySweepChart(routine, parameter, mode, baseline, rows, qName, numericAxis.name, numericAxis.values, context));
      }
    }
    if (byQ.length) sections.push({ heading: "Time vs Q across the sweep", charts: byQ });
    if (ratios.length) sections.push({ heading: "Time ratio of the modes across the sweep", charts: ratios });
  }
  return { title: `ccasim study report: ${meta.get("name") ?? name}`, subtitle: `${total} point${total === 1 ? "" : "s"}, axes ${axes.map((a) => a.name).join(", ") || "(none)"}`, sections };
}

/**
 * The records a chart of one routine shows: a component's method (`component.method`), and when
 * its records take several values of a text parameter (a mode), one of them.
 */
export interface RoutineSelection {
  /** `component.method`. */
  readonly routine: string;
  /** A text record parameter and its value (`mode`, `strided`), or none. */
  readonly parameter?: { readonly name: string; readonly value: string };
  /** How charts name it: `StatesConstructor.compute` or `StatesConstructor.compute (mode=strided)`. */
  readonly label: string;
}

/** Text record parameters with this many values at most split a routine's charts (a mode, not a name per record). */
const MAX_MODES = 6;

/** Failed points the report's table lists (the first, by index). */
const FAILED_POINTS_LISTED = 20;

/** How many routines the report charts: the main ones. */
const MAIN_ROUTINES = 2;

/**
 * The main routines: the {@link MAIN_ROUTINES} of most total wall time over the successful points
 * (ties by name), or with `withParameter` those among the routines whose records have that
 * parameter (the time-vs-Q charts); each split by the text record parameter (a mode) that takes
 * 2 to {@link MAX_MODES} values among its records, since averaging, say, a sequential and a strided
 * sweep hides what the sweep shows. Why total time and not the number of records: a routine called
 * once per iteration (a solver's sparse product) may hold most of the time while cheap ones called
 * as often tie with it in count.
 */
export async function routineSelections(store: StudyStore, withParameter?: string): Promise<RoutineSelection[]> {
  const having =
    withParameter === undefined
      ? ""
      : `AND EXISTS (SELECT 1 FROM record_parameter q WHERE q.point_id = r.point_id AND q.record_index = r.record_index AND q.name = ${sqlString(withParameter)})`;
  const routines = (
    await store.query(
      `SELECT r.component || '.' || r.method AS routine, sum(r.wall_time ORDER BY r.point_id, r.record_index) AS total FROM record r JOIN point p USING (point_id)
       WHERE p.status = 'ok' ${having} GROUP BY ALL ORDER BY total DESC, routine LIMIT ${MAIN_ROUTINES}`,
    )
  ).rows.map((r) => String(r[0]));
  const out: RoutineSelection[] = [];
  for (const routine of routines) {
    const modes = (
      await store.query(
        `WITH text AS (
           SELECT rp.name, rp.value, count(*) AS n FROM record r JOIN record_parameter rp USING (point_id, record_index)
           WHERE r.component || '.' || r.method = ${sqlString(routine)} GROUP BY ALL HAVING count(rp.numeric_value) = 0)
         SELECT name, value FROM text WHERE name = (
           SELECT name FROM text GROUP BY name HAVING count(*) BETWEEN 2 AND ${MAX_MODES} ORDER BY sum(n) DESC, name LIMIT 1)
         ORDER BY value`,
      )
    ).rows as [string, string][];
    if (modes.length === 0) out.push({ routine, label: routine });
    for (const [name, value] of modes) out.push({ routine, parameter: { name, value }, label: `${routine} (${name}=${value})` });
  }
  return out;
}

/** The SQL condition (on record `r`) of a routine's records. */
function routineCondition(r: RoutineSelection): string {
  const routine = `r.component || '.' || r.method = ${sqlString(r.routine)}`;
  if (r.parameter === undefined) return routine;
  return `${routine} AND EXISTS (SELECT 1 FROM record_parameter m WHERE m.point_id = r.point_id AND m.record_index = r.record_index AND m.name = ${sqlString(r.parameter.name)} AND m.value = ${sqlString(r.parameter.value)})`;
}

/**
 * The invocations of `routine` with their `qName` record parameter, wall time and the point's value
 * of `axis`, in record order, thinned in the database to the rows `thin(rows, max)` keeps (the
 * `floor(i * n / max)`-th, `i < max`); the number of distinct Q values and of invocations among
 * all of them; and the mean time of all of them at each Q and value of `axis` (what a power law
 * is fitted to). Why in SQL: a study holds millions of records, which as JavaScript rows would
 * take gigabytes for a chart that embeds `max` of them.
 * @param routine - `component.method`, or a selection of its records by a mode
 * @param where - further conditions on the point `p` (`AND ...`: a panel's values of other axes)
 */
export async function timeVsQRows(
  store: StudyStore,
  routine: string | RoutineSelection,
  qName: string,
  axis: string,
  max: number,
  where = "",
): Promise<{ rows: [number, number, string][]; distinctQ: number; total: number; means: [number, number, string][] }> {
  const selection = typeof routine === "string" ? { routine, label: routine } : routine;
  const m = Math.floor(max);
  const sel = `WITH sel AS (
       SELECT q.numeric_value AS Q, r.wall_time AS t, s.value AS swept,
              row_number() OVER (ORDER BY r.point_id, r.record_index) - 1 AS rn, count(*) OVER () AS n
       FROM record r JOIN point p USING (point_id)
       JOIN record_parameter q ON q.point_id = r.point_id AND q.record_index = r.record_index AND q.name = ${sqlString(qName)}
       JOIN parameter s ON s.point_id = r.point_id AND s.name = ${sqlString(axis)}
       WHERE p.status = 'ok' AND r.wall_time > 0 AND q.numeric_value > 0 AND ${routineCondition(selection)} ${where})`;
  const result = await store.query(
    `${sel}
     SELECT Q, t, swept, (SELECT count(DISTINCT Q) FROM sel) AS distinct_q, n FROM sel
     -- row rn is kept iff some integer i has rn <= i * n / max < rn + 1
     WHERE n <= ${m} OR ((rn * ${m} + n - 1) // n) * n < (rn + 1) * ${m}
     ORDER BY rn`,
  );
  const all = result.rows as [number, number, string, number | bigint, number | bigint][];
  const distinctQ = all.length > 0 ? Number(all[0][3]) : 0;
  const total = all.length > 0 ? Number(all[0][4]) : 0;
  const means = (await store.query(`${sel} SELECT Q, avg(t ORDER BY rn) AS mean, swept FROM sel GROUP BY swept, Q ORDER BY swept, Q`)).rows as [number, number, string][];
  return { rows: all.map(([Q, t, swept]) => [Q, t, swept]), distinctQ, total, means };
}

/** Most heatmaps per measure: the combinations of the axes beyond the first two, one panel each. */
const MAX_PANELS = 6;

/**
 * The panels of the axes beyond a heatmap's two (each combination of their values, with the SQL
 * condition on point `p` that selects it), or undefined when they are more than {@link MAX_PANELS}
 * (the cells then average over those axes, and the caption says so). Why panels: a sweep of, say,
 * two presets over cache size and Q would otherwise show each cell as the mean of two machines.
 */
function panels(rest: readonly Axis[]): { at: { name: string; value: string }[]; where: string }[] | undefined {
  if (rest.length === 0) return undefined;
  let combos: { name: string; value: string }[][] = [[]];
  for (const axis of rest) {
    if (combos.length * axis.values.length > MAX_PANELS) return undefined;
    combos = combos.flatMap((c) => axis.values.map((value) => [...c, { name: axis.name, value }]));
  }
  return combos.map((at) => ({
    at,
    where: at.map((x) => `AND EXISTS (SELECT 1 FROM parameter x WHERE x.point_id = p.point_id AND x.name = ${sqlString(x.name)} AND x.value = ${sqlString(x.value)})`).join(" "),
  }));
}

/** How many timers a study without records charts: its main ones. */
const MAIN_TIMERS = 3;

/** The flat timers `tm` with their TIME values `tv` per thread. */
const FLAT_TIMER_TIMES = `timer tm JOIN metric m ON m.point_id = tm.point_id AND m.name = 'TIME'
     JOIN timer_value tv ON tv.point_id = tm.point_id AND tv.timer_index = tm.timer_index AND tv.metric_index = m.metric_index`;

/**
 * The flat timers of most exclusive TIME over the successful points (ties by name), TAU's root
 * `.TAU application` left out: what a study without records (a program model's) charts.
 */
async function mainTimers(store: StudyStore): Promise<string[]> {
  const r = await store.query(
    `SELECT tm.name, sum(tv.exclusive ORDER BY tv.point_id, tv.thread_index) AS total
     FROM ${FLAT_TIMER_TIMES} JOIN point p ON p.point_id = tm.point_id
     WHERE p.status = 'ok' AND tm.is_callpath = 0 AND tm.name <> '.TAU application'
     GROUP BY tm.name ORDER BY total DESC, tm.name LIMIT ${MAIN_TIMERS}`,
  );
  return r.rows.map((row) => String(row[0]));
}

/**
 * Per point, a timer's inclusive TIME summed over the threads that recorded it and divided by all
 * the point's threads (TAU's mean over threads), as (point_id, t).
 */
function timerMeanSql(name: string): string {
  return `SELECT tm.point_id, sum(tv.inclusive ORDER BY tv.thread_index) / (SELECT count(*) FROM thread th WHERE th.point_id = tm.point_id) AS t
     FROM ${FLAT_TIMER_TIMES}
     WHERE tm.name = ${sqlString(name)} AND tm.is_callpath = 0
     GROUP BY tm.point_id`;
}

/** Joins of the two most varied axes as a0 and a1. */
function joins(swept: readonly Axis[]): string {
  return swept
    .slice(0, 2)
    .map((a, i) => `JOIN parameter a${i} ON a${i}.point_id = p.point_id AND a${i}.name = ${sqlString(a.name)}`)
    .join(" ");
}

/**
 * The swept axes that are not Q itself: neither named as the record parameter (`workload.Q` for
 * `Q`) nor equal to it in every record that has it (`workload.x` passed as a call's `Q: argument x`).
 */
async function notQAxes(store: StudyStore, swept: readonly Axis[], qName: string): Promise<Axis[]> {
  const out: Axis[] = [];
  for (const a of swept) {
    if (a.name.split(".").pop() === qName) continue;
    if (a.numeric) {
      const [n, differ] = (
        await store.query(
          `SELECT count(*), count(*) FILTER (WHERE q.numeric_value <> s.numeric_value) FROM record_parameter q JOIN parameter s ON s.point_id = q.point_id AND s.name = ${sqlString(a.name)} WHERE q.name = ${sqlString(qName)}`,
        )
      ).rows[0] as [number | bigint, number | bigint];
      if (Number(n) > 0 && Number(differ) === 0) continue;
    }
    out.push(a);
  }
  return out;
}

/** The record parameter used as Q: "Q" when numeric, else the numeric parameter with most records. */
async function qParameter(store: StudyStore): Promise<string | undefined> {
  const r = (await store.query(`SELECT name, count(numeric_value) AS n FROM record_parameter GROUP BY name HAVING count(numeric_value) = count(*) ORDER BY n DESC, name`)).rows as [string, number][];
  return r.find(([n]) => n === "Q")?.[0] ?? r[0]?.[0];
}
