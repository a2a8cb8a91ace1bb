import { pointRows, type PointIdentity, type PointOutcome, type PointRows } from "../../profile/study/index.js";
import { loadScenarioText, type SourcedOverride } from "../load.js";
import { executeScenario } from "../run.js";

/** What a worker needs to run one point: the scenario text, its overrides and the point. */
export interface PointTask {
  readonly scenarioText: string;
  /** Names the scenario in errors and summaries. */
  readonly scenarioFile: string;
  /** Overrides (fixed ones and the point's axis values), each with the sweep key it comes from. */
  readonly set: readonly SourcedOverride[];
  readonly point: PointIdentity;
}

/**
 * Runs one sweep point and returns its outcome (a profile and records, or the error that stopped
 * it: an invalid combination of values, a deadlock). Never throws for a failing point.
 */
export function runPoint(task: PointTask): PointOutcome {
  const t0 = process.hrtime.bigint();
  const wall = () => Number(process.hrtime.bigint() - t0) / 1e9;
  try {
    const scenario = loadScenarioText(task.scenarioText, task.scenarioFile, { set: task.set, seed: task.point.seed });
    // A study stores no trace: none is kept, whatever outputs.trace says.
    const art = executeScenario(scenario, { trace: false });
    const r = art.result;
    return {
      ok: true,
      trial: art.trial,
      records: r.mastermind ?? [],
      simulatedTime: r.simulatedTime,
      events: r.events,
      invocations: r.invocations,
      summary: art.summary,
      wallSeconds: wall(),
    };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    return { ok: false, kind: err.name, message: err.message + integerAxisHint(err.message, task.set), wallSeconds: wall() };
  }
}

/**
 * For a point refused for a value that must be an integer: the sweep keys that gave the point a
 * fraction, and how to round them (a range's or random axis's `integer: true`); "" otherwise. Why: a log or
 * points range gives fractions (4641.588...) that a count cannot take, and the refusal names the
 * parameter, not the axis.
 */
export function integerAxisHint(message: string, set: readonly SourcedOverride[]): string {
  if (!/expected an integer|a whole number/.test(message)) return "";
  const fractional = set.filter((o) => {
    const v = Number(o.text.slice(o.text.indexOf("=") + 1));
    return Number.isFinite(v) && !Number.isInteger(v);
  });
  if (fractional.length === 0) return "";
  return `\nthe sweep gives this point ${fractional.map((o) => `${o.text} (${o.source})`).join(", ")}: give it whole numbers there (a range or a random axis rounds its values with 'integer: true')`;
}

/** Runs one point and flattens it into study table rows (what a sweep worker returns). */
export function runPointTask(task: PointTask): PointRows {
  return pointRows(task.point, runPoint(task));
}
