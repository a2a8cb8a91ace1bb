import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";

const ENTRY = "dist/cli/main.js";

// `npx ccasim ...` runs the package's bin directly: it must be an executable script.
describe("the built command-line entry point", () => {
  it("is an executable node script (npm ci builds it; npx runs it)", () => {
    expect(readFileSync(ENTRY, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    expect(statSync(ENTRY).mode & 0o111, `${ENTRY} must be executable`).toBe(0o111);
  });

  it("stops quietly with its exit code when the reader of its output closes early (| head)", async () => {
    // Every thread of a 96-thread profile: far more than a pipe buffer, so writes meet the closed pipe.
    const child = spawn(process.execPath, [ENTRY, "profile", "show", "../shared/data/tau/ppk/xgc.ppk", "--thread", "all"], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    let first = "";
    child.stdout.once("data", (d: Buffer) => {
      first = d.toString();
      child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(first).toContain("xgc.ppk: 96 thread(s)");
    expect(err).toBe("");
    expect(code).toBe(0);
  });
});
