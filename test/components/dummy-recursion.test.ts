import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_NESTED_CALLS } from "../../components/library/dummy.js";
import { executeScenario, loadScenarioText } from "../../scenarios/index.js";
import { runCli } from "../cli/run-cli.js";
import { tempDir } from "../scenarios/fixtures.js";

/** A dummy that calls itself through its own connection, `depth` levels, then stops (count 0). */
const recursive = (depth: number) =>
  [
    "name: recursive",
    "machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }",
    `workload: { depth: ${depth} }`,
    "assembly:",
    "  components:",
    "    Driver: { type: driver, params: { calls: [{ port: a, args: { n: depth } }] } }",
    '    A: { type: dummy, params: { args: [n], cost: "n", calls: [{ port: self, args: { n: n - 1 }, count: "n > 0 ? 1 : 0" }] } }',
    "  connections:",
    "    - Driver.a -> A.work",
    "    - A.self -> A.work",
  ].join("\n");

describe("a dummy reached again through its own connections", () => {
  it("recurses until its call count reaches 0, each level costing its own argument", () => {
    const { result } = executeScenario(loadScenarioText(recursive(5), "recursive.yaml"));
    // depth 5: the driver's entry call, then A with n = 5, 4, 3, 2, 1, 0 (15 microseconds in all).
    expect(result.invocations).toBe(1 + 6);
    expect(result.simulatedTime).toBeCloseTo(15, 9);
  });

  it("recurses as deep as the bound allows", () => {
    expect(executeScenario(loadScenarioText(recursive(MAX_NESTED_CALLS - 1), "deep.yaml")).result.invocations).toBe(1 + MAX_NESTED_CALLS);
  });

  it("a cycle that does not end is a located input error with no output, not a stack overflow", async () => {
    const dir = tempDir("dummy-cycle");
    const file = join(dir, "cycle.yaml");
    writeFileSync(
      file,
      [
        "name: cycle",
        "machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }",
        "assembly:",
        "  components:",
        "    Driver: { type: driver, params: { calls: [{ port: a, args: { x: 1 } }] } }",
        '    A: { type: dummy, params: { cost: "x", calls: [{ port: b, args: { x: x } }] } }',
        '    B: { type: dummy, params: { cost: "x", calls: [{ port: a, args: { x: x } }] } }',
        "  connections:",
        "    - Driver.a -> A.work",
        "    - A.b -> B.work",
        "    - B.a -> A.work",
      ].join("\n"),
    );
    const out = join(dir, "out");
    const r = await runCli(["run", file, "--out", out, "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cycle\.yaml:6:5: assembly\.components\.A: invoked through its own calls more than 256 deep/);
    expect(existsSync(out)).toBe(false);
  });
});
