/**
 * Errors raised by the event kernel.
 *
 * @packageDocumentation
 */

/** A delay or time that is negative, NaN or infinite, or a time before now. Carries the offending value. */
export class InvalidDelayError extends RangeError {
  /** Marks errors caused by the caller's input (the CLI maps them to exit code 2). */
  readonly isInputError = true;
  /**
   * @param what - what the value is ("delay", "time", ...)
   * @param expected - what it must be (default "a finite number >= 0")
   */
  constructor(readonly value: unknown, what = "delay", expected = "a finite number >= 0") {
    super(`invalid ${what} ${describeValue(value)}: must be ${expected}`);
    this.name = "InvalidDelayError";
  }
}

/** One process found blocked when the event list ran dry. */
export interface BlockedProcess {
  /** The process's name. */
  readonly name: string;
  /** A description of what it waits on (for example `MPI_Recv(source=1, tag=7)`). */
  readonly waitingOn: string;
}

/**
 * The event list ran dry while processes were still waiting: nothing can ever wake them.
 * `blocked` names each process and what it waits on.
 */
export class DeadlockError extends Error {
  /** A failure of the simulated program, whose message says all there is (no stack trace helps). */
  readonly isSimulatedFailure = true;
  constructor(readonly time: number, readonly blocked: readonly BlockedProcess[]) {
    super(
      `deadlock at t=${time}: ${blocked.length} process${blocked.length === 1 ? " is" : "es are"} blocked with no event left: ` +
        blocked
          .slice(0, 8)
          .map((b) => `${b.name} waits on ${b.waitingOn}`)
          .join("; ") +
        (blocked.length > 8 ? `; and ${blocked.length - 8} more` : ""),
    );
    this.name = "DeadlockError";
  }
}

/** Thrown into a process's generator by {@link Process.interrupt}. */
export class Interrupt extends Error {
  constructor(override readonly cause: unknown) {
    super(`interrupted${cause === undefined ? "" : `: ${String(cause)}`}`);
    this.name = "Interrupt";
  }
}

function describeValue(v: unknown): string {
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  return `${String(v)} (${typeof v})`;
}
