import { createHash } from "node:crypto";
import { STUDY_TABLES } from "./schema.js";
import type { StudyStore } from "./store.js";

/**
 * A digest of every deterministic table of a study (rows in canonical order; `timing` and
 * `study_meta` left out): two studies with equal digests hold the same results.
 * @returns SHA-256 (hex) per table and its row count
 */
export async function studyDigest(store: StudyStore): Promise<Record<string, { rows: number; sha256: string }>> {
  const out: Record<string, { rows: number; sha256: string }> = {};
  for (const t of STUDY_TABLES) {
    const r = await store.query(`SELECT * FROM "${t.name}" ORDER BY ${t.orderBy.map((c) => `"${c}"`).join(", ")}`);
    const h = createHash("sha256");
    for (const row of r.rows) h.update(JSON.stringify(row, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) + "\n");
    out[t.name] = { rows: r.rows.length, sha256: h.digest("hex") };
  }
  return out;
}
