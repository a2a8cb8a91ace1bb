import { describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";

async function run(args: string[]) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

describe("ccasim command line", () => {
  it("prints help with --help and exits 0", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Usage: ccasim <command>");
  });

  it("prints the package version", async () => {
    const r = await run(["--version"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ccasim \d+\.\d+\.\d+\n$/);
  });

  it("exits 2 with a one-line message for an unknown command", async () => {
    const r = await run(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ccasim: unknown command 'frobnicate'/);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  it("exits 2 and prints help when no command is given", async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("Commands:");
  });
});
