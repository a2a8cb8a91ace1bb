/**
 * Helpers shared by the analysis subcommands (`fit`, `prune`, `select`, `power`) and others:
 * plain-text tables, number formatting, and small option parsers with usage errors.
 */
import { UsageError } from "../command.js";

/** Renders rows as an aligned text table; numbers are right-aligned. */
export function formatTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === "number" ? formatNumber(c) : c)));
  const width = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? "").length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === "number"));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (numeric[i] ? c.padStart(width[i]!) : c.padEnd(width[i]!))).join("  ").trimEnd();
  return [line(headers), line(width.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

/** Four significant digits, exponent form outside [1e-3, 1e7); "-" for NaN. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "-" : String(v);
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e7) return String(Number(v.toPrecision(4)));
  return v.toExponential(3).replace("e+", "e");
}

/**
 * Parses a number option.
 * @throws UsageError naming the option
 */
export function numberOption(command: string, name: string, raw: unknown, dflt?: number): number | undefined {
  if (raw === undefined) return dflt;
  const v = Number(raw);
  if (typeof raw !== "string" || raw.trim() === "" || !Number.isFinite(v)) throw new UsageError(`--${name} expects a number, got '${String(raw)}'`, command);
  return v;
}

/**
 * Parses an option that counts something (`--top`, `--jobs`): a positive integer.
 * @throws UsageError naming the option and the value given
 */
export function positiveIntegerOption(command: string, name: string, raw: unknown, dflt?: number): number | undefined {
  if (raw === undefined) return dflt;
  const text = String(raw).trim();
  // why: Number() accepts "1e3", "0x10" and "" (as 0); a count is written in plain digits
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`--${name} expects a positive integer, got '${String(raw)}'`, command);
  return Number(text);
}

/**
 * Parses `name=value` assignments (`--input x=1.5`), repeated or comma-separated.
 * @throws UsageError for a malformed assignment
 */
export function assignments(command: string, option: string, raw: unknown): Record<string, number> {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const out: Record<string, number> = {};
  for (const item of list.flatMap((s) => String(s).split(","))) {
    if (item.trim() === "") continue;
    const m = /^\s*([A-Za-z_][\w.]*)\s*=\s*(\S+)\s*$/.exec(item);
    const v = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(v)) throw new UsageError(`--${option} expects name=number, got '${item}'`, command);
    out[m[1]!] = v;
  }
  return out;
}

/** The list form of a repeatable string option. */
export function list(raw: unknown): string[] {
  return raw === undefined ? [] : (Array.isArray(raw) ? raw : [raw]).map(String);
}

/** JSON with NaN and infinities written as null, two-space indented. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v), 2);
}
