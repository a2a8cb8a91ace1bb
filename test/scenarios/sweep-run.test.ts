import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StudyStore, studyDigest } from "../../profile/study/index.js";
import { loadSweep, loadSweepText, runSweep, slicePoints } from "../../scenarios/sweep/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-sweep-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const small = loadSweep("test/scenarios/sweeps/small.sweep.yaml");

async function digestOf(db: string) {
  const store = await StudyStore.open(db, { readOnly: true });
  try {
    return await studyDigest(store);
  } finally {
    store.close();
  }
}

async function queryOf(db: string, sql: string) {
  const store = await StudyStore.open(db, { readOnly: true });
  try {
    return (await store.query(sql)).rows;
  } finally {
    store.close();
  }
}

describe("running a sweep into a study", () => {
  it("reports the points committed beside the points finished: never more, and all of them at the end", async () => {
    const db = join(dir, "progress.db");
    const seen: { done: number; saved: number; total: number }[] = [];
    // A commit per point at most every 10 s: the finished points run ahead of the saved ones.
    await runSweep(small, { db, jobs: 1, commitIntervalMs: 10_000, onProgress: (p) => seen.push({ done: p.done, saved: p.saved, total: p.total }) });
    for (const p of seen) expect(p.saved).toBeLessThanOrEqual(p.done);
    expect(seen.some((p) => p.saved < p.done)).toBe(true);
    expect(seen.at(-1)).toEqual({ done: 12, saved: 12, total: 12 });
    expect(Number((await queryOf(db, "SELECT count(*) FROM point"))[0]![0])).toBe(12);
  });

  it("gives identical database contents with 1 and 2 worker threads", async () => {
    const one = join(dir, "one.db");
    const two = join(dir, "two.db");
    const a = await runSweep(small, { db: one, jobs: 1 });
    const b = await runSweep(small, { db: two, jobs: 2 });
    expect(a.ran).toBe(12);
    expect(b.ran).toBe(12);
    expect(a.onWorkers).toBe(0);
    expect(b.onWorkers).toBeGreaterThan(0);
    const da = await digestOf(one);
    expect(da.point.rows).toBe(12);
    expect(da.record.rows).toBeGreaterThan(0);
    expect(da.timer_value.rows).toBeGreaterThan(0);
    expect(await digestOf(two)).toEqual(da);
  });

  it("starts no more worker threads than the points to run", async () => {
    const few = await runSweep(small, { db: join(dir, "few.db"), jobs: 8, slice: { index: 0, count: 4 } });
    expect([few.total, few.ran, few.jobs]).toEqual([3, 3, 3]);
    expect(few.onWorkers).toBe(3);
    const one = await runSweep(small, { db: join(dir, "one-point.db"), jobs: 4, only: [5] });
    expect([one.ran, one.jobs, one.onWorkers]).toEqual([1, 1, 0]);
    // Resumed: as many as the points left, none when every point is stored.
    const resumed = await runSweep(small, { db: join(dir, "few.db"), jobs: 8, resume: true });
    expect([resumed.skipped, resumed.ran, resumed.jobs]).toEqual([3, small.points.length - 3, Math.min(8, small.points.length - 3)]);
    const again = await runSweep(small, { db: join(dir, "few.db"), jobs: 8, resume: true });
    expect([again.ran, again.jobs, again.onWorkers]).toEqual([0, 1, 0]);
  });

  it("stores each point's values, seed and the records the model predicts", async () => {
    const db = join(dir, "one.db");
    const rows = await queryOf(
      db,
      `SELECT x.numeric_value AS x, i.value AS impl, avg(r.compute_time) AS t
       FROM record r JOIN parameter x ON x.point_id = r.point_id AND x.name = 'workload.x'
       JOIN parameter i ON i.point_id = r.point_id AND i.name = 'assembly.components.A.params.implementation'
       WHERE r.component = 'A' GROUP BY ALL ORDER BY impl, x`,
    );
    // A1 costs 2x, A2 costs x^2 (microseconds), plus C's 0.01x inside A's inclusive time.
    const expected = (impl: string, x: number) => (impl === "A1" ? 2 * x : x * x);
    for (const [x, impl, t] of rows as [number, string, number][]) expect(t).toBeGreaterThanOrEqual(expected(impl, x) * 0.99);
    expect(rows).toHaveLength(6);
    const seeds = await queryOf(db, `SELECT point_index, seed FROM point ORDER BY point_index`);
    expect(seeds).toEqual(small.points.map((p) => [p.index, p.seed]));
  });

  it("stores quantities with units as numbers in base units, and names as text only", async () => {
    const sweep = loadSweepText(
      [
        "scenario: ../../../scenarios/known-models.yaml",
        "axes:",
        "  machine.clock: { from: 2GHz, to: 3GHz, step: 1GHz }",
        "  machine.memory.latency: [100ns, 0.15us]",
        "  assembly.components.A.params.implementation: [A1]",
        "set:",
        "  workload.iterations: 1",
      ].join("\n"),
      "test/scenarios/sweeps/units.sweep.yaml",
    );
    const db = join(dir, "units.db");
    await runSweep(sweep, { db, jobs: 1 });
    const rows = await queryOf(db, "SELECT DISTINCT name, value, numeric_value FROM parameter ORDER BY name, numeric_value");
    expect(rows).toEqual([
      ["assembly.components.A.params.implementation", "A1", null],
      ["machine.clock", "2000000000Hz", 2e9],
      ["machine.clock", "3000000000Hz", 3e9],
      ["machine.memory.latency", "100ns", 0.1],
      ["machine.memory.latency", "0.15us", 0.15],
    ]);
  });

  it("records failing points with their error and runs the others", async () => {
    const bad = loadSweep("test/scenarios/sweeps/with-bad-point.sweep.yaml");
    const db = join(dir, "bad.db");
    const s = await runSweep(bad, { db, jobs: 1 });
    expect(s.ran).toBe(4);
    expect(s.failed).toBe(2);
    const rows = await queryOf(db, `SELECT p.status, e.kind, e.message FROM point p LEFT JOIN error e USING (point_id) ORDER BY p.point_index`);
    expect(rows.map((r) => r[0])).toEqual(["ok", "error", "ok", "error"]);
    expect(String(rows[1][2])).toContain("A9");
    expect(rows[1][1]).toBe("ScenarioErrors");
    expect(s.failedStored).toBe(0);
    // Resumed, the stored failures still count: the study has them.
    const resumed = await runSweep(bad, { db, resume: true });
    expect([resumed.ran, resumed.failed, resumed.failedStored]).toEqual([0, 0, 2]);
  });

  it("refuses to rerun a stored study without resume, and resumes without duplicating", async () => {
    const db = join(dir, "resume.db");
    await runSweep(small, { db, only: [0, 1, 2, 3] });
    await expect(runSweep(small, { db })).rejects.toThrow(/--resume/);
    const r = await runSweep(small, { db, resume: true });
    expect(r.skipped).toBe(4);
    expect(r.ran).toBe(8);
    const again = await runSweep(small, { db, resume: true });
    expect(again.ran).toBe(0);
    expect(await queryOf(db, `SELECT count(*), count(DISTINCT point_id) FROM point`)).toEqual([[12, 12]]);
    expect(await digestOf(db)).toEqual(await digestOf(join(dir, "one.db")));
  });

  it("refuses a database that holds another study", async () => {
    const other = loadSweep("test/scenarios/sweeps/with-bad-point.sweep.yaml");
    await expect(runSweep(other, { db: join(dir, "one.db"), resume: true })).rejects.toThrow(/another study/);
  });

  it("says what makes the sweep another study than the one it would resume", async () => {
    const text = readFileSync("test/scenarios/sweeps/small.sweep.yaml", "utf8");
    const file = "test/scenarios/sweeps/small.sweep.yaml";
    const edited = (from: string, to: string) => loadSweepText(text.replace(from, to), file);
    const refusal = async (sw: ReturnType<typeof loadSweepText>) => {
      try {
        await runSweep(sw, { db: join(dir, "one.db"), resume: true });
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error("expected a refusal");
    };
    expect(await refusal(edited("workload.iterations: 5", "workload.iterations: 6"))).toMatch(/another study \(small\.sweep, hash [0-9a-f]{16}\); this sweep's hash is [0-9a-f]{16}: set: is \{"workload\.iterations":6\}, was \{"workload\.iterations":5\}; use another --db$/);
    expect(await refusal(edited("seed: 11", "seed: 12"))).toMatch(/: seed: is 12, was 11; use another --db$/);
    expect(await refusal(edited("workload.x: [1, 2, 3]", "workload.x: [1, 2, 4]"))).toMatch(/: the axes' values differ; use another --db$/);
    expect(await refusal(edited("workload.x: [1, 2, 3]", "workload.x: [1, 2]"))).toMatch(/: the sweep has 8 points, the study 12; use another --db$/);
    const scenario = loadSweepText(text.replace("../../../scenarios/known-models.yaml", "../../../scenarios/kernel-l2.yaml").replace(/workload\.x/, "workload.Q").replace(/  assembly.*\n/, "").replace("workload.iterations: 5", "workload.iterations: 1"), file);
    expect(await refusal(scenario)).toContain("the scenario's text differs from the one stored");
  });

  it("recognises its own study run with the other seeds mode and names the key that continues it", async () => {
    const text = readFileSync("test/scenarios/sweeps/small.sweep.yaml", "utf8").replace("scenario: ../../../scenarios/", `scenario: ${join(process.cwd(), "scenarios")}/`);
    const file = join(dir, "modes.sweep.yaml");
    const perPoint = loadSweepText(text.replace("seed: 11", "seed: 11\nseeds: per-point"), file);
    const common = loadSweepText(text, file);
    expect(common.studyHash).not.toBe(perPoint.studyHash);
    expect(common.otherSeedsHash).toBe(perPoint.studyHash);
    const db = join(dir, "per-point.db");
    await runSweep(perPoint, { db, jobs: 1, only: [0] });
    await expect(runSweep(common, { db, resume: true })).rejects.toThrow(`holds this sweep run with seeds: per-point (each point its own seed, the default before seeds: common); set 'seeds: per-point' in ${file} to continue it`);
  });

  it("splits the points into disjoint slices that cover the sweep, and merges them to the same study", async () => {
    const parts = [0, 1, 2].map((i) => slicePoints(small.points, { index: i, count: 3 }).map((p) => p.index));
    expect(parts.flat().sort((a, b) => a - b)).toEqual(small.points.map((p) => p.index));
    const shards = [];
    for (let i = 0; i < 3; i++) {
      const db = join(dir, `shard-${i}.db`);
      await runSweep(small, { db, slice: { index: i, count: 3 } });
      shards.push(db);
    }
    const merged = await StudyStore.open(join(dir, "merged.db"), { create: true });
    try {
      const added = [];
      for (const s of shards) added.push((await merged.mergeShard(s)).added);
      expect(added).toEqual(parts.map((p) => p.length));
      expect((await merged.mergeShard(shards[1])).added).toBe(0);
      expect(await studyDigest(merged)).toEqual(await digestOf(join(dir, "one.db")));
      await expect(merged.mergeShard(join(dir, "bad.db"))).rejects.toThrow(/another study/);
    } finally {
      merged.close();
    }
  });
});
