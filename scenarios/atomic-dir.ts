import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/**
 * Fills a directory atomically: `fill` writes into a temporary sibling, which replaces `dir` only
 * when `fill` returns. When `fill` throws, the temporary directory is removed and `dir` is left
 * as it was, so a failed run never leaves a half-written output folder; the error's message names
 * the files by their place in `dir` (the temporary directory is gone by then). The folder gets the
 * permissions a plain `mkdir` would give it (0777 less the umask), not the temporary directory's 0700.
 * @returns the absolute path of `dir`
 */
export function writeDirectoryAtomically(dir: string, fill: (tmp: string) => void): string {
  const target = resolve(dir);
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const tmp = mkdtempSync(join(parent, `.${basename(target)}.tmp-`));
  try {
    fill(tmp);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw renamed(e, tmp, target);
  }
  if (existsSync(target)) {
    const old = mkdtempSync(join(parent, `.${basename(target)}.old-`));
    rmSync(old, { recursive: true, force: true });
    renameSync(target, old);
    renameSync(tmp, target);
    rmSync(old, { recursive: true, force: true });
  } else renameSync(tmp, target);
  // why: mkdtemp creates 0700 whatever the umask; a shared output folder must read like any other
  chmodSync(target, 0o777 & ~process.umask());
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
