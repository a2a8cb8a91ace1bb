import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { executeScenario, loadScenarioText, type RunArtifacts } from "../../../scenarios/index.js";

/** Path of a scenario shipped in scenarios/. */
export function scenarioPath(name: string): string {
  return fileURLToPath(new URL(`../../../scenarios/${name}`, import.meta.url));
}

/** Loads a shipped scenario with `--set`-style overrides and runs it in memory. */
export function runShock(overrides: readonly string[] = [], file = "shock-neuronic.yaml", seed?: number): RunArtifacts {
  const path = scenarioPath(file);
  const scenario = loadScenarioText(readFileSync(path, "utf8"), path, { set: overrides, seed });
  return executeScenario(scenario);
}

/** The override that swaps EFMFlux for GodunovFlux (connection 4 of shock-neuronic.yaml). */
export const USE_GODUNOV = "assembly.connections[4]=Inviscid.flux -> GodunovFlux.flux";
