import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routineSelections, studyReport } from "../../analysis/report/study-report.js";
import { StudyStore } from "../../profile/study/index.js";
import { loadSweep, runSweep } from "../../scenarios/sweep/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-report-main-"));
const db = join(dir, "main.db");
let store: StudyStore;
// Three kernels called once per iteration (equal record counts): Alpha and Beta are cheap and have
// no Q; Zeta takes most of the time and records Q.
beforeAll(async () => {
  const sweep = join(dir, "main.sweep.yaml");
  writeFileSync(
    sweep,
    readFileSync("test/scenarios/sweeps/cost-law.sweep.yaml", "utf8")
      .replace("calls: [{ port: k, args: { x: x } }]", "calls: [{ port: a, args: { x: x } }, { port: b, args: { x: x } }, { port: k, args: { x: x } }]")
      .replace(
        `      Kernel:
        type: dummy
        params: { cost: "c * x^1.5" }`,
        `      Alpha:
        type: dummy
        params: { cost: "1" }
      Beta:
        type: dummy
        params: { cost: "2" }
      Zeta:
        type: dummy
        params: { cost: "100 * c * x^1.5" }`,
      )
      .replace("      - Driver.k -> Kernel.work", "      - Driver.a -> Alpha.work\n      - Driver.b -> Beta.work\n      - Driver.k -> Zeta.work")
      .replace("      - port: Kernel.work\n        parameters: { Q: argument x }", "      - port: Alpha.work\n      - port: Beta.work\n      - port: Zeta.work\n        parameters: { Q: argument x }"),
  );
  await runSweep(loadSweep(sweep), { db, jobs: 1 });
  store = await StudyStore.open(db, { readOnly: true });
});
afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the main routines of a study report", () => {
  it("are those of most total time, not of most records (ties by name)", async () => {
    expect((await routineSelections(store)).map((r) => r.label)).toEqual(["Zeta.run", "Beta.run"]);
  });

  it("chart time against Q for the routines whose records have Q", async () => {
    expect((await routineSelections(store, "Q")).map((r) => r.label)).toEqual(["Zeta.run"]);
    const doc = await studyReport(store, "main");
    const section = doc.sections.find((s) => s.heading === "Time vs Q across the sweep");
    expect(section?.charts?.map((c) => c.id)).toEqual(["sweep-time-vs-q-zeta-run"]);
  });
});
