/**
 * A component parameter, call argument or requirement found wrong while the assembly runs: an
 * expression that evaluates to a value its parameter cannot take (a negative iteration count or
 * cost), an argument of the wrong kind, a component that needs what the machine lacks. It is a
 * mistake in the scenario, which the CLI reports, like any other bad input, with exit code 2.
 */
export class ScenarioValueError extends Error {
  /** Marks errors caused by the caller's input (the CLI maps them to exit code 2). */
  readonly isInputError = true;
  /**
   * @param message - what is wrong, starting with the component instance (`A: ...`)
   * @param key - the component parameter whose value is wrong (`cost`, `implementations.A2`,
   *   `calls[0].count`), when one is: the error is then placed at that key in the scenario file
   * @param problem - what is wrong, said at that key (`evaluated to 2.5; ...`); default: the
   *   message after its instance
   */
  constructor(
    message: string,
    readonly key?: string,
    readonly problem?: string,
  ) {
    super(message);
    this.name = "ScenarioValueError";
  }
}

/**
 * The error of a cost that evaluated below 0 (or to NaN) in a run, placed at its key.
 * @param when - appended to the value (` in iteration 3`)
 * @throws ScenarioValueError always
 */
export function negativeCost(instance: string, key: string, us: number, when: string): never {
  const problem = `evaluated to ${us} microseconds${when}; a cost is 0 or more`;
  throw new ScenarioValueError(`${instance}: cost ${problem}`, key, problem);
}
