/**
 * Writing per-invocation records as CSV and JSON Lines, in pieces: a run's records can be far more
 * text than one JavaScript string holds, so files are written chunk by chunk and the string
 * formatters join the same chunks.
 *
 * Parameter columns (`param:<name>`) come sorted by name after the fixed columns, then counter
 * columns (`counter:<name> [count]`) sorted by name. A record without a parameter or counter
 * leaves its cell empty (JSON Lines: omits the key). Strings that need it are quoted in CSV
 * (and the empty string, so that it differs from an absent cell); numbers are written as
 * `String(n)` (JSON Lines: as `JSON.stringify(n)`). What the readers would refuse is refused
 * before anything is written (see {@link checkWritableRecords}).
 */
import { TEXT_PIECE_CHARS, writeTextFileAtomically } from "./atomic-text-file.js";
import { ProfileModelError } from "./errors.js";
import { counterColumn, FIXED_COLUMNS, MAX_RANK, parameterColumn, RECORD_COLUMNS } from "./record-columns.js";
import { nameSlots, recordTable, type RecordKind, type RecordSource, type RecordTable } from "./record-table.js";

/** The record file formats. */
export type RecordFileFormat = "csv" | "jsonl";

/**
 * How the rows of one kind fill the columns, worked out once per kind so that a row is written
 * with no per-cell look-up: the kind's constant text, then only its present cells, each after
 * the fixed text that separates it from the previous one.
 */
interface KindLayout {
  /** CSV: the component, port and method cells and the comma after them. */
  readonly csvHead: string;
  /** JSON Lines: the object up to the rank's value. */
  readonly jsonHead: string;
  /** Per present parameter cell, in column order: its index in the kind's parameter names. */
  readonly params: Int32Array;
  /** Per present counter cell, in column order: its index in the kind's counter names. */
  readonly counters: Int32Array;
  /** CSV text before each present cell (parameters, then counters): a comma per column since the previous cell. */
  readonly csvGlue: readonly string[];
  /** JSON Lines text before each present cell: a comma and the key. */
  readonly jsonGlue: readonly string[];
  /** CSV: the commas of the absent columns after the last present cell, and the line end. */
  readonly csvTail: string;
}

/** The columns of a table and the layout of each kind that has rows. */
interface TableLayout {
  readonly columns: readonly string[];
  readonly kinds: readonly (KindLayout | undefined)[];
}

/** The columns of the record files of `source`, in file order. */
export function recordColumns(source: RecordSource): string[] {
  return [...tableLayout(recordTable(source)).columns];
}

/**
 * Formats records as CSV (header line, then one line per record, `\n` line ends) or JSON Lines
 * (one object per record with the same keys as the CSV columns), handing the text to `emit` in
 * chunks of whole lines, each of about `chunkChars` characters (the last may be shorter).
 * @param chunkChars - characters a chunk collects before it is emitted (default 65,536)
 */
export function formatRecordChunks(source: RecordSource, format: RecordFileFormat, emit: (text: string) => void, chunkChars = TEXT_PIECE_CHARS): void {
  formatRecordFiles(source, format === "csv" ? { csv: emit } : { jsonl: emit }, chunkChars);
}

/** Where {@link formatRecordFiles} hands each format's chunks (a format without one is not made). */
export interface RecordSinks {
  readonly csv?: (text: string) => void;
  readonly jsonl?: (text: string) => void;
}

/**
 * {@link formatRecordChunks} of both formats in one pass, each number formatted once for both
 * (why: the shortest text of a double costs about 150 ns, and a run's records are millions of
 * rows of several doubles; writing both files took about 40 % longer when each formatted its own).
 */
export function formatRecordFiles(source: RecordSource, sinks: RecordSinks, chunkChars = TEXT_PIECE_CHARS): void {
  const t = recordTable(source);
  checkWritableRecords(t);
  const layout = tableLayout(t);
  const kinds = layout.kinds as readonly KindLayout[];
  const n = t.count;
  const { csv, jsonl } = sinks;
  // Three loops rather than a row function chosen per call: each stays monomorphic.
  if (csv !== undefined && jsonl !== undefined) {
    const pair = new RowPair();
    pair.csv = layout.columns.map(csvCell).join(",") + "\n";
    for (let i = 0; i < n; i++) {
      bothRows(t, i, kinds[t.kind(i)], pair);
      if (pair.csv.length >= chunkChars) {
        csv(pair.csv);
        pair.csv = "";
      }
      if (pair.json.length >= chunkChars) {
        jsonl(pair.json);
        pair.json = "";
      }
    }
    if (pair.csv.length > 0) csv(pair.csv);
    if (pair.json.length > 0) jsonl(pair.json);
    return;
  }
  const emit = csv ?? jsonl;
  if (emit === undefined) return;
  let s = "";
  if (csv !== undefined) {
    s = layout.columns.map(csvCell).join(",") + "\n";
    for (let i = 0; i < n; i++) {
      s += csvRow(t, i, kinds[t.kind(i)]);
      if (s.length >= chunkChars) {
        emit(s);
        s = "";
      }
    }
  } else {
    for (let i = 0; i < n; i++) {
      s += jsonRow(t, i, kinds[t.kind(i)]);
      if (s.length >= chunkChars) {
        emit(s);
        s = "";
      }
    }
  }
  if (s.length > 0) emit(s);
}

/** Records as CSV text (header line, then one line per record, `\n` line ends). @throws RangeError when the text is longer than a string can be */
export function formatRecordsCsv(source: RecordSource): string {
  return joinedChunks(source, "csv");
}

/** Records as JSON Lines: one object per record with the same keys as the CSV columns. @throws RangeError when the text is longer than a string can be */
export function formatRecordsJsonl(source: RecordSource): string {
  return joinedChunks(source, "jsonl");
}

/** Writes records as CSV, chunk by chunk (see {@link writeTextFileAtomically}). @throws ProfileError when the file cannot be written. */
export function writeRecordsCsv(source: RecordSource, path: string): void {
  writeTextFileAtomically(path, (write) => formatRecordChunks(source, "csv", write));
}

/** Writes records as JSON Lines, chunk by chunk (see {@link writeTextFileAtomically}). @throws ProfileError when the file cannot be written. */
export function writeRecordsJsonl(source: RecordSource, path: string): void {
  writeTextFileAtomically(path, (write) => formatRecordChunks(source, "jsonl", write));
}

/**
 * Writes the record files named in `paths` (CSV, JSON Lines, or both from one pass: see
 * {@link formatRecordFiles}), each atomically. With both, a failure leaves neither file changed,
 * unless it comes after the JSON Lines file was complete (then only the CSV file is left as it was).
 * @throws ProfileError when a file cannot be written
 */
export function writeRecordFiles(source: RecordSource, paths: { readonly csv?: string; readonly jsonl?: string }): void {
  const { csv, jsonl } = paths;
  if (csv !== undefined && jsonl !== undefined) {
    writeTextFileAtomically(csv, (toCsv) => writeTextFileAtomically(jsonl, (toJsonl) => formatRecordFiles(source, { csv: toCsv, jsonl: toJsonl })));
  } else if (csv !== undefined) writeRecordsCsv(source, csv);
  else if (jsonl !== undefined) writeRecordsJsonl(source, jsonl);
}

function joinedChunks(source: RecordSource, format: RecordFileFormat): string {
  const parts: string[] = [];
  formatRecordChunks(source, format, (text) => parts.push(text));
  return parts.join("");
}

/** A CSV cell: numbers as `String(n)`, absent as empty, strings quoted when they need it. */
function csvCell(v: string | number | undefined): string {
  if (typeof v === "number") return "" + v;
  if (v === undefined) return "";
  // Quote strings that need it, and empty strings (so they differ from an absent value).
  return v === "" || /[",\r\n]/.test(v) || v.trim() !== v ? `"${v.replace(/"/g, '""')}"` : v;
}

/** A JSON number as `JSON.stringify` writes it. */
function jsonNumber(x: number): string {
  // Why not JSON.stringify: String(x) is the same text for finite x and skips the serializer; x - x is 0 only for finite x.
  return x - x === 0 ? "" + x : "null";
}

function jsonValue(v: string | number): string {
  return typeof v === "number" ? jsonNumber(v) : JSON.stringify(v);
}

function csvRow(t: RecordTable, i: number, l: KindLayout): string {
  let s = l.csvHead + t.rank(i) + "," + t.start(i) + "," + t.wallTime(i) + "," + t.mpiTime(i) + "," + t.computeTime(i);
  const ps = l.params;
  const glue = l.csvGlue;
  for (let j = 0; j < ps.length; j++) s += glue[j] + csvCell(t.parameter(i, ps[j]));
  const cs = l.counters;
  for (let j = 0, g = ps.length; j < cs.length; j++, g++) s += glue[g] + csvCell(t.counter(i, cs[j]));
  return s + l.csvTail;
}

/** The two texts of a row, built together by {@link bothRows}. */
class RowPair {
  csv = "";
  json = "";
}

/** A number's JSON text from its `String` text (`null` when not finite, as `JSON.stringify`). */
function jsonFromText(x: number, text: string): string {
  return x - x === 0 ? text : "null";
}

/** Appends row `i` to both texts of `out`, as {@link csvRow} and {@link jsonRow} write it, formatting each number once. */
function bothRows(t: RecordTable, i: number, l: KindLayout, out: RowPair): void {
  const rank = t.rank(i);
  const start = t.start(i);
  const wall = t.wallTime(i);
  const mpi = t.mpiTime(i);
  const compute = t.computeTime(i);
  const rankText = "" + rank;
  const startText = "" + start;
  const wallText = "" + wall;
  const mpiText = "" + mpi;
  const computeText = "" + compute;
  let c = l.csvHead + rankText + "," + startText + "," + wallText + "," + mpiText + "," + computeText;
  let j = l.jsonHead + jsonFromText(rank, rankText) + ',"start [us]":' + jsonFromText(start, startText) + ',"wall_time [us]":' + jsonFromText(wall, wallText) + ',"mpi_time [us]":' + jsonFromText(mpi, mpiText) + ',"compute_time [us]":' + jsonFromText(compute, computeText);
  const ps = l.params;
  const cs = l.counters;
  const np = ps.length;
  // Parameters, then counters, as csvCell and jsonValue write them. Why local strings appended to
  // the chunk once per row: a chunk grown cell by cell is a far deeper rope, and flattening it
  // when it is written cost more than the second formatting this saves.
  for (let k = 0; k < np + cs.length; k++) {
    const v = k < np ? t.parameter(i, ps[k]) : t.counter(i, cs[k - np]);
    if (typeof v === "number") {
      const text = "" + v;
      c += l.csvGlue[k] + text;
      j += l.jsonGlue[k] + jsonFromText(v, text);
    } else {
      c += l.csvGlue[k] + csvCell(v);
      // An undefined value (possible in hand-made record objects) is an absent key, as JSON.stringify leaves it out.
      if (v !== undefined) j += l.jsonGlue[k] + JSON.stringify(v);
    }
  }
  out.csv += c + l.csvTail;
  out.json += j + "}\n";
}

function jsonRow(t: RecordTable, i: number, l: KindLayout): string {
  // Why the keys of RECORD_COLUMNS are written out as literals: V8 joins a literal faster than a
  // module constant (building the JSON Lines text of two million records took about 15% less).
  let s = l.jsonHead + jsonNumber(t.rank(i)) + ',"start [us]":' + jsonNumber(t.start(i)) + ',"wall_time [us]":' + jsonNumber(t.wallTime(i)) + ',"mpi_time [us]":' + jsonNumber(t.mpiTime(i)) + ',"compute_time [us]":' + jsonNumber(t.computeTime(i));
  const ps = l.params;
  const glue = l.jsonGlue;
  // An undefined value (possible in hand-made record objects) is an absent key, as JSON.stringify leaves it out.
  for (let j = 0; j < ps.length; j++) {
    const v = t.parameter(i, ps[j]);
    if (v !== undefined) s += glue[j] + jsonValue(v);
  }
  const cs = l.counters;
  for (let j = 0, g = ps.length; j < cs.length; j++, g++) {
    const v = t.counter(i, cs[j]);
    if (v !== undefined) s += glue[g] + jsonValue(v);
  }
  return s + "}\n";
}

/**
 * Refuses records the readers (`parseRecordsCsv`, `parseRecordsJsonl`, `forEachRecord`) would
 * refuse, so that a file written is a file that reads back: a blank or non-text component, port
 * or method name; a rank that is not an integer from 0 to 2^31 - 1; a start, compute time or
 * counter that is not a finite number; a wall or MPI time below 0 or not finite; a parameter that
 * is neither text nor a finite number (CSV would write `NaN`, which reads back as text, and JSON
 * Lines `null`); an undefined parameter or counter is an absent cell. Records are counted from 1,
 * as the files' lines after the header.
 * @throws ProfileModelError naming the first such record and field
 */
export function checkWritableRecords(source: RecordSource): void {
  const t = recordTable(source);
  const kinds = t.kinds;
  // Per kind, once: the indices of the parameters and counters written (a name listed twice
  // writes its last), after its names are checked.
  const written: ({ readonly parameters: Int32Array; readonly counters: Int32Array } | undefined)[] = new Array(kinds.length);
  const n = t.count;
  for (let i = 0; i < n; i++) {
    const kind = kinds[t.kind(i)];
    let slots = written[t.kind(i)];
    if (slots === undefined) {
      for (const field of ["component", "port", "method"] as const) {
        const name: unknown = kind[field];
        if (typeof name !== "string" || name.trim() === "") throw unwritable(i, field, `must be a name (non-blank text), found ${JSON.stringify(name) ?? String(name)}`);
      }
      slots = written[t.kind(i)] = { parameters: Int32Array.from(nameSlots(kind.parameterNames).values()), counters: Int32Array.from(nameSlots(kind.counterNames).values()) };
    }
    const rank = t.rank(i);
    if (!Number.isInteger(rank) || rank < 0 || rank > MAX_RANK) throw unwritable(i, "rank", `must be an integer from 0 to ${MAX_RANK}, found ${rank}`);
    const start = t.start(i);
    const wall = t.wallTime(i);
    const mpi = t.mpiTime(i);
    const compute = t.computeTime(i);
    // One test for the usual row: every time finite, the durations 0 or more (NaN fails each).
    if (!(wall >= 0 && wall < Infinity && mpi >= 0 && mpi < Infinity && Number.isFinite(start) && Number.isFinite(compute))) {
      if (!Number.isFinite(start)) throw unwritable(i, "start", `must be a finite number, found ${start}`);
      if (!Number.isFinite(compute)) throw unwritable(i, "computeTime", `must be a finite number, found ${compute}`);
      for (const [field, x] of [["wallTime", wall], ["mpiTime", mpi]] as const) if (!(x >= 0 && x < Infinity)) throw unwritable(i, field, `must be a finite duration, 0 or more, found ${x}`);
    }
    const counters = slots.counters;
    for (let j = 0; j < counters.length; j++) {
      const c = counters[j];
      const x = t.counter(i, c);
      // (An undefined value, which hand-made tables may hold, is an absent cell.)
      if (x !== undefined && !Number.isFinite(x)) throw unwritable(i, `counter '${kind.counterNames[c]}'`, `must be a finite number, found ${x}`);
    }
    const parameters = slots.parameters;
    for (let j = 0; j < parameters.length; j++) {
      const p = parameters[j];
      const x = t.parameter(i, p);
      if (x !== undefined && typeof x !== "string" && !Number.isFinite(x)) throw unwritable(i, `parameter '${kind.parameterNames[p]}'`, `must be text or a finite number, found ${typeof x === "number" ? x : JSON.stringify(x) ?? String(x)}`);
    }
  }
}

/** The error of record `i` (0-based) whose `field` the readers would refuse. */
function unwritable(i: number, field: string, what: string): ProfileModelError {
  return new ProfileModelError(`record ${i + 1}: ${field} ${what}; the record files would not read back`);
}

/** The columns of the kinds that have rows, and each such kind's layout. */
function tableLayout(t: RecordTable): TableLayout {
  const used = new Uint8Array(t.kinds.length);
  for (let i = 0; i < t.count; i++) used[t.kind(i)] = 1;
  const params = new Set<string>();
  const counters = new Set<string>();
  t.kinds.forEach((k, id) => {
    if (!used[id]) return;
    for (const p of k.parameterNames) params.add(p);
    for (const c of k.counterNames) counters.add(c);
  });
  const paramNames = [...params].sort();
  const counterNames = [...counters].sort();
  const columns = [...FIXED_COLUMNS, ...paramNames.map(parameterColumn), ...counterNames.map(counterColumn)];
  const kinds = t.kinds.map((k, id) => (used[id] ? kindLayout(k, columns, paramNames, counterNames) : undefined));
  return { columns, kinds };
}

function kindLayout(kind: RecordKind, columns: readonly string[], paramNames: readonly string[], counterNames: readonly string[]): KindLayout {
  // Cells as (column after the fixed ones, index in the kind's names); a name given twice keeps its last index.
  const cells = (names: readonly string[], all: readonly string[], offset: number): [number, number][] => {
    return [...nameSlots(names)].map(([name, k]): [number, number] => [offset + all.indexOf(name), k]).sort((a, b) => a[0] - b[0]);
  };
  const pc = cells(kind.parameterNames, paramNames, 0);
  const cc = cells(kind.counterNames, counterNames, paramNames.length);
  const csvGlue: string[] = [];
  const jsonGlue: string[] = [];
  let previous = -1; // the compute-time column
  for (const [col] of [...pc, ...cc]) {
    csvGlue.push(",".repeat(col - previous));
    jsonGlue.push(`,${JSON.stringify(columns[FIXED_COLUMNS.length + col])}:`);
    previous = col;
  }
  const variable = paramNames.length + counterNames.length;
  const head = `{${JSON.stringify(RECORD_COLUMNS.component)}:${JSON.stringify(kind.component)},${JSON.stringify(RECORD_COLUMNS.port)}:${JSON.stringify(kind.port)},${JSON.stringify(RECORD_COLUMNS.method)}:${JSON.stringify(kind.method)},${JSON.stringify(RECORD_COLUMNS.rank)}:`;
  return {
    csvHead: `${csvCell(kind.component)},${csvCell(kind.port)},${csvCell(kind.method)},`,
    jsonHead: head,
    params: Int32Array.from(pc, ([, k]) => k),
    counters: Int32Array.from(cc, ([, k]) => k),
    csvGlue,
    jsonGlue,
    csvTail: ",".repeat(variable - 1 - previous) + "\n",
  };
}
