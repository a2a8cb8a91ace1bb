import { describe, expect, it } from "vitest";
import { ghostExchange, haloPlan, MpiUsageError, REQUEST_NULL, type Comm, type MpiObserver, type Status } from "../../machine/index.js";
import { hockney, world } from "./helpers.js";

describe("MPI non-blocking requests", () => {
  it("waitany returns requests in completion order and -1 once all are null", () => {
    const w = world(4, hockney(10, 1e8));
    const order: number[] = [];
    w.launch(function* (c) {
      if (c.rank === 0) {
        const reqs = [c.irecv(1, 0), c.irecv(2, 0), c.irecv(3, 0)];
        for (let i = 0; i < 3; i++) order.push(yield* c.waitany(reqs));
        expect(reqs).toEqual([REQUEST_NULL, REQUEST_NULL, REQUEST_NULL]);
        order.push(yield* c.waitany(reqs));
      } else {
        yield w.sim.timeout(100 * (4 - c.rank)); // rank 3 first, then 2, then 1
        yield* c.send(0, 0, 8);
      }
    });
    w.run();
    expect(order).toEqual([2, 1, 0, -1]);
  });

  it("waitsome returns every request complete at that moment, with statuses", () => {
    const w = world(4, hockney(10, 1e8));
    const batches: number[][] = [];
    const statuses: Status[] = [];
    w.launch(function* (c) {
      if (c.rank === 0) {
        const reqs = [c.irecv(1, 0), c.irecv(2, 0), c.irecv(3, 0), yield* c.isend(1, 1, 8)];
        while (reqs.some((r) => r !== REQUEST_NULL)) batches.push(yield* c.waitsome(reqs, statuses));
        expect(yield* c.waitsome(reqs)).toEqual([]);
      } else {
        if (c.rank === 1) yield* c.recv(0, 1);
        yield w.sim.timeout(c.rank === 3 ? 500 : 0);
        yield* c.send(0, 0, 8, c.rank);
      }
    });
    w.run();
    w.finalize();
    // At 10.08 us the send to rank 1 is delivered and rank 2's message arrives (one batch); rank 1
    // answers only after receiving, at 20.16 us; rank 3 sends at 500 us.
    expect(batches).toEqual([[1, 3], [0], [2]]);
    expect(statuses.map((s) => s.source)).toEqual([1, 2, 3]);
  });

  it("test reports completion without blocking and releases the request", () => {
    const w = world(2, hockney(10, 1e8));
    const polls: boolean[] = [];
    w.launch(function* (c) {
      if (c.rank === 0) {
        const r = c.irecv(1, 0);
        polls.push(yield* c.test(r));
        yield w.sim.timeout(50);
        polls.push(yield* c.test(r));
        expect(() => c.test(r)).toThrow(/not an active request/);
        expect(yield* c.test(REQUEST_NULL)).toBe(true);
        const sent = yield* c.isend(1, 5, 1000); // eager: still in the network after it completes locally
        yield* c.wait(sent);
        expect(() => c.test(sent)).toThrow(/not an active request/);
      } else {
        yield* c.send(0, 0, 8);
        yield* c.recv(0, 5);
      }
    });
    w.run();
    expect(polls).toEqual([false, true]);
  });

  it("refuses the next MPI call after an MPI_Test whose call was never run", () => {
    const w = world(2, hockney(10, 1e8));
    let refused: unknown;
    w.launch(function* (c) {
      if (c.rank === 0) {
        const r = c.irecv(1, 0);
        // Without yield*: a generator, which a condition takes as true, and the test never ran.
        if (c.test(r)) {
          try {
            yield* c.wait(r);
          } catch (e) {
            refused = e;
          }
        }
        // Refused once: the program may go on.
        yield* c.wait(r);
      } else yield* c.send(0, 0, 8);
    });
    w.run();
    expect(refused).toBeInstanceOf(MpiUsageError);
    expect(String(refused)).toMatch(/rank 0, MPI_Wait\(\): the MPI_Test\(\) before it was never run .*yield\* comm\.test\(r\)/);
  });

  it("refuses an MPI_Test made while the one before it was never run", () => {
    const w = world(1, hockney(10, 1e8));
    w.launch(function* (c) {
      const r = c.irecv(0, 0);
      void c.test(r);
      expect(() => c.test(r)).toThrow(/MPI_Test\(\): the MPI_Test\(\) before it was never run/);
      expect(yield* c.test(r)).toBe(false);
      yield* c.send(0, 0, 8);
      yield* c.wait(r);
    });
    w.run();
  });

  it("refuses a collective or a ghost exchange after an MPI_Test whose call was never run, observed or not", () => {
    const plan = (rank: number) => haloPlan({ ranks: [2, 1], patchCells: [4, 4], ghostWidth: 1, bytesPerCell: 8, periodic: false }, rank, 0);
    const calls: [string, (c: Comm) => Generator<unknown, unknown, unknown>, RegExp][] = [
      ["barrier", (c) => c.barrier(), /rank 0, MPI_Barrier\(\): the MPI_Test\(\) before it was never run/],
      ["allreduce", (c) => c.allreduce(8), /rank 0, MPI_Allreduce\(\): the MPI_Test\(\) before it was never run/],
      ["alltoall", (c) => c.alltoall(8), /rank 0, MPI_Alltoall\(\): the MPI_Test\(\) before it was never run/],
      ["ghost exchange", (c) => ghostExchange(c, plan(c.rank)), /rank 0, MPI_Irecv\(\): the MPI_Test\(\) before it was never run/],
    ];
    const observer: MpiObserver = { enter() {}, exit() {} };
    for (const [name, call, message] of calls) {
      for (const observed of [false, true]) {
        const w = world(2, hockney(10, 1e8), { observer: observed ? observer : undefined });
        let refused: unknown;
        w.launch(function* (c) {
          const r = c.irecv(1 - c.rank, 9);
          if (c.rank === 0 && c.test(r)) {
            try {
              yield* call(c) as Generator<never, unknown, unknown>;
            } catch (e) {
              refused = e;
            }
          }
          // Refused once, before it took part: the call goes through when made again.
          yield* call(c) as Generator<never, unknown, unknown>;
          yield* c.send(1 - c.rank, 9, 8);
          yield* c.wait(r);
        });
        w.run();
        w.finalize();
        expect({ name, observed, refused: String(refused) }).toEqual({ name, observed, refused: expect.stringMatching(message) });
      }
    }
  });

  it("completes an eager LogGP send at injection, before delivery", () => {
    const w = world(2, { model: "loggp", params: { L: 20, o: 1, g: 1, bandwidth: 1e9 }, eagerLimit: Infinity });
    let sendDone = NaN;
    let recvDone = NaN;
    w.launch(function* (c) {
      if (c.rank === 0) {
        yield* c.send(1, 0, 1001);
        sendDone = w.sim.now;
      } else {
        yield* c.recv(0, 0);
        recvDone = w.sim.now;
      }
    });
    w.run();
    expect(sendDone).toBeCloseTo(1 + 1000 * 1e-3, 12);
    expect(recvDone).toBeCloseTo(1 + 1000 * 1e-3 + 20 + 1, 12);
  });

  it("synchronises a rendezvous sender with a late receiver", () => {
    const w = world(2, hockney(5, 1e9, 100));
    let sendDone = NaN;
    w.launch(function* (c) {
      if (c.rank === 0) {
        yield* c.send(1, 0, 1000);
        sendDone = w.sim.now;
      } else {
        yield w.sim.timeout(400);
        yield* c.recv(0, 0);
      }
    });
    w.run();
    // Request-to-send waits until 400, then clear-to-send (5) and data (5 + 1000 bytes * 1e-3 us).
    expect(sendDone).toBeCloseTo(400 + 5 + 5 + 1, 12);
  });

  it("sendrecv around a ring takes alpha + n beta and returns the source", () => {
    const w = world(5, hockney(8, 1e8));
    const got: number[] = [];
    w.launch(function* (c) {
      got[c.rank] = yield* c.sendrecv((c.rank + 1) % 5, 3, 20000, (c.rank + 4) % 5, 3);
    });
    w.run();
    w.finalize();
    expect(got).toEqual([4, 0, 1, 2, 3]);
    expect(w.sim.now).toBeCloseTo(8 + 20000 * 0.01, 12);
  });

  it("refuses a request listed twice in one waitall, waitany or waitsome, naming it", () => {
    for (const call of ["waitall", "waitany", "waitsome"] as const) {
      const w = world(2, hockney(10, 1e8));
      const refused: string[] = [];
      w.launch(function* (c) {
        if (c.rank === 0) {
          const r = c.irecv(1, 0);
          const reqs = [r, REQUEST_NULL, r];
          try {
            yield* c[call](reqs);
          } catch (e) {
            refused.push((e as Error).message);
          }
          expect(reqs).toEqual([r, REQUEST_NULL, r]);
          yield* c.wait(r);
        } else yield* c.send(0, 0, 8);
      });
      w.run();
      w.finalize();
      const name = { waitall: "MPI_Waitall()", waitany: "MPI_Waitany()", waitsome: "MPI_Waitsome()" }[call];
      expect(refused).toEqual([`rank 0, ${name}: request 0 is listed twice (entries 0 and 2); MPI makes that erroneous`]);
    }
  });
});
