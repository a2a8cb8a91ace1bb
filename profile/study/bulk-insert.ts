import { createRequire } from "node:module";
import type Bindings from "@duckdb/node-bindings";
import type { DuckDBConnection, DuckDBDataChunk, DuckDBType } from "@duckdb/node-api";
import { columnLength, type Column, type TableRows } from "./rows.js";
import type { StudyTable } from "./schema.js";
import { StudyError } from "./study-error.js";

type DuckModule = typeof import("@duckdb/node-api");

/** Rows per data chunk: DuckDB's vector size. */
const CHUNK = 2048;

/** Fewer rows than this go straight to the table (see {@link BulkInserter.insert}). */
const STAGE_MIN_ROWS = 4096;

/** One point's rows of one table: its id (for empty `point_id` columns) and its columns. */
export interface PointBlock {
  readonly id: string;
  readonly cols: TableRows;
}

/** A column of a whole batch, ready for staging: string codes (1-based, 0 = NULL) or numbers. */
type Staged =
  | { readonly kind: "codes"; readonly codes: Int32Array; readonly dict: string[] }
  | { readonly kind: "numbers"; readonly values: Float64Array; readonly nulls: Uint8Array | undefined };

/**
 * Appends the rows of many points to one table in bulk: numbers and string codes go through
 * DuckDB's appender into an in-memory staging table (typed arrays, no string per value), then one
 * `INSERT ... SELECT` looks the strings up in per-column dictionaries passed as list parameters.
 * Why: storing a string per value from JavaScript cost more than running the point; this way the
 * main thread copies typed arrays and DuckDB's own threads do the per-row work, off the event loop.
 * Runs inside the caller's transaction.
 * @throws StudyError when a column holds values of the wrong type or a block has the wrong number of columns
 */
export class BulkInserter {
  private readonly staged = new Set<string>();

  constructor(
    private readonly duck: DuckModule,
    private readonly conn: DuckDBConnection,
  ) {}

  /**
   * Appends the blocks' rows to `table` (inside the caller's transaction).
   * @throws StudyError for a block with the wrong number of columns, a column of another length, or values of the wrong type
   */
  async insert(table: StudyTable, blocks: readonly PointBlock[]): Promise<void> {
    const cols = stageColumns(table, blocks);
    const n = cols.length ? columnLengthOf(cols[0]) : 0;
    if (n === 0) return;
    // why: staging costs three statements more than appending; it pays only for many rows
    if (n < STAGE_MIN_ROWS) return this.appendDirect(table, cols, n);
    const stage = await this.stageTable(table);
    const d = this.duck;
    const types: DuckDBType[] = cols.map((c) => (c.kind === "codes" ? d.INTEGER : d.DOUBLE));
    const appender = await this.conn.createAppender(stage, "main", "temp");
    try {
      for (let s = 0; s < n; s += CHUNK) {
        const m = Math.min(CHUNK, n - s);
        const chunk = d.DuckDBDataChunk.create(types, m);
        cols.forEach((c, i) => {
          if (c.kind === "codes") copyToVector(chunk, i, c.codes.subarray(s, s + m));
          else if (!c.nulls) copyToVector(chunk, i, c.values.subarray(s, s + m));
          else chunk.setColumnValues(i, Array.from(numbersSlice(c.values, c.nulls, s, m)));
        });
        appender.appendDataChunk(chunk);
      }
    } finally {
      appender.closeSync();
    }
    const params: ReturnType<DuckModule["listValue"]>[] = [];
    const select = table.columns.map((col, i) => {
      const c = cols[i];
      if (c.kind === "codes") {
        params.push(d.listValue(c.dict));
        return `$${params.length}[c${i}]`;
      }
      return col.type === "DOUBLE" ? `c${i}` : `CAST(trunc(c${i}) AS ${col.type})`; // truncated, as appendDirect does
    });
    const listType = d.LIST(d.VARCHAR);
    await this.conn.run(`INSERT INTO "${table.name}" SELECT ${select.join(", ")} FROM temp.main."${stage}"`, params, params.map(() => listType));
    await this.conn.run(`DELETE FROM temp.main."${stage}"`);
  }

  /** Appends few rows straight to the table, value by value. */
  private async appendDirect(table: StudyTable, cols: readonly Staged[], n: number): Promise<void> {
    const d = this.duck;
    const types = table.columns.map((col) => (col.type === "VARCHAR" ? d.VARCHAR : col.type === "INTEGER" ? d.INTEGER : col.type === "BIGINT" ? d.BIGINT : d.DOUBLE));
    const appender = await this.conn.createAppender(table.name);
    try {
      for (let s = 0; s < n; s += CHUNK) {
        const m = Math.min(CHUNK, n - s);
        const chunk = d.DuckDBDataChunk.create(types, m);
        chunk.setColumns(
          cols.map((c, i) => {
            if (c.kind === "codes") return Array.from(c.codes.subarray(s, s + m), (k) => (k === 0 ? null : c.dict[k - 1]));
            const part = Array.from(numbersSlice(c.values, c.nulls, s, m));
            const type = table.columns[i].type;
            if (type === "BIGINT") return part.map((v) => (v === null ? null : BigInt(Math.trunc(v))));
            return type === "INTEGER" ? part.map((v) => (v === null ? null : Math.trunc(v))) : part;
          }),
        );
        appender.appendDataChunk(chunk);
      }
    } finally {
      appender.closeSync();
    }
  }

  private async stageTable(table: StudyTable): Promise<string> {
    const name = `stage_${table.name}`;
    if (!this.staged.has(name)) {
      const cols = table.columns.map((col, i) => `c${i} ${col.type === "VARCHAR" ? "INTEGER" : "DOUBLE"}`);
      await this.conn.run(`CREATE TEMP TABLE IF NOT EXISTS "${name}" (${cols.join(", ")})`);
      this.staged.add(name);
    }
    return name;
  }
}

/**
 * Copies a typed array into column `i` of a fresh chunk (all rows valid), as bytes. Why: setting
 * values one by one through the vector wrappers cost more than everything else this thread does.
 */
function copyToVector(chunk: DuckDBDataChunk, i: number, data: Int32Array | Float64Array): void {
  const bindings = duckBindings();
  bindings.copy_data_to_vector(bindings.data_chunk_get_vector(chunk.chunk, i), 0, data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
}

function columnLengthOf(c: Staged): number {
  return c.kind === "codes" ? c.codes.length : c.values.length;
}

function numbersSlice(values: Float64Array, nulls: Uint8Array | undefined, s: number, m: number): ArrayLike<number | null> {
  const part = values.subarray(s, s + m);
  if (!nulls) return part;
  const out: (number | null)[] = Array.from(part);
  for (let r = 0; r < m; r++) if (nulls[s + r]) out[r] = null;
  return out;
}

/** Concatenates the blocks column by column into staged columns (string codes into one dictionary per column). */
function stageColumns(table: StudyTable, blocks: readonly PointBlock[]): Staged[] {
  const lengths = blocks.map((b) => {
    if (b.cols.length !== table.columns.length) {
      throw new StudyError(`table ${table.name}: point ${b.id} has ${b.cols.length} columns, expected ${table.columns.length}`);
    }
    let n = 0;
    for (const c of b.cols) n = Math.max(n, columnLength(c));
    return n;
  });
  const total = lengths.reduce((a, b) => a + b, 0);
  return table.columns.map((col, i) => {
    if (col.type === "VARCHAR") {
      const codes = new Int32Array(total);
      const dict: string[] = [];
      const index = new Map<string, number>();
      const code = (v: string): number => {
        let k = index.get(v);
        if (k === undefined) {
          dict.push(v);
          k = dict.length; // 1-based: DuckDB lists start at 1, and list[0] is NULL
          index.set(v, k);
        }
        return k;
      };
      let at = 0;
      blocks.forEach((b, j) => {
        const n = lengths[j];
        putCodes(codes, at, n, b.cols[i], b.id, code, () => `table ${table.name}, column ${col.name}, point ${b.id}`);
        at += n;
      });
      return { kind: "codes", codes, dict };
    }
    const values = new Float64Array(total);
    let nulls: Uint8Array | undefined;
    let at = 0;
    blocks.forEach((b, j) => {
      const n = lengths[j];
      const c = b.cols[i];
      const where = () => `table ${table.name}, column ${col.name}, point ${b.id}`;
      if (columnLength(c) !== n) throw new StudyError(`${where()}: ${columnLength(c)} values for ${n} rows`);
      if (c instanceof Float64Array) values.set(c, at);
      else if (Array.isArray(c)) {
        for (let r = 0; r < n; r++) {
          const v = c[r];
          if (typeof v === "number") values[at + r] = v;
          else if (v === null) (nulls ??= new Uint8Array(total))[at + r] = 1;
          else throw new StudyError(`${where()}: ${JSON.stringify(v)} is not a number`);
        }
      } else if ("values" in c) {
        values.set(c.values, at);
        for (let r = 0; r < n; r++) if (c.nulls[r]) (nulls ??= new Uint8Array(total))[at + r] = 1;
      } else throw new StudyError(`${where()}: strings in a ${col.type} column`);
      at += n;
    });
    return { kind: "numbers", values, nulls };
  });
}

/** Writes one block's string column as codes; an empty column is the point's id on every row. */
function putCodes(codes: Int32Array, at: number, n: number, c: Column, id: string, code: (v: string) => number, where: () => string): void {
  const len = columnLength(c);
  if (len === 0) {
    codes.fill(code(id), at, at + n);
    return;
  }
  if (len !== n) throw new StudyError(`${where()}: ${len} values for ${n} rows`);
  if (Array.isArray(c)) {
    for (let r = 0; r < n; r++) {
      const v = c[r];
      if (v === null) codes[at + r] = 0;
      else if (typeof v === "string") codes[at + r] = code(v);
      else throw new StudyError(`${where()}: ${JSON.stringify(v)} is not a string`);
    }
    return;
  }
  if (!("codes" in c)) throw new StudyError(`${where()}: numbers in a VARCHAR column`);
  const map = Int32Array.from(c.dict, (v) => code(v));
  for (let r = 0; r < n; r++) {
    const k = c.codes[r];
    codes[at + r] = k < 0 ? 0 : map[k];
  }
}

let bindingsModule: typeof Bindings | undefined;

/**
 * DuckDB's native bindings, loaded on first use. Why not a static import: this module is part of
 * `profile/`, which every `ccasim` command loads, and loading the native library cost each of
 * them about 30 ms although only a study database needs it.
 */
function duckBindings(): typeof Bindings {
  return (bindingsModule ??= createRequire(import.meta.url)("@duckdb/node-bindings") as typeof Bindings);
}
