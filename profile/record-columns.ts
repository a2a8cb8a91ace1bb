/**
 * Column names of the record files (CSV and JSON Lines), which carry their units:
 *
 * ```
 * component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q,counter:PAPI_FP_INS [count]
 * ```
 */

/** Column names of the fixed record fields, with units. */
export const RECORD_COLUMNS = {
  component: "component",
  port: "port",
  method: "method",
  rank: "rank",
  start: "start [us]",
  wallTime: "wall_time [us]",
  mpiTime: "mpi_time [us]",
  computeTime: "compute_time [us]",
} as const;

/** The fixed columns in file order. @internal */
export const FIXED_COLUMNS: readonly string[] = Object.values(RECORD_COLUMNS);
/** @internal */
export const PARAM_PREFIX = "param:";
/** @internal */
export const COUNTER_PREFIX = "counter:";
/** @internal */
export const COUNTER_SUFFIX = " [count]";

/** The column of parameter `name`. @internal */
export function parameterColumn(name: string): string {
  return PARAM_PREFIX + name;
}

/** The column of counter `name`. @internal */
export function counterColumn(name: string): string {
  return COUNTER_PREFIX + name + COUNTER_SUFFIX;
}

/** The fixed numeric fields of a record that a fit or a chart can take as its value (microseconds). */
export const RECORD_VALUE_FIELDS = ["wallTime", "computeTime", "mpiTime"] as const;

/** One of {@link RECORD_VALUE_FIELDS}. */
export type RecordValueField = (typeof RECORD_VALUE_FIELDS)[number];

/** A value of a record, as {@link recordValueOf} resolves a name: a fixed field or a counter. */
export type RecordValue = { readonly field: RecordValueField; readonly counter?: undefined } | { readonly counter: string; readonly field?: undefined };

/** The column of a fixed field without its unit (`wall_time`): the study database's column name. @internal */
export function recordFieldColumn(field: RecordValueField): string {
  return RECORD_COLUMNS[field].replace(/ \[[^\]]*\]$/, "");
}

/**
 * Resolves the name of a record value as a user may write it: the field (`wallTime`), the record
 * files' column with or without its unit (`wall_time [us]`, `wall_time`, which is also the study
 * database's column), a counter's column (`counter:PAPI_TOT_CYC [count]`, `counter:PAPI_TOT_CYC`),
 * or a counter's name (any other name).
 */
export function recordValueOf(name: string): RecordValue {
  const text = name.trim();
  for (const field of RECORD_VALUE_FIELDS) if (text === field || text === RECORD_COLUMNS[field] || text === recordFieldColumn(field)) return { field };
  if (!text.startsWith(COUNTER_PREFIX)) return { counter: text };
  const counter = text.slice(COUNTER_PREFIX.length);
  return { counter: counter.endsWith(COUNTER_SUFFIX) ? counter.slice(0, -COUNTER_SUFFIX.length) : counter };
}

/** The name of a resolved value in labels and messages: the field (`wallTime`) or the counter. */
export function recordValueName(value: RecordValue): string {
  return value.field ?? value.counter;
}

/**
 * The value names valid for records with these counters, for error messages:
 * `wallTime (wall_time [us]), ..., counters PAPI_TOT_CYC (counter:PAPI_TOT_CYC [count])`.
 */
export function describeRecordValues(counters: readonly string[]): string {
  const fields = RECORD_VALUE_FIELDS.map((f) => `${f} (${RECORD_COLUMNS[f]})`).join(", ");
  return `${fields}, ${counters.length === 0 ? "no counters" : `counters ${counters.map((c) => `${c} (${counterColumn(c)})`).join(", ")}`}`;
}

/** Every spelling of the record values {@link recordValueOf} accepts, for "did you mean" hints. */
export function recordValueSpellings(counters: readonly string[]): string[] {
  return [...RECORD_VALUE_FIELDS.flatMap((f) => [f, RECORD_COLUMNS[f], recordFieldColumn(f)]), ...counters, ...counters.map(counterColumn)];
}

/** The largest rank a record may name: MPI ranks are C ints. @internal */
export const MAX_RANK = 2 ** 31 - 1;
