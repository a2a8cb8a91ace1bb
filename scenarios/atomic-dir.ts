import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { holdsWorkingDirectory, makeOutputFolder, removeStaleTemporaries, temporarySibling, trackTemporary } from "../profile/index.js";

/**
 * Makes a new, empty temporary sibling folder of `target` (see `temporarySibling`) with a plain
 * `mkdir`: the permissions and group a folder made there would get (the umask, a setgid parent's
 * group), which the finished folder keeps. Why not `mkdtemp`: it makes 0700 folders whatever the umask.
 */
function makeSibling(target: string, kind: "tmp" | "old"): string {
  for (;;) {
    const path = temporarySibling(target, kind);
    try {
      mkdirSync(path, { mode: 0o777 });
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
}

/**
 * Fills a directory atomically: `fill` writes into a temporary sibling, which replaces `dir` only
 * when `fill` returns. When `fill` throws, the temporary directory is removed and `dir` is left
 * as it was, so a failed run never leaves a half-written output folder; the error's message names
 * the files by their place in `dir` (the temporary directory is gone by then). The folder gets the
 * permissions and group a plain `mkdir` would give it. While it exists, the temporary directory
 * is tracked (`trackTemporary`, as synchronous writing: a signal's default action ends the process
 * during it, leaving the temporary); the temporary siblings of `dir` that killed processes left
 * are removed first (`removeStaleTemporaries`).
 * @returns the absolute path of `dir`
 * @throws Error (an input error) when `dir` is empty, or the working directory or one of its
 *   ancestors, which are never replaced
 */
export function writeDirectoryAtomically(dir: string, fill: (tmp: string) => void): string {
  if (dir.trim() === "") throw Object.assign(new Error("refusing to write a folder at an empty path"), { isInputError: true });
  if (holdsWorkingDirectory(dir)) {
    throw Object.assign(new Error(`refusing to replace '${dir}' (${resolve(dir)}): it is the working directory or one of its ancestors`), { isInputError: true });
  }
  const target = resolve(dir);
  // The parent is made as every output's is, and removed again when the folder is not written.
  const unmake = makeOutputFolder(target);
  removeStaleTemporaries(target);
  const tmp = makeSibling(target, "tmp");
  const untrack = trackTemporary(tmp);
  try {
    try {
      fill(tmp);
    } catch (e) {
      rmSync(tmp, { recursive: true, force: true });
      unmake();
      throw renamed(e, tmp, target);
    }
    if (existsSync(target)) {
      const old = makeSibling(target, "old");
      rmSync(old, { recursive: true, force: true });
      renameSync(target, old);
      renameSync(tmp, target);
      // why: from here the output is whole; an interruption may leave `old`, which the next writer removes
      rmSync(old, { recursive: true, force: true });
    } else renameSync(tmp, target);
  } finally {
    untrack();
  }
  return target;
}

/**
 * `e` with the temporary folder's path replaced by the output folder's in its message and in its
 * `file` and `path` fields (an input error's file, a system error's path), where those can be
 * written; anything else is left as it is, so the original error is never lost.
 */
function renamed(e: unknown, tmp: string, target: string): unknown {
  if (!(e instanceof Error)) return e;
  const fields = e as unknown as Record<string, unknown>;
  for (const key of ["message", "file", "path"]) {
    const v = fields[key];
    if (typeof v !== "string" || !v.includes(tmp)) continue;
    try {
      fields[key] = v.split(tmp).join(target);
    } catch {
      // A frozen error or a read-only field keeps its text: the error itself matters more.
    }
  }
  return e;
}
