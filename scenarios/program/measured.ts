/**
 * Tables of measured run times to validate a model against (`ccasim validate-model --measured`):
 * each row is a configuration (scenario overrides, as `--set`) with its measured time, as Table
 * 5.1 of paper 003.
 *
 * CSV: `#` lines are comments; a header row; the column `measured` holds times with units
 * (`264s`, `1.5ms`); `name` labels the row; `reference` (optional) is another prediction to show
 * beside ours (the paper's T_s); every other column is a scenario key (`workload.NAT`,
 * `machine.nodes`) whose cell is the override value.
 *
 * YAML: `configurations: [{ name, set: { key: value }, measured: 264s, reference: 280s }]`.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { parseQuantity } from "../lang/index.js";

/** One configuration with its measured time. */
export interface MeasuredConfiguration {
  readonly name: string;
  /** `key=value` overrides. */
  readonly set: readonly string[];
  /** Measured time (us). */
  readonly measured: number;
  /** Another prediction to compare with (us), if given. */
  readonly reference?: number;
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
    throw new MeasuredTableError(file, 0, `cannot read the table: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return /\.(ya?ml|json)$/i.test(file) ? parseMeasuredYaml(text, file) : parseMeasuredCsv(text, file);
}

function time(value: unknown, file: string, line: number, what: string): number {
  try {
    return parseQuantity(value, "time", what);
  } catch (e) {
    throw new MeasuredTableError(file, line, `${what}: ${(e as Error).message}`);
  }
}

/** Parses the CSV form. @throws MeasuredTableError */
export function parseMeasuredCsv(text: string, file = "measured.csv"): MeasuredConfiguration[] {
  const lines = text.split(/\r?\n/).map((l, i) => ({ l: l.trim(), n: i + 1 })).filter((x) => x.l !== "" && !x.l.startsWith("#"));
  if (lines.length === 0) throw new MeasuredTableError(file, 0, "the table is empty");
  const header = lines[0].l.split(",").map((h) => h.trim());
  const iMeasured = header.indexOf("measured");
  if (iMeasured < 0) throw new MeasuredTableError(file, lines[0].n, `no 'measured' column in the header (${header.join(", ")})`);
  const iName = header.indexOf("name");
  const iRef = header.indexOf("reference");
  const keys = header.map((h, i) => (i === iMeasured || i === iName || i === iRef ? undefined : h));
  for (const [i, k] of keys.entries()) if (k !== undefined && !/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*|\[\d+\])+$/.test(k)) throw new MeasuredTableError(file, lines[0].n, `column ${i + 1} '${k}' is neither name, measured, reference nor a scenario key such as workload.NAT`);
  return lines.slice(1).map(({ l, n }, row) => {
    const cells = l.split(",").map((c) => c.trim());
    if (cells.length !== header.length) throw new MeasuredTableError(file, n, `${cells.length} cells for ${header.length} columns`);
    const set: string[] = [];
    keys.forEach((k, i) => {
      if (k !== undefined && cells[i] !== "") set.push(`${k}=${cells[i]}`);
    });
    return {
      name: iName >= 0 && cells[iName] !== "" ? cells[iName] : `row ${row + 1}`,
      set,
      measured: time(cells[iMeasured], file, n, "measured"),
      reference: iRef >= 0 && cells[iRef] !== "" ? time(cells[iRef], file, n, "reference") : undefined,
    };
  });
}

/** Parses the YAML form. @throws MeasuredTableError */
export function parseMeasuredYaml(text: string, file = "measured.yaml"): MeasuredConfiguration[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new MeasuredTableError(file, 0, `cannot parse: ${(e as Error).message.split("\n")[0]}`);
  }
  const list = (doc as { configurations?: unknown })?.configurations;
  if (!Array.isArray(list) || list.length === 0) throw new MeasuredTableError(file, 0, "expected a non-empty list under 'configurations'");
  return list.map((c: Record<string, unknown>, i) => {
    if (typeof c !== "object" || c === null || c.measured === undefined) throw new MeasuredTableError(file, 0, `configurations[${i}]: expected a map with 'measured'`);
    const set = Object.entries((c.set as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
    return {
      name: typeof c.name === "string" ? c.name : `configuration ${i + 1}`,
      set,
      measured: time(c.measured, file, 0, `configurations[${i}].measured`),
      reference: c.reference === undefined ? undefined : time(c.reference, file, 0, `configurations[${i}].reference`),
    };
  });
}
