/**
 * The advice for a unit written in a cost expression (`5ms`, `8 KiB`, `72B`) or given as a
 * workload value (`1KiB`, `2ms`): expressions are plain numbers.
 *
 * @packageDocumentation
 */
import { baseUnitOf, parseQuantity, unitsOf } from "./units.js";

const QUANTITY_DIMENSIONS = ["time", "bytes", "frequency", "bandwidth", "power"] as const;

/**
 * The advice for a unit written in an expression (`5ms`, `8 KiB`): expressions are plain numbers,
 * a cost (a program model's `cost` key) is in `program.costUnit` or its element's `unit:`, a size
 * in bytes. Undefined when the unknown symbol of `detail` (an ExpressionError's) is no unit
 * written after a number.
 */
export function unitInExpression(detail: string, written: string, key: string | number | undefined): string | undefined {
  const sym = /^unknown symbols? '([^']+)'/.exec(detail)?.[1];
  if (sym === undefined) return undefined;
  const dim = QUANTITY_DIMENSIONS.find((d) => unitsOf(d).includes(sym));
  const escaped = sym.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  if (dim === undefined || !new RegExp(`\\d\\s*${escaped}(?![\\w/])`).test(written)) return undefined;
  let inBase: number | undefined;
  try {
    inBase = parseQuantity(written.trim(), dim);
  } catch {
    inBase = undefined;
  }
  const head = `'${sym}' is a unit, but expressions are plain numbers (in expression ${JSON.stringify(written)})`;
  if (key === "cost" && dim === "time")
    return `${head}: write the cost as a number in program.costUnit${["ns", "us", "ms", "s"].includes(sym) ? `, or give the element 'unit: ${sym}'` : ""}`;
  if (dim === "bytes") return `${head}: write the size as a number of bytes${inBase === undefined ? "" : ` (${written.trim()} is ${inBase})`}`;
  return `${head}: write the number in the unit the key documents`;
}

/**
 * The advice for a quantity with a unit given as a workload value (`1KiB`, `2ms`, in the scenario,
 * a `--set` or a sweep): expressions read workload values as plain numbers, so it says what to
 * write: a size as its number of bytes (`1KiB is 1024`), a time or another quantity as a number in
 * the unit its expressions read. Undefined when `value` is no number followed by a unit.
 */
export function unitInWorkloadValue(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (text === "" || Number.isFinite(Number(text)) || !/^[-+]?(\d|\.\d)/.test(text)) return undefined;
  for (const dim of QUANTITY_DIMENSIONS) {
    let inBase: number;
    try {
      inBase = parseQuantity(text, dim);
    } catch {
      continue;
    }
    const n = Number(inBase.toPrecision(12)); // why: 0.1 microseconds, not 0.09999999999999999
    const head = "a workload value is a plain number, without a unit";
    if (dim === "bytes") return `${head}: write the size as a number of bytes (${text} is ${n})`;
    const unit = baseUnitOf(dim);
    if (dim === "time") return `${head}: write the time as a number in the unit its expressions read (${text} is ${n} in ${unit}; a program model's costs are in program.costUnit)`;
    return `${head}: write it as a number in the unit its expressions read (${text} is ${n} in ${unit})`;
  }
  return undefined;
}
