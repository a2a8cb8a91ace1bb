import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studyReport, timeVsQRows } from "../../analysis/report/study-report.js";
import { StudyStore } from "../../profile/study/index.js";
import { loadSweep, runSweep } from "../../scenarios/sweep/index.js";
import { costLawStudy, withModes } from "./cost-law-study.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-report-modes-"));
let store: StudyStore;
// The cost-law sweep with two calls per iteration (records of mode a, and b costing twice that), and a fixed setting.
beforeAll(async () => {
  const db = await costLawStudy(dir, "modes", (text) => withModes(text).replace("seed: 2\n", "seed: 2\nset:\n  machine.noise.osRate: 0\n"));
  store = await StudyStore.open(db, { readOnly: true });
});
afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a study report of records in several modes", () => {
  it("charts each mode of a routine apart, never their average", async () => {
    const doc = await studyReport(store, "modes");
    const ids = doc.sections.flatMap((s) => (s.charts ?? []).map((c) => c.id));
    expect(ids).toEqual(expect.arrayContaining(["heatmap-wall-kernel-run-mode-a", "heatmap-wall-kernel-run-mode-b", "sweep-time-vs-q-kernel-run-mode-a", "sweep-time-vs-q-kernel-run-mode-b"]));
    expect(ids.some((id) => id === "heatmap-wall-kernel-run")).toBe(false);
  });

  it("names the sweep's fixed settings and scenario in its study table", async () => {
    const doc = await studyReport(store, "modes");
    const rows = doc.sections.find((x) => x.heading === "Study")!.tables![0]!.rows;
    expect(rows).toContainEqual(["set machine.noise.osRate", "0"]);
    expect(rows.some(([k]) => k === "scenario")).toBe(true);
    // Dummy components cost expressions: no kernel, no miss-engine row.
    expect(rows.some(([k]) => String(k).startsWith("kernel invocations"))).toBe(false);
  });

  it("counts the kernel invocations each miss engine costed, over the points", async () => {
    const sweep = join(dir, "kernel.sweep.yaml");
    writeFileSync(
      sweep,
      `seed: 1
axes:
  workload.Q: [1000, 100000]
set:
  machine.missModel: auto
scenario:
  name: kernel-engines
  seed: 1
  machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }
  metrics: [TIME]
  workload: { Q: 1000 }
  assembly:
    components:
      Driver: { type: driver, params: { iterations: 3, calls: [{ port: k, portType: Kernel, method: compute, args: { Q: Q } }] } }
      K: { type: kernel }
    connections: [Driver.k -> K.compute]
`,
    );
    const kdb = join(dir, "kernel.db");
    await runSweep(loadSweep(sweep), { db: kdb, jobs: 1 });
    const kstore = await StudyStore.open(kdb, { readOnly: true });
    try {
      const rows = (await studyReport(kstore, "kernel")).sections.find((x) => x.heading === "Study")!.tables![0]!.rows;
      // auto replays the kernel of 1000 accesses (3 calls), and models the one of 100000 (3 calls).
      expect(rows).toContainEqual(["kernel invocations by miss engine", "analytical 3, reference 3"]);
      expect(rows).toContainEqual(["set machine.missModel", "auto"]);
    } finally {
      kstore.close();
    }
  });

  it("takes one mode's rows for its time-vs-Q chart: mode b costs twice mode a at every point", async () => {
    const a = await timeVsQRows(store, { routine: "Kernel.run", parameter: { name: "mode", value: "a" }, label: "a" }, "Q", "workload.c", 10_000);
    const b = await timeVsQRows(store, { routine: "Kernel.run", parameter: { name: "mode", value: "b" }, label: "b" }, "Q", "workload.c", 10_000);
    const all = await timeVsQRows(store, "Kernel.run", "Q", "workload.c", 10_000);
    expect(a.rows.length).toBe(all.rows.length / 2);
    expect(b.rows.length).toBe(a.rows.length);
    for (let i = 0; i < a.rows.length; i++) {
      const [qa, ta, ca] = a.rows[i]!;
      const [qb, tb, cb] = b.rows[i]!;
      expect([qb, cb]).toEqual([qa, ca]);
      expect(tb / ta).toBeCloseTo(2, 9);
    }
  });

  it("charts the time ratio of the modes against Q, one line per swept value: mode b over the baseline a is 2", async () => {
    const doc = await studyReport(store, "modes");
    const section = doc.sections.find((x) => x.heading === "Time ratio of the modes across the sweep")!;
    expect(section.charts!.map((c) => c.id)).toEqual(["sweep-ratio-kernel-run-mode-b-over-a"]);
    const chart = section.charts![0]!;
    expect(chart.title).toBe("Kernel.run: mode=b over mode=a across the sweep");
    expect(chart.caption).toContain("Mean time of the Kernel.run invocations of mode=b divided by the mean of those of mode=a at the same Q and value of workload.c");
    const values = (chart.spec as { data: { values: { Q: number; ratio: number; swept: string }[] } }).data.values;
    // Six Q at each of the four values of c.
    expect(values).toHaveLength(24);
    expect(new Set(values.map((v) => v.swept))).toEqual(new Set(["1", "2", "3", "4"]));
    for (const v of values) expect(v.ratio).toBeCloseTo(2, 9);
  });
});
