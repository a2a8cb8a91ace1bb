import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../../scenarios/index.js";
import { executeProgramScenario } from "../../../scenarios/program/index.js";

const RING = `name: ring
machine: { preset: xeon-2.8ghz-512k, nodes: 2, processesPerNode: 2, network: { preset: myrinet-2000 } }
workload: { M: 1000 }
program:
  main:
    - action: Work
      cost: 10
    - recv: FromRight
      from: mod(pid + 1, np)
      size: M
      tag: 7
    - send: ToLeft
      to: mod(pid - 1 + np, np)
      size: M
      tag: 7
`;

describe("program model deadlocks", () => {
  it.each(["compiled", "interpreter"] as const)("name the element each blocked process is in, with its place in the file (%s)", (evaluator) => {
    let message = "";
    try {
      executeProgramScenario(loadScenarioText(RING, "ring.yaml"), { evaluator });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("rank 0 in MPI_Recv() at element 'FromRight' (ring.yaml:8:7) waits for receive from rank 1 with tag 7");
    expect(message).toContain("rank 3 in MPI_Recv() at element 'FromRight' (ring.yaml:8:7) waits for receive from rank 0 with tag 7");
  });

  it.each(["compiled", "interpreter"] as const)("name the element that sent each message never received (%s)", (evaluator) => {
    const text = `name: lost
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 2 }
program:
  globals: { t: int }
  main:
    - action: Choose
      code: t = 2
    - if: pid == 0
      then:
        - send: Early
          to: 1
          size: 8
          tag: 1
        - recv: Reply
          from: 1
          size: 8
    - if: pid == 1
      then:
        - recv: Wrong
          from: 0
          size: 8
          tag: t
        - send: Answer
          to: 0
          size: 8
`;
    let message = "";
    try {
      executeProgramScenario(loadScenarioText(text, "lost.yaml"), { evaluator });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/messages sent but never received:\n  rank 0 -> rank 1 tag 1 on MPI_COMM_WORLD, 8 bytes, sent at element 'Early' \(lost\.yaml:10:11\) \(unexpected, no matching receive\)/);
  });
});
