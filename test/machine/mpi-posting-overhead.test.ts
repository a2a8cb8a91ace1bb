import { describe, expect, it } from "vitest";
import { ghostExchange, haloPlan, type MpiCallName, type MpiObserver, type NetworkSpec } from "../../machine/index.js";
import { hockney, world } from "./helpers.js";

/** Every call of every rank as `rank > call @t` / `rank < call @t`. */
class Calls implements MpiObserver {
  readonly events: string[] = [];
  enter(rank: number, call: MpiCallName, now: number): void {
    this.events.push(`${rank} > ${call} @${now}`);
  }
  exit(rank: number, call: MpiCallName, now: number): void {
    this.events.push(`${rank} < ${call} @${now}`);
  }
  of(rank: number): string[] {
    return this.events.filter((e) => e.startsWith(`${rank} `));
  }
}

/** LogGP with o = 3 us on each side, L = 20 us, g = 1 us, 1 GB/s (G = 0.001 us per byte). */
function loggp(o = 3, eagerLimit = Infinity): NetworkSpec {
  return { model: "loggp", params: { L: 20, o, g: 1, bandwidth: 1e9 }, eagerLimit };
}

describe("MPI_Isend takes the sender's CPU overhead", () => {
  it("returns after the path's overhead o under LogGP, and the message leaves after it", () => {
    const calls = new Calls();
    const w = world(2, loggp(), { observer: calls });
    let received = NaN;
    w.launch(function* (c) {
      if (c.rank === 0) {
        const r = yield* c.isend(1, 0, 1001);
        yield w.sim.timeout(10); // compute after posting
        yield* c.wait(r);
      } else {
        yield* c.recv(0, 0);
        received = w.sim.now;
      }
    });
    w.run();
    // Posting: o = 3 us of CPU; compute 10 us; the send left at 3 + 1000 G = 4 us, long before.
    expect(calls.of(0)).toEqual(["0 > MPI_Isend() @0", "0 < MPI_Isend() @3", "0 > MPI_Wait() @13", "0 < MPI_Wait() @13"]);
    // o + (n-1) G + L + o: the sender's overhead, charged to its CPU, then the wire, the latency and the receiver's overhead.
    expect(received).toBeCloseTo(3 + 1 + 20 + 3, 12);
  });

  it("posts consecutive sends one overhead apart", () => {
    const calls = new Calls();
    const w = world(3, loggp(), { observer: calls });
    w.launch(function* (c) {
      if (c.rank === 0) {
        const a = yield* c.isend(1, 0, 1);
        const b = yield* c.isend(2, 0, 1);
        yield* c.waitall([a, b]);
      } else yield* c.recv(0, 0);
    });
    w.run();
    expect(calls.of(0).slice(0, 4)).toEqual(["0 > MPI_Isend() @0", "0 < MPI_Isend() @3", "0 > MPI_Isend() @3", "0 < MPI_Isend() @6"]);
    // The second message is ready at 6 (the NIC is free again at 3 + g = 4): it arrives at 6 + 20, received 3 later.
    expect(calls.of(2)).toEqual(["2 > MPI_Recv() @0", "2 < MPI_Recv() @29"]);
  });

  it("charges a rendezvous send's overhead of its request-to-send", () => {
    const calls = new Calls();
    const w = world(2, loggp(3, 100), { observer: calls });
    w.launch(function* (c) {
      if (c.rank === 0) yield* c.wait(yield* c.isend(1, 0, 1000));
      else yield* c.recv(0, 0);
    });
    w.run();
    expect(calls.of(0).slice(0, 2)).toEqual(["0 > MPI_Isend() @0", "0 < MPI_Isend() @3"]);
  });

  it("names an isend's call passed as a request (JavaScript without yield*)", () => {
    const w = world(2, hockney(10, 1e8));
    let message = "";
    w.launch(function* (c) {
      if (c.rank !== 0) return;
      try {
        yield* c.wait(c.isend(1, 0, 8) as unknown as number);
      } catch (e) {
        message = (e as Error).message;
      }
    });
    w.run();
    expect(message).toBe("rank 0, MPI_Wait(): request [object Generator] is not an active request of this rank (an MPI_Isend's call, not its request: write 'const r = yield* comm.isend(...)')");
  });

  it("stays instant under Hockney, whose overheads are 0", () => {
    const calls = new Calls();
    const w = world(2, hockney(10, 1e8), { observer: calls });
    w.launch(function* (c) {
      if (c.rank === 0) yield* c.wait(yield* c.isend(1, 0, 100));
      else yield* c.recv(0, 0);
    });
    w.run();
    expect(calls.of(0)).toEqual(["0 > MPI_Isend() @0", "0 < MPI_Isend() @0", "0 > MPI_Wait() @0", "0 < MPI_Wait() @11"]);
  });

  it("gives a ghost exchange the same times with and without its fast path", () => {
    const end = (observed: boolean): number[] => {
      const w = world(4, loggp(), { observer: observed ? new Calls() : undefined, fastPaths: true });
      const ends: number[] = [];
      w.launch(function* (c) {
        const plan = haloPlan({ ranks: [2, 2], patchCells: [64, 64], ghostWidth: 1, bytesPerCell: 8, periodic: true }, c.rank);
        yield* ghostExchange(c, plan);
        ends[c.rank] = w.sim.now;
      });
      w.run();
      return ends;
    };
    const fast = end(false);
    expect(end(true)).toEqual(fast);
    // Each rank posts its sends one overhead apart: the last leaves after all of them.
    expect(Math.min(...fast)).toBeGreaterThan(3 * 4);
  });
});
