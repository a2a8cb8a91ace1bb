import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { StudyError, StudyStore, type PointRows } from "../../profile/study/index.js";
import { runPointTask, type PointTask } from "./execute-point.js";
import { checkOutputPath } from "../../profile/index.js";
import { sweepInputs, sweepPointLoadOverrides, type Sweep } from "./load-sweep.js";
import { axisValueText, type SweepPoint } from "./points.js";
import { axisNumber } from "./design.js";
import type { AxisValue } from "./sweep-schema.js";

/** A slice of the points: `index` of `count` (0-based), points whose index mod count equals `index`. */
export interface Slice {
  readonly index: number;
  readonly count: number;
}

/** Progress of a running sweep. */
export interface SweepProgress {
  /** Points finished in this run (stored or about to be). */
  readonly done: number;
  /**
   * Points of this run committed to the study: what an interruption keeps. Finished points wait
   * for the next commit (at most `commitIntervalMs`, longer while a large commit is running).
   */
  readonly saved: number;
  /** Points this run has to do. */
  readonly total: number;
  /** Failed points among `done`. */
  readonly failed: number;
  /** Points found already stored (resumed). */
  readonly skipped: number;
  /** Wall seconds since this run started. */
  readonly elapsedSeconds: number;
}

/** Options of {@link runSweep}. */
export interface SweepRunOptions {
  /** The study database file. */
  readonly db: string;
  /** Worker threads (default 1: run in this thread only; N > 1: N worker threads compute, this thread stores; no more than the points to run). */
  readonly jobs?: number;
  /** Continue a study already in `db` (without it an existing study is an error). */
  readonly resume?: boolean;
  /** Run only this slice of the points (for job arrays). */
  readonly slice?: Slice;
  /** Run only these point indices. */
  readonly only?: readonly number[];
  /** Called after each finished point. */
  readonly onProgress?: (p: SweepProgress) => void;
  /** Longest time finished points wait before they are committed, in ms (default 200). */
  readonly commitIntervalMs?: number;
}

/** What a sweep run did. */
export interface SweepRunSummary {
  readonly total: number;
  readonly skipped: number;
  readonly ran: number;
  /** Points of this run that failed (stored with their error). */
  readonly failed: number;
  /** Points found already stored (resumed) that had failed when an earlier run stored them. */
  readonly failedStored: number;
  /** Points run on worker threads (the others ran on this thread). */
  readonly onWorkers: number;
  /** Worker threads used: `jobs`, at most the points of the slice (1: this thread alone). */
  readonly jobs: number;
  readonly wallSeconds: number;
  readonly db: string;
}

/**
 * Parses `i/n` (0 <= i < n).
 * @throws StudyError for anything else
 */
export function parseSlice(text: string): Slice {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1) || !(index < count)) throw new StudyError(`--slice ${text}: expected i/n with 0 <= i < n, for example 0/4`);
  return { index, count };
}

/** @throws StudyError unless the slice's index and count are integers with 0 <= index < count */
function checkSlice(slice: Slice): void {
  const { index, count } = slice;
  if (!(Number.isInteger(count) && count >= 1 && Number.isInteger(index) && index >= 0 && index < count))
    throw new StudyError(`slice ${index}/${count}: expected index i and count n, integers with 0 <= i < n, for example { index: 0, count: 4 }`);
}

/** The points of a slice. */
export function slicePoints(points: readonly SweepPoint[], slice?: Slice): SweepPoint[] {
  return slice ? points.filter((p) => p.index % slice.count === slice.index) : [...points];
}

/** Each axis value of a point in base units, or null (see {@link axisNumber}). */
function numericAxisValues(values: Readonly<Record<string, AxisValue>>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(values)) out[k] = axisNumber(v);
  return out;
}

/** Each axis value of a point as the study stores it: a list or map as its text (see {@link axisValueText}). */
function storedAxisValues(values: Readonly<Record<string, AxisValue>>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(values)) out[k] = typeof v === "object" ? axisValueText(v) : v;
  return out;
}

/** The worker task of a point. */
export function pointTask(sweep: Sweep, point: SweepPoint): PointTask {
  return {
    scenarioText: sweep.loadText,
    scenarioFile: sweep.scenarioFile,
    set: sweepPointLoadOverrides(sweep, point),
    point: { id: point.id, index: point.index, replication: point.replication, seed: point.seed, values: storedAxisValues(point.values), numericValues: numericAxisValues(point.values) },
  };
}

/**
 * The built worker script. Workers run JavaScript: from the built package this is the sibling
 * `worker.js`; from TypeScript sources (tests) it is the one under `dist/`.
 * @throws Error when no build exists
 */
export function workerScript(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const sibling = join(here, "worker.js");
  if (existsSync(sibling)) return sibling;
  const built = resolve(here, "..", "..", "dist", "scenarios", "sweep", "worker.js");
  if (existsSync(built)) return built;
  throw new Error(`no built sweep worker (${built}): run 'npm run build' first`);
}

/**
 * Runs a sweep into a study database: every point not yet stored, on this thread (`jobs` 1) or on
 * `jobs` worker threads while this one stores their rows, each point committed whole (with its `point` row) so that a run killed at any moment resumes with
 * `resume: true` and ends with exactly one result per point. A failing point is stored with its
 * error and the sweep goes on.
 * @throws StudyError when `db` holds another study, or this study without `resume`; for a
 *   `slice` whose index and count are not integers with 0 <= index < count, `jobs` that is not an
 *   integer >= 1, or an index of `only` that is no point of the sweep or of its `slice`
 * @throws OutputPathError (an input error) when `db` is the sweep or scenario file, or a folder
 *   holding one, or its parent is not writable: before any point runs
 */
export async function runSweep(sweep: Sweep, options: SweepRunOptions): Promise<SweepRunSummary> {
  // why: a slice outside 0 <= i < n (a 1-based task id, a count of 0) selects no point, and the
  // sweep would end having run nothing and said nothing
  if (options.slice !== undefined) checkSlice(options.slice);
  // why: jobs is written into the summary and sizes the pool, and an index that is no point's
  // would make a sweep that runs nothing look like one that finished
  if (options.jobs !== undefined && !(Number.isInteger(options.jobs) && options.jobs >= 1)) throw new StudyError(`jobs must be an integer >= 1, got ${options.jobs}`);
  const notPoints = (options.only ?? []).filter((i) => !(Number.isInteger(i) && i >= 0 && i < sweep.points.length));
  if (notPoints.length > 0) throw new StudyError(`only: ${notPoints.join(", ")} ${notPoints.length === 1 ? "is no point" : "are no points"} of the sweep; its points are 0 to ${sweep.points.length - 1}`);
  // Before any worker starts: a database that would replace the sweep's files, or cannot be made.
  checkOutputPath(options.db, "study database", { inputs: sweepInputs(sweep) });
  const t0 = performance.now();
  let chosen = slicePoints(sweep.points, options.slice);
  if (options.only) {
    const only = new Set(options.only);
    // A point of the sweep that the slice leaves out would run nothing, as an index that is no point.
    const outside = options.slice === undefined ? [] : [...only].filter((i) => i % options.slice!.count !== options.slice!.index);
    if (outside.length > 0) throw new StudyError(`only: ${outside.join(", ")} ${outside.length === 1 ? "is" : "are"} not in slice ${options.slice!.index}/${options.slice!.count}, whose points are those whose index is ${options.slice!.index} modulo ${options.slice!.count}`);
    chosen = chosen.filter((p) => only.has(p.index));
  }
  // why: no more threads than points to run: each started thread costs its module loading
  const threadsFor = (points: number) => Math.max(1, Math.min(options.jobs ?? 1, points));
  let jobs = threadsFor(chosen.length);
  // why: started first, the worker threads load their modules while this thread opens the study;
  // a resumed study may hold every point already, so its threads wait for the points left to run
  let pool = jobs > 1 && !options.resume ? await startPool(jobs) : undefined;
  let store: StudyStore | undefined;
  try {
    store = await StudyStore.open(options.db, { create: true });
    const meta = await store.meta();
    const existing = meta.get("study_hash");
    if (existing !== undefined && existing !== sweep.studyHash) {
      if (existing === sweep.otherSeedsHash) {
        const other = sweep.config.seeds === "common" ? "per-point" : "common";
        throw new StudyError(
          `${options.db} holds this sweep run with seeds: ${other} (${other === "per-point" ? "each point its own seed, the default before seeds: common" : "every point of a replication with the same seed"}); set 'seeds: ${other}' in ${sweep.file} to continue it, or use another --db`,
        );
      }
      const differences = studyDifferences(meta, sweep);
      throw new StudyError(`${options.db} holds another study (${meta.get("name")}, hash ${existing}); this sweep's hash is ${sweep.studyHash}: ${differences.join("; ")}; use another --db`);
    }
    const stored = await store.storedPointIds();
    if (existing !== undefined && !options.resume && stored.size > 0) {
      throw new StudyError(`${options.db} already holds ${stored.size} points of this study: use --resume to continue it, or another --db`);
    }
    await store.setMeta({
      name: sweep.name,
      study_hash: sweep.studyHash,
      seed: String(sweep.config.seed),
      replications: String(sweep.config.replications),
      points: String(sweep.points.length),
      axes: JSON.stringify(sweep.axes),
      set: JSON.stringify(sweep.config.set),
      scenario_file: sweep.scenarioFile,
      scenario_text: sweep.scenarioText,
    });
    const todo = chosen.filter((p) => !stored.has(p.id));
    const skipped = chosen.length - todo.length;
    if (options.resume) {
      jobs = threadsFor(todo.length);
      if (jobs > 1) pool = await startPool(jobs);
    }
    const storedErrors = skipped > 0 ? await store.failedPointIds() : new Set<string>();
    const failedStored = chosen.filter((p) => storedErrors.has(p.id)).length;
    let done = 0;
    let failed = 0;
    let onWorkers = 0;
    const report = () => options.onProgress?.({ done, saved: writer.saved, total: todo.length, failed, skipped, elapsedSeconds: (performance.now() - t0) / 1000 });
    const writer = new BatchWriter(store, options.commitIntervalMs ?? 200, report);
    const finish = (rows: PointRows) => {
      done++;
      if (rows.tables.error) failed++;
      writer.add(rows);
      report();
    };
    if (!pool) {
      for (const p of todo) {
        finish(runPointTask(pointTask(sweep, p)));
        await writer.maybeFlush();
      }
    } else {
      await runInPool(pool, sweep, todo, jobs, (rows) => {
        onWorkers++;
        finish(rows);
      }, () => writer.maybeFlush());
    }
    await writer.flush();
    // The final count, every point committed (nothing to report when nothing ran).
    if (todo.length > 0) report();
    return { total: chosen.length, skipped, ran: done, failed, failedStored, onWorkers, jobs, wallSeconds: (performance.now() - t0) / 1000, db: store.path };
  } finally {
    await pool?.destroy();
    store?.close();
  }
}

/**
 * What makes `sweep` another study than the one whose metadata is `meta` (for a refusal to
 * resume it): the scenario's text, the fixed values, the seed, the replications, the axes or the
 * points, as far as the metadata tells.
 */
function studyDifferences(meta: ReadonlyMap<string, string>, sweep: Sweep): string[] {
  const out: string[] = [];
  const sortedJson = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    const o = JSON.parse(text) as Record<string, unknown>;
    return JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
  };
  const was = (key: string) => meta.get(key);
  if (was("scenario_text") !== undefined && was("scenario_text") !== sweep.scenarioText) out.push(`the scenario's text differs from the one stored (${sweep.scenarioFile} has changed, or is another file)`);
  if (was("set") !== undefined && sortedJson(was("set")) !== sortedJson(JSON.stringify(sweep.config.set))) out.push(`set: is ${JSON.stringify(sweep.config.set)}, was ${was("set")}`);
  if (was("seed") !== undefined && was("seed") !== String(sweep.config.seed)) out.push(`seed: is ${sweep.config.seed}, was ${was("seed")}`);
  if (was("replications") !== undefined && was("replications") !== String(sweep.config.replications)) out.push(`replications: is ${sweep.config.replications}, was ${was("replications")}`);
  if (was("axes") !== undefined && was("axes") !== JSON.stringify(sweep.axes)) out.push(`the swept keys are ${sweep.axes.join(", ") || "none"}, were ${(JSON.parse(was("axes")!) as string[]).join(", ") || "none"}`);
  else if (was("points") !== undefined && was("points") !== String(sweep.points.length)) out.push(`the sweep has ${sweep.points.length} points, the study ${was("points")}`);
  if (out.length === 0) out.push("the axes' values differ");
  return out;
}

type Pool = InstanceType<typeof import("tinypool").default>;

/** A pool of `jobs` worker threads running {@link workerScript}. */
async function startPool(jobs: number): Promise<Pool> {
  const { default: Tinypool } = await import("tinypool");
  return new Tinypool({ filename: workerScript(), minThreads: jobs, maxThreads: jobs, idleTimeout: 1000 });
}

/**
 * Runs points on `jobs` pool threads; this thread only hands out points and stores their rows.
 * Why not compute here too: a point computed here blocks this thread's event loop, so workers that
 * finish meanwhile wait for their next point and their rows wait to be stored; storing itself
 * is cheap here (the workers send typed and dictionary-encoded columns; DuckDB works off the event loop).
 */
async function runInPool(pool: Pool, sweep: Sweep, todo: readonly SweepPoint[], jobs: number, finish: (rows: PointRows) => void, tick: () => Promise<void>): Promise<void> {
  let next = 0;
  const inFlight = new Set<Promise<void>>();
  const window = jobs * 2; // why: a queued point per thread, so a thread never waits for this one
  const refill = (): void => {
    while (inFlight.size < window && next < todo.length) {
      const p = todo[next++];
      const job: Promise<void> = (pool.run(pointTask(sweep, p)) as Promise<PointRows>)
        .then(finish, (e: unknown) => finish(workerFailure(sweep, p, e)))
        .finally(() => {
          inFlight.delete(job);
          refill();
        });
      inFlight.add(job);
    }
  };
  refill();
  while (inFlight.size > 0) {
    await Promise.race(inFlight);
    await tick();
  }
}

/** Rows of a point whose worker died (out of memory, a crash): stored as an error. */
function workerFailure(sweep: Sweep, p: SweepPoint, e: unknown): PointRows {
  const err = e instanceof Error ? e : new Error(String(e));
  const id = p.id;
  const task = pointTask(sweep, p);
  const values = task.point.values;
  const numbers = task.point.numericValues!;
  const keys = Object.keys(values).sort();
  return {
    pointId: id,
    tables: {
      parameter: [keys.map(() => id), keys, keys.map((k) => String(values[k])), keys.map((k) => numbers[k])],
      point: [[id], [p.index], [p.replication], [p.seed], ["error"], [null], [null], [null], [0], [null]],
      error: [[id], ["WorkerError"], [`${err.name}: ${err.message}`]],
    },
    timing: { wallSeconds: 0, eventsPerSecond: 0 },
  };
}

/** Groups finished points into transactions: at most one commit per interval (each point whole). */
class BatchWriter {
  private pending: PointRows[] = [];
  private last = performance.now();
  private chain: Promise<unknown> = Promise.resolve();
  /** Points committed so far. */
  saved = 0;

  constructor(
    private readonly store: StudyStore,
    private readonly intervalMs: number,
    /** Called after each commit (the saved count changed). */
    private readonly onCommit: () => void,
  ) {}

  add(rows: PointRows): void {
    this.pending.push(rows);
  }

  async maybeFlush(): Promise<void> {
    if (this.pending.length > 0 && performance.now() - this.last >= this.intervalMs) await this.flush();
  }

  async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.last = performance.now();
    if (batch.length === 0) return this.chain.then(() => undefined);
    this.chain = this.chain.then(async () => {
      await this.store.insertPoints(batch);
      this.saved += batch.length;
      this.onCommit();
    });
    await this.chain;
  }
}
