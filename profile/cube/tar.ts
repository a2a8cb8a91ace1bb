/**
 * The regular files of a tar archive (POSIX ustar, with GNU long names and pax `path` records),
 * the container of CUBE4 `.cubex` files. Checksums are not verified: CubeLib 4.8 wrote some wrong,
 * and the files are read whole (a damaged member shows as a member of the wrong length).
 *
 * @packageDocumentation
 */

/** A tar archive that cannot be read: what is wrong, and at which byte. */
export class TarError extends Error {
  constructor(
    /** What is wrong. */
    readonly detail: string,
    /** Byte offset of the header at fault in the (inflated) archive. */
    readonly offset: number,
  ) {
    super(`${detail} (byte ${offset})`);
    this.name = "TarError";
  }
}

const BLOCK = 512;

/** The text of a NUL-terminated header field. */
function field(b: Uint8Array, from: number, length: number): string {
  let end = from;
  while (end < from + length && b[end] !== 0) end++;
  return Buffer.from(b.buffer, b.byteOffset + from, end - from).toString("utf8");
}

/** A header's octal number field (GNU base-256 for large sizes included). */
function octal(b: Uint8Array, from: number, length: number, at: number): number {
  if (b[from] & 0x80) {
    // Base-256: the remaining bits big-endian.
    let v = b[from] & 0x7f;
    for (let i = from + 1; i < from + length; i++) v = v * 256 + b[i];
    return v;
  }
  const text = field(b, from, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new TarError(`a header holds '${text}' where an octal number belongs`, at);
  return text === "" ? 0 : parseInt(text, 8);
}

/**
 * The regular files of archive `bytes`, by name (a later member of one name replaces an earlier
 * one, as extraction does).
 * @throws TarError for a header or member that runs past the end of the data
 */
export function tarMembers(bytes: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let at = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  while (at + BLOCK <= bytes.length) {
    const h = bytes.subarray(at, at + BLOCK);
    // Two zero blocks end the archive; one is enough to stop.
    if (h.every((x) => x === 0)) break;
    const size = octal(h, 124, 12, at + 124);
    const type = String.fromCharCode(h[156] || 0x30);
    const dataAt = at + BLOCK;
    if (dataAt + size > bytes.length) throw new TarError(`member '${field(h, 0, 100)}' of ${size} bytes runs past the end of the archive (${bytes.length} bytes)`, at);
    const data = bytes.subarray(dataAt, dataAt + size);
    const magic = field(h, 257, 6);
    const prefix = magic === "ustar" ? field(h, 345, 155) : "";
    const name = paxPath ?? longName ?? (prefix === "" ? field(h, 0, 100) : `${prefix}/${field(h, 0, 100)}`);
    if (type === "L") longName = field(data, 0, data.length);
    else if (type === "x") paxPath = paxRecord(data, "path");
    else {
      if (type === "0" || type === "7") out.set(name.replace(/^\.\//, ""), data);
      longName = undefined;
      paxPath = undefined;
    }
    at = dataAt + Math.ceil(size / BLOCK) * BLOCK;
  }
  return out;
}

/** The value of `key` in a pax extended header (`<length> <key>=<value>\n` records). */
function paxRecord(data: Uint8Array, key: string): string | undefined {
  const text = Buffer.from(data).toString("utf8");
  for (const line of text.split("\n")) {
    const m = /^\d+ ([^=]+)=(.*)$/.exec(line);
    if (m && m[1] === key) return m[2];
  }
  return undefined;
}
