/**
 * The temporary siblings of atomic writers (`.<name>.tmp-<pid>-<n>` beside `<name>`, renamed onto
 * it when finished): their names, the registry of those this process is writing (so that an
 * interrupted command can remove them before it exits), and the removal of those that processes
 * which no longer exist left behind (a `kill -9`, a power cut).
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

/** Who is told when a temporary is tracked (see {@link onTemporaryTracked}). */
const listeners = new Set<(path: string) => void>();

/**
 * Records that this process is writing the temporary file or folder `path`, until the returned
 * function is called (when it was renamed into place or removed).
 * @returns the function that forgets `path`
 */
export function trackTemporary(path: string): () => void {
  live.add(path);
  for (const listener of listeners) listener(path);
  return () => {
    live.delete(path);
  };
}

/** The temporaries this process is writing, in the order they were tracked. */
export function trackedTemporaries(): readonly string[] {
  return [...live];
}

/**
 * Calls `listener` whenever a temporary is tracked (a command line installs its interruption
 * handlers then, and not before: see `cli/interrupt.ts`).
 * @returns the function that stops the calls
 */
export function onTemporaryTracked(listener: (path: string) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
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
 * `.<name>.old-<pid>[-<n>]`) when their process no longer exists: a writer killed with SIGKILL,
 * or one before interruptions were cleaned up. A temporary of a live process (this one, another
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
