import { describe, expect, it } from "vitest";
import { ANY_SOURCE, ANY_TAG, MpiUsageError, type Status } from "../../machine/index.js";
import { hockney, world } from "./helpers.js";

describe("MPI matching", () => {
  it("matches by source and tag, keeping non-matching messages in the unexpected queue", () => {
    const w = world(3, hockney(10, 1e8));
    const got: Status[] = [];
    w.launch(function* (c) {
      if (c.rank === 0) {
        yield* c.send(2, 5, 100, 1);
        yield* c.send(2, 6, 200, 2);
      } else if (c.rank === 1) {
        yield* c.send(2, 5, 300, 3);
      } else {
        yield w.sim.timeout(1000); // everything has arrived and waits unexpected
        yield* c.recv(0, 6);
        got.push(c.status);
        yield* c.recv(1, 5);
        got.push(c.status);
        yield* c.recv(0, 5);
        got.push(c.status);
      }
    });
    w.run();
    w.finalize();
    expect(got).toEqual([
      { source: 0, tag: 6, bytes: 200, value: 2 },
      { source: 1, tag: 5, bytes: 300, value: 3 },
      { source: 0, tag: 5, bytes: 100, value: 1 },
    ]);
  });

  it("ANY_SOURCE and ANY_TAG take the earliest arrived message; order per sender is preserved", () => {
    const w = world(3, hockney(10, 1e8));
    const seen: number[] = [];
    w.launch(function* (c) {
      if (c.rank < 2) {
        for (let i = 0; i < 4; i++) yield* c.send(2, i, 10, c.rank * 10 + i);
      } else {
        for (let i = 0; i < 8; i++) {
          yield* c.recv(ANY_SOURCE, ANY_TAG);
          seen.push(c.status.value);
        }
      }
    });
    w.run();
    w.finalize();
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 10, 11, 12, 13]);
    expect(seen.filter((v) => v < 10)).toEqual([0, 1, 2, 3]);
    expect(seen.filter((v) => v >= 10)).toEqual([10, 11, 12, 13]);
  });

  it("keeps non-overtaking order when a short message follows a long one to the same rank", () => {
    const w = world(2, { ...hockney(10, 1e8), eagerLimit: 1000 });
    const seen: number[] = [];
    w.launch(function* (c) {
      if (c.rank === 0) {
        const a = yield* c.isend(1, 1, 1e6, 1); // rendezvous
        const b = yield* c.isend(1, 1, 8, 2); // eager, posted right after
        yield* c.waitall([a, b]);
      } else {
        yield* c.recv(0, 1);
        seen.push(c.status.value);
        yield* c.recv(0, 1);
        seen.push(c.status.value);
      }
    });
    w.run();
    expect(seen).toEqual([1, 2]);
  });

  it("never matches collective-internal messages with user receives", () => {
    const w = world(4, hockney(2, 1e9));
    const seen: number[] = [];
    w.launch(function* (c) {
      const r = c.irecv(ANY_SOURCE, ANY_TAG);
      yield* c.allreduce(64);
      yield* c.barrier();
      yield* c.send((c.rank + 1) % 4, 9, 4, c.rank);
      yield* c.wait(r);
      seen.push(c.status.value);
    });
    w.run();
    w.finalize();
    expect(seen.sort()).toEqual([0, 1, 2, 3]);
  });

  it("matches within a sub-communicator in its own ranks and contexts", () => {
    const w = world(6, hockney(3, 1e9));
    const odd = w.createComm("odd", [5, 3, 1]);
    const seen: Array<[number, number]> = [];
    w.launch(function* (c) {
      if (c.rank % 2 === 0) {
        yield* c.send((c.rank + 1) % 6, 0, 8, 100 + c.rank);
        return;
      }
      const sub = odd.comm(c.rank);
      expect(sub.size).toBe(3);
      yield* sub.allreduce(8);
      if (sub.rank === 0) {
        for (let i = 0; i < 2; i++) {
          yield* sub.recv(ANY_SOURCE, 0);
          seen.push([sub.status.source, sub.status.value]);
        }
      } else yield* sub.send(0, 0, 8, sub.rank);
      yield* c.recv(c.rank - 1, 0);
    });
    w.run();
    w.finalize();
    expect(seen.sort()).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it("fails the run with a typed error when a message is larger than the receive buffer", () => {
    const w = world(2, hockney(1, 1e9));
    w.launch(function* (c) {
      if (c.rank === 0) yield* c.send(1, 0, 100);
      else yield* c.recv(0, 0, 50);
    });
    expect(() => w.run()).toThrow(MpiUsageError);
  });

  it("rejects bad ranks, tags, sizes and stale request handles with MpiUsageError", () => {
    const w = world(2, hockney(1, 1e9));
    const c = w.comm(0);
    expect(() => c.isend(2, 0, 1)).toThrow(/destination 2 is outside/);
    expect(() => c.isend(1, -3, 1)).toThrow(/tag -3/);
    expect(() => c.isend(1, 0, NaN)).toThrow(/size NaN/);
    expect(() => c.irecv(7, 0)).toThrow(/source 7/);
    expect(() => c.test(123456)).toThrow(MpiUsageError);
    expect(() => w.comm(1).bcast(10, 5).next()).toThrow("rank 1, MPI_Bcast(): root 5 is outside [0, 2) of MPI_COMM_WORLD");
  });

  it("says a fractional rank or tag is not an integer, rather than outside the range it lies in", () => {
    const w = world(3, hockney(1, 1e9));
    const c = w.comm(0);
    expect(() => w.comm(2).bcast(10, 1.5).next()).toThrow("rank 2, MPI_Bcast(): root 1.5 is not an integer rank of MPI_COMM_WORLD (0 to 2)");
    expect(() => c.isend(0.5, 0, 1)).toThrow("rank 0, MPI_Isend(): destination 0.5 is not an integer rank of MPI_COMM_WORLD (0 to 2)");
    expect(() => c.irecv(1, 2.5)).toThrow("rank 0, MPI_Irecv(): tag 2.5 is not an integer and is not ANY_TAG");
    expect(() => c.irecv(-2, 0)).toThrow("rank 0, MPI_Irecv(): source -2 is outside [0, 3) of MPI_COMM_WORLD and is not ANY_SOURCE");
  });
});
