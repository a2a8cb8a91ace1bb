import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  formatRecordChunks,
  formatRecordFiles,
  formatRecordsCsv,
  formatRecordsJsonl,
  parseRecordsCsv,
  parseRecordsJsonl,
  ProfileError,
  ProfileModelError,
  RECORD_COLUMNS,
  recordColumns,
  recordList,
  recordTable,
  writeRecordFiles,
  writeRecordsCsv,
  writeRecordsJsonl,
  type InvocationRecord,
  type RecordTable,
} from "../../index.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-records-write-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The formats as first written: one cell at a time from the column names, one object per JSON line.
// The streaming writers must give exactly this text.
const FIXED = Object.values(RECORD_COLUMNS) as string[];
function referenceColumns(records: readonly InvocationRecord[]): string[] {
  const params = new Set<string>();
  const counters = new Set<string>();
  for (const r of records) {
    Object.keys(r.parameters).forEach((k) => params.add(k));
    Object.keys(r.counters).forEach((k) => counters.add(k));
  }
  return [...FIXED, ...[...params].sort().map((p) => `param:${p}`), ...[...counters].sort().map((c) => `counter:${c} [count]`)];
}
function referenceCell(r: InvocationRecord, c: string): string | number | undefined {
  const fixed: Record<string, string | number> = { component: r.component, port: r.port, method: r.method, rank: r.rank, "start [us]": r.start, "wall_time [us]": r.wallTime, "mpi_time [us]": r.mpiTime, "compute_time [us]": r.computeTime };
  if (FIXED.includes(c)) return fixed[c];
  if (c.startsWith("param:")) return r.parameters[c.slice(6)];
  return r.counters[c.slice(8, -8)];
}
function referenceCsvCell(v: string | number | undefined): string {
  if (v === undefined) return "";
  if (typeof v === "number") return String(v);
  return v === "" || /[",\r\n]/.test(v) || v.trim() !== v ? `"${v.replace(/"/g, '""')}"` : v;
}
function referenceCsv(records: readonly InvocationRecord[]): string {
  const columns = referenceColumns(records);
  return [columns.map(referenceCsvCell).join(","), ...records.map((r) => columns.map((c) => referenceCsvCell(referenceCell(r, c))).join(","))].join("\n") + "\n";
}
function referenceJsonl(records: readonly InvocationRecord[]): string {
  const columns = referenceColumns(records);
  return records.map((r) => JSON.stringify(Object.fromEntries(columns.flatMap((c) => (referenceCell(r, c) === undefined ? [] : [[c, referenceCell(r, c)]])))) + "\n").join("");
}

/** Names and strings that need CSV quoting or JSON escaping, and plain ones. */
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("", " padded ", 'say "hi"', "a,b", "line\nbreak", "cr\rx", "ünï ∑", "tab\t", "\u2028", "null"));
/** A component, port or method name: text that is not blank. */
const nameText = text.filter((t) => t.trim() !== "");
/** Finite numbers with every edge JSON and String() treat apart (the writers refuse the others). */
const number = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, 0, 1e21, 1e-7, 123456789012345680000, 0.1 + 0.2, -1e300, 5e-324));
/** A duration: a finite number, 0 or more. */
const duration = fc.oneof(fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, 1e21, 1e-7, 5e-324));
/** Few names, so that records share some columns and leave others empty. */
const name = fc.constantFrom("Q", "mode", "level", "a,b", 'q"', " x", "ü");
const record: fc.Arbitrary<InvocationRecord> = fc.record({
  component: nameText,
  port: nameText,
  method: nameText,
  rank: fc.oneof(fc.nat(64), fc.constant(2 ** 31 - 1)),
  parameters: fc.dictionary(name, fc.oneof(number, text), { maxKeys: 4 }),
  start: number,
  wallTime: duration,
  mpiTime: duration,
  computeTime: number,
  counters: fc.dictionary(name, number, { maxKeys: 3 }),
});
const records = fc.array(record, { maxLength: 12 });

/** A record table kept column by column, with its own kinds: what a simulator's store looks like. */
function columnTable(rs: readonly InvocationRecord[]): RecordTable {
  const kinds: { component: string; port: string; method: string; parameterNames: string[]; counterNames: string[] }[] = [];
  const kindOf = rs.map((r) => {
    const k = { component: r.component, port: r.port, method: r.method, parameterNames: Object.keys(r.parameters), counterNames: Object.keys(r.counters) };
    const found = kinds.findIndex((x) => JSON.stringify(x) === JSON.stringify(k));
    return found >= 0 ? found : kinds.push(k) - 1;
  });
  // A kind nothing refers to must add no column.
  kinds.push({ component: "unused", port: "p", method: "m", parameterNames: ["never"], counterNames: ["none"] });
  const col = <T>(f: (r: InvocationRecord) => T) => rs.map(f);
  const [rank, start, wall, mpi, compute] = [col((r) => r.rank), col((r) => r.start), col((r) => r.wallTime), col((r) => r.mpiTime), col((r) => r.computeTime)];
  const params = col((r) => Object.values(r.parameters));
  const counters = col((r) => Object.values(r.counters));
  return {
    count: rs.length,
    kinds,
    kind: (i) => kindOf[i],
    rank: (i) => rank[i],
    start: (i) => start[i],
    wallTime: (i) => wall[i],
    mpiTime: (i) => mpi[i],
    computeTime: (i) => compute[i],
    parameter: (i, k) => params[i][k],
    counter: (i, k) => counters[i][k],
  };
}

describe("record writers", () => {
  it("give the text of the cell-by-cell formats for any records: quotes, empty cells, -0 and extreme numbers included", () => {
    fc.assert(
      fc.property(records, (rs) => {
        expect(formatRecordsCsv(rs)).toBe(referenceCsv(rs));
        expect(formatRecordsJsonl(rs)).toBe(referenceJsonl(rs));
        expect(recordColumns(rs)).toEqual(referenceColumns(rs));
      }),
      { numRuns: 300, seed: 41 },
    );
  });

  it("give the same text for a column-wise table as for its record objects", () => {
    fc.assert(
      fc.property(records, (rs) => {
        const table = columnTable(rs);
        expect(formatRecordsCsv(table)).toBe(referenceCsv(rs));
        expect(formatRecordsJsonl(table)).toBe(referenceJsonl(rs));
        expect(recordList(table)).toEqual(rs);
      }),
      { numRuns: 200, seed: 42 },
    );
  });

  it("hand out whole lines in chunks of about the size asked for, which join to the whole text", () => {
    fc.assert(
      fc.property(records, fc.integer({ min: 1, max: 400 }), fc.constantFrom("csv" as const, "jsonl" as const), (rs, size, format) => {
        const chunks: string[] = [];
        formatRecordChunks(rs, format, (c) => chunks.push(c), size);
        expect(chunks.join("")).toBe(format === "csv" ? referenceCsv(rs) : referenceJsonl(rs));
        for (const c of chunks) expect(c.endsWith("\n")).toBe(true);
        // A chunk is emitted as soon as it reaches the size, so it holds at most one line past it
        // (JSON lines only: a CSV line may hold line breaks inside quotes).
        if (format === "jsonl") for (const c of chunks.slice(0, -1)) expect(c.slice(0, -1).lastIndexOf("\n") + 1).toBeLessThan(size);
      }),
      { numRuns: 200, seed: 43 },
    );
  });

  it("make both formats in one pass exactly as each alone, in chunks of whole lines", () => {
    fc.assert(
      fc.property(records, fc.integer({ min: 1, max: 400 }), fc.boolean(), (rs, size, columns) => {
        const csv: string[] = [];
        const jsonl: string[] = [];
        formatRecordFiles(columns ? columnTable(rs) : rs, { csv: (c) => csv.push(c), jsonl: (c) => jsonl.push(c) }, size);
        expect(csv.join("")).toBe(referenceCsv(rs));
        expect(jsonl.join("")).toBe(referenceJsonl(rs));
        for (const c of [...csv, ...jsonl]) expect(c.endsWith("\n")).toBe(true);
        for (const c of jsonl.slice(0, -1)) expect(c.slice(0, -1).lastIndexOf("\n") + 1).toBeLessThan(size);
      }),
      { numRuns: 200, seed: 45 },
    );
    // Hand-made objects may leave a value undefined: an empty cell, an absent key.
    const holes: RecordTable = { count: 1, kinds: [{ component: "A", port: "p", method: "m", parameterNames: ["x", "y"], counterNames: ["c", "d"] }], kind: () => 0, rank: () => 0, start: () => 0, wallTime: () => 1, mpiTime: () => 0, computeTime: () => 1, parameter: (_, k) => [undefined, "s"][k] as string, counter: (_, k) => [7, undefined][k] as number };
    const both: string[] = [];
    formatRecordFiles(holes, { csv: (c) => both.push(c), jsonl: (c) => both.push(c) });
    expect(both).toEqual([formatRecordsCsv(holes), formatRecordsJsonl(holes)]);
    expect(both[1]).toContain('"param:y":"s","counter:c [count]":7}');
  });

  it("write files equal to the string formatters, the last value of a name given twice included", () => {
    fc.assert(
      fc.property(records, (rs) => {
        writeRecordsCsv(rs, join(scratch, "r.csv"));
        writeRecordsJsonl(columnTable(rs), join(scratch, "r.jsonl"));
        expect(readFileSync(join(scratch, "r.csv"), "utf8")).toBe(referenceCsv(rs));
        expect(readFileSync(join(scratch, "r.jsonl"), "utf8")).toBe(referenceJsonl(rs));
      }),
      { numRuns: 50, seed: 44 },
    );
    const twice: RecordTable = { count: 1, kinds: [{ component: "A", port: "p", method: "m", parameterNames: ["x", "y", "x"], counterNames: [] }], kind: () => 0, rank: () => 0, start: () => 0, wallTime: () => 1, mpiTime: () => 0, computeTime: () => 1, parameter: (_, k) => [1, 2, 3][k], counter: () => 0 };
    expect(formatRecordsCsv(twice)).toBe(referenceCsv(recordList(twice)));
    expect(formatRecordsJsonl(twice)).toContain('"param:x":3,"param:y":2}');
  });

  it("read each record of an array by its own keys, whatever their order and however many kinds", () => {
    const r = (parameters: Record<string, number | string>, counters: Record<string, number> = {}): InvocationRecord => ({ component: "A", port: "p", method: "m", rank: 0, parameters, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters });
    const inherited = Object.assign(Object.create({ fromPrototype: 9 }) as Record<string, number>, { Q: 4 });
    const many = Array.from({ length: 12 }, (_, k) => r({ [`p${k}`]: k, Q: k }, { [`c${k % 3}`]: k }));
    const rs = [r({ Q: 1, mode: "a" }), r({ mode: "b", Q: 2 }), r(inherited), r({ Q: 1, mode: "a" }), ...many, r({ mode: "c", Q: 3 }), r(inherited)];
    expect(formatRecordsCsv(rs)).toBe(referenceCsv(rs));
    expect(formatRecordsJsonl(rs)).toBe(referenceJsonl(rs));
    expect(recordList(columnTable(rs))).toEqual(rs);
    // One kind per method and own keys in order: the inherited key makes none of its own.
    const table = recordTable(rs);
    expect(table.kinds.map((k) => k.parameterNames.join(" "))).toEqual(["Q mode", "mode Q", "Q", ...Array.from({ length: 12 }, (_, k) => `p${k} Q`)]);
    expect(table.kind(2)).toBe(table.kind(rs.length - 1));
  });

  it("write only what reads back: any record they accept is read back with its values", () => {
    fc.assert(
      fc.property(records, (rs) => {
        for (const [format, parse] of [[formatRecordsCsv, parseRecordsCsv], [formatRecordsJsonl, parseRecordsJsonl]] as const) {
          // (-0 is written as 0, as String and JSON.stringify write it; `+ 0` makes it 0.)
          const fields = (r: InvocationRecord) => [r.component, r.port, r.method, r.rank, r.start + 0, r.wallTime + 0, r.mpiTime + 0, r.computeTime + 0, Object.fromEntries(Object.entries(r.counters).map(([k, v]) => [k, v + 0]))];
          expect(parse(format(rs)).map(fields)).toEqual(rs.map(fields));
        }
      }),
      { numRuns: 100 },
    );
  });

  it("refuse, before writing anything, a record the readers would refuse, naming it and the field", () => {
    const ok: InvocationRecord = { component: "A", port: "p", method: "m", rank: 0, parameters: { Q: 1, mode: "x" }, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: { L2: 3 } };
    const cases: [Partial<InvocationRecord>, RegExp][] = [
      [{ component: " " }, /^record 2: component must be a name \(non-blank text\), found " "; the record files would not read back$/],
      [{ method: "" }, /^record 2: method must be a name/],
      [{ rank: 2 ** 31 }, /^record 2: rank must be an integer from 0 to 2147483647, found 2147483648/],
      [{ rank: -1 }, /^record 2: rank must be an integer/],
      [{ rank: 1.5 }, /^record 2: rank must be an integer/],
      [{ wallTime: -1 }, /^record 2: wallTime must be a finite duration, 0 or more, found -1/],
      [{ mpiTime: NaN }, /^record 2: mpiTime must be a finite duration, 0 or more, found NaN/],
      [{ wallTime: Infinity }, /^record 2: wallTime must be a finite duration/],
      [{ start: -Infinity }, /^record 2: start must be a finite number, found -Infinity/],
      [{ computeTime: NaN }, /^record 2: computeTime must be a finite number, found NaN/],
      [{ counters: { L2: NaN } }, /^record 2: counter 'L2' must be a finite number, found NaN/],
      [{ parameters: { Q: Infinity } }, /^record 2: parameter 'Q' must be text or a finite number, found Infinity/],
    ];
    const dir = mkdtempSync(join(scratch, "refused-"));
    for (const [change, message] of cases) {
      const rs = [ok, { ...ok, ...change }];
      for (const source of [rs, columnTable(rs)]) {
        expect(() => formatRecordsCsv(source), JSON.stringify(change)).toThrow(ProfileModelError);
        expect(() => formatRecordsJsonl(source)).toThrow(message);
        expect(() => writeRecordFiles(source, { csv: join(dir, "r.csv"), jsonl: join(dir, "r.jsonl") })).toThrow(message);
      }
      // The negative compute time of rounding (wall - MPI) is written.
      expect(() => formatRecordsCsv([{ ...ok, computeTime: -1e-9 }])).not.toThrow();
    }
    expect(readdirSync(dir)).toEqual([]);
    // A value a later listing of the same name replaces is not written, hence not checked.
    const twice = columnTable([ok]);
    const kinds = [{ ...twice.kinds[0], counterNames: ["L2", "L2"] }];
    expect(formatRecordsCsv({ ...twice, kinds, counter: (_i, k) => (k === 0 ? NaN : 3) })).toContain(",3\n");
  });

  it("write an empty CSV as its header line and an empty JSON Lines file as nothing", () => {
    expect(formatRecordsCsv([])).toBe(FIXED.join(",") + "\n");
    writeRecordsJsonl([], join(scratch, "empty.jsonl"));
    expect(readFileSync(join(scratch, "empty.jsonl"), "utf8")).toBe("");
  });

  it("name the file they cannot write and leave nothing behind", () => {
    const rs = [{ component: "A", port: "p", method: "m", rank: 0, parameters: {}, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} }];
    // Under a file, where no folder can be made (a missing folder is made).
    const file = join(scratch, "a-file");
    writeFileSync(file, "x");
    const under = join(file, "r.csv");
    expect(() => writeRecordsCsv(rs, under)).toThrow(ProfileError);
    expect(() => writeRecordsCsv(rs, under)).toThrow(`cannot write '${under}'`);
    expect(readdirSync(scratch).filter((n) => n.includes(".tmp-"))).toEqual([]);
    const made = join(scratch, "new-dir", "r.csv");
    writeRecordsCsv(rs, made);
    expect(existsSync(made)).toBe(true);
  });

  it("leave the old file and no temporary one when the records fail half-way", () => {
    const dir = mkdtempSync(join(scratch, "half-"));
    const path = join(dir, "r.jsonl");
    writeFileSync(path, "old\n");
    const good = columnTable(Array.from({ length: 5000 }, (_, i) => ({ component: "A", port: "p", method: "m", rank: i, parameters: { Q: i }, start: i, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} })));
    const failing: RecordTable = {
      ...good,
      rank: (i) => {
        if (i === 4000) throw new RangeError("row 4000 is unreadable");
        return good.rank(i);
      },
    };
    expect(() => writeRecordsJsonl(failing, path)).toThrow("row 4000 is unreadable");
    expect(readdirSync(dir)).toEqual(["r.jsonl"]);
    expect(readFileSync(path, "utf8")).toBe("old\n");
    // Both files from one pass: neither is touched.
    const csvPath = join(dir, "r.csv");
    writeFileSync(csvPath, "old csv\n");
    expect(() => writeRecordFiles(failing, { csv: csvPath, jsonl: path })).toThrow("row 4000 is unreadable");
    expect(readdirSync(dir).sort()).toEqual(["r.csv", "r.jsonl"]);
    expect(readFileSync(csvPath, "utf8")).toBe("old csv\n");
    expect(readFileSync(path, "utf8")).toBe("old\n");
    // And when nothing fails, both are the single-format files.
    writeRecordFiles(good, { csv: csvPath, jsonl: path });
    expect(readFileSync(csvPath, "utf8")).toBe(formatRecordsCsv(good));
    expect(readFileSync(path, "utf8")).toBe(formatRecordsJsonl(good));
    writeRecordFiles(good, { csv: csvPath });
    writeRecordFiles(good, {});
    expect(readdirSync(dir).sort()).toEqual(["r.csv", "r.jsonl"]);
  });
});
