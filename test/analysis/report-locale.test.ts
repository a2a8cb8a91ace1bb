import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { fittableRoutines, stridedRatioChart, studyReport, type RecordPoint } from "../../analysis/report/index.js";
import { StudyStore } from "../../profile/study/index.js";
import { costLawStudy } from "./cost-law-study.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-report-locale-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/**
 * Makes `localeCompare` compare as the process's default collation does under LANG=et_EE.UTF-8
 * (Estonian sorts z before y) or LANG=da_DK.UTF-8 (Danish sorts capitals first): what a user
 * with that locale gets, whatever locale runs the tests.
 */
function underLocale(locale: string): void {
  const collator = new Intl.Collator(locale);
  vi.spyOn(String.prototype, "localeCompare").mockImplementation(function (this: string, that: string) {
    return collator.compare(String(this), that);
  });
}

/** Records of `routines`, each at Q = 1, 2, 4 in both modes (strided twice as slow). */
function points(routines: readonly string[]): RecordPoint[] {
  return routines.flatMap((routine) =>
    [1, 2, 4].flatMap((q) => [
      { routine, q, mode: "sequential", wallTime: q, mpiTime: 0, computeTime: q },
      { routine, q, mode: "strided", wallTime: 2 * q, mpiTime: 0, computeTime: 2 * q },
    ]),
  );
}

describe("reports whatever the locale of the process", () => {
  it("ranks routines of as many records by name in the same order", () => {
    const routines = ["z.run", "y.run", "a.run", "B.run"];
    const plain = fittableRoutines(points(routines));
    for (const locale of ["et", "da", "en"]) {
      underLocale(locale);
      expect(fittableRoutines(points(routines))).toEqual(plain);
      vi.restoreAllMocks();
    }
    expect(plain).toEqual(["B.run", "a.run", "y.run", "z.run"]);
  });

  it("orders the strided / sequential ratios of several routines the same way", () => {
    const rows = (c: ReturnType<typeof stridedRatioChart>) => (c!.spec as { data: { values: { routine: string }[] } }).data.values.map((r) => r.routine);
    const plain = rows(stridedRatioChart(points(["z.run", "y.run"]), "Q"));
    underLocale("et");
    expect(rows(stridedRatioChart(points(["z.run", "y.run"]), "Q"))).toEqual(plain);
    expect(plain.slice(0, 3)).toEqual(["y.run", "y.run", "y.run"]);
  });

  it("charts a study's two swept parameters of as many values on the same axes", async () => {
    const db = await costLawStudy(dir, "yz", (text) =>
      text
        .replace("workload.x: [1, 2, 4, 8, 16, 32]\n  workload.c: [1, 2, 3, 4]", "workload.y: [1, 2, 3]\n  workload.z: [1, 2, 4]")
        .replace("workload: { x: 1, c: 1, iterations: 3 }", "workload: { x: 1, c: 1, y: 1, z: 1, iterations: 3 }")
        .replace('params: { cost: "c * x^1.5" }', 'params: { cost: "y * z * x^1.5" }'),
    );
    const store = await StudyStore.open(db, { readOnly: true });
    try {
      const plain = JSON.stringify(await studyReport(store, "yz"));
      underLocale("et");
      expect(JSON.stringify(await studyReport(store, "yz"))).toBe(plain);
      expect(plain).toContain("over workload.y x workload.z");
    } finally {
      store.close();
    }
  });
});
