/**
 * Paper 004's search for the highest-inefficiency regions (its Table 3): events whose
 * %FLPStalls (I1, Eq. 2) and FLPIneffI (I2, Eq. 4) both exceed the average over events by more
 * than a factor, and whose inclusive time is a large share of the total.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import type { TrialPower } from "./from-trial.js";

/** Options of {@link rankInefficiencies}. */
export interface InefficiencyOptions {
  /** Both ratios to the average must exceed this (default 1.5: "more than 50 % above average"). */
  readonly factor?: number;
  /** Least share of the total time (default 0.5, the paper's). */
  readonly minShare?: number;
}

/** One high-inefficiency event. */
export interface InefficientEvent {
  /** View label. */
  readonly view: string;
  /** Event name. */
  readonly event: string;
  /** I1 / average I1 (%FLPStalls). */
  readonly i1Ratio: number;
  /** I2 / average I2 (FLPIneffI). */
  readonly i2Ratio: number;
  /**
   * Inclusive time / the largest inclusive time of the view (the top-level event), in [0, 1], also
   * when the metrics come from exclusive values.
   */
  readonly share: number;
}

/**
 * Events of a {@link TrialPower} that are inefficient by both metrics (from the inclusive or the
 * exclusive values the estimate used) and significant in time, per view, sorted by share. The share
 * is always of inclusive time, as paper 004's Table 3 has it ("whose inclusive time accounts for
 * more than 50 % of the total wall clock time"): with exclusive values, the largest exclusive time
 * is no total. Events without both metrics are skipped; averages are over the events of the view
 * that have them.
 *
 * Events that retired no instruction are left out of the averages (and of the ranking): their
 * FLPIneffI is 0/0, and their %FLPStalls of 0 says that nothing ran, not that floating point ran
 * well. In a simulated run they are ranks blocked in MPI (MPI_Waitsome, MPI_Allreduce), whose
 * cycles are all stall cycles; counted as 0 they would pull the average down, and a kernel would
 * pass "50 % above average" because the run waits, not because the kernel stalls. Paper 004
 * averages "over all events" of real runs, where such events retire instructions (MPI polls).
 * @throws AnalysisInputError when `factor` is not a finite number >= 0 or `minShare` is outside
 *   [0, 1], and when the trial has events but none has both metrics (no stall counters): an empty
 *   ranking would read as "no inefficient event"
 */
export function rankInefficiencies(power: TrialPower, options: InefficiencyOptions = {}): InefficientEvent[] {
  const factor = options.factor ?? 1.5;
  const minShare = options.minShare ?? 0.5;
  // why: NaN or a share above 1 would rank nothing, and a negative bound would rank everything, unsaid
  if (!(Number.isFinite(factor) && factor >= 0)) throw new AnalysisInputError(`factor must be a finite number >= 0, got ${factor}`);
  if (!(minShare >= 0 && minShare <= 1)) throw new AnalysisInputError(`minShare must be in [0, 1], got ${minShare}`);
  if (power.events.length > 0 && !power.events.some((e) => e.metrics.flpStalls !== undefined && e.metrics.flpIneffI !== undefined)) {
    const why = power.missingMetrics.filter((m) => m.startsWith("%FLPStalls") || m.startsWith("FLPIneffI"));
    throw new AnalysisInputError(`no event has %FLPStalls and FLPIneffI, which the inefficiency ranking compares: ${why.length > 0 ? why.join("; ") : "they need the stall, FP and instruction counters"}`);
  }
  const out: InefficientEvent[] = [];
  const views = [...new Set(power.events.map((e) => e.view))];
  for (const v of views) {
    const rows = power.events.filter((e) => e.view === v);
    // A reduction, not a spread into Math.max: one argument per event overflows the stack on large profiles.
    const total = rows.reduce((m, e) => (Number.isFinite(e.inclusiveTimeUs) && e.inclusiveTimeUs > m ? e.inclusiveTimeUs : m), -Infinity);
    const usable = rows.filter((e) => Number.isFinite(e.metrics.flpStalls) && Number.isFinite(e.metrics.flpIneffI) && e.metrics.retiredInstructions !== 0);
    if (usable.length === 0 || !(total > 0)) continue;
    const i1Avg = usable.reduce((s, e) => s + e.metrics.flpStalls!, 0) / usable.length;
    const i2Avg = usable.reduce((s, e) => s + e.metrics.flpIneffI!, 0) / usable.length;
    for (const e of usable) {
      const i1Ratio = i1Avg > 0 ? e.metrics.flpStalls! / i1Avg : NaN;
      const i2Ratio = i2Avg > 0 ? e.metrics.flpIneffI! / i2Avg : NaN;
      const share = e.inclusiveTimeUs / total;
      if (i1Ratio > factor && i2Ratio > factor && share > minShare) out.push({ view: v, event: e.event, i1Ratio, i2Ratio, share });
    }
  }
  return out.sort((a, b) => b.share - a.share);
}
