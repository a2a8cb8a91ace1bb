import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";

// `npx ccasim ...` runs the package's bin directly: it must be an executable script.
describe("the built command-line entry point", () => {
  it("is an executable node script (npm ci builds it; npx runs it)", () => {
    const path = "dist/cli/main.js";
    expect(readFileSync(path, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    expect(statSync(path).mode & 0o111, `${path} must be executable`).toBe(0o111);
  });
});
