import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { StudyError } from "../../profile/study/index.js";
import type { Sweep } from "./load-sweep.js";

/** Options of {@link slurmArrayScript}. */
export interface SlurmOptions {
  /** Array tasks (slices); default min(points, 16). */
  readonly tasks?: number;
  /** Folder of the shard databases (default {@link slurmShardFolder} of `db`). It must exist before `sbatch`. */
  readonly shardDir?: string;
  /** The study database the shards merge into (named in the printed merge command). */
  readonly db: string;
  /** How to invoke ccasim on the nodes (default `node <this build's cli/main.js>`, absolute). */
  readonly ccasim?: string;
  /** Worker threads per task (`--cpus-per-task`, default 1). */
  readonly jobs?: number;
  /** Working directory of the tasks (default the current one). */
  readonly workdir?: string;
  /** Optional `--partition` and `--time`. */
  readonly partition?: string;
  readonly time?: string;
}

/**
 * The default folder of a study's shard databases, beside the study: its path without the
 * extension `.db` or `.duckdb`, then `-shards` (`out/sl.db` -> `out/sl-shards`; a path without
 * either extension just gets `-shards`).
 */
export function slurmShardFolder(db: string): string {
  return `${db.replace(/\.(?:db|duckdb)$/i, "")}-shards`;
}

/**
 * `node '<cli/main.js>'` of this build (from TypeScript sources, tests: of the build under
 * `dist/`), the path quoted for the shell: an installation under a folder with a space in its
 * name is one word.
 */
function builtCommand(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const sibling = resolve(here, "..", "..", "cli", "main.js");
  return `node ${q(existsSync(sibling) ? sibling : resolve(here, "..", "..", "dist", "cli", "main.js"))}`;
}

function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A Slurm job-array script: task i of n runs `ccasim sweep <file> --slice i/n` into its own shard
 * database (resuming, so a requeued task finishes its slice without redoing it). Merge the shards
 * afterwards with `ccasim sweep merge <study.db> <shards>/shard-*.db`. Create the shard folder
 * before submitting the script: Slurm opens the tasks' output files there before they run.
 * @throws StudyError when `tasks` or `jobs` is given and is not an integer >= 1
 */
export function slurmArrayScript(sweep: Sweep, options: SlurmOptions): string {
  // why: the numbers are written into the script as they are; 1.5 would give `--array=0-0.5` and
  // `--cpus-per-task=1.5`, which sbatch refuses, and 0 tasks would be taken as 1 unsaid
  for (const key of ["tasks", "jobs"] as const) {
    const v = options[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw new StudyError(`${key} must be an integer >= 1, got ${v}`);
  }
  const ccasim = options.ccasim ?? builtCommand();
  const n = Math.max(1, Math.min(options.tasks ?? Math.min(sweep.points.length, 16), sweep.points.length));
  const jobs = Math.max(1, options.jobs ?? 1);
  const shards = resolve(options.workdir ?? ".", options.shardDir ?? slurmShardFolder(options.db));
  const lines = [
    "#!/bin/bash",
    `#SBATCH --job-name=ccasim-${sweep.name}`,
    `#SBATCH --array=0-${n - 1}`,
    `#SBATCH --cpus-per-task=${jobs}`,
    `#SBATCH --output=${shards}/slurm-%A_%a.out`,
    ...(options.partition ? [`#SBATCH --partition=${options.partition}`] : []),
    ...(options.time ? [`#SBATCH --time=${options.time}`] : []),
    `# ccasim sweep ${sweep.name}: ${sweep.points.length} point${sweep.points.length === 1 ? "" : "s"} in ${n} slice${n === 1 ? "" : "s"} (study hash ${sweep.studyHash}).`,
    "# A task whose slice has a failed point exits 1 (Slurm marks it FAILED; its other points are stored).",
    `# After every task has finished:  ${ccasim} sweep merge ${q(resolve(options.workdir ?? ".", options.db))} ${q(shards)}/shard-*.db`,
    "set -euo pipefail",
    `cd ${q(resolve(options.workdir ?? "."))}`,
    `mkdir -p ${q(shards)}`,
    `exec ${ccasim} sweep ${q(resolve(sweep.file))} --slice "\${SLURM_ARRAY_TASK_ID}/${n}" --db ${q(shards)}/shard-"\${SLURM_ARRAY_TASK_ID}".db --resume --jobs "\${SLURM_CPUS_PER_TASK:-${jobs}}" --quiet`,
    "",
  ];
  return lines.join("\n");
}
