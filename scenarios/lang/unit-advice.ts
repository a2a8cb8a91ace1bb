/**
 * The advice for a unit written in a cost expression (`5ms`, `8 KiB`, `72B`): expressions are
 * plain numbers.
 *
 * @packageDocumentation
 */
import { parseQuantity, unitsOf } from "./units.js";

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
