import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkOutputPath, inputFolderHolding, inputReplacedBy, OutputPathError, outputPathProblem, unwritableParent } from "../../profile/index.js";
import { tempDir } from "../scenarios/fixtures.js";

const scratch = tempDir("ccasim-protected-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const proj = join(scratch, "proj");
mkdirSync(proj);
const scenario = join(proj, "s.yaml");
writeFileSync(scenario, "name: s\n");

describe("an output that would replace an input", () => {
  it("is the input, or a folder holding it, however the paths are spelt", () => {
    const input = { path: scenario, what: "the scenario file" };
    expect(inputReplacedBy(scenario, [input])).toEqual(input);
    expect(inputReplacedBy(proj, [input])).toEqual(input);
    expect(inputReplacedBy(scratch, [input])).toEqual(input);
    expect(inputReplacedBy(join(proj, "..", "proj", "s.yaml"), [input])).toEqual(input);
    expect(inputReplacedBy(`${proj}/`, [input])).toEqual(input);
    // Relative to the working directory, as a user types it.
    expect(inputReplacedBy(relative(process.cwd(), proj), [relative(process.cwd(), scenario)])?.path).toBe(relative(process.cwd(), scenario));
  });

  it("is seen through a symbolic link to the input's folder", () => {
    const link = join(scratch, "link-to-proj");
    symlinkSync(proj, link);
    expect(inputReplacedBy(join(link, "s.yaml"), [scenario])?.path).toBe(scenario);
    expect(inputReplacedBy(link, [scenario])?.path).toBe(scenario);
  });

  it("is not an output beside the input, inside its folder, or with a name it starts", () => {
    expect(inputReplacedBy(join(proj, "out"), [scenario])).toBeUndefined();
    expect(inputReplacedBy(join(scratch, "pro"), [scenario])).toBeUndefined();
    expect(inputReplacedBy(`${scenario}.out`, [scenario])).toBeUndefined();
    // A report written into the run folder it reports on.
    expect(inputReplacedBy(join(proj, "report.html"), [proj])).toBeUndefined();
  });

  it("is not an output inside an input folder, which is refused on its own", () => {
    const output = join(proj, "sub", "out");
    expect(inputReplacedBy(output, [proj])).toBeUndefined();
    expect(inputFolderHolding(output, [proj])?.path).toBe(proj);
    expect(outputPathProblem(output, { inputs: [{ path: proj, what: "the profile" }] })).toBe(
      `it is inside the profile '${proj}', a folder this command reads, and would change it; choose an output path outside that folder`,
    );
  });

  it("is refused with the output, the input and what it is named", () => {
    let error: unknown;
    try {
      checkOutputPath(proj, "output folder", { inputs: [{ path: scenario, what: "the scenario file" }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OutputPathError);
    expect((error as OutputPathError).isInputError).toBe(true);
    expect((error as Error).message).toBe(
      `cannot write the output folder '${proj}': it holds the scenario file '${scenario}', which this command reads and would replace with its output; choose another output path`,
    );
    expect(outputPathProblem(scenario, { inputs: [scenario] })).toContain(`it is an input '${scenario}'`);
    expect(outputPathProblem(" ")).toContain("the path is empty");
  });
});

describe("an output inside an input folder", () => {
  it("is found at any depth, through a symbolic link, but not beside the folder nor inside an input file", () => {
    expect(inputFolderHolding(join(proj, "out"), [proj])?.path).toBe(proj);
    expect(inputFolderHolding(join(proj, "a", "b", "c"), [proj])?.path).toBe(proj);
    const link = join(scratch, "link-to-proj-2");
    symlinkSync(proj, link);
    expect(inputFolderHolding(join(link, "out"), [proj])?.path).toBe(proj);
    expect(inputFolderHolding(join(scratch, "proj-out"), [proj])).toBeUndefined();
    expect(inputFolderHolding(join(scenario, "x"), [scenario])).toBeUndefined();
    expect(inputFolderHolding(proj, [proj])).toBeUndefined(); // the input itself: inputReplacedBy's
  });

  it("is allowed where the folder keeps it, and only there", () => {
    const run = { path: proj, what: "the input", keeps: [join(proj, "report.html")] };
    expect(inputFolderHolding(join(proj, "report.html"), [run])).toBeUndefined();
    expect(inputFolderHolding(join(proj, ".", "report.html"), [run])).toBeUndefined();
    expect(inputFolderHolding(join(proj, "other.html"), [run])).toEqual(run);
  });
});

describe("an output whose parent cannot take it", () => {
  it("is one under a folder that cannot be written, named in words", () => {
    expect(unwritableParent("/proc/x")).toMatch(/^its parent \/proc is not writable \(E[A-Z]+\)$/);
    expect(() => checkOutputPath("/proc/x", "output folder")).toThrow("cannot write the output folder '/proc/x': its parent /proc is not writable");
  });

  it("is one under a file, or under a missing folder that cannot be made", () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "x");
    expect(unwritableParent(join(file, "out"))).toBe(`its parent ${file} is a file, not a folder`);
    expect(unwritableParent(join(file, "sub", "out"))).toBe(`its parent ${join(file, "sub")} does not exist and cannot be created: ${file} is a file, not a folder`);
    expect(unwritableParent("/proc/no/such/out")).toMatch(/^its parent \/proc\/no\/such does not exist and cannot be created: \/proc is not writable/);
  });

  it("is not one under a writable folder, nor under missing folders that can be made, and the check leaves nothing", () => {
    const parent = join(scratch, "writable");
    mkdirSync(parent);
    expect(unwritableParent(join(parent, "out"))).toBeUndefined();
    expect(unwritableParent(join(parent, "a", "b", "out"))).toBeUndefined();
    expect(outputPathProblem(join(parent, "out"), { inputs: [scenario] })).toBeUndefined();
    expect(readdirSync(parent)).toEqual([]);
  });
});
