/**
 * Reading per-invocation records from CSV and JSON Lines (see `records-write.ts` for the
 * layout). Both use the same column names, which carry their units, so a spreadsheet or
 * `pandas.read_csv` / `pandas.read_json(lines=True)` opens them as they are. On reading, a
 * parameter cell that is a finite number becomes a number, anything else stays a string; in CSV a
 * quoted empty cell (`""`) is an empty string, an unquoted empty cell is "absent".
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { ProfileError, ProfileFormatError } from "./errors.js";
import type { InvocationRecord } from "./model.js";
import { COUNTER_PREFIX, COUNTER_SUFFIX, FIXED_COLUMNS as FIXED, PARAM_PREFIX, RECORD_COLUMNS } from "./record-columns.js";

/** A parsed CSV cell: its text and whether it was quoted. @internal */
interface Cell {
  text: string;
  quoted: boolean;
}

/** Splits CSV text into rows of cells (RFC 4180 quoting; quoted cells may span lines), with each row's starting line. @internal */
function parseCsv(text: string, file: string): { line: number; cells: Cell[] }[] {
  const rows: { line: number; cells: Cell[] }[] = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const startLine = line;
    const cells: Cell[] = [];
    for (;;) {
      let cell = "";
      let quoted = false;
      if (text[i] === '"') {
        quoted = true;
        i++;
        for (;;) {
          if (i >= n) throw new ProfileFormatError(file, startLine, "unterminated quoted cell");
          const ch = text[i];
          if (ch === '"') {
            if (text[i + 1] === '"') {
              cell += '"';
              i += 2;
            } else {
              i++;
              break;
            }
          } else {
            if (ch === "\n") line++;
            cell += ch;
            i++;
          }
        }
        if (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") throw new ProfileFormatError(file, line, "text after a closing quote");
      } else {
        const a = i;
        while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") i++;
        cell = text.slice(a, i);
        if (cell.indexOf('"') >= 0) throw new ProfileFormatError(file, line, `stray quote in unquoted cell '${cell}'`);
      }
      cells.push({ text: cell, quoted });
      if (i < n && text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "\r") i++;
      if (text[i] === "\n") {
        i++;
        line++;
      }
      break;
    }
    if (!(cells.length === 1 && cells[0].text === "" && !cells[0].quoted)) rows.push({ line: startLine, cells });
  }
  return rows;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Interprets a table (header + rows of values) as records. @internal */
function recordsFromTable(columns: readonly string[], rows: readonly { line: number; get: (c: number) => string | number | undefined }[], file: string, numericStrings: boolean): InvocationRecord[] {
  for (const c of FIXED) if (!columns.includes(c)) throw new ProfileFormatError(file, 1, `missing column '${c}'; expected ${FIXED.join(", ")}`);
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c)) throw new ProfileFormatError(file, 1, `duplicate column '${c}'`);
    seen.add(c);
    if (!FIXED.includes(c) && !c.startsWith(PARAM_PREFIX) && !(c.startsWith(COUNTER_PREFIX) && c.endsWith(COUNTER_SUFFIX))) {
      throw new ProfileFormatError(file, 1, `unknown column '${c}'; expected the fixed columns, 'param:<name>' or 'counter:<name> [count]'`);
    }
  }
  const idx = (c: string): number => columns.indexOf(c);
  const out: InvocationRecord[] = [];
  for (const row of rows) {
    const fail = (what: string): never => {
      throw new ProfileFormatError(file, row.line, what);
    };
    const str = (c: string): string => {
      const v = row.get(idx(c));
      if (v === undefined) fail(`missing value for '${c}'`);
      return String(v);
    };
    const numOf = (c: string): number => {
      const v = row.get(idx(c));
      const x = typeof v === "number" ? v : typeof v === "string" && NUMBER.test(v.trim()) ? Number(v) : NaN;
      if (!Number.isFinite(x)) fail(`'${c}' must be a finite number, found '${String(v)}'`);
      return x;
    };
    const parameters: Record<string, number | string> = {};
    const counters: Record<string, number> = {};
    columns.forEach((c, k) => {
      const v = row.get(k);
      if (v === undefined) return;
      if (c.startsWith(PARAM_PREFIX)) {
        parameters[c.slice(PARAM_PREFIX.length)] = numericStrings && typeof v === "string" && NUMBER.test(v) && Number.isFinite(Number(v)) ? Number(v) : v;
      } else if (c.startsWith(COUNTER_PREFIX)) {
        counters[c.slice(COUNTER_PREFIX.length, c.length - COUNTER_SUFFIX.length)] = numOf(c);
      }
    });
    const rank = numOf(RECORD_COLUMNS.rank);
    if (!Number.isInteger(rank) || rank < 0) fail(`'rank' must be a non-negative integer, found ${rank}`);
    out.push({
      component: str(RECORD_COLUMNS.component),
      port: str(RECORD_COLUMNS.port),
      method: str(RECORD_COLUMNS.method),
      rank,
      parameters,
      start: numOf(RECORD_COLUMNS.start),
      wallTime: numOf(RECORD_COLUMNS.wallTime),
      mpiTime: numOf(RECORD_COLUMNS.mpiTime),
      computeTime: numOf(RECORD_COLUMNS.computeTime),
      counters,
    });
  }
  return out;
}

/** Parses records from CSV text. @throws ProfileFormatError naming the file and line. */
export function parseRecordsCsv(text: string, file = "(csv)"): InvocationRecord[] {
  const rows = parseCsv(text.startsWith("\ufeff") ? text.slice(1) : text, file);
  if (rows.length === 0) throw new ProfileFormatError(file, 1, "empty file; expected a header line");
  const columns = rows[0].cells.map((c) => c.text);
  const body = rows.slice(1).map((r) => {
    if (r.cells.length !== columns.length) throw new ProfileFormatError(file, r.line, `${r.cells.length} cells for ${columns.length} columns`);
    return { line: r.line, get: (k: number): string | undefined => (r.cells[k].text === "" && !r.cells[k].quoted ? undefined : r.cells[k].text) };
  });
  return recordsFromTable(columns, body, file, true);
}

/** Parses records from JSON Lines text. @throws ProfileFormatError naming the file and line. */
export function parseRecordsJsonl(text: string, file = "(jsonl)"): InvocationRecord[] {
  const lines = text.split("\n");
  const objs: { line: number; o: Record<string, unknown> }[] = [];
  const columns: string[] = [];
  const known = new Set<string>();
  lines.forEach((s, i) => {
    if (s.trim() === "") return;
    let o: unknown;
    try {
      o = JSON.parse(s);
    } catch (e) {
      throw new ProfileFormatError(file, i + 1, `invalid JSON: ${(e as Error).message}`);
    }
    if (typeof o !== "object" || o === null || Array.isArray(o)) throw new ProfileFormatError(file, i + 1, "expected a JSON object per line");
    for (const [k, v] of Object.entries(o)) {
      if (typeof v !== "string" && typeof v !== "number") throw new ProfileFormatError(file, i + 1, `'${k}' must be a string or a number`);
      if (!known.has(k)) {
        known.add(k);
        columns.push(k);
      }
    }
    objs.push({ line: i + 1, o: o as Record<string, unknown> });
  });
  for (const c of FIXED) if (!known.has(c) && objs.length > 0) throw new ProfileFormatError(file, objs[0].line, `missing key '${c}'`);
  if (objs.length === 0) return [];
  return recordsFromTable(
    columns,
    objs.map(({ line, o }) => ({ line, get: (k: number) => o[columns[k]] as string | number | undefined })),
    file,
    false,
  );
}

/**
 * Reads records from a `.csv` or `.jsonl`/`.ndjson` file (other extensions: JSON Lines when the
 * first non-blank character is `{`, else CSV).
 * @throws ProfileFormatError naming the file and line; ProfileError when it cannot be read.
 */
export function readRecords(path: string): InvocationRecord[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ProfileError(`cannot read '${path}': ${(e as Error).message}`);
  }
  const ext = extname(path).toLowerCase();
  const jsonl = ext === ".jsonl" || ext === ".ndjson" || (ext !== ".csv" && text.trimStart().startsWith("{"));
  return jsonl ? parseRecordsJsonl(text, path) : parseRecordsCsv(text, path);
}
