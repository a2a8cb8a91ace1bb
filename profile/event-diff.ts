/**
 * The user events of two profiles side by side (`ccasim profile diff`, after the timers): atomic
 * events (message sizes, memory, counters TAU samples) matched by name, each one's samples, mean
 * and maximum in both, with the change of the samples and of the mean. Message sizes that grew,
 * or twice as many messages: what a timer's change does not say by itself.
 *
 * @packageDocumentation
 */
import { compareText } from "./compare-text.js";
import type { Trial } from "./model.js";
import { gFormat } from "./table.js";
import { userEventTable, type UserEventRow } from "./user-event-table.js";
import { matchByName, onlyInOne, percentChange, sideBySide } from "./diff.js";

/** One user event of either profile; values in the event's own unit (bytes, for message sizes). */
export interface UserEventDiffRow {
  readonly name: string;
  /** Its statistics in the base's view; undefined when only the other has the event. */
  readonly base: UserEventRow | undefined;
  /** Its statistics in the other's view; undefined when only the base has it. */
  readonly other: UserEventRow | undefined;
  /** Other minus base, a missing side counted as 0 samples. */
  readonly samplesChange: number;
  /** Other minus base; NaN when either side lacks the event (a mean of no samples is none). */
  readonly meanChange: number;
}

/** The matched user events of two views. */
export interface UserEventDiff {
  /** Rows by name, as pprof orders user events. */
  readonly rows: readonly UserEventDiffRow[];
  /** Events of the base the other lacks, and the other way round. */
  readonly onlyInBase: number;
  readonly onlyInOther: number;
}

/**
 * Matches the user events of `base`'s view `view` and `other`'s view `otherView` (a thread `n,c,t`
 * or a derived kind: mean, min, max, total, stddev, as `userEventTable` takes them) by name.
 * @throws ProfileModelError for a view a trial lacks
 */
export function diffUserEvents(base: Trial, other: Trial, view: string, otherView = view): UserEventDiff {
  const rows: UserEventDiffRow[] = matchByName(userEventTable(base, view).rows, userEventTable(other, otherView).rows)
    .map(([name, x, y]) => ({
      name,
      base: x,
      other: y,
      samplesChange: (y?.samples ?? 0) - (x?.samples ?? 0),
      meanChange: x === undefined || y === undefined ? NaN : y.mean - x.mean,
    }))
    .sort((p, q) => compareText(p.name, q.name));
  return { rows, onlyInBase: rows.filter((r) => r.other === undefined).length, onlyInOther: rows.filter((r) => r.base === undefined).length };
}

/**
 * Renders a user-event diff as a text table (pprof's `USER EVENTS`, two profiles wide): per event
 * the samples of each, the mean of each with its change (absolute and in percent of the base),
 * the maximum of each, then the name. Values with 6 significant digits (`%G`, as pprof's own
 * table with two more), a value a profile lacks `-`. Empty when neither view has user events.
 */
export function formatUserEventDiff(diff: UserEventDiff): string {
  if (diff.rows.length === 0) return "";
  const g = (v: number | undefined): string => (v === undefined ? "-" : gFormat(v, 6));
  const signed = (v: number): string => (Number.isNaN(v) ? "-" : v > 0 ? `+${g(v)}` : g(v));
  const titles = ["#Samples base", "#Samples other", "Mean base", "Mean other", "Mean change", "%", "Max base", "Max other"];
  const cells = diff.rows.map((r) => [
    g(r.base?.samples),
    g(r.other?.samples),
    g(r.base?.mean),
    g(r.other?.mean),
    signed(r.meanChange),
    percentChange(r.base?.mean, r.other?.mean),
    g(r.base?.max),
    g(r.other?.max),
  ]);
  const lines = ["USER EVENTS", ...sideBySide(titles, cells, "Event Name", (k) => diff.rows[k].name), ...onlyInOne("event", diff.onlyInBase, diff.onlyInOther)];
  return lines.join("\n") + "\n";
}
