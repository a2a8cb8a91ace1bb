/**
 * The user-event table of one view, as pprof prints it after the timers ("USER EVENTS Profile"):
 * samples, maximum, minimum, mean and standard deviation of each atomic event.
 *
 * @packageDocumentation
 */
import { DERIVED_KINDS, derivedEventView, threadEventView, type DerivedKind } from "./derived.js";
import { populationStddev } from "./spread.js";
import type { Trial } from "./model.js";
import { gFormat, resolveThreadIndex } from "./table.js";
import { compareText } from "./compare-text.js";

/** One user event's statistics in a view (values in the event's own unit). */
export interface UserEventRow {
  readonly name: string;
  /** Number of samples (for derived views, the view's count: the mean count over threads, ...). */
  readonly samples: number;
  readonly max: number;
  readonly min: number;
  readonly mean: number;
  /**
   * Standard deviation of the samples (population, as TAU: `sqrt(sumsqr / n - mean^2)`, at most
   * half the range `max - min`, which bounds it where the sum of squares leaves rounding); for the
   * `min`, `max` and `stddev` views, that kind taken over the threads' own standard deviations.
   */
  readonly stddev: number;
}

/** The user events of one view, by name (as pprof orders them). */
export interface UserEventTable {
  /** `"n,c,t"` or the derived kind. */
  readonly view: string;
  readonly rows: readonly UserEventRow[];
  /**
   * Events the view lists, with or without samples: a thread's table may have no row while its
   * file lists events (pprof then prints the table's heading alone).
   */
  readonly listed: number;
}

/**
 * Population standard deviation from a count, a mean and a sum of squares (0 for rounding below
 * zero), at most half the samples' range, max − min, as no spread of samples in [min, max] is
 * more. Why the bound: sumsqr/n − mean² keeps the rounding of sumsqr, a spread of 0.0035 for 20
 * equal samples of 82745.11, and more for larger values that the range shows to be equal.
 */
function sampleStddev(count: number, mean: number, sumSquares: number, min: number, max: number): number {
  if (!(count > 0)) return 0;
  const sd = Math.sqrt(Math.max(0, sumSquares / count - mean * mean));
  return max >= min ? Math.min(sd, (max - min) / 2) : sd;
}

/**
 * The user-event table of a view: a thread `n,c,t` or a derived kind (mean, min, max, total,
 * stddev, as {@link derivedEventView}). Events absent from the view are left out, and so, as pprof
 * does, are the events a thread lists without a sample; `top` keeps the first so many (by name).
 * @throws ProfileModelError for an unknown view or thread
 */
export function userEventTable(trial: Trial, which: string, options: { includeMissing?: boolean; top?: number } = {}): UserEventTable {
  const derived = (DERIVED_KINDS as readonly string[]).includes(which) ? (which as DerivedKind) : undefined;
  const thread = derived === undefined ? resolveThreadIndex(trial, which) : -1;
  const view = derived === undefined ? threadEventView(trial, thread) : derivedEventView(trial, derived, options);
  const spread = derived === "min" || derived === "max" || derived === "stddev" ? stddevOverThreads(trial, derived, options.includeMissing ?? true) : undefined;
  const rows: UserEventRow[] = [];
  let listed = 0;
  for (const u of trial.userEvents) {
    const i = u.index;
    if (view.present[i] === 0) continue;
    listed++;
    // pprof prints no row for an event a thread lists without a sample (TAU lists every event
    // of the process in each thread's file); a derived view's count may be 0 with a meaningful row.
    if (derived === undefined && view.count[i] === 0) continue;
    const stddev = spread !== undefined ? spread[i] : sampleStddev(view.count[i], view.mean[i], view.sumSquares[i], view.min[i], view.max[i]);
    rows.push({ name: u.name, samples: view.count[i], max: view.max[i], min: view.min[i], mean: view.mean[i], stddev });
  }
  rows.sort((a, b) => compareText(a.name, b.name));
  return { view: derived ?? view.label, rows: options.top !== undefined ? rows.slice(0, options.top) : rows, listed };
}

/**
 * Per event, the `kind` (min, max or population stddev) of the threads' own sample standard
 * deviations: min and max over the threads with samples of the event, stddev over all threads (a thread
 * without it counting 0) unless `includeMissing` is false, as {@link derivedEventView} divides.
 */
function stddevOverThreads(trial: Trial, kind: "min" | "max" | "stddev", includeMissing: boolean): Float64Array {
  const nE = trial.userEvents.length;
  const e = trial.events;
  const out = new Float64Array(nE);
  for (let u = 0; u < nE; u++) {
    let n = 0;
    let lo = Infinity;
    let hi = -Infinity;
    const sds: number[] = [];
    for (let th = 0; th < trial.threads.length; th++) {
      const s = th * nE + u;
      if (e.present[s] === 0) continue;
      const sd = sampleStddev(e.count[s], e.mean[s], e.sumSquares[s], e.min[s], e.max[s]);
      n++;
      if (e.count[s] > 0) {
        lo = Math.min(lo, sd);
        hi = Math.max(hi, sd);
      }
      sds.push(sd);
    }
    const m = kind === "stddev" && includeMissing ? trial.threads.length : n;
    out[u] = n === 0 ? 0 : kind === "min" ? (lo === Infinity ? 0 : lo) : kind === "max" ? (hi === -Infinity ? 0 : hi) : populationStddev(sds, m);
  }
  return out;
}

/** Renders a user-event table as pprof prints it (`%10.4G` columns, the name last). */
export function formatUserEventTable(table: UserEventTable): string {
  const dash = "-".repeat(87);
  const derived = (DERIVED_KINDS as readonly string[]).includes(table.view);
  const lines = [
    `USER EVENTS Profile ${derived ? `(${table.view} over all threads)` : threadHeading(table.view)}`,
    dash,
    "NumSamples   MaxValue   MinValue  MeanValue  Std. Dev.  Event Name",
    dash,
  ];
  const g = (x: number) => gFormat(x, 4).padStart(10);
  for (const r of table.rows) lines.push(`${g(r.samples)} ${g(r.max)} ${g(r.min)} ${g(r.mean)} ${g(r.stddev)}  ${r.name}`);
  lines.push(dash);
  return lines.join("\n") + "\n";
}

/** pprof's heading of a thread, `:NODE 0, CONTEXT 0, THREAD 1`, from its `n,c,t` label. */
function threadHeading(label: string): string {
  const [n, c, t] = label.split(",");
  return `:NODE ${n}, CONTEXT ${c}, THREAD ${t}`;
}
