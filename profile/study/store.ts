import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { checkOutputPath, OutputPathError } from "../protected-paths.js";
import { makeOutputFolder } from "../output-folder.js";
import { removeStaleTemporaries, temporarySibling, trackTemporary } from "../temporary-files.js";
import { extname, resolve } from "node:path";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { BulkInserter } from "./bulk-insert.js";
import type { PointRows, TableRows } from "./rows.js";
import { embeddedSqlLines, leadingWords, statementCount, withoutTerminator } from "./sql-text.js";
import { StudyError } from "./study-error.js";
import { isSqliteFile } from "./database-file.js";
import { META_TABLE, STUDY_TABLES, TIMING_TABLE, studyDdl, type StudyTable } from "./schema.js";

/** Result of a query: column names and rows of plain JS values (BIGINTs as numbers when safe; dates and times as DuckDB's text). */
export interface QueryResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/** Options of {@link StudyStore.open}. */
export interface OpenOptions {
  /** Create the file (and its folder) and the schema when missing (default false: a missing file is an error). */
  readonly create?: boolean;
  /**
   * Open read-only (several readers may share the file). A read-only store queries on one thread:
   * DuckDB sums floating-point values in the order its threads finish, so `avg()` over doubles
   * could differ in the last digits from one run to the next, and what a report or a fit writes
   * from the study would not be byte-identical.
   */
  readonly readOnly?: boolean;
  /**
   * The file must be a study database, with every table of a study (a report, a fit, a count of
   * its tables read them): another DuckDB file is refused naming the file and the tables it lacks.
   */
  readonly study?: boolean;
}

export { StudyError };

type DuckModule = typeof import("@duckdb/node-api");

/** An argument of {@link StudyStore.exportQuery} that names a table rather than holding SQL. */
const TABLE_NAME = /^\s*[A-Za-z_][A-Za-z0-9_]*\s*$/;

/**
 * The study database: an embedded DuckDB file holding every point of a sweep (schema in
 * {@link STUDY_TABLES}, documented in docs/study-schema.md). One process writes at a time; every
 * point is stored in one transaction with its `point` row, so a killed writer leaves only whole
 * points, and storing a point already present does nothing.
 */
export class StudyStore {
  private readonly bulk: BulkInserter;

  private constructor(
    private readonly duck: DuckModule,
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    /** The database file. */
    readonly path: string,
    /** Opened to be read ({@link OpenOptions.readOnly}): statements that write elsewhere are refused too. */
    private readonly readOnly: boolean,
  ) {
    this.bulk = new BulkInserter(duck, conn);
  }

  /**
   * Opens a study database, or with `create` creates it (and its folder) when missing.
   * @throws StudyError when the file is missing and `create` is false, is an SQLite database, cannot be opened (locked by a
   *   running sweep), or, opened for writing, is a DuckDB database with tables a study has not
   *   and no study metadata
   */
  static async open(path: string, options: OpenOptions = {}): Promise<StudyStore> {
    const file = resolve(path);
    // The folder is made as every output's is, and removed again when the database cannot be opened.
    let unmake = (): void => {};
    if (!existsSync(file)) {
      if (!options.create) throw new StudyError(`${path}: no such study database`);
      unmake = makeOutputFolder(file);
    }
    // Why before DuckDB: it opens an SQLite file through an extension it downloads, and reports the download.
    if (isSqliteFile(file)) throw new StudyError(`${path}: an SQLite database, not a study database (a DuckDB file 'ccasim sweep' wrote)`);
    const duck = await import("@duckdb/node-api");
    let instance: DuckDBInstance;
    try {
      instance = await duck.DuckDBInstance.create(file, options.readOnly ? { access_mode: "READ_ONLY", threads: "1" } : {});
    } catch (e) {
      unmake();
      const message = (e as Error).message;
      // DuckDB lets one process write a database file at a time, and none read it meanwhile.
      const holder = /Conflicting lock is held in .*\(PID (\d+)\)/.exec(message);
      if (holder) throw new StudyError(`${path}: the study database is in use by process ${holder[1]} (a sweep still running?); open it when that process has ended`);
      throw new StudyError(`${path}: cannot open the study database: ${message.split("\n")[0]}`);
    }
    const conn = await instance.connect();
    const store = new StudyStore(duck, instance, conn, file, options.readOnly === true);
    if (options.study) {
      const tables = new Set(await store.tableNames());
      const lacks = [...STUDY_TABLES, TIMING_TABLE, META_TABLE].map((t) => t.name).filter((t) => !tables.has(t));
      if (lacks.length > 0) {
        store.close();
        throw new StudyError(`${path}: not a study database (a DuckDB file 'ccasim sweep' wrote): it lacks the table${lacks.length === 1 ? "" : "s"} ${lacks.join(", ")}`);
      }
    }
    if (!options.readOnly) {
      // A DuckDB database of other tables and no study's metadata is someone's own: a study is not
      // written into it. (A study keeps tables its user added to it.)
      const ours = new Set([...STUDY_TABLES, TIMING_TABLE, META_TABLE].map((t) => t.name));
      const tables = await store.tableNames();
      const others = tables.filter((t) => !ours.has(t));
      if (others.length > 0 && !tables.includes(META_TABLE.name)) {
        store.close();
        throw new StudyError(`${path}: a DuckDB database that is not a study database (it has the table${others.length === 1 ? "" : "s"} ${others.join(", ")}); a study is not written into it: give another file`);
      }
      for (const sql of studyDdl()) await conn.run(sql);
    }
    return store;
  }

  /** Study metadata (`study_meta`) as a map. */
  async meta(): Promise<Map<string, string>> {
    const r = await this.query(`SELECT key, value FROM "${META_TABLE.name}"`);
    return new Map(r.rows.map((row) => [String(row[0]), String(row[1])]));
  }

  /** Sets metadata keys (insert or replace). */
  async setMeta(entries: Readonly<Record<string, string>>): Promise<void> {
    for (const [k, v] of Object.entries(entries)) await this.conn.run(`INSERT OR REPLACE INTO "${META_TABLE.name}" VALUES ($1, $2)`, [k, v]);
  }

  /** Ids of the points stored (finished, with or without error). */
  async storedPointIds(): Promise<Set<string>> {
    const r = await this.query(`SELECT point_id FROM point`);
    return new Set(r.rows.map((row) => String(row[0])));
  }

  /** Ids of the points stored with an error (status `error`). */
  async failedPointIds(): Promise<Set<string>> {
    const r = await this.query(`SELECT point_id FROM point WHERE status = 'error'`);
    return new Set(r.rows.map((row) => String(row[0])));
  }

  /**
   * Stores points in one transaction (each point whole, with its `point` row; points already
   * stored are skipped, so a repeated store is harmless).
   * @returns the number of points added
   */
  async insertPoints(points: readonly PointRows[]): Promise<number> {
    if (points.length === 0) return 0;
    await this.conn.run("BEGIN TRANSACTION");
    try {
      const ids = points.map((p) => p.pointId);
      const present = await this.query(`SELECT point_id FROM point WHERE point_id IN (SELECT unnest($1::VARCHAR[]))`, [this.duck.listValue(ids)]);
      const skip = new Set(present.rows.map((r) => String(r[0])));
      const fresh = points.filter((p, i) => !skip.has(p.pointId) && ids.indexOf(p.pointId) === i);
      for (const t of STUDY_TABLES) {
        const blocks = fresh.filter((p) => p.tables[t.name] !== undefined).map((p) => ({ id: p.pointId, cols: p.tables[t.name] }));
        if (blocks.length) await this.bulk.insert(t, blocks);
      }
      const now = new Date().toISOString();
      if (fresh.length) {
        const cols: TableRows = [fresh.map((p) => p.pointId), fresh.map((p) => p.timing.wallSeconds), fresh.map((p) => p.timing.eventsPerSecond), fresh.map(() => now)];
        await this.bulk.insert(TIMING_TABLE, [{ id: "", cols }]);
      }
      await this.conn.run("COMMIT");
      return fresh.length;
    } catch (e) {
      await this.conn.run("ROLLBACK");
      throw e;
    }
  }

  /**
   * DuckDB's `message`, prefixed with the database file when it is about the file (a truncated
   * or damaged one: `IO Error: Could not read enough bytes`), which a query's own errors are not.
   */
  private located(message: string): string {
    return /^IO Error\b/.test(message) ? `${this.path}: cannot read the study database: ${message.split("\n")[0]}` : message;
  }

  /** The tables of the database's main schema, in name order (a study's, and any its user added). */
  async tableNames(): Promise<string[]> {
    const reader = await this.conn.runAndReadAll(`SELECT table_name FROM information_schema.tables WHERE table_catalog = current_database() AND table_schema = 'main' ORDER BY table_name`);
    return reader.getRowsJS().map((r) => String(r[0]));
  }

  /**
   * Runs one SQL statement, or reads a whole table (a bare table name, as {@link exportQuery}
   * takes one: a study's table in its canonical order), and returns its rows.
   * @throws StudyError with DuckDB's message for a bad query, or when `sql` holds several statements
   */
  async query(sqlOrTable: string, params?: Parameters<DuckDBConnection["run"]>[1]): Promise<QueryResult> {
    const sql = TABLE_NAME.test(sqlOrTable) ? `SELECT * FROM ${tableSource(sqlOrTable)}` : sqlOrTable;
    await this.checkOneStatement(sql);
    let reader;
    try {
      reader = await this.conn.runAndReadAll(sql, params);
    } catch (e) {
      throw new StudyError(this.located((e as Error).message));
    }
    const rows = reader.getRowsJS().map((r) => r.map(plain));
    // Dates and times as DuckDB writes them (2020-01-01, 2020-01-01 10:00:00.5), not as a JS Date
    // of midnight UTC; their columns are rare, and only these read the rows' JSON form.
    const temporal = reader.columnTypes().map((t) => /^(DATE|TIME)/.test(t.toString()));
    if (temporal.some((x) => x)) {
      const json = reader.getRowsJson();
      for (let i = 0; i < rows.length; i++) for (let k = 0; k < temporal.length; k++) if (temporal[k] && rows[i][k] !== null) rows[i][k] = json[i][k];
    }
    return { columns: reader.columnNames(), rows };
  }

  /**
   * Writes the result of a query (one SQL statement of any kind that returns rows, a trailing `;`
   * and comments allowed) or of a whole table (a bare table name; a study's table in its canonical
   * order, so that the file does not depend on the jobs or resumptions that stored it) to a Parquet
   * or CSV file, chosen by extension. The file is written atomically (a temporary sibling, tracked while it is written
   * so that an interrupted command removes it, renamed at the end); it may not be the database
   * itself, and its parent must be writable (checked before the query runs).
   * @throws StudyError for another extension, a bad query, or several statements
   * @throws OutputPathError (an input error) when `file` is the database, a folder, or cannot be written
   */
  async exportQuery(sqlOrTable: string, file: string): Promise<void> {
    if (file.trim() === "") throw new OutputPathError(file, "export", "the path is empty; give the file to write (.parquet or .csv)");
    const ext = extname(file).toLowerCase();
    const format = ext === ".parquet" ? "PARQUET" : ext === ".csv" ? "CSV, HEADER" : undefined;
    if (!format) throw new StudyError(`${file}: export to .parquet or .csv`);
    checkOutputPath(file, "export", { inputs: [{ path: this.path, what: "the study database" }] });
    // Before the query runs: the renaming at the end would fail on a folder, without its name.
    if (existsSync(file) && statSync(file).isDirectory()) throw new OutputPathError(file, "export", "it is a folder; name the file to write in it");
    // A trailing separator names a folder: the export would be written as the file before it.
    if (/[\\/]$/.test(file)) throw new OutputPathError(file, "export", "it ends with a path separator, naming a folder; name the file to write");
    let source: string;
    if (TABLE_NAME.test(sqlOrTable)) source = tableSource(sqlOrTable);
    else {
      await this.checkOneStatement(sqlOrTable);
      // why: on lines of their own, a trailing `-- comment` cannot swallow the closing parenthesis
      source = `(\n${withoutTerminator(sqlOrTable)}\n)`;
    }
    const target = resolve(file);
    // A missing folder is made, as for every output (checkOutputPath has checked it can be), and
    // removed again if the export fails.
    const unmake = makeOutputFolder(target);
    removeStaleTemporaries(target);
    const tmp = temporarySibling(target);
    // why: asynchronous: the COPY runs on DuckDB's threads while this one waits
    const untrack = trackTemporary(tmp, { asynchronous: true });
    const copy = (from: string) => this.conn.run(`COPY ${from} TO '${tmp.replace(/'/g, "''")}' (FORMAT ${format})`);
    try {
      try {
        await copy(source);
      } catch (e) {
        // why: COPY takes a query, not every statement that returns rows (DESCRIBE, SHOW, SUMMARIZE
        // are refused by its parser); as a subquery it takes them all
        if (!/^Parser Error/.test((e as Error).message) || TABLE_NAME.test(sqlOrTable)) throw e;
        try {
          await copy(`(FROM ${source})`);
        } catch {
          throw e;
        }
      }
      renameSync(tmp, target);
    } catch (e) {
      rmSync(tmp, { recursive: true, force: true });
      unmake();
      // The SQL stands one line below COPY's own: DuckDB's line numbers are the SQL's again.
      const message = (e as Error).message.split(tmp).join(target);
      throw new StudyError(source.startsWith("(\n") ? embeddedSqlLines(message, 1) : message);
    } finally {
      untrack();
    }
  }

  /**
   * Refuses SQL that holds no statement (an empty text, comments alone: DuckDB would return no
   * columns), or more than one statement: DuckDB would run them all and return one
   * result, and an export would fail on the separator. Both DuckDB and the text must see several:
   * DuckDB counts a `PIVOT` whose values it looks up first as two, and the text alone would count
   * a `;` inside a dollar-quoted string.
   * @throws StudyError naming how many statements the SQL holds
   */
  private async checkOneStatement(sql: string): Promise<void> {
    const written = statementCount(sql);
    if (written === 0) throw new StudyError("the SQL holds no statement (only whitespace or comments); give one (a query, or a table name to export)");
    if (this.readOnly) checkReads(sql);
    let count: number;
    try {
      count = (await this.conn.extractStatements(sql)).count;
    } catch {
      return; // why: SQL that does not parse is reported by running it, with DuckDB's message
    }
    if (count > 1 && written > 1) throw new StudyError(`the SQL holds ${written} statements; give one (a query, or a table name to export)`);
  }



  /**
   * Adds the points of a shard database that this study lacks (idempotent: merging twice adds
   * nothing). The shard must be of the same study (same study hash) unless this one is empty.
   * @returns points added and points already present
   * @throws StudyError when the shard belongs to another study
   */
  async mergeShard(shardPath: string): Promise<{ added: number; skipped: number }> {
    if (!existsSync(shardPath)) throw new StudyError(`${shardPath}: no such shard database`);
    const alias = "shard";
    await this.conn.run(`ATTACH '${resolve(shardPath).replace(/'/g, "''")}' AS ${alias} (READ_ONLY)`);
    try {
      const theirs = new Map((await this.query(`SELECT key, value FROM ${alias}."${META_TABLE.name}"`)).rows.map((r) => [String(r[0]), String(r[1])]));
      const ours = await this.meta();
      if (ours.has("study_hash") && theirs.has("study_hash") && ours.get("study_hash") !== theirs.get("study_hash")) {
        throw new StudyError(`${shardPath}: belongs to another study (study hash ${theirs.get("study_hash")}, this study ${ours.get("study_hash")})`);
      }
      if (!ours.has("study_hash")) for (const [k, v] of theirs) if (k !== "slice") await this.setMeta({ [k]: v });
      const total = Number((await this.query(`SELECT count(*) FROM ${alias}.point`)).rows[0][0]);
      await this.conn.run("BEGIN TRANSACTION");
      try {
        await this.conn.run(`CREATE TEMP TABLE merge_new AS SELECT point_id FROM ${alias}.point WHERE point_id NOT IN (SELECT point_id FROM main.point)`);
        const added = Number((await this.query(`SELECT count(*) FROM merge_new`)).rows[0][0]);
        for (const t of [...STUDY_TABLES, TIMING_TABLE]) {
          await this.conn.run(`INSERT INTO main."${t.name}" SELECT * FROM ${alias}."${t.name}" WHERE point_id IN (SELECT point_id FROM merge_new)`);
        }
        await this.conn.run(`DROP TABLE merge_new`);
        await this.conn.run("COMMIT");
        return { added, skipped: total - added };
      } catch (e) {
        await this.conn.run("ROLLBACK");
        throw e;
      }
    } finally {
      await this.conn.run(`DETACH ${alias}`);
    }
  }

  /** Closes the database (the file is complete and consistent after every committed store). */
  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

function plain(v: unknown): unknown {
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  return v;
}

/**
 * What a bare table name reads, for a query or an export: a study's table in its canonical order
 * (the order rows were stored in depends on which worker finished first and on resumptions, and
 * what is read of a table must not), any other table as it is.
 */
function tableSource(name: string): string {
  const table = studyTables(true).find((t) => t.name === name.trim());
  return table ? `(SELECT * FROM "${table.name}" ORDER BY ${table.orderBy.map((c) => `"${c}"`).join(", ")})` : `"${name.trim()}"`;
}

/** Every table of a study with its canonical order, for comparisons and full exports. */
export function studyTables(includeTiming = false): readonly StudyTable[] {
  return includeTiming ? [...STUDY_TABLES, TIMING_TABLE, META_TABLE] : STUDY_TABLES;
}

/**
 * What a statement that must not run on a study opened to be read does, by its first word; else
 * undefined. Why by the text: DuckDB's read-only mode protects the database file alone, and
 * preparing an `EXPORT DATABASE` already makes its folder.
 */
const WRITES_ELSEWHERE: Readonly<Record<string, string>> = {
  COPY: "a COPY statement, which writes files",
  EXPORT: "an EXPORT statement, which writes files",
  ATTACH: "an ATTACH statement, which opens (or makes) another database",
  DETACH: "a DETACH statement, which closes another database",
  INSTALL: "an INSTALL statement, which downloads an extension",
  FORCE: "a FORCE INSTALL statement, which downloads an extension",
  LOAD: "a LOAD statement, which loads an extension",
};

/**
 * Refuses a statement {@link WRITES_ELSEWHERE} lists, also as the statement an `EXPLAIN
 * [ANALYZE]` runs or a `PREPARE name AS` keeps. @throws StudyError naming it
 */
function checkReads(sql: string): void {
  const words = leadingWords(sql, 4);
  // EXPLAIN ANALYZE runs its statement; a prepared one could run later in the same connection.
  const skip = words[0] === "EXPLAIN" ? (words[1] === "ANALYZE" ? 2 : 1) : words[0] === "PREPARE" && words[2] === "AS" ? 3 : 0;
  const what = WRITES_ELSEWHERE[words[skip] ?? ""];
  if (what !== undefined) throw new StudyError(`the SQL is ${what}; the study is opened to be read: export a result with 'ccasim query --out' (StudyStore.exportQuery)`);
}
