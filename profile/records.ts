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
import type { RecordFileFormat } from "./records-write.js";
import { COUNTER_PREFIX, COUNTER_SUFFIX, FIXED_COLUMNS as FIXED, MAX_RANK, PARAM_PREFIX, RECORD_COLUMNS } from "./record-columns.js";
import { setRecordField } from "./record-table.js";
import { decimalValue } from "./decimal-text.js";
import { SharedNames } from "./shared-names.js";
import { fileErrorText } from "./file-error.js";

/**
 * A parsed CSV row: the line it starts on and its cells, an unquoted empty cell as `undefined`
 * (absent) and every other cell as its text (a quoted empty cell is the empty string). @internal
 */
interface CsvRow {
  line: number;
  cells: (string | undefined)[];
}

/** Char codes the CSV scanner compares with. */
const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/**
 * Splits CSV text into rows of cells (RFC 4180 quoting; quoted cells may span lines), with each
 * row's starting line, a batch at a time ({@link CsvScanner.next}).
 * Why char codes and a slice per unquoted cell: a large run's file has millions of rows, and a
 * string compared or built per character dominated its reading.
 * @internal
 */
class CsvScanner {
  /** Index of the next character to read. */
  private i = 0;
  /** Line of that character. */
  private line: number;

  constructor(
    private readonly text: string,
    private readonly file: string,
    firstLine = 1,
  ) {
    this.line = firstLine;
  }

  /** The line the scanner has reached: after the last row read, the line the next one starts on. */
  get currentLine(): number {
    return this.line;
  }

  /** Whether every row has been read. */
  get done(): boolean {
    return this.i >= this.text.length;
  }

  /** The next `maxRows` rows (fewer at the end; blank lines are skipped, not counted). */
  next(maxRows: number): CsvRow[] {
    const { text, file } = this;
    const rows: CsvRow[] = [];
    let i = this.i;
    let line = this.line;
    const n = text.length;
    while (i < n && rows.length < maxRows) {
      const startLine = line;
      const cells: (string | undefined)[] = [];
      for (;;) {
        if (text.charCodeAt(i) === QUOTE) {
          let cell = "";
          i++;
          for (;;) {
            if (i >= n) throw new ProfileFormatError(file, startLine, "unterminated quoted cell");
            const ch = text.charCodeAt(i);
            if (ch === QUOTE) {
              if (text.charCodeAt(i + 1) === QUOTE) {
                cell += '"';
                i += 2;
              } else {
                i++;
                break;
              }
            } else {
              if (ch === LF || (ch === CR && text.charCodeAt(i + 1) !== LF)) line++;
              cell += text[i];
              i++;
            }
          }
          const after = text.charCodeAt(i);
          if (i < n && after !== COMMA && after !== LF && after !== CR) throw new ProfileFormatError(file, line, "text after a closing quote");
          cells.push(cell);
        } else {
          const a = i;
          let quote = false;
          for (; i < n; i++) {
            const ch = text.charCodeAt(i);
            if (ch === COMMA || ch === LF || ch === CR) break;
            if (ch === QUOTE) quote = true;
          }
          const cell = text.slice(a, i);
          if (quote) throw new ProfileFormatError(file, line, `stray quote in unquoted cell '${cell}'`);
          cells.push(cell === "" ? undefined : cell);
        }
        if (i < n && text.charCodeAt(i) === COMMA) {
          i++;
          continue;
        }
        // A line ends at LF, CRLF or a bare CR (old files).
        if (text.charCodeAt(i) === CR) {
          i++;
          if (text.charCodeAt(i) !== LF) line++;
        }
        if (text.charCodeAt(i) === LF) {
          i++;
          line++;
        }
        break;
      }
      if (!(cells.length === 1 && cells[0] === undefined)) rows.push({ line: startLine, cells });
    }
    this.i = i;
    this.line = line;
    return rows;
  }
}


/** Rows of a table of records (CSV cells or JSON objects) as {@link recordsFromTable} reads them. @internal */
interface TableRows {
  /** Number of rows. */
  readonly length: number;
  /** The line row `r` starts on. */
  line(r: number): number;
  /** The value of column `c` in row `r`, undefined when absent. */
  value(r: number, c: number): string | number | undefined;
}

/** What a column of a records table holds. */
const FIXED_COLUMN = 0;
const PARAMETER_COLUMN = 1;
const COUNTER_COLUMN = 2;

/**
 * How a table's columns become a record, found once per table: the column of each fixed field,
 * and the parameters and counters in column order with their names.
 */
interface TablePlan {
  /** The table's column names, in order. */
  readonly columns: readonly string[];
  readonly component: number;
  readonly port: number;
  readonly method: number;
  readonly rank: number;
  readonly start: number;
  readonly wallTime: number;
  readonly mpiTime: number;
  readonly computeTime: number;
  /** Per column: {@link FIXED_COLUMN}, {@link PARAMETER_COLUMN} or {@link COUNTER_COLUMN}. */
  readonly kinds: Int8Array;
  /** Per column: the parameter or counter name ("" for a fixed column). */
  readonly names: readonly string[];
}

/** Checks a table's header and plans its rows' reading. @throws ProfileFormatError at line 1 */
function planTable(columns: readonly string[], file: string): TablePlan {
  for (const c of FIXED) if (!columns.includes(c)) throw new ProfileFormatError(file, 1, `missing column '${c}'; expected ${FIXED.join(", ")}`);
  const seen = new Set<string>();
  const kinds = new Int8Array(columns.length);
  const names: string[] = [];
  columns.forEach((c, k) => {
    if (seen.has(c)) throw new ProfileFormatError(file, 1, `duplicate column '${c}'`);
    seen.add(c);
    if (FIXED.includes(c)) {
      kinds[k] = FIXED_COLUMN;
      names.push("");
    } else if (c.startsWith(PARAM_PREFIX)) {
      kinds[k] = PARAMETER_COLUMN;
      names.push(c.slice(PARAM_PREFIX.length));
    } else if (c.startsWith(COUNTER_PREFIX) && c.endsWith(COUNTER_SUFFIX)) {
      kinds[k] = COUNTER_COLUMN;
      names.push(c.slice(COUNTER_PREFIX.length, c.length - COUNTER_SUFFIX.length));
    } else {
      throw new ProfileFormatError(file, 1, `unknown column '${c}'; expected the fixed columns, 'param:<name>' or 'counter:<name> [count]'`);
    }
  });
  const at = (c: string): number => columns.indexOf(c);
  return {
    columns,
    component: at(RECORD_COLUMNS.component),
    port: at(RECORD_COLUMNS.port),
    method: at(RECORD_COLUMNS.method),
    rank: at(RECORD_COLUMNS.rank),
    start: at(RECORD_COLUMNS.start),
    wallTime: at(RECORD_COLUMNS.wallTime),
    mpiTime: at(RECORD_COLUMNS.mpiTime),
    computeTime: at(RECORD_COLUMNS.computeTime),
    kinds,
    names,
  };
}

/** The component, port and method names of one file, each column's shared apart (a column repeats its names in runs). */
interface FileNames {
  readonly component: SharedNames;
  readonly port: SharedNames;
  readonly method: SharedNames;
}

/** Fresh {@link FileNames} for one file. */
function fileNames(): FileNames {
  return { component: new SharedNames(), port: new SharedNames(), method: new SharedNames() };
}

/**
 * Interprets a table (header + rows of values) as records. A row's first error, in this order,
 * is reported at its line: a counter that is not a finite number (in column order), the rank,
 * then a missing component, port or method, then the start and times (a wall or MPI time below 0
 * too).
 * @param numericStrings - parameters whose text is a finite number become numbers (CSV)
 * @param shared - the file's component, port and method names (one string each, shared by its records)
 * @internal
 */
function recordsFromTable(plan: TablePlan, rows: TableRows, file: string, numericStrings: boolean, shared: FileNames): InvocationRecord[] {
  const { columns, kinds, names } = plan;
  const out: InvocationRecord[] = [];
  for (let r = 0; r < rows.length; r++) {
    const parameters: Record<string, number | string> = {};
    const counters: Record<string, number> = {};
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[k];
      if (kind === FIXED_COLUMN) continue;
      const v = rows.value(r, k);
      if (v === undefined) continue;
      if (kind === PARAMETER_COLUMN) setRecordField(parameters, names[k], numericStrings && typeof v === "string" ? numberOrText(v) : v);
      else setRecordField(counters, names[k], finiteNumber(rows, r, k, columns, file));
    }
    const rank = finiteNumber(rows, r, plan.rank, columns, file);
    // (An MPI rank is a C int: up to 2^31 - 1.)
    if (!Number.isInteger(rank) || rank < 0 || rank > MAX_RANK) throw new ProfileFormatError(file, rows.line(r), `'rank' must be an integer from 0 to ${MAX_RANK}, found ${rank}`);
    out.push({
      component: shared.component.get(text(rows, r, plan.component, columns, file)),
      port: shared.port.get(text(rows, r, plan.port, columns, file)),
      method: shared.method.get(text(rows, r, plan.method, columns, file)),
      rank,
      parameters,
      start: finiteNumber(rows, r, plan.start, columns, file),
      wallTime: duration(rows, r, plan.wallTime, columns, file),
      mpiTime: duration(rows, r, plan.mpiTime, columns, file),
      computeTime: finiteNumber(rows, r, plan.computeTime, columns, file),
      counters,
    });
  }
  return out;
}

/** Column `c` of row `r` as a name. @throws ProfileFormatError when it is absent, blank, or (JSON Lines) not text */
function text(rows: TableRows, r: number, c: number, columns: readonly string[], file: string): string {
  const v = rows.value(r, c);
  if (v === undefined) throw new ProfileFormatError(file, rows.line(r), `missing value for '${columns[c]}'`);
  if (typeof v !== "string") throw new ProfileFormatError(file, rows.line(r), `'${columns[c]}' must be a name (text), found ${JSON.stringify(v)}`);
  if (v.trim() === "") throw new ProfileFormatError(file, rows.line(r), `'${columns[c]}' must not be empty`);
  return v;
}

/** Column `c` of row `r` as a finite number. @throws ProfileFormatError when it is absent or not one */
function finiteNumber(rows: TableRows, r: number, c: number, columns: readonly string[], file: string): number {
  const v = rows.value(r, c);
  if (v === undefined) throw new ProfileFormatError(file, rows.line(r), `missing value for '${columns[c]}'`);
  const x = typeof v === "number" ? v : typeof v === "string" ? paddedDecimalValue(v) : NaN;
  if (!Number.isFinite(x)) throw new ProfileFormatError(file, rows.line(r), `'${columns[c]}' must be a finite number, found '${String(v)}'`);
  return x;
}

/**
 * Column `c` of row `r` as a duration: a finite number, 0 or more (the compute time, wall - MPI,
 * is read with {@link finiteNumber}: it may round below 0).
 * @throws ProfileFormatError when it is absent, not a number or below 0
 */
function duration(rows: TableRows, r: number, c: number, columns: readonly string[], file: string): number {
  const x = finiteNumber(rows, r, c, columns, file);
  if (x < 0) throw new ProfileFormatError(file, rows.line(r), `'${columns[c]}' must be 0 or more (a duration), found ${x}`);
  return x;
}

/** A parameter cell's value: the number its text spells when finite ({@link decimalValue}), else the text. */
function numberOrText(text: string): number | string {
  const x = decimalValue(text);
  return Number.isFinite(x) ? x : text;
}

/** {@link decimalValue} of a fixed or counter cell, whose blanks around the number are allowed. */
function paddedDecimalValue(text: string): number {
  const x = decimalValue(text);
  if (x === x) return x;
  const trimmed = text.trim();
  return trimmed === text ? NaN : decimalValue(trimmed);
}

/** Parses records from CSV text. @throws ProfileFormatError naming the file and line. */
export function parseRecordsCsv(text: string, file = "(csv)"): InvocationRecord[] {
  const out: InvocationRecord[] = [];
  if (visitCsv(new CsvScanner(withoutBom(text), file), file, undefined, fileNames(), Infinity, (r) => out.push(r)) === undefined) throw new ProfileFormatError(file, 1, "empty file; expected a header line");
  return out;
}

/**
 * Hands the records `scanner` reads to `visit`, `batch` rows at a time (each batch parsed and
 * checked whole before its records are handed on). The header is the first row when no `plan` of
 * the columns is known yet; it is checked and planned as soon as it is read.
 * @returns the plan of the columns (undefined while no row has come)
 */
function visitCsv(scanner: CsvScanner, file: string, plan: TablePlan | undefined, names: FileNames, batch: number, visit: (record: InvocationRecord) => void): TablePlan | undefined {
  while (plan === undefined && !scanner.done) {
    const header = scanner.next(1);
    if (header.length > 0) plan = planTable(headerOf(header[0]), file);
  }
  while (plan !== undefined && !scanner.done) for (const r of csvRecords(plan, scanner.next(batch), file, names)) visit(r);
  return plan;
}

function withoutBom(text: string): string {
  return text.startsWith("\ufeff") ? text.slice(1) : text;
}

function headerOf(row: CsvRow): string[] {
  return row.cells.map((c) => c ?? "");
}

/** The records of CSV rows under the header planned in `plan`. */
function csvRecords(plan: TablePlan, rows: readonly CsvRow[], file: string, names: FileNames): InvocationRecord[] {
  const width = plan.columns.length;
  for (const r of rows) if (r.cells.length !== width) throw new ProfileFormatError(file, r.line, `${r.cells.length} cells for ${width} columns`);
  return recordsFromTable(plan, { length: rows.length, line: (r) => rows[r].line, value: (r, c) => rows[r].cells[c] }, file, true, names);
}

/** Parses records from JSON Lines text. @throws ProfileFormatError naming the file and line. */
export function parseRecordsJsonl(text: string, file = "(jsonl)"): InvocationRecord[] {
  return jsonlRecords(text, file, 1, { columns: [], known: new Set(), names: fileNames() });
}

/**
 * The keys of a JSON Lines file in the order they first appear: the columns, and the order of a
 * record's parameters and counters. Shared by the blocks of one file, so that each record gets
 * the key order reading the whole file at once would give it.
 */
interface JsonlKeys {
  readonly columns: string[];
  readonly known: Set<string>;
  /** The file's component, port and method names. */
  readonly names: FileNames;
  /** The plan of the columns seen so far (planned again only when a line adds a key). */
  plan?: TablePlan;
}

/** {@link parseRecordsJsonl} of text whose first line is line `firstLine` of `file`, with the keys seen before it. */
function jsonlRecords(text: string, file: string, firstLine: number, keys: JsonlKeys): InvocationRecord[] {
  const out: InvocationRecord[] = [];
  visitJsonl(text, file, firstLine, keys, Infinity, (r) => out.push(r));
  return out;
}

/**
 * Hands the records of JSON Lines text to `visit`, `batch` lines at a time: a batch is parsed and
 * checked whole before its records are handed on.
 * @returns the line ends (LF) in `text`
 */
function visitJsonl(text: string, file: string, firstLine: number, keys: JsonlKeys, batch: number, visit: (record: InvocationRecord) => void): number {
  const lines = text.split("\n");
  const { columns, known } = keys;
  for (let from = 0; from < lines.length; from += batch) {
    const to = Math.min(lines.length, from + batch);
    const objs: { line: number; o: Record<string, unknown> }[] = [];
    for (let i = from; i < to; i++) {
      const s = lines[i];
      // A record's line starts with its brace: the trim is for the others (why: it copies).
      if (s.charCodeAt(0) !== 123 && s.trim() === "") continue;
      let o: unknown;
      try {
        o = JSON.parse(s);
      } catch (e) {
        throw new ProfileFormatError(file, firstLine + i, `invalid JSON: ${(e as Error).message}`);
      }
      if (typeof o !== "object" || o === null || Array.isArray(o)) throw new ProfileFormatError(file, firstLine + i, "expected a JSON object per line");
      // Own keys in Object.keys order (a parsed object inherits no enumerable key); why not
      // Object.entries: it makes an array per key.
      const values = o as Record<string, unknown>;
      for (const k in values) {
        const v = values[k];
        if (typeof v !== "string" && typeof v !== "number") {
          // Extra-P's JSON Lines (params, metric, callpath, value per line) are no records.
          const extrap = "params" in values && "callpath" in values && "value" in values;
          throw new ProfileFormatError(file, firstLine + i, extrap ? "this is an Extra-P JSON Lines input (params, metric, callpath, value), not ccasim per-invocation records: read it as Extra-P (ccasim fit without --parameter)" : `'${k}' must be a string or a number`);
        }
        if (!known.has(k)) {
          known.add(k);
          columns.push(k);
        }
      }
      objs.push({ line: firstLine + i, o: o as Record<string, unknown> });
    }
    if (objs.length === 0) continue;
    for (const c of FIXED) if (!known.has(c)) throw new ProfileFormatError(file, objs[0].line, `missing key '${c}'`);
    // A later line may add keys (columns): the plan is of a copy, kept until they grow.
    if (keys.plan === undefined || keys.plan.columns.length !== columns.length) keys.plan = planTable(columns.slice(), file);
    const records = recordsFromTable(keys.plan, { length: objs.length, line: (r) => objs[r].line, value: (r, c) => objs[r].o[columns[c]] as string | number | undefined }, file, false, keys.names);
    for (const r of records) visit(r);
  }
  return lines.length - 1;
}

/** Bytes read at a time: a larger file is parsed block by block (never one string of it all). */
const READ_BLOCK = 1 << 24;
/**
 * Rows of a block parsed, checked and handed on together. Why not the whole block: its rows and
 * records would all be alive at once, and the collector would copy hundreds of thousands of
 * them into the old generation (block-at-once reading spent a third of its time collecting).
 */
const BATCH_ROWS = 1000;
/**
 * Characters of text held back while no row has ended (in CSV: no line end outside a quoted cell
 * has come): past this the text is parsed as it is, which reports a stray or unclosed quote at its
 * line instead of reading on to the end (a valid records file has no row near this long).
 */
const MAX_PENDING_ROW = 1 << 26;

/** The records format a file name's extension implies (`.csv`; `.jsonl` or `.ndjson`), or undefined. */
export function recordsFormatOf(path: string): RecordFileFormat | undefined {
  const ext = extname(path).toLowerCase();
  return ext === ".csv" ? "csv" : ext === ".jsonl" || ext === ".ndjson" ? "jsonl" : undefined;
}

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
 * Hands every record of a records file to `visit`, in file order, a batch of rows at a time (see
 * {@link readRecords}): only the records of one batch exist at a time, so a file of any number of
 * records can be summarised in the memory its summary takes. A batch is parsed and checked whole
 * before its records are handed on: when the file has an error, records before it may have been
 * visited, and none of its own batch or after. An error thrown by `visit` stops the reading and
 * propagates.
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
    throw new ProfileError(`cannot read '${path}': ${fileErrorText(e)}`);
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
      throw new ProfileError(`cannot read '${this.path}': ${fileErrorText(e)}`);
    }
    if (n > 0) return this.decoder.write(this.buffer.subarray(0, n));
    this.done = true;
    return this.decoder.end();
  }
}

/** Parses the records of `reader`'s file, whole rows at a time, with the lines of the whole file, handing each to `visit`. */
function parseBlocks(reader: BlockReader, file: string, maxRowChars: number, visit: (record: InvocationRecord) => void): void {
  const format = recordsFormatOf(file);
  let pending = "";
  let jsonl: boolean | undefined = format === undefined ? undefined : format === "jsonl";
  while (jsonl === undefined) {
    pending += reader.next();
    const start = pending.trimStart();
    if (start !== "" || reader.done) jsonl = start.startsWith("{");
  }
  let line = 1;
  let plan: TablePlan | undefined;
  const names = fileNames();
  const keys: JsonlKeys = { columns: [], known: new Set(), names };
  let first = true;
  for (;;) {
    if (!reader.done) pending += reader.next();
    // Whole rows only: up to the last line end (in CSV, one outside quoted cells), unless a row
    // has grown too long to be anything but a stray or unclosed quote.
    let cut = reader.done ? pending.length : jsonl ? pending.lastIndexOf("\n") + 1 : csvRowsEnd(pending);
    if (cut === 0 && pending.length > maxRowChars) cut = pending.length;
    if (cut > 0 || reader.done) {
      const block = pending.slice(0, cut);
      pending = pending.slice(cut);
      // Lines as each format numbers them: JSON Lines by LF alone (a CR before it, or anywhere,
      // is whitespace to JSON), CSV by any line end (its scanner counts them).
      if (jsonl) {
        // The line ends the split found (why not count them: a second pass over the block).
        line += visitJsonl(block, file, line, keys, BATCH_ROWS, visit);
      } else {
        const scanner = new CsvScanner(first ? withoutBom(block) : block, file, line);
        plan = visitCsv(scanner, file, plan, names, BATCH_ROWS, visit);
        line = scanner.currentLine;
      }
      first = false;
    }
    if (reader.done) break;
  }
  if (!jsonl && plan === undefined) throw new ProfileFormatError(file, 1, "empty file; expected a header line");
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


/** Occurrences of the character `ch` in `text`. */
function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) n++;
  return n;
}
