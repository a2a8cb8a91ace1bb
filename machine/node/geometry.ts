/**
 * Resolved geometry of one cache level (or of the TLB seen as a cache of pages): the numbers the
 * miss engines need, computed once per machine.
 *
 * @packageDocumentation
 */
import type { CacheLevelConfig, TlbConfig } from "./config.js";

/** Geometry of a set-associative LRU cache. All sizes in bytes. */
export interface CacheGeometry {
  /** Capacity in bytes. */
  readonly size: number;
  /** Line (tag) size in bytes. */
  readonly line: number;
  /** Sector (fill unit) size in bytes; divides `line`. */
  readonly sector: number;
  /** Ways per set. */
  readonly assoc: number;
  /** Number of sets (`size / (line * assoc)`). */
  readonly sets: number;
}

/** Geometry of a cache level. */
export function levelGeometry(c: CacheLevelConfig): CacheGeometry {
  const sector = c.sector ?? c.line;
  return { size: c.size, line: c.line, sector, assoc: c.assoc, sets: c.size / (c.line * c.assoc) };
}

/** The TLB as a fully associative LRU cache whose lines are pages. */
export function tlbGeometry(t: TlbConfig): CacheGeometry {
  return { size: t.entries * t.pageSize, line: t.pageSize, sector: t.pageSize, assoc: t.entries, sets: 1 };
}
