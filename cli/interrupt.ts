/**
 * What `ccasim` does when interrupted (SIGINT: Ctrl-C; SIGTERM: `kill`, a batch system's time
 * limit): it removes the temporary files and folders of the outputs being written (the library
 * tracks them: `trackTemporary`), then exits with the conventional code, 128 + the signal's number.
 *
 * Why the handlers are installed when the first temporary is tracked, and not at start: a
 * JavaScript signal handler runs only when the event loop gets control, so installed during a
 * simulation (which is synchronous) it would make Ctrl-C wait for the simulation's end. Until an
 * output is written the default action (an immediate exit) leaves nothing behind; from then on a
 * signal is handled as soon as the writer yields: at once during an asynchronous write (an
 * export), and for a synchronous one when it returns, its output whole and its temporaries gone.
 *
 * @packageDocumentation
 */
import { onTemporaryTracked, removeTrackedTemporaries } from "../profile/index.js";

/** The signals handled, with their exit codes (128 + the signal's number, as shells report them). */
export const INTERRUPT_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * How long {@link cleanUpOnInterrupt}'s `settle` lets the event loop look for a signal that came
 * during a synchronous write. Why a timer and not `setImmediate`: the loop's first turn may end
 * before the signal's pipe is read; a timer keeps it polling until then (a few milliseconds, paid
 * only by a command that wrote an output).
 */
const SETTLE_MS = 10;

/** A signal {@link INTERRUPT_EXIT_CODES} names. */
export type InterruptSignal = keyof typeof INTERRUPT_EXIT_CODES;

/**
 * Handles an interruption: removes the temporaries being written and says so on `err`.
 * @returns the exit code to end with
 */
export function onInterrupt(signal: InterruptSignal, err: (text: string) => void): number {
  const removed = removeTrackedTemporaries();
  const what = removed.length === 0 ? "" : `; removed the unfinished output${removed.length === 1 ? "" : "s"} ${removed.join(", ")}`;
  err(`\nccasim: interrupted (${signal})${what}\n`);
  return INTERRUPT_EXIT_CODES[signal];
}

/** The part of `process` {@link cleanUpOnInterrupt} uses (a test passes its own). */
export interface InterruptibleProcess {
  once(signal: InterruptSignal, listener: () => void): unknown;
  exit(code: number): never;
}

/**
 * Arranges that an interruption removes the temporaries being written before the process exits
 * (see the module's documentation for when the handlers are installed).
 * @returns `settle`, to await before the command's exit code is set: a signal that came during
 *   a synchronous write is handled then, on the event loop's next turn (a loop with nothing left
 *   to do would end without looking at it, and the process would exit 0); and `stop`, which stops
 *   watching for temporaries (handlers already installed stay)
 */
export function cleanUpOnInterrupt(
  proc: InterruptibleProcess = process,
  err: (text: string) => void = (s) => process.stderr.write(s),
): { settle: () => Promise<void>; stop: () => void } {
  let installed = false;
  const stop = onTemporaryTracked(() => {
    if (installed) return;
    installed = true;
    for (const signal of Object.keys(INTERRUPT_EXIT_CODES) as InterruptSignal[]) proc.once(signal, () => proc.exit(onInterrupt(signal, err)));
  });
  return { settle: () => (installed ? new Promise((done) => setTimeout(done, SETTLE_MS)) : Promise.resolve()), stop };
}
