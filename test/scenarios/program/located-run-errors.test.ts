import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText } from "../../../scenarios/index.js";

/** A program scenario on four processes whose one all-reduce and one action take `size` and `cost`. */
const scenario = (size: string, cost: string) => `name: located
machine: { preset: pentium3-xeon-700, nodes: 2, processesPerNode: 2, network: { preset: fast-ethernet } }
workload: { N: 100 }
program:
  main:
    - action: Compute
      cost: ${cost}
    - allreduce: Sum
      size: ${size}
outputs: { records: [], callgraph: false }
`;

const run = (size: string, cost: string) => () => executeScenario(loadScenarioText(scenario(size, cost), "located.yaml"));

describe("errors of a running program model", () => {
  it("locate a negative cost at its element's line and column", () => {
    expect(run("8", "N - 50 * (pid + 1)")).toThrow(/located\.yaml:6:7: program\.main\[0\]: cost of 'Compute' is -50 us on process 2/);
  });

  it("locate a message size MPI refuses at the communicating element", () => {
    // The same negative size on every process (it reads pid, so only the run evaluates it).
    expect(run("8 * N - 900 + 0 * pid", "1")).toThrow(/located\.yaml:8:7: program\.main\[1\]: process \d, MPI_Allreduce\(\): size -100 bytes is not a finite number >= 0/);
    // Sizes that differ between processes are refused as such.
    expect(run("8 * N - 300 * (pid + 1)", "1")).toThrow(/located\.yaml:8:7: program\.main\[1\]: process \d gives its allreduce 'Sum' \d+ bytes, process \d gave the same collective \d+/);
  });

  it("locate an expression that does not evaluate at its key", () => {
    expect(run("8", "N / pid")).toThrow(/located\.yaml:7:\d+: program\.main\[0\]\.cost: expression .*evaluates to Infinity/);
  });

  it("name the process thread whose expression does not evaluate, as a negative cost's error does", () => {
    expect(run("8", "sqrt(N - 50 * pid) + 1")).toThrow(/program\.main\[0\]\.cost: expression "sqrt\(N - 50 \* pid\) \+ 1": evaluates to NaN \(not a finite number\) for N=100, pid=3, on process 3 thread 0$/);
    expect(run("8", "N / pid")).toThrow(/evaluates to Infinity \(not a finite number\) for N=100, pid=0, on process 0 thread 0$/);
  });

  it("locate a tag a blocking send refuses at the sending element", () => {
    const text = `name: tags
machine: { preset: pentium3-xeon-700, nodes: 2, processesPerNode: 1, network: { preset: fast-ethernet } }
program:
  main:
    - if: pid == 0
      then:
        - send: Out
          to: 1
          size: 8
          tag: pid - 1
    - if: pid == 1
      then:
        - recv: In
          from: 0
          size: 8
          tag: pid - 2
outputs: { records: [], callgraph: false }
`;
    expect(() => executeScenario(loadScenarioText(text, "tags.yaml"))).toThrow(/tags\.yaml:7:11: program\.main\[0\]\.then\[0\]: process 0, MPI_Send\(\): tag -1 is outside/);
  });
});
