import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { fileErrorText, wordFileErrors } from "../../profile/file-error.js";
import { readRecords, readTrial } from "../../profile/index.js";
import { tempDir } from "../scenarios/fixtures.js";

async function cli(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const code = await main(argv, { out: () => undefined, err: (s) => (stderr += s) });
  return { code, stderr };
}

describe("file errors in words", () => {
  const missing = join(tempDir(), "nothere.yaml");
  const dir = tempDir();

  it.each([
    [["run", missing], "cannot read the scenario: no such file"],
    [["validate", missing], "cannot read the scenario: no such file"],
    [["run", dir], "cannot read the scenario: is a directory, not a scenario file"],
    [["validate", dir], "cannot read the scenario: is a directory, not a scenario file"],
    [["sweep", missing, "--list"], "cannot read the sweep file: no such file"],
    [["sweep", dir, "--list"], "is a directory, not a sweep file"],
    [["profile", "show", missing], "no such file"],
    [["power", missing], "no such file"],
    [["report", missing], "no such file"],
    [["select", dir], "is a directory, not a file"],
    [["validate-model", "scenarios/lapw0.yaml", "--measured", missing], "cannot read the table: no such file"],
  ])("ccasim %j says why in words, with exit code 2", async (argv, words) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(words);
    expect(r.stderr).not.toMatch(/\bE[A-Z]{3,}\b/);
  });

  it("words an errno and leaves other text alone", () => {
    expect(fileErrorText(Object.assign(new Error("x"), { code: "EACCES" }))).toBe("permission denied");
    expect(fileErrorText(new Error("plain"))).toBe("plain");
    expect(wordFileErrors("cannot read 'a': ENOENT: no such file or directory, stat 'a'")).toBe("cannot read 'a': no such file");
    expect(wordFileErrors("read: EISDIR: illegal operation on a directory, read")).toBe("read: is a directory, not a file");
    expect(wordFileErrors("no file here")).toBe("no file here");
  });

  it("are in words where the library throws them, for library users as well as the CLI", () => {
    const missing = join(tempDir(), "absent.ppk");
    expect(() => readTrial(missing)).toThrow(`cannot read '${missing}': no such file`);
    expect(() => readRecords(join(tempDir(), "absent.csv"))).toThrow(/: no such file$/);
  });
});
