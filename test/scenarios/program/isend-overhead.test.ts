import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText } from "../../../scenarios/index.js";

// Process 0 posts an 8-byte isend to process 1 on another node, computes 30 us, then waits.
// Under LogGP with o = 5 us the posting is CPU time: the compute starts at 5 us.
const POST = (model: string) => `name: post
seed: 1
machine: { preset: pentium3-xeon-700, nodes: 2, processesPerNode: 1, network: ${model} }
program:
  main:
    - if: pid == 0
      then:
        - isend: IS
          to: 1
          size: 8
          request: s
        - action: Busy
          cost: 30
        - wait: W
          requests: [s]
      else:
        - recv: R
          from: 0
          size: 8
`;

const run = (model: string) => executeScenario(loadScenarioText(POST(model), "post.yaml")).result.simulatedTime;

describe("a program model's isend", () => {
  it("takes the sender's overhead before the compute after it (LogGP)", () => {
    // Process 0 ends at 5 + 30; process 1 receives at 5 + 7 G + 20 + 5, just after 30.
    expect(run("{ model: loggp, params: { L: 20us, o: 5us, g: 1us, bandwidth: 1GB/s } }")).toBeCloseTo(35, 9);
  });
  it("is instant under Hockney", () => {
    // Process 0 ends at 30; process 1 receives at 10 + 8 / 100 MB/s = 10.08.
    expect(run("{ model: hockney, params: { alpha: 10us, bandwidth: 100MB/s } }")).toBeCloseTo(30, 9);
  });
});
