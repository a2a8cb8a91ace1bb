import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTrialInput, trialReport } from "../../analysis/report/index.js";
import { runScenario } from "../../scenarios/index.js";
import { runCli } from "../cli/run-cli.js";
import { costLawStudy } from "./cost-law-study.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-report-counts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the counts a report states", () => {
  it("say one point and one section in the singular, for a study of one point", async () => {
    const db = await costLawStudy(scratch, "one-point", (text) => text.replace("workload.x: [1, 2, 4, 8, 16, 32]", "workload.x: [4]").replace("workload.c: [1, 2, 3, 4]", "workload.c: [2]"));
    const out = join(scratch, "one-point.html");
    const r = await runCli(["report", db, "--out", out]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`wrote ${out} (0 charts, 1 section) from one-point.db\n`);
    expect(readFileSync(out, "utf8")).toContain('<p class="subtitle">1 point, axes workload.c, workload.x</p>');
  });

  it("say one thread and one invocation record in the singular, for a run of one rank that recorded one call", () => {
    const run = runScenario("scenarios/known-models.yaml", {
      out: join(scratch, "one-rank"),
      set: ["machine.nodes=1", "machine.processesPerNode=1", "workload.iterations=1", "outputs.records=[csv]", "assembly.proxies=[{ port: A.work, parameters: { x: argument x } }]"],
    });
    const doc = trialReport(readTrialInput(run.outDir));
    expect(doc.subtitle).toBe("1 invocation record, 1 thread");
  });
});
