import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { makeOutputFolder } from "./output-folder.js";
import { ProfileError } from "./errors.js";
import { removeStaleTemporaries, temporarySibling, trackTemporary } from "./temporary-files.js";
import { fileErrorText } from "./file-error.js";

/**
 * Characters a writer collects into a piece before handing it to {@link writeTextFileAtomically}.
 * Why this small: a piece is a rope of row strings that is flattened and encoded when written; at
 * 64 Ki characters that stays in cache and dies young (writing the records of a 1024-rank
 * known-models run took about half the time it took with pieces of 4 Mi characters).
 */
export const TEXT_PIECE_CHARS = 1 << 16;

/**
 * Writes a text file (UTF-8; or bytes, handed as such) piece by piece, atomically: `fill` hands pieces to `write`, each
 * written at once to a temporary sibling of `path`, which replaces `path` only when `fill` returns.
 * When anything fails the temporary file is removed and `path` is left as it was. Each piece is
 * one write, so pieces of tens of kilobytes or more keep the number of writes small while the
 * memory stays small; a file may be far larger than the longest string JavaScript can hold.
 * While it exists the temporary file is tracked (`trackTemporary`, as synchronous writing: a
 * signal's default action ends the process during it, leaving the temporary); the temporary
 * siblings of `path` that killed processes left are removed first.
 * @throws ProfileError naming `path` when the file cannot be written; whatever `fill` throws, as it is
 */
export function writeTextFileAtomically(path: string, fill: (write: (piece: string | Uint8Array) => void) => void): void {
  const fail = (e: unknown): ProfileError => new ProfileError(`cannot write '${path}': ${fileErrorText(e)}`);
  removeStaleTemporaries(path);
  const tmp = temporarySibling(path);
  let fd: number;
  // A missing folder is made, as for every output (checkOutputPath has checked it can be), and
  // removed again if the file is not written.
  let unmake = (): void => {};
  try {
    unmake = makeOutputFolder(path);
    fd = openSync(tmp, "w");
  } catch (e) {
    unmake();
    throw fail(e);
  }
  const untrack = trackTemporary(tmp);
  let open = true;
  try {
    fill((piece) => {
      // Text is written as UTF-8; bytes (a binary format's) as they are.
      const bytes = typeof piece === "string" ? Buffer.from(piece, "utf8") : piece;
      try {
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      } catch (e) {
        throw fail(e);
      }
    });
    open = false;
    try {
      closeSync(fd);
      renameSync(tmp, path);
    } catch (e) {
      throw fail(e);
    }
  } catch (e) {
    if (open) closeQuietly(fd);
    rmSync(tmp, { force: true });
    unmake();
    throw e;
  } finally {
    untrack();
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // The first error is the one to report.
  }
}
