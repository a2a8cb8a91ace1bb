/**
 * The folder an output goes into, made when missing, and removed again when the output fails:
 * a failed command leaves the file system as it found it.
 *
 * @packageDocumentation
 */
import { existsSync, mkdirSync, rmdirSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Makes the missing folders on the way to the file `path` and returns what undoes it: the removal
 * of the folders made here, deepest first, each only while it is empty.
 * @throws what `mkdirSync` throws when a folder cannot be made
 */
export function makeOutputFolder(path: string): () => void {
  const made: string[] = [];
  for (let dir = dirname(resolve(path)); !existsSync(dir); dir = dirname(dir)) {
    made.push(dir);
    if (dirname(dir) === dir) break;
  }
  mkdirSync(dirname(resolve(path)), { recursive: true });
  return () => {
    for (const dir of made) {
      try {
        rmdirSync(dir);
      } catch {
        return; // why: not empty (another writer's file): it and its parents stay
      }
    }
  };
}
