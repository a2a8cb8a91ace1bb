/**
 * Workload variables: the names a scenario's `workload:` section defines, which overrides (`--set`,
 * sweep axes, measured-table columns) may set but not invent, and which expressions read as
 * numbers.
 *
 * @packageDocumentation
 */
import { nearestName } from "../engine/registry.js";
import type { KeyPath } from "./lang/index.js";

/** The workload variables a scenario value defines: the keys of its `workload:` map (none without one). @internal */
export function workloadVariablesOf(scenario: unknown): string[] {
  const workload = isMap(scenario) ? scenario.workload : undefined;
  return isMap(workload) ? Object.keys(workload) : [];
}

/**
 * The workload variable that setting `path` would create, when it is not among `known`: `y` for
 * `workload.y` (or `workload.y.z`) when `known` lacks `y`; undefined for any other path.
 * @internal
 */
export function undefinedWorkloadVariable(path: KeyPath, known: readonly string[]): string | undefined {
  const name = path[1];
  return path[0] === "workload" && typeof name === "string" && !known.includes(name) ? name : undefined;
}

/**
 * Why setting workload variable `name` is refused: it is not one of `known`, with the nearest
 * known name and the list, and how to add a variable.
 * @internal
 */
export function unknownWorkloadVariable(name: string, known: readonly string[]): string {
  const near = nearestName(name, known);
  const defined = known.length === 0 ? "the scenario defines no workload variables" : `the scenario's workload section defines ${known.join(", ")}`;
  return `'${name}' is not a workload variable${near === undefined ? "" : ` (did you mean '${near}'?)`}: ${defined}; to add a variable, define it there`;
}

/** Why a workload value that is not a number may not be used by the expression at `user`. @internal */
export function nonNumericWorkloadValue(name: string, value: unknown, user: string): string {
  return `${JSON.stringify(value)} is not a number, but ${user} uses '${name}' in an expression, which reads workload values as numbers`;
}

/** The names of the workload values that are not numbers (expressions cannot use them). @internal */
export function nonNumericWorkloadNames(workload: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(workload).filter((k) => typeof workload[k] !== "number");
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
