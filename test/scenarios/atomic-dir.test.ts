import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeDirectoryAtomically } from "../../scenarios/index.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-atomic-dir-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("writeDirectoryAtomically", () => {
  it("replaces the folder only when filling it succeeds", () => {
    const dir = join(scratch, "out");
    writeDirectoryAtomically(dir, (tmp) => writeFileSync(join(tmp, "a.txt"), "first"));
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("first");
    expect(() =>
      writeDirectoryAtomically(dir, (tmp) => {
        writeFileSync(join(tmp, "a.txt"), "second");
        throw new Error("stopped");
      }),
    ).toThrow("stopped");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("first");
    expect(readdirSync(scratch)).toEqual(["out"]);
  });

  it("names a file that could not be written by its place in the folder, not in the temporary one", () => {
    const dir = join(scratch, "named");
    let message = "";
    try {
      writeDirectoryAtomically(dir, (tmp) => {
        throw new Error(`cannot write '${join(tmp, "records.csv")}': no space left on device`);
      });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe(`cannot write '${join(dir, "records.csv")}': no space left on device`);
    expect(existsSync(dir)).toBe(false);
    // A system error's path field too; a frozen error and a thrown string come through unchanged.
    let caught: unknown;
    try {
      writeDirectoryAtomically(dir, (tmp) => readFileSync(join(tmp, "missing.json")));
    } catch (e) {
      caught = e;
    }
    expect((caught as { path: string }).path).toBe(join(dir, "missing.json"));
    let frozen: Error | undefined;
    expect(() =>
      writeDirectoryAtomically(dir, (tmp) => {
        throw (frozen = Object.freeze(new RangeError(`cannot use ${tmp}`)));
      }),
    ).toThrow(RangeError);
    expect(frozen!.message).toMatch(/cannot use .*\.named\.tmp-/);
    expect(() => writeDirectoryAtomically(dir, () => { throw "text"; })).toThrow("text");
  });

  it("gives the folder the permissions a plain mkdir gives under the umask, not mkdtemp's 0700", () => {
    const before = process.umask(0o027);
    try {
      for (const [umask, mode] of [[0o027, 0o750], [0o002, 0o775]] as const) {
        process.umask(umask);
        const dir = join(scratch, `mode-${umask.toString(8)}`);
        writeDirectoryAtomically(dir, (tmp) => writeFileSync(join(tmp, "a.txt"), "x"));
        expect(statSync(dir).mode & 0o777).toBe(mode);
        const plain = `${dir}-mkdir`;
        mkdirSync(plain);
        expect(statSync(dir).mode & 0o777).toBe(statSync(plain).mode & 0o777);
        // A replaced folder too.
        writeDirectoryAtomically(dir, (tmp) => writeFileSync(join(tmp, "a.txt"), "y"));
        expect(statSync(dir).mode & 0o777).toBe(mode);
      }
    } finally {
      process.umask(before);
    }
  });

  it("keeps the group a setgid parent gives its folders, as a plain mkdir does", () => {
    const parent = join(scratch, "project");
    mkdirSync(parent);
    chmodSync(parent, 0o2775);
    const dir = join(parent, "out");
    writeDirectoryAtomically(dir, (tmp) => writeFileSync(join(tmp, "a.txt"), "x"));
    const plain = join(parent, "plain");
    mkdirSync(plain);
    expect(statSync(dir).mode & 0o7777).toBe(statSync(plain).mode & 0o7777);
    expect(statSync(dir).gid).toBe(statSync(plain).gid);
    // Linux gives a setgid folder's subfolders the bit too (other systems need not).
    if (process.platform === "linux") expect(statSync(dir).mode & 0o2000).toBe(0o2000);
    expect(readdirSync(parent).sort()).toEqual(["out", "plain"]);
  });

  it("never replaces the working directory, one of its ancestors, or the empty path", () => {
    for (const dir of [".", "..", process.cwd()]) {
      expect(() => writeDirectoryAtomically(dir, () => undefined), JSON.stringify(dir)).toThrow(/refusing to replace .*: it is the working directory or one of its ancestors/);
    }
    for (const dir of ["", " "]) expect(() => writeDirectoryAtomically(dir, () => undefined)).toThrow("refusing to write a folder at an empty path");
    expect(existsSync("package.json")).toBe(true);
  });
});
