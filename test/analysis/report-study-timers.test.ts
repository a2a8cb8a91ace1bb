import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studyReport } from "../../analysis/report/study-report.js";
import { StudyStore } from "../../profile/study/index.js";
import { executeScenario, loadScenario } from "../../scenarios/index.js";
import { derivedView } from "../../profile/index.js";
import { loadSweep, runSweep } from "../../scenarios/sweep/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-report-timers-"));
let db = "";
beforeAll(async () => {
  const sweep = join(dir, "lapw0.sweep.yaml");
  writeFileSync(sweep, `scenario: ${resolve("scenarios/lapw0.yaml")}\nseed: 1\naxes:\n  machine.nodes: [1, 2]\n  workload.NAT: [32, 64]\n`);
  db = join(dir, "lapw0.db");
  await runSweep(loadSweep(sweep), { db, jobs: 1 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a study report of a program model (no records)", () => {
  it("charts the main timers' inclusive time, mean over threads, as the run's profile has it", async () => {
    const store = await StudyStore.open(db, { readOnly: true });
    try {
      const doc = await studyReport(store, "lapw0");
      const charts = doc.sections.flatMap((s) => s.charts ?? []);
      const timers = charts.filter((c) => c.id.startsWith("heatmap-timer-"));
      expect(timers).toHaveLength(3);
      // One cell against the profile of the same configuration run alone.
      const trial = executeScenario(loadScenario("scenarios/lapw0.yaml", { set: ["machine.nodes=2", "workload.NAT=64"] })).trial!;
      const mean = derivedView(trial, "mean");
      for (const chart of timers) {
        const name = chart.title.replace(/ inclusive time, mean over threads \(us\) over .*$/, "");
        const cell = (chart.spec as unknown as { data: { values: { a: string; b: string; value: number }[] } }).data.values.find((v) => v.a === "2" && v.b === "64")!; // a: machine.nodes, b: workload.NAT (by name, as both have 2 values)
        const ti = trial.timers.findIndex((t) => t.name === name && !t.isCallpath);
        expect(ti, name).toBeGreaterThanOrEqual(0);
        expect(cell.value, name).toBeCloseTo(mean.inclusive[trial.metricIndex("TIME")]![ti]!, 6);
      }
    } finally {
      store.close();
    }
  });
});
