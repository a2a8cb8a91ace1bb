/**
 * Reading per-invocation records from CSV and JSON Lines (see `records-write.ts` for the
 * layout). Both use the same column names, which carry their units, so a spreadsheet or
 * `pandas.read_csv` / `pandas.read_json(lines=True)` opens them as they are. On reading, a
 * parameter cell that is a finite number becomes a number, anything else stays a string; in CSV a
 * quoted empty cell (`""`) is an empty string, an unquoted empty cell is "absent".
 */
import { closeSync, openSync, readSync } from "node:fs";
import { extname } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { ProfileError, ProfileFormatError } from "./errors.js";
import type { InvocationRecord } from "./model.js";
import { COUNTER_PREFIX, COUNTER_SUFFIX, FIXED_COLUMNS as FIXED, PARAM_PREFIX, RECORD_COLUMNS } from "./record-columns.js";
import { setRecordField } from "./record-table.js";

/** A parsed CSV cell: its text and whether it was quoted. @internal */
interface Cell {
  text: string;
  quoted: boolean;
}

/** A parsed CSV row: its cells and the line it starts on. @internal */
interface CsvRow {
  line: number;
  cells: Cell[];
}

/** Splits CSV text into rows of cells (RFC 4180 quoting; quoted cells may span lines), with each row's starting line. @internal */
function parseCsv(text: string, file: string, firstLine = 1): CsvRow[] {
  const rows: CsvRow[] = [];
  let i = 0;
  let line = firstLine;
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
            if (ch === "\n" || (ch === "\r" && text[i + 1] !== "\n")) line++;
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
      // A line ends at LF, CRLF or a bare CR (old files).
      if (text[i] === "\r") {
        i++;
        if (text[i] !== "\n") line++;
      }
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
        setRecordField(parameters, c.slice(PARAM_PREFIX.length), numericStrings && typeof v === "string" && NUMBER.test(v) && Number.isFinite(Number(v)) ? Number(v) : v);
      } else if (c.startsWith(COUNTER_PREFIX)) {
        setRecordField(counters, c.slice(COUNTER_PREFIX.length, c.length - COUNTER_SUFFIX.length), numOf(c));
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
  const rows = parseCsv(withoutBom(text), file);
  if (rows.length === 0) throw new ProfileFormatError(file, 1, "empty file; expected a header line");
  return csvRecords(headerOf(rows[0]), rows.slice(1), file);
}

function withoutBom(text: string): string {
  return text.startsWith("\ufeff") ? text.slice(1) : text;
}

function headerOf(row: CsvRow): string[] {
  return row.cells.map((c) => c.text);
}

/** The records of CSV rows under the header `columns`. */
function csvRecords(columns: readonly string[], rows: readonly CsvRow[], file: string): InvocationRecord[] {
  const body = rows.map((r) => {
    if (r.cells.length !== columns.length) throw new ProfileFormatError(file, r.line, `${r.cells.length} cells for ${columns.length} columns`);
    return { line: r.line, get: (k: number): string | undefined => (r.cells[k].text === "" && !r.cells[k].quoted ? undefined : r.cells[k].text) };
  });
  return recordsFromTable(columns, body, file, true);
}

/** Parses records from JSON Lines text. @throws ProfileFormatError naming the file and line. */
export function parseRecordsJsonl(text: string, file = "(jsonl)"): InvocationRecord[] {
  return jsonlRecords(text, file, 1, { columns: [], known: new Set() });
}

/**
 * The keys of a JSON Lines file in the order they first appear: the columns, and the order of a
 * record's parameters and counters. Shared by the blocks of one file, so that each record gets
 * the key order reading the whole file at once would give it.
 */
interface JsonlKeys {
  readonly columns: string[];
  readonly known: Set<string>;
}

/** {@link parseRecordsJsonl} of text whose first line is line `firstLine` of `file`, with the keys seen before it. */
function jsonlRecords(text: string, file: string, firstLine: number, keys: JsonlKeys): InvocationRecord[] {
  const lines = text.split("\n");
  const objs: { line: number; o: Record<string, unknown> }[] = [];
  const { columns, known } = keys;
  lines.forEach((s, i) => {
    if (s.trim() === "") return;
    let o: unknown;
    try {
      o = JSON.parse(s);
    } catch (e) {
      throw new ProfileFormatError(file, firstLine + i, `invalid JSON: ${(e as Error).message}`);
    }
    if (typeof o !== "object" || o === null || Array.isArray(o)) throw new ProfileFormatError(file, firstLine + i, "expected a JSON object per line");
    for (const [k, v] of Object.entries(o)) {
      if (typeof v !== "string" && typeof v !== "number") throw new ProfileFormatError(file, firstLine + i, `'${k}' must be a string or a number`);
      if (!known.has(k)) {
        known.add(k);
        columns.push(k);
      }
    }
    objs.push({ line: firstLine + i, o: o as Record<string, unknown> });
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

/** Bytes read at a time: a larger file is parsed block by block (never one string of it all). */
const READ_BLOCK = 1 << 24;
/**
 * Characters of text held back while no row has ended (in CSV: no line end outside a quoted cell
 * has come): past this the text is parsed as it is, which reports a stray or unclosed quote at its
 * line instead of reading on to the end (a valid records file has no row near this long).
 */
const MAX_PENDING_ROW = 1 << 26;

/**
 * Reads records from a `.csv` or `.jsonl`/`.ndjson` file (other extensions: JSON Lines when the
 * first non-blank character is `{`, else CSV). The file is read and parsed in blocks of whole
 * rows, so it may be larger than the longest string JavaScript can hold (a large run's
 * records.jsonl is).
 * @throws ProfileFormatError naming the file and line; ProfileError when it cannot be read.
 */
export function readRecords(path: string): InvocationRecord[] {
  return readRecordsInBlocks(path, READ_BLOCK);
}

/**
 * Hands every record of a records file to `visit`, in file order, block by block (see
 * {@link readRecords}): only the records of one block exist at a time, so a file of any number of
 * records can be summarised in the memory its summary takes. A block is parsed whole before its
 * records are handed on: when the file has an error, the records of the blocks before it have
 * been visited and none of its own. An error thrown by `visit` stops the reading and propagates.
 * @throws ProfileFormatError naming the file and line; ProfileError when it cannot be read.
 */
export function forEachRecord(path: string, visit: (record: InvocationRecord) => void): void {
  visitRecordsInBlocks(path, READ_BLOCK, MAX_PENDING_ROW, visit);
}

/**
 * {@link readRecords} reading `blockBytes` bytes at a time: any size gives the same records, with
 * the same key order (tests use small blocks to cut rows, quoted cells and characters). An
 * invalid file is reported at the file and line of an error whatever the size, but in a file with
 * several errors, which is reported may depend on it.
 * @param maxRowChars - characters a row may reach before it is parsed as it stands (see
 *   {@link MAX_PENDING_ROW}; tests make it small)
 * @throws RangeError when `blockBytes` is not a positive integer
 * @internal
 */
export function readRecordsInBlocks(path: string, blockBytes: number, maxRowChars = MAX_PENDING_ROW): InvocationRecord[] {
  const out: InvocationRecord[] = [];
  visitRecordsInBlocks(path, blockBytes, maxRowChars, (r) => out.push(r));
  return out;
}

/** {@link readRecordsInBlocks}, handing each record to `visit` instead of keeping it. */
function visitRecordsInBlocks(path: string, blockBytes: number, maxRowChars: number, visit: (record: InvocationRecord) => void): void {
  if (!(Number.isInteger(blockBytes) && blockBytes > 0)) throw new RangeError(`block size must be a positive integer of bytes, got ${blockBytes}`);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new ProfileError(`cannot read '${path}': ${(e as Error).message}`);
  }
  try {
    parseBlocks(new BlockReader(fd, path, blockBytes), path, maxRowChars, visit);
  } finally {
    closeSync(fd);
  }
}

/** A file's text, block by block (a character cut by a block's end is completed by the next). */
class BlockReader {
  private readonly buffer: Buffer;
  private readonly decoder = new StringDecoder("utf8");
  /** True once the whole file has been read. */
  done = false;

  constructor(
    private readonly fd: number,
    private readonly path: string,
    blockBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafe(blockBytes);
  }

  /** The next block's text ("" and {@link done} at the end). */
  next(): string {
    let n: number;
    try {
      n = readSync(this.fd, this.buffer, 0, this.buffer.length, null);
    } catch (e) {
      throw new ProfileError(`cannot read '${this.path}': ${(e as Error).message}`);
    }
    if (n > 0) return this.decoder.write(this.buffer.subarray(0, n));
    this.done = true;
    return this.decoder.end();
  }
}

/** Parses the records of `reader`'s file, whole rows at a time, with the lines of the whole file, handing each to `visit`. */
function parseBlocks(reader: BlockReader, file: string, maxRowChars: number, visit: (record: InvocationRecord) => void): void {
  const ext = extname(file).toLowerCase();
  let pending = "";
  let jsonl: boolean | undefined = ext === ".jsonl" || ext === ".ndjson" ? true : ext === ".csv" ? false : undefined;
  while (jsonl === undefined) {
    pending += reader.next();
    const start = pending.trimStart();
    if (start !== "" || reader.done) jsonl = start.startsWith("{");
  }
  let line = 1;
  let columns: string[] | undefined;
  const keys: JsonlKeys = { columns: [], known: new Set() };
  let first = true;
  for (;;) {
    if (!reader.done) pending += reader.next();
    // Whole rows only: up to the last line end (in CSV, one outside quoted cells), unless a row
    // has grown too long to be anything but a stray or unclosed quote.
    let cut = reader.done ? pending.length : jsonl ? pending.lastIndexOf("\n") + 1 : csvRowsEnd(pending);
    if (cut === 0 && pending.length > maxRowChars) cut = pending.length;
    if (cut > 0 || reader.done) {
      let block = pending.slice(0, cut);
      pending = pending.slice(cut);
      if (jsonl) for (const r of jsonlRecords(block, file, line, keys)) visit(r);
      else {
        if (first) block = withoutBom(block);
        let rows = parseCsv(block, file, line);
        if (columns === undefined && rows.length > 0) {
          columns = headerOf(rows[0]);
          rows = rows.slice(1);
        }
        if (columns !== undefined) for (const r of csvRecords(columns, rows, file)) visit(r);
      }
      first = false;
      // Lines as each format numbers them: JSON Lines by LF alone (a CR before it, or anywhere,
      // is whitespace to JSON), CSV by any line end.
      line += jsonl ? count(block, "\n") : lineEnds(block);
    }
    if (reader.done) break;
  }
  if (!jsonl && columns === undefined) throw new ProfileFormatError(file, 1, "empty file; expected a header line");
}

/**
 * Where the whole CSV rows of `text` end: after its last line end (LF, or a bare CR as old files
 * have) outside quoted cells, 0 when there is none. Outside a quoted cell the quotes before a
 * position are even in number (a quoted cell opens and closes with one, and doubles the ones it
 * holds).
 */
function csvRowsEnd(text: string): number {
  let end = lastLineEnd(text, text.length - 1);
  if (end < 0) return 0;
  let quotes = count(text.slice(0, end), '"');
  while (quotes % 2 !== 0) {
    const previous = lastLineEnd(text, end - 1);
    if (previous < 0) return 0;
    quotes -= count(text.slice(previous, end), '"');
    end = previous;
  }
  return end + 1;
}

/**
 * Index of the last LF or CR of `text` at or before `from`, -1 when none. A CR that ends the text
 * does not count: its LF may start the next block, and a line end is cut from neither side.
 */
function lastLineEnd(text: string, from: number): number {
  if (from < 0) return -1;
  const cr = text.lastIndexOf("\r", from);
  const lastCr = cr === text.length - 1 ? (cr > 0 ? text.lastIndexOf("\r", cr - 1) : -1) : cr;
  return Math.max(text.lastIndexOf("\n", from), lastCr);
}

/** Lines `text` ends, as the CSV parser counts them: each LF, and each CR not followed by an LF. */
function lineEnds(text: string): number {
  let n = count(text, "\n");
  for (let i = text.indexOf("\r"); i >= 0; i = text.indexOf("\r", i + 1)) if (text[i + 1] !== "\n") n++;
  return n;
}

/** Occurrences of the character `ch` in `text`. */
function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) n++;
  return n;
}
