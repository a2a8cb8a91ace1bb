import { describe, expect, it } from "vitest";
import { loadScenario, loadScenarioText } from "../../scenarios/index.js";

const KNOWN = `name: params
machine: { preset: xeon-2.8ghz-512k, nodes: 2, processesPerNode: 2, network: { preset: gigabit-ethernet } }
workload: { x: 2 }
assembly:
  components:
    Driver: { type: driver, params: { calls: [{ port: a, args: { x: x } }, { port: h, portType: Halo, method: exchange }] } }
    A: { type: dummy, params: { cost: "x", order: ORDER } }
    H: { type: halo-exchange, params: { periodic: PERIODIC, ghostWidth: WIDTH } }
  connections: [Driver.a -> A.work, Driver.h -> H.halo]
`;

const load = (order: string, periodic: string, width: string) => () =>
  loadScenarioText(KNOWN.replace("ORDER", order).replace("PERIODIC", periodic).replace("WIDTH", width), "params.yaml");

describe("component parameters checked against their documentation", () => {
  it("accepts documented values", () => {
    expect(load("calls-first", "true", "2")).not.toThrow();
  });

  it("refuses an enum value that is not one of the documented ones", () => {
    expect(load("last", "true", "2")).toThrow(/params\.yaml:7:\d+: assembly\.components\.A\.params\.order: expected cost-first or calls-first, got "last"/);
  });

  it("refuses a boolean written as text", () => {
    expect(load("cost-first", "yes", "2")).toThrow(/params\.yaml:8:\d+: assembly\.components\.H\.params\.periodic: expected true or false, got "yes"/);
  });

  it("refuses an integer below its documented minimum", () => {
    expect(() => loadScenario("scenarios/shock-neuronic.yaml", { set: ["assembly.components.RK2.params.stages=0"] })).toThrow(/assembly\.components\.RK2\.params\.stages: expected an integer >= 1, got 0/);
  });

  it("refuses a parameter written with no value, whatever its kind, rather than taking the default", () => {
    expect(load("cost-first", "false", "null")).toThrow(/params\.yaml:8:\d+: assembly\.components\.H\.params\.ghostWidth: expected a number or an expression, got null \(an empty value\): give a value or leave the key out/);
    const empty = (key: string) => () => loadScenarioText(KNOWN.replace("ORDER", "cost-first").replace("PERIODIC", "false").replace("WIDTH", `2, ${key}: `), "params.yaml");
    expect(empty("patchCells")).toThrow(/params\.yaml:8:\d+: assembly\.components\.H\.params\.patchCells: expected a list, got null \(an empty value\)/);
    expect(() => loadScenarioText(KNOWN.replace("ORDER", "cost-first, implementations: ").replace("PERIODIC", "false").replace("WIDTH", "2"), "params.yaml")).toThrow(
      /params\.yaml:7:\d+: assembly\.components\.A\.params\.implementations: expected a map, got null \(an empty value\)/,
    );
  });

  it("refuses a halo width below 1, and takes one from the workload", () => {
    expect(load("cost-first", "false", "0")).toThrow(/params\.yaml:8:\d+: assembly\.components\.H\.params\.ghostWidth: must be a positive integer or an expression of the workload, got 0/);
    expect(load("cost-first", "false", "x")).not.toThrow();
  });
});
