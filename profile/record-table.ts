/**
 * Per-invocation records as columns: a {@link RecordTable} answers per-row questions (rank, times,
 * the n-th parameter or counter of the row's kind) without an object per record. The simulator's
 * Mastermind is one (it keeps millions of records in typed arrays); an array of
 * {@link InvocationRecord} objects becomes one through {@link recordTable}. Writers and summaries
 * take a {@link RecordSource}, either form, so a run's records reach the files without being
 * materialised as objects.
 */
import type { InvocationRecord } from "./model.js";

/**
 * What the records of one kind share: the method they record and the names of the parameters and
 * counters each of them carries. A name listed twice holds the value given last (as in the
 * record's objects, where the later assignment wins).
 */
export interface RecordKind {
  /** Component instance name. */
  readonly component: string;
  /** Provides-port name. */
  readonly port: string;
  /** Method name. */
  readonly method: string;
  /** Parameter names, in the order the record's `parameters` object receives them. */
  readonly parameterNames: readonly string[];
  /** Counter names, in the order the record's `counters` object receives them. */
  readonly counterNames: readonly string[];
}

/**
 * Records read column by column. Rows are 0-based in record order; accessors do not check bounds
 * (they are the hot path of writers and summaries). Times are microseconds, counters counts, as in
 * {@link InvocationRecord}. A table may grow (a Mastermind still recording), never change rows it
 * has.
 */
export interface RecordTable {
  /** Number of records. */
  readonly count: number;
  /** The kinds rows refer to (a kind may have no row). */
  readonly kinds: readonly RecordKind[];
  /** Index into {@link kinds} of row `i`. */
  kind(i: number): number;
  /** MPI rank of row `i`. */
  rank(i: number): number;
  /** Start time of row `i` (microseconds). */
  start(i: number): number;
  /** Wall time of row `i` (microseconds). */
  wallTime(i: number): number;
  /** MPI time of row `i` (microseconds). */
  mpiTime(i: number): number;
  /** Compute time of row `i` (microseconds). */
  computeTime(i: number): number;
  /** Value of parameter `k` (an index into its kind's `parameterNames`) of row `i`. */
  parameter(i: number, k: number): number | string;
  /** Value of counter `k` (an index into its kind's `counterNames`) of row `i` (count). */
  counter(i: number, k: number): number;
}

/**
 * The distinct names of a kind's parameters (or counters), in the order they are first listed,
 * each with the index whose value a record holds under it: the last that lists it, as in the
 * record's object, where the later assignment wins.
 * @internal
 */
export function nameSlots(names: readonly string[]): Map<string, number> {
  const slots = new Map<string, number>();
  names.forEach((name, at) => slots.set(name, at));
  return slots;
}

/**
 * A kind's parameter (or counter) names in the order `Object.keys` gives them on the object
 * {@link recordAt} makes, each with the index in the kind's names of the value it holds (a name
 * listed twice holds the later, as in {@link nameSlots}). Why not the names' own order:
 * `Object.keys` lists integer-like names first.
 * @internal
 */
export function keyOrder(names: readonly string[]): { names: string[]; at: Int32Array } {
  const o: Record<string, number> = {};
  names.forEach((n, k) => setRecordField(o, n, k));
  const keys = Object.keys(o);
  return { names: keys, at: Int32Array.from(keys, (n) => o[n]) };
}

/**
 * Sets `name` in a record's `parameters` or `counters` object as an own key, whatever the name.
 * Why not `o[name] = value`: assigning `__proto__` sets the object's prototype and no key, so the
 * value would be in the record files and the table but missing from the record.
 * @internal
 */
export function setRecordField<T>(o: Record<string, T>, name: string, value: T): void {
  if (name === "__proto__") Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
  else o[name] = value;
}

/** Records as objects or as a table; see {@link recordTable} and {@link recordList}. */
export type RecordSource = readonly InvocationRecord[] | RecordTable;

/** Row `i` of `table` as a new object (parameters and counters in their kind's name order). */
export function recordAt(table: RecordTable, i: number): InvocationRecord {
  const kind = table.kinds[table.kind(i)];
  const parameters: Record<string, number | string> = {};
  const pn = kind.parameterNames;
  for (let k = 0; k < pn.length; k++) setRecordField(parameters, pn[k], table.parameter(i, k));
  const counters: Record<string, number> = {};
  const cn = kind.counterNames;
  for (let k = 0; k < cn.length; k++) setRecordField(counters, cn[k], table.counter(i, k));
  return {
    component: kind.component,
    port: kind.port,
    method: kind.method,
    rank: table.rank(i),
    parameters,
    start: table.start(i),
    wallTime: table.wallTime(i),
    mpiTime: table.mpiTime(i),
    computeTime: table.computeTime(i),
    counters,
  };
}

/** The records of `source` as objects (the array itself when it is one, else a new array). */
export function recordList(source: RecordSource): readonly InvocationRecord[] {
  if (isRecordArray(source)) return source;
  const out = new Array<InvocationRecord>(source.count);
  for (let i = 0; i < out.length; i++) out[i] = recordAt(source, i);
  return out;
}

/** `source` as a table (itself when it is one; an array is indexed once, in one pass). */
export function recordTable(source: RecordSource): RecordTable {
  return isRecordArray(source) ? new RecordArrayTable(source) : source;
}

/** Whether `source` is an array of record objects (else a table). @internal */
export function isRecordArray(source: RecordSource): source is readonly InvocationRecord[] {
  return Array.isArray(source);
}

/** Number of records in `source`. */
export function recordCount(source: RecordSource): number {
  return isRecordArray(source) ? source.length : source.count;
}

/** True when `r`, of kind `k`'s method, has its own keys, in order, in its parameters and counters. */
function hasKindKeys(r: InvocationRecord, k: RecordKind): boolean {
  return keysAre(r.parameters, k.parameterNames) && keysAre(r.counters, k.counterNames);
}

/** True when the keys `for...in` visits in `o` (its own, for a plain object) are `names`, in order. */
function keysAre(o: object, names: readonly string[]): boolean {
  let j = 0;
  for (const key in o) if (key !== names[j++]) return false;
  return j === names.length;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, k) => name === b[k]);
}

/**
 * An array of record objects seen as a table. Each distinct (component, port, method, parameter
 * names, counter names) is a kind, so a kind's cells are present in every one of its records.
 * @internal
 */
class RecordArrayTable implements RecordTable {
  readonly kinds: RecordKind[] = [];
  /** The array's length when indexed (records appended later are not part of the table). */
  readonly count: number;
  private readonly kindOf: Int32Array;

  constructor(private readonly records: readonly InvocationRecord[]) {
    this.count = records.length;
    this.kindOf = new Int32Array(records.length);
    // Kinds by component, port and method, then compared key by key in place. Why: no array or
    // string per record (indexing two million took 1 s with a key string each, 0.07 s so).
    const byComponent = new Map<string, Map<string, Map<string, number[]>>>();
    let last = -1;
    for (let i = 0; i < this.count; i++) {
      const r = records[i];
      // Runs of one kind (a rank's records of one method) skip the maps.
      if (last >= 0) {
        const k = this.kinds[last];
        if (r.component === k.component && r.port === k.port && r.method === k.method && hasKindKeys(r, k)) {
          this.kindOf[i] = last;
          continue;
        }
      }
      let byPort = byComponent.get(r.component);
      if (byPort === undefined) byComponent.set(r.component, (byPort = new Map()));
      let byMethod = byPort.get(r.port);
      if (byMethod === undefined) byPort.set(r.port, (byMethod = new Map()));
      let ids = byMethod.get(r.method);
      if (ids === undefined) byMethod.set(r.method, (ids = []));
      let id = -1;
      for (let k = 0; k < ids.length && id < 0; k++) if (hasKindKeys(r, this.kinds[ids[k]])) id = ids[k];
      if (id < 0) {
        // The own keys decide (`for...in` also visits inherited ones, which the comparison above
        // then misses): a new kind only for names not seen with this method.
        const parameterNames = Object.keys(r.parameters);
        const counterNames = Object.keys(r.counters);
        for (let k = 0; k < ids.length && id < 0; k++) if (sameNames(this.kinds[ids[k]].parameterNames, parameterNames) && sameNames(this.kinds[ids[k]].counterNames, counterNames)) id = ids[k];
        if (id < 0) {
          id = this.kinds.length;
          this.kinds.push({ component: r.component, port: r.port, method: r.method, parameterNames, counterNames });
          ids.push(id);
        }
      }
      this.kindOf[i] = last = id;
    }
  }

  kind(i: number): number {
    return this.kindOf[i];
  }
  rank(i: number): number {
    return this.records[i].rank;
  }
  start(i: number): number {
    return this.records[i].start;
  }
  wallTime(i: number): number {
    return this.records[i].wallTime;
  }
  mpiTime(i: number): number {
    return this.records[i].mpiTime;
  }
  computeTime(i: number): number {
    return this.records[i].computeTime;
  }
  parameter(i: number, k: number): number | string {
    return this.records[i].parameters[this.kinds[this.kindOf[i]].parameterNames[k]];
  }
  counter(i: number, k: number): number {
    return this.records[i].counters[this.kinds[this.kindOf[i]].counterNames[k]];
  }
}
