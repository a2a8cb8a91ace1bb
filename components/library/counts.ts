/**
 * Counts of the generic components, a driver's iterations and a call's count: whole numbers, 0 or
 * more. Each is checked at load where its value is known then (a constant, or an expression of
 * workload values alone: `ccasim validate` reports it), and at every evaluation of a run otherwise.
 * Why refuse rather than round: a count of -2 made no call and 1.5 made two, silently, and a
 * scenario with either is a mistake whose effect a user would read as the model's.
 *
 * @packageDocumentation
 */
import type { CostExpression, PrepareEnv } from "../component.js";
import { ScenarioValueError } from "./scenario-value-error.js";

/** What a count must be, for messages. */
const WHOLE = "a whole number, 0 or more";

/**
 * `v` as a count: the nearest integer when `v` is 0 or more and within rounding of it (1e-12
 * relative, a few thousand ulps: `0.1 * 30` is 3), else NaN.
 */
export function wholeCount(v: number): number {
  const n = Math.round(v);
  return n >= 0 && Math.abs(v - n) <= 1e-12 * Math.max(1, n) ? n : Number.NaN;
}

/**
 * A count's value in a run, or a ScenarioValueError naming the component, the key and the value.
 * @param instance - the component instance
 * @param key - the parameter (`iterations`, `calls[0].count`)
 */
export function runCount(v: number, instance: string, key: string): number {
  const n = wholeCount(v);
  if (n === n) return n;
  const problem = `evaluated to ${v}; a count is ${WHOLE}`;
  throw new ScenarioValueError(`${instance}: ${key} ${problem}`, key, problem);
}

/**
 * The value of an expression that reads workload values alone (no name in `notWorkload`: the
 * component's arguments, the rank, the iteration), with a note naming them
 * (` (from 'ES' with ES = 0)`); undefined when it reads anything else or the workload's values are
 * not known at load.
 * @throws through `env.error` at `key` when it does not evaluate to a finite number (`0/0`): its
 *   value depends on nothing a run could change
 */
export function workloadConstant(env: PrepareEnv, expr: CostExpression, notWorkload: readonly string[], key: string): [number, string] | undefined {
  const values = env.workloadValues;
  if (values === undefined) return undefined;
  const names = expr.variables;
  if (names.some((n) => !(n in values) || notWorkload.includes(n))) return undefined;
  let value: number;
  try {
    value = expr.evaluate(Object.fromEntries(names.map((n) => [n, values[n]!])));
  } catch (e) {
    // Not a finite number (`0/0`, `NaN`): every evaluation of the run would fail the same way,
    // whatever the call, so the load says so, at the key (`ccasim validate` reports it).
    if ((e as { isInputError?: boolean }).isInputError !== true) return undefined;
    const detail = (e as { detail?: unknown }).detail;
    env.error(key, `expression "${expr.text}" ${typeof detail === "string" ? detail : (e as Error).message}`);
  }
  const shown = names.map((n) => `${n} = ${values[n]}`).join(", ");
  return [value, ` (from '${expr.text}'${shown === "" ? "" : ` with ${shown}`})`];
}

/**
 * Checks at load a count, `expr` as compiled from what the scenario wrote at `key`, when its value
 * is known then (a number, or an expression of workload values alone); reports a value that is
 * not a count through `env.error`.
 */
export function checkCountAtLoad(env: PrepareEnv, expr: CostExpression, key: string, notWorkload: readonly string[]): void {
  let v: number | undefined;
  let note = "";
  const written = Number(expr.text);
  if (expr.text.trim() !== "" && written === written) v = written;
  else {
    const known = workloadConstant(env, expr, notWorkload, key);
    if (known !== undefined) [v, note] = known;
  }
  if (v !== undefined && wholeCount(v) !== wholeCount(v)) env.error(key, `expected ${WHOLE}, got ${v}${note}`);
}
