/**
 * Checking a sweep before running it: the sweep file itself (`loadSweep`), then the scenario of
 * every point with the point's overrides, as a run of the sweep would load it.
 *
 * @packageDocumentation
 */
import { loadScenarioText } from "../load.js";
import { executeScenario } from "../run.js";
import { parseYamlSource } from "../lang/index.js";
import { keysOfKind } from "../../profile/index.js";
import { sweepPointLoadOverrides, sweepPointOverrides, type Sweep } from "./load-sweep.js";
import { integerAxisHint } from "./execute-point.js";
import type { SweepPoint } from "./points.js";

/** A point whose scenario does not load, and why. */
export interface InvalidPoint {
  readonly point: SweepPoint;
  /** The point's `--set` overrides. */
  readonly overrides: readonly string[];
  /** What loading it threw (located scenario errors, as `ccasim run` would print them). */
  readonly error: Error;
}

/** Options of {@link invalidPoints}. */
export interface InvalidPointsOptions {
  /**
   * Also run every point that loads, measuring and writing nothing, so that what only a run finds
   * (a cost that evaluates negative, a kernel the node model refuses, a deadlock) fails it too.
   */
  readonly run?: boolean;
}

/**
 * Loads the scenario of every point of `sweep` with its overrides and seed (checking it as
 * `ccasim run` does, without running it unless `options.run`), and returns the points that fail.
 */
export function invalidPoints(sweep: Sweep, options: InvalidPointsOptions = {}): InvalidPoint[] {
  const invalid: InvalidPoint[] = [];
  for (const point of sweep.points) {
    const failure = pointLoadFailure(sweep, point, options.run === true);
    if (failure !== undefined) invalid.push(failure);
  }
  return invalid;
}

/** Why `point` of `sweep` does not load (or, with `run`, does not run), or undefined when it does. */
function pointLoadFailure(sweep: Sweep, point: Sweep["points"][number], run = false): InvalidPoint | undefined {
  const overrides = sweepPointOverrides(sweep, point);
  const set = sweepPointLoadOverrides(sweep, point);
  try {
    const scenario = loadScenarioText(sweep.loadText, sweep.scenarioFile, { set, seed: point.seed });
    if (run) executeScenario(scenario, { measure: false });
    return undefined;
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    // The hint a run of the sweep stores with the point's error: which axis gave a fraction.
    error.message += integerAxisHint(error.message, set);
    return { point, overrides, error };
  }
}

/**
 * Why no point of `sweep` loads (the first point's failure), or undefined when one does. A sweep
 * none of whose points loads is a wrong sweep file (a key no scenario has, a value no point can
 * take), not a set of invalid combinations. Stops at the first point that loads: when the first
 * one does, this costs one load.
 */
export function noPointLoads(sweep: Sweep): InvalidPoint | undefined {
  let first: InvalidPoint | undefined;
  for (const point of sweep.points) {
    const failure = pointLoadFailure(sweep, point);
    if (failure === undefined) return undefined;
    first ??= failure;
  }
  return first;
}

/**
 * True when `text` (YAML) is a sweep file rather than a scenario: a map with the keys only a sweep
 * has (`scenario`, `axes`, `zip`, `random`, `replications`: `INPUT_FILE_KEYS`). Unreadable text
 * is not one (the scenario loader then reports its syntax).
 */
export function isSweepText(text: string, file: string): boolean {
  try {
    const value = parseYamlSource(text, file).value;
    return keysOfKind(value, "sweep").length > 0;
  } catch {
    return false;
  }
}
