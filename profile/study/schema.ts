/**
 * The study database schema, after TAUdb (trial, thread, timer, callpath, metric, values) plus
 * per-invocation records, swept parameters and errors. One row of `point` per sweep point (TAUdb's
 * trial); every other table is keyed by `point_id`. Only `timing` holds wall-clock figures, so
 * every other table is identical whatever the number of workers or machines. docs/study-schema.md
 * describes each column.
 */

/** A column: name and DuckDB type. */
export interface StudyColumn {
  readonly name: string;
  readonly type: "VARCHAR" | "INTEGER" | "BIGINT" | "DOUBLE";
  readonly doc: string;
}

/** A table of the study database. */
export interface StudyTable {
  readonly name: string;
  readonly doc: string;
  readonly columns: readonly StudyColumn[];
  /** Columns that order the rows canonically (for comparisons and exports). */
  readonly orderBy: readonly string[];
}

const c = (name: string, type: StudyColumn["type"], doc: string): StudyColumn => ({ name, type, doc });
const pid = c("point_id", "VARCHAR", "the point (16 hex digits, a hash of its canonical values and replication)");

/** Every per-point table, in insertion order (`point` last: its row marks the point complete). */
export const STUDY_TABLES: readonly StudyTable[] = [
  {
    name: "parameter",
    doc: "Swept parameters of each point (TAUdb: trial metadata).",
    columns: [pid, c("name", "VARCHAR", "scenario key path, e.g. machine.l2.size"), c("value", "VARCHAR", "value as given or generated; a list or map as JSON, map keys sorted (e.g. [\"TIME\",\"PAPI_L2_TCM\"])"), c("numeric_value", "DOUBLE", "the value as a number in base units when it is a number or a quantity (1MiB: 1048576, 2.5GHz: 2.5e9, 100ns: 0.1 microseconds), else NULL")],
    orderBy: ["point_id", "name"],
  },
  {
    name: "error",
    doc: "Why a point failed (invalid combination, deadlock, ...). Failed points have status 'error' in `point`.",
    columns: [pid, c("kind", "VARCHAR", "error class, e.g. ScenarioErrors, MpiDeadlockError"), c("message", "VARCHAR", "the full message")],
    orderBy: ["point_id"],
  },
  {
    name: "thread",
    doc: "Threads of the point's profile (TAUdb: thread): node = MPI rank.",
    columns: [pid, c("thread_index", "INTEGER", "position in the trial"), c("node", "INTEGER", "MPI rank"), c("context", "INTEGER", "TAU context"), c("thread", "INTEGER", "TAU thread")],
    orderBy: ["point_id", "thread_index"],
  },
  {
    name: "metric",
    doc: "Metrics measured (TAUdb: metric): TIME in microseconds, counters in counts.",
    columns: [pid, c("metric_index", "INTEGER", "position in the trial"), c("name", "VARCHAR", "TIME, PAPI_TOT_CYC, ...")],
    orderBy: ["point_id", "metric_index"],
  },
  {
    name: "timer",
    doc: "Timers (TAUdb: timer), flat routines and callpaths `A => B`.",
    columns: [pid, c("timer_index", "INTEGER", "position in the trial"), c("name", "VARCHAR", "canonical name"), c("groups", "VARCHAR", "group names joined by |"), c("is_callpath", "INTEGER", "1 for a callpath entry")],
    orderBy: ["point_id", "timer_index"],
  },
  {
    name: "callpath",
    doc: "Callpath structure of callpath timers (TAUdb: timer_callpath).",
    columns: [pid, c("timer_index", "INTEGER", "the callpath timer"), c("depth", "INTEGER", "number of elements"), c("leaf", "VARCHAR", "last element (the callee)"), c("parent", "VARCHAR", "the path without its leaf")],
    orderBy: ["point_id", "timer_index"],
  },
  {
    name: "timer_value",
    doc: "Per thread x timer x metric values (TAUdb: timer_value), only where the thread recorded the timer.",
    columns: [
      pid,
      c("timer_index", "INTEGER", "timer"),
      c("thread_index", "INTEGER", "thread"),
      c("metric_index", "INTEGER", "metric"),
      c("inclusive", "DOUBLE", "inclusive value (us for TIME)"),
      c("exclusive", "DOUBLE", "exclusive value"),
      c("calls", "DOUBLE", "number of calls"),
      c("subroutines", "DOUBLE", "number of child calls"),
    ],
    orderBy: ["point_id", "timer_index", "thread_index", "metric_index"],
  },
  {
    name: "record",
    doc: "Per-invocation proxy records (Mastermind), one per proxied call.",
    columns: [
      pid,
      c("record_index", "INTEGER", "position in the run's records"),
      c("component", "VARCHAR", "component instance"),
      c("port", "VARCHAR", "provides port"),
      c("method", "VARCHAR", "method"),
      c("rank", "INTEGER", "MPI rank of the caller"),
      c("start", "DOUBLE", "start (simulated us)"),
      c("wall_time", "DOUBLE", "duration (us)"),
      c("mpi_time", "DOUBLE", "time in MPI during the call (us)"),
      c("compute_time", "DOUBLE", "compute time (us)"),
    ],
    orderBy: ["point_id", "record_index"],
  },
  {
    name: "record_parameter",
    doc: "Performance parameters of each record (Q, mode, ...).",
    columns: [pid, c("record_index", "INTEGER", "record"), c("name", "VARCHAR", "parameter name"), c("value", "VARCHAR", "value as text"), c("numeric_value", "DOUBLE", "value as a number, else NULL")],
    orderBy: ["point_id", "record_index", "name"],
  },
  {
    name: "record_counter",
    doc: "Hardware-counter deltas of each record.",
    columns: [pid, c("record_index", "INTEGER", "record"), c("counter", "VARCHAR", "counter name"), c("value", "DOUBLE", "delta (counts)")],
    orderBy: ["point_id", "record_index", "counter"],
  },
  {
    name: "point",
    doc: "One row per finished point (TAUdb: trial). Its presence marks the point done; it is written in the same transaction as the point's other rows.",
    columns: [
      pid,
      c("point_index", "INTEGER", "position in the sweep's enumeration (ccasim sweep --point K)"),
      c("replication", "INTEGER", "0-based replication"),
      c("seed", "BIGINT", "scenario seed of the point"),
      c("status", "VARCHAR", "ok or error"),
      c("simulated_time", "DOUBLE", "simulated end time (us)"),
      c("events", "BIGINT", "events processed"),
      c("invocations", "BIGINT", "component invocations"),
      c("record_count", "INTEGER", "records stored"),
      c("summary", "VARCHAR", "the run summary (JSON), as summary.json of ccasim run"),
    ],
    orderBy: ["point_id"],
  },
];

/** The wall-clock table: the only one that differs between runs of the same study. */
export const TIMING_TABLE: StudyTable = {
  name: "timing",
  doc: "Wall-clock figures of each point (vary between runs; kept out of every other table).",
  columns: [pid, c("wall_seconds", "DOUBLE", "wall time of the simulation (s)"), c("events_per_second", "DOUBLE", "simulation speed"), c("finished_at", "VARCHAR", "ISO time the point was stored")],
  orderBy: ["point_id"],
};

/** Study-level key/value metadata (sweep file, study hash, seed, scenario text). */
export const META_TABLE: StudyTable = {
  name: "study_meta",
  doc: "Study metadata: name, study_hash, seed, sweep file, scenario text, points.",
  columns: [c("key", "VARCHAR", "key"), c("value", "VARCHAR", "value")],
  orderBy: ["key"],
};

/** DDL creating every table (idempotent). */
export function studyDdl(): string[] {
  const ddl = (t: StudyTable, pk?: string) =>
    `CREATE TABLE IF NOT EXISTS "${t.name}" (${t.columns.map((col) => `"${col.name}" ${col.type}${col.name === pk ? " PRIMARY KEY" : ""}`).join(", ")})`;
  return [ddl(META_TABLE, "key"), ...STUDY_TABLES.map((t) => ddl(t, t.name === "point" ? "point_id" : undefined)), ddl(TIMING_TABLE, "point_id")];
}
