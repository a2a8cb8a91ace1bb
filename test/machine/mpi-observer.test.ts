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
        const r = c.isend(1, 0, 100);
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
