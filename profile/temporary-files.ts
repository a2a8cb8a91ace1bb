/**
 * The temporary siblings of atomic writers (`.<name>.tmp-<pid>-<n>` beside `<name>`, renamed onto
 * it when finished): their names, the registry of those this process is writing (so that a command
 * interrupted during asynchronous writing can remove them before it exits), and the removal of
 * those that processes which no longer exist left behind (a signal during synchronous writing, a
 * `kill -9`, a power cut).
 *
 * @packageDocumentation
 */
import { readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Counter of the temporary names this process makes (they must not collide). */
let made = 0;

/**
 * A new temporary name beside `target`: `.<name>.<kind>-<pid>-<n>` in the same folder, so that a
 * rename replaces `target` within one file system; the pid says which process writes it (see
 * {@link removeStaleTemporaries}).
 * @param kind - `tmp` for what is being written, `old` for what is being replaced
 */
export function temporarySibling(target: string, kind: "tmp" | "old" = "tmp"): string {
  return join(dirname(target), `.${basename(target)}.${kind}-${process.pid}-${made++}`);
}

/** The temporaries this process is writing: absolute or relative paths, removed whole on interruption. */
const live = new Set<string>();

/** Who is told when a temporary is tracked or forgotten (see {@link onTemporaryTracked}). */
const trackedListeners = new Set<(path: string, asynchronous: boolean) => void>();
const forgottenListeners = new Set<(path: string, asynchronous: boolean) => void>();

/** Options of {@link trackTemporary}. */
export interface TrackTemporaryOptions {
  /**
   * True when the writer yields to the event loop (awaits) while the temporary exists, so that a
   * signal handler can run during the writing; false (the default) when the writing is
   * synchronous from the temporary's creation to its rename. A command line handles an
   * interruption only during asynchronous writing: during synchronous work a handler could run
   * only once that work is over (see `cli/interrupt.ts`).
   */
  readonly asynchronous?: boolean;
}

/**
 * Records that this process is writing the temporary file or folder `path`, until the returned
 * function is called (when it was renamed into place or removed; calling it again does nothing).
 * @returns the function that forgets `path`
 */
export function trackTemporary(path: string, options: TrackTemporaryOptions = {}): () => void {
  const asynchronous = options.asynchronous === true;
  live.add(path);
  for (const listener of [...trackedListeners]) listener(path, asynchronous);
  let forgotten = false;
  return () => {
    if (forgotten) return;
    forgotten = true;
    live.delete(path);
    for (const listener of [...forgottenListeners]) listener(path, asynchronous);
  };
}

/** The temporaries this process is writing, in the order they were tracked. */
export function trackedTemporaries(): readonly string[] {
  return [...live];
}

/**
 * Calls `listener` whenever a temporary is tracked, with whether it is written asynchronously
 * (a command line installs its interruption handlers for asynchronous writing: see `cli/interrupt.ts`).
 * @returns the function that stops the calls
 */
export function onTemporaryTracked(listener: (path: string, asynchronous: boolean) => void): () => void {
  trackedListeners.add(listener);
  return () => {
    trackedListeners.delete(listener);
  };
}

/**
 * Calls `listener` whenever a tracked temporary is forgotten (renamed into place or removed), with
 * whether it was written asynchronously.
 * @returns the function that stops the calls
 */
export function onTemporaryForgotten(listener: (path: string, asynchronous: boolean) => void): () => void {
  forgottenListeners.add(listener);
  return () => {
    forgottenListeners.delete(listener);
  };
}

/**
 * The output a temporary name of {@link temporarySibling} stands for (`dir/.<name>.tmp-<pid>-<n>`
 * gives `dir/<name>`), or undefined for another name.
 */
export function temporaryTarget(path: string): string | undefined {
  const m = TEMPORARY_NAME.exec(basename(path));
  return m === null ? undefined : join(dirname(path), m[1]);
}

/**
 * Removes every temporary this process is writing (what an interrupted command does before it
 * exits), synchronously, never throwing: a temporary that cannot be removed is left.
 * @returns the paths removed
 */
export function removeTrackedTemporaries(): string[] {
  const removed: string[] = [];
  for (const path of [...live].reverse()) {
    try {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // why: called while exiting; the other temporaries still deserve their removal
    }
    live.delete(path);
  }
  return removed;
}

/** A temporary name of an atomic writer: the target's name, the kind, the writer's pid and a counter. */
const TEMPORARY_NAME = /^\.(.+)\.(?:tmp|old)-(\d+)(?:-\d+)?$/;

/**
 * Removes the temporaries that writers of `target` left beside it (`.<name>.tmp-<pid>[-<n>]` and
 * `.<name>.old-<pid>[-<n>]`) when their process no longer exists: a writer killed during
 * synchronous writing (Ctrl-C, kill, kill -9) or a power cut. A temporary of a live process (this one, another
 * run writing the same output) is left alone, as is every other name. Never throws.
 *
 * The pid is checked on this host: on a file system shared between hosts, a writer on another
 * host whose pid is free here would look dead, so writers on several hosts must not write the
 * same output path at once (they would replace each other's output anyway).
 * @returns the paths removed
 */
export function removeStaleTemporaries(target: string): string[] {
  const parent = dirname(target);
  const name = basename(target);
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return []; // why: a missing or unreadable folder holds nothing to remove
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const m = TEMPORARY_NAME.exec(entry);
    if (m === null || m[1] !== name || processExists(Number(m[2]))) continue;
    const path = join(parent, entry);
    try {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // why: another process may be removing it too; what is left is found next time
    }
  }
  return removed;
}

/** True when a process with id `pid` exists on this host (whoever owns it). */
export function processExists(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by another user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
