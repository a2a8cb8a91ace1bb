import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { checkOutputPath, OutputPathError, writeTextFileAtomically } from "../../profile/index.js";
import { mergeShards } from "../../profile/study/index.js";
import {
  axisValueText,
  failedPointsCommand,
  loadSweep,
  noPointLoads,
  parseSlice,
  pointRunCommand,
  runSweep,
  runSweepPoint,
  slurmArrayScript,
  slurmShardFolder,
  sweepInputs,
  type Sweep,
  type SweepRunSummary,
} from "../../scenarios/sweep/index.js";
import { nearestName } from "../../engine/registry.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import { progressView } from "../progress.js";
import { plural, positiveIntegerOption } from "./analysis-io.js";
import { noteDeleted } from "./run.js";
import { SWEEP_FIT_HELP, sweepFit } from "./sweep-fit.js";

const HELP = `Usage: ccasim sweep <sweep.yaml> [--jobs N] [--db FILE] [--resume] [--slice i/n] [--quiet]
       ccasim sweep <sweep.yaml> --list | --point K [--out DIR] [--overwrite] [--quiet] | --print-command K
       ccasim sweep <sweep.yaml> --emit slurm [--tasks N] [--shards DIR] [--script FILE] [--jobs N]
       ccasim sweep merge <study.db> <shard.db>...
       ccasim sweep fit <study.db> --parameter Q [--by KEY] [--by-variable N] [--component C] ...

Runs every point of a sweep (a scenario and its axes) in worker threads and stores each point's
summary, records and profile values in a study database (DuckDB; query it with 'ccasim query').
Every point of a replication runs with the same seed (common random numbers: the same random
workload at every point), derived from the study seed and the replication; 'seeds: per-point'
gives each point its own. Any point re-runs alone with the same result. Interrupted (Ctrl-C, kill, even kill -9), a sweep stops at once (130 / 143 in a
shell), the points committed so far kept; it continues with --resume. Failed points are stored with their error
and the sweep goes on (see Exit codes). 'ccasim validate <sweep.yaml>' loads every point's
scenario first, without running it.

Sweep file (every key it takes; a workload.* key must name a variable of the scenario's
workload: known-models.yaml defines x and iterations, not the Q, a, b, y and z shown here):
  name: my-study                     # the sweep name (default: the file's name without .yaml)
  scenario: known-models.yaml        # relative to the sweep file, or the scenario inline
  seed: 7                            # study seed
  seeds: common                      # default; per-point: each point its own seed
  replications: 2                    # runs of each point, each replication with other seeds
  axes:
    workload.x: [1, 2, 4]                               # a list (no value twice)
    workload.iterations: { from: 10, to: 50, step: 20 } # arithmetic range
    machine.l2.size: { from: 128KiB, to: 1MiB, factor: 2 }   # or { from, to, points: 5, log: true }
    workload.Q: { from: 1000, to: 1e6, points: 10, log: true, integer: true }   # whole values
  zip:                                                  # lists that advance together
    - { workload.a: [1, 2], workload.b: [10, 20] }
  random: { n: 8, axes: { workload.y: { uniform: [0, 1] }, workload.z: { loguniform: [1, 1000] } } }
  set: { assembly.components.A.params.implementation: A2 }   # fixed for every point
  # a key that takes a list or map takes one in set: (outputs.records: []) and as a list
  # axis's items (metrics: [[TIME], [TIME, PAPI_L2_TCM]]: two points)

Options:
  --jobs N             worker threads (default 1; no more than the points to run)
  --db FILE            study database (default out/<sweep name>.db in the current directory);
                       never the sweep or scenario file, and its folder must be writable (both
                       checked before any point runs)
  --resume             continue the study in --db (points already stored are skipped); a --db
                       not there yet starts the study, with a note on stderr (not with --quiet)
  --slice i/n          run only points whose index mod n is i (0 <= i < n), e.g. one job-array task
  --list               print the points (index, id, seed, values)
  --point K            run point K alone and write its outputs as 'ccasim run' does (--out DIR,
                       default out/<sweep name>/point-K; the folder is checked as 'ccasim run'
                       checks it: see 'ccasim run --help')
  --overwrite          with --point: replace the output folder whatever it holds (never the sweep
                       or scenario file, nor a folder holding them)
  --print-command K    print the 'ccasim run' command that re-runs point K
  --emit slurm         write a Slurm job-array script (--script FILE, default stdout): task i runs
                       --slice i/N into <shards>/shard-i.db (the folder is created
                       now); merge them with 'ccasim sweep merge'. A task whose slice has a
                       failed point exits 1, so Slurm marks it FAILED: merge with a dependency
                       on 'afterany', not 'afterok', to keep the points that ran
  --tasks N            array tasks for --emit (default min(points, 16))
  --shards DIR         shard folder for --emit (default: the --db path without its .db or
                       .duckdb, then -shards: --db out/sl.db -> out/sl-shards)
  --ccasim CMD         how tasks invoke ccasim (default: node and this installation's main.js)
  --quiet              no progress display (finished points, and '(N saved)' while fewer are
                       committed to the study: what an interruption keeps); with --point, print
                       only the output folder, as 'ccasim run --quiet' does
  --progress-every S   seconds between progress lines when not on a terminal (default 5; 0: every point)

Subcommands:
  merge <study.db> <shard.db>...   add the shards' points the study lacks (idempotent)
  fit <study.db> ...                fit a component's model T(Q) per value of a swept parameter
                                    and its coefficients as functions of it; its options
                                    (--parameter, --by, --by-variable ...): 'ccasim sweep fit --help'

Exit codes: 0 every point ran, 1 some points failed (the database keeps the others, and the failed
ones with their error: the final message prints the 'ccasim query' command that lists them; a
resumed sweep counts the failed points it finds stored too), 2 bad sweep file or arguments (as is
one none of whose points loads: nothing is run or written).`;

/** `ccasim sweep`: run, resume, slice, emit and merge parameter sweeps. */
export const sweepCommand: Command = {
  name: "sweep",
  help: HELP,
  subcommandHelp: { fit: SWEEP_FIT_HELP },
  async run(ctx) {
    if (ctx.argv[0] === "merge") return merge(ctx, ctx.argv.slice(1));
    if (ctx.argv[0] === "fit") return sweepFit(ctx, ctx.argv.slice(1));
    // A misspelt subcommand would be read as a sweep file, and its options refused as the sweep's.
    const first = ctx.argv[0];
    const near = first === undefined || first.startsWith("-") || existsSync(first) ? undefined : nearestName(first, ["merge", "fit"]);
    if (near !== undefined) throw new UsageError(`unknown subcommand '${first}' (did you mean '${near}'?), and no sweep file of that name (see ccasim sweep --help)`, "sweep");
    const { values, positionals } = parseCommandArgs("sweep", ctx.argv, {
      jobs: { type: "string" },
      db: { type: "string" },
      resume: { type: "boolean" },
      slice: { type: "string" },
      list: { type: "boolean" },
      point: { type: "string" },
      out: { type: "string" },
      overwrite: { type: "boolean" },
      "print-command": { type: "string" },
      emit: { type: "string" },
      tasks: { type: "string" },
      shards: { type: "string" },
      script: { type: "string" },
      ccasim: { type: "string" },
      quiet: { type: "boolean" },
      "progress-every": { type: "string" },
    });
    if (positionals.length !== 1) throw new UsageError("give exactly one sweep file (see ccasim sweep --help)", "sweep");
    checkModeOptions(values);
    const sweep = loadSweep(positionals[0]);
    const db = (values.db as string | undefined) ?? join("out", `${sweep.name}.db`);
    if (values.list) return list(ctx, sweep);
    if (values["print-command"] !== undefined) {
      ctx.out(pointRunCommand(sweep, pick(sweep, String(values["print-command"]))) + "\n");
      return 0;
    }
    if (values.point !== undefined) return runOne(ctx, sweep, String(values.point), values.out as string | undefined, values.overwrite === true, values.quiet === true);
    const jobs = positiveIntegerOption("sweep", "jobs", values.jobs, 1)!;
    // Usage errors before the points are loaded (which takes a while for a large sweep).
    const slice = values.slice === undefined ? undefined : parseSlice(String(values.slice));
    // why: Number("") and Number(" ") are 0, so an empty value is refused before it is read
    const everyText = values["progress-every"] === undefined ? "5" : String(values["progress-every"]);
    const every = everyText.trim() === "" ? NaN : Number(everyText);
    if (!(every >= 0 && every < Infinity)) throw new UsageError(`--progress-every expects seconds >= 0, got '${String(values["progress-every"])}'`, "sweep");
    const tasks = positiveIntegerOption("sweep", "tasks", values.tasks);
    if (noPointRuns(ctx, sweep)) return EXIT_USAGE;
    if (values.emit !== undefined) {
      if (values.emit !== "slurm") throw new UsageError(`--emit ${String(values.emit)}: only 'slurm' is supported`, "sweep");
      const shardDir = (values.shards as string | undefined) ?? slurmShardFolder(db);
      const scriptFile = values.script as string | undefined;
      if (scriptFile !== undefined) {
        checkOutputPath(scriptFile, "Slurm script", { inputs: sweepInputs(sweep) });
        if (existsSync(scriptFile) && statSync(scriptFile).isDirectory()) throw new OutputPathError(scriptFile, "Slurm script", "it is a folder; name the file to write in it");
      }
      // Checked as every output is (a parent that cannot be written; mkdir under /proc never returns).
      checkOutputPath(shardDir, "shard folder");
      if (existsSync(shardDir) && !statSync(shardDir).isDirectory()) throw new OutputPathError(shardDir, "shard folder", "it is a file, not a folder");
      mkdirSync(shardDir, { recursive: true }); // why: Slurm opens the tasks' output files there before the script runs
      const script = slurmArrayScript(sweep, {
        tasks,
        shardDir,
        db,
        ccasim: values.ccasim as string | undefined,
        jobs,
      });
      if (scriptFile !== undefined) {
        // Its folder made as every output's is (a missing one said "no such file").
        writeTextFileAtomically(scriptFile, (write) => write(script));
        chmodSync(scriptFile, 0o755);
        ctx.err(`wrote ${scriptFile}: submit it with sbatch, then merge the shards into ${db}\n`);
      } else ctx.out(script);
      return 0;
    }
    // A resumed study that is not there yet starts anew (as a Slurm task's first run does): said, since a mistyped --db would too.
    if (values.resume === true && !values.quiet && !existsSync(db)) ctx.err(`--resume: ${db} does not exist yet; the study starts there\n`);
    const view = values.quiet ? undefined : progressView(ctx.err, ctx.interactive, every);
    const summary = await runSweep(sweep, {
      db,
      jobs,
      resume: values.resume === true,
      slice,
      onProgress: view ? (p) => view.update(p.done, p.total, p.failed, p.elapsedSeconds, p.saved) : undefined,
    });
    view?.end();
    const rate = summary.ran / Math.max(summary.wallSeconds, 1e-9);
    ctx.out(
      `${sweep.name}: ${plural(summary.ran, "point")} run${summary.skipped ? `, ${summary.skipped} already stored` : ""}${summary.failed ? `, ${summary.failed} failed` : ""} ` +
        `in ${summary.wallSeconds.toFixed(2)} s (${rate.toFixed(2)} points/s, ${plural(summary.jobs, "job")}) -> ${db}\n`,
    );
    return reportFailures(ctx, summary, db);
  },
};

/**
 * Refuses a sweep none of whose points loads (every point would be stored as failed for the same
 * reason: a misspelt key, a value no point can take), printing the first point's error.
 * @returns true when refused
 */
function noPointRuns(ctx: CommandContext, sweep: Sweep): boolean {
  const none = noPointLoads(sweep);
  if (none === undefined) return false;
  ctx.err(`ccasim sweep: ${sweep.file}: no point of the sweep loads, so none would run ('ccasim validate ${sweep.file}' lists them); point ${none.point.index} (${none.overrides.join(" ")}):\n`);
  for (const line of none.error.message.split("\n")) ctx.err(`  ${line}\n`);
  return true;
}

/**
 * Says how many points failed (in this run, and stored failed by an earlier run of a resumed
 * study) and how to read their errors; the exit code is 1 when there are any, so scripts notice.
 */
function reportFailures(ctx: CommandContext, summary: SweepRunSummary, db: string): number {
  const failed = summary.failed + summary.failedStored;
  if (failed === 0) return EXIT_OK;
  const earlier = summary.failedStored ? ` (${summary.failedStored} of them stored by an earlier run)` : "";
  ctx.err(`sweep: ${plural(failed, "point")} failed${earlier}; the database keeps ${failed === 1 ? "its error" : "their errors"}:\n  ${failedPointsCommand(db)}\n`);
  return EXIT_FAILURE;
}

function pick(sweep: Sweep, text: string) {
  if (!/^\d+$/.test(text) || Number(text) >= sweep.points.length) {
    throw new UsageError(`point '${text}' does not exist (the sweep has points 0..${sweep.points.length - 1})`, "sweep");
  }
  return sweep.points[Number(text)];
}

function list(ctx: CommandContext, sweep: Sweep): number {
  ctx.out(`${sweep.name}: ${plural(sweep.points.length, "point")}, axes ${sweep.axes.join(", ") || "(none)"}, study hash ${sweep.studyHash}\n`);
  for (const p of sweep.points) {
    const vals = Object.entries(p.values)
      .map(([k, v]) => `${k}=${axisValueText(v)}`)
      .join("  ");
    ctx.out(`${String(p.index).padStart(5)}  ${p.id}  seed ${String(p.seed).padStart(10)}  rep ${p.replication}  ${vals}\n`);
  }
  return 0;
}

/**
 * What `ccasim sweep` does, by the first of its mode options given (`run` when none is), and the
 * other options each mode reads.
 */
const MODES: readonly { readonly option: string; readonly usage: string; readonly reads: readonly string[] }[] = [
  { option: "list", usage: "--list", reads: [] },
  { option: "print-command", usage: "--print-command K", reads: [] },
  { option: "point", usage: "--point K", reads: ["out", "overwrite", "quiet"] },
  { option: "emit", usage: "--emit slurm", reads: ["jobs", "db", "tasks", "shards", "script", "ccasim"] },
  { option: "", usage: "a sweep run", reads: ["jobs", "db", "resume", "slice", "quiet", "progress-every"] },
];

/**
 * Refuses an option the chosen mode does not read (another mode's option, or `--out` without
 * `--point`), which it would otherwise ignore: a study written where the user did not ask for it.
 * @throws UsageError naming the option and the mode that reads it
 */
function checkModeOptions(values: Record<string, unknown>): void {
  const given = Object.keys(values).filter((k) => values[k] !== undefined);
  const mode = MODES.find((m) => m.option === "" || given.includes(m.option))!;
  for (const option of given) {
    if (option === mode.option || mode.reads.includes(option)) continue;
    const readers = MODES.filter((m) => m.option === option || m.reads.includes(option)).map((m) => m.usage);
    throw new UsageError(`--${option} does not apply to ${mode.usage}; it is read by ${readers.join(", ")} (see ccasim sweep --help)`, "sweep");
  }
}

/** `--point K`: runs one point as 'ccasim run' would; `quiet` prints only the output folder, as 'ccasim run --quiet' does. */
function runOne(ctx: CommandContext, sweep: Sweep, which: string, out: string | undefined, overwrite: boolean, quiet: boolean): number {
  const p = pick(sweep, which);
  const art = runSweepPoint(sweep, p, { out, overwrite });
  noteDeleted(ctx, art);
  if (quiet) {
    ctx.out(`${art.outDir}\n`);
    return 0;
  }
  ctx.out(`point ${p.index} (${p.id}, seed ${p.seed}): simulated ${(art.result.simulatedTime / 1e6).toFixed(6)} s -> ${art.outDir}\n`);
  ctx.out(`same as: ${pointRunCommand(sweep, p)}\n`);
  return 0;
}

async function merge(ctx: CommandContext, argv: readonly string[]): Promise<number> {
  const { positionals } = parseCommandArgs("sweep merge", argv, {});
  if (positionals.length < 2) throw new UsageError("merge: give the study database and at least one shard (ccasim sweep merge study.db shard-*.db)", "sweep");
  const [target, ...shards] = positionals;
  const r = await mergeShards(target, shards);
  for (const m of r.shards) ctx.err(`${m.shard}: ${plural(m.added, "point")} added, ${m.skipped} already present\n`);
  const added = r.shards.reduce((n, m) => n + m.added, 0);
  const skipped = r.shards.reduce((n, m) => n + m.skipped, 0);
  ctx.out(`${target}: ${plural(added, "point")} added, ${skipped} already present, ${plural(r.total, "point")} in the study\n`);
  return 0;
}
