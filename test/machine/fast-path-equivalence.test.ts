import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ghostExchange, haloPlan, type BlockDecomposition, type MpiWorld, type NetworkSpec } from "../../machine/index.js";
import { world } from "./helpers.js";

/** A random network: model, eager limit (rendezvous included), optional background load. */
const networkArb = fc.record({
  model: fc.constantFrom("hockney", "loggp"),
  eagerLimit: fc.constantFrom(0, 2000, 65536, Infinity),
  load: fc.boolean(),
  preset: fc.constantFrom("infiniband-4x", "myrinet-2000", "gigabit-ethernet"),
});

function networkSpec(n: { model: string; eagerLimit: number; load: boolean; preset: string }): NetworkSpec {
  return { preset: n.preset, model: n.model, eagerLimit: n.eagerLimit, load: n.load ? { model: "piecewise", params: { period: 9, mean: 0.5 } } : { model: "none" } };
}

/** What a run produced: per rank the times each exchange ended and what it reported; world totals. */
function outcome(w: MpiWorld, ends: number[][], extra: unknown[][]) {
  return { ends, extra, messages: w.messages, bytes: w.bytes, now: w.sim.now, interMessages: Array.from(w.net.messages), nicFreeAt: Array.from(w.net.nicFreeAt) };
}

const haloArb = fc
  .record({
    dims: fc.constantFrom(2, 3),
    side: fc.integer({ min: 1, max: 3 }),
    side2: fc.integer({ min: 1, max: 3 }),
    patchesPerRank: fc.integer({ min: 1, max: 2 }),
    cells: fc.integer({ min: 2, max: 9 }),
    width: fc.integer({ min: 1, max: 2 }),
    periodic: fc.boolean(),
    corners: fc.boolean(),
    perNode: fc.integer({ min: 1, max: 4 }),
    iters: fc.integer({ min: 1, max: 3 }),
    seed: fc.integer({ min: 0, max: 1000 }),
    net: networkArb,
    // A rank that stops before its last exchange, so the run deadlocks (or -1: nobody does).
    skipRank: fc.integer({ min: -3, max: 17 }),
  })
  .chain((h) => {
    const p = h.dims === 2 ? h.side * h.side2 : h.side * h.side2 * 2;
    return fc.record({ h: fc.constant(h), skew: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: p, maxLength: p }) });
  });

function runHalo(s: fc.Arbitrary<unknown> extends never ? never : { h: Record<string, any>; skew: number[] }, fastPaths: boolean) {
  const { h, skew } = s;
  const ranks = h.dims === 2 ? [h.side, h.side2] : [h.side, h.side2, 2];
  const d: BlockDecomposition = {
    ranks,
    patches: ranks.map((r) => r * h.patchesPerRank),
    patchCells: ranks.map(() => h.cells),
    ghostWidth: h.width,
    bytesPerCell: 24,
    periodic: h.periodic,
    corners: h.corners,
  };
  const p = skew.length;
  const w = world(p, networkSpec(h.net), { rankToNode: Array.from({ length: p }, (_, r) => Math.floor(r / h.perNode)), seed: h.seed, fastPaths });
  const ends: number[][] = Array.from({ length: p }, () => []);
  const calls: number[][] = Array.from({ length: p }, () => []);
  w.launch(function* (c) {
    const plan = haloPlan(d, c.rank, 0);
    yield w.sim.timeout(skew[c.rank]);
    for (let i = 0; i < h.iters; i++) {
      if (c.rank === h.skipRank && i === h.iters - 1) break;
      const st = yield* ghostExchange(c, plan);
      ends[c.rank].push(w.sim.now);
      calls[c.rank].push(st.waitsomeCalls);
      if (i % 2 === 0) yield w.sim.timeout((c.rank * 7) % 5);
    }
  });
  w.run();
  w.finalize();
  return outcome(w, ends, calls);
}

const collectiveArb = fc.integer({ min: 1, max: 40 }).chain((p) =>
  fc.record({
    p: fc.constant(p),
    rankToNode: fc.array(fc.integer({ min: 0, max: Math.max(0, Math.ceil(p / 2) - 1) }), { minLength: p, maxLength: p }),
    skew: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: p, maxLength: p }),
    net: networkArb,
    seed: fc.integer({ min: 0, max: 1000 }),
    gamma: fc.constantFrom(0, 0.001, 0.05),
    algorithm: fc.constantFrom("auto", "recursive_doubling", "rabenseifner", "ring"),
    calls: fc.array(fc.record({ op: fc.constantFrom("allreduce", "barrier", "bcast", "reduce"), bytes: fc.integer({ min: 0, max: 20000 }), compute: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 4 }),
    // A rank that skips one call, so the run deadlocks (or -1: nobody does).
    skipRank: fc.integer({ min: -3, max: p - 1 }),
    skipCall: fc.integer({ min: 0, max: 3 }),
  }),
);

/** The run's outcome, or the deadlock report it ended with. */
function outcomeOrDeadlock(run: () => unknown): unknown {
  try {
    return run();
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function runCollectives(
  s: { p: number; rankToNode: number[]; skew: number[]; net: { model: string; eagerLimit: number; load: boolean; preset: string }; seed: number; gamma: number; algorithm: string; calls: { op: string; bytes: number; compute: number }[]; skipRank: number; skipCall: number },
  fastPaths: boolean,
) {
  const w = world(s.p, networkSpec(s.net), {
    rankToNode: s.rankToNode,
    seed: s.seed,
    fastPaths,
    collectives: { algorithms: { allreduce: s.algorithm }, params: { reduceCostPerByte: s.gamma } },
  });
  const ends: number[][] = Array.from({ length: s.p }, () => []);
  w.launch(function* (c) {
    yield w.sim.timeout(s.skew[c.rank]);
    for (const [k, call] of s.calls.entries()) {
      if (c.rank === s.skipRank && k === s.skipCall) break;
      if (call.op === "allreduce") yield* c.allreduce(call.bytes);
      else if (call.op === "barrier") yield* c.barrier();
      else if (call.op === "bcast") yield* c.bcast(call.bytes, call.bytes % c.size);
      else yield* c.reduce(call.bytes, (call.bytes >> 3) % c.size);
      ends[c.rank].push(w.sim.now);
      if (call.compute > 0) yield w.sim.timeout(call.compute * ((c.rank % 3) + 1));
    }
  });
  w.run();
  w.finalize();
  return outcome(w, ends, []);
}

describe("fast paths give the results of the generator forms", () => {
  it("collectives: same end times of every call on every rank, messages and NIC state, or the same deadlock report", () => {
    fc.assert(
      fc.property(collectiveArb, (s) => {
        expect(outcomeOrDeadlock(() => runCollectives(s, true))).toEqual(outcomeOrDeadlock(() => runCollectives(s, false)));
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it("ghost-cell exchange: same end times, MPI_Waitsome calls, messages and NIC state, or the same deadlock report", () => {
    fc.assert(
      fc.property(haloArb, (s) => {
        expect(outcomeOrDeadlock(() => runHalo(s, true))).toEqual(outcomeOrDeadlock(() => runHalo(s, false)));
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
