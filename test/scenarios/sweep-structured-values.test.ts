import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ScenarioErrors } from "../../scenarios/lang/index.js";
import { loadSweep, loadSweepText, pointRunCommand, pointTask, runSweep, sweepPointOverrides, type Sweep } from "../../scenarios/sweep/index.js";
import { StudyStore } from "../../profile/study/index.js";
import { scenarioErrorsOf, tempDir } from "./fixtures.js";

const KERNEL = "scenarios/kernel-l2.yaml";
const sweepOf = (body: string): Sweep => loadSweepText(`scenario: ${KERNEL}\n${body}`, "lists.sweep.yaml");

const errorOf = (body: string): ScenarioErrors => scenarioErrorsOf(() => sweepOf(body));

const dir = tempDir("ccasim-sweep-lists-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("list and map values in a sweep", () => {
  it("fixes a list-valued key in set:, as --set does", () => {
    const sw = sweepOf("set: { outputs.records: [], workload.iterations: 2 }\naxes:\n  workload.Q: [1000, 2000]\n");
    expect(sw.config.set["outputs.records"]).toEqual([]);
    expect(sweepPointOverrides(sw, sw.points[0])).toEqual(["outputs.records=[]", "workload.iterations=2", "workload.Q=1000"]);
    expect(pointRunCommand(sw, sw.points[0])).toContain("--set 'outputs.records=[]' --set workload.iterations=2");
  });

  it("checks a set: value against the scenario's schema at its key, located in the sweep file", () => {
    const e = errorOf('set: { outputs.records: [csv, parquet], outputs.profile: 3, machine.nodes: [1], outputs.callgraph: "[]" }\n');
    expect(e.errors.map((x) => [x.line, x.column, x.path])).toEqual([
      [2, 31, `set["outputs.records"][1]`],
      [2, 58, `set["outputs.profile"]`],
      [2, 76, `set["machine.nodes"]`],
      [2, 100, `set["outputs.callgraph"]`],
    ]);
    expect(e.message).toContain(`lists.sweep.yaml:2:31: set["outputs.records"][1]: expected one of 'csv', 'jsonl', got "parquet"`);
    expect(e.message).toContain(`set["machine.nodes"]: expected an integer, got a list`);
  });

  it("sweeps a list-valued key over lists, each checked against the key's schema", () => {
    const sw = sweepOf("axes:\n  metrics: [[TIME], [TIME, PAPI_L2_TCM]]\n  workload.Q: [1000, 2000]\n");
    expect(sw.points.map((p) => p.values.metrics)).toEqual([["TIME"], ["TIME"], ["TIME", "PAPI_L2_TCM"], ["TIME", "PAPI_L2_TCM"]]);
    expect(sweepPointOverrides(sw, sw.points[2])).toEqual(['metrics=["TIME","PAPI_L2_TCM"]', "workload.Q=1000"]);
    // The study stores the list as JSON text, and no number.
    const task = pointTask(sw, sw.points[2]).point;
    expect(task.values.metrics).toBe('["TIME","PAPI_L2_TCM"]');
    expect(task.numericValues!.metrics).toBeNull();
    const e = errorOf("axes:\n  metrics: [[TIME], { a: 1 }]\nzip:\n  - { outputs.records: [[csv], [xml]], workload.Q: [1, 2] }\n");
    expect(e.errors.map((x) => [x.line, x.path])).toEqual([
      [3, `axes.metrics[1]`],
      [5, `zip[0]["outputs.records"][1][0]`],
    ]);
  });

  it("takes two maps written in other key orders as one value: the second repeats the first", () => {
    const a = sweepOf("axes:\n  workload.Q: [1000]\n  assembly.components.DerivX.params: [{ loads: 2, stores: 1 }]\n");
    const b = sweepOf("axes:\n  workload.Q: [1000]\n  assembly.components.DerivX.params: [{ stores: 1, loads: 2 }]\n");
    expect(a.points[0].id).toBe(b.points[0].id);
    expect(a.studyHash).toBe(b.studyHash);
    const e = errorOf("axes:\n  assembly.components.DerivX.params: [{ loads: 2, stores: 1 }, { stores: 1, loads: 2 }]\n");
    expect(e.message).toContain(`{"loads":2,"stores":1} repeats item 0 ({"loads":2,"stores":1})`);
  });

  it("stores a swept list as JSON text that queries read", async () => {
    const sw = sweepOf("set: { workload.iterations: 2 }\naxes:\n  metrics: [[TIME], [TIME, PAPI_L2_TCM]]\n");
    const db = join(dir, "lists.db");
    await runSweep(sw, { db });
    const store = await StudyStore.open(db, { readOnly: true });
    try {
      const rows = (
        await store.query(
          `SELECT pa.value, pa.numeric_value, json_array_length(pa.value::JSON), (SELECT count(*) FROM metric m WHERE m.point_id = pa.point_id)
           FROM parameter pa WHERE pa.name = 'metrics' ORDER BY 1`,
        )
      ).rows.map((r) => r.map((v) => (typeof v === "bigint" ? Number(v) : v)));
      expect(rows).toEqual([
        ['["TIME","PAPI_L2_TCM"]', null, 2, 2],
        ['["TIME"]', null, 1, 1],
      ]);
    } finally {
      store.close();
    }
  });

  it("keeps the study hashes and point ids of sweep files of single values", () => {
    // Pinned from studies written before lists and maps were taken: a change would make --resume
    // refuse their databases.
    expect(loadSweep("scenarios/kernel-l2.sweep.yaml").studyHash).toBe("0bfd76c1c5bfe40a");
    expect(loadSweep("scenarios/shock-l2.sweep.yaml").studyHash).toBe("cadc54dba72fd94a");
    const sw = loadSweepText(
      'scenario: scenarios/known-models.yaml\nseed: 9\nset: { assembly.components.A.params.implementation: A2 }\naxes:\n  workload.x: [1, 2.5KiB, "3"]\nzip:\n  - { machine.clock: [1GHz, 2GHz], machine.l2.size: [256KiB, 512KiB] }\nrandom: { n: 2, axes: { workload.iterations: { uniform: [0, 1] } } }\n',
      "pin.sweep.yaml",
    );
    expect([sw.studyHash, sw.otherSeedsHash]).toEqual(["b772211306360fd7", "71cf0c9e559b7f55"]);
    expect(sw.points.slice(0, 3).map((p) => `${p.id}:${p.seed}`)).toEqual(["cc897d71567e5109:2131004970", "4a7d141998712a58:2131004970", "c49eb5c1b89c092a:2131004970"]);
  });
});
