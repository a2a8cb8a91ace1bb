import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pointRows, StudyStore, studyTables, tableRowCount } from "../profile/study/index.js";
import { loadSweepText, pointTask, runPoint, runSweep, workerScript, type Sweep } from "../scenarios/sweep/index.js";
import { printTable, type Benchmark } from "./registry.js";

/** The known-models assembly over x and A's implementation: a small scenario for the per-point overhead. */
function sweepOf(iterations: number, xs: number, reps: number): Sweep {
  const scenario = parseYaml(readFileSync("scenarios/known-models.yaml", "utf8")) as unknown;
  const text = [
    `scenario: ${JSON.stringify(scenario)}`,
    "seed: 1",
    `replications: ${reps}`,
    "axes:",
    `  workload.x: { from: 1, to: ${xs}, step: 1 }`,
    "  assembly.components.A.params.implementation: [A1, A2]",
    "set:",
    `  workload.iterations: ${iterations}`,
  ].join("\n");
  return loadSweepText(text, "bench.sweep.yaml");
}

/**
 * The L2 size x Q sweep of scenarios/kernel-l2.sweep.yaml with `iterations` calls per kernel and
 * rank; without `records` the proxies are dropped (profile only).
 */
function kernelSweep(iterations: number, reps: number, records: boolean): Sweep {
  const scenario = parseYaml(readFileSync("scenarios/kernel-l2.yaml", "utf8")) as { assembly: { proxies?: unknown[] } };
  if (!records) scenario.assembly.proxies = [];
  const file = parseYaml(readFileSync("scenarios/kernel-l2.sweep.yaml", "utf8")) as { seed: number; axes: Record<string, unknown> };
  const text = [
    `scenario: ${JSON.stringify(scenario)}`,
    `seed: ${file.seed}`,
    `replications: ${reps}`,
    `axes: ${JSON.stringify(file.axes)}`,
    `set: { workload.iterations: ${iterations} }`,
  ].join("\n");
  return loadSweepText(text, "kernel-l2.sweep.yaml");
}

/** The sweep's shape as its points give it: `machine.l2.size (4) x workload.Q (10) x 2 replications`. */
function shapeOf(sweep: Sweep): string {
  const counts = sweep.axes.map((axis) => `${axis} (${new Set(sweep.points.map((p) => JSON.stringify(p.values[axis]))).size})`);
  const reps = new Set(sweep.points.map((p) => p.replication)).size;
  return [...counts, `${reps} replication${reps === 1 ? "" : "s"}`].join(" x ");
}

/** Wall and CPU seconds of one sweep run, and the rows it stored. */
interface RunCost {
  readonly wall: number;
  /** CPU of every thread of this process (workers, DuckDB, V8 helpers). */
  readonly cpu: number;
  /** CPU of this (the main) thread. */
  readonly mainCpu: number;
  readonly rows: number;
}

/** The run with the least wall time, with the least CPU figures seen (noise only adds). */
function best(runs: readonly RunCost[]): RunCost {
  const byWall = [...runs].sort((a, b) => a.wall - b.wall)[0];
  return { ...byWall, cpu: Math.min(...runs.map((r) => r.cpu)), mainCpu: Math.min(...runs.map((r) => r.mainCpu)) };
}

/**
 * CPU seconds of the calling thread: Linux's per-thread counters, else the event loop's active
 * time (a thread blocked in synchronous work counts as active).
 */
function threadCpuSeconds(): number {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (USER_HZ = 100)
  } catch {
    return performance.eventLoopUtilization().active / 1000;
  }
}

function cpuSeconds(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1e6;
}

async function measuredSweep(sweep: Sweep, jobs: number, dir: string): Promise<RunCost> {
  const db = join(dir, `jobs-${jobs}-${Date.now()}.db`);
  const c0 = process.cpuUsage();
  const m0 = threadCpuSeconds();
  const t0 = performance.now();
  await runSweep(sweep, { db, jobs });
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(process.cpuUsage(c0));
  const mainCpu = threadCpuSeconds() - m0;
  const store = await StudyStore.open(db, { readOnly: true });
  let rows = 0;
  try {
    for (const t of studyTables()) rows += Number((await store.query(`SELECT count(*) FROM "${t.name}"`)).rows[0][0]);
  } finally {
    store.close();
  }
  return { wall, cpu, mainCpu, rows };
}


/**
 * Sweep machinery: points per second of a small scenario, the per-point overhead of the sweep
 * (starting a point, flattening and storing its rows) against running the same points directly,
 * and, on the 2-D L2 size x Q sweep of scenarios/kernel-l2.sweep.yaml (compute-bound and
 * record-heavy), the speed-up of 2 worker threads over 1 with the figures that explain it: CPU of
 * all threads, CPU of the main thread (the serial part: handing out points, storing rows) and the
 * speed-up limit they give on 2 idle cores. Options: --iterations=N (calls per kernel and rank of
 * the record-heavy variant, default 6000), --reps=N (default 2).
 */
export const sweepBenchmark: Benchmark = {
  name: "sweep",
  summary: "points per second, per-point overhead of the sweep machinery, --jobs 2 vs --jobs 1",
  async run(args) {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-bench-sweep-"));
    const heavy = Number(args.find((a) => a.startsWith("--iterations="))?.split("=")[1] ?? 6000);
    const reps = Number(args.find((a) => a.startsWith("--reps="))?.split("=")[1] ?? 2);
    try {
      // 1. A small scenario: overhead per point.
      const small = sweepOf(5, 8, 3);
      const n = small.points.length;
      runPoint(pointTask(small, small.points[0])); // warm-up: module loading and JIT
      // Direct runs and sweeps alternate, best of 3 each: the other core is shared and noisy.
      let direct = Infinity;
      let swept = Infinity;
      let directCpu = Infinity;
      let sweptCpu = Infinity;
      let outcomes: ReturnType<typeof runPoint>[] = [];
      for (let rep = 0; rep < 3; rep++) {
        const t1 = performance.now();
        const c1 = process.cpuUsage();
        outcomes = small.points.map((p) => runPoint(pointTask(small, p)));
        direct = Math.min(direct, (performance.now() - t1) / 1000);
        directCpu = Math.min(directCpu, cpuSeconds(process.cpuUsage(c1)));
        const cost = await measuredSweep(small, 1, dir);
        swept = Math.min(swept, cost.wall);
        sweptCpu = Math.min(sweptCpu, cost.cpu);
      }
      let t0 = performance.now();
      const rows = small.points.map((p, i) => pointRows(pointTask(small, p).point, outcomes[i]));
      const flatten = (performance.now() - t0) / 1000;
      const store = await StudyStore.open(join(dir, "store-only.db"), { create: true });
      t0 = performance.now();
      for (const r of rows) await store.insertPoints([r]); // one transaction per point: the worst case
      const storeEach = (performance.now() - t0) / 1000;
      store.close();
      const store2 = await StudyStore.open(join(dir, "store-batched.db"), { create: true });
      t0 = performance.now();
      await store2.insertPoints(rows);
      const storeBatch = (performance.now() - t0) / 1000;
      store2.close();
      const rowsPerPoint = rows.reduce((a, r) => a + Object.values(r.tables).reduce((b, t) => b + tableRowCount(t), 0), 0) / n;
      console.log(`small scenario: known-models, 5 iterations, ${n} points, ${rowsPerPoint.toFixed(0)} stored rows per point`);
      printTable(
        ["measure", "total (s)", "per point (ms)", "points/s"],
        [
          ["run points directly (baseline, best of 3)", direct.toFixed(3), ((1000 * direct) / n).toFixed(2), (n / direct).toFixed(1)],
          ["flatten to rows", flatten.toFixed(3), ((1000 * flatten) / n).toFixed(2), ""],
          ["store, one transaction per point", storeEach.toFixed(3), ((1000 * storeEach) / n).toFixed(2), ""],
          ["store, batched (as the sweep does)", storeBatch.toFixed(3), ((1000 * storeBatch) / n).toFixed(2), ""],
          ["ccasim sweep --jobs 1 (open db, run, store; best of 3)", swept.toFixed(3), ((1000 * swept) / n).toFixed(2), (n / swept).toFixed(1)],
        ],
      );
      const overhead = ((swept - direct) * 1000) / n;
      console.log(`sweep overhead per point (sweep - direct) / points: ${overhead.toFixed(2)} ms (target < 20 ms); ratio sweep/direct ${(swept / direct).toFixed(2)}`);
      console.log(`same in CPU time of all threads (less disturbed by a busy machine): ${(((sweptCpu - directCpu) * 1000) / n).toFixed(2)} ms per point`);

      // 2. Worker start-up: a pool thread loads the simulator's modules before its first point.
      const { default: Tinypool } = await import("tinypool");
      const pool = new Tinypool({ filename: workerScript(), minThreads: 1, maxThreads: 1 });
      t0 = performance.now();
      await pool.run(pointTask(small, small.points[0]));
      const startup = (performance.now() - t0) / 1000;
      await pool.destroy();
      console.log(`worker thread start-up (module loading) + first point: ${startup.toFixed(2)} s`);

      // 3. The 2-D sweep of scenarios/kernel-l2.sweep.yaml (L2 size x Q), 80 points: enough that
      // worker start-up (about 1 s of CPU each) and the last point's imbalance weigh little, as in
      // a real sweep of hundreds of points. Without records (compute-bound) and with the proxies' records (record-heavy:
      // every record, its Q and counters stored). --jobs 1 and --jobs 2 interleaved, best of `reps`.
      for (const records of [false, true]) {
        const iterations = records ? heavy : heavy * 5; // why: without records a point costs ~5x less
        const big = kernelSweep(iterations, 2, records); // 40 points x 2 replications
        const runs: Record<1 | 2, RunCost[]> = { 1: [], 2: [] };
        let rows = 0;
        for (let rep = 0; rep < reps; rep++) {
          for (const jobs of [1, 2] as const) {
            const cost = await measuredSweep(big, jobs, dir);
            runs[jobs].push(cost);
            rows = cost.rows;
          }
        }
        const np = big.points.length;
        const [one, two] = [best(runs[1]), best(runs[2])];
        const what = records ? `${iterations * 4} records per point, ${(rows / np).toFixed(0)} stored rows per point` : "no records (profile only)";
        console.log(`\n2-D sweep kernel-l2: ${shapeOf(big)} = ${np} points, ${iterations} iterations, ${what}`);
        const line = (jobs: number, c: RunCost) => [
          String(jobs),
          c.wall.toFixed(2),
          (np / c.wall).toFixed(2),
          c.cpu.toFixed(2),
          c.mainCpu.toFixed(2),
          `${((100 * c.mainCpu) / c.wall).toFixed(0)}%`,
          ((1000 * c.mainCpu) / np).toFixed(1),
          ((1000 * (c.cpu - c.mainCpu)) / np).toFixed(1),
        ];
        printTable(
          ["jobs", "wall (s)", "points/s", "CPU all threads (s)", "main-thread CPU (s)", "main busy / wall", "main ms/point", "other threads ms/point"],
          [line(1, one), line(2, two)],
        );
        const limit = one.cpu / Math.max(two.cpu / 2, two.mainCpu);
        console.log(`speed-up --jobs 2 / --jobs 1 (wall, best of ${reps}): ${(one.wall / two.wall).toFixed(2)}x (target >= 1.7x on 2 idle cores)`);
        console.log(
          `serial part with --jobs 2: main thread busy ${((100 * two.mainCpu) / two.wall).toFixed(1)}% of the wall time, ${((1000 * two.mainCpu) / np).toFixed(1)} ms per point ` +
            `against ${((1000 * one.cpu) / np).toFixed(1)} ms of CPU per point with --jobs 1 (serial fraction ${((100 * two.mainCpu) / one.cpu).toFixed(1)}%)`,
        );
        console.log(
          `CPU time --jobs 2 / --jobs 1: ${(two.cpu / one.cpu).toFixed(2)}x; speed-up limit on 2 idle cores = CPU(jobs 1) / max(CPU(jobs 2) / 2, main-thread CPU(jobs 2)) = ${limit.toFixed(2)}x`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
