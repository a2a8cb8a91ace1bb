import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../scenarios/index.js";

const assembly = (workload: string) => `name: reserved
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 2 }
workload: ${workload}
assembly:
  components:
    Driver: { type: driver, params: { calls: [{ port: k, portType: Kernel, method: compute, args: { Q: Q } }] } }
    K: { type: kernel }
  connections: [Driver.k -> K.compute]
`;

const program = (workload: string) => `name: reserved
machine: { preset: pentium3-xeon-700, nodes: 2, processesPerNode: 1 }
workload: ${workload}
program:
  main:
    - action: A
      cost: N
`;

describe("workload variables named like the process itself", () => {
  it("refuses rank and size in an assembly scenario, where they would be shadowed", () => {
    expect(() => loadScenarioText(assembly("{ Q: 1000, size: 100000 }"), "reserved.yaml")).toThrow(
      /reserved\.yaml:3:\d+: workload\.size: 'size' is a name expressions give to the rank itself/,
    );
    expect(() => loadScenarioText(assembly("{ Q: 1000 }"), "reserved.yaml")).not.toThrow();
  });

  it("refuses the process variables in a program scenario", () => {
    expect(() => loadScenarioText(program("{ N: 5, np: 7 }"), "reserved.yaml")).toThrow(/reserved\.yaml:3:\d+: workload\.np: 'np' is a name expressions give to the process itself/);
    expect(() => loadScenarioText(program("{ N: 5 }"), "reserved.yaml")).not.toThrow();
  });
});
