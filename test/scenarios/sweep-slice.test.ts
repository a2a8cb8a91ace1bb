import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StudyError } from "../../profile/study/index.js";
import { loadSweep, runSweep } from "../../scenarios/sweep/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-sweep-slice-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const small = loadSweep("test/scenarios/sweeps/small.sweep.yaml");

describe("a slice given to runSweep", () => {
  it.each([
    [{ index: 2, count: 2 }, "2/2"],
    [{ index: 0, count: 0 }, "0/0"],
    [{ index: -1, count: 2 }, "-1/2"],
    [{ index: 0.5, count: 2 }, "0.5/2"],
    [{ index: 0, count: Number.NaN }, "0/NaN"],
  ])("refuses %o, which selects no point, before the study is made", async (slice, text) => {
    const db = join(dir, `bad-${text.replace(/\W/g, "_")}.db`);
    const run = runSweep(small, { db, slice });
    await expect(run).rejects.toThrow(StudyError);
    await expect(runSweep(small, { db, slice })).rejects.toThrow(`slice ${text}: expected index i and count n, integers with 0 <= i < n`);
    expect(existsSync(db)).toBe(false);
  });

  it("runs the points of a slice inside the range", async () => {
    const summary = await runSweep(small, { db: join(dir, "last.db"), slice: { index: 3, count: 4 } });
    expect(summary.ran).toBe(small.points.filter((p) => p.index % 4 === 3).length);
    expect(summary.ran).toBeGreaterThan(0);
  });
});
