import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mergeShards, pointRows, StudyStore, studyDigest, type PointOutcome, type PointRows } from "../../profile/study/index.js";
import { TrialBuilder, type InvocationRecord } from "../../profile/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function outcome(k: number): PointOutcome {
  const b = new TrialBuilder({ metrics: ["TIME"] });
  const th = b.addThread(0);
  b.setValues(th, b.timer("main"), { calls: 1, subroutines: 2, exclusive: [10 * k], inclusive: [30 * k] });
  b.setValues(th, b.callpath(["main", "work"]), { calls: 2, exclusive: [20 * k], inclusive: [20 * k] });
  return {
    ok: true,
    trial: b.build(),
    records: [
      { component: "A", port: "work", method: "run", rank: 0, parameters: { Q: 100 * k, mode: "strided" }, start: 0, wallTime: 5 * k, mpiTime: 0, computeTime: 5 * k, counters: { PAPI_TOT_CYC: 1000 * k } },
      { component: "A", port: "work", method: "run", rank: 0, parameters: { Q: 200 * k, mode: "sequential" }, start: 5, wallTime: 7 * k, mpiTime: 1, computeTime: 6 * k, counters: { PAPI_TOT_CYC: 1500 * k } },
    ],
    simulatedTime: 30 * k,
    events: 10 * k,
    invocations: 3,
    summary: { k },
    wallSeconds: 0.01 * k,
  };
}

const rowsOf = (k: number, id = `p${k}`): PointRows => pointRows({ id, index: k, replication: 0, seed: 100 + k, values: { "machine.l2.size": 1024 * k, impl: "A1" } }, outcome(k));

describe("the study store", () => {
  it("stores a point's profile values, records and parameters in TAUdb-like tables", async () => {
    const store = await StudyStore.open(join(dir, "a.db"), { create: true });
    try {
      expect(await store.insertPoints([rowsOf(1), rowsOf(2)])).toBe(2);
      const q = async (sql: string) => (await store.query(sql)).rows;
      expect(await q(`SELECT point_id, point_index, seed, status, simulated_time, record_count FROM point ORDER BY point_id`)).toEqual([
        ["p1", 1, 101, "ok", 30, 2],
        ["p2", 2, 102, "ok", 60, 2],
      ]);
      expect(await q(`SELECT name, value, numeric_value FROM parameter WHERE point_id = 'p2' ORDER BY name`)).toEqual([
        ["impl", "A1", null],
        ["machine.l2.size", "2048", 2048],
      ]);
      expect(await q(`SELECT t.name, v.inclusive, v.exclusive, v.calls FROM timer_value v JOIN timer t USING (point_id, timer_index) WHERE point_id = 'p1' ORDER BY t.name`)).toEqual([
        ["main", 30, 10, 1],
        ["main => work", 20, 20, 2],
      ]);
      expect(await q(`SELECT depth, leaf, parent FROM callpath WHERE point_id = 'p1'`)).toEqual([[2, "work", "main"]]);
      expect(await q(`SELECT name, value FROM record_parameter WHERE point_id = 'p1' AND record_index = 0 ORDER BY name`)).toEqual([
        ["Q", "100"],
        ["mode", "strided"],
      ]);
      expect(await q(`SELECT sum(value) FROM record_counter WHERE point_id = 'p2'`)).toEqual([[5000]]);
    } finally {
      store.close();
    }
  });

  it("skips points already stored, so storing twice changes nothing", async () => {
    const store = await StudyStore.open(join(dir, "a.db"));
    try {
      const before = await studyDigest(store);
      expect(await store.insertPoints([rowsOf(2), rowsOf(1), rowsOf(3)])).toBe(1);
      expect(await store.insertPoints([rowsOf(3), rowsOf(3)])).toBe(0);
      const after = await studyDigest(store);
      expect(after.point.rows).toBe(3);
      expect(after.record.rows).toBe(before.record.rows + 2);
    } finally {
      store.close();
    }
  });

  it("stores nothing of a batch that fails part-way", async () => {
    const store = await StudyStore.open(join(dir, "b.db"), { create: true });
    try {
      const broken: PointRows = { ...rowsOf(5), tables: { ...rowsOf(5).tables, record: [["p5"], ["not an integer"]] } };
      await expect(store.insertPoints([rowsOf(4), broken])).rejects.toThrow();
      expect((await store.query(`SELECT count(*) FROM point`)).rows).toEqual([[0]]);
      expect((await store.query(`SELECT count(*) FROM record`)).rows).toEqual([[0]]);
    } finally {
      store.close();
    }
  });

  it("records a failed point with its error", async () => {
    const store = await StudyStore.open(join(dir, "c.db"), { create: true });
    try {
      await store.insertPoints([pointRows({ id: "bad", index: 0, replication: 0, seed: 1, values: { x: 1 } }, { ok: false, kind: "MpiDeadlockError", message: "rank 0 waits forever", wallSeconds: 0 })]);
      expect((await store.query(`SELECT p.status, e.kind, e.message FROM point p JOIN error e USING (point_id)`)).rows).toEqual([["error", "MpiDeadlockError", "rank 0 waits forever"]]);
    } finally {
      store.close();
    }
  });

  it("exports queries and tables to CSV and Parquet", async () => {
    const store = await StudyStore.open(join(dir, "a.db"), { readOnly: true });
    try {
      await store.exportQuery(`SELECT point_id, simulated_time FROM point ORDER BY point_id`, join(dir, "points.csv"));
      expect(readFileSync(join(dir, "points.csv"), "utf8").trim().split("\n")).toEqual(["point_id,simulated_time", "p1,30.0", "p2,60.0", "p3,90.0"]);
      await store.exportQuery("record", join(dir, "records.parquet"));
      expect(readFileSync(join(dir, "records.parquet")).subarray(0, 4).toString()).toBe("PAR1");
      expect(statSync(join(dir, "records.parquet")).size).toBeGreaterThan(100);
      const back = await store.query(`SELECT count(*) FROM '${join(dir, "records.parquet")}'`);
      expect(back.rows).toEqual([[6]]);
      await expect(store.exportQuery("record", join(dir, "x.xlsx"))).rejects.toThrow(/parquet or \.csv/);
      // Statements that return rows but that COPY's parser refuses as its query.
      await store.exportQuery("DESCRIBE point; -- its columns", join(dir, "describe.csv"));
      expect(readFileSync(join(dir, "describe.csv"), "utf8").split("\n").slice(0, 2)).toEqual(["column_name,column_type,null,key,default,extra", "point_id,VARCHAR,NO,PRI,,"]);
      await store.exportQuery("SUMMARIZE point", join(dir, "summarize.csv"));
      expect(readFileSync(join(dir, "summarize.csv"), "utf8")).toMatch(/^column_name,column_type,min,max,/);
      await expect(store.exportQuery("SELEC 1", join(dir, "bad.csv"))).rejects.toThrow(/Parser Error: syntax error at or near "SELEC"/);
      // An error names the line of the SQL as given, as a query without --out does.
      const wrong = "SELECT point_id\nFROM point\nWHERE nosuch = 1";
      const asQuery = await store.query(wrong).then(() => "", (e: Error) => e.message);
      expect(asQuery).toMatch(/^LINE 3: WHERE nosuch = 1$/m);
      await expect(store.exportQuery(wrong, join(dir, "bad.csv"))).rejects.toThrow(asQuery);
    } finally {
      store.close();
    }
  });


  it("exports a whole table in its canonical order, whatever order its points were stored in", async () => {
    const texts: string[] = [];
    for (const order of [[3, 1, 2], [2, 3, 1]]) {
      const file = join(dir, `order-${order.join("")}.db`);
      const store = await StudyStore.open(file, { create: true });
      try {
        // One batch per point, as workers that finish in another order commit them.
        for (const k of order) await store.insertPoints([rowsOf(k)]);
        for (const t of ["point", "parameter", "record", "record_parameter", "timer_value"]) {
          await store.exportQuery(t, join(dir, `order-${order.join("")}-${t}.csv`));
          texts.push(readFileSync(join(dir, `order-${order.join("")}-${t}.csv`), "utf8"));
        }
        await store.exportQuery("record", join(dir, `order-${order.join("")}.parquet`));
        texts.push(createHash("sha256").update(readFileSync(join(dir, `order-${order.join("")}.parquet`))).digest("hex"));
      } finally {
        store.close();
      }
    }
    const half = texts.length / 2;
    expect(texts.slice(half)).toEqual(texts.slice(0, half));
    expect(texts[0].trim().split("\n").map((l) => l.split(",")[0])).toEqual(["point_id", "p1", "p2", "p3"]);
  });

  it("reads a whole table by its bare name, a study's in its canonical order, as an export does", async () => {
    const read: unknown[] = [];
    for (const order of [[3, 1, 2], [2, 3, 1]]) {
      const store = await StudyStore.open(join(dir, `read-${order.join("")}.db`), { create: true });
      try {
        for (const k of order) await store.insertPoints([rowsOf(k)]);
        for (const t of ["point", " record\n", "record_parameter", "timer_value"]) read.push(await store.query(t));
      } finally {
        store.close();
      }
    }
    const half = read.length / 2;
    expect(read.slice(half)).toEqual(read.slice(0, half));
    const points = read[0] as { columns: string[]; rows: unknown[][] };
    expect(points.columns[0]).toBe("point_id");
    expect(points.rows.map((r) => r[0])).toEqual(["p1", "p2", "p3"]);
    const store = await StudyStore.open(join(dir, "read-312.db"), { readOnly: true });
    try {
      await expect(store.query("nosuch")).rejects.toThrow(/Table with name nosuch does not exist/);
    } finally {
      store.close();
    }
  });
  it("runs and exports a PIVOT, one statement that DuckDB counts as two, and refuses two statements", async () => {
    const store = await StudyStore.open(join(dir, "a.db"), { readOnly: true });
    try {
      const pivot = `PIVOT (SELECT point_id, name, value FROM parameter) ON name USING first(value) ORDER BY point_id`;
      const r = await store.query(pivot);
      expect(r.columns).toEqual(["point_id", "impl", "machine.l2.size"]);
      expect(r.rows[0]).toEqual(["p1", "A1", "1024"]);
      await store.exportQuery(`${pivot};`, join(dir, "pivot.csv"));
      expect(readFileSync(join(dir, "pivot.csv"), "utf8").split("\n")[1]).toBe("p1,A1,1024");
      await expect(store.query("SELECT 1; SELECT 2")).rejects.toThrow(/holds 2 statements/);
      await expect(store.query(`${pivot}; SELECT 2`)).rejects.toThrow(/holds 2 statements/);
    } finally {
      store.close();
    }
  });

  it("names a damaged database file in the error of a query that cannot read it, and refuses an export to an empty path", async () => {
    const damaged = join(dir, "damaged.db");
    const whole = readFileSync(join(dir, "a.db"));
    writeFileSync(damaged, whole.subarray(0, Math.floor(whole.length * 0.3)));
    let store: StudyStore | undefined;
    try {
      store = await StudyStore.open(damaged, { readOnly: true });
      await store.query("SELECT count(*) FROM record");
      throw new Error("the damaged file was read");
    } catch (e) {
      // DuckDB refuses it when opening or when reading: either way the file is named.
      expect((e as Error).message).toContain(damaged);
    } finally {
      store?.close();
    }
    const good = await StudyStore.open(join(dir, "a.db"), { readOnly: true });
    try {
      await expect(good.exportQuery("point", "")).rejects.toThrow("cannot write the export '': the path is empty; give the file to write (.parquet or .csv)");
    } finally {
      good.close();
    }
  });

  it("runs no statement that writes files, attaches a database or loads an extension on a study opened read-only", async () => {
    const store = await StudyStore.open(join(dir, "a.db"), { readOnly: true });
    const out = join(dir, "copied.csv");
    try {
      for (const [sql, what] of [
        [`COPY point TO '${out}'`, "a COPY statement, which writes files"],
        [`COPY (SELECT 1) TO '${out}'`, "a COPY statement, which writes files"],
        [`EXPORT DATABASE '${join(dir, "exported")}'`, "an EXPORT statement, which writes files"],
        [`ATTACH '${join(dir, "other.db")}' AS other`, "an ATTACH statement, which opens (or makes) another database"],
        ["INSTALL sqlite", "an INSTALL statement, which downloads an extension"],
        ["-- a comment\n  load sqlite", "a LOAD statement, which loads an extension"],
        [`EXPLAIN ANALYZE COPY point TO '${out}'`, "a COPY statement, which writes files"],
        [`explain /* x */ copy point to '${out}'`, "a COPY statement, which writes files"],
        [`PREPARE w AS COPY point TO '${out}'`, "a COPY statement, which writes files"],
      ]) {
        await expect(store.query(sql), sql).rejects.toThrow(`the SQL is ${what}; the study is opened to be read: export a result with 'ccasim query --out' (StudyStore.exportQuery)`);
        await expect(store.exportQuery(sql, join(dir, "e.csv")), sql).rejects.toThrow(what);
      }
      expect([existsSync(out), existsSync(join(dir, "other.db")), existsSync(join(dir, "exported"))]).toEqual([false, false, false]);
      // Reading statements run as before, a PIVOT's enum included.
      expect((await store.query("DESCRIBE point")).rows.length).toBeGreaterThan(0);
      expect((await store.query("PIVOT (SELECT point_id, name, value FROM parameter) ON name USING first(value)")).rows.length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });

  it("refuses an SQLite file as not a study database, before DuckDB reaches for its SQLite extension", async () => {
    // DuckDB tried to download sqlite_scanner and reported the failed download.
    const file = join(dir, "other.sqlite");
    writeFileSync(file, Buffer.concat([Buffer.from("SQLite format 3\u0000"), Buffer.alloc(4080)]));
    const why = `${file}: an SQLite database, not a study database (a DuckDB file 'ccasim sweep' wrote)`;
    await expect(StudyStore.open(file, { readOnly: true })).rejects.toThrow(why);
    await expect(StudyStore.open(file, { create: true })).rejects.toThrow(why);
  });

  it("writes no study into, and merges nothing from, a DuckDB database of other tables", async () => {
    const file = join(dir, "mine.duckdb");
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const inst = await DuckDBInstance.create(file);
    const conn = await inst.connect();
    await conn.run("CREATE TABLE important (x INTEGER); INSERT INTO important VALUES (42)");
    conn.closeSync();
    inst.closeSync();
    await expect(StudyStore.open(file, { create: true })).rejects.toThrow(`${file}: a DuckDB database that is not a study database (it has the table important); a study is not written into it: give another file`);
    await expect(mergeShards(join(dir, "merged.db"), [file])).rejects.toThrow(`${file}: a DuckDB database that is not a study database (it has the table important); nothing was merged`);
    await expect(mergeShards(file, [join(dir, "a.db")])).rejects.toThrow("not a study database");
    const store = await StudyStore.open(file, { readOnly: true });
    try {
      expect((await store.query(`SELECT table_name FROM information_schema.tables`)).rows).toEqual([["important"]]);
    } finally {
      store.close();
    }
    // Opened as a study (by a report, a fit, a count of the tables), it is refused naming the file.
    await expect(StudyStore.open(file, { readOnly: true, study: true })).rejects.toThrow(
      `${file}: not a study database (a DuckDB file 'ccasim sweep' wrote): it lacks the tables parameter, error, thread, metric, timer, callpath, timer_value, record, record_parameter, record_counter, point, timing, study_meta`,
    );
    // A study keeps a table its user added.
    const study = join(dir, "annotated.db");
    const s1 = await StudyStore.open(study, { create: true });
    await s1.insertPoints([rowsOf(1)]);
    s1.close();
    const annotate = await DuckDBInstance.create(study);
    const c2 = await annotate.connect();
    await c2.run("CREATE TABLE my_notes (note VARCHAR)");
    c2.closeSync();
    annotate.closeSync();
    const s2 = await StudyStore.open(study, { create: true });
    expect((await s2.storedPointIds()).size).toBe(1);
    s2.close();
  });

  it("gives dates and times as DuckDB writes them, not as JavaScript dates", async () => {
    const store = await StudyStore.open(join(dir, "a.db"), { readOnly: true });
    try {
      const r = await store.query(`SELECT DATE '2020-01-01' AS d, TIMESTAMP '2020-01-01 10:00:00.5' AS t, TIME '10:00:00' AS tm, NULL::DATE AS n, 1 AS k`);
      expect(r.rows).toEqual([["2020-01-01", "2020-01-01 10:00:00.5", "10:00:00", null, 1]]);
    } finally {
      store.close();
    }
  });

  it("reports bad SQL and a missing database as input errors", async () => {
    await expect(StudyStore.open(join(dir, "missing.db"))).rejects.toMatchObject({ isInputError: true });
    const store = await StudyStore.open(join(dir, "a.db"), { readOnly: true });
    try {
      await expect(store.query("SELEC 1")).rejects.toMatchObject({ isInputError: true, name: "StudyError" });
    } finally {
      store.close();
    }
  });

  it("names the process that holds a database open for writing", async () => {
    const file = join(dir, "held.db");
    // Another process opens the database for writing (as a running sweep does) and holds it.
    const holder = spawn(process.execPath, ["--input-type=module", "-e", `const { StudyStore } = await import(${JSON.stringify(resolve("dist/profile/study/index.js"))}); const s = await StudyStore.open(${JSON.stringify(file)}, { create: true }); console.log("held"); process.stdin.on("data", () => { s.close(); process.exit(0); });`], { stdio: ["pipe", "pipe", "inherit"] });
    try {
      await new Promise<void>((done) => holder.stdout.once("data", () => done()));
      const err = await StudyStore.open(file, { readOnly: true }).then(() => undefined, (e: Error & { isInputError?: boolean }) => e);
      expect(err?.isInputError).toBe(true);
      expect(err?.message).toBe(`${file}: the study database is in use by process ${holder.pid} (a sweep still running?); open it when that process has ended`);
    } finally {
      holder.stdin.write("done\n");
      await new Promise((done) => holder.on("close", done));
    }
  });
});

describe("storing many rows at once", () => {
  // Thousands of records take the bulk path (typed columns staged, strings looked up in DuckDB);
  // a few take the direct one. Both must store exactly the values given.
  const bulkOutcome = (n: number): PointOutcome => ({
    ok: true,
    records: Array.from({ length: n }, (_, i) => ({
      component: i % 3 === 0 ? "StatesConstructor" : "EFMFlux",
      port: "compute",
      method: i % 2 ? "x" : "y's", // a quote in a string
      rank: i % 5,
      parameters: (i % 7 === 0 ? { Q: i * 1.5, mode: "strided" } : { Q: i * 1.5 }) as Record<string, string | number>,
      start: i / 3,
      wallTime: Math.PI * i,
      mpiTime: i % 4 === 0 ? 0 : 1e-300 * i,
      computeTime: -i / 7,
      counters: { PAPI_TOT_CYC: 2 ** 40 + i, PAPI_L2_TCM: i },
    })),
    simulatedTime: 1,
    events: 2 ** 40,
    invocations: n,
    summary: {},
    wallSeconds: 0,
  });

  it.each([5000, 40])("stores %i records with exactly their values", async (n) => {
    const store = await StudyStore.open(join(dir, `bulk-${n}.db`), { create: true });
    try {
      const o = bulkOutcome(n);
      await store.insertPoints([pointRows({ id: "big", index: 0, replication: 0, seed: 2 ** 31 - 1, values: { Q: 1 } }, o)]);
      const q = async (sql: string) => (await store.query(sql)).rows;
      const records = o.ok ? (o.records as InvocationRecord[]) : [];
      expect(await q(`SELECT record_index, component, port, method, rank, start, wall_time, mpi_time, compute_time FROM record ORDER BY record_index`)).toEqual(
        records.map((r, i) => [i, r.component, r.port, r.method, r.rank, r.start, r.wallTime, r.mpiTime, r.computeTime]),
      );
      expect(await q(`SELECT record_index, name, value, numeric_value FROM record_parameter ORDER BY record_index, name`)).toEqual(
        records.flatMap((r, i) => Object.keys(r.parameters).sort().map((k) => [i, k, String(r.parameters[k]), typeof r.parameters[k] === "number" ? r.parameters[k] : null])),
      );
      expect(await q(`SELECT record_index, counter, value FROM record_counter ORDER BY record_index, counter`)).toEqual(
        records.flatMap((r, i) => Object.keys(r.counters).sort().map((k) => [i, k, r.counters[k]])),
      );
      expect(await q(`SELECT count(DISTINCT point_id), min(point_id) FROM record`)).toEqual([[1, "big"]]);
      expect(await q(`SELECT seed, events, record_count FROM point`)).toEqual([[2 ** 31 - 1, 2 ** 40, n]]);
    } finally {
      store.close();
    }
  });

  it("reports a column of the wrong type in a bulk table", async () => {
    const store = await StudyStore.open(join(dir, "bulk-bad.db"), { create: true });
    try {
      const rows = pointRows({ id: "b", index: 0, replication: 0, seed: 1, values: {} }, bulkOutcome(5000));
      const record = [...rows.tables.record];
      record[5] = Array.from({ length: 5000 }, (_, i) => (i === 4321 ? "one" : i));
      await expect(store.insertPoints([{ ...rows, tables: { ...rows.tables, record } }])).rejects.toThrow(/record, column rank, point b: "one" is not a number/);
      expect((await store.query(`SELECT count(*) FROM point`)).rows).toEqual([[0]]);
    } finally {
      store.close();
    }
  });
});

describe("the study schema documentation", () => {
  it("documents every table and column of the study database", async () => {
    const { STUDY_TABLES, TIMING_TABLE, META_TABLE } = await import("../../profile/study/index.js");
    const doc = readFileSync("docs/study-schema.md", "utf8");
    for (const t of [...STUDY_TABLES, TIMING_TABLE, META_TABLE]) {
      const at = doc.indexOf(`### \`${t.name}\``);
      expect(at, t.name).toBeGreaterThan(0);
      const section = doc.slice(at, doc.indexOf("###", at + 4) === -1 ? undefined : doc.indexOf("###", at + 4));
      for (const c of t.columns) expect(section, `${t.name}.${c.name}`).toContain(`| \`${c.name}\` | ${c.type} |`);
    }
  });
});
