/**
 * Telling a study database file apart from a profile or a run's folder.
 *
 * @packageDocumentation
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { extname } from "node:path";

/** Bytes 8 to 11 of a DuckDB database file (after the header block's checksum). */
const DUCKDB_MAGIC = "DUCK";

/**
 * True when `path` is a study database (a DuckDB file, as `ccasim sweep` writes it) rather than
 * a run folder or profile: a file named `.db` or `.duckdb`, or any file a DuckDB database's header
 * starts (`ccasim sweep --db` takes any name). False for what cannot be read.
 */
export function isStudyDatabase(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if ([".db", ".duckdb"].includes(extname(path).toLowerCase())) return true;
    const fd = openSync(path, "r");
    try {
      const head = Buffer.alloc(12);
      return readSync(fd, head, 0, 12, 0) === 12 && head.toString("latin1", 8, 12) === DUCKDB_MAGIC;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** The first 16 bytes of an SQLite database file. */
const SQLITE_MAGIC = "SQLite format 3\u0000";

/**
 * True when `path` is an SQLite database (by its header), which DuckDB would open only through its
 * SQLite extension, downloading it first. False for what cannot be read.
 */
export function isSqliteFile(path: string): boolean {
  try {
    const fd = openSync(path, "r");
    try {
      const head = Buffer.alloc(16);
      return readSync(fd, head, 0, 16, 0) === 16 && head.toString("latin1") === SQLITE_MAGIC;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
