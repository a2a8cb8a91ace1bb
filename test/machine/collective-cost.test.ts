import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COLLECTIVES, collectiveAlgorithms, type CollectiveName, type Comm, type MpiCall } from "../../machine/index.js";
import { close, hockney, world } from "./helpers.js";

const alpha = 5;
const bw = 2e8;
const beta = 1e6 / bw;
const gamma = 0.002;

/** Time until every rank has finished `op` when all start at 0 (one rank per node, all eager). */
function timeOf(p: number, coll: CollectiveName, algorithm: string, op: (c: Comm) => MpiCall): number {
  const w = world(p, hockney(alpha, bw), { collectives: { algorithms: { [coll]: algorithm }, params: { reduceCostPerByte: gamma } } });
  let end = 0;
  w.launch(function* (c) {
    yield* op(c);
    end = Math.max(end, w.sim.now);
  });
  w.run();
  w.finalize();
  return end;
}

const lg = (p: number) => Math.log2(p);
const clg = (p: number) => Math.ceil(Math.log2(p));
const flg = (p: number) => Math.floor(Math.log2(p));
const POW2 = [2, 4, 8, 16, 64];
const OTHER = [3, 5, 6, 7, 12, 13, 24];

describe("collective times match their algorithms' cost formulas (Hockney, no load)", () => {
  it("recursive-doubling allreduce: lg p (alpha + n beta + n gamma), plus the fold for other p", () => {
    const n = 1024;
    const step = alpha + n * beta + n * gamma;
    for (const p of POW2) expect(close(timeOf(p, "allreduce", "recursive_doubling", (c) => c.allreduce(n)), lg(p) * step)).toBe(true);
    for (const p of OTHER) expect(close(timeOf(p, "allreduce", "recursive_doubling", (c) => c.allreduce(n)), (flg(p) + 1) * step + alpha + n * beta)).toBe(true);
  });

  it("Rabenseifner allreduce: 2 lg p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma", () => {
    const n = 8 * 64 * 40;
    for (const p of POW2) {
      const f = (p - 1) / p;
      expect(close(timeOf(p, "allreduce", "rabenseifner", (c) => c.allreduce(n)), 2 * lg(p) * alpha + 2 * f * n * beta + f * n * gamma)).toBe(true);
    }
    for (const p of [3, 6, 12, 24]) {
      const q = 2 ** flg(p);
      const f = (q - 1) / q;
      const fold = alpha + n * beta + n * gamma + alpha + n * beta;
      expect(close(timeOf(p, "allreduce", "rabenseifner", (c) => c.allreduce(n)), fold + 2 * lg(q) * alpha + 2 * f * n * beta + f * n * gamma)).toBe(true);
    }
  });

  it("ring allreduce: 2 (p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma for any p", () => {
    for (const p of [...POW2, 3, 5, 6, 12]) {
      const n = 8 * p * 25;
      const f = (p - 1) / p;
      expect(close(timeOf(p, "allreduce", "ring", (c) => c.allreduce(n)), 2 * (p - 1) * alpha + 2 * f * n * beta + f * n * gamma)).toBe(true);
    }
  });

  it("binomial broadcast: ceil(lg p) (alpha + n beta) from any root", () => {
    const n = 3000;
    for (const p of [...POW2, ...OTHER]) {
      for (const root of [0, p - 1, Math.floor(p / 2)]) {
        expect(close(timeOf(p, "bcast", "binomial", (c) => c.bcast(n, root)), clg(p) * (alpha + n * beta))).toBe(true);
      }
    }
  });

  it("binomial reduce on 2^k ranks: lg p (alpha + n beta + n gamma)", () => {
    const n = 4096;
    for (const p of POW2) expect(close(timeOf(p, "reduce", "binomial", (c) => c.reduce(n, 0)), lg(p) * (alpha + n * beta + n * gamma))).toBe(true);
  });

  it("Rabenseifner reduce on 2^k ranks: 2 lg p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma, for any root", () => {
    const n = 8 * 64 * 30;
    for (const p of POW2) {
      const f = (p - 1) / p;
      for (const root of [0, p - 1, p >> 1]) {
        expect(close(timeOf(p, "reduce", "reduce_scatter_gather", (c) => c.reduce(n, root)), 2 * lg(p) * alpha + 2 * f * n * beta + f * n * gamma)).toBe(true);
      }
    }
  });

  it("dissemination barrier: ceil(lg p) alpha", () => {
    for (const p of [...POW2, ...OTHER]) expect(close(timeOf(p, "barrier", "dissemination", (c) => c.barrier()), clg(p) * alpha)).toBe(true);
  });

  it("allgather: ring (p-1)(alpha + n beta); recursive doubling and Bruck ceil(lg p) alpha + (p-1) n beta", () => {
    const n = 512;
    for (const p of [...POW2, 3, 5, 7]) {
      expect(close(timeOf(p, "allgather", "ring", (c) => c.allgather(n)), (p - 1) * (alpha + n * beta))).toBe(true);
      expect(close(timeOf(p, "allgather", "bruck", (c) => c.allgather(n)), clg(p) * alpha + (p - 1) * n * beta)).toBe(true);
    }
    for (const p of POW2) expect(close(timeOf(p, "allgather", "recursive_doubling", (c) => c.allgather(n)), lg(p) * alpha + (p - 1) * n * beta)).toBe(true);
  });

  it("pairwise alltoall: (p-1)(alpha + n beta)", () => {
    const n = 40000;
    for (const p of [2, 4, 5, 8]) expect(close(timeOf(p, "alltoall", "pairwise", (c) => c.alltoall(n)), (p - 1) * (alpha + n * beta))).toBe(true);
  });

  it("scattered alltoall: the p-1 sends of a rank contend for its NIC, alpha + (p-1) n beta", () => {
    const n = 3000;
    for (const p of [2, 3, 8, 20]) expect(close(timeOf(p, "alltoall", "scattered", (c) => c.alltoall(n)), alpha + (p - 1) * n * beta)).toBe(true);
  });

  it("returns from a collective of zero bytes at once, sending nothing, as MPICH and Open MPI do (a barrier still synchronises)", () => {
    const ops: [CollectiveName, string, (c: Comm) => MpiCall][] = [
      ["bcast", "binomial", (c) => c.bcast(0, 1)],
      ["reduce", "binomial", (c) => c.reduce(0, 2)],
      ["allreduce", "recursive_doubling", (c) => c.allreduce(0)],
      ["allreduce", "ring", (c) => c.allreduce(0)],
      ["allgather", "ring", (c) => c.allgather(0)],
      ["alltoall", "pairwise", (c) => c.alltoall(0)],
    ];
    for (const [coll, algorithm, op] of ops) {
      const w = world(8, hockney(alpha, bw), { collectives: { algorithms: { [coll]: algorithm } } });
      let end = -1;
      w.launch(function* (c) {
        yield* op(c);
        end = Math.max(end, w.sim.now);
      });
      w.run();
      w.finalize();
      expect([coll, algorithm, end, w.messages]).toEqual([coll, algorithm, 0, 0]);
    }
    expect(timeOf(8, "barrier", "dissemination", (c) => c.barrier())).toBeCloseTo(3 * alpha, 9);
    // One byte is a message again.
    expect(timeOf(8, "allreduce", "recursive_doubling", (c) => c.allreduce(1))).toBeGreaterThan(3 * alpha);
  });

  it("runs every registered algorithm to completion on awkward sizes without leftovers", () => {
    const cases: [CollectiveName, string, (c: Comm) => MpiCall][] = [
      ["bcast", "scatter_ring_allgather", (c) => c.bcast(100003, 2 % c.size)],
      ["bcast", "scatter_recursive_doubling_allgather", (c) => c.bcast(77777, 1 % c.size)],
      ["alltoall", "bruck", (c) => c.alltoall(100)],
      ["alltoall", "scattered", (c) => c.alltoall(5000)],
      ["allreduce", "rabenseifner", (c) => c.allreduce(12345)],
      ["allreduce", "ring", (c) => c.allreduce(13)],
      ["reduce", "reduce_scatter_gather", (c) => c.reduce(40000, c.size - 1)],
      ["reduce", "reduce_scatter_gather", (c) => c.reduce(40000, 1 % c.size)],
      ["reduce", "reduce_scatter_gather", (c) => c.reduce(40000, 0)],
    ];
    for (const p of [1, 2, 4, 8, 9, 11]) {
      for (const [coll, alg, op] of cases) {
        if (alg === "scatter_recursive_doubling_allgather" && (p & (p - 1)) !== 0) continue;
        expect(timeOf(p, coll, alg, op)).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("completes every registered algorithm for any rank count, size and root, blocks of ceil(n/p) bytes that leave ranks empty included (fast-check)", () => {
    const algorithms = COLLECTIVES.flatMap((coll) => collectiveAlgorithms[coll].all().map((a) => [coll, a.name] as const));
    const run: Record<CollectiveName, (c: Comm, n: number, root: number) => MpiCall> = {
      barrier: (c) => c.barrier(),
      bcast: (c, n, root) => c.bcast(n, root),
      reduce: (c, n, root) => c.reduce(n, root),
      allreduce: (c, n) => c.allreduce(n),
      allgather: (c, n) => c.allgather(n),
      alltoall: (c, n) => c.alltoall(n),
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...algorithms),
        fc.integer({ min: 1, max: 40 }),
        fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 100, max: 20000 })),
        fc.nat(),
        fc.boolean(),
        ([coll, alg], p, n, r, fastPaths) => {
          const supports = collectiveAlgorithms[coll].get(alg).supports;
          fc.pre(supports === undefined || supports(p));
          const w = world(p, hockney(alpha, bw, 4096), { collectives: { algorithms: { [coll]: alg } }, fastPaths });
          let finished = 0;
          w.launch(function* (c) {
            yield* run[coll](c, n, r % p);
            finished++;
          });
          w.run();
          w.finalize();
          expect(finished).toBe(p);
        },
      ),
      { seed: 20050, numRuns: 600 },
    );
    // The case MPICH's automatic choice reaches at scale: 128 ranks, 12300 bytes (blocks of 97).
    expect(timeOf(128, "bcast", "scatter_ring_allgather", (c) => c.bcast(12300, 0))).toBeGreaterThan(0);
    expect(timeOf(7, "bcast", "scatter_ring_allgather", (c) => c.bcast(24, 3))).toBeGreaterThan(0);
    expect(timeOf(2, "bcast", "scatter_recursive_doubling_allgather", (c) => c.bcast(1, 0))).toBeGreaterThan(0);
  });
});
