import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ScenarioErrors } from "../../scenarios/lang/index.js";

/** A fresh temporary directory. */
export function tempDir(prefix = "ccasim-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The ScenarioErrors `fn` throws (anything else it throws is rethrown; returning is a failure). */
export function scenarioErrorsOf(fn: () => unknown): ScenarioErrors {
  try {
    fn();
  } catch (e) {
    if (e instanceof ScenarioErrors) return e;
    throw e;
  }
  throw new Error("expected ScenarioErrors");
}

/** Every file under `dir` (relative path -> contents). */
export function readTree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

/** A small assembly with a noisy kernel, a noiseless dummy and a halo exchange over 4 ranks. */
export const MIXED_SCENARIO = `
name: mixed
seed: 5
machine:
  preset: xeon-2.8ghz-512k
  nodes: 2
  processesPerNode: 2
  network: { preset: gigabit-ethernet }
metrics: [TIME, PAPI_TOT_CYC, PAPI_L2_TCM]
workload: { steps: 4, Q: 20000 }
assembly:
  components:
    Driver:
      type: driver
      params:
        iterations: steps
        calls:
          - { port: model, args: { x: 2 } }
          - { port: kernel, portType: Kernel, method: compute, args: { Q: Q } }
          - { port: halo, portType: Halo, method: exchange }
    Model:
      type: dummy
      params: { cost: "10*x" }
    Stencil:
      type: kernel
      params: { loads: 2, stores: 1, flops: 2, otherInstructions: 1 }
    Halo:
      type: halo-exchange
      params: { patchCells: [64, 64], ghostWidth: 2, bytesPerCell: 32 }
  connections:
    - Driver.model -> Model.work
    - Driver.kernel -> Stencil.compute
    - Driver.halo -> Halo.halo
  proxies:
    - port: Model.work
      parameters: { x: argument x }
    - port: Stencil.compute
      parameters: { Q: size of argument Q }
`;
