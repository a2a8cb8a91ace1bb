import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-param-problems-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `ccasim validate` of a scenario written as `name` in the scratch folder: the file's path and the result. */
async function validateScenario(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  return { file, r: await runCli(["validate", file]) };
}

describe("a component's parameter problems", () => {
  it("are reported together, each at its key: a dummy's implementation, its models, its calls' counts, beside another component's cost", async () => {
    const { file, r } = await validateScenario(
      "dm.yaml",
      `name: dm
seed: 1
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }
metrics: [TIME]
workload: { x: 2 }
assembly:
  components:
    Driver: { type: driver, params: { iterations: 2, calls: [{ port: a, args: { x: x } }] } }
    A: { type: dummy, params: { implementation: A3, implementations: { A1: "x^2", A2: "y + 1" }, calls: [{ port: b, count: -1, args: { x: "sqr(x)" } }] } }
    B: { type: dummy, params: { cost: "sqr(x)" } }
  connections: [Driver.a -> A.work, A.b -> B.work]
`,
    );
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `ccasim validate: ${file}: 5 errors\n` +
        `  ${file}:9:33: assembly.components.A.params.implementation: 'A3' is not one of the implementations: A1, A2\n` +
        `  ${file}:9:83: assembly.components.A.params.implementations.A2: expression "y + 1": unknown symbol 'y'; known: rank, size, x\n` +
        `  ${file}:9:117: assembly.components.A.params.calls[0].count: expected a whole number, 0 or more, got -1\n` +
        `  ${file}:9:136: assembly.components.A.params.calls[0].args.x: expression "sqr(x)": unknown function 'sqr' (did you mean 'sqrt'?)\n` +
        `  ${file}:10:33: assembly.components.B.params.cost: expression "sqr(x)": unknown function 'sqr' (did you mean 'sqrt'?)\n`,
    );
  });

  it("are reported together for a halo exchange: its extents, ghost width and bytes per cell", async () => {
    const { file, r } = await validateScenario(
      "halo.yaml",
      `name: halo
seed: 1
machine: { preset: xeon-2.8ghz-512k, nodes: 2, processesPerNode: 2 }
metrics: [TIME]
assembly:
  components:
    Driver: { type: driver, params: { iterations: 2, calls: [{ port: h, portType: Halo, method: exchange }] } }
    H: { type: halo-exchange, params: { patchCells: [64, 0], ghostWidth: -1, bytesPerCell: "sqr(8)" } }
  connections: [Driver.h -> H.halo]
`,
    );
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `ccasim validate: ${file}: 3 errors\n` +
        `  ${file}:8:58: assembly.components.H.params.patchCells[1]: must be a positive integer or an expression of the workload, got 0\n` +
        `  ${file}:8:62: assembly.components.H.params.ghostWidth: must be a positive integer or an expression of the workload, got -1\n` +
        `  ${file}:8:78: assembly.components.H.params.bytesPerCell: expression "sqr(8)": unknown function 'sqr' (did you mean 'sqrt'?)\n`,
    );
  });
});
