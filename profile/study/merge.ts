/**
 * Merging the shard databases of a sliced sweep (a Slurm job array) into one study: every shard is
 * checked before the study is created or changed, and each shard merges in one transaction (a
 * failure past the checks keeps the shards merged before it; merging again completes the study).
 *
 * @packageDocumentation
 */
import { existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { checkOutputPath } from "../protected-paths.js";
import { StudyStore } from "./store.js";
import { StudyError } from "./study-error.js";
import { META_TABLE } from "./schema.js";

/** What merging one shard did. */
export interface ShardMerged {
  /** The shard as given. */
  readonly shard: string;
  /** Points of the shard the study lacked, now added. */
  readonly added: number;
  /** Points of the shard the study already held. */
  readonly skipped: number;
}

/** What {@link mergeShards} did. */
export interface MergeResult {
  /** Each shard, in the order given. */
  readonly shards: readonly ShardMerged[];
  /** Points in the study after the merge. */
  readonly total: number;
}

/**
 * Adds the points of every shard that the study at `target` lacks (idempotent), creating the study
 * when it is missing. Before anything is written, each shard must open as a study database and all
 * must belong to one study (one study hash), that of `target` when it holds one; a study this call
 * created is removed again when the merge fails, so a failure leaves no new file.
 * @throws StudyError naming the shard that is missing, unreadable or of another study
 */
export async function mergeShards(target: string, shards: readonly string[]): Promise<MergeResult> {
  const hashes = new Map<string, string>(); // study hash -> the first file that has it
  if (existsSync(resolve(target))) {
    const hash = await studyHashOf(target);
    if (hash !== undefined) hashes.set(hash, target);
  }
  for (const shard of shards) {
    if (!existsSync(resolve(shard))) throw new StudyError(`${shard}: no such shard database`);
    if (resolve(shard) === resolve(target)) throw new StudyError(`${shard}: is the study merged into; give the shards of another file`);
    const hash = await studyHashOf(shard);
    if (hash === undefined) continue;
    const other = [...hashes].find(([h]) => h !== hash);
    if (other !== undefined) throw new StudyError(`${shard}: belongs to another study than ${other[1]} (study hash ${hash}, not ${other[0]}); nothing was merged`);
    hashes.set(hash, hashes.get(hash) ?? shard);
  }
  // Shards are read, not replaced (merging into one is refused above): only where the study goes matters.
  checkOutputPath(target, "study database");
  const created = !existsSync(resolve(target));
  const store = await StudyStore.open(target, { create: true });
  let ok = false;
  try {
    const merged: ShardMerged[] = [];
    for (const shard of shards) merged.push({ shard, ...(await store.mergeShard(shard)) });
    const total = (await store.storedPointIds()).size;
    ok = true;
    return { shards: merged, total };
  } finally {
    store.close();
    if (!ok && created) for (const f of [target, `${target}.wal`]) rmSync(resolve(f), { force: true });
  }
}

/**
 * The study hash a study database records, or undefined when it records none (an empty study).
 * @throws StudyError when `file` is a DuckDB database with tables but no study's metadata
 */
async function studyHashOf(file: string): Promise<string | undefined> {
  const store = await StudyStore.open(file, { readOnly: true });
  try {
    const tables = await store.tableNames();
    if (tables.length === 0) return undefined;
    if (!tables.includes(META_TABLE.name)) throw new StudyError(`${file}: a DuckDB database that is not a study database (it has the table${tables.length === 1 ? "" : "s"} ${tables.join(", ")}); nothing was merged`);
    return (await store.meta()).get("study_hash");
  } finally {
    store.close();
  }
}
