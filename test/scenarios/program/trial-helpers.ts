import type { Trial } from "../../../profile/index.js";

/** Inclusive TIME of flat timer `name` on thread index `thread`. */
export function inclusiveOf(trial: Trial, thread: number, name: string): number {
  const t = trial.timers.find((x) => x.name === name && !x.isCallpath);
  if (!t) throw new Error(`no timer ${name}`);
  return trial.values.inclusive[0][trial.slot(thread, t.index)];
}

/** Calls of flat timer `name` on thread index `thread`. */
export function callsOf(trial: Trial, thread: number, name: string): number {
  const t = trial.timers.find((x) => x.name === name && !x.isCallpath);
  if (!t) return 0;
  return trial.values.calls[trial.slot(thread, t.index)];
}
