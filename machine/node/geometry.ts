/**
 * Resolved geometry of one cache level (or of the TLB seen as a cache of pages): the numbers the
 * miss engines need, computed once per machine.
 *
 * @packageDocumentation
 */
import type { CacheLevelConfig, TlbConfig } from "./config.js";
import { isPowerOfTwo } from "./modular.js";

/**
 * Geometry of a set-associative LRU cache. All sizes in bytes; the line and the sector are powers
 * of two (as a machine configuration requires), so their reciprocals are exact. Make one with
 * {@link cacheGeometry}, {@link levelGeometry} or {@link tlbGeometry}.
 */
export interface CacheGeometry {
  /** Capacity in bytes. */
  readonly size: number;
  /** Line (tag) size in bytes, a power of two. */
  readonly line: number;
  /** Sector (fill unit) size in bytes, a power of two dividing `line`. */
  readonly sector: number;
  /** Ways per set. */
  readonly assoc: number;
  /** Number of sets (`size / (line * assoc)`). */
  readonly sets: number;
  /**
   * `1 / line`, exact (a power of two): `x * invLine` is `x / line` to the last bit. Why kept:
   * the miss model takes byte counts in lines on every evaluation, and a multiplication is several
   * times cheaper than a division.
   */
  readonly invLine: number;
  /** `1 / sector`, exact (see {@link invLine}). */
  readonly invSector: number;
}

/**
 * A cache geometry from its size, line, sector and ways (bytes; `sets` defaults to
 * `size / (line * assoc)`).
 * @throws RangeError when the line or the sector is not a power of two
 */
export function cacheGeometry(size: number, line: number, sector: number, assoc: number, sets = size / (line * assoc)): CacheGeometry {
  if (!isPowerOfTwo(line) || !isPowerOfTwo(sector)) throw new RangeError(`cache line (${line} B) and sector (${sector} B) must be powers of two`);
  return { size, line, sector, assoc, sets, invLine: 1 / line, invSector: 1 / sector };
}

/** Geometry of a cache level. */
export function levelGeometry(c: CacheLevelConfig): CacheGeometry {
  return cacheGeometry(c.size, c.line, c.sector ?? c.line, c.assoc);
}

/** The TLB as a fully associative LRU cache whose lines are pages. */
export function tlbGeometry(t: TlbConfig): CacheGeometry {
  return cacheGeometry(t.entries * t.pageSize, t.pageSize, t.pageSize, t.entries, 1);
}
