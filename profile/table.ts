/**
 * The pprof-style profile table (`ccasim profile show`), as TAU's `pprof` prints it and as Table 1
 * of the Mastermind paper shows it: %time, exclusive, inclusive, calls, subroutines, inclusive per
 * call, name.
 */
import { exponentialC, fixedC } from "./c-format.js";
import { DERIVED_KINDS, derivedView, threadView, type DerivedKind, type ProfileView } from "./derived.js";
import { describeThreads, parseThreadName } from "./thread-name.js";
import { ProfileModelError } from "./errors.js";
import type { Trial } from "./model.js";
import { isTimeMetric } from "./tau/text-write.js";
import { compareText } from "./compare-text.js";

/** Sort keys of {@link profileTable}. */
export type TableSortKey = "inclusive" | "exclusive" | "calls" | "subrs" | "percall" | "name";

/** Every {@link TableSortKey}. */
export const TABLE_SORT_KEYS: readonly TableSortKey[] = ["inclusive", "exclusive", "calls", "subrs", "percall", "name"];

/** One row of the table. Values are in the metric's unit (microseconds for time). */
export interface TableRow {
  readonly name: string;
  /**
   * Inclusive value as a percentage of the top-level timer's inclusive value, as pprof computes
   * it: on a thread, the largest inclusive value of that thread; in the mean, total and max views,
   * the mean, total and max of the threads' largest inclusive values (pprof's summary tables). In
   * the min view, whose rows are minima over different sets of threads (a timer only some threads
   * run can have a larger minimum than the smallest thread's top-level timer), and in the stddev
   * view (neither of which pprof prints), the view's own largest inclusive value. Never above 100
   * in any view: where a row's value exceeds the threads' statistic (a mean over only the threads
   * that ran each timer), the view's largest inclusive value is the base.
   */
  readonly percent: number;
  readonly exclusive: number;
  readonly inclusive: number;
  readonly calls: number;
  readonly subroutines: number;
  /** Inclusive value per call (0 when there are no calls). */
  readonly inclusivePerCall: number;
}

/** A table for one view (a thread or a derived thread) and one metric. */
export interface ProfileTable {
  /** `"n,c,t"` or the derived kind. */
  readonly view: string;
  readonly metric: string;
  /** True when the metric is a time (values are microseconds). */
  readonly isTime: boolean;
  readonly rows: readonly TableRow[];
}

/** Options of {@link profileTable}. */
export interface ProfileTableOptions {
  /** Metric name (default: {@link defaultMetric}). */
  readonly metric?: string;
  /** Sort key (default `inclusive`); `name` sorts ascending, the others descending. */
  readonly sort?: TableSortKey;
  /** Keep only the first `top` rows. */
  readonly top?: number;
  /** Include callpath timers (`A => B`); default false (flat profile, as pprof without `-c`). */
  readonly callpaths?: boolean;
  /** Mean and stddev divide by all threads (default true, as ParaProf). */
  readonly includeMissing?: boolean;
}

/** Cycle counters, the closest stand-ins for time when a trial measured none. */
const CYCLE_METRICS = ["PAPI_TOT_CYC", "CPU_CYCLES"];

/**
 * The default metric of a trial, the same whichever format it was read from (a `.ppk` keeps the
 * measured order of metrics, TAU's text folders are listed by name): `TIME`; else another time
 * metric (a name with TIME in it: `GET_TIME_OF_DAY`, `LINUX_TIMERS`), the first by name; else a
 * cycle counter; else the first metric by name.
 */
export function defaultMetric(trial: Trial): string {
  const byName = [...trial.metrics].sort();
  return (
    trial.metrics.find((m) => m.toUpperCase() === "TIME") ??
    byName.find((m) => isTimeMetric(m)) ??
    CYCLE_METRICS.find((m) => trial.metrics.includes(m)) ??
    byName[0]!
  );
}

/**
 * Resolves a view name: a derived kind (`mean`, `max`, ...) or a thread `n`, `n,c,t` or `n.c.t`.
 * @throws ProfileModelError for an unknown view or thread.
 */
export function resolveView(trial: Trial, which: string, options: { includeMissing?: boolean } = {}): ProfileView {
  if ((DERIVED_KINDS as readonly string[]).includes(which)) return derivedView(trial, which as DerivedKind, options);
  return threadView(trial, resolveThreadIndex(trial, which));
}

/**
 * The index of the thread a name `n`, `n,c,t` or `n.c.t` gives.
 * @throws ProfileModelError for a name that is no thread's, or a thread the trial lacks
 */
export function resolveThreadIndex(trial: Trial, which: string): number {
  const id = parseThreadName(which);
  if (id !== undefined) {
    const th = trial.threadIndex(id.node, id.context, id.thread);
    if (th >= 0) return th;
    throw new ProfileModelError(`no thread ${id.node},${id.context},${id.thread}; the trial has ${describeThreads(trial)}`);
  }
  throw new ProfileModelError(`unknown thread '${which}'; use n,c,t or one of ${DERIVED_KINDS.join(", ")}`);
}

/** Builds the table of one view. */
export function profileTable(trial: Trial, view: ProfileView, options: ProfileTableOptions = {}): ProfileTable {
  const metricName = options.metric ?? defaultMetric(trial);
  const m = trial.metricIndex(metricName);
  const top = topLevelInclusive(trial, view, m);
  const rows: TableRow[] = [];
  for (const t of trial.timers) {
    if (view.present[t.index] === 0 || (t.isCallpath && !options.callpaths)) continue;
    const inc = view.inclusive[m][t.index];
    const calls = view.calls[t.index];
    rows.push({
      name: t.name,
      percent: top > 0 ? (inc / top) * 100 : 0,
      exclusive: view.exclusive[m][t.index],
      inclusive: inc,
      calls,
      subroutines: view.subroutines[t.index],
      inclusivePerCall: calls > 0 ? inc / calls : 0,
    });
  }
  const key = options.sort ?? "inclusive";
  // Inclusive values compare at 12 significant digits, and ties go to the smaller exclusive value:
  // a caller whose time is all in one callee has the callee's inclusive time but for rounding
  // (0.00932 ms each, the callee's a last bit larger), and is listed before it, as pprof lists a
  // call chain. Other ties break by name, so the order is deterministic. (Each row's key once,
  // not at every comparison.)
  const val = (r: TableRow): number =>
    key === "inclusive" ? Number(r.inclusive.toPrecision(12)) : key === "exclusive" ? r.exclusive : key === "calls" ? r.calls : key === "subrs" ? r.subroutines : r.inclusivePerCall;
  const sorted = rows
    .map((r) => ({ r, v: key === "name" ? 0 : val(r) }))
    .sort((a, b) => b.v - a.v || (key === "inclusive" ? a.r.exclusive - b.r.exclusive : 0) || compareText(a.r.name, b.r.name))
    .map((x) => x.r);
  const realMetric = trial.metrics[m];
  return { view: view.label, metric: realMetric, isTime: isTimeMetric(realMetric), rows: options.top !== undefined ? sorted.slice(0, options.top) : sorted };
}

/**
 * The inclusive value that %Time divides by (see {@link TableRow.percent}): pprof takes each
 * thread's largest inclusive value as its top-level timer (a program's top-level routine may
 * differ between threads), and its summary tables the total, mean (over all threads) or max of
 * those. The min and stddev views divide by their own largest inclusive value; so does any view
 * whose largest value exceeds the threads' statistic, so that no row is above 100 %.
 */
export function topLevelInclusive(trial: Trial, view: ProfileView, m: number): number {
  const largest = (present: Uint8Array, inc: Float64Array): number => {
    let top = 0;
    for (let t = 0; t < present.length; t++) if (present[t] === 1 && inc[t] > top) top = inc[t];
    return top;
  };
  const own = largest(view.present, view.inclusive[m]);
  const kind = view.label;
  if (kind !== "total" && kind !== "mean" && kind !== "max") return own;
  const nT = trial.timers.length;
  const tops = trial.threads.map((_, th) => largest(trial.values.present.subarray(th * nT, (th + 1) * nT), trial.values.inclusive[m].subarray(th * nT, (th + 1) * nT)));
  if (tops.length === 0) return own;
  const sum = tops.reduce((a, b) => a + b, 0);
  const pprof = kind === "total" ? sum : kind === "mean" ? sum / tops.length : tops.reduce((a, b) => Math.max(a, b));
  return Math.max(pprof, own);
}


/** pprof's time format (`ToTimeStr`): `h:mm:ss.mmm`, `m:ss.mmm`, `s,mmm` msec, or msec below a second. */
export function formatPprofTime(us: number): string {
  if (us < 1e3) return gFormat(us / 1e3, 3).padStart(12);
  const msec = Math.floor((us / 1e3) % 1e3);
  const sec = Math.floor((us / 1e6) % 60);
  const min = Math.floor((us / 60e6) % 60);
  const hour = Math.floor(us / 36e8);
  const p2 = (n: number): string => String(n).padStart(2, "0");
  const p3 = (n: number): string => String(n).padStart(3, "0");
  if (hour) return `${String(hour).padStart(2)}:${p2(min)}:${p2(sec)}.${p3(msec)}`;
  if (min) return `   ${String(min).padStart(2)}:${p2(sec)}.${p3(msec)}`;
  if (sec) return `      ${String(sec).padStart(2)},${p3(msec)}`;
  return `         ${String(msec).padStart(3)}`;
}

/**
 * A time in microseconds as `--unit us` shows it: the value to the nanosecond (3 decimals, trailing
 * zeros dropped: `1806`, `603.25`), right-aligned in pprof's 12-character time column.
 */
export function formatMicroseconds(us: number): string {
  return String(Number(us.toFixed(3))).padStart(12);
}

/** The unit of the time columns of {@link formatProfileTable}. */
export type ProfileTimeUnit = "ms" | "us";

/** The units {@link formatProfileTable} writes time columns in. */
export const PROFILE_TIME_UNITS: readonly ProfileTimeUnit[] = ["ms", "us"];

/** Options of {@link formatProfileTable}. */
export interface FormatProfileTableOptions {
  /**
   * Time columns in milliseconds as pprof writes them (`ms`, the default: whole milliseconds from
   * 1 ms, truncated as pprof's `ToTimeStr` does, so 1.806 ms is `1` and 2409 ms is `2,409`), or in
   * microseconds as the TAU files hold them (`us`: 1806, to 3 decimals). Counters are unaffected.
   */
  readonly unit?: ProfileTimeUnit;
}

/**
 * C's `%.<p>G`: `p` significant digits, trailing zeros removed, exponent form for very large or
 * small values; a value halfway between two outputs rounds to the even digit, as printf does.
 */
export function gFormat(x: number, p: number): string {
  if (x === 0) return "0";
  if (!Number.isFinite(x)) return String(x).toUpperCase();
  const [mant, ex] = exponentialC(x, p - 1).split("e");
  const exp = Number(ex);
  if (exp < -4 || exp >= p) {
    const m = mant!.indexOf(".") >= 0 ? mant!.replace(/\.?0+$/, "") : mant!;
    return `${m}E${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  const s = fixedC(x, Math.max(0, p - 1 - exp));
  return s.indexOf(".") >= 0 ? s.replace(/\.?0+$/, "") : s;
}

/**
 * Renders a table as pprof prints it (with the name in the last column); see
 * {@link FormatProfileTableOptions.unit}. Columns have pprof's widths and widen, headers with
 * them, to fit a longer value (`--unit us` values of hours, counts in the billions).
 */
export function formatProfileTable(table: ProfileTable, options: FormatProfileTableOptions = {}): string {
  const us = options.unit === "us";
  const time = us ? formatMicroseconds : formatPprofTime;
  const derived = (DERIVED_KINDS as readonly string[]).includes(table.view);
  const cells = table.rows.map((r) => [
    fixedC(r.percent, 1),
    table.isTime ? time(r.exclusive).trim() : gFormat(r.exclusive, 4),
    table.isTime ? time(r.inclusive).trim() : gFormat(r.inclusive, 4),
    gFormat(r.calls, 6),
    gFormat(r.subroutines, 6),
    r.calls > 0 ? fixedC(r.inclusivePerCall, 0) : "0",
  ]);
  // pprof's columns: the header words, the unit line and the width of each value column.
  const head = table.isTime
    ? { titles: ["%Time", "Exclusive", "Inclusive", "#Call", "#Subrs", "Inclusive"], units: ["", us ? "usec" : "msec", us ? "total usec" : "total msec", "", "", "usec/call"], widths: [5, 12, 12, 11, 11, 10], gaps: [" ", " ", " ", " ", " "] }
    : { titles: ["%Time", "Exclusive", "Inclusive", "#Call", "#Subrs", "Count/Call"], units: ["", "counts", "total counts", "", "", ""], widths: [5, 10, 10, 11, 11, 10], gaps: ["  ", "  ", " ", " ", " "] };
  const widths = columnWidths(head.widths, cells);
  const ends: number[] = [];
  widths.forEach((w, i) => ends.push(i === 0 ? w : ends[i - 1] + head.gaps[i - 1].length + w));
  // Each text ends at its column's right edge, one space at least after the text before it (a
  // unit wider than its column, pprof's 'total counts', pushes on as pprof prints it).
  const line = (parts: readonly string[], name: string): string => {
    let out = parts[0].startsWith("%") ? parts[0].padEnd(widths[0]) : parts[0].padStart(widths[0]);
    for (let i = 1; i < parts.length; i++) out = out.padEnd(Math.max(ends[i] - parts[i].length, parts[i] === "" ? out.length : out.length + 1)) + parts[i];
    return `${out.padEnd(ends[ends.length - 1])} ${name}`;
  };
  const lines: string[] = [`${derived ? `${capital(table.view)} over all threads` : `Thread ${table.view}`}, metric ${table.metric}`, ""];
  const dash = "-".repeat(Math.max(87, line(head.titles, "Name").length));
  lines.push(dash, line(head.titles, "Name"), line(head.units, ""), dash);
  for (let k = 0; k < cells.length; k++) lines.push(line(cells[k], table.rows[k].name));
  return lines.join("\n") + "\n";
}

/**
 * Each column's width in characters: its cells' longest text (a row without the cell counting 0),
 * at least `least[i]`. Why a loop, not `Math.max(...cells)`: spread over a table of some 200 000
 * rows overflows the call stack.
 * @internal
 */
export function columnWidths(least: readonly number[], cells: readonly (readonly string[])[]): number[] {
  const widths = [...least];
  for (const row of cells) {
    for (let i = 0; i < widths.length; i++) {
      const n = row[i]?.length ?? 0;
      if (n > widths[i]) widths[i] = n;
    }
  }
  return widths;
}

function capital(s: string): string {
  return s === "stddev" ? "Standard deviation" : s[0].toUpperCase() + s.slice(1);
}
