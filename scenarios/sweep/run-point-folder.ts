/**
 * Running one point of a sweep alone into an output folder, as `ccasim run` runs a scenario.
 *
 * @packageDocumentation
 */
import { join } from "node:path";
import { loadScenarioText } from "../load.js";
import { checkRunOutputFolder, type OutputFolderOptions } from "../output-folder.js";
import { executeScenario, writeRunReplacing, type ExecuteOptions, type RunArtifacts, type WrittenRun } from "../run.js";
import { sweepInputs, sweepPointLoadOverrides, type Sweep } from "./load-sweep.js";
import type { SweepPoint } from "./points.js";

/** Options of {@link runSweepPoint}. */
export interface SweepPointRunOptions extends ExecuteOptions, OutputFolderOptions {
  /** Output folder (default: see {@link sweepPointFolder}). */
  readonly out?: string;
}

/** Where a point run alone writes by default: `out/<sweep name>/point-<index>`, relative to the working directory. */
export function sweepPointFolder(sweep: Sweep, point: SweepPoint): string {
  return join("out", sweep.name, `point-${point.index}`);
}

/**
 * Runs one point of a sweep alone and writes its outputs as `ccasim run` does (what
 * `ccasim sweep <file> --point K` does): the sweep's scenario with the point's overrides and seed,
 * so the result equals that of the point in the study. The output folder is checked before the
 * simulation starts: it may not be the sweep file, its scenario file, or a folder holding them.
 * @throws ScenarioErrors when the point's scenario is invalid; OutputFolderError when the output
 *   folder may not be replaced; whatever the run throws (a deadlock)
 */
export function runSweepPoint(sweep: Sweep, point: SweepPoint, options: SweepPointRunOptions = {}): RunArtifacts & WrittenRun {
  const scenario = loadScenarioText(sweep.loadText, sweep.scenarioFile, { set: sweepPointLoadOverrides(sweep, point), seed: point.seed });
  const dir = options.out ?? sweepPointFolder(sweep, point);
  const checked = { ...options, inputs: [...sweepInputs(sweep), ...(options.inputs ?? [])] };
  checkRunOutputFolder(dir, checked);
  const art = executeScenario(scenario, options);
  return { ...art, ...writeRunReplacing(art, dir, checked) };
}
