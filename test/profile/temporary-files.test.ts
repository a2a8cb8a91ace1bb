import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  onTemporaryForgotten,
  onTemporaryTracked,
  processExists,
  removeStaleTemporaries,
  removeTrackedTemporaries,
  temporarySibling,
  temporaryTarget,
  trackedTemporaries,
  trackTemporary,
  writeTextFileAtomically,
} from "../../profile/index.js";
import { writeDirectoryAtomically } from "../../scenarios/index.js";
import { tempDir } from "../scenarios/fixtures.js";

const scratch = tempDir("ccasim-temporaries-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The pid of a process that has ended (a pid is not reused at once). */
const DEAD = spawnSync(process.execPath, ["-e", ""]).pid;

let folders = 0;
const fresh = (): string => {
  const dir = join(scratch, `d${folders++}`);
  mkdirSync(dir);
  return dir;
};

/** A folder left by a killed writer, with a file in it. */
function leftover(path: string): string {
  mkdirSync(path);
  writeFileSync(join(path, ".records.csv.tmp-1"), "half a row");
  return path;
}

describe("temporaries of killed writers", () => {
  it("are told apart by their pid", () => {
    expect(processExists(process.pid)).toBe(true);
    expect(processExists(process.ppid)).toBe(true);
    expect(processExists(DEAD)).toBe(false);
    expect(processExists(0)).toBe(false);
  });

  it("are removed beside the output written, those of live processes and other names kept", () => {
    const dir = fresh();
    const out = join(dir, "int");
    leftover(join(dir, `.int.tmp-${DEAD}-0`));
    writeFileSync(join(dir, `.int.tmp-${DEAD}`), "an atomic text file's");
    leftover(join(dir, `.int.old-${DEAD}-3`));
    leftover(join(dir, `.int.tmp-${process.ppid}-0`)); // a live writer of the same output
    leftover(join(dir, `.other.tmp-${DEAD}-0`)); // another output's: its writer cleans it
    writeFileSync(join(dir, `.int.tmp-notes`), "mine");
    expect(removeStaleTemporaries(out).sort()).toEqual([`.int.old-${DEAD}-3`, `.int.tmp-${DEAD}`, `.int.tmp-${DEAD}-0`].map((n) => join(dir, n)));
    expect(readdirSync(dir).sort()).toEqual([`.int.tmp-${process.ppid}-0`, ".int.tmp-notes", `.other.tmp-${DEAD}-0`]);
    expect(removeStaleTemporaries(join(scratch, "missing", "x"))).toEqual([]);
  });

  it("are removed by the next writeDirectoryAtomically and writeTextFileAtomically of that output", () => {
    const dir = fresh();
    leftover(join(dir, `.run.tmp-${DEAD}-0`));
    writeFileSync(join(dir, `.report.html.tmp-${DEAD}`), "<html");
    writeDirectoryAtomically(join(dir, "run"), (tmp) => writeFileSync(join(tmp, "a.txt"), "a"));
    writeTextFileAtomically(join(dir, "report.html"), (write) => write("<html></html>"));
    expect(readdirSync(dir).sort()).toEqual(["report.html", "run"]);
  });
});

describe("temporaries being written", () => {
  it("are tracked while they exist and forgotten once renamed or removed", () => {
    const dir = fresh();
    const seen: string[][] = [];
    writeDirectoryAtomically(join(dir, "run"), (tmp) => {
      seen.push([...trackedTemporaries()]);
      writeTextFileAtomically(join(tmp, "records.csv"), (write) => {
        seen.push([...trackedTemporaries()]);
        write("a\n");
      });
      expect(tmp).toMatch(new RegExp(`/\\.run\\.tmp-${process.pid}-\\d+$`));
    });
    expect(seen[0]).toHaveLength(1);
    expect(seen[1]).toHaveLength(2);
    expect(seen[1][1]).toMatch(new RegExp(`\\.records\\.csv\\.tmp-${process.pid}-\\d+$`));
    expect(trackedTemporaries()).toEqual([]);
    expect(() => writeTextFileAtomically(join(dir, "x.txt"), () => {
      throw new Error("failed");
    })).toThrow("failed");
    expect(trackedTemporaries()).toEqual([]);
    expect(readdirSync(dir)).toEqual(["run"]);
  });

  it("are removed whole by removeTrackedTemporaries (what an interrupted command does)", () => {
    const dir = fresh();
    const folder = leftover(temporarySibling(join(dir, "run")));
    const file = temporarySibling(join(dir, "r.csv"));
    writeFileSync(file, "x");
    const forgetFolder = trackTemporary(folder);
    trackTemporary(file);
    expect(removeTrackedTemporaries().sort()).toEqual([file, folder].sort());
    expect(existsSync(folder) || existsSync(file)).toBe(false);
    expect(trackedTemporaries()).toEqual([]);
    forgetFolder(); // forgetting one already removed is harmless
    expect(removeTrackedTemporaries()).toEqual([]);
  });
});

describe("tracked temporaries", () => {
  it("tell their listeners whether they are written asynchronously, and are forgotten once", () => {
    const seen: string[] = [];
    const stops = [onTemporaryTracked((p, a) => seen.push(`tracked ${p} ${a}`)), onTemporaryForgotten((p, a) => seen.push(`forgotten ${p} ${a}`))];
    const forget = trackTemporary("x", { asynchronous: true });
    forget();
    forget();
    trackTemporary("y")();
    for (const stop of stops) stop();
    expect(seen).toEqual(["tracked x true", "forgotten x true", "tracked y false", "forgotten y false"]);
  });

  it("name the output they stand for", () => {
    expect(temporaryTarget(temporarySibling(join("a", "out.csv")))).toBe(join("a", "out.csv"));
    expect(temporaryTarget(join("a", ".run.old-12-3"))).toBe(join("a", "run"));
    expect(temporaryTarget(join("a", "run"))).toBeUndefined();
  });
});
