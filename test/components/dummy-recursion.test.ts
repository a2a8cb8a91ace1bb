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
    // Every call of the cycle has the constant count 1: refused at load, at the connection closing it.
    expect(r.err).toContain("cycle.yaml:11:7: assembly.connections[2]: endless recursion: A.b -> B.work, B.a -> A.work form a cycle that every invocation of A, B follows");
    expect(existsSync(out)).toBe(false);
  });

  it("locates a cycle whose counts do not reach 0 soon enough at its connections, not at the instance that hit the bound", async () => {
    const dir = tempDir("dummy-cycle");
    const file = join(dir, "cycle.yaml");
    writeFileSync(
      file,
      [
        "name: cycle",
        "machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }",
        "assembly:",
        "  components:",
        "    Driver: { type: driver, params: { calls: [{ port: s, args: { x: 1 } }] } }",
        '    Solver: { type: dummy, params: { cost: "x", calls: [{ port: pc, args: { x: x } }, { port: self, args: { x: x }, count: "x > 0 ? 1 : 0" }] } }',
        '    Precond: { type: dummy, params: { cost: "x" } }',
        "  connections:",
        "    - Driver.s -> Solver.work",
        "    - Solver.pc -> Precond.work",
        "    - Solver.self -> Solver.work",
      ].join("\n"),
    );
    const r = await runCli(["validate", file, "--run"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("cycle.yaml:11:7: assembly.connections[2]: dummy invocations nested more than 256 deep on rank 0 through Solver.self -> Solver.work");
    expect(r.err).not.toContain("Precond");
  });

  it("bounds the nesting per rank, so a cycle through many instances stops before the stack overflows", () => {
    // A ring of k dummies, C0 -> C1 -> ... -> C(k-1) -> C0, each passing n - 1 on, stopping at 0.
    const ring = (k: number, depth: number) =>
      [
        "name: ring",
        "machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }",
        `workload: { depth: ${depth} }`,
        "assembly:",
        "  components:",
        "    Driver: { type: driver, params: { calls: [{ port: a, args: { n: depth } }] } }",
        ...Array.from({ length: k }, (_, i) => `    C${i}: { type: dummy, params: { args: [n], cost: "1", calls: [{ port: next, args: { n: n - 1 }, count: "n > 0 ? 1 : 0" }] } }`),
        "  connections:",
        "    - Driver.a -> C0.work",
        ...Array.from({ length: k }, (_, i) => `    - C${i}.next -> C${(i + 1) % k}.work`),
      ].join("\n");
    // 16 instances, 255 nested calls in all: a round of the ring is 16 levels, the bound is on the rank.
    expect(executeScenario(loadScenarioText(ring(16, MAX_NESTED_CALLS - 1), "ring.yaml")).result.invocations).toBe(1 + MAX_NESTED_CALLS);
    // 16 instances, 2000 nested calls (125 per instance): refused at the bound, not a stack overflow.
    expect(() => executeScenario(loadScenarioText(ring(16, 2000), "ring.yaml"))).toThrow(/dummy invocations nested more than 256 deep on rank 0/);
  });
});
