/**
 * Model validation as in Table 5.1 of paper 003: run a scenario for every configuration of a
 * measured-times table and compare the simulated time T_s with the measured time T_m, with the
 * evaluation time T_e and T_m/T_e.
 *
 * @packageDocumentation
 */
import { loadScenario, type SourcedOverride } from "../load.js";
import { executeProgramScenario } from "./execute.js";
import { locatedProgramError } from "./located-error.js";
import type { MeasuredConfiguration } from "./measured.js";

/** One row of the comparison (times in seconds). */
export interface ValidationRow {
  readonly name: string;
  readonly set: readonly string[];
  /** T_s, simulated (s). */
  readonly predicted: number;
  /** T_m, measured (s). */
  readonly measured: number;
  /** |T_s - T_m| / T_m x 100. */
  readonly errorPercent: number;
  /** T_e: evaluation CPU time of one run (s), best of the repeats (paper 003 reports CPU time). */
  readonly evaluationSeconds: number;
  /** Wall time of that evaluation (s), best of the repeats. */
  readonly evaluationWallSeconds: number;
  /** T_m / T_e. */
  readonly speedup: number;
  /** The table's reference prediction (s) and its error, when given. */
  readonly reference?: number;
  readonly referenceErrorPercent?: number;
  /** Whether the model was calibrated on this configuration (the table's `calibrated`). */
  readonly calibrated: boolean;
}

/** Errors of a subset of the rows (percent). */
export interface ErrorSummary {
  readonly configurations: number;
  readonly meanErrorPercent: number;
  readonly maxErrorPercent: number;
}

/** The whole comparison. */
export interface ValidationReport {
  readonly model: string;
  /** Unit of every time of the rows (predicted, measured, reference, evaluation): seconds, as the paper's Table 5.1. */
  readonly unit: "s";
  readonly rows: readonly ValidationRow[];
  readonly meanErrorPercent: number;
  readonly maxErrorPercent: number;
  /** Mean error of the reference predictions, when every row has one. */
  readonly referenceMeanErrorPercent?: number;
  /**
   * When the table marks rows `calibrated`: how many, and the errors of the other rows (held out:
   * predictions proper), absent when every row was calibrated on.
   */
  readonly calibratedConfigurations: number;
  readonly heldOut?: ErrorSummary;
  /** What the caller should know: an override of `set` that a row's own value replaces. */
  readonly warnings: readonly string[];
}

/** Options of {@link validateModel}. */
export interface ValidateModelOptions {
  /** Timed runs per configuration for T_e (best of; default 3), after one untimed run of every configuration. */
  readonly repeats?: number;
  /** Overrides applied to every configuration (before the row's own). */
  readonly set?: readonly string[];
}

/**
 * Runs `file` (a program scenario) for each configuration and compares with the measured times.
 * @throws Error when the scenario is not a program model; ScenarioErrors for an invalid scenario or override; run errors of the model
 */
export function validateModel(file: string, table: readonly MeasuredConfiguration[], options: ValidateModelOptions = {}): ValidationReport {
  const repeats = Math.max(1, options.repeats ?? 3);
  const rows: ValidationRow[] = [];
  // Every configuration is loaded before any runs, so a bad row is reported before minutes of runs.
  const scenarios = table.map((row) => loadScenario(file, { set: [...(options.set ?? []), ...rowOverrides(row)] }));
  // A run's error is located in the model (file:line:col of the element) and names the
  // configuration it comes from (the row's overrides made it).
  const run = (i: number) => {
    try {
      return executeProgramScenario(scenarios[i], { measure: false });
    } catch (e) {
      const located = locatedProgramError(scenarios[i], e);
      if (located instanceof Error) located.message = `configuration '${table[i].name}': ${located.message}`;
      throw located;
    }
  };
  // Every configuration runs once before any is timed: the simulated time comes from these runs,
  // and the JIT has then compiled what every configuration executes, so the first row's T_e is
  // not its warm-up (measured: 8x the same configuration's T_e as a later row).
  const first = table.map((_, i) => run(i));
  for (const [i, row] of table.entries()) {
    let best = Infinity;
    let bestWall = Infinity;
    for (let k = 0; k < repeats; k++) {
      const again = run(i).program;
      best = Math.min(best, again.cpuSeconds);
      bestWall = Math.min(bestWall, again.wallSeconds);
    }
    const predicted = first[i].result.simulatedTime / 1e6;
    const measured = row.measured / 1e6;
    const reference = row.reference === undefined ? undefined : row.reference / 1e6;
    rows.push({
      name: row.name,
      set: row.set,
      predicted,
      measured,
      errorPercent: (Math.abs(predicted - measured) / measured) * 100,
      evaluationSeconds: best,
      evaluationWallSeconds: bestWall,
      speedup: measured / Math.max(best, 1e-12),
      reference,
      referenceErrorPercent: reference === undefined ? undefined : (Math.abs(reference - measured) / measured) * 100,
      calibrated: row.calibrated === true,
    });
  }
  const errs = rows.map((r) => r.errorPercent);
  const calibrated = rows.filter((r) => r.calibrated).length;
  const heldOutErrors = rows.filter((r) => !r.calibrated).map((r) => r.errorPercent);
  const refs = rows.map((r) => r.referenceErrorPercent);
  // The row's own value of a key wins over --set's (it is applied after): say so.
  const keyOf = (o: string) => o.slice(0, o.indexOf("=")).trim();
  const warnings = (options.set ?? [])
    .map((o) => ({ o, replacedIn: table.filter((row) => row.set.some((r) => keyOf(r) === keyOf(o))).map((row) => row.name) }))
    .filter((x) => x.replacedIn.length > 0)
    .map(({ o, replacedIn }) => `--set ${o} is replaced by the table's own ${keyOf(o)} in ${replacedIn.length === table.length ? "every configuration" : `configuration(s) ${replacedIn.join(", ")}`}`);
  // The model's own warnings (pending requests, unused functions) and messages left unreceived, as
  // run prints them (at most 5 unreceived, then their count): once each, with the configurations
  // they come from.
  const seen = new Map<string, string[]>();
  first.forEach((f, i) => {
    for (const w of [...f.result.warnings, ...f.result.unreceived.map((u) => `unreceived ${u}`)]) {
      const names = seen.get(w);
      if (names) names.push(table[i].name);
      else seen.set(w, [table[i].name]);
    }
  });
  let unreceived = 0;
  for (const [w, names] of seen) {
    if (w.startsWith("unreceived ") && ++unreceived > 5) continue;
    warnings.push(`${w}${names.length === table.length ? "" : ` (configuration${names.length > 1 ? "s" : ""} ${names.join(", ")})`}`);
  }
  if (unreceived > 5) warnings.push(`${unreceived - 5} more unreceived messages`);
  return {
    warnings,
    unit: "s",
    model: file,
    rows,
    meanErrorPercent: mean(errs),
    maxErrorPercent: Math.max(0, ...errs),
    calibratedConfigurations: calibrated,
    heldOut: calibrated > 0 && heldOutErrors.length > 0 ? { configurations: heldOutErrors.length, meanErrorPercent: mean(heldOutErrors), maxErrorPercent: Math.max(...heldOutErrors) } : undefined,
    referenceMeanErrorPercent: refs.every((x) => x !== undefined) && refs.length > 0 ? (refs as number[]).reduce((a, b) => a + b, 0) / refs.length : undefined,
  };
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

/** A row's overrides, each named in errors by its place in the table (when the table says). */
function rowOverrides(row: MeasuredConfiguration): (string | SourcedOverride)[] {
  return row.set.map((text, i) => {
    const source = row.sources?.[i];
    return source === undefined ? text : { text, source };
  });
}

/** Table 5.1-style text of a report. */
export function formatValidationReport(r: ValidationReport): string {
  const hasRef = r.rows.some((x) => x.reference !== undefined);
  // Seconds as in paper 003's Table 5.1, or ms or us when the runs are shorter than a second.
  const shortest = Math.min(...r.rows.flatMap((x) => [x.predicted, x.measured, ...(x.reference === undefined ? [] : [x.reference])]).filter((t) => t > 0));
  const [unit, scale] = shortest >= 1 ? ["s", 1] : shortest >= 1e-3 ? ["ms", 1e3] : ["us", 1e6];
  const anyCalibrated = r.calibratedConfigurations > 0;
  const header = ["configuration", ...(anyCalibrated ? ["calibrated"] : []), `T_s [${unit}]`, `T_m [${unit}]`, "Error [%]", ...(hasRef ? [`ref T_s [${unit}]`, "ref Error [%]"] : []), "T_e [s] (CPU)", "T_m/T_e"];
  const fmt = (x: number, d: number) => x.toFixed(d);
  const time = (x: number) => fmt(x * scale, 1);
  const rows = r.rows.map((x) => [
    x.name,
    ...(anyCalibrated ? [x.calibrated ? "yes" : ""] : []),
    time(x.predicted),
    time(x.measured),
    fmt(x.errorPercent, 1),
    ...(hasRef ? [x.reference === undefined ? "" : time(x.reference), x.referenceErrorPercent === undefined ? "" : fmt(x.referenceErrorPercent, 1)] : []),
    // Two significant figures: CPU times of a millisecond vary by 2x from run to run.
    x.evaluationSeconds.toExponential(1),
    x.speedup.toLocaleString("en-US", { maximumSignificantDigits: 2 }),
  ]);
  const cells = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ");
  const out = [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
  out.push("");
  out.push(`mean error ${fmt(r.meanErrorPercent, 1)}%, max ${fmt(r.maxErrorPercent, 1)}% over ${r.rows.length} configuration${r.rows.length === 1 ? "" : "s"}` + (r.referenceMeanErrorPercent !== undefined ? ` (reference: mean ${fmt(r.referenceMeanErrorPercent, 1)}%)` : ""));
  // Errors on the rows a model was fitted to measure the fit: say so, and give the held-out ones apart.
  if (r.calibratedConfigurations === r.rows.length) out.push(`the model was calibrated on all ${r.rows.length} configurations: these errors measure how well it fits them, not how well it predicts other runs`);
  else if (r.heldOut !== undefined) out.push(`the model was calibrated on ${r.calibratedConfigurations} of them; on the ${r.heldOut.configurations} held out: mean error ${fmt(r.heldOut.meanErrorPercent, 1)}%, max ${fmt(r.heldOut.maxErrorPercent, 1)}%`);
  return out.join("\n") + "\n";
}
