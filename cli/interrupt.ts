/**
 * What `ccasim` does when interrupted (SIGINT: Ctrl-C; SIGTERM: `kill`, a batch system's time
 * limit). A JavaScript signal handler runs only when the event loop gets control, so a handler
 * installed during synchronous work (a simulation, the writing of a run folder) would keep the
 * process going to the end of that work and then exit as interrupted, its output complete. So:
 *
 * - During synchronous work (loading, simulating, writing a run folder, a profile, a report) no
 *   handler is installed: the signal's default action ends the process at once. An output being
 *   written then leaves its temporary sibling (`.<name>.tmp-<pid>-<n>`), which the next command
 *   writing the same output removes (`removeStaleTemporaries`); the output itself is untouched.
 * - During asynchronous writing (an export of `ccasim query --out`, whose temporary is tracked
 *   with `asynchronous: true`) handlers are installed: a signal removes the temporaries being
 *   written at once, then ends the process by the same signal with its default action. Either way
 *   the process ends by the signal, which a shell reports as 128 + its number (130 SIGINT, 143
 *   SIGTERM).
 * - A signal that is handled only after that writing ended (it came as the output was renamed
 *   into place, while JavaScript ran) finds nothing to remove: the command ends as it would have,
 *   ccasim says that the output was completed, and the exit code is the command's own (0 on
 *   success). The handlers are removed when the event loop has looked for such a signal, so a
 *   later signal has its default action again; and a command that would start writing another
 *   output after such a signal stops there instead, ended by that signal.
 *
 * @packageDocumentation
 */
import { onTemporaryForgotten, onTemporaryTracked, removeTrackedTemporaries, temporaryTarget } from "../profile/index.js";

/**
 * The signals handled, with the exit status a shell reports for a process they end (128 + the
 * signal's number); also the exit code where a signal cannot end the process.
 */
export const INTERRUPT_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * How long the handlers stay after an asynchronous write ended, for the event loop to find a
 * signal that came while the write was being finished. Why a timer and not `setImmediate`: the
 * loop's first turn may end before the signal's pipe is read; a timer keeps it polling until then
 * (a few milliseconds, paid only by a command that wrote asynchronously).
 */
const SETTLE_MS = 10;

/** A signal {@link INTERRUPT_EXIT_CODES} names. */
export type InterruptSignal = keyof typeof INTERRUPT_EXIT_CODES;

const SIGNALS = Object.keys(INTERRUPT_EXIT_CODES) as InterruptSignal[];

/**
 * Handles an interruption: removes the temporaries being written and says so on `err`.
 * @returns the exit code that stands for `signal`
 */
export function onInterrupt(signal: InterruptSignal, err: (text: string) => void): number {
  const removed = removeTrackedTemporaries();
  const what = removed.length === 0 ? "" : `; removed the unfinished output${removed.length === 1 ? "" : "s"} ${removed.join(", ")}`;
  err(`\nccasim: interrupted (${signal})${what}\n`);
  return INTERRUPT_EXIT_CODES[signal];
}

/** The part of `process` {@link cleanUpOnInterrupt} uses (a test passes its own). */
export interface InterruptibleProcess {
  readonly pid: number;
  on(signal: InterruptSignal, listener: () => void): unknown;
  off(signal: InterruptSignal, listener: () => void): unknown;
  kill(pid: number, signal: InterruptSignal): unknown;
  exit(code: number): never;
}

/** What {@link cleanUpOnInterrupt} returns. */
export interface InterruptCleanUp {
  /**
   * To call with the command's exit code when it has ended: waits until a signal that came while
   * an asynchronous write was being finished has been handled (a loop with nothing left to do
   * would end without looking at it), says so on `err` if one came, and stops watching.
   * @returns the exit code to end with: the command's own
   */
  finish(code: number): Promise<number>;
  /** Stops watching for temporaries and removes the handlers (no message, no waiting). */
  stop(): void;
}

/**
 * Arranges that an interruption during asynchronous writing removes the temporaries being written
 * before the process exits, and leaves every other moment to the signal's default action (see the
 * module's documentation).
 */
export function cleanUpOnInterrupt(
  proc: InterruptibleProcess = process,
  err: (text: string) => void = (s) => process.stderr.write(s),
): InterruptCleanUp {
  /** Asynchronous temporaries being written. */
  let writing = 0;
  /** The outputs whose asynchronous writing ended while the handlers were installed. */
  const ended: string[] = [];
  /** A signal handled when no asynchronous write was going on (it came as one was finished). */
  let late: InterruptSignal | undefined;
  let installed = false;
  let settling: { timer: ReturnType<typeof setTimeout>; done: Promise<void>; resolve: () => void } | undefined;

  /**
   * Removes the temporaries, then ends the process by `signal` with its default action, as if
   * ccasim had not handled it (the shell reports 128 + its number). Why not `process.exit`: it
   * waits for native work in flight (a DuckDB export goes on writing), and the process would hang.
   */
  const terminate = (signal: InterruptSignal): void => {
    const code = onInterrupt(signal, err);
    uninstall();
    proc.kill(proc.pid, signal);
    proc.exit(code); // why: where a signal cannot end the process (not a POSIX system)
  };
  const handle = (signal: InterruptSignal): void => {
    if (writing > 0) {
      terminate(signal);
      return;
    }
    late ??= signal;
    uninstall();
  };
  const listeners = Object.fromEntries(SIGNALS.map((s) => [s, () => handle(s)])) as Record<InterruptSignal, () => void>;
  const install = (): void => {
    if (installed) return;
    installed = true;
    for (const s of SIGNALS) proc.on(s, listeners[s]);
  };
  /** Ends the wait after an asynchronous write (the handlers stay as they are). */
  const endSettling = (): void => {
    if (settling === undefined) return;
    clearTimeout(settling.timer);
    settling.resolve();
    settling = undefined;
  };
  function uninstall(): void {
    endSettling();
    if (!installed) return;
    installed = false;
    for (const s of SIGNALS) proc.off(s, listeners[s]);
  }

  const stopTracked = onTemporaryTracked((_path, asynchronous) => {
    // why: the interruption was for the whole command; writing another output would ignore it
    if (late !== undefined) terminate(late);
    if (!asynchronous) return;
    writing++;
    endSettling();
    install();
  });
  const stopForgotten = onTemporaryForgotten((path, asynchronous) => {
    if (!asynchronous) return;
    writing--;
    ended.push(temporaryTarget(path) ?? path);
    if (writing > 0 || !installed) return;
    // The handlers stay until the event loop has looked for a signal that came meanwhile.
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    settling = { timer: setTimeout(uninstall, SETTLE_MS), done, resolve };
  });

  const stop = (): void => {
    stopTracked();
    stopForgotten();
    uninstall();
  };
  return {
    async finish(code) {
      if (settling !== undefined) await settling.done;
      stop();
      if (late !== undefined) {
        const names = [...new Set(ended)];
        const outputs = names.join(", ");
        err(
          code === 0
            ? `\nccasim: ${late} came as ${outputs} ${names.length === 1 ? "was" : "were"} being completed: the output${names.length === 1 ? " is" : "s are"} complete and kept; exit code ${code} (the command's own)\n`
            : `\nccasim: ${late} came after the writing of ${outputs} had ended; exit code ${code} (the command's own)\n`,
        );
      }
      return code;
    },
    stop,
  };
}
