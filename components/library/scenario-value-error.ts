/**
 * A component parameter, call argument or requirement found wrong while the assembly runs: an
 * expression that evaluates to a value its parameter cannot take (a negative iteration count or
 * cost), an argument of the wrong kind, a component that needs what the machine lacks. It is a
 * mistake in the scenario, which the CLI reports, like any other bad input, with exit code 2.
 */
export class ScenarioValueError extends Error {
  /** Marks errors caused by the caller's input (the CLI maps them to exit code 2). */
  readonly isInputError = true;
  constructor(message: string) {
    super(message);
    this.name = "ScenarioValueError";
  }
}
