/**
 * Folders a writer that replaces its output folder whole must never replace.
 *
 * @packageDocumentation
 */
import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";

/**
 * True when `dir` is the working directory or one of its ancestors (an empty path is the working
 * directory). Compared by real paths too, so a path through a symbolic link or with `..` is
 * recognised.
 */
export function holdsWorkingDirectory(dir: string): boolean {
  const within = (outer: string, inner: string) => inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
  if (within(resolve(dir), process.cwd())) return true;
  try {
    return within(realpathSync(dir), realpathSync(process.cwd()));
  } catch {
    return false; // why: a path that cannot be resolved is not the working directory's
  }
}
