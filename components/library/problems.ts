/**
 * A component's parameter problems reported together: each check's input error is collected, and
 * the scenario loader (through `PrepareEnv.combine`) reports them at once, each at its key.
 *
 * @packageDocumentation
 */
import type { PrepareEnv } from "../component.js";

/**
 * Runs `check`; an input error it throws is added to `problems` when the scenario can report
 * several at once (`env.combine`), else thrown.
 */
export function collectProblem(env: PrepareEnv, problems: unknown[], check: () => void): void {
  try {
    check();
  } catch (e) {
    if (env.combine === undefined || (e as { isInputError?: boolean }).isInputError !== true) throw e;
    problems.push(e);
  }
}

/** Reports the problems {@link collectProblem} gathered, all at once (nothing when there are none). */
export function reportProblems(env: PrepareEnv, problems: readonly unknown[]): void {
  if (problems.length > 0) env.combine!(problems);
}
