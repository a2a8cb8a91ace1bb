import { describe, expect, it } from "vitest";
import { findWiringCycle } from "../../components/wiring-cycles.js";
import { loadScenarioText } from "../../scenarios/index.js";

const link = (text: string) => {
  const [u, p] = text.split(" -> ");
  const [user, usesPort] = u.split(".");
  const [provider, providesPort] = p.split(".");
  return { user, usesPort, provider, providesPort };
};

describe("cycles in an assembly's wiring", () => {
  it("finds no cycle in a tree or a diamond", () => {
    expect(findWiringCycle(["D.a -> A.work", "D.b -> B.work", "A.c -> C.work", "B.c -> C.work"].map(link))).toBeUndefined();
  });

  it("names the connections of a cycle and the one that closes it", () => {
    const cycle = findWiringCycle(["D.a -> A.work", "A.b -> B.work", "B.a -> A.work"].map(link));
    expect(cycle).toEqual({ closing: 2, path: ["A.b -> B.work", "B.a -> A.work"] });
  });

  it("finds a component wired to itself", () => {
    expect(findWiringCycle(["D.a -> A.work", "A.self -> A.work"].map(link))).toEqual({ closing: 1, path: ["A.self -> A.work"] });
  });

  it("rejects a cyclic scenario at load with the closing connection's line", () => {
    const text = [
      "name: cyclic",
      "machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }",
      "workload: { x: 2 }",
      "assembly:",
      "  components:",
      "    Driver: { type: driver, params: { calls: [{ port: a, args: { x: x } }] } }",
      '    A: { type: dummy, params: { cost: "x", calls: [{ port: b, args: { x: x } }] } }',
      '    B: { type: dummy, params: { cost: "x", calls: [{ port: a, args: { x: x } }] } }',
      "  connections:",
      "    - Driver.a -> A.work",
      "    - A.b -> B.work",
      "    - B.a -> A.work",
    ].join("\n");
    expect(() => loadScenarioText(text, "cyclic.yaml")).toThrow(/cyclic\.yaml:12:7: assembly\.connections\[2\]: the connections form a cycle \(A\.b -> B\.work, B\.a -> A\.work\)/);
  });
});
