import fc from "fast-check";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkRunOutputFolder, OutputFolderError, RUN_OUTPUT_NAMES, runScenario } from "../../scenarios/index.js";
import { readTree, tempDir } from "./fixtures.js";

const KNOWN = "scenarios/known-models.yaml";
const SMALL = ["workload.iterations=2", "outputs.records=[csv]"];
const scratch = tempDir("ccasim-output-folder-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
/** A fresh folder path under the scratch folder (not created). */
const fresh = () => join(scratch, `f${folders++}`);

/** A folder holding `names` (a trailing slash makes a folder), with a run's summary when `summary` is set. */
function folderWith(names: readonly string[], summary = true): string {
  const dir = fresh();
  mkdirSync(dir);
  for (const n of names) {
    if (n.endsWith("/")) mkdirSync(join(dir, n));
    else writeFileSync(join(dir, n), "{}\n");
  }
  if (summary) writeFileSync(join(dir, "summary.json"), JSON.stringify({ ccasim: "run summary" }));
  return dir;
}

function refusal(dir: string, overwrite = false): string {
  try {
    checkRunOutputFolder(dir, { overwrite });
  } catch (e) {
    expect(e).toBeInstanceOf(OutputFolderError);
    expect((e as OutputFolderError).isInputError).toBe(true);
    return (e as Error).message;
  }
  throw new Error(`expected ${dir} to be refused`);
}

describe("the output folder of a run", () => {
  it("may be absent, empty, or a folder an earlier run wrote (with the report ccasim report adds)", () => {
    expect(() => checkRunOutputFolder(fresh())).not.toThrow();
    expect(() => checkRunOutputFolder(folderWith([], false))).not.toThrow();
    expect(() => checkRunOutputFolder(folderWith(["timing.json", "profile/", "records.csv", "report.html"]))).not.toThrow();
    // What tools leave in it: a file manager's index, a killed atomic write's temporary file.
    expect(() => checkRunOutputFolder(folderWith(["timing.json", ".DS_Store", ".report.html.tmp-4711", ".records.csv.tmp-12-3"]))).not.toThrow();
    expect(() => checkRunOutputFolder(folderWith([".DS_Store"], false))).not.toThrow();
    expect(refusal(folderWith(["timing.json", ".git/"]))).toContain("it holds files a run does not write (.git)");
  });

  it("refuses a folder holding other files, naming the path, the files and --overwrite, and leaves it as it was", () => {
    const dir = folderWith(["timing.json", "notes.txt", "data/"]);
    const before = readTree(dir);
    const message = refusal(dir);
    expect(message).toContain(`output folder '${dir}'`);
    expect(message).toContain("it holds files a run does not write (data, notes.txt)");
    expect(message).toContain("--overwrite");
    expect(readTree(dir)).toEqual(before);
    expect(() => checkRunOutputFolder(dir, { overwrite: true })).not.toThrow();
  });

  it("refuses a run's folder whose profile folder holds files a run does not write there, naming them", () => {
    const dir = folderWith(["timing.json", "profile/", "profile/MULTI__TIME/", "profile/MULTI__TIME/profile.0.0.0", "profile/profile.1.0.0"]);
    expect(() => checkRunOutputFolder(dir)).not.toThrow();
    for (const mine of ["profile/notes.txt", "profile/extra/", "profile/MULTI__TIME/mine.txt", "profile/MULTI__TIME/old/"]) {
      const held = folderWith(["timing.json", "profile/", "profile/MULTI__TIME/", "profile/MULTI__TIME/profile.0.0.0", mine]);
      const before = readTree(held);
      expect(refusal(held)).toContain(`it holds files a run does not write (${mine.replace(/\/$/, "")})`);
      expect(readTree(held)).toEqual(before);
      expect(() => checkRunOutputFolder(held, { overwrite: true })).not.toThrow();
    }
    // A rerun keeps a file added to the profile of the run before, refusing the folder.
    const out = fresh();
    runScenario(KNOWN, { out, set: SMALL });
    writeFileSync(join(out, "profile", "notes.txt"), "mine");
    expect(() => runScenario(KNOWN, { out, set: SMALL })).toThrow(/profile\/notes\.txt/);
    expect(readFileSync(join(out, "profile", "notes.txt"), "utf8")).toBe("mine");
  });

  it("refuses a folder of run file names that no run wrote, a file, and a symbolic link", () => {
    expect(refusal(folderWith(["timing.json"], false))).toContain("not a run's folder");
    expect(refusal(folderWith(["records.csv"]))).toContain("not a run's folder");
    const notRun = folderWith(["timing.json"], false);
    writeFileSync(join(notRun, "summary.json"), '{"ccasim": "evidence"}');
    expect(refusal(notRun)).toContain("not a run's folder");
    const file = fresh();
    writeFileSync(file, "mine");
    expect(refusal(file)).toContain("it is a file, not a folder");
    const link = fresh();
    symlinkSync(folderWith(["timing.json"]), link);
    expect(refusal(link)).toContain("it is a symbolic link");
    // With a trailing slash too (the system would follow the link).
    expect(refusal(`${link}/`)).toContain("it is a symbolic link");
  });

  it("never replaces the working directory or one of its ancestors, even with overwrite", () => {
    for (const dir of [".", "..", process.cwd(), join(process.cwd(), "scenarios", "..")]) {
      expect(refusal(dir, true)).toContain("it is the working directory or one of its ancestors");
    }
    // An empty path (`--out "$DIR"` with DIR unset) is the working directory to the system.
    for (const dir of ["", " "]) expect(refusal(dir, true)).toContain("the path is empty");
  });

  it("accepts exactly the folders made of run output names with a run's summary and timing", () => {
    const foreign = fc.stringMatching(/^[a-z]{1,8}\.(txt|dat)$/).filter((n) => !RUN_OUTPUT_NAMES.includes(n));
    fc.assert(
      fc.property(fc.subarray(RUN_OUTPUT_NAMES.filter((n) => n !== "summary.json" && n !== "timing.json")), fc.option(foreign), (names, extra) => {
        const dir = folderWith([...names, "timing.json", ...(extra === null ? [] : [extra])]);
        if (extra === null) expect(() => checkRunOutputFolder(dir)).not.toThrow();
        else expect(refusal(dir)).toContain(extra);
      }),
      { numRuns: 40 },
    );
  });

  it("is checked by runScenario before the simulation, and a rerun replaces an earlier run's folder", () => {
    const dir = folderWith(["notes.txt"], false);
    // The run would fail (a negative cost in its first iteration): the folder's refusal comes first.
    expect(() => runScenario(KNOWN, { out: dir, set: ["assembly.components.Driver.params.cost=i-3"] })).toThrow(OutputFolderError);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    const out = fresh();
    runScenario(KNOWN, { out, set: SMALL });
    writeFileSync(join(out, "report.html"), "<html></html>");
    const again = runScenario(KNOWN, { out, set: SMALL, seed: 2 });
    expect(JSON.parse(readFileSync(join(again.outDir, "summary.json"), "utf8")).seed).toBe(2);
    expect(existsSync(join(out, "report.html"))).toBe(false);
    const replaced = runScenario(KNOWN, { out: dir, set: SMALL, overwrite: true });
    expect(existsSync(join(replaced.outDir, "notes.txt"))).toBe(false);
    expect(existsSync(join(replaced.outDir, "summary.json"))).toBe(true);
  });
});
