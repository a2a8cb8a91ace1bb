import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StudyStore, STUDY_TABLES } from "../../profile/study/index.js";

const MAIN = resolve("dist/cli/main.js");
const dir = mkdtempSync(join(tmpdir(), "ccasim-kill-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SWEEP = join(dir, "kill.sweep.yaml");
writeFileSync(
  SWEEP,
  `scenario: ${resolve("scenarios/known-models.yaml")}\nseed: 5\naxes:\n  workload.x: { from: 1, to: 20, step: 1 }\n  assembly.components.B.params.implementation: [B1, B2]\nset:\n  workload.iterations: 30\n`,
);
const TOTAL = 40;
const DB = join(dir, "study.db");

/** Starts a sweep; resolves after `kill -9` once it has reported `killAfter` finished points, or at its exit. */
function sweepUntil(killAfter: number | undefined, jobs: number): Promise<{ killed: boolean; code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [MAIN, "sweep", SWEEP, "--db", DB, "--resume", "--jobs", String(jobs), "--progress-every", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let killed = false;
    child.stderr.on("data", (b: Buffer) => {
      stderr += b.toString();
      const m = [...stderr.matchAll(/sweep: (\d+)\//g)].map((x) => Number(x[1]));
      if (!killed && killAfter !== undefined && m.some((n) => n >= killAfter)) {
        killed = true;
        // why: kill -9 in the middle of the next points, while commits are in flight
        setTimeout(() => child.kill("SIGKILL"), 150);
      }
    });
    child.on("error", fail);
    child.on("exit", (code) => done({ killed, code, stderr }));
  });
}

async function counts() {
  const store = await StudyStore.open(DB, { readOnly: true });
  try {
    const q = async (sql: string) => (await store.query(sql)).rows;
    const points = (await q(`SELECT count(*), count(DISTINCT point_id) FROM point`))[0] as [number, number];
    const orphans: Record<string, number> = {};
    for (const t of [...STUDY_TABLES.filter((x) => x.name !== "point"), { name: "timing" }]) {
      orphans[t.name] = Number((await q(`SELECT count(*) FROM "${t.name}" WHERE point_id NOT IN (SELECT point_id FROM point)`))[0][0]);
    }
    const badRecords = Number((await q(`SELECT count(*) FROM point p WHERE record_count <> (SELECT count(*) FROM record r WHERE r.point_id = p.point_id)`))[0][0]);
    const timing = (await q(`SELECT count(*), count(DISTINCT point_id) FROM timing`))[0];
    return { points, orphans, badRecords, timing };
  } finally {
    store.close();
  }
}

describe("a sweep killed with kill -9", () => {
  it("resumes and ends with exactly one result per point", async () => {
    expect(existsSync(MAIN), "run 'npm run build' first: the sweep runs the built CLI").toBe(true);
    const first = await sweepUntil(3, 1);
    expect(first.killed).toBe(true);
    expect(first.code).toBeNull();
    const afterFirst = await counts();
    expect(afterFirst.points[0]).toBeLessThan(TOTAL);
    expect(afterFirst.points[0]).toBe(afterFirst.points[1]);
    expect(Object.values(afterFirst.orphans).every((n) => n === 0)).toBe(true);

    const second = await sweepUntil(afterFirst.points[0] + 4, 2);
    const afterSecond = await counts();
    if (second.killed) expect(afterSecond.points[0]).toBeLessThanOrEqual(TOTAL);

    const last = await sweepUntil(undefined, 2);
    expect(last.code, last.stderr).toBe(0);
    const end = await counts();
    expect(end.points).toEqual([TOTAL, TOTAL]);
    expect(end.timing).toEqual([TOTAL, TOTAL]);
    expect(end.badRecords).toBe(0);
    expect(end.orphans).toEqual(Object.fromEntries(Object.keys(end.orphans).map((k) => [k, 0])));
  }, 180_000); // why: three CLI processes, each starting worker threads; slow when the machine is loaded
});
