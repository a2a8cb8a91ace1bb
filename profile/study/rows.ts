import type { Trial } from "../model.js";
import { keyOrder, recordCount, recordTable, type RecordSource } from "../record-table.js";
import { STUDY_TABLES, TIMING_TABLE } from "./schema.js";

/**
 * A string column dictionary-encoded: its distinct values and, per row, the index of its value
 * in `dict` (-1 for NULL). Why: repeated strings (component, port, counter names) cross from a
 * worker thread as one small array and an Int32Array instead of one cloned string per row.
 */
export interface DictColumn {
  readonly dict: readonly string[];
  readonly codes: Int32Array;
}

/** A numeric column with NULLs: the values and, per row, 1 where the value is NULL. */
export interface NullableColumn {
  readonly values: Float64Array;
  readonly nulls: Uint8Array;
}

/**
 * A column of a study table: its values in row order. A compacted point (see {@link compactRows})
 * holds numeric columns as Float64Array (or {@link NullableColumn}), string columns as
 * {@link DictColumn}, and its `point_id` columns empty; the store takes plain arrays as well.
 */
export type Column = (string | number | null)[] | Float64Array | DictColumn | NullableColumn;

/** Columns being filled. */
type Plain = (string | number | null)[][];

/** Rows of one study table for one point, column by column (column order as in {@link STUDY_TABLES}). */
export type TableRows = Column[];

/** Everything one sweep point stores, in table-ready columns (built in the worker, appended by the store). */
export interface PointRows {
  readonly pointId: string;
  /** Rows by table name (every deterministic table but `study_meta`). */
  readonly tables: Readonly<Record<string, TableRows>>;
  /** The wall-clock row (table `timing`): never compared between runs. */
  readonly timing: { readonly wallSeconds: number; readonly eventsPerSecond: number };
}

/** What a point is, as the sweep sees it. */
export interface PointIdentity {
  readonly id: string;
  readonly index: number;
  readonly replication: number;
  readonly seed: number;
  readonly values: Readonly<Record<string, string | number | boolean>>;
  /**
   * The values as numbers in base units where the sweep reads them as quantities (`1MiB`,
   * `2.5GHz`), stored as `numeric_value`; a value without one is stored as a number only when it is
   * a number (or a boolean, as 1 or 0).
   */
  readonly numericValues?: Readonly<Record<string, number | null>>;
}

/** The outcome of running a point: a profile and records, or an error. */
export type PointOutcome =
  | {
      readonly ok: true;
      readonly trial?: Trial;
      /** The point's records, as objects or as a table (a run's Mastermind). */
      readonly records: RecordSource;
      readonly simulatedTime: number;
      readonly events: number;
      readonly invocations: number;
      readonly summary: Record<string, unknown>;
      readonly wallSeconds: number;
    }
  | { readonly ok: false; readonly kind: string; readonly message: string; readonly wallSeconds: number };

function numeric(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  return null;
}

/**
 * Flattens a point's outcome into table rows (see docs/study-schema.md). Pure and deterministic:
 * the same outcome gives the same rows.
 */
export function pointRows(point: PointIdentity, outcome: PointOutcome): PointRows {
  return compactRows(pointRowsPlain(point, outcome));
}

/**
 * Compacts a point's rows for the trip from a worker thread: `point_id` columns (always the
 * point's id) are left empty, numeric columns become Float64Arrays (with a NULL mask when they
 * hold NULLs) and string columns dictionary-encoded. Why: structured cloning repeated strings and
 * boxed numbers costs more than storing them; typed arrays cross threads as one byte copy each.
 * Columns holding values of another type are left as they are (the store reports them).
 */
export function compactRows(rows: PointRows): PointRows {
  const tables: Record<string, TableRows> = {};
  for (const [name, cols] of Object.entries(rows.tables)) {
    const schema = TABLE_BY_NAME.get(name);
    tables[name] = cols.map((col, i) => {
      if (!Array.isArray(col)) return col;
      if (i === 0 && col.length > 0 && col.every((v) => v === rows.pointId)) return [];
      const type = schema?.columns[i]?.type;
      if (type === "VARCHAR") return dictColumn(col) ?? col;
      if (type !== undefined) return numericColumn(col) ?? col;
      return col;
    });
  }
  return { ...rows, tables };
}

const TABLE_BY_NAME = new Map([...STUDY_TABLES, TIMING_TABLE].map((t) => [t.name, t]));

/** A string column dictionary-encoded, or undefined when it holds a non-string. */
export function dictColumn(col: readonly unknown[]): DictColumn | undefined {
  const index = new Map<string, number>();
  const dict: string[] = [];
  const codes = new Int32Array(col.length);
  for (let r = 0; r < col.length; r++) {
    const v = col[r];
    if (v === null) {
      codes[r] = -1;
      continue;
    }
    if (typeof v !== "string") return undefined;
    let k = index.get(v);
    if (k === undefined) {
      k = dict.length;
      index.set(v, k);
      dict.push(v);
    }
    codes[r] = k;
  }
  return { dict, codes };
}

/** A numeric column as Float64Array (NullableColumn with NULLs), or undefined when it holds a non-number. */
export function numericColumn(col: readonly unknown[]): Float64Array | NullableColumn | undefined {
  const values = new Float64Array(col.length);
  let nulls: Uint8Array | undefined;
  for (let r = 0; r < col.length; r++) {
    const v = col[r];
    if (typeof v === "number") values[r] = v;
    else if (v === null) (nulls ??= new Uint8Array(col.length))[r] = 1;
    else return undefined;
  }
  return nulls ? { values, nulls } : values;
}

/** The number of rows of a column. */
export function columnLength(col: Column): number {
  if (Array.isArray(col) || col instanceof Float64Array) return col.length;
  return "codes" in col ? col.codes.length : col.values.length;
}

/** The row count of a table's columns (the longest column; empty `point_id` columns excluded). */
export function tableRowCount(cols: TableRows): number {
  let n = 0;
  for (const c of cols) n = Math.max(n, columnLength(c));
  return n;
}

function pointRowsPlain(point: PointIdentity, outcome: PointOutcome): PointRows {
  const id = point.id;
  const parameter: Plain = [[], [], [], []];
  for (const k of Object.keys(point.values).sort()) {
    const v = point.values[k];
    parameter[0].push(id);
    parameter[1].push(k);
    parameter[2].push(String(v));
    const n = point.numericValues?.[k];
    parameter[3].push(n !== undefined ? n : numeric(v));
  }
  const tables: Record<string, TableRows> = { parameter };
  if (!outcome.ok) {
    tables.point = [[id], [point.index], [point.replication], [point.seed], ["error"], [null], [null], [null], [0], [null]];
    tables.error = [[id], [outcome.kind], [outcome.message]];
    return { pointId: id, tables, timing: { wallSeconds: outcome.wallSeconds, eventsPerSecond: 0 } };
  }
  tables.point = [
    [id],
    [point.index],
    [point.replication],
    [point.seed],
    ["ok"],
    [outcome.simulatedTime],
    [outcome.events],
    [outcome.invocations],
    [recordCount(outcome.records)],
    [JSON.stringify(outcome.summary)],
  ];
  if (outcome.trial) Object.assign(tables, trialRows(id, outcome.trial));
  Object.assign(tables, recordRows(outcome.records));
  return {
    pointId: id,
    tables,
    timing: { wallSeconds: outcome.wallSeconds, eventsPerSecond: outcome.events / Math.max(outcome.wallSeconds, 1e-9) },
  };
}

/** Rows of the thread, metric, timer, callpath and timer_value tables for one trial. */
export function trialRows(id: string, trial: Trial): Record<string, TableRows> {
  const thread: Plain = [[], [], [], [], []];
  trial.threads.forEach((t, i) => {
    thread[0].push(id);
    thread[1].push(i);
    thread[2].push(t.node);
    thread[3].push(t.context);
    thread[4].push(t.thread);
  });
  const metric: Plain = [[], [], []];
  trial.metrics.forEach((m, i) => {
    metric[0].push(id);
    metric[1].push(i);
    metric[2].push(m);
  });
  const timer: Plain = [[], [], [], [], []];
  const callpath: Plain = [[], [], [], [], []];
  for (const t of trial.timers) {
    timer[0].push(id);
    timer[1].push(t.index);
    timer[2].push(t.name);
    timer[3].push(t.groups.join("|"));
    timer[4].push(t.isCallpath ? 1 : 0);
    if (t.isCallpath) {
      callpath[0].push(id);
      callpath[1].push(t.index);
      callpath[2].push(t.path.length);
      callpath[3].push(t.path[t.path.length - 1]);
      callpath[4].push(t.path.slice(0, -1).join(" => "));
    }
  }
  const value: Plain = [[], [], [], [], [], [], [], []];
  const v = trial.values;
  const nt = trial.timers.length;
  for (let th = 0; th < trial.threads.length; th++) {
    for (let ti = 0; ti < nt; ti++) {
      const slot = th * nt + ti;
      if (!v.present[slot]) continue;
      for (let m = 0; m < trial.metrics.length; m++) {
        value[0].push(id);
        value[1].push(ti);
        value[2].push(th);
        value[3].push(m);
        value[4].push(v.inclusive[m][slot]);
        value[5].push(v.exclusive[m][slot]);
        value[6].push(v.calls[slot]);
        value[7].push(v.subroutines[slot]);
      }
    }
  }
  return { thread, metric, timer, callpath, timer_value: value };
}

/** Builds a {@link DictColumn} value by value. */
class DictBuilder {
  private readonly index = new Map<string, number>();
  private readonly dict: string[] = [];
  readonly codes: Int32Array;

  constructor(n: number) {
    this.codes = new Int32Array(n);
  }

  set(row: number, v: string): void {
    let k = this.index.get(v);
    if (k === undefined) {
      k = this.dict.length;
      this.index.set(v, k);
      this.dict.push(v);
    }
    this.codes[row] = k;
  }

  column(): DictColumn {
    return { dict: this.dict, codes: this.codes };
  }
}

/**
 * Rows of the record, record_parameter and record_counter tables, already compact (typed and
 * dictionary-encoded columns, `point_id` columns empty: see {@link compactRows}). Why built
 * compact: a record-heavy point has tens of thousands of records, and pushing boxed values into
 * plain arrays first cost a third of running it. Records are read as a table (a run's Mastermind
 * is one), so a run's records are not made objects on the way.
 */
export function recordRows(source: RecordSource): Record<string, TableRows> {
  const table = recordTable(source);
  const n = table.count;
  const params = table.kinds.map((k) => keyOrder(k.parameterNames));
  const counters = table.kinds.map((k) => keyOrder(k.counterNames));
  let np = 0;
  let nc = 0;
  for (let i = 0; i < n; i++) {
    const kind = table.kind(i);
    np += params[kind].names.length;
    nc += counters[kind].names.length;
  }
  const index = new Float64Array(n);
  const component = new DictBuilder(n);
  const port = new DictBuilder(n);
  const method = new DictBuilder(n);
  const rank = new Float64Array(n);
  const start = new Float64Array(n);
  const wall = new Float64Array(n);
  const mpi = new Float64Array(n);
  const compute = new Float64Array(n);
  const pIndex = new Float64Array(np);
  const pName = new DictBuilder(np);
  const pValue = new DictBuilder(np);
  const pNumeric = new Float64Array(np);
  let pNulls: Uint8Array | undefined;
  const cIndex = new Float64Array(nc);
  const cName = new DictBuilder(nc);
  const cValue = new Float64Array(nc);
  let pi = 0;
  let ci = 0;
  for (let i = 0; i < n; i++) {
    const kindId = table.kind(i);
    const kind = table.kinds[kindId];
    index[i] = i;
    component.set(i, kind.component);
    port.set(i, kind.port);
    method.set(i, kind.method);
    rank[i] = table.rank(i);
    start[i] = table.start(i);
    wall[i] = table.wallTime(i);
    mpi[i] = table.mpiTime(i);
    compute[i] = table.computeTime(i);
    const p = params[kindId];
    for (let k = 0; k < p.names.length; k++) {
      const pv = table.parameter(i, p.at[k]);
      pIndex[pi] = i;
      pName.set(pi, p.names[k]);
      pValue.set(pi, String(pv));
      const num = numeric(pv);
      if (num === null) (pNulls ??= new Uint8Array(np))[pi] = 1;
      else pNumeric[pi] = num;
      pi++;
    }
    const c = counters[kindId];
    for (let k = 0; k < c.names.length; k++) {
      cIndex[ci] = i;
      cName.set(ci, c.names[k]);
      cValue[ci] = table.counter(i, c.at[k]);
      ci++;
    }
  }
  return {
    record: [[], index, component.column(), port.column(), method.column(), rank, start, wall, mpi, compute],
    record_parameter: [[], pIndex, pName.column(), pValue.column(), pNulls ? { values: pNumeric, nulls: pNulls } : pNumeric],
    record_counter: [[], cIndex, cName.column(), cValue],
  };
}
