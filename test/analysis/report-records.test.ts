import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baselineMode, digestRecords, levelChart, levelPoints, readTrialInput, recordPoints, recordRoles, renderReportHtml, trialReport } from "../../analysis/report/index.js";
import { RandomStream } from "../../engine/random.js";
import { ProfileError, readTrial, writeRecordsCsv, writeRecordsJsonl, type InvocationRecord } from "../../profile/index.js";
import { runScenario } from "../../scenarios/index.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-report-records-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Shock-like records, more than the 5000 that decide the roles: compute routines with Q and mode,
 * and a ghost update with a level on three ranks. The first `plain` records have no parameter that
 * could be Q, so the roles must come from the records that follow them.
 */
function records(n: number, plain = 0): InvocationRecord[] {
  const rng = new RandomStream(11, "report records");
  const out: InvocationRecord[] = [];
  for (let i = 0; i < n; i++) {
    const rank = i % 3;
    const t = 1 + rng.next();
    if (i < plain) out.push({ component: "Driver", port: "go", method: "go", rank, parameters: { phase: "setup" }, start: i, wallTime: t, mpiTime: 0, computeTime: t, counters: {} });
    else if (i % 5 === 4) out.push({ component: "AMRMesh", port: "ghost", method: "update", rank, parameters: { level: i % 2 }, start: i, wallTime: t + 2, mpiTime: 2, computeTime: t, counters: { PAPI_TOT_CYC: 100 } });
    else out.push({ component: i % 2 ? "EFMFlux" : "States", port: "compute", method: "compute", rank, parameters: { Q: 1000 * (1 + (i % 7)), mode: i % 4 < 2 ? "sequential" : "strided" }, start: i, wallTime: t, mpiTime: 0, computeTime: t, counters: {} });
  }
  return out;
}

describe("the report's digest of records", () => {
  it("is what the array functions give, the roles chosen from the first 5000 records", () => {
    for (const rs of [records(12_000), records(7000, 5000), records(40)]) {
      const roles = recordRoles(rs);
      const d = digestRecords(rs);
      expect(d.count).toBe(rs.length);
      expect(d.roles).toEqual(roles);
      expect(d.points).toEqual(recordPoints(rs, roles));
      expect(d.levelPoints).toEqual(levelPoints(rs, roles.level ?? "level"));
    }
    // Roles from a sample that has no Q: the later records' Q is not read.
    const late = digestRecords(records(7000, 5000));
    expect(late.roles.q).toBeUndefined();
    expect(late.points).toEqual([]);
    expect(digestRecords(records(12_000)).roles).toEqual({ q: "Q", mode: "mode", level: "level" });
  });

  it("numbers the level points per routine, level and rank, in record order", () => {
    const d = digestRecords(records(200));
    const seen = new Map<string, number>();
    for (const p of d.levelPoints) {
      const key = `${p.level}/${p.rank}`;
      expect(p.invocation).toBe(seen.get(key) ?? 0);
      seen.set(key, p.invocation + 1);
    }
    expect(d.levelPoints).toHaveLength(40);
    expect(d.points).toHaveLength(160);
    // Routine and mode names are shared, not one string per point.
    const names = new Set(d.points.map((p) => p.routine));
    expect([...names].sort()).toEqual(["EFMFlux.compute", "States.compute"]);
  });

  it("charts the level points with one colour per level and, for a few ranks, one symbol per rank (Figure 6)", () => {
    const chart = levelChart(digestRecords(records(200)).levelPoints)!;
    const enc = (chart.spec as { encoding: Record<string, { field: string }> }).encoding;
    expect(enc.color.field).toBe("level");
    expect(enc.shape.field).toBe("rank");
    expect(chart.caption).toContain("one colour per AMR level and one symbol per rank");
    // Past eight ranks the symbols would repeat: colour alone.
    const many = digestRecords(records(200)).levelPoints.map((p, i) => ({ ...p, rank: i % 9 }));
    expect((levelChart(many)!.spec as { encoding: Record<string, unknown> }).encoding.shape).toBeUndefined();
  });

  it("is streamed from a records-only folder in either format, with the same digest as the records", () => {
    const rs = records(9000);
    for (const [name, write] of [["records.csv", writeRecordsCsv], ["records.jsonl", writeRecordsJsonl]] as const) {
      const dir = join(scratch, name);
      mkdirSync(dir);
      write(rs, join(dir, name));
      const input = readTrialInput(dir);
      expect(input.trial).toBeUndefined();
      expect(input.records).toEqual(digestRecords(rs));
      const doc = trialReport(input);
      expect(doc.subtitle).toBe("9000 invocation records");
      expect(doc.sections.map((s) => s.heading)).toEqual(["Run", "Time per invocation", "Mean and standard deviation", "Strided vs sequential", "Message passing"]);
    }
  });

  it("takes sequential as the baseline mode, else the first by character code, and none of no mode", () => {
    expect(baselineMode(new Set(["strided", "sequential", "random"]))).toBe("sequential");
    expect(baselineMode(["y", "x", "Y"])).toBe("Y");
    expect(baselineMode([])).toBeUndefined();
  });

  it("charts modes of other names over their baseline, as the run's evidence compares them", () => {
    // The papers' X- and Y-derivatives as the records name them: y (strided) 3 times x (sequential).
    const renamed = (names: Record<string, string>, routines: readonly string[] = ["States"]) =>
      routines.flatMap((component) =>
        [1000, 2000, 4000].flatMap((Q) =>
          Object.entries(names).map(([mode, factor]) => ({ component, port: "compute", method: "compute", rank: 0, parameters: { Q, mode }, start: 0, wallTime: Q * Number(factor), mpiTime: 0, computeTime: Q * Number(factor), counters: {} })),
        ),
      );
    const section = (rs: InvocationRecord[]) => trialReport({ name: "modes", records: digestRecords(rs) }).sections.find((s) => s.charts?.some((c) => /ratio/.test(c.id)));
    const xy = section(renamed({ x: "1", y: "3" }))!;
    expect(xy.heading).toBe("Time ratio of the modes");
    const chart = xy.charts![0]!;
    expect(chart.id).toBe("mode-ratio");
    expect(chart.caption).toContain("Mean time of each mode divided by its routine's baseline mode's at the same Q (States.compute: x)");
    const values = (chart.spec as { data: { values: { series: string; Q: number; ratio: number }[] } }).data.values;
    expect(values.map((v) => [v.series, v.Q, v.ratio])).toEqual([1000, 2000, 4000].map((Q) => ["States.compute y/x", Q, 3]));
    // The baseline is sequential when a routine has it, whatever the others' names.
    const three = section(renamed({ random: "5", sequential: "1", strided: "2" }))!.charts![0]!;
    expect((three.spec as { data: { values: { series: string }[] } }).data.values.map((v) => v.series)).toEqual([
      ...Array(3).fill("States.compute random/sequential"),
      ...Array(3).fill("States.compute strided/sequential"),
    ]);
    // Sequential and strided alone keep the papers' chart.
    const papers = section(renamed({ sequential: "1", strided: "2" }, ["States", "EFMFlux"]))!;
    expect(papers.heading).toBe("Strided vs sequential");
    expect(papers.charts![0]!.id).toBe("strided-ratio");
    // A routine of one mode has nothing to compare.
    expect(section(renamed({ x: "1" }))).toBeUndefined();
  });

  it("names a path that is not there, as an input error", () => {
    const missing = join(scratch, "no-such-run");
    expect(() => readTrialInput(missing)).toThrow(ProfileError);
    expect(() => readTrialInput(missing)).toThrow(`cannot read '${missing}'`);
  });

  it("reads a run folder's records once: the trial is read without them", () => {
    const run = runScenario("scenarios/known-models.yaml", { out: join(scratch, "run"), set: ["workload.iterations=30", "outputs.records=[csv]"] });
    const input = readTrialInput(run.outDir);
    expect(input.records.count).toBe(run.result.mastermind!.count);
    expect(input.records.count).toBeGreaterThan(0);
    expect(input.trial!.records).toHaveLength(0);
    expect(input.records.roles.q).toBe("x");
    // readTrial attaches a profile folder's records unless told not to.
    const profileWithRecords = join(scratch, "run", "profile", "MULTI__TIME");
    writeRecordsCsv(records(10), join(profileWithRecords, "records.csv"));
    expect(readTrial(profileWithRecords).records).toHaveLength(10);
    expect(readTrial(profileWithRecords, { records: false }).records).toHaveLength(0);
    // A profile folder holding its records: they are digested, not also attached to the trial.
    const direct = readTrialInput(profileWithRecords);
    expect(direct.records.count).toBe(10);
    expect(direct.trial!.records).toHaveLength(0);
    // An empty records file in the run folder gives way to the profile folder's.
    const runProfile = join(scratch, "run", "profile");
    writeRecordsCsv(records(25), join(runProfile, "records.csv"));
    writeRecordsCsv([], join(run.outDir, "records.csv"));
    expect(readTrialInput(run.outDir).records.count).toBe(25);
    // A profile that is there but unreadable is an error, records or not.
    writeFileSync(join(profileWithRecords, "profile.0.0.0"), "broken\n");
    expect(() => readTrialInput(run.outDir)).toThrow(/profile\.0\.0\.0:1:/);
    expect(() => readTrialInput(profileWithRecords)).toThrow(/profile\.0\.0\.0:1:/);
  });

  it("are not counted in the subtitle of a real profile, which has none", () => {
    expect(trialReport(readTrialInput("../shared/data/tau/ppk/xgc-nosamples.ppk")).subtitle).toBe("16 threads");
  });
});

describe("report tables", () => {
  it("group the digits of large numbers in threes (narrow no-break spaces), keep small ones and fractions as they are, and head time columns with their unit", async () => {
    const html = await renderReportHtml({
      title: "t",
      subtitle: "s",
      sections: [{ heading: "h", tables: [{ columns: ["a"], rows: [[872650000000], [-12345.5], [2463.5], [1234], [0.000123456789], [1e21], ["12345"]] }] }],
    });
    const cells = [...html.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells).toEqual(["872\u202f650\u202f000\u202f000", "-12\u202f345.5", "2463.5", "1234", "0.000123457", "1e+21", "12345"]);
    const doc = trialReport(readTrialInput("../shared/data/tau/hatchet-cpi-mpi"));
    expect(doc.sections.find((s) => s.heading === "Profile")!.tables![0]!.columns).toEqual(["timer", "exclusive TIME (us)", "inclusive TIME (us)", "calls", "inclusive/call (us)"]);
  });
});
