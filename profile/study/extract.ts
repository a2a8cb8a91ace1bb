import { didYouMean } from "../nearest-name.js";
import { describeRecordValues, recordFieldColumn, recordValueName, recordValueOf, recordValueSpellings } from "../record-columns.js";
import { sqlString } from "./sql-text.js";
import { StudyError, type StudyStore } from "./store.js";

/** What to take from a study for a fit: record values as a function of a record parameter and a swept parameter. */
export interface StudySelection {
  /** Record parameter used as Q (e.g. "Q", "x"). */
  readonly parameter: string;
  /**
   * Value used as T: "wallTime" (default), "computeTime", "mpiTime", or a counter name; column
   * names are accepted too ("wall_time", the `record` table's, or "wall_time [us]" and
   * "counter:PAPI_TOT_CYC [count]", the record files', see `recordValueOf`).
   */
  readonly value?: string;
  /** Keep only records of this component / port / method. */
  readonly component?: string;
  readonly port?: string;
  readonly method?: string;
  /** Swept parameter (a scenario key of the sweep, e.g. "machine.l2.size") as the second variable. */
  readonly by?: string;
  /**
   * Keep only records whose parameter `name` has this value (`{ mode: "strided" }`), as text or,
   * for a number, numerically (`1e3` matches 1000).
   */
  readonly where?: Readonly<Record<string, string>>;
  /**
   * How a `where` value of a swept parameter reads as a number (the sweep file's units:
   * "1600MB/s" is 1.6e9), or undefined when it is none; default `Number`. A `where` name that the
   * study sweeps keeps the points whose value is that text or that number; any other name is a
   * record parameter.
   */
  readonly sweptValue?: (text: string) => number | undefined;
}

/** Observations of a study: one entry per record of every successful point, in canonical order. */
export interface StudyObservations {
  /** Q of each observation. */
  readonly q: Float64Array;
  /** T of each observation. */
  readonly t: Float64Array;
  /** Value of the swept parameter of each observation's point (NaN without `by`). */
  readonly by: Float64Array;
  /** Point id of each observation. */
  readonly pointId: readonly string[];
  readonly qLabel: string;
  readonly tLabel: string;
  readonly byLabel?: string;
  /** Observations split by distinct value of the swept parameter (ascending); one group without `by`. */
  readonly groups: readonly { readonly by: number; readonly q: Float64Array; readonly t: Float64Array }[];
  /**
   * Swept parameters (other than `by`) that take several values among the points pooled into one
   * group at the same Q: one fit then mixes, say, two implementations or two cache sizes.
   * Parameters that only move with Q (a `workload.Q` axis) are not listed.
   */
  readonly pooled: readonly string[];
  /**
   * Record parameters (other than Q and those `where` fixes) that take several values among the
   * records pooled into one group at the same Q: one fit then mixes, say, a sequential and a
   * strided mode of one method.
   */
  readonly pooledRecordParameters: readonly string[];
  /**
   * The component methods (`Component.method`, sorted) whose records the observations hold: more
   * than one means one data set pools them (as `RecordObservationSet.sources` says of record files).
   */
  readonly sources: readonly string[];
}

/**
 * Extracts (Q, T, swept parameter) triples from a study, in the shape the analysis fitting takes
 * (`{ q, t }` per group; `fitModels(group)` fits one value of the swept parameter).
 * @throws StudyError when nothing matches, or the swept parameter is not numeric or not in the study
 */
export async function studyObservations(store: StudyStore, sel: StudySelection): Promise<StudyObservations> {
  const asked = sel.value ?? "wallTime";
  const value = recordValueOf(asked);
  const sweptNames = new Set((await store.query(`SELECT DISTINCT name FROM parameter`)).rows.map((x) => String(x[0])));
  const allWhere = Object.entries(sel.where ?? {});
  const recordWhere = allWhere.filter(([name]) => !sweptNames.has(name));
  const sweptWhere = allWhere.filter(([name]) => sweptNames.has(name));
  const sweptNumber = sel.sweptValue ?? ((text: string) => (text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : undefined));
  const where = [
    `p.status = 'ok'`,
    sel.component !== undefined ? `r.component = ${sqlString(sel.component)}` : "",
    sel.port !== undefined ? `r.port = ${sqlString(sel.port)}` : "",
    sel.method !== undefined ? `r.method = ${sqlString(sel.method)}` : "",
    ...sweptWhere.map(([name, value]) => {
      const n = sweptNumber(value);
      // Relative tolerance: a value typed in other units (1.6GB/s for 1600MB/s) may differ in the last bit.
      const numeric = n !== undefined && Number.isFinite(n) ? ` OR abs(s.numeric_value - (${n})) <= ${Math.abs(n) * 1e-12}` : "";
      return `EXISTS (SELECT 1 FROM parameter s WHERE s.point_id = r.point_id AND s.name = ${sqlString(name)} AND (s.value = ${sqlString(value)}${numeric}))`;
    }),
    ...recordWhere.map(([name, value]) => {
      const n = Number(value);
      const numeric = value.trim() !== "" && Number.isFinite(n) ? ` OR w.numeric_value = ${n}` : "";
      return `EXISTS (SELECT 1 FROM record_parameter w WHERE w.point_id = r.point_id AND w.record_index = r.record_index AND w.name = ${sqlString(name)} AND (w.value = ${sqlString(value)}${numeric}))`;
    }),
  ].filter(Boolean);
  const tExpr =
    value.field !== undefined
      ? `r.${recordFieldColumn(value.field)}`
      : `(SELECT c.value FROM record_counter c WHERE c.point_id = r.point_id AND c.record_index = r.record_index AND c.counter = ${sqlString(value.counter)})`;
  const byExpr = sel.by !== undefined ? `(SELECT s.numeric_value FROM parameter s WHERE s.point_id = r.point_id AND s.name = ${sqlString(sel.by)})` : "NULL";
  if (sel.by !== undefined) {
    const known = await store.query(`SELECT DISTINCT name FROM parameter ORDER BY name`);
    const names = known.rows.map((x) => String(x[0]));
    if (!names.includes(sel.by)) throw new StudyError(`the study sweeps no parameter '${sel.by}' (swept: ${names.join(", ") || "none"})`);
  }
  const res = await store.query(
    `SELECT r.point_id, qp.numeric_value AS q, qp.value AS qtext, ${tExpr} AS t, ${byExpr} AS by_value, r.component || '.' || r.method AS routine
     FROM record r JOIN point p USING (point_id)
     LEFT JOIN record_parameter qp ON qp.point_id = r.point_id AND qp.record_index = r.record_index AND qp.name = ${sqlString(sel.parameter)}
     WHERE ${where.join(" AND ")}
     ORDER BY by_value, r.point_id, r.record_index`,
  );
  if (res.rows.length === 0) {
    const none = await noRecordsReason(store);
    if (none !== undefined) throw new StudyError(none);
    const filters = allWhere.map(([k, v]) => ` ${k}=${v}`).join("");
    throw new StudyError(`no record matches component=${sel.component ?? "*"} port=${sel.port ?? "*"} method=${sel.method ?? "*"}${filters}${await unmatchedHint(store, sel)}${await sweptValueHint(store, sweptWhere)}${await whereNameHint(store, recordWhere, [...sweptNames].sort())}`);
  }
  const n = res.rows.length;
  const q = new Float64Array(n);
  const t = new Float64Array(n);
  const by = new Float64Array(n);
  const ids: string[] = [];
  const missingValue = res.rows.find((row) => row[3] === null);
  if (missingValue !== undefined) {
    const counters = (await store.query(`SELECT DISTINCT counter FROM record_counter ORDER BY counter`)).rows.map((x) => String(x[0]));
    throw new StudyError(`point ${String(missingValue[0])}: a record has no value '${asked}'${didYouMean(asked, recordValueSpellings(counters))}; values: ${describeRecordValues(counters)}`);
  }
  const withoutQ = res.rows.find((row) => row[2] === null);
  if (withoutQ !== undefined) throw new StudyError(`point ${String(withoutQ[0])}: a record of ${String(withoutQ[5])} has no parameter '${sel.parameter}'${await parameterHint(store, sel)}`);
  const textBy = sel.by === undefined ? undefined : res.rows.find((row) => row[4] === null);
  if (textBy !== undefined) {
    const values = (await sweptValues(store, sel.by!)).map(([v]) => v);
    throw new StudyError(`swept parameter '${sel.by}' is not numeric (it takes ${values.join(", ")}): fit one value at a time with --where ${sel.by}=<value>`);
  }
  res.rows.forEach((row, i) => {
    const [id, qn, qtext, tv, bv] = row as [string, number | null, string, number, number | null];
    if (qn === null) throw new StudyError(`point ${id}: parameter '${sel.parameter}' is '${qtext}', not a number`);
    ids.push(id);
    q[i] = qn;
    t[i] = tv;
    by[i] = bv ?? NaN;
  });
  const groups: { by: number; q: Float64Array; t: Float64Array }[] = [];
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && (Object.is(by[j], by[i]) || by[j] === by[i])) j++;
    groups.push({ by: by[i], q: q.slice(i, j), t: t.slice(i, j) });
    i = j;
  }
  const what = [sel.component, sel.method].filter((x) => x !== undefined).join(".");
  const pooled = await pooledParameters(store, { where, q: sel.parameter, by: sel.by, byExpr });
  const pooledRecordParameters = await pooledRecordParameterNames(store, { where, q: sel.parameter, fixed: recordWhere.map(([k]) => k), byExpr });
  const filters = Object.entries(sel.where ?? {}).map(([k, v]) => `${k}=${v}`);
  const tLabel = `${recordValueName(value)}${what ? ` of ${what}` : ""}${filters.length > 0 ? ` (${filters.join(", ")})` : ""}`;
  // (From the rows already read: each names its routine.)
  const sources = [...new Set(res.rows.map((row) => String(row[5])))].sort();
  return { q, t, by, pointId: ids, qLabel: sel.parameter, tLabel, byLabel: sel.by, groups, pooled, pooledRecordParameters, sources };
}

/**
 * Which routines' records have the parameter `sel.parameter`, as a hint for the selection to name
 * one (`; records with it: Stencil.compute (give --component)`), or the parameters the records have.
 */
async function parameterHint(store: StudyStore, sel: StudySelection): Promise<string> {
  const routines = (
    await store.query(
      `SELECT DISTINCT r.component || '.' || r.method FROM record r JOIN record_parameter rp USING (point_id, record_index) WHERE rp.name = ${sqlString(sel.parameter)} ORDER BY 1`,
    )
  ).rows.map((x) => String(x[0]));
  if (routines.length > 0) return `; records with it: ${routines.join(", ")} (select them with --component and --method)`;
  const names = await recordParameterNames(store);
  return `${didYouMean(sel.parameter, names)}; record parameters: ${names.join(", ") || "none (no proxy records parameters)"}`;
}

/**
 * The `where` names that are neither swept nor a parameter of any record, with the nearest name of
 * either kind (a swept key whose last part is the name, for a short form such as `pattern`).
 */
async function whereNameHint(store: StudyStore, recordWhere: readonly (readonly [string, string])[], swept: readonly string[]): Promise<string> {
  if (recordWhere.length === 0) return "";
  const recordNames = await recordParameterNames(store);
  const parts: string[] = [];
  for (const [name] of recordWhere) {
    if (recordNames.includes(name)) continue;
    const byLastPart = swept.filter((k) => k.endsWith(`.${name}`));
    const hint = byLastPart.length === 1 ? ` (did you mean '${byLastPart[0]}'?)` : didYouMean(name, [...swept, ...recordNames]);
    parts.push(`no swept or record parameter '${name}'${hint}`);
  }
  if (parts.length === 0) return "";
  return `; ${parts.join("; ")} (swept: ${swept.join(", ") || "none"}; record parameters: ${recordNames.join(", ") || "none"})`;
}

/** The names of the records' parameters, sorted. */
async function recordParameterNames(store: StudyStore): Promise<string[]> {
  return (await store.query(`SELECT DISTINCT name FROM record_parameter ORDER BY name`)).rows.map((x) => String(x[0]));
}

/**
 * Why a fit finds nothing at all when the study's successful points store no per-invocation record
 * (its scenario is a program model, or its assembly proxies no port, or no point succeeded);
 * undefined when they store some.
 */
async function noRecordsReason(store: StudyStore): Promise<string | undefined> {
  const [[ok, failed, records, programs]] = (
    await store.query(
      `SELECT count(*) FILTER (WHERE status = 'ok'), count(*) FILTER (WHERE status <> 'ok'),
              coalesce(sum(record_count) FILTER (WHERE status = 'ok'), 0),
              count(*) FILTER (WHERE status = 'ok' AND json_extract_string(summary, '$.kind') = 'program model')
       FROM point`,
    )
  ).rows.map((row) => row.map(Number));
  if (records > 0) return undefined;
  const head = "the study stores no invocation records, which a fit reads (one per proxied call, with its parameters and times)";
  if (ok === 0) return failed === 0 ? `${head}: it holds no point yet` : `${head}: none of its ${failed} points succeeded (their errors: the study's 'error' table)`;
  if (programs === ok) return `${head}: its scenario is a program model, whose runs write no per-invocation records (they come from an assembly's proxies); its profiles are in the timer and timer_value tables`;
  return `${head}: its assembly proxies no port, or its proxies saw no call (records come from the ports listed under assembly.proxies)`;
}

/** The values a swept parameter takes, as given and as numbers (null for text), numbers first in order. */
async function sweptValues(store: StudyStore, name: string): Promise<[string, number | null][]> {
  const rows = (await store.query(`SELECT DISTINCT value, numeric_value FROM parameter WHERE name = ${sqlString(name)} ORDER BY numeric_value, value`)).rows;
  return rows.map(([v, n]) => [String(v), n === null ? null : Number(n)]);
}

/** The values a swept parameter of `where` takes, when none is the one asked for. */
async function sweptValueHint(store: StudyStore, sweptWhere: readonly (readonly [string, string])[]): Promise<string> {
  const parts: string[] = [];
  for (const [name] of sweptWhere) {
    const values = await sweptValues(store, name);
    parts.push(`swept parameter ${name} takes ${values.map(([v, n]) => (n === null || String(n) === v ? v : `${v} (${String(n)})`)).join(", ")}`);
  }
  return parts.length > 0 ? `; ${parts.join("; ")}` : "";
}

/**
 * What the study's records of successful points offer for each of component, port and method the
 * selection names and none has: `; no component 'DerivZ' (did you mean 'DerivY'?) among DerivX, DerivY`.
 */
async function unmatchedHint(store: StudyStore, sel: StudySelection): Promise<string> {
  const parts: string[] = [];
  for (const key of ["component", "port", "method"] as const) {
    const asked = sel[key];
    if (asked === undefined) continue;
    const names = (await store.query(`SELECT DISTINCT r.${key} FROM record r JOIN point p USING (point_id) WHERE p.status = 'ok' ORDER BY 1`)).rows.map((x) => String(x[0]));
    if (!names.includes(asked)) parts.push(`no ${key} '${asked}'${didYouMean(asked, names)} among ${names.join(", ") || "none (the study has no records)"}`);
  }
  return parts.length > 0 ? `; ${parts.join("; ")}` : "";
}

/**
 * The swept parameters other than `by` whose value differs between two points that give records
 * at the same Q and the same value of `by` (see {@link StudyObservations.pooled}).
 */
async function pooledParameters(store: StudyStore, o: { where: readonly string[]; q: string; by: string | undefined; byExpr: string }): Promise<string[]> {
  const res = await store.query(
    `WITH obs AS (
       SELECT DISTINCT r.point_id, qp.numeric_value AS q, ${o.byExpr} AS by_value
       FROM record r JOIN point p USING (point_id)
       JOIN record_parameter qp ON qp.point_id = r.point_id AND qp.record_index = r.record_index AND qp.name = ${sqlString(o.q)}
       WHERE ${o.where.join(" AND ")})
     SELECT DISTINCT s.name FROM obs JOIN parameter s ON s.point_id = obs.point_id
     ${o.by !== undefined ? `WHERE s.name <> ${sqlString(o.by)}` : ""}
     GROUP BY s.name, obs.by_value, obs.q HAVING count(DISTINCT s.value) > 1
     ORDER BY 1`,
  );
  return res.rows.map((x) => String(x[0]));
}

/**
 * The record parameters other than Q and the `fixed` ones that take several values among the
 * selected records at the same Q and value of the swept parameter (see
 * {@link StudyObservations.pooledRecordParameters}). (The same rule, over a run's records in
 * memory: `RecordObservations.notePooling` in analysis/fit/from-trial.ts; a change to one is a
 * change to both.)
 */
async function pooledRecordParameterNames(store: StudyStore, o: { where: readonly string[]; q: string; fixed: readonly string[]; byExpr: string }): Promise<string[]> {
  const res = await store.query(
    `WITH obs AS (
       SELECT r.point_id, r.record_index, qp.numeric_value AS q, ${o.byExpr} AS by_value
       FROM record r JOIN point p USING (point_id)
       JOIN record_parameter qp ON qp.point_id = r.point_id AND qp.record_index = r.record_index AND qp.name = ${sqlString(o.q)}
       WHERE ${o.where.join(" AND ")})
     SELECT DISTINCT rp.name FROM obs
     JOIN record_parameter rp ON rp.point_id = obs.point_id AND rp.record_index = obs.record_index
     WHERE rp.name NOT IN (${[o.q, ...o.fixed].map(sqlString).join(", ")})
     GROUP BY rp.name, obs.by_value, obs.q HAVING count(DISTINCT rp.value) > 1
     ORDER BY 1`,
  );
  return res.rows.map((x) => String(x[0]));
}
