/**
 * Input files of the binary and compressed formats, read whole, and input that may be
 * gzip-compressed (`.ppk` files, TAU XML profiles, CUBE4 archives and their `anchor.xml`),
 * inflated when it is, with the readers' errors.
 *
 * @packageDocumentation
 */
import { constants } from "node:buffer";
import { readFileSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { ProfileError, ProfileFormatError } from "./errors.js";
import { fileErrorText } from "./file-error.js";

/** Whether input `path` is a directory (else a file). @throws ProfileError naming it when it cannot be read */
export function inputIsDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (e) {
    throw new ProfileError(`cannot read '${path}': ${fileErrorText(e)}`);
  }
}

/** The bytes of input file `path`. @throws ProfileError naming it when it cannot be read */
export function readInputBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new ProfileError(`cannot read '${path}': ${fileErrorText(e)}`);
  }
}

/** Whether `bytes` start with gzip's magic number. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * `bytes` inflated when they are gzip, else as they are.
 * @param file - the input as messages name it
 * @throws ProfileFormatError for corrupt gzip data, or data that inflates beyond a buffer's size
 */
export function inflatedInput(bytes: Uint8Array, file: string): Uint8Array {
  if (!isGzip(bytes)) return bytes;
  try {
    return gunzipSync(bytes);
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new ProfileFormatError(file, undefined, `decompresses to more than ${constants.MAX_LENGTH} bytes, more than this reader can hold`);
    throw new ProfileFormatError(file, undefined, `corrupt gzip data: ${(e as Error).message}`);
  }
}
