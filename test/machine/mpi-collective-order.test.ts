import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MpiUsageError, type Comm, type MpiCall } from "../../machine/index.js";
import { hockney, world } from "./helpers.js";

/** Runs `body` on every rank of a world of `p` ranks; the error the run threw, or undefined. */
function runError(p: number, body: (c: Comm) => MpiCall): unknown {
  const w = world(p, hockney(10, 1e8, 4096));
  w.launch(body);
  try {
    w.run();
    w.finalize();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** One collective a rank makes: which, its size (bytes) and root. */
type Collective = { readonly op: number; readonly bytes: number; readonly root: number };

function* make(c: Comm, x: Collective): MpiCall {
  switch (x.op) {
    case 0:
      return yield* c.barrier();
    case 1:
      return yield* c.bcast(x.bytes, x.root % c.size);
    case 2:
      return yield* c.reduce(x.bytes, x.root % c.size);
    case 3:
      return yield* c.allreduce(x.bytes);
    case 4:
      return yield* c.allgather(x.bytes);
    default:
      return yield* c.alltoall(x.bytes);
  }
}

describe("collective order: every rank makes the same collectives, sizes and roots", () => {
  it("refuses an allreduce whose size differs between ranks, even when both sizes take the same algorithm", () => {
    const err = runError(4, function* (c) {
      yield* c.barrier();
      yield* c.allreduce(c.rank === 2 ? 16 : 8);
    });
    expect(err).toBeInstanceOf(MpiUsageError);
    expect((err as MpiUsageError).rank).toBe(2);
    // The first rank out of the barrier makes the allreduce first: any of the others.
    expect((err as Error).message).toMatch(
      /^rank 2, MPI_Allreduce\(\): collective call 2 on MPI_COMM_WORLD is MPI_Allreduce\(\) of 16 bytes here, but rank [013] made it MPI_Allreduce\(\) of 8 bytes: every rank of a communicator makes the same collectives in the same order, with the same size and root$/,
    );
  });

  it("names both calls when ranks make different collectives (which would otherwise deadlock)", () => {
    const err = runError(4, function* (c) {
      if (c.rank === 0) yield* c.bcast(64, 0);
      else yield* c.reduce(64, 1);
    });
    expect(err).toBeInstanceOf(MpiUsageError);
    expect((err as Error).message).toMatch(/^rank 1, MPI_Reduce\(\): collective call 1 on MPI_COMM_WORLD is MPI_Reduce\(\) of 64 bytes to root 1 here, but rank 0 made it MPI_Bcast\(\) of 64 bytes from root 0:/);
  });

  it("refuses different roots of a bcast", () => {
    const err = runError(3, function* (c) {
      yield* c.bcast(8, c.rank === 1 ? 1 : 0);
    });
    expect((err as Error).message).toMatch(/is MPI_Bcast\(\) of 8 bytes from root 1 here, but rank 0 made it MPI_Bcast\(\) of 8 bytes from root 0/);
  });

  it("keeps each communicator's order apart", () => {
    const w = world(4, hockney(10, 1e8));
    const sub = w.createComm("EVEN", [0, 2]);
    w.launch(function* (c) {
      // The even ranks make one more collective (on EVEN) than the odd ones, between two on the world.
      yield* c.allreduce(8);
      if (c.rank % 2 === 0) yield* sub.comm(c.worldRank).bcast(100, 1);
      yield* c.allreduce(32);
    });
    w.run();
    w.finalize();
    const bad = world(4, hockney(10, 1e8));
    const badSub = bad.createComm("EVEN", [0, 2]);
    bad.launch(function* (c) {
      if (c.rank % 2 === 0) yield* badSub.comm(c.worldRank).allreduce(c.rank === 2 ? 24 : 8);
    });
    // Ranks are named in MPI_COMM_WORLD; the root in the communicator.
    expect(() => bad.run()).toThrow("rank 2, MPI_Allreduce(): collective call 1 on EVEN is MPI_Allreduce() of 24 bytes here, but rank 0 made it MPI_Allreduce() of 8 bytes");
  });

  it("accepts any sequence every rank makes alike, however far ranks run ahead, and refuses it with one call changed on one rank", () => {
    const collective = fc.record({ op: fc.integer({ min: 0, max: 5 }), bytes: fc.constantFrom(0, 8, 1000, 40000), root: fc.nat(7) });
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.array(collective, { minLength: 1, maxLength: 8 }), fc.nat(), fc.nat(), (p, calls, whichRank, whichCall) => {
        const delays = (rank: number, i: number) => ((rank * 7 + i * 3) % 5) * 10;
        const sequence = (c: Comm) =>
          function* (): MpiCall {
            for (let i = 0; i < calls.length; i++) {
              yield c.world.sim.timeout(delays(c.rank, i));
              yield* make(c, calls[i]!);
            }
          };
        expect(runError(p, (c) => sequence(c)())).toBeUndefined();
        // One rank gives one call another size.
        const r = whichRank % p;
        const k = whichCall % calls.length;
        const changed = calls.map((x, i) => (i === k ? { ...x, op: x.op === 0 ? 3 : x.op, bytes: x.bytes + 8 } : x));
        const err = runError(p, (c) =>
          (function* (): MpiCall {
            const mine = c.rank === r ? changed : calls;
            for (let i = 0; i < mine.length; i++) {
              yield c.world.sim.timeout(delays(c.rank, i));
              yield* make(c, mine[i]!);
            }
          })(),
        );
        expect(err).toBeInstanceOf(MpiUsageError);
        expect((err as Error).message).toContain(`collective call ${k + 1} on MPI_COMM_WORLD`);
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});
