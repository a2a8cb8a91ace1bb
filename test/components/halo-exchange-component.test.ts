import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText } from "../../scenarios/index.js";
import { main } from "../../cli/main.js";

/** Four ranks (2 nodes x 2) exchanging halos every iteration; `params` are the halo component's. */
const scenario = (params: string) => `
name: halo
seed: 1
machine: { preset: xeon-2.8ghz-512k, nodes: 2, processesPerNode: 2, network: { preset: gigabit-ethernet } }
assembly:
  components:
    Driver: { type: driver, params: { iterations: 2, calls: [{ port: h, portType: Halo, method: exchange }] } }
    H: { type: halo-exchange, params: { ${params} } }
  connections: [Driver.h -> H.halo]
`;

const run = (params: string) => () => executeScenario(loadScenarioText(scenario(params), "halo.yaml"));

describe("the halo-exchange component's decomposition", () => {
  it("runs a rank grid of exactly the run's ranks", () => {
    expect(run("ranks: [2, 2], patchCells: [32, 32]")().result.simulatedTime).toBeGreaterThan(0);
  });

  it("refuses a rank grid larger or smaller than the run, located at the component", () => {
    expect(run("ranks: [3, 3], patchCells: [32, 32]")).toThrow(/halo\.yaml:8:5: assembly\.components\.H: ranks \[3, 3\] is a grid of 9 ranks, but the run has 4/);
    expect(run("ranks: [1, 2], patchCells: [32, 32]")).toThrow(/halo\.yaml:8:5: assembly\.components\.H: ranks \[1, 2\] is a grid of 2 ranks, but the run has 4/);
  });

  it("refuses a halo wider than the patch at load, located at ghostWidth", () => {
    expect(() => loadScenarioText(scenario("patchCells: [32, 16], ghostWidth: 20"), "halo.yaml")).toThrow(
      /halo\.yaml:8:\d+: assembly\.components\.H\.params\.ghostWidth: 20 exceeds the patch extent 16 along dimension 1/,
    );
  });
});

describe("halo-exchange documentation", () => {
  it("names in 'ccasim run --help' the port, port type and method a driver connects to", async () => {
    let out = "";
    await main(["run", "--help"], { out: (s) => (out += s), err: () => {} });
    const line = out.split("\n").find((l) => l.trim().startsWith("halo-exchange:"));
    expect(line).toContain("provides port `halo` (type Halo, method exchange");
  });
});
