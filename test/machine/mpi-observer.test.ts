import { describe, expect, it } from "vitest";
import { MpiCallTotals, combineObservers, type MpiCallName, type MpiObserver } from "../../machine/index.js";
import { hockney, world } from "./helpers.js";

class Trace implements MpiObserver {
  readonly events: string[] = [];
  enter(rank: number, call: MpiCallName, now: number): void {
    this.events.push(`${rank} > ${call} @${now}`);
  }
  exit(rank: number, call: MpiCallName, now: number, bytes: number): void {
    this.events.push(`${rank} < ${call} @${now} ${bytes}B`);
  }
}

describe("MPI observer hooks", () => {
  it("reports each call once per rank with enter/exit times and bytes, collectives as the collective", () => {
    const trace = new Trace();
    const w = world(2, hockney(10, 1e8), { observer: trace, collectives: { params: { reduceCostPerByte: 0 } } });
    w.launch(function* (c) {
      if (c.rank === 0) {
        const r = yield* c.isend(1, 0, 100);
        yield* c.wait(r);
      } else yield* c.recv(0, 0);
      yield* c.allreduce(8);
    });
    w.run();
    expect(trace.events.filter((e) => e.startsWith("0 "))).toEqual([
      "0 > MPI_Isend() @0",
      "0 < MPI_Isend() @0 0B",
      "0 > MPI_Wait() @0",
      "0 < MPI_Wait() @11 100B",
      "0 > MPI_Allreduce() @11",
      "0 < MPI_Allreduce() @21.08 8B",
    ]);
    expect(trace.events.filter((e) => e.startsWith("1 "))).toEqual([
      "1 > MPI_Recv() @0",
      "1 < MPI_Recv() @11 100B",
      "1 > MPI_Allreduce() @11",
      "1 < MPI_Allreduce() @21.08 8B",
    ]);
  });

  it("reports a collective of 0 bytes as a call entered and left at once", () => {
    const trace = new Trace();
    const w = world(2, hockney(10, 1e8), { observer: trace });
    w.launch(function* (c) {
      yield* c.bcast(0, 1);
      yield* c.allreduce(0);
    });
    w.run();
    expect(trace.events.filter((e) => e.startsWith("1 "))).toEqual(["1 > MPI_Bcast() @0", "1 < MPI_Bcast() @0 0B", "1 > MPI_Allreduce() @0", "1 < MPI_Allreduce() @0 0B"]);
  });

  it("accumulates MPI time per rank and call with MpiCallTotals", () => {
    const totals = new MpiCallTotals(4);
    const w = world(4, hockney(10, 1e9), { observer: totals });
    w.launch(function* (c) {
      yield w.sim.timeout(c.rank * 5); // rank 3 arrives last
      yield* c.barrier();
    });
    w.run();
    const t = totals.time.get("MPI_Barrier()")!;
    // Everyone leaves at 15 + 2 * 10; rank r entered at 5r.
    expect(Array.from(t)).toEqual([35, 30, 25, 20]);
    expect(Array.from(totals.calls.get("MPI_Barrier()")!)).toEqual([1, 1, 1, 1]);
    expect(totals.totalTime(0)).toBe(35);
  });

  it("feeds several observers at once with combineObservers", () => {
    const a = new MpiCallTotals(2);
    const b = new Trace();
    const w = world(2, hockney(10, 1e9), { observer: combineObservers(a, b) });
    w.launch(function* (c) {
      yield* c.barrier();
    });
    w.run();
    expect(Array.from(a.time.get("MPI_Barrier()")!)).toEqual([10, 10]);
    expect([...b.events].sort()).toEqual(["0 < MPI_Barrier() @10 0B", "0 > MPI_Barrier() @0", "1 < MPI_Barrier() @10 0B", "1 > MPI_Barrier() @0"]);
  });
});

describe("MPI observer: the program's messages", () => {
  /** An observer keeping every call's exit and every message, as text. */
  class Messages implements MpiObserver {
    readonly messages: string[] = [];
    readonly exits: string[] = [];
    readonly sent: string[] = [];
    enter(): void {}
    exit(rank: number, call: MpiCallName, now: number): void {
      this.exits.push(`${rank} ${call} @${now}`);
    }
    messageSent(source: number, dest: number, bytes: number, now: number): number {
      this.sent.push(`${source}->${dest} ${bytes}B sent @${now}`);
      return this.sent.length - 1;
    }
    messageReceived(token: number, dest: number, now: number): void {
      this.messages.push(`${this.sent[token]} received by ${dest} @${now}`);
    }
  }

  it("reports each message once when sent and once when its receive completes, eager and rendezvous, and none of a collective's", () => {
    for (const eagerLimit of [Infinity, 50]) {
      const obs = new Messages();
      // 100 bytes: eager, or above the limit a rendezvous (request, clear-to-send, data).
      const w = world(3, hockney(10, 1e8, eagerLimit), { observer: obs, collectives: { params: { reduceCostPerByte: 0 } } });
      w.launch(function* (c) {
        if (c.rank === 0) {
          yield w.sim.timeout(5);
          const a = yield* c.isend(1, 0, 100);
          yield w.sim.timeout(2);
          const b = yield* c.isend(2, 0, 8);
          yield* c.waitall([a, b]);
        } else if (c.rank === 1) yield* c.recv(0, 0);
        else {
          // Receives after the message is there: it completes when posted.
          yield w.sim.timeout(40);
          yield* c.recv(0, 0);
        }
        yield* c.allreduce(8);
      });
      w.run();
      const recvExit = (rank: number) => Number(obs.exits.find((e) => e.startsWith(`${rank} MPI_Recv()`))!.split("@")[1]);
      expect(recvExit(2)).toBe(40);
      expect(recvExit(1)).toBe(eagerLimit === Infinity ? 16 : 36);
      expect(obs.sent).toEqual(["0->1 100B sent @5", "0->2 8B sent @7"]);
      expect(obs.messages).toEqual([`0->1 100B sent @5 received by 1 @${recvExit(1)}`, `0->2 8B sent @7 received by 2 @40`]);
    }
  });

  it("reports each message received once, also when its slots are reused by a collective's own messages", () => {
    const obs = new Messages();
    const w = world(4, hockney(10, 1e8), { observer: obs, collectives: { params: { reduceCostPerByte: 0 } } });
    w.launch(function* (c) {
      for (let i = 0; i < 5; i++) {
        const r = c.irecv((c.rank + 3) % 4, i);
        const s = yield* c.isend((c.rank + 1) % 4, i, 64);
        yield* c.waitall([r, s]);
        yield* c.allreduce(8);
      }
    });
    w.run();
    expect(obs.sent).toHaveLength(20);
    expect(obs.messages).toHaveLength(20);
    expect(new Set(obs.messages).size).toBe(20);
    for (const m of obs.messages) expect(m).toMatch(/^(\d)->(\d) 64B sent @[\d.]+ received by \2 @/);
  });

  it("gives each of several observers its own numbers back", () => {
    const plain: MpiObserver = { enter() {}, exit() {} };
    expect(combineObservers(plain, plain).messageSent).toBeUndefined();
    const a = new Messages();
    const b = new Messages();
    b.sent.push("b's own first");
    const combined = combineObservers(a, plain, b);
    const t = combined.messageSent!(1, 2, 8, 3);
    combined.messageReceived!(t, 2, 4);
    expect(a.messages).toEqual(["1->2 8B sent @3 received by 2 @4"]);
    expect(b.messages).toEqual(["1->2 8B sent @3 received by 2 @4"]);
    expect(b.sent[1]).toBe("1->2 8B sent @3");
  });
});
