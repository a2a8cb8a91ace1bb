import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StudyError } from "../../profile/study/index.js";
import { loadSweep, runSweep } from "../../scenarios/sweep/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-sweep-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const small = loadSweep("test/scenarios/sweeps/small.sweep.yaml");

describe("runSweep's jobs and point indices", () => {
  it.each([0, -1, 2.5, Number.NaN])("refuses %s worker threads before the study is made", async (jobs) => {
    const db = join(dir, `jobs-${String(jobs).replace(/\W/g, "_")}.db`);
    await expect(runSweep(small, { db, jobs })).rejects.toThrow(StudyError);
    await expect(runSweep(small, { db, jobs })).rejects.toThrow(`jobs must be an integer >= 1, got ${jobs}`);
    expect(existsSync(db)).toBe(false);
  });

  it("refuses indices that are no point of the sweep, naming them", async () => {
    const db = join(dir, "only.db");
    const last = small.points.length - 1;
    await expect(runSweep(small, { db, only: [0, last + 1, -1] })).rejects.toThrow(`only: ${last + 1}, -1 are no points of the sweep; its points are 0 to ${last}`);
    await expect(runSweep(small, { db, only: [1.5] })).rejects.toThrow("only: 1.5 is no point of the sweep");
    // A point the slice leaves out would run nothing too.
    await expect(runSweep(small, { db, only: [0, 1, 3], slice: { index: 1, count: 2 } })).rejects.toThrow("only: 0 is not in slice 1/2, whose points are those whose index is 1 modulo 2");
    expect(existsSync(db)).toBe(false);
  });

  it("runs the points asked for", async () => {
    const summary = await runSweep(small, { db: join(dir, "two.db"), jobs: 1, only: [0, small.points.length - 1] });
    expect([summary.ran, summary.jobs]).toEqual([2, 1]);
  });
});
