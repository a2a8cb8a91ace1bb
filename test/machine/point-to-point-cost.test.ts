import { describe, expect, it } from "vitest";
import { deriveLogGP, interconnectPresets, type MpiWorld } from "../../machine/index.js";
import { close, hockney, world } from "./helpers.js";

/** Ping-pong between rank 0 and 1: returns the round-trip time seen by rank 0. */
function pingPong(w: MpiWorld, bytes: number): number {
  let rtt = NaN;
  w.launch(function* (c) {
    if (c.rank === 0) {
      const t0 = w.sim.now;
      yield* c.send(1, 0, bytes);
      yield* c.recv(1, 0, bytes);
      rtt = w.sim.now - t0;
    } else {
      yield* c.recv(0, 0, bytes);
      yield* c.send(0, 0, bytes);
    }
  });
  w.run();
  w.finalize();
  return rtt;
}

describe("point-to-point cost models", () => {
  it("reproduces 2(alpha + n*beta) for a Hockney ping-pong between nodes", () => {
    const alpha = 7;
    const bw = 245e6;
    for (const n of [0, 1, 8, 1000, 65536, 1e6]) {
      const rtt = pingPong(world(2, hockney(alpha, bw)), n);
      expect(close(rtt, 2 * (alpha + n * (1e6 / bw)))).toBe(true);
    }
  });

  it("reproduces 2(o + (n-1)G + L + o) for a LogGP ping-pong between nodes", () => {
    const L = 5;
    const o = 1.5;
    const g = 2;
    const bw = 2e8;
    const G = 1e6 / bw;
    for (const n of [1, 2, 100, 4096, 50000]) {
      const rtt = pingPong(world(2, { model: "loggp", params: { L, o, g, bandwidth: bw }, eagerLimit: Infinity }), n);
      expect(close(rtt, 2 * (o + (n - 1) * G + L + o))).toBe(true);
    }
  });

  it("switches to rendezvous above the eager limit: two extra latencies per message", () => {
    const alpha = 30;
    const bw = 100e6;
    const beta = 1e6 / bw;
    const limit = 65536;
    const at = pingPong(world(2, hockney(alpha, bw, limit)), limit);
    const above = pingPong(world(2, hockney(alpha, bw, limit)), limit + 1);
    expect(close(at, 2 * (alpha + limit * beta))).toBe(true);
    expect(close(above, 2 * (3 * alpha + (limit + 1) * beta))).toBe(true);
  });

  it("adds the rendezvous handshake in LogGP too: 3(2o + L) + (n-1)G one way", () => {
    const L = 4;
    const o = 1;
    const bw = 5e8;
    const n = 10000;
    const rtt = pingPong(world(2, { model: "loggp", params: { L, o, g: 0.5, bandwidth: bw }, eagerLimit: 1024 }), n);
    expect(close(rtt, 2 * (3 * (2 * o + L) + (n - 1) * (1e6 / bw)))).toBe(true);
  });

  it("uses the shared-memory path with its own parameters between ranks of one node", () => {
    const w = world(2, { ...hockney(30, 100e6), intraNode: { model: "hockney", params: { alpha: 0.8, bandwidth: 2e9 } } }, { rankToNode: [0, 0] });
    const n = 10000;
    expect(close(pingPong(w, n), 2 * (0.8 + n * (1e6 / 2e9)))).toBe(true);
    expect(w.net.messages[1]).toBe(2);
    expect(w.net.messages[0]).toBe(0);
  });

  it("derives LogGP from a preset so that a small message still costs alpha end to end", () => {
    const ib = interconnectPresets.get("infiniband-4x");
    const d = deriveLogGP(ib.alpha, ib.bandwidth, 0.25);
    expect(d.o).toBeCloseTo(0.875, 12);
    expect(d.L + 2 * d.o).toBeCloseTo(ib.alpha, 12);
    const rtt = pingPong(world(2, { preset: "infiniband-4x", model: "loggp", eagerLimit: Infinity }), 1);
    expect(close(rtt, 2 * ib.alpha)).toBe(true);
  });

  it("serialises simultaneous sends from one node on its NIC", () => {
    // Ranks 0 and 1 share node 0 and both send n bytes to ranks on nodes 1 and 2 at t = 0.
    const alpha = 10;
    const bw = 1e8;
    const beta = 1e6 / bw;
    const n = 50000;
    const w = world(4, hockney(alpha, bw), { rankToNode: [0, 0, 1, 2] });
    const arrived: number[] = [];
    w.launch(function* (c) {
      if (c.rank < 2) yield* c.send(c.rank + 2, 0, n);
      else {
        yield* c.recv(c.rank - 2, 0, n);
        arrived.push(w.sim.now);
      }
    });
    w.run();
    arrived.sort((a, b) => a - b);
    expect(close(arrived[0], alpha + n * beta)).toBe(true);
    expect(close(arrived[1], alpha + 2 * n * beta)).toBe(true);
  });
});

describe("interconnect presets", () => {
  it("lists the five presets with their published latency and bandwidth and a source", () => {
    const want: Record<string, [number, number]> = {
      "fast-ethernet": [120, 11.25e6],
      "gigabit-ethernet": [30, 100e6],
      "myrinet-2000": [7, 245e6],
      "infiniband-4x": [3.5, 830e6],
      "numalink-4": [1, 3.2e9],
    };
    expect(interconnectPresets.names()).toEqual(Object.keys(want).sort());
    for (const [name, [alpha, bw]] of Object.entries(want)) {
      const p = interconnectPresets.get(name);
      expect([p.alpha, p.bandwidth]).toEqual([alpha, bw]);
      expect(p.source.length).toBeGreaterThan(40);
    }
  });
});
