import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../scenarios/index.js";

const scenario = (network: string) => `
name: units
machine:
  preset: xeon-2.8ghz-512k
  nodes: 2
  network: ${network}
assembly:
  components:
    D: { type: driver, params: { iterations: 1 } }
`;

describe("network parameters with units", () => {
  it("converts each parameter by the dimension its model documents", () => {
    const s = loadScenarioText(
      scenario("{ model: hockney, params: { alpha: 30us, bandwidth: 100MB/s }, eagerLimit: 16KiB, intraNode: { model: hockney, params: { alpha: 2us, bandwidth: 1GB/s } } }"),
      "units.yaml",
    );
    expect(s.machine.network.interNode.params).toMatchObject({ alpha: 30, bandwidth: 1e8 });
    expect(s.machine.network.intraNode.params).toMatchObject({ alpha: 2, bandwidth: 1e9 });
    expect(s.machine.network.eagerLimit).toBe(16384);
  });

  it("rejects a unit of the wrong dimension with a located message", () => {
    expect(() => loadScenarioText(scenario("{ model: hockney, params: { alpha: 100MB/s, bandwidth: 100MB/s } }"), "units.yaml")).toThrow(/units\.yaml:\d+:\d+: machine\.network/);
  });

  it("names the network key whose quantity is wrong", () => {
    const load = (network: string) => () => loadScenarioText(scenario(network), "units.yaml");
    expect(load("{ preset: gigabit-ethernet, params: { alpha: 30us, bandwidth: -5MB/s } }")).toThrow(/units\.yaml:\d+:\d+: machine\.network\.params\.bandwidth: .*must not be negative/);
    expect(load("{ preset: gigabit-ethernet, eagerLimit: 16 apples }")).toThrow(/machine\.network\.eagerLimit: /);
    expect(load("{ preset: gigabit-ethernet, intraNode: { model: hockney, params: { alpha: 1us, bandwidth: 1GB } } }")).toThrow(
      /machine\.network\.intraNode\.params\.bandwidth: /,
    );
  });

  it("converts collective thresholds by the dimension they document, and names a bad one", () => {
    const s = loadScenarioText(scenario("{ preset: gigabit-ethernet, collectives: { params: { bcastShortMsg: 16KiB, reduceCostPerByte: 2ns } } }"), "units.yaml");
    expect(s.machine.collectives.params).toMatchObject({ bcastShortMsg: 16384, reduceCostPerByte: 0.002 });
    expect(() => loadScenarioText(scenario("{ preset: gigabit-ethernet, collectives: { params: { bcastShortMsg: 16 apples } } }"), "units.yaml")).toThrow(
      /units\.yaml:\d+:\d+: machine\.network\.collectives\.params\.bcastShortMsg: expected a size/,
    );
    expect(() => loadScenarioText(scenario("{ preset: gigabit-ethernet, collectives: { algorithms: { allreduce: 5 } } }"), "units.yaml")).toThrow(
      /machine\.network\.collectives\.algorithms\.allreduce: must be an algorithm name or auto, got 5/,
    );
  });
});
