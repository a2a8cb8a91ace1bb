import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { forEachRecord, formatRecordsCsv, formatRecordsJsonl, parseRecordsCsv, parseRecordsJsonl, ProfileFormatError, readRecords, type InvocationRecord } from "../../profile/index.js";
import { decimalValue } from "../../profile/decimal-text.js";
import { readRecordsInBlocks } from "../../profile/records.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-records-read-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Texts that cut badly: quotes, commas, line ends inside cells, multi-byte characters.
const text = fc.constantFrom("A", "B,c", 'say "hi"', "two\nlines", "crlf\r\nend", "ü", "€uro", "𝄞", "", " pad ");
/** A component or method name: the readers refuse a blank one. */
const name = text.filter((s) => s.trim() !== "");
const record = fc.record({
  component: name,
  port: fc.constantFrom("work", "p"),
  method: name,
  rank: fc.nat(64),
  parameters: fc.dictionary(fc.constantFrom("Q", "mode", "x,y", "ß"), fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), text)),
  start: fc.double({ noNaN: true, noDefaultInfinity: true }),
  wallTime: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0 }),
  mpiTime: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0 }),
  computeTime: fc.double({ noNaN: true, noDefaultInfinity: true }),
  counters: fc.dictionary(fc.constantFrom("PAPI_TOT_CYC", "L2_MISSES"), fc.double({ noNaN: true, noDefaultInfinity: true })),
}) as fc.Arbitrary<InvocationRecord>;

let n = 0;
/** Writes `content` to a fresh file named with extension `ext`. */
function file(content: string, ext: string): string {
  const p = join(scratch, `r${n++}${ext}`);
  writeFileSync(p, content);
  return p;
}

/** What parsing the whole text throws, or undefined. */
function thrown(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

describe("reading records block by block", () => {
  it("gives the records of the whole text for any block size, extension and BOM (property)", () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), fc.boolean(), fc.constantFrom(".csv", ".jsonl", ".txt"), fc.integer({ min: 1, max: 40 }), fc.boolean(), (rs, jsonl, ext, block, bom) => {
        const content = jsonl ? formatRecordsJsonl(rs) : formatRecordsCsv(rs);
        // JSON Lines files are written without a BOM (JSON.parse refuses one); CSV ones may have it.
        const written = (bom && !jsonl ? "\ufeff" : "") + content;
        const name = jsonl && ext === ".csv" ? ".jsonl" : !jsonl && ext === ".jsonl" ? ".csv" : ext;
        const path = file(written, name);
        // Another extension: JSON Lines when the first non-blank character is `{` (an empty file is CSV).
        const asJsonl = name === ".txt" ? written.trimStart().startsWith("{") : jsonl;
        const whole = () => (asJsonl ? parseRecordsJsonl(written, path) : parseRecordsCsv(written, path));
        const expected = thrown(whole);
        if (expected !== undefined) {
          expect(thrown(() => readRecordsInBlocks(path, block))).toBe(expected);
          return;
        }
        // As text: key order included (it reaches summaries and tables).
        expect(JSON.stringify(readRecordsInBlocks(path, block))).toBe(JSON.stringify(whole()));
        expect(JSON.stringify(readRecords(path))).toBe(JSON.stringify(whole()));
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it("names the same file and line for a bad row whatever the block size", () => {
    const good = formatRecordsCsv([{ component: 'a "q"\nb', port: "p", method: "m", rank: 1, parameters: { Q: 3 }, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} }]);
    const [header, ...rows] = good.trimEnd().split("\n");
    const row = rows.join("\n");
    const bad = [header, row, row, row.replace(",1,0,1,", ",1,zero,1,"), row].join("\r\n") + "\r\n";
    const path = file(bad, ".csv");
    const expected = thrown(() => parseRecordsCsv(bad, path));
    expect(expected).toMatch(/:6: 'start \[us\]' must be a finite number, found 'zero'/);
    for (const block of [1, 2, 3, 7, 16, 64, 1 << 20]) {
      expect(() => readRecordsInBlocks(path, block)).toThrow(ProfileFormatError);
      expect(thrown(() => readRecordsInBlocks(path, block))).toBe(expected);
    }
    const jsonl = formatRecordsJsonl([{ component: "A", port: "p", method: "m", rank: 1, parameters: {}, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} }]);
    const badJsonl = jsonl + "\n" + jsonl + "[1]\n" + jsonl;
    const jpath = file(badJsonl, ".jsonl");
    for (const block of [1, 5, 1 << 20]) expect(thrown(() => readRecordsInBlocks(jpath, block))).toMatch(/:4: expected a JSON object per line/);
    // A CR inside a JSON line is whitespace, not a line end, in whichever block it falls.
    const crJsonl = jsonl.trimEnd() + "\r \n" + jsonl + "\n" + "[1]\n" + jsonl;
    const crPath = file(crJsonl, ".jsonl");
    for (const block of [1, 5, 64, 1 << 20]) expect(thrown(() => readRecordsInBlocks(crPath, block))).toMatch(/:4: expected a JSON object per line/);
  });

  it("gives a record's keys in their order in the whole file, whichever block first has a key", () => {
    const base = '"component":"A","port":"p","method":"m","rank":0,"start [us]":0,"wall_time [us]":1,"mpi_time [us]":0,"compute_time [us]":1';
    const content = `{${base},"param:mode":"a"}\n{${base},"param:level":1,"param:mode":"b"}\n{${base},"param:level":2}\n`;
    const path = file(content, ".jsonl");
    const whole = JSON.stringify(parseRecordsJsonl(content, path));
    expect(whole).toContain('{"mode":"b","level":1}');
    for (const block of [1, 16, 150, 1 << 20]) expect(JSON.stringify(readRecordsInBlocks(path, block))).toBe(whole);
  });

  it("stops at a stray quote once its row has grown past the longest row, and refuses a block size below one byte", () => {
    const good = formatRecordsCsv([{ component: "A", port: "p", method: "m", rank: 1, parameters: {}, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} }]);
    const [header, row] = good.trimEnd().split("\n");
    const rows = Array.from({ length: 400 }, (_, i) => (i === 2 ? row.replace("A,", 'A"x,') : row));
    const path = file([header, ...rows].join("\n") + "\n", ".csv");
    for (const block of [7, 64]) expect(thrown(() => readRecordsInBlocks(path, block, 200))).toMatch(/:4: stray quote in unquoted cell 'A"x'/);
    expect(thrown(() => readRecordsInBlocks(path, 64))).toMatch(/:4: stray quote/);
    expect(() => readRecordsInBlocks(path, 0)).toThrow(RangeError);
  });

  it("cuts a CSV with bare CR line ends between its rows", () => {
    const rs = Array.from({ length: 12 }, (_, i) => ({ component: i === 1 ? "two\rlines" : "A", port: "p", method: "m", rank: i, parameters: { Q: i }, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} }));
    const content = formatRecordsCsv(rs).replace(/\n/g, "\r");
    const path = file(content, ".csv");
    const whole = JSON.stringify(parseRecordsCsv(content, path));
    expect(JSON.parse(whole)).toHaveLength(12);
    // Rows held back at most 150 characters: each row is shorter, the file longer.
    expect(content.length).toBeGreaterThan(300);
    for (const block of [1, 3, 16, 1 << 20]) expect(JSON.stringify(readRecordsInBlocks(path, block, 150))).toBe(whole);
    // Lines end at bare CRs too: a bad value on line 6 (the header, then rows 0-1, row 2 on two lines).
    const lines = content.split("\r");
    const at = lines.findIndex((l) => l.startsWith("A,p,m,4,"));
    lines[at] = lines[at].replace("A,p,m,4,0,", "A,p,m,4,zero,");
    const bad = lines.join("\r");
    const badPath = file(bad, ".csv");
    expect(thrown(() => parseRecordsCsv(bad, badPath))).toMatch(/:7: 'start \[us\]' must be a finite number/);
    for (const block of [1, 2, 5, 16, 1 << 20]) expect(thrown(() => readRecordsInBlocks(badPath, block, 150))).toBe(thrown(() => parseRecordsCsv(bad, badPath)));
    // CRLF files cut anywhere count their lines once.
    const crlf = bad.replace(/\r/g, "\r\n");
    const crlfPath = file(crlf, ".csv");
    expect(thrown(() => parseRecordsCsv(crlf, crlfPath))).toMatch(/:7: /);
    for (const block of [1, 2, 3, 7, 1 << 20]) expect(thrown(() => readRecordsInBlocks(crlfPath, block))).toBe(thrown(() => parseRecordsCsv(crlf, crlfPath)));
  });

  it("names a missing start, time or rank cell as missing, at its line", () => {
    // It said "'wall_time [us]' must be a finite number, found 'undefined'".
    const one = { component: "A", port: "p", method: "m", rank: 1, parameters: {}, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} };
    const [header, row] = formatRecordsCsv([one]).trimEnd().split("\n");
    const columns = header.split(",");
    for (const column of ["rank", "start [us]", "wall_time [us]", "mpi_time [us]", "compute_time [us]"]) {
      const at = columns.indexOf(column);
      const emptied = row.split(",").map((c, i) => (i === at ? "" : c)).join(",");
      expect(() => parseRecordsCsv([header, row, emptied].join("\n"), "in.csv")).toThrow(new ProfileFormatError("in.csv", 3, `missing value for '${column}'`));
      const line = JSON.parse(formatRecordsJsonl([one]).trimEnd()) as Record<string, unknown>;
      delete line[column];
      expect(() => parseRecordsJsonl(formatRecordsJsonl([one]) + JSON.stringify(line) + "\n", "in.jsonl")).toThrow(new ProfileFormatError("in.jsonl", 2, `missing value for '${column}'`));
    }
  });

  it("refuses a negative wall or MPI time at its line: a report charted it, a conversion copied it", () => {
    const one = { component: "A", port: "p", method: "m", rank: 1, parameters: {}, start: 0, wallTime: 1, mpiTime: 0.5, computeTime: 0.5, counters: {} };
    for (const [field, column] of [["wallTime", "wall_time [us]"], ["mpiTime", "mpi_time [us]"]] as const) {
      // (The writers refuse such a record: the files are edited.)
      const marked = [one, { ...one, [field]: 123456 }];
      expect(() => parseRecordsCsv(formatRecordsCsv(marked).replace("123456", "-1"), "in.csv")).toThrow(new ProfileFormatError("in.csv", 3, `'${column}' must be 0 or more (a duration), found -1`));
      expect(() => parseRecordsJsonl(formatRecordsJsonl(marked).replace("123456", "-1"), "in.jsonl")).toThrow(new ProfileFormatError("in.jsonl", 2, `'${column}' must be 0 or more (a duration), found -1`));
    }
    // -0 is 0; the compute time (wall - MPI) may round below 0, and is read as it is.
    expect(parseRecordsCsv(formatRecordsCsv([{ ...one, wallTime: -0, mpiTime: -0, computeTime: -1e-12 }]), "in.csv")).toHaveLength(1);
  });

  it("refuses a blank or numeric name and a rank beyond a C int, at its line", () => {
    const one = { component: "A", port: "p", method: "m", rank: 1, parameters: {}, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} };
    // (The writers refuse such records: the files are edited.)
    expect(() => parseRecordsCsv(formatRecordsCsv([one, { ...one, component: "BLANK" }]).replace("BLANK", '" "'), "in.csv")).toThrow(new ProfileFormatError("in.csv", 3, "'component' must not be empty"));
    expect(() => parseRecordsJsonl(formatRecordsJsonl([one, { ...one, method: "BLANK" }]).replace('"BLANK"', '""'), "in.jsonl")).toThrow(new ProfileFormatError("in.jsonl", 2, "'method' must not be empty"));
    const numeric = formatRecordsJsonl([one]).replace('"component":"A"', '"component":5');
    expect(() => parseRecordsJsonl(numeric, "in.jsonl")).toThrow(new ProfileFormatError("in.jsonl", 1, "'component' must be a name (text), found 5"));
    for (const rank of [2 ** 31, 1e308]) {
      expect(() => parseRecordsCsv(formatRecordsCsv([{ ...one, rank: 77777 }]).replace("77777", String(rank)), "in.csv")).toThrow(new ProfileFormatError("in.csv", 2, `'rank' must be an integer from 0 to 2147483647, found ${rank}`));
    }
    expect(parseRecordsCsv(formatRecordsCsv([{ ...one, rank: 2 ** 31 - 1 }]), "in.csv")[0].rank).toBe(2 ** 31 - 1);
  });

  it("reports an empty CSV, and an unterminated quoted cell at its line", () => {
    for (const block of [1, 4, 1 << 20]) {
      expect(thrown(() => readRecordsInBlocks(file("\n\n", ".csv"), block))).toMatch(/:1: empty file; expected a header line/);
      expect(readRecordsInBlocks(file("", ".jsonl"), block)).toEqual([]);
      const open = formatRecordsCsv([]).trimEnd() + '\n"never closed,x\n\n';
      expect(thrown(() => readRecordsInBlocks(file(open, ".csv"), block))).toMatch(/:2: unterminated quoted cell/);
    }
  });

  it("hands a long file on in batches of rows, in order, and none at or after a bad row's batch", () => {
    const rows: InvocationRecord[] = Array.from({ length: 2500 }, (_, i) => ({ component: "A", port: "p", method: "m", rank: i % 4, parameters: { Q: i, mode: i % 2 ? "strided" : "sequential" }, start: i, wallTime: 1 + i / 8, mpiTime: 0, computeTime: 1, counters: { PAPI_TOT_CYC: 3 * i } }));
    for (const [ext, format, parse] of [[".csv", formatRecordsCsv, parseRecordsCsv], [".jsonl", formatRecordsJsonl, parseRecordsJsonl]] as const) {
      const text = format(rows);
      const path = file(text, ext);
      const seen: number[] = [];
      forEachRecord(path, (r) => seen.push(r.start));
      expect(seen).toEqual(rows.map((r) => r.start));
      expect(JSON.stringify(readRecords(path))).toBe(JSON.stringify(parse(text, path)));
      // Row 2400 (line 2401 of the CSV after its header, 2401 of the JSON Lines) is bad.
      const lines = text.split("\n");
      const at = ext === ".csv" ? 2401 : 2400;
      lines[at] = lines[at].replace(ext === ".csv" ? /^A,p,m,0,2400,/ : /"start \[us\]":2400,/, ext === ".csv" ? "A,p,m,0,oops," : '"start [us]":"oops",');
      const badPath = file(lines.join("\n"), ext);
      const before: number[] = [];
      expect(thrown(() => forEachRecord(badPath, (r) => before.push(r.start)))).toMatch(new RegExp(`:${at + 1}: 'start \\[us\\]' must be a finite number`));
      // Whole batches before the bad row's were handed on; nothing from its batch or after.
      expect(before.length).toBeGreaterThan(0);
      expect(before.length).toBeLessThan(2400);
      expect(before).toEqual(rows.slice(0, before.length).map((r) => r.start));
    }
  });

  it("checks the CSV header as soon as it is read: before a later row's error, and in a file of a header alone", () => {
    const header = formatRecordsCsv([]).trimEnd().replace("method", "methd");
    const bad = `${header}\nA,p,"m,0,0,1,0,1\n`;
    const path = file(bad, ".csv");
    for (const f of [() => readRecords(path), () => parseRecordsCsv(bad, path)]) expect(thrown(f)).toMatch(/:1: missing column 'method'/);
    expect(thrown(() => readRecords(file(`${header}\n`, ".csv")))).toMatch(/:1: missing column 'method'/);
  });

  it("reads a cell as a number exactly when it is a decimal literal, with Number's value (every text up to 5 characters, and long ones)", () => {
    const literal = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
    const definition = (t: string) => (literal.test(t) ? Number(t) : NaN);
    const alphabet = ["0", "7", "+", "-", ".", "e", "E", " ", "x", "I"];
    let texts = [""];
    let checked = 0;
    for (let len = 1; len <= 5; len++) {
      texts = texts.flatMap((t) => alphabet.map((c) => t + c));
      for (const t of texts) {
        if (!Object.is(decimalValue(t), definition(t))) expect([t, decimalValue(t)]).toEqual([t, definition(t)]);
        checked++;
      }
    }
    expect(checked).toBe(111_110);
    for (const t of ["Infinity", "-Infinity", "0x1F", "1_000", "1e309", "123456789012345", "1234567890123456", "99999999999999999999", "97745066134060629", "101351165379833330", "-0", ".5e-3"]) expect(Object.is(decimalValue(t), definition(t))).toBe(true);
    fc.assert(fc.property(fc.stringMatching(/^[0-9]{1,22}$/), (t) => Object.is(decimalValue(t), Number(t))));
  });
});
