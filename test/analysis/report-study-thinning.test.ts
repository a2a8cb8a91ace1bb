import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timeVsQRows } from "../../analysis/report/study-report.js";
import { writeReport } from "../../analysis/report/write-report.js";
import { thin } from "../../analysis/report/data.js";
import { StudyStore } from "../../profile/study/index.js";
import { loadSweep, runSweep } from "../../scenarios/sweep/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-report-thin-"));
const db = join(dir, "study.db");
let store: StudyStore;
beforeAll(async () => {
  await runSweep(loadSweep("test/scenarios/sweeps/small.sweep.yaml"), { db, jobs: 1 });
  store = await StudyStore.open(db, { readOnly: true });
});
afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a study report", () => {
  it("is the same for two databases of one study whose points were stored in other orders", async () => {
    const other = join(dir, "other-order.db");
    const sweep = loadSweep("test/scenarios/sweeps/small.sweep.yaml");
    const late = sweep.points.map((p) => p.index).filter((i) => i >= sweep.points.length / 2);
    await runSweep(sweep, { db: other, jobs: 1, only: late });
    await runSweep(sweep, { db: other, jobs: 1, resume: true });
    await writeReport(db, join(dir, "first.html"));
    await writeReport(other, join(dir, "second.html"));
    expect(readFileSync(join(dir, "second.html"), "utf8")).toBe(readFileSync(join(dir, "first.html"), "utf8"));
  });

  it("is byte-identical from one writing to the next (its means are summed in one order)", async () => {
    const files = [join(dir, "a.html"), join(dir, "b.html"), join(dir, "c.html")];
    for (const f of files) await writeReport(db, f);
    const texts = files.map((f) => readFileSync(f, "utf8"));
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
  });
});

describe("a study report's time-vs-Q rows", () => {
  it("thin keeps the floor(i * n / max)-th of n points in exact integer arithmetic", () => {
    // With n = 4004 and max = 4000, i = 1000 gives 1001 exactly; 1000 * (4004 / 4000) rounds below it.
    for (const [n, max] of [[4004, 4000], [300_000, 4000], [12_929, 4000], [10, 3]]) {
      const kept = thin(Array.from({ length: n }, (_, k) => k), max);
      expect(kept).toEqual(Array.from({ length: max }, (_, i) => Number((BigInt(i) * BigInt(n)) / BigInt(max))));
    }
  });

  it("are thinned in the database to exactly the rows the chart would keep of all of them", async () => {
    const routines = (await store.query(`SELECT DISTINCT component || '.' || method FROM record_parameter JOIN record USING (point_id, record_index) WHERE name = 'x' ORDER BY 1`)).rows.map((r) => String(r[0]));
    expect(routines.length).toBeGreaterThan(0);
    for (const routine of routines) {
      const full = (
        await store.query(
          `SELECT q.numeric_value, r.wall_time, s.value FROM record r JOIN point p USING (point_id)
           JOIN record_parameter q ON q.point_id = r.point_id AND q.record_index = r.record_index AND q.name = 'x'
           JOIN parameter s ON s.point_id = r.point_id AND s.name = 'workload.x'
           WHERE p.status = 'ok' AND r.wall_time > 0 AND q.numeric_value > 0 AND r.component || '.' || r.method = '${routine}'
           ORDER BY r.point_id, r.record_index`,
        )
      ).rows as [number, number, string][];
      expect(full.length, routine).toBeGreaterThan(40);
      for (const max of [1, 7, 37, full.length - 1, full.length, full.length + 5]) {
        const { rows, distinctQ, total, means } = await timeVsQRows(store, routine, "x", "workload.x", max);
        expect(rows, `${routine} max ${max}`).toEqual(thin(full, max));
        expect(distinctQ).toBe(new Set(full.map((r) => r[0])).size);
        // The fitted lines come from all the invocations, however few the chart shows.
        expect(total).toBe(full.length);
        const sums = new Map<string, { Q: number; swept: string; sum: number; n: number }>();
        for (const [Q, t, swept] of full) {
          const k = `${swept}\u0000${Q}`;
          const a = sums.get(k) ?? sums.set(k, { Q, swept, sum: 0, n: 0 }).get(k)!;
          a.sum += t;
          a.n++;
        }
        expect(means).toHaveLength(sums.size);
        for (const [Q, mean, swept] of means) {
          const a = sums.get(`${swept}\u0000${Q}`)!;
          expect(Math.abs(mean - a.sum / a.n)).toBeLessThanOrEqual(1e-9 * Math.abs(mean));
        }
      }
    }
  });
});
