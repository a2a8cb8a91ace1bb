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

  it("refuses a rank grid larger or smaller than the run, located at its key", () => {
    expect(run("ranks: [3, 3], patchCells: [32, 32]")).toThrow(/halo\.yaml:8:\d+: assembly\.components\.H\.params\.ranks: \[3, 3\] is a grid of 9 ranks, but the run has 4/);
    expect(run("ranks: [1, 2], patchCells: [32, 32]")).toThrow(/halo\.yaml:8:\d+: assembly\.components\.H\.params\.ranks: \[1, 2\] is a grid of 2 ranks, but the run has 4/);
  });

  it("refuses a rank grid that does not fit the run at load, as 'ccasim validate' reads it", () => {
    expect(() => loadScenarioText(scenario("ranks: [3, 3], patchCells: [32, 32]"), "halo.yaml")).toThrow(
      /halo\.yaml:8:\d+: assembly\.components\.H\.params\.ranks: \[3, 3\] is a grid of 9 ranks, but the run has 4 \(machine\.nodes x machine\.processesPerNode\)/,
    );
    // The run's ranks as overridden: the grid fits 2 x 3 ranks, not the file's 2 x 2.
    expect(() => loadScenarioText(scenario("ranks: [2, 3], patchCells: [32, 32]"), "halo.yaml", { set: ["machine.processesPerNode=1"] })).toThrow(
      /assembly\.components\.H\.params\.ranks: \[2, 3\] is a grid of 6 ranks, but the run has 2/,
    );
    expect(loadScenarioText(scenario("ranks: [4, 1], patchCells: [32, 32]"), "halo.yaml").assembly).toBeDefined();
  });

  it("refuses a halo wider than the patch at load, located at ghostWidth", () => {
    expect(() => loadScenarioText(scenario("patchCells: [32, 16], ghostWidth: 20"), "halo.yaml")).toThrow(
      /halo\.yaml:8:\d+: assembly\.components\.H\.params\.ghostWidth: 20 exceeds the patch extent 16 along dimension 1/,
    );
  });
});

describe("the halo-exchange component's sizes from the workload", () => {
  const withWorkload = (workload: string, params: string) => scenario(params).replace("assembly:", `workload: { ${workload} }\nassembly:`);
  const timeOf = (text: string) => executeScenario(loadScenarioText(text, "halo.yaml")).result.simulatedTime;

  it("takes patch extents, halo width and cell size from workload expressions, as the same literals would be", () => {
    const literal = timeOf(scenario("ranks: [2, 2], patchCells: [64, 32], ghostWidth: 2, bytesPerCell: 40"));
    expect(timeOf(withWorkload("N: 64, g: 2, vars: 5", "ranks: [2, 2], patchCells: [N, N / 2], ghostWidth: g, bytesPerCell: 8 * vars"))).toBe(literal);
    // A larger block sends larger strips: more time.
    expect(timeOf(withWorkload("N: 256, g: 2, vars: 5", "ranks: [2, 2], patchCells: [N, N / 2], ghostWidth: g, bytesPerCell: 8 * vars"))).toBeGreaterThan(literal);
  });

  it("refuses an expression that gives no whole extent, or a halo wider than the block, naming the key", () => {
    // (Reading the run's size, known on each rank: an expression of the workload alone is refused at load, below.)
    expect(() => timeOf(withWorkload("N: 64", "patchCells: [N / (size - 1), N]"))).toThrow(/halo\.yaml:\d+:\d+: assembly\.components\.H\.params\.patchCells\[0\]: evaluated to 21\.3+\d*; expected an integer >= 1/);
    expect(() => timeOf(withWorkload("g: 10", "patchCells: [32, 32], ghostWidth: g * size"))).toThrow(/H: ghostWidth 40 exceeds the patch extent 32 along dimension 0/);
    expect(() => loadScenarioText(withWorkload("N: 64", "patchCells: [M, N]"), "halo.yaml")).toThrow(/assembly\.components\.H\.params\.patchCells\[0\]: expression "M": unknown symbol 'M'/);
  });

  it("refuses at load an extent that the workload alone makes no whole number, or a halo wider than such a block", () => {
    const load = (workload: string, params: string) => () => loadScenarioText(withWorkload(workload, params), "halo.yaml");
    expect(load("N: 256", "patchCells: [N, N - 256]")).toThrow(/halo\.yaml:\d+:\d+: assembly\.components\.H\.params\.patchCells\[1\]: evaluated to 0 \(from 'N - 256' with N = 256\); expected an integer >= 1/);
    expect(load("N: 64", "patchCells: [N / 3, N]")).toThrow(/assembly\.components\.H\.params\.patchCells\[0\]: evaluated to 21\.3+\d* \(from 'N \/ 3' with N = 64\); expected an integer >= 1/);
    expect(load("g: 0.5", "ghostWidth: g")).toThrow(/assembly\.components\.H\.params\.ghostWidth: evaluated to 0\.5 \(from 'g' with g = 0\.5\); expected an integer >= 1/);
    expect(load("v: -1", "bytesPerCell: 8 * v")).toThrow(/assembly\.components\.H\.params\.bytesPerCell: evaluated to -8 \(from '8 \* v' with v = -1\); expected an integer >= 1/);
    expect(load("g: 40", "patchCells: [32, 32], ghostWidth: g")).toThrow(/assembly\.components\.H\.params\.ghostWidth: 40 exceeds the patch extent 32 along dimension 0 \(patchCells\[0\]\)/);
    expect(load("N: 16", "patchCells: [N, 2 * N], ghostWidth: 20")).toThrow(/assembly\.components\.H\.params\.ghostWidth: 20 exceeds the patch extent 16 along dimension 0 \(patchCells\[0\]\)/);
    // An extent that reads the rank is known only on each rank: checked there, not at load.
    expect(load("N: 64", "ranks: [2, 2], patchCells: [N - 60 * rank, N]")()).toBeDefined();
  });

  it("takes extents that vary with a block's position along their own dimension, and refuses strips that neighbours would disagree on", () => {
    // 2 x 2 grid, rank = x + 2 y: the x extent varies with x, the y extent with y: every shared face matches.
    expect(timeOf(withWorkload("N: 64", "ranks: [2, 2], patchCells: [N + 8 * (rank % 2), N + 4 * floor(rank / 2)], periodic: true"))).toBeGreaterThan(0);
    // The x extent varying with y: ranks 0 and 2 (neighbours across dimension 1) share a face of different lengths.
    expect(() => timeOf(withWorkload("N: 64", "ranks: [2, 2], patchCells: [N + rank, N]"))).toThrow(
      /halo\.yaml:\d+:\d+: assembly\.components\.H\.params\.patchCells\[0\]: is 64 on rank 0 but 66 on rank 2, its neighbour across dimension 1: the strips of the face they share would differ in size/,
    );
    expect(() => timeOf(withWorkload("g: 2", "ranks: [2, 2], patchCells: [32, 32], ghostWidth: g + rank % 2"))).toThrow(/assembly\.components\.H\.params\.ghostWidth: is 2 on rank 0 but 3 on rank 1, its neighbour across dimension 0/);
    // A neighbour's own wrong extent is its own error (evaluated to ...), not a disagreement.
    expect(() => timeOf(withWorkload("N: 64", "ranks: [2, 2], patchCells: [N - 60 * rank, N]"))).toThrow(/assembly\.components\.H\.params\.patchCells\[0\]: evaluated to -56; expected an integer >= 1/);
  });
});

describe("halo-exchange documentation", () => {
  it("names in 'ccasim run --help' the port, port type and method a driver connects to", async () => {
    let out = "";
    await main(["run", "--help"], { out: (s) => (out += s), err: () => {} });
    const line = out.split("\n").find((l) => l.trim().startsWith("halo-exchange:"));
    expect(line).toContain("provides port `halo` (type Halo, method exchange");
  });

  it("says the default rank grid has the patches' dimensions, as a run of 3-D patches decomposes the ranks in 3-D", async () => {
    let out = "";
    await main(["run", "--help"], { out: (s) => (out += s), err: () => {} });
    expect(out).toContain("default: the most square grid of all ranks with as many dimensions as patchCells (2-D for the default patchCells)");
    // 4 ranks as [2, 2, 1] with 3-D patches of 16^3 cells, ghost width 2, 32 bytes a cell, in
    // 2 iterations: each rank exchanges a face of 16 x 16 x 2 cells with each of its 2 neighbours.
    const art = executeScenario(loadScenarioText(scenario("patchCells: [16, 16, 16], ghostWidth: 2, bytesPerCell: 32, corners: false"), "halo.yaml"));
    const traffic = art.result.traffic;
    expect(traffic.interNode.messages + traffic.intraNode.messages).toBe(4 * 2 * 2);
    expect(traffic.interNode.bytes + traffic.intraNode.bytes).toBe(4 * 2 * 2 * 16 * 16 * 2 * 32);
  });
});
