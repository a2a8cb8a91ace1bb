/** Formats query rows as an aligned text table (numbers right-aligned), CSV or JSON. */
import { uniqueColumnNames } from "../profile/study/index.js";

/** Serialises the objects of a row (lists, structs) as JSON, bigints as their decimal digits. */
function objectText(v: object): string {
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));
}

/**
 * A cell as people read it: NULL for a missing value, non-integers to 10 significant digits, a
 * date or timestamp in ISO 8601, lists and structs as JSON.
 */
export function formatCell(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(10)));
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") return objectText(v);
  return String(v);
}

/**
 * A cell as programs read it: every digit of a number kept (the shortest text that reads back to
 * the same double), a date or timestamp in ISO 8601, lists and structs as JSON; empty for NULL.
 */
export function exactCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") return objectText(v);
  return String(v);
}

/**
 * An aligned text table with a header rule; `maxWidth` truncates long cells but those of the last
 * column (nothing follows them to misalign, and they are often the message a query is for: the
 * errors of failed points).
 */
export function textTable(columns: readonly string[], rows: readonly (readonly unknown[])[], maxWidth = 60): string {
  const last = columns.length - 1;
  const cells = rows.map((r) => r.map((v, i) => {
    const s = formatCell(v).replace(/\n/g, " ");
    return s.length > maxWidth && i < last ? s.slice(0, maxWidth - 1) + "…" : s;
  }));
  const right = columns.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === "number" || r[i] === null));
  // Why a loop, not Math.max(...): spread, a column of some 200 000 cells overflowed the call stack.
  const widths = columns.map((c, i) => cells.reduce((w, r) => Math.max(w, r[i].length), c.length));
  const line = (r: readonly string[]) => r.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ").trimEnd();
  return [line(columns), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n") + "\n";
}

/**
 * RFC 4180 CSV with a header row; values are written without loss ({@link exactCell}), columns
 * named once ({@link uniqueColumnNames}).
 */
export function csvTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const esc = (v: unknown) => {
    const s = exactCell(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [uniqueColumnNames(columns).map(esc).join(","), ...rows.map((r) => r.map(esc).join(","))].join("\n") + "\n";
}

/** One JSON object per row, in an array; a column whose name an earlier one has is renamed ({@link uniqueColumnNames}). */
export function jsonTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const names = uniqueColumnNames(columns);
  const objs = rows.map((r) => Object.fromEntries(names.map((c, i) => [c, r[i]])));
  return JSON.stringify(objs, (_k, x) => (typeof x === "bigint" ? x.toString() : x), 2) + "\n";
}
