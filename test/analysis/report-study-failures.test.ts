import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { studyReport } from "../../analysis/report/study-report.js";
import { StudyStore } from "../../profile/study/index.js";
import { costLawStudy } from "./cost-law-study.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-report-failures-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The "Failed points" section of the report of the cost-law sweep over these values of c (a negative c fails its points). */
async function failedSection(name: string, cValues: readonly number[]) {
  const db = await costLawStudy(dir, name, (text) => text.replace("workload.c: [1, 2, 3, 4]", `workload.c: [${cValues.join(", ")}]`));
  const store = await StudyStore.open(db, { readOnly: true });
  try {
    return (await studyReport(store, name)).sections.find((s) => s.heading === "Failed points")!;
  } finally {
    store.close();
  }
}

describe("the failed points of a study report", () => {
  it("are listed, the first 20 by index, with a note of how many failed in all when there are more", async () => {
    // 6 values of x times 4 negative values of c: 24 failed points.
    const section = await failedSection("many-failed", [-1, -2, -3, -4, 1]);
    expect(section.tables![0]!.rows).toHaveLength(20);
    expect(section.tables![0]!.rows.map((r) => r[0])).toEqual([...section.tables![0]!.rows.map((r) => r[0])].sort((a, b) => Number(a) - Number(b)));
    expect(section.notes).toEqual([
      "The first 20 of the 24 failed points, by index; 'ccasim query' lists them all: SELECT p.point_index, e.kind, e.message FROM point p JOIN error e USING (point_id) ORDER BY p.point_index",
    ]);
  });

  it("are all listed, without a note, when there are 20 or fewer", async () => {
    const section = await failedSection("few-failed", [-1, 1, 2]);
    expect(section.tables![0]!.rows).toHaveLength(6);
    expect(section.notes ?? []).toEqual([]);
  });
});
