/**
 * Threads as TAU names them, `node,context,thread` (the `n.c.t` of `profile.n.c.t`), for every
 * command and function that lets a user pick one.
 *
 * @packageDocumentation
 */
import type { ThreadId, Trial } from "./model.js";

/**
 * The thread `text` names: `n`, `n,c` or `n,c,t` (commas or dots; parts left out are 0), or
 * undefined when it names none.
 */
export function parseThreadName(text: string): ThreadId | undefined {
  const m = /^(\d+)(?:[,.](\d+))?(?:[,.](\d+))?$/.exec(text.trim());
  return m ? { node: Number(m[1]), context: Number(m[2] ?? 0), thread: Number(m[3] ?? 0) } : undefined;
}

/** The threads of `trial` in words, for messages: `96 threads (0,0,0 .. 15,0,5)`. */
export function describeThreads(trial: Trial): string {
  const n = trial.threads.length;
  return n === 0 ? "no threads" : `${n} thread${n === 1 ? "" : "s"} (${trial.threadLabel(0)}${n > 1 ? ` .. ${trial.threadLabel(n - 1)}` : ""})`;
}
