/**
 * A trial restricted to some of its metrics (what `ccasim profile convert --metric` writes).
 *
 * @packageDocumentation
 */
import { ProfileModelError } from "./errors.js";
import { Trial } from "./model.js";

/**
 * The same trial with only the metrics named (matched as {@link Trial.metricIndex} does), in the
 * order given; timers, threads, user events, metadata and records are shared, not copied.
 * @throws ProfileModelError for a metric the trial lacks, or when none is named
 */
export function selectMetrics(trial: Trial, metrics: readonly string[]): Trial {
  if (metrics.length === 0) throw new ProfileModelError("no metric named");
  const idx = [...new Set(metrics.map((m) => trial.metricIndex(m)))];
  const v = trial.values;
  return new Trial({
    metadata: trial.metadata,
    threadMetadata: trial.threadMetadata,
    inheritedMetadata: trial.inheritedMetadata,
    metrics: idx.map((i) => trial.metrics[i]),
    threads: trial.threads,
    timers: trial.timers,
    userEvents: trial.userEvents,
    values: { ...v, exclusive: idx.map((i) => v.exclusive[i]), inclusive: idx.map((i) => v.inclusive[i]) },
    events: trial.events,
    records: trial.recordTable,
    warnings: trial.warnings,
    source: trial.source,
  });
}
