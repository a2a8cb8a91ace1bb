/**
 * Typed errors of the analysis layer. Every error caused by the caller's data carries
 * `isInputError = true`, so the `ccasim` command exits with code 2 and names what is wrong.
 *
 * @packageDocumentation
 */

/** Bad input to an analysis function: too few points, a negative time, an unknown implementation ... */
export class AnalysisInputError extends Error {
  readonly isInputError = true;
  /**
   * @param detail - what is wrong (the message after `where`)
   * @param where - optional location (file path, component or metric name) for tools
   */
  constructor(
    readonly detail: string,
    readonly where?: string,
  ) {
    super(where ? `${where}: ${detail}` : detail);
    this.name = "AnalysisInputError";
  }
}

/** Throws {@link AnalysisInputError} unless `value` is a finite number. */
export function requireFinite(value: number, what: string): number {
  if (!Number.isFinite(value)) throw new AnalysisInputError(`${what} must be a finite number, got ${value}`);
  return value;
}
