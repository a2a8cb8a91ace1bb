import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText, ScenarioErrors } from "../../scenarios/index.js";

/** One rank calling a kernel component once with N = 4096 elements; `params` are the kernel's. */
const scenario = (params: string) => `
name: kernel-params
seed: 1
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }
metrics: [TIME, PAPI_L1_DCA]
workload: { N: 4096 }
assembly:
  components:
    Driver: { type: driver, params: { calls: [{ port: k, portType: Kernel, method: compute, args: { N: N } }] } }
    K: { type: kernel, params: { args: [N], elements: N, ${params} } }
  connections: [Driver.k -> K.compute]
`;

const run = (params: string) => executeScenario(loadScenarioText(scenario(params), "kernel.yaml"));

/** The message of the located error a run of the scenario throws. */
function runError(params: string): string {
  try {
    run(params);
  } catch (e) {
    if (e instanceof ScenarioErrors || (e as { isInputError?: boolean }).isInputError) return (e as Error).message;
    throw e;
  }
  throw new Error("expected the run to fail");
}

describe("the kernel component's parameters", () => {
  it("takes the default stride from the elements, whatever the argument is called", () => {
    const strided = run("pattern: strided");
    const explicit = run("pattern: strided, stride: 64");
    expect(strided.result.simulatedTime).toBe(explicit.result.simulatedTime);
  });

  it("refuses a stride, an array count or a pass count out of range instead of replacing it", () => {
    expect(runError("pattern: strided, stride: 0")).toMatch(/kernel\.yaml:\d+:\d+: assembly\.components\.K: kernel\.stride: expected an integer >= 1, got 0/);
    expect(runError("arrays: 0")).toMatch(/assembly\.components\.K: kernel\.arrays: expected an integer >= 1, got 0/);
    expect(runError("passes: -1")).toMatch(/assembly\.components\.K: kernel\.passes: expected an integer >= 0, got -1/);
  });
});
