/**
 * A profile as one CSV table (`ccasim profile convert <trial> x.csv --to table-csv`): one row per
 * timer per view, the threads first (`n,c,t`) and then the derived views (mean, min, max, total,
 * stddev, as ParaProf's derived threads), with calls, subroutines and, per metric, exclusive and
 * inclusive values. Units are in the column names: `TIME exclusive (usec)`, `PAPI_FP_INS
 * exclusive (counts)`.
 *
 * @packageDocumentation
 */
import { writeTextFileAtomically, TEXT_PIECE_CHARS } from "./atomic-text-file.js";
import { DERIVED_KINDS, derivedView, threadView, type ProfileView } from "./derived.js";
import type { Trial } from "./model.js";
import { isTimeMetric } from "./tau/text-write.js";

/** Options of {@link formatProfileTableCsv}. */
export interface ProfileTableCsvOptions {
  /** Metrics to write (default every metric of the trial, in trial order). */
  readonly metrics?: readonly string[];
  /** Also write callpath timers (`A => B`); default false, flat timers only. */
  readonly callpaths?: boolean;
  /** Write the derived views after the threads (default true). */
  readonly derived?: boolean;
}

/** The unit of a metric's values in column names: `usec` for time metrics, else `counts`. */
export function metricUnit(metric: string): string {
  return isTimeMetric(metric) ? "usec" : "counts";
}

/** A CSV cell: quoted when it holds a comma, a quote, a line break or leading/trailing spaces. */
function cell(s: string): string {
  return s === "" || /[",\r\n]/.test(s) || s.trim() !== s ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Writes the table in pieces to `emit` (the header line first).
 * @throws ProfileModelError for a metric the trial lacks
 */
export function formatProfileTableCsvChunks(trial: Trial, emit: (text: string) => void, options: ProfileTableCsvOptions = {}): void {
  const metrics = (options.metrics ?? trial.metrics).map((m) => trial.metricIndex(m));
  const header = ["thread", "timer", "groups", "calls", "subroutines"];
  for (const m of metrics) {
    const name = trial.metrics[m];
    const unit = metricUnit(name);
    header.push(`${name} exclusive (${unit})`, `${name} inclusive (${unit})`);
  }
  let piece = header.map(cell).join(",") + "\n";
  const timers = trial.timers.filter((t) => options.callpaths === true || !t.isCallpath);
  const names = timers.map((t) => `${cell(t.name)},${cell(t.groups.join("|"))}`);
  const views: ProfileView[] = trial.threads.map((_, i) => threadView(trial, i));
  if (options.derived ?? true) for (const k of DERIVED_KINDS) views.push(derivedView(trial, k));
  for (const v of views) {
    const label = cell(v.label);
    timers.forEach((t, k) => {
      const i = t.index;
      if (v.present[i] === 0) return;
      let row = `${label},${names[k]},${v.calls[i]},${v.subroutines[i]}`;
      for (const m of metrics) row += `,${v.exclusive[m][i]},${v.inclusive[m][i]}`;
      piece += row + "\n";
      if (piece.length >= TEXT_PIECE_CHARS) {
        emit(piece);
        piece = "";
      }
    });
  }
  if (piece !== "") emit(piece);
}

/** The whole table as one string (see {@link formatProfileTableCsvChunks}). */
export function formatProfileTableCsv(trial: Trial, options: ProfileTableCsvOptions = {}): string {
  const parts: string[] = [];
  formatProfileTableCsvChunks(trial, (s) => parts.push(s), options);
  return parts.join("");
}

/**
 * Writes the table to `path` atomically.
 * @throws ProfileError naming `path` when it cannot be written; ProfileModelError for an unknown metric
 */
export function writeProfileTableCsv(trial: Trial, path: string, options: ProfileTableCsvOptions = {}): void {
  writeTextFileAtomically(path, (write) => formatProfileTableCsvChunks(trial, write, options));
}
