import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText } from "../../../scenarios/index.js";

// Process 1 posts an irecv from process 0 on another node, computes 40 us, then waits; process 0
// sends 8 bytes at once. Under LogGP with o = 5 us the message arrives at 5 + 7 G + 20 = 25.000007
// us, during the compute: the wait handles it then, o of CPU time.
const HANDLE = (model: string) => `name: handle
seed: 1
machine: { preset: pentium3-xeon-700, nodes: 2, processesPerNode: 1, network: ${model} }
program:
  main:
    - if: pid == 1
      then:
        - irecv: IR
          from: 0
          size: 8
          request: r
        - action: Busy
          cost: 40
        - wait: W
          requests: [r]
      else:
        - send: S
          to: 1
          size: 8
`;

const run = (model: string) => executeScenario(loadScenarioText(HANDLE(model), "handle.yaml")).result.simulatedTime;

describe("a program model's wait on a receive", () => {
  it("takes the receiver's overhead after the compute, when the message arrived during it (LogGP: 40 us of compute, then o = 5 us)", () => {
    expect(run("{ model: loggp, params: { L: 20us, o: 5us, g: 1us, bandwidth: 1GB/s } }")).toBeCloseTo(45, 9);
  });
  it("is instant under Hockney", () => {
    expect(run("{ model: hockney, params: { alpha: 10us, bandwidth: 100MB/s } }")).toBeCloseTo(40, 9);
  });
});
