import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecompositionError, MpiCallTotals, faceNeighbours, ghostExchange, haloPlan, type BlockDecomposition, type GhostExchangeStats } from "../../machine/index.js";
import { close, hockney, world } from "./helpers.js";

const alpha = 20;
const bw = 1e8;
const beta = 1e6 / bw;

function run(d: BlockDecomposition) {
  const p = d.ranks.reduce((a, b) => a * b, 1);
  const totals = new MpiCallTotals(p);
  const w = world(p, hockney(alpha, bw), { observer: totals });
  const stats: GhostExchangeStats[] = [];
  let end = 0;
  w.launch(function* (c) {
    stats[c.rank] = yield* ghostExchange(c, haloPlan(d, c.rank, 100));
    end = Math.max(end, w.sim.now);
  });
  w.run();
  w.finalize();
  return { w, stats, end, totals };
}

describe("ghost-cell exchange", () => {
  for (const side of [2, 4, 8]) {
    it(`completes on ${side * side} ranks, moves exactly the halo bytes and scales with the width as predicted`, () => {
      const B = 32; // cells per rank block side (2 x 2 patches of 16)
      const bpc = 40; // 5 doubles per cell
      const base = { ranks: [side, side], patches: [2 * side, 2 * side], patchCells: [16, 16], bytesPerCell: bpc, periodic: true };
      const results = [1, 2, 4].map((width) => ({ width, ...run({ ...base, ghostWidth: width }) }));
      for (const r of results) {
        const halo = ((B + 2 * r.width) ** 2 - B * B) * bpc; // full box halo of a block, 8 neighbours
        const p = side * side;
        // Exactly the halo bytes: every rank sends and receives its block's halo; nothing else moves.
        expect(r.stats.every((s) => s.bytesReceived === halo && s.bytesSent === halo && s.messagesSent === 8)).toBe(true);
        expect(r.w.bytes).toBe(p * halo);
        expect(r.w.messages).toBe(p * 8);
        const waited = r.totals.bytes.get("MPI_Waitsome()")!;
        expect(Array.from(waited).every((b) => b === 2 * halo)).toBe(true);
        // Local copies: 2 x 2 patches per rank exchange 4 face strips and 4 corner strips internally, per pair both ways.
        expect(r.stats[0].localCopyBytes).toBe((8 * r.width * 16 + 4 * r.width * r.width) * bpc);
        // Time: the NIC serialises the 8 strips; with one rank per node the last arrives at alpha + beta * halo.
        expect(close(r.end, alpha + beta * halo)).toBe(true);
      }
      // Doubling the width multiplies the bandwidth term by halo(2w)/halo(w), exactly as predicted.
      const [w1, w2] = results;
      const ratio = (w2.end - alpha) / (w1.end - alpha);
      const h = (w: number) => (B + 2 * w) ** 2 - B * B;
      expect(ratio).toBeCloseTo(h(2) / h(1), 12);
      expect(results[2].end).toBeGreaterThan(results[1].end);
    });
  }

  it("sizes strips of a 3-D decomposition: faces w*B*B, edges w*w*B, corners w^3", () => {
    const d: BlockDecomposition = { ranks: [3, 3, 3], patchCells: [10, 12, 14], ghostWidth: 2, bytesPerCell: 8 };
    const centre = haloPlan(d, 13);
    expect(centre.peers.length).toBe(26);
    expect(centre.haloBytes).toBe((14 * 16 * 18 - 10 * 12 * 14) * 8);
    const corner = haloPlan(d, 0);
    expect(corner.peers.length).toBe(7);
    const facesOnly = haloPlan({ ...d, corners: false }, 13);
    expect(facesOnly.peers.length).toBe(6);
    expect(facesOnly.haloBytes).toBe(2 * 2 * (12 * 14 + 10 * 14 + 10 * 12) * 8);
    const r = run(d);
    expect(r.stats.map((s) => s.waitsomeCalls).every((n) => n >= 1)).toBe(true);
  });

  it("rejects inconsistent decompositions with the offending field", () => {
    const d: BlockDecomposition = { ranks: [2, 2], patchCells: [8, 8], ghostWidth: 1, bytesPerCell: 8 };
    expect(() => haloPlan({ ...d, patches: [3, 2] }, 0)).toThrow(DecompositionError);
    expect(() => haloPlan({ ...d, ghostWidth: 9 }, 0)).toThrow(/ghostWidth/);
    expect(() => haloPlan({ ...d, ranks: [4] }, 0)).toThrow(/ranks/);
    expect(() => haloPlan(d, 4)).toThrow(/outside/);
  });
});

describe("faceNeighbours", () => {
  it("names the ranks across each face, wrapping periodic dimensions, without the rank itself", () => {
    const d: BlockDecomposition = { ranks: [3, 2], patchCells: [8, 8], ghostWidth: 1, bytesPerCell: 8 };
    // Rank 4 is (1, 1): left 3, right 5, below 1 (no row above, not periodic).
    expect(faceNeighbours(d, 4)).toEqual([
      { peer: 3, dimension: 0 },
      { peer: 5, dimension: 0 },
      { peer: 1, dimension: 1 },
    ]);
    expect(() => faceNeighbours(d, 6)).toThrow(/rank 6 is outside the 3x2 grid/);
    // Periodic: the 2-wide dimension has the same rank on both sides, named once; a 1-wide one none.
    expect(faceNeighbours({ ...d, ranks: [3, 2, 1], patchCells: [8, 8, 8], periodic: true }, 4)).toEqual([
      { peer: 3, dimension: 0 },
      { peer: 5, dimension: 0 },
      { peer: 1, dimension: 1 },
    ]);
  });

  it("are the peers of the face messages of the halo plan", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 3 }), fc.boolean(), fc.nat(), (ranks, periodic, r) => {
        const d: BlockDecomposition = { ranks, patchCells: ranks.map(() => 8), ghostWidth: 1, bytesPerCell: 8, periodic, corners: false };
        const rank = r % ranks.reduce((a, b) => a * b, 1);
        const peers = [...new Set(faceNeighbours(d, rank).map((x) => x.peer))].sort((a, b) => a - b);
        expect(peers).toEqual([...new Set(haloPlan(d, rank).peers)].sort((a, b) => a - b));
      }),
      { seed: 3, numRuns: 200 },
    );
  });
});
