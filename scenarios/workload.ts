/**
 * Workload variables: the names a scenario's `workload:` section defines, which overrides (`--set`,
 * sweep axes, measured-table columns) may set but not invent, and which expressions read as
 * numbers.
 *
 * @packageDocumentation
 */
import { didYouMean } from "../engine/registry.js";
import { isPlainObject, unitInWorkloadValue, type KeyPath } from "./lang/index.js";

/** The workload variables a scenario value defines: the keys of its `workload:` map (none without one). @internal */
export function workloadVariablesOf(scenario: unknown): string[] {
  const workload = isPlainObject(scenario) ? scenario.workload : undefined;
  return isPlainObject(workload) ? Object.keys(workload) : [];
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
  const defined = known.length === 0 ? "the scenario defines no workload variables" : `the scenario's workload section defines ${known.join(", ")}`;
  return `'${name}' is not a workload variable${didYouMean(name, known)}: ${defined}; to add a variable, define it there`;
}

/** Why a workload value that is not a number may not be used by the expression at `user`. @internal */
export function nonNumericWorkloadValue(name: string, value: unknown, user: string): string {
  // Text that looks like arithmetic (`N/2`) was meant as an expression, which a workload value is not.
  const formula = typeof value === "string" && /[-+*/^()]/.test(value) && /[A-Za-z_]/.test(value);
  const unit = unitInWorkloadValue(value);
  const advice = formula
    ? `; a workload value is a number or text, not an expression: write ${JSON.stringify(value)} in place of '${name}' where it is used`
    : unit !== undefined
      ? `; ${unit}`
      : "";
  return `${JSON.stringify(value)} is not a number, but ${user} uses '${name}' in an expression, which reads workload values as numbers${advice}`;
}

/** The names of the workload values that are not numbers (expressions cannot use them). @internal */
export function nonNumericWorkloadNames(workload: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(workload).filter((k) => typeof workload[k] !== "number");
}

/**
 * Compiles an expression with the workload values that are not numbers (`textual`) visible
 * besides the names it knows, and says which of them it uses (such values have no slot: it could
 * only fail naming an unknown symbol, or read NaN). A known name of the same name (a method
 * argument, a global) shadows the workload value. @internal
 */
export function compileWithTextualWorkload<T extends { readonly variables: readonly string[] }>(
  textual: readonly string[],
  known: readonly string[],
  compile: (known: readonly string[]) => T,
): { readonly compiled: T; readonly used: string[] } {
  const hidden = textual.filter((n) => !known.includes(n));
  const compiled = compile([...known, ...hidden]);
  return { compiled, used: hidden.filter((n) => compiled.variables.includes(n)) };
}
