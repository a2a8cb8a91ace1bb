import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/**
 * Fills a directory atomically: `fill` writes into a temporary sibling, which replaces `dir` only
 * when `fill` returns. When `fill` throws, the temporary directory is removed and `dir` is left
 * as it was, so a failed run never leaves a half-written output folder; the error's message names
 * the files by their place in `dir` (the temporary directory is gone by then).
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
    if (e instanceof Error) e.message = e.message.split(tmp).join(target);
    throw e;
  }
  if (existsSync(target)) {
    const old = mkdtempSync(join(parent, `.${basename(target)}.old-`));
    rmSync(old, { recursive: true, force: true });
    renameSync(target, old);
    renameSync(tmp, target);
    rmSync(old, { recursive: true, force: true });
  } else renameSync(tmp, target);
  return target;
}
