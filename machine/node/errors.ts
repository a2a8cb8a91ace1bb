/**
 * Errors raised by the node model for bad machine configurations and bad kernel descriptions.
 *
 * @packageDocumentation
 */

/**
 * A machine configuration or kernel description is invalid. `key` is the dotted path of the
 * offending key (for example `machine.l2.size` or `kernel.stride`), `expected` says what would be
 * valid (unit and range).
 */
export class MachineInputError extends Error {
  /** Marks errors caused by the caller's input (the CLI maps them to exit code 2). */
  readonly isInputError = true;
  /** What is wrong, without the key (for messages that name the key already, as a scenario's do). */
  readonly problem: string;
  /**
   * @param problem - what is wrong when it is not a value out of range (an unknown key, say);
   *   default `expected <expected>, got <value>`
   * @param related - for a conflict between two keys, the other one (dotted, prefixed as `key`):
   *   a caller that knows which of the two was set (a scenario's overrides) may blame that one
   */
  constructor(readonly key: string, readonly expected: string, readonly value: unknown, problem?: string, readonly related?: string) {
    const what = problem ?? `expected ${expected}, got ${describe(value)}`;
    super(`${key}: ${what}`);
    this.problem = what;
    this.name = "MachineInputError";
  }
}

function describe(v: unknown): string {
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (v === undefined) return "(missing)";
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
