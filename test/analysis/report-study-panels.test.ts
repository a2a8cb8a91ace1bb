import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { studyReport } from "../../analysis/report/study-report.js";
import { StudyStore } from "../../profile/study/index.js";
import { costLawStudy } from "./cost-law-study.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-report-panels-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The cost-law sweep with further axes `d` and `e` (the given values) multiplying the cost. */
async function threeAxisReport(name: string, dValues: readonly number[], eValues: readonly number[] = [1]) {
  const db = await costLawStudy(dir, name, (text) =>
    text
      .replace("workload.c: [1, 2, 3, 4]", `workload.c: [1, 2, 3, 4]\n  workload.d: [${dValues.join(", ")}]\n  workload.e: [${eValues.join(", ")}]`)
      .replace("workload: { x: 1, c: 1, iterations: 3 }", "workload: { x: 1, c: 1, d: 1, e: 1, iterations: 1 }")
      .replace('params: { cost: "c * x^1.5" }', 'params: { cost: "d * e * c * x^1.5" }'),
  );
  const store = await StudyStore.open(db, { readOnly: true });
  try {
    return await studyReport(store, name);
  } finally {
    store.close();
  }
}

/** The cells (x, c, value) of a heatmap chart. */
function cells(chart: { spec: unknown }): { a: string; b: string; value: number }[] {
  return (chart.spec as { data: { values: { a: string; b: string; value: number }[] } }).data.values;
}

describe("a study report over three swept parameters", () => {
  it("draws one heatmap per value of the third, on one colour scale, instead of averaging over it", async () => {
    const doc = await threeAxisReport("panels", [1, 10]);
    const charts = doc.sections.flatMap((s) => s.charts ?? []);
    const one = charts.find((c) => c.id === "heatmap-wall-kernel-run-workload-d-1")!;
    const ten = charts.find((c) => c.id === "heatmap-wall-kernel-run-workload-d-10")!;
    expect(one.title).toBe("Kernel.run time per invocation (us) over workload.x x workload.c at workload.d=1");
    expect(one.caption).toContain("at workload.d = 1");
    expect(charts.some((c) => c.id === "heatmap-wall-kernel-run")).toBe(false);
    // Each panel holds its own d: the cost d * c * x^1.5, cell by cell.
    for (const [chart, d] of [[one, 1], [ten, 10]] as const) {
      const values = cells(chart);
      expect(values).toHaveLength(24);
      for (const { a, b, value } of values) expect(value).toBeCloseTo(d * Number(b) * Number(a) ** 1.5, 6);
    }
    const scale = (c: typeof one) => (c.spec as unknown as { layer: { encoding: { color: { scale: { domain: number[] } } } }[] }).layer[0]!.encoding.color.scale.domain;
    expect(scale(one)).toEqual(scale(ten));
    expect(scale(one)[0]).toBeCloseTo(1, 6);
    expect(scale(one)[1]).toBeCloseTo(10 * 4 * 32 ** 1.5, 6);
  });

  it("draws time vs Q per value of the third, coloured by the axis that is not Q (workload.x is the records' Q)", async () => {
    const doc = await threeAxisReport("q-panels", [1, 10]);
    const charts = doc.sections.find((s) => s.heading === "Time vs Q across the sweep")!.charts!;
    expect(charts.map((c) => c.id)).toEqual(["sweep-time-vs-q-kernel-run-workload-d-1", "sweep-time-vs-q-kernel-run-workload-d-10"]);
    expect(charts[1].caption).toContain("At workload.d = 10.");
    // Lines per value of workload.c, each the law d * c * Q^1.5 of its panel.
    expect(charts[1].caption).toContain("workload.c 3: T = exp(1.5·log(Q) + 3.4)"); // ln 30 = 3.40
  });

  it("averages over the further ones when their combinations are more than panels fit, and says so", async () => {
    const doc = await threeAxisReport("averaged", [1, 2, 3], [1, 2, 3]);
    const chart = doc.sections.flatMap((s) => s.charts ?? []).find((c) => c.id === "heatmap-wall-kernel-run")!;
    expect(chart.caption).toContain("every value of workload.d (1, 2, 3), workload.e (1, 2, 3), which the cells mix");
    // The mean of d * e over d, e = 1..3 is 4.
    for (const { a, b, value } of cells(chart)) expect(value).toBeCloseTo(4 * Number(b) * Number(a) ** 1.5, 6);
  });
});
