import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText } from "../../scenarios/index.js";

const halo = (placement: string) => `
name: halo
machine: { preset: xeon-2.8ghz-512k, nodes: 8, processesPerNode: 2, placement: ${placement} }
workload: { iterations: 10 }
assembly:
  components:
    Driver: { type: driver, params: { iterations: iterations, calls: [{ port: h, portType: Halo, method: exchange }] } }
    H: { type: halo-exchange, params: { patchCells: [128, 128], ghostWidth: 2, bytesPerCell: 8, corners: false } }
  connections: [Driver.h -> H.halo]
`;

const pingPong = `
name: pingpong
machine: { preset: xeon-2.8ghz-512k, nodes: 2, network: { eagerLimit: 64KiB } }
workload: { S: 100000 }
program:
  main:
    - if: pid == 0
      then:
        - send: Ping
          to: 1
          size: S
        - recv: Pong
          from: 1
          size: S
      else:
        - recv: PingR
          from: 0
          size: S
        - send: PongS
          to: 0
          size: S
`;

describe("the network traffic of a run", () => {
  it("counts a halo exchange's messages and bytes between nodes and within them, as the placement puts the ranks", () => {
    // A 4 x 4 grid without corners: 24 neighbour pairs, 48 strips of 128 x 2 cells x 8 bytes per exchange.
    const block = executeScenario(loadScenarioText(halo("block"), "halo.yaml")).summary.network;
    // Block placement puts ranks 2k and 2k+1 on one node: 2 of each row's 3 x-neighbour pairs.
    expect(block).toEqual({ interNode: { messages: 320, bytes: 320 * 2048 }, intraNode: { messages: 160, bytes: 160 * 2048 } });
    // Round-robin puts rank r on node r mod 8: no neighbours share a node.
    const rr = executeScenario(loadScenarioText(halo("round-robin"), "halo.yaml")).summary.network;
    expect(rr).toEqual({ interNode: { messages: 480, bytes: 480 * 2048 }, intraNode: { messages: 0, bytes: 0 } });
  });

  it("counts a rendezvous's request- and clear-to-send beside its data, and nothing for a run without MPI", () => {
    const large = executeScenario(loadScenarioText(pingPong, "pp.yaml")).summary.network;
    expect(large).toEqual({ interNode: { messages: 6, bytes: 200000 }, intraNode: { messages: 0, bytes: 0 } });
    const eager = executeScenario(loadScenarioText(pingPong, "pp.yaml", { set: ["workload.S=65536"] })).summary.network;
    expect(eager.interNode).toEqual({ messages: 2, bytes: 131072 });
    const noMpi = "name: none\nmachine: { preset: xeon-2.8ghz-512k, nodes: 2 }\nassembly:\n  components:\n    D: { type: driver, params: { iterations: 1 } }\n";
    const none = executeScenario(loadScenarioText(noMpi, "none.yaml")).summary.network;
    expect(none).toEqual({ interNode: { messages: 0, bytes: 0 }, intraNode: { messages: 0, bytes: 0 } });
  });
});
