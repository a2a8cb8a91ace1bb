/**
 * Tables of measured run times to validate a model against (`ccasim validate-model --measured`):
 * each row is a configuration (scenario overrides, as `--set`) with its measured time, as Table
 * 5.1 of paper 003.
 *
 * CSV: `#` lines are comments; a header row; the column `measured` holds times with units
 * (`264s`, `1.5ms`); `name` labels the row; `reference` (optional) is another prediction to show
 * beside ours (the paper's T_s); `calibrated` (optional: yes/no, true/false, 1/0, empty for no)
 * marks the rows the model's coefficients were fitted to, whose errors measure a fit rather than a
 * prediction; every other column is a scenario key (`workload.NAT`, `machine.nodes`) whose cell is
 * the override value.
 *
 * YAML: `configurations: [{ name, set: { key: value }, measured: 264s, reference: 280s, calibrated: true }]`.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { didYouMean } from "../../engine/registry.js";
import { fileErrorText, formatPath, isPlainObject, parseQuantity, parseYamlSource, ScenarioErrors, type KeyPath, type SourceDoc } from "../lang/index.js";

/** One configuration with its measured time. */
export interface MeasuredConfiguration {
  readonly name: string;
  /** `key=value` overrides. */
  readonly set: readonly string[];
  /**
   * Where each override of `set` comes from, in the same order (`m.csv:2, column 2 'workload.NAT'`),
   * so that an override the scenario refuses is named by its place in the table.
   */
  readonly sources?: readonly string[];
  /** Measured time (us). */
  readonly measured: number;
  /** Another prediction to compare with (us), if given. */
  readonly reference?: number;
  /** Whether the model was calibrated on this configuration (its error is then a fit, not a prediction). */
  readonly calibrated?: boolean;
}

/** A measured-times table that cannot be read. An input error. */
export class MeasuredTableError extends Error {
  readonly isInputError = true;
  constructor(readonly file: string, readonly line: number, detail: string) {
    super(`${file}${line > 0 ? `:${line}` : ""}: ${detail}`);
    this.name = "MeasuredTableError";
  }
}

/**
 * Reads a measured-times table (`.csv`, or `.yaml`/`.yml`/`.json`).
 * @throws MeasuredTableError naming the file and line of the problem
 */
export function readMeasuredTable(file: string): MeasuredConfiguration[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new MeasuredTableError(file, 0, `cannot read the table: ${fileErrorText(e, "measured-times table")}`);
  }
  return /\.(ya?ml|json)$/i.test(file) ? parseMeasuredYaml(text, file) : parseMeasuredCsv(text, file);
}

/** Refuses two configurations of one name (the report could not tell them apart). @throws MeasuredTableError */
function uniqueNames(rows: MeasuredConfiguration[], file: string, lineOf: (i: number) => number): MeasuredConfiguration[] {
  const first = new Map<string, number>();
  rows.forEach((r, i) => {
    const before = first.get(r.name);
    if (before !== undefined) throw new MeasuredTableError(file, lineOf(i), `configuration name '${r.name}' is used twice (first at line ${lineOf(before)}): give each configuration its own name`);
    first.set(r.name, i);
  });
  return rows;
}

/**
 * What a run of the table plausibly takes (us), for the unit suggested to a time written without
 * one: the median of the table's times that have a unit (measured and reference cells), else a
 * minute (a program run; the cells' documented example is 264s).
 */
function typicalRunTime(cells: readonly unknown[]): number {
  const known: number[] = [];
  for (const c of cells) {
    try {
      const t = parseQuantity(c, "time");
      if (t > 0) known.push(t);
    } catch {
      // A bare number or a malformed cell says nothing about the scale: its own error comes later.
    }
  }
  if (known.length === 0) return TYPICAL_RUN;
  known.sort((a, b) => a - b);
  return known[Math.floor(known.length / 2)]!;
}

/** A program run, when the table has no time with a unit to go by: one minute, in us. */
const TYPICAL_RUN = 60e6;

function time(value: unknown, file: string, line: number, what: string, typical: number): number {
  let t: number;
  try {
    t = parseQuantity(value, "time", what, { typical });
  } catch (e) {
    // A quantity error names `what` already; its detail alone follows the name here.
    throw new MeasuredTableError(file, line, `${what}: ${(e as { detail?: string }).detail ?? (e as Error).message}`);
  }
  // A run takes time: 0 (or less) would make the relative error infinite.
  if (!(t > 0)) throw new MeasuredTableError(file, line, `${what}: a run time must be positive, got ${String(value)}`);
  return t;
}

/** A `calibrated` cell or value: yes/no, true/false, 1/0 (empty or absent: no). */
function calibratedOf(value: unknown, file: string, line: number, what: string): boolean {
  if (value === undefined || value === "" || value === false || value === 0) return false;
  if (value === true || value === 1) return true;
  const v = String(value).trim().toLowerCase();
  if (v === "yes" || v === "true" || v === "1") return true;
  if (v === "no" || v === "false" || v === "0") return false;
  throw new MeasuredTableError(file, line, `${what}: expected yes or no (true/false, 1/0), got ${JSON.stringify(value)}`);
}

/** Parses the CSV form. @throws MeasuredTableError */
export function parseMeasuredCsv(text: string, file = "measured.csv"): MeasuredConfiguration[] {
  const lines = text.split(/\r?\n/).map((l, i) => ({ l: l.trim(), n: i + 1 })).filter((x) => x.l !== "" && !x.l.startsWith("#"));
  if (lines.length === 0) throw new MeasuredTableError(file, 0, "the table is empty");
  const header = cellsOf(lines[0].l, file, lines[0].n);
  // A column named twice would leave one of the two values unused (the last override won).
  for (const [i, h] of header.entries()) {
    const first = header.indexOf(h);
    if (first < i) throw new MeasuredTableError(file, lines[0].n, `column ${i + 1} '${h}' repeats column ${first + 1}: name each column once`);
  }
  const iMeasured = header.indexOf("measured");
  if (iMeasured < 0) throw new MeasuredTableError(file, lines[0].n, `no 'measured' column in the header (${header.join(", ")})`);
  const iName = header.indexOf("name");
  const iRef = header.indexOf("reference");
  const iCal = header.indexOf("calibrated");
  const keys = header.map((h, i) => (i === iMeasured || i === iName || i === iRef || i === iCal ? undefined : h));
  // (A cost function's key keeps its parameters: program.functions.Stencil(a, b), as --set writes it.)
  for (const [i, k] of keys.entries()) if (k !== undefined && !/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*(\([\w\s,]*\))?|\[\d+\])+$/.test(k)) throw new MeasuredTableError(file, lines[0].n, `column ${i + 1} '${k}' is neither name, measured, reference, calibrated nor a scenario key such as workload.NAT`);
  if (lines.length === 1) throw new MeasuredTableError(file, lines[0].n, "the table has a header but no configurations: add a row per configuration");
  const cellRows = lines.slice(1).map(({ l, n }) => cellsOf(l, file, n));
  const typical = typicalRunTime(cellRows.flatMap((cells) => [cells[iMeasured], iRef >= 0 ? cells[iRef] : undefined]));
  const rows = lines.slice(1).map(({ n }, row) => {
    const cells = cellRows[row]!;
    if (cells.length !== header.length) throw new MeasuredTableError(file, n, `${cells.length} cells for ${header.length} columns`);
    const set: string[] = [];
    const sources: string[] = [];
    keys.forEach((k, i) => {
      if (k === undefined || cells[i] === "") return;
      set.push(`${k}=${cells[i]}`);
      sources.push(`${file}:${n}, column ${i + 1} '${k}'`);
    });
    return {
      name: iName >= 0 && cells[iName] !== "" ? cells[iName] : `row ${row + 1}`,
      set,
      sources,
      measured: time(cells[iMeasured], file, n, "measured", typical),
      reference: iRef >= 0 && cells[iRef] !== "" ? time(cells[iRef], file, n, "reference", typical) : undefined,
      calibrated: iCal >= 0 ? calibratedOf(cells[iCal], file, n, "calibrated") : false,
    };
  });
  return uniqueNames(rows, file, (i) => lines[i + 1].n);
}

/**
 * The cells of one CSV line, trimmed; a cell may be quoted (`"a, b"`, `""` for a quote inside), as
 * spreadsheets write text cells.
 * @throws MeasuredTableError for an unterminated quote or text after a closing one
 */
function cellsOf(line: string, file: string, n: number): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === " " || line[i] === "\t") i++;
    let cell = "";
    if (line[i] === '"') {
      for (i++; ; i++) {
        if (i >= line.length) throw new MeasuredTableError(file, n, `unterminated quoted cell in column ${cells.length + 1}`);
        if (line[i] !== '"') cell += line[i];
        else if (line[i + 1] === '"') cell += line[++i];
        else break;
      }
      i++;
      while (line[i] === " " || line[i] === "\t") i++;
      if (i < line.length && line[i] !== ",") throw new MeasuredTableError(file, n, `text after the closing quote of column ${cells.length + 1}`);
    } else {
      const end = line.indexOf(",", i);
      cell = (end < 0 ? line.slice(i) : line.slice(i, end)).trim();
      i = end < 0 ? line.length : end;
    }
    cells.push(cell);
    if (i >= line.length) return cells;
    i++; // the comma
  }
}

/** The keys of an entry of the YAML form. */
const ENTRY_KEYS: readonly string[] = ["name", "set", "measured", "reference", "calibrated"];

/** Parses the YAML form. @throws MeasuredTableError naming the line of the problem */
export function parseMeasuredYaml(text: string, file = "measured.yaml"): MeasuredConfiguration[] {
  let doc: SourceDoc;
  try {
    doc = parseYamlSource(text, file);
  } catch (e) {
    if (!(e instanceof ScenarioErrors)) throw e;
    throw new MeasuredTableError(file, e.errors[0]?.line ?? 0, `cannot parse: ${e.errors[0]?.detail ?? e.message}`);
  }
  const lineOf = (path: KeyPath) => doc.locate(path)?.line ?? 0;
  // A misspelt key is named before the key it was meant to be is found missing.
  if (isPlainObject(doc.value)) {
    for (const key of Object.keys(doc.value)) {
      if (key !== "configurations") throw new MeasuredTableError(file, lineOf([key]), `unknown key '${key}'${didYouMean(key, ["configurations"])}; the file has one key, configurations`);
    }
  }
  const list = (doc.value as { configurations?: unknown })?.configurations;
  if (!Array.isArray(list) || list.length === 0) throw new MeasuredTableError(file, 0, "expected a non-empty list under 'configurations'");
  const typical = typicalRunTime(list.flatMap((c: unknown) => (typeof c === "object" && c !== null ? [(c as Record<string, unknown>).measured, (c as Record<string, unknown>).reference] : [])));
  const rows = list.map((c: Record<string, unknown>, i) => {
    const at = lineOf(["configurations", i]);
    if (isPlainObject(c)) {
      for (const key of Object.keys(c)) {
        if (ENTRY_KEYS.includes(key)) continue;
        throw new MeasuredTableError(file, lineOf(["configurations", i, key]), `configurations[${i}]: unknown key '${key}'${didYouMean(key, ENTRY_KEYS)}; an entry has ${ENTRY_KEYS.join(", ")}`);
      }
    }
    if (!isPlainObject(c) || c.measured === undefined) throw new MeasuredTableError(file, at, `configurations[${i}]: expected a map with 'measured'`);
    if (c.set !== undefined && !isPlainObject(c.set)) {
      throw new MeasuredTableError(file, lineOf(["configurations", i, "set"]), `configurations[${i}].set: expected a map of scenario keys to values, such as { workload.NAT: 32 }`);
    }
    const entries = Object.entries((c.set as Record<string, unknown> | undefined) ?? {});
    return {
      name: typeof c.name === "string" ? c.name : `configuration ${i + 1}`,
      set: entries.map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`),
      sources: entries.map(([k]) => `${file}:${lineOf(["configurations", i, "set", k])}, ${formatPath(["configurations", i, "set", k])}`),
      measured: time(c.measured, file, lineOf(["configurations", i, "measured"]) || at, `configurations[${i}].measured`, typical),
      reference: c.reference === undefined ? undefined : time(c.reference, file, lineOf(["configurations", i, "reference"]) || at, `configurations[${i}].reference`, typical),
      calibrated: calibratedOf(c.calibrated, file, lineOf(["configurations", i, "calibrated"]) || at, `configurations[${i}].calibrated`),
    };
  });
  return uniqueNames(rows, file, (i) => lineOf(["configurations", i]));
}
