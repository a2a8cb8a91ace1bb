import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText } from "../../../scenarios/index.js";

// Two ranks on two nodes exchange 1 MiB (rendezvous) with irecv, isend and wait; rank 0 first
// works D microseconds. The exchange then takes one message time whatever D: the clear-to-send
// rank 1 returns for rank 0's message goes out between the packets of rank 1's own data.
const EXCHANGE = `name: exchange
seed: 1
machine: { preset: pentium3-xeon-700, nodes: 2, processesPerNode: 1, network: { preset: fast-ethernet } }
workload: { S: 1048576, D: 0 }
program:
  main:
    - if: pid == 0
      then:
        - action: Busy
          cost: D
    - irecv: IR
      from: 1 - pid
      size: S
      request: r
    - isend: IS
      to: 1 - pid
      size: S
      request: s
    - wait: W
      requests: [r, s]
`;

const after = (d: number): number => executeScenario(loadScenarioText(EXCHANGE, "exchange.yaml", { set: [`workload.D=${d}`] })).result.simulatedTime - d;

describe("a rendezvous exchange whose partner comes late", () => {
  it("takes one message time after the late partner, however late (its control messages do not queue behind the data)", () => {
    const onTime = after(0);
    // 1 MiB over 100 Mbit/s: about 84 ms of wire time.
    expect(onTime).toBeGreaterThan(80_000);
    for (const d of [50, 119, 121, 1000, 50_000]) expect(after(d), `D = ${d}`).toBeCloseTo(onTime, 6);
  });
});
