import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeRunOutputs } from "../../../scenarios/index.js";
import { runShock } from "./run-shock.js";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
}

describe("shock runs are deterministic", () => {
  const tmp = mkdtempSync(join(tmpdir(), "ccasim-shock-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const short = ["workload.steps=2", "workload.regridInterval=1"];

  it("writes byte-identical outputs (all but timing.json) for the same seed", () => {
    const a = writeRunOutputs(runShock(short), join(tmp, "a"));
    const b = writeRunOutputs(runShock(short), join(tmp, "b"));
    const fa = files(a).map((f) => relative(a, f)).sort();
    expect(fa).toEqual(files(b).map((f) => relative(b, f)).sort());
    expect(fa).toContain("evidence.json");
    const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
    for (const f of fa) if (f !== "timing.json") expect(digest(join(b, f)), f).toBe(digest(join(a, f)));
  });

  it("changes with the seed (patch tiling, noise and network load)", () => {
    const a = runShock(short, "shock-neuronic.yaml", 1);
    const b = runShock(short, "shock-neuronic.yaml", 2);
    expect(a.result.simulatedTime).not.toBe(b.result.simulatedTime);
  });
});
