import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../scenarios/fixtures.js";
import { runCli } from "./run-cli.js";

describe("ccasim validate's summary line", () => {
  it("counts a threaded program model's processes and threads, as 'ccasim run' does", async () => {
    const file = join(tempDir(), "threads.yaml");
    writeFileSync(file, "name: t\nmachine: { preset: pentium3-xeon-700, nodes: 2, processesPerNode: 1 }\nprogram:\n  threads: 2\n  main:\n    - { action: A, cost: 5 }\n");
    const r = await runCli(["validate", file]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(": valid — scenario 't', 2 processes x 2 threads on 2 pentium3-xeon-700 nodes, program model, metrics TIME");
    const one = await runCli(["validate", file, "--set", "program.threads=1"]);
    expect(one.out).toContain("scenario 't', 2 ranks on 2 pentium3-xeon-700 nodes, program model");
    // One process in the singular, by run and validate alike.
    const single = ["--set", "machine.nodes=1"];
    expect((await runCli(["validate", file, ...single])).out).toContain("scenario 't', 1 process x 2 threads on 1 pentium3-xeon-700 node");
    expect((await runCli(["run", file, ...single, "--out", join(tempDir(), "one")])).out).toMatch(/^t: 1 process x 2 threads, simulated /);
  });
});
