/**
 * A CUBE4 metric's stored values: `<id>.index` lists the call nodes that have values (as positions
 * in an enumeration of the call tree, see {@link cnodeEnumeration}) and `<id>.data` holds, for
 * each, one value per location (thread), in the metric's data type, optionally zlib-compressed
 * per call node. Layout as CubeLib writes it and pycubexr reads it:
 *
 * ```
 * <id>.index: "CUBEX.INDEX", int32 1 (its byte order is the files'), int16 version, byte index format,
 *             then for a sparse index (format 1): int32 n, n x int32 position;
 *             a dense index (format 3, CubeLib's C++ writer, for inclusive metrics) ends there:
 *             every call node has values, n is the number of call nodes and position i is i
 * <id>.data:  "CUBEX.DATA", n x L values
 *         or  "ZCUBEX.DATA", int64 n, n x (int64 position, int64 compressed position, int64 size),
 *             n zlib streams that inflate to the same n x L values
 * ```
 *
 * @packageDocumentation
 */
import { inflateSync } from "node:zlib";
import type { CubeCnode } from "./anchor.js";

/** A metric's data that cannot be read: what is wrong, in which member. */
export class CubeDataError extends Error {
  constructor(
    /** The archive member (`1.index`, `1.data`). */
    readonly member: string,
    /** What is wrong. */
    readonly detail: string,
  ) {
    super(`${member}: ${detail}`);
    this.name = "CubeDataError";
  }
}

/** Data types whose values add up along the call tree and across threads, with their size (bytes) and reader. */
const ADDITIVE_TYPES: Readonly<Record<string, readonly [number, (v: DataView, at: number, little: boolean) => number]>> = {
  DOUBLE: [8, (v, at, le) => v.getFloat64(at, le)],
  // CubeLib stores FLOAT as 8 bytes (pycubexr reads it as float64).
  FLOAT: [8, (v, at, le) => v.getFloat64(at, le)],
  CHAR: [1, (v, at) => v.getUint8(at)],
  INT8: [1, (v, at) => v.getInt8(at)],
  UINT8: [1, (v, at) => v.getUint8(at)],
  INT16: [2, (v, at, le) => v.getInt16(at, le)],
  "SHORT INT": [2, (v, at, le) => v.getInt16(at, le)],
  "SIGNED SHORT INT": [2, (v, at, le) => v.getInt16(at, le)],
  UINT16: [2, (v, at, le) => v.getUint16(at, le)],
  "UNSIGNED SHORT INT": [2, (v, at, le) => v.getUint16(at, le)],
  INT: [4, (v, at, le) => v.getInt32(at, le)],
  INT32: [4, (v, at, le) => v.getInt32(at, le)],
  "SIGNED INT": [4, (v, at, le) => v.getInt32(at, le)],
  UINT32: [4, (v, at, le) => v.getUint32(at, le)],
  "UNSIGNED INT": [4, (v, at, le) => v.getUint32(at, le)],
  INT64: [8, (v, at, le) => Number(v.getBigInt64(at, le))],
  INTEGER: [8, (v, at, le) => Number(v.getBigInt64(at, le))],
  "SIGNED INTEGER": [8, (v, at, le) => Number(v.getBigInt64(at, le))],
  UINT64: [8, readUint64],
  "UNSIGNED INTEGER": [8, readUint64],
};

/**
 * The largest unsigned 64-bit count CubeLib keeps: it converts counts to doubles and back, and a
 * count above this (a hardware counter's negative difference, wrapped) rounds to 2^64, which
 * converts back to 0.
 */
const MAX_UINT64_DOUBLE = 0xffff_ffff_ffff_fbffn;

function readUint64(v: DataView, at: number, little: boolean): number {
  const x = v.getBigUint64(at, little);
  return x > MAX_UINT64_DOUBLE ? 0 : Number(x);
}

/** The index format byte of a dense index (CubeLib's `CUBE_INDEX_FORMAT_DENSE`): values for every call node, no positions. */
const DENSE_INDEX = 3;

/** The unsigned integer data types: a count of one of them is never negative. */
const UNSIGNED_TYPES = new Set(["CHAR", "UINT8", "UINT16", "UNSIGNED SHORT INT", "UINT32", "UNSIGNED INT", "UINT64", "UNSIGNED INTEGER"]);

/**
 * Whether values of data type `dtype` are unsigned integers. An exclusive value derived from them
 * (a node's inclusive minus its children's) that would be negative is 0, as CubeLib's unsigned
 * arithmetic cannot hold it and pycubexr has it: a hardware counter's wrapped difference, read as
 * 0, leaves a node's inclusive count below its children's.
 */
export function isUnsignedType(dtype: string): boolean {
  return UNSIGNED_TYPES.has(dtype.trim().toUpperCase());
}

/** Whether values of data type `dtype` are read (they add up: not MINDOUBLE, MAXDOUBLE, histograms, ...). */
export function isAdditiveType(dtype: string): boolean {
  return Object.hasOwn(ADDITIVE_TYPES, dtype.trim().toUpperCase());
}

/**
 * The call nodes in the order a metric's index positions count them: depth-first preorder for an
 * exclusive metric; for an inclusive one, each node's children listed when it is reached, then
 * their subtrees in order (CubeLib's enumeration, as pycubexr reproduces it).
 */
export function cnodeEnumeration(roots: readonly CubeCnode[], inclusive: boolean): CubeCnode[] {
  const out: CubeCnode[] = [];
  if (!inclusive) {
    const stack = [...roots].reverse();
    while (stack.length > 0) {
      const node = stack.pop()!;
      out.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
    return out;
  }
  for (const root of roots) {
    out.push(root);
    const stack = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      for (const c of node.children) out.push(c);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
  return out;
}

/**
 * The values of one metric: per call node id, its `locations` values (absent: none stored, 0).
 * @param order - the enumeration the index positions refer to ({@link cnodeEnumeration})
 * @throws CubeDataError naming the member of what is malformed
 */
export function readMetricValues(name: string, index: Uint8Array, data: Uint8Array, dtype: string, locations: number, order: readonly CubeCnode[]): Map<number, Float64Array> {
  const indexName = `${name}.index`;
  const dataName = `${name}.data`;
  const type = ADDITIVE_TYPES[dtype.trim().toUpperCase()];
  if (type === undefined) throw new CubeDataError(dataName, `values of data type '${dtype}' are not read`);
  const [size, read] = type;
  if (!startsWith(index, "CUBEX.INDEX") || index.length < 18) throw new CubeDataError(indexName, "no CUBEX.INDEX header");
  const iv = new DataView(index.buffer, index.byteOffset, index.byteLength);
  // The int32 1 after the header gives the byte order of both files.
  const little = iv.getInt32(11, true) === 1;
  if (!little && iv.getInt32(11, false) !== 1) throw new CubeDataError(indexName, "the byte-order mark is not 1 in either order");
  let positions: Int32Array;
  if (index[17] === DENSE_INDEX) {
    if (index.length !== 18) throw new CubeDataError(indexName, `a dense index (format 3) of ${index.length} bytes, where its header's 18 belong`);
    positions = Int32Array.from(order, (_, i) => i);
  } else {
    if (index.length < 22) throw new CubeDataError(indexName, "the index ends in its header");
    const n = iv.getInt32(18, little);
    if (n < 0 || 22 + 4 * n !== index.length) throw new CubeDataError(indexName, `${n} positions do not fill its ${index.length} bytes`);
    positions = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const p = iv.getInt32(22 + 4 * i, little);
      if (p < 0 || p >= order.length) throw new CubeDataError(indexName, `position ${p} is outside the call tree's ${order.length} nodes`);
      positions[i] = p;
    }
  }
  const n = positions.length;
  const raw = dataBytes(dataName, data, little, n);
  const expected = n * locations * size;
  if (raw.length !== expected) throw new CubeDataError(dataName, `${raw.length} bytes of values where ${n} call nodes x ${locations} locations x ${size} bytes (${expected}) belong`);
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const out = new Map<number, Float64Array>();
  for (let i = 0; i < n; i++) {
    const row = new Float64Array(locations);
    for (let l = 0; l < locations; l++) {
      const v = read(dv, (i * locations + l) * size, little);
      if (!Number.isFinite(v)) throw new CubeDataError(dataName, `the value of call node ${order[positions[i]].id} at location ${l} is ${v}, not a finite number`);
      row[l] = v;
    }
    out.set(order[positions[i]].id, row);
  }
  return out;
}

/** The values' bytes of a data member, inflated when compressed. */
function dataBytes(member: string, data: Uint8Array, little: boolean, n: number): Uint8Array {
  if (startsWith(data, "CUBEX.DATA")) return data.subarray(10);
  if (!startsWith(data, "ZCUBEX.DATA")) throw new CubeDataError(member, "no CUBEX.DATA or ZCUBEX.DATA header");
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length < 19) throw new CubeDataError(member, "the compressed data ends in its header");
  const segments = Number(dv.getBigInt64(11, little));
  if (segments !== n) throw new CubeDataError(member, `${segments} compressed segments for ${n} call nodes`);
  let at = 19 + 24 * segments;
  if (at > data.length) throw new CubeDataError(member, "the compressed data ends in its segment headers");
  const parts: Buffer[] = [];
  for (let s = 0; s < segments; s++) {
    const bytes = Number(dv.getBigInt64(19 + 24 * s + 16, little));
    if (bytes === 0) continue;
    if (bytes < 0 || at + bytes > data.length) throw new CubeDataError(member, `segment ${s} of ${bytes} bytes runs past the end`);
    try {
      parts.push(inflateSync(data.subarray(at, at + bytes)));
    } catch (e) {
      throw new CubeDataError(member, `segment ${s} is not zlib data: ${(e as Error).message}`);
    }
    at += bytes;
  }
  return Buffer.concat(parts);
}

function startsWith(b: Uint8Array, text: string): boolean {
  if (b.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[i] !== text.charCodeAt(i)) return false;
  return true;
}
