/**
 * Two profiles side by side (`ccasim profile diff`): one view and metric of each trial, timers
 * matched by name, with what changed from the base to the other. The everyday questions of a
 * performance engineer: what got slower between two runs, two cache sizes, a simulated and a
 * measured run; which routines one of them has and the other does not.
 *
 * @packageDocumentation
 */
import { compareText } from "./compare-text.js";
import { ProfileModelError } from "./errors.js";
import type { Trial } from "./model.js";
import { columnWidths, defaultMetric, gFormat, profileTable, resolveView, topLevelInclusive, type ProfileTimeUnit, type TableRow } from "./table.js";

/** What {@link diffProfiles} orders rows by: the size of the change of a column (largest first), or the name. */
export type ProfileDiffSortKey = "exclusive" | "inclusive" | "calls" | "name";

/** Every {@link ProfileDiffSortKey}. */
export const PROFILE_DIFF_SORT_KEYS: readonly ProfileDiffSortKey[] = ["exclusive", "inclusive", "calls", "name"];

/** One timer of either profile. Values are in the metric's unit (microseconds for time). */
export interface ProfileDiffRow {
  readonly name: string;
  /** Its row in the base profile's table; undefined when only the other has the timer. */
  readonly base: TableRow | undefined;
  /** Its row in the other profile's table; undefined when only the base has it. */
  readonly other: TableRow | undefined;
  /** Other minus base, a missing side counted as 0. */
  readonly exclusiveChange: number;
  /** Other minus base, a missing side counted as 0. */
  readonly inclusiveChange: number;
  /** Other minus base, a missing side counted as 0. */
  readonly callsChange: number;
  /** In a tree ({@link ProfileDiffOptions.tree}): the row's depth below its root (0 for a root). */
  readonly depth?: number;
  /** In a tree: the last routine of the row's callpath (`C` of `A => B => C`). */
  readonly routine?: string;
}

/** The two tables and their matched rows. */
export interface ProfileDiff {
  /** The metric compared (the base trial's spelling). */
  readonly metric: string;
  /** Whether it is a time (values are microseconds). */
  readonly isTime: boolean;
  /** The view of the base (`mean`, `max`, a thread `n,c,t`, ...). */
  readonly view: string;
  /** The view of the other: {@link view} unless {@link ProfileDiffOptions.otherView} chose another. */
  readonly otherView: string;
  /**
   * Each profile's top-level inclusive value, whose change says how much the whole run changed:
   * the value `profile show`'s %Time divides by. Of a thread, its largest inclusive value (pprof's
   * top-level timer); in the mean, total and max views, the mean, total and max of the threads'
   * top-level values (threads may run under different top-level timers: OpenMP threads), or the
   * view's largest inclusive value when that is larger; in the min and stddev views, that largest.
   */
  readonly baseTotal: number;
  readonly otherTotal: number;
  /** How many threads each profile has (a mean view is over all of them). */
  readonly baseThreads: number;
  readonly otherThreads: number;
  /** Rows in the order asked for (after `top`, when given). */
  readonly rows: readonly ProfileDiffRow[];
  /** Whether {@link rows} are a call tree (each with its depth). */
  readonly tree: boolean;
  /** Timers of the base that the other lacks, and the other way round (all of them, whatever `top`). */
  readonly onlyInBase: number;
  readonly onlyInOther: number;
}

/** Options of {@link diffProfiles}. */
export interface ProfileDiffOptions {
  /** Metric (default: the base trial's default metric); both trials must have it (names compare without case). */
  readonly metric?: string;
  /** View of both trials: `mean` (default), `max`, `min`, `total`, `stddev` or a thread `n,c,t`. */
  readonly view?: string;
  /** View of the other trial when it differs from {@link view} (rank 0 against rank 3 of one trial, say). */
  readonly otherView?: string;
  /** Include callpath timers (`A => B`); default false. */
  readonly callpaths?: boolean;
  /** Order (default `exclusive`, of a tree's siblings `inclusive`: the largest change first); ties by name. */
  readonly sort?: ProfileDiffSortKey;
  /** Keep only the first `top` rows (of a tree: in its depth-first order). */
  readonly top?: number;
  /**
   * The callpaths as a call tree: each callpath `A => B => C` under `A => B`, depth first from the
   * roots (the top-level timers), siblings in the order of {@link sort}; flat timers that are no
   * root left out. A callpath whose parent neither profile has (depth-limited callpaths) is a root.
   */
  readonly tree?: boolean;
  /** How messages name each profile besides `the base profile` (its path, say); default nothing. */
  readonly baseLabel?: string;
  readonly otherLabel?: string;
}

/**
 * Matches the timers of two trials by name and computes what changed from `base` to `other`, in
 * one view and metric of each.
 * @throws ProfileModelError when a trial lacks the metric or the thread asked for (named by
 *   {@link ProfileDiffOptions.baseLabel} / `otherLabel` when given)
 */
export function diffProfiles(base: Trial, other: Trial, options: ProfileDiffOptions = {}): ProfileDiff {
  const view = options.view ?? "mean";
  const [baseName, otherName] = [profileName("base", options.baseLabel), profileName("other", options.otherLabel)];
  const metric = inProfile(baseName, () => base.metrics[base.metricIndex(options.metric ?? defaultMetric(base))]);
  // The base's default metric, which the other lacks: say which metrics could be compared instead.
  const both = other.metrics.filter((m) => base.metrics.some((x) => x.toUpperCase() === m.toUpperCase())).sort(compareText);
  const hint = options.metric !== undefined ? "" : both.length > 0 ? `; both have ${both.join(", ")} (--metric)` : "; the two have no metric in common";
  const otherMetric = inProfile(otherName, () => other.metrics[other.metricIndex(metric)], hint);
  const callpaths = options.callpaths === true || options.tree === true;
  const viewA = inProfile(baseName, () => resolveView(base, view));
  const viewB = inProfile(otherName, () => resolveView(other, options.otherView ?? view));
  const a = profileTable(base, viewA, { metric, callpaths });
  const b = profileTable(other, viewB, { metric: otherMetric, callpaths });
  const rows: ProfileDiffRow[] = matchByName(a.rows, b.rows).map(([name, x, y]) => ({
    name,
    base: x,
    other: y,
    exclusiveChange: (y?.exclusive ?? 0) - (x?.exclusive ?? 0),
    inclusiveChange: (y?.inclusive ?? 0) - (x?.inclusive ?? 0),
    callsChange: (y?.calls ?? 0) - (x?.calls ?? 0),
  }));
  // A tree's siblings by their inclusive change (a caller's whole subtree) unless asked otherwise.
  const key = options.sort ?? (options.tree === true ? "inclusive" : "exclusive");
  const size = (r: ProfileDiffRow): number => Math.abs(key === "exclusive" ? r.exclusiveChange : key === "inclusive" ? r.inclusiveChange : key === "calls" ? r.callsChange : 0);
  // Each row's key once, not at every comparison; ties (and the name order) by code unit, the same in every locale.
  const sorted = rows.map((r) => ({ r, v: size(r) })).sort((p, q) => q.v - p.v || compareText(p.r.name, q.r.name)).map((x) => x.r);
  const listed = options.tree === true ? treeOrder(sorted, (name) => (base.findTimer(name) ?? other.findTimer(name))!.path) : sorted;
  return {
    metric,
    isTime: a.isTime,
    view: a.view,
    otherView: b.view,
    baseTotal: topLevelInclusive(base, viewA, base.metricIndex(metric)),
    otherTotal: topLevelInclusive(other, viewB, other.metricIndex(otherMetric)),
    baseThreads: base.threads.length,
    otherThreads: other.threads.length,
    rows: options.top !== undefined ? listed.slice(0, options.top) : listed,
    tree: options.tree === true,
    onlyInBase: rows.filter((r) => r.other === undefined).length,
    onlyInOther: rows.filter((r) => r.base === undefined).length,
  };
}

/**
 * `rows` (in sibling order) as a call tree, depth first, each with its depth: callpaths under their
 * parent callpath, a root (path of one timer) only when some callpath starts at it.
 * @throws ProfileModelError when no row is a callpath (flat profiles hold no call tree)
 */
function treeOrder(rows: readonly ProfileDiffRow[], pathOf: (name: string) => readonly string[]): ProfileDiffRow[] {
  const keyOf = (path: readonly string[]): string => JSON.stringify(path);
  const paths = new Map(rows.map((r) => [r, pathOf(r.name)]));
  const roots = new Set<string>();
  for (const p of paths.values()) if (p.length > 1) roots.add(keyOf(p.slice(0, 1)));
  if (roots.size === 0) throw new ProfileModelError("neither profile records callpaths (flat profiles): a call tree needs them");
  const inTree = rows.filter((r) => paths.get(r)!.length > 1 || roots.has(keyOf(paths.get(r)!)));
  const present = new Set(inTree.map((r) => keyOf(paths.get(r)!)));
  const children = new Map<string, ProfileDiffRow[]>();
  const top: ProfileDiffRow[] = [];
  for (const r of inTree) {
    const p = paths.get(r)!;
    const parent = keyOf(p.slice(0, -1));
    if (p.length > 1 && present.has(parent)) {
      const list = children.get(parent);
      if (list === undefined) children.set(parent, [r]);
      else list.push(r);
    } else top.push(r);
  }
  const out: ProfileDiffRow[] = [];
  // Depth first without recursion (call trees may be thousands deep): a stack of rows, each
  // node's children pushed in reverse so that the first is listed first.
  const stack: { row: ProfileDiffRow; depth: number }[] = top.map((row) => ({ row, depth: 0 })).reverse();
  while (stack.length > 0) {
    const { row, depth } = stack.pop()!;
    const path = paths.get(row)!;
    out.push({ ...row, depth, routine: path[path.length - 1] });
    const kids = children.get(keyOf(path)) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ row: kids[i], depth: depth + 1 });
  }
  return out;
}

/**
 * The rows of two tables matched by name: each name once, in the order first seen (`base`'s rows,
 * then those only `other` has), with its row on each side (undefined where that side lacks it).
 * @internal
 */
export function matchByName<R extends { readonly name: string }>(base: readonly R[], other: readonly R[]): [name: string, base: R | undefined, other: R | undefined][] {
  const byName = new Map<string, [string, R | undefined, R | undefined]>();
  for (const r of base) byName.set(r.name, [r.name, r, undefined]);
  for (const r of other) {
    const e = byName.get(r.name);
    if (e === undefined) byName.set(r.name, [r.name, undefined, r]);
    else e[2] = r;
  }
  return [...byName.values()];
}

/** `the base profile`, with its label (`the base profile (run-a)`) when given. */
function profileName(which: "base" | "other", label: string | undefined): string {
  return `the ${which} profile${label === undefined ? "" : ` (${label})`}`;
}

/** `fn()`, its ProfileModelError (a metric or thread the trial lacks) naming which profile it is of, `hint` appended. */
function inProfile<T>(name: string, fn: () => T, hint = ""): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ProfileModelError) throw new ProfileModelError(`${name}: ${e.message}${hint}`);
    throw e;
  }
}

/** Options of {@link formatProfileDiff}. */
export interface FormatProfileDiffOptions {
  /** Time columns in milliseconds (default, to the microsecond) or microseconds (to the nanosecond). */
  readonly unit?: ProfileTimeUnit;
  /** How the two profiles are named in the heading (default `base` and `other`). */
  readonly baseLabel?: string;
  readonly otherLabel?: string;
}

/**
 * The change of `x` to `y` as a percentage of `x` (`+12.5%`), `new` when only `y` is there, `gone`
 * when only `x` is, `from 0` when `x` is 0 and `y` is not, and blank when both are 0.
 */
export function percentChange(x: number | undefined, y: number | undefined): string {
  if (x === undefined) return "new";
  if (y === undefined) return "gone";
  if (x === 0) return y === 0 ? "" : "from 0";
  const p = ((y - x) / Math.abs(x)) * 100;
  return `${p >= 0 ? "+" : ""}${p.toFixed(1)}%`;
}

/**
 * Renders a diff as a text table: per timer the base's and the other's exclusive and inclusive
 * values with the change of each (absolute and in percent of the base), the calls of each, and the
 * name; a heading with each profile's number of threads, the metric, the view and the change of
 * the top-level inclusive value. A value a profile lacks is `-`. Times are milliseconds to the
 * microsecond (`--unit us`: microseconds to the nanosecond), always with three decimals, so that
 * the decimal points line up; counts (counter values, calls) are whole, a fraction (a mean over
 * threads) with 6 significant digits below 100000 and rounded whole from there.
 */
export function formatProfileDiff(diff: ProfileDiff, options: FormatProfileDiffOptions = {}): string {
  const us = options.unit === "us";
  // Counts whole as they are; a fraction (a mean over threads) with 6 significant digits below
  // 100000, rounded whole from there (not 1.08026E+12 in a column of 1198880826618);
  // milliseconds and microseconds with three decimals, which line up (a change that rounds to 0
  // is 0.000, not -0.000).
  const count = (v: number): string => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 1e5 ? String(Math.round(v)) : gFormat(v, 6));
  const value = (v: number | undefined): string =>
    v === undefined ? "-" : !diff.isTime ? count(v) : us ? (Math.abs(v) < 0.0005 ? 0 : v).toFixed(3) : (Math.abs(v) < 0.5 ? 0 : v / 1e3).toFixed(3);
  const change = (v: number): string => {
    const text = value(v);
    return text.startsWith("-") || Number(text) === 0 ? text : `+${text}`;
  };
  const unit = diff.isTime ? (us ? "usec" : "msec") : "counts";
  const titles = ["Excl base", "Excl other", "Excl change", "%", "Incl base", "Incl other", "Incl change", "%", "#Call base", "#Call other"];
  const cells = diff.rows.map((r) => [
    value(r.base?.exclusive),
    value(r.other?.exclusive),
    change(r.exclusiveChange),
    percentChange(r.base?.exclusive, r.other?.exclusive),
    value(r.base?.inclusive),
    value(r.other?.inclusive),
    change(r.inclusiveChange),
    percentChange(r.base?.inclusive, r.other?.inclusive),
    r.base === undefined ? "-" : count(r.base.calls),
    r.other === undefined ? "-" : count(r.other.calls),
  ]);
  const labelBase = options.baseLabel ?? "base";
  const labelOther = options.otherLabel ?? "other";
  const viewText = (view: string): string => (view === "stddev" ? "standard deviation over all threads" : /^\d/.test(view) ? `thread ${view}` : `${view} over all threads`);
  const views = diff.otherView === diff.view ? viewText(diff.view) : `${viewText(diff.view)} against ${viewText(diff.otherView)}`;
  const threads = (n: number): string => `(${n} thread${n === 1 ? "" : "s"})`;
  const lines = [
    `base:  ${labelBase} ${threads(diff.baseThreads)}`,
    `other: ${labelOther} ${threads(diff.otherThreads)}`,
    `metric ${diff.metric} (${unit}), ${views}; top-level inclusive ${value(diff.baseTotal)} -> ${value(diff.otherTotal)} (${percentChange(diff.baseTotal, diff.otherTotal) || "no change"})`,
    "",
    // A tree's row is named by its last routine, indented by its depth.
    ...sideBySide(titles, cells, "Name", (k) => (diff.tree ? "  ".repeat(diff.rows[k].depth ?? 0) + (diff.rows[k].routine ?? diff.rows[k].name) : diff.rows[k].name)),
    ...onlyInOne("timer", diff.onlyInBase, diff.onlyInOther),
  ];
  return lines.join("\n") + "\n";
}

/**
 * The lines of a two-profile table: the titles, dashes, then a line per row of `cells`, each
 * column right-aligned to its widest cell, two spaces apart, and the row's name (`nameOf`) last,
 * under `nameTitle`.
 */
export function sideBySide(titles: readonly string[], cells: readonly (readonly string[])[], nameTitle: string, nameOf: (row: number) => string): string[] {
  const widths = columnWidths(titles.map((t) => t.length), cells);
  const line = (parts: readonly string[], name: string): string => parts.map((p, i) => p.padStart(widths[i])).join("  ") + "  " + name;
  return [line(titles, nameTitle), line(widths.map((w) => "-".repeat(w)), "-".repeat(nameTitle.length)), ...cells.map((c, k) => line(c, nameOf(k)))];
}

/** A blank line and `2 timers only in the base (gone), 1 only in the other (new)`, or nothing when both are 0. */
export function onlyInOne(noun: string, inBase: number, inOther: number): string[] {
  const only: string[] = [];
  if (inBase > 0) only.push(`${inBase} ${noun}${inBase === 1 ? "" : "s"} only in the base (gone)`);
  // The noun once, with the first count written.
  if (inOther > 0) only.push(inBase > 0 ? `${inOther} only in the other (new)` : `${inOther} ${noun}${inOther === 1 ? "" : "s"} only in the other (new)`);
  return only.length > 0 ? ["", only.join(", ")] : [];
}
