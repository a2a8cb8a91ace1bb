import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ghostExchange, haloPlan, LogGPCost, pointToPointModels, REQUEST_NULL, type Comm, type MpiCallName, type MpiObserver, type NetworkSpec } from "../../machine/index.js";
import { hockney, world } from "./helpers.js";

/** LogGP whose sender overhead is 0: only the receiver's CPU takes o. */
class ReceiverOverheadOnly extends LogGPCost {
  override get fixedSendOverhead(): number {
    return 0;
  }
  override sendOverhead(): number {
    return 0;
  }
}

pointToPointModels.register({
  name: "receiver-overhead-only",
  summary: "LogGP with a sender overhead of 0",
  params: pointToPointModels.get("loggp").params,
  create: (v) => new ReceiverOverheadOnly(v.L, v.o, v.g, v.bandwidth),
});

/** Every call of every rank as `rank > call @t` / `rank < call @t`. */
class Calls implements MpiObserver {
  readonly events: string[] = [];
  enter(rank: number, call: MpiCallName, now: number): void {
    this.events.push(`${rank} > ${call} @${+now.toFixed(9)}`);
  }
  exit(rank: number, call: MpiCallName, now: number): void {
    this.events.push(`${rank} < ${call} @${+now.toFixed(9)}`);
  }
  of(rank: number): string[] {
    return this.events.filter((e) => e.startsWith(`${rank} `));
  }
}

/**
 * LogGP with o = 3 us on each side, L = 1 us, g = 1 us, 1 GB/s (G = 0.001 us per byte): a message
 * of 1001 bytes sent at 0 leaves at o + 1000 G = 4 us and arrives at 5 us.
 */
function loggp(eagerLimit = Infinity): NetworkSpec {
  return { model: "loggp", params: { L: 1, o: 3, g: 1, bandwidth: 1e9 }, eagerLimit };
}

describe("the receiver's overhead is CPU time of the receiving rank", () => {
  /** Rank 1's MPI calls when it posts MPI_Irecv at 0, computes `compute` us, then waits for rank 0's 1001 bytes. */
  function irecvComputeWait(compute: number): string[] {
    const calls = new Calls();
    const w = world(2, loggp(), { observer: calls });
    w.launch(function* (c) {
      if (c.rank === 0) yield* c.send(1, 0, 1001);
      else {
        const r = c.irecv(0, 0);
        yield w.sim.timeout(compute);
        yield* c.wait(r);
      }
    });
    w.run();
    return calls.of(1);
  }

  it("MPI_Wait after compute handles a message that arrived during the compute: 10 + o = 13 us", () => {
    expect(irecvComputeWait(10)).toEqual(["1 > MPI_Irecv() @0", "1 < MPI_Irecv() @0", "1 > MPI_Wait() @10", "1 < MPI_Wait() @13"]);
  });

  it("MPI_Wait entered before the message arrives returns at arrival + o = 8 us", () => {
    expect(irecvComputeWait(4).slice(2)).toEqual(["1 > MPI_Wait() @4", "1 < MPI_Wait() @8"]);
  });

  it("a blocking MPI_Recv returns at max(entry, arrival) + o: 8 us entered at 0, 13 us entered at 10", () => {
    for (const [enter, back] of [
      [0, 8],
      [10, 13],
    ]) {
      const calls = new Calls();
      const w = world(2, loggp(), { observer: calls });
      w.launch(function* (c) {
        if (c.rank === 0) yield* c.send(1, 0, 1001);
        else {
          if (enter > 0) yield w.sim.timeout(enter);
          yield* c.recv(0, 0);
        }
      });
      w.run();
      expect(calls.of(1)).toEqual([`1 > MPI_Recv() @${enter}`, `1 < MPI_Recv() @${back}`]);
    }
  });

  /** Ranks 0 and 1 send 1001 bytes each to rank 2, rank 1 after `late` us; rank 2 posts both receives, computes, then `finish`es. */
  function twoMessages(late: number, compute: number, finish: (c: Comm, reqs: number[]) => Generator<unknown, void, unknown>): string[] {
    const calls = new Calls();
    const w = world(3, loggp(), { observer: calls });
    w.launch(function* (c) {
      if (c.rank === 2) {
        const reqs = [c.irecv(0, 0), c.irecv(1, 0)];
        if (compute > 0) yield w.sim.timeout(compute);
        yield* finish(c, reqs) as Generator<never, void, unknown>;
      } else {
        if (c.rank === 1 && late > 0) yield w.sim.timeout(late);
        yield* c.send(2, 0, 1001);
      }
    });
    w.run();
    w.finalize();
    return calls.of(2).slice(4);
  }

  it("MPI_Waitall handles two messages one after another: both arrived at 5 and waited at 10, it returns at 16", () => {
    expect(twoMessages(0, 10, (c, r) => c.waitall(r))).toEqual(["2 > MPI_Waitall() @10", "2 < MPI_Waitall() @16"]);
  });

  it("MPI_Waitall entered before both arrive (at 5) returns at 5 + 2o = 11", () => {
    expect(twoMessages(0, 0, (c, r) => c.waitall(r))).toEqual(["2 > MPI_Waitall() @0", "2 < MPI_Waitall() @11"]);
  });

  it("MPI_Waitall handles messages in the order they arrive: at 5 (done at 8), then at 6 (done at 11)", () => {
    expect(twoMessages(1, 0, (c, r) => c.waitall(r))).toEqual(["2 > MPI_Waitall() @0", "2 < MPI_Waitall() @11"]);
  });

  it("MPI_Waitall with the second message arriving after the first is handled (at 9) takes 9 + o = 12", () => {
    expect(twoMessages(4, 0, (c, r) => c.waitall(r))).toEqual(["2 > MPI_Waitall() @0", "2 < MPI_Waitall() @12"]);
  });

  it("MPI_Waitany handles the one message it returns: 13 us, then 16 us for the other", () => {
    const got: number[] = [];
    const lines = twoMessages(0, 10, function* (c, r) {
      got.push(yield* c.waitany(r));
      got.push(yield* c.waitany(r));
    });
    expect(got).toEqual([0, 1]);
    expect(lines).toEqual(["2 > MPI_Waitany() @10", "2 < MPI_Waitany() @13", "2 > MPI_Waitany() @13", "2 < MPI_Waitany() @16"]);
  });

  it("MPI_Waitsome handles every message it returns: both at 10 + 2o = 16", () => {
    const got: number[][] = [];
    const lines = twoMessages(0, 10, function* (c, r) {
      got.push(yield* c.waitsome(r));
    });
    expect(got).toEqual([[0, 1]]);
    expect(lines).toEqual(["2 > MPI_Waitsome() @10", "2 < MPI_Waitsome() @16"]);
  });

  it("MPI_Test that completes a receive returns after o, at 13 us; one that finds nothing returns at once", () => {
    const polls: boolean[] = [];
    const lines = twoMessages(20, 10, function* (c, r) {
      polls.push(yield* c.test(r[1]));
      polls.push(yield* c.test(r[0]));
      yield* c.wait(r[1]);
    });
    expect(polls).toEqual([false, true]);
    // Rank 1's message leaves at 20 + o + 1000 G = 24 and arrives at 25.
    expect(lines).toEqual(["2 > MPI_Test() @10", "2 < MPI_Test() @10", "2 > MPI_Test() @10", "2 < MPI_Test() @13", "2 > MPI_Wait() @13", "2 < MPI_Wait() @28"]);
  });

  it("MPI_Sendrecv posts its send (o), then handles a message already there (o): 10 + 2o = 16", () => {
    const calls = new Calls();
    const w = world(2, loggp(), { observer: calls });
    w.launch(function* (c) {
      if (c.rank === 1) {
        const s = yield* c.isend(0, 0, 1001);
        yield* c.recv(0, 1);
        yield* c.wait(s);
      } else {
        yield w.sim.timeout(10);
        yield* c.sendrecv(1, 1, 1001, 1, 0);
      }
    });
    w.run();
    w.finalize();
    expect(calls.of(0)).toEqual(["0 > MPI_Sendrecv() @10", "0 < MPI_Sendrecv() @16"]);
  });

  it("a collective's step posts its send as CPU time, then handles the message: a late rank's 8-byte allreduce returns at 10 + 2o = 16", () => {
    const ends: number[] = [];
    for (const fastPaths of [true, false]) {
      const w = world(2, loggp(), { fastPaths, collectives: { params: { reduceCostPerByte: 0 } } });
      w.launch(function* (c) {
        if (c.rank === 1) yield w.sim.timeout(10);
        yield* c.allreduce(8);
        ends[2 * (fastPaths ? 1 : 0) + c.rank] = w.sim.now;
      });
      w.run();
    }
    // Rank 0's message (posted at 0) waits at rank 1 since 0 + o + 7 G + L = 4.007; rank 1 posts
    // its own at 10 (o, CPU until 13; it leaves at 13.007), then handles rank 0's: 13 + o = 16.
    // Rank 0 handles rank 1's at 14.007 + o.
    expect(ends.map((t) => +t.toFixed(9))).toEqual([17.007, 16, 17.007, 16]);
  });

  it("a scattered alltoall posts each send once the previous one's overhead is done, so its node's NIC serves a neighbour's earlier send first: 12 us on ranks 1 and 3", () => {
    // Ranks 0 and 1 on node 0, 2 and 3 on node 1; 1001 bytes, so a message keeps the NIC for
    // g + 1000 G = 2 us. Rank 0 sends to 3 (its NIC from 3 to 5), to 2, then to 1 on its node;
    // rank 1 to 0 on its node (Hockney, free), to 3 and to 2. Rank 1's send to 3 is ready at
    // 0 + o = 3, rank 0's send to 2 at 3 + o = 6: rank 1's takes the NIC from 5 to 7 and arrives
    // at 7, rank 0's from 7 to 9 (arrives at 9), rank 1's send to 2 from 9 to 11. Rank 1 waits at
    // 6: it handles rank 2's message (arrived at 5) until 9, then rank 3's (at 7) until 12.
    // Before, rank 0's sends queued at the NIC when the step began, ahead of rank 1's, which
    // arrived at 10 (handled until 13).
    const w = world(4, loggp(), { rankToNode: [0, 0, 1, 1], collectives: { algorithms: { alltoall: "scattered" } } });
    const ends: number[] = [];
    w.launch(function* (c) {
      yield* c.alltoall(1001);
      ends[c.rank] = w.sim.now;
    });
    w.run();
    w.finalize();
    expect(ends.map((t) => +t.toFixed(9))).toEqual([15, 12, 15, 12]);
  });

  it("changes nothing under Hockney, whose overheads are 0", () => {
    const calls = new Calls();
    const w = world(3, hockney(10, 1e8), { observer: calls });
    w.launch(function* (c) {
      if (c.rank === 2) {
        const reqs = [c.irecv(0, 0), c.irecv(1, 0)];
        yield w.sim.timeout(30);
        yield* c.waitall(reqs);
        const t = c.irecv(0, 1);
        yield w.sim.timeout(30);
        yield* c.test(t);
      } else {
        yield* c.send(2, 0, 100);
        if (c.rank === 0) yield* c.send(2, 1, 100);
      }
    });
    w.run();
    expect(calls.of(2).slice(4)).toEqual(["2 > MPI_Waitall() @30", "2 < MPI_Waitall() @30", "2 > MPI_Irecv() @30", "2 < MPI_Irecv() @30", "2 > MPI_Test() @60", "2 < MPI_Test() @60"]);
  });

  it("runs a ghost exchange by callbacks only where handling messages is free: a receiver-only overhead gives the observed (generator) times", () => {
    const end = (observed: boolean, net: NetworkSpec): number[] => {
      const w = world(4, net, { observer: observed ? new Calls() : undefined });
      const ends: number[] = [];
      w.launch(function* (c) {
        const plan = haloPlan({ ranks: [2, 2], patchCells: [64, 64], ghostWidth: 1, bytesPerCell: 8, periodic: true }, c.rank);
        yield w.sim.timeout(7 * c.rank);
        yield* ghostExchange(c, plan);
        ends[c.rank] = w.sim.now;
      });
      w.run();
      return ends;
    };
    // Posting is free under this model: only the receiver's overhead keeps the exchange from its callbacks.
    const recvOnly: NetworkSpec = { model: "receiver-overhead-only", params: { L: 1, o: 3, g: 1, bandwidth: 1e9 }, eagerLimit: Infinity };
    const fast = end(false, recvOnly);
    expect(fast).toEqual(end(true, recvOnly));
    // Each rank handles 8 messages, o each, after it started.
    for (const [r, t] of fast.entries()) expect(t).toBeGreaterThanOrEqual(7 * r + 8 * 3);
  });
});

describe("a collective's sends are posted as the program's own (fast-check)", () => {
  it("a scattered alltoall takes the times of MPI_Irecv from every peer, MPI_Isend to every peer and MPI_Waitall, block by block", () => {
    const arb = fc.integer({ min: 2, max: 7 }).chain((p) =>
      fc.record({
        p: fc.constant(p),
        rankToNode: fc.array(fc.integer({ min: 0, max: Math.max(0, Math.ceil(p / 2) - 1) }), { minLength: p, maxLength: p }),
        skew: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: p, maxLength: p }),
        bytes: fc.integer({ min: 1, max: 3000 }),
        throttle: fc.integer({ min: 1, max: 8 }),
        o: fc.constantFrom(0, 1.5, 3),
        intra: fc.constantFrom<NetworkSpec["intraNode"]>(undefined, { model: "loggp", params: { L: 0.5, o: 1, g: 0.25, bandwidth: 2e9 } }),
        eagerLimit: fc.constantFrom(Infinity, 1500),
      }),
    );
    const ends = (s: fc.Arbitrary<unknown> extends never ? never : { p: number; rankToNode: number[]; skew: number[]; bytes: number; throttle: number; o: number; intra: NetworkSpec["intraNode"]; eagerLimit: number }, collective: boolean): number[] => {
      const net: NetworkSpec = { model: "loggp", params: { L: 1, o: s.o, g: 1, bandwidth: 1e9 }, eagerLimit: s.eagerLimit, ...(s.intra === undefined ? {} : { intraNode: s.intra }) };
      const w = world(s.p, net, { rankToNode: s.rankToNode, collectives: { algorithms: { alltoall: "scattered" }, params: { alltoallThrottle: s.throttle } } });
      const out: number[] = [];
      w.launch(function* (c) {
        yield w.sim.timeout(s.skew[c.rank]);
        const p = c.size;
        if (collective) yield* c.alltoall(s.bytes);
        else {
          for (let start = 1; start < p; start += s.throttle) {
            const end = Math.min(p, start + s.throttle);
            const reqs: number[] = [];
            for (let i = start; i < end; i++) reqs.push(c.irecv((c.rank + i) % p, 6));
            for (let i = start; i < end; i++) reqs.push(yield* c.isend((c.rank - i + p) % p, 6, s.bytes));
            yield* c.waitall(reqs);
          }
        }
        out[c.rank] = w.sim.now;
      });
      w.run();
      w.finalize();
      return out;
    };
    fc.assert(
      fc.property(arb, (s) => {
        expect(ends(s, true)).toEqual(ends(s, false));
      }),
      { numRuns: 200, seed: 31 },
    );
  });
});

// ---------------------------------------------------------------- against a reference

/** One message of a round: from rank `from` to rank `to`. */
interface Message {
  from: number;
  to: number;
  bytes: number;
}

/** How a rank completes its requests of a round: one MPI_Waitall, one MPI_Wait each, or MPI_Waitall of the receives then of the sends. */
type Finish = "all" | "each" | "split";

interface Round {
  messages: Message[];
  /** Per rank: compute (us) after posting the receives, and after posting the sends. */
  before: number[];
  after: number[];
  finish: Finish[];
}

interface Program {
  ranks: number;
  start: number[];
  rounds: Round[];
  net: { model: "hockney" | "loggp"; o: number; L: number; g: number; bandwidth: number };
}

const programArb: fc.Arbitrary<Program> = fc.integer({ min: 2, max: 5 }).chain((p) => {
  const times = fc.array(fc.integer({ min: 0, max: 12 }), { minLength: p, maxLength: p });
  const message = fc.record({ from: fc.integer({ min: 0, max: p - 1 }), shift: fc.integer({ min: 1, max: p - 1 }), bytes: fc.integer({ min: 0, max: 6000 }) }).map((m) => ({ from: m.from, to: (m.from + m.shift) % p, bytes: m.bytes }));
  const round = fc.record({
    messages: fc.array(message, { minLength: 1, maxLength: 7 }),
    before: times,
    after: times,
    finish: fc.array(fc.constantFrom<Finish>("all", "each", "split"), { minLength: p, maxLength: p }),
  });
  return fc.record({
    ranks: fc.constant(p),
    start: times,
    rounds: fc.array(round, { minLength: 1, maxLength: 3 }),
    net: fc.record({
      model: fc.constantFrom<"hockney" | "loggp">("hockney", "loggp"),
      o: fc.constantFrom(0, 0.75, 3),
      L: fc.constantFrom(0.5, 2, 9),
      g: fc.constantFrom(0, 1, 4),
      bandwidth: fc.constantFrom(1e8, 1e9),
    }),
  });
});

function spec(n: Program["net"]): NetworkSpec {
  return n.model === "hockney" ? { model: "hockney", params: { alpha: n.L, bandwidth: n.bandwidth }, eagerLimit: Infinity } : { model: "loggp", params: { L: n.L, o: n.o, g: n.g, bandwidth: n.bandwidth }, eagerLimit: Infinity };
}

/** Per rank, the time each of its waits returned, in the simulator. */
function simulate(prog: Program): number[][] {
  const w = world(prog.ranks, spec(prog.net));
  const out: number[][] = Array.from({ length: prog.ranks }, () => []);
  w.launch(function* (c) {
    const me = c.rank;
    yield w.sim.timeout(prog.start[me]);
    for (const [k, round] of prog.rounds.entries()) {
      const recvs: number[] = [];
      const sends: number[] = [];
      for (const [i, m] of round.messages.entries()) if (m.to === me) recvs.push(c.irecv(m.from, 100 * k + i));
      yield w.sim.timeout(round.before[me]);
      for (const [i, m] of round.messages.entries()) if (m.from === me) sends.push(yield* c.isend(m.to, 100 * k + i, m.bytes));
      yield w.sim.timeout(round.after[me]);
      const finish = round.finish[me];
      if (finish === "all") {
        yield* c.waitall([...recvs, ...sends]);
        out[me].push(w.sim.now);
      } else if (finish === "each") {
        for (const r of [...recvs, ...sends]) {
          yield* c.wait(r);
          out[me].push(w.sim.now);
        }
      } else {
        yield* c.waitall(recvs);
        out[me].push(w.sim.now);
        yield* c.waitall(sends);
        out[me].push(w.sim.now);
      }
    }
  });
  w.run();
  w.finalize();
  return out;
}

/**
 * The same program worked out by hand, one rank per node, no background load, every message
 * eager: with `handled` the receiver's overhead is CPU time of the call that completes the receive
 * (the rule now), else it completes the receive request o after the message has arrived and
 * the receive was posted (the rule before).
 */
function reference(prog: Program, handled: boolean): number[][] {
  const { model, L, bandwidth } = prog.net;
  const hockneyModel = model === "hockney";
  const o = hockneyModel ? 0 : prog.net.o;
  const G = 1e6 / bandwidth;
  const wire = (n: number) => (hockneyModel ? n * G : n > 1 ? (n - 1) * G : 0);
  const gap = (n: number) => (hockneyModel ? n * G : prog.net.g + wire(n));
  const clock = prog.start.slice();
  const nicFree = new Array<number>(prog.ranks).fill(0);
  const lastArrival = new Map<string, number>();
  const out: number[][] = Array.from({ length: prog.ranks }, () => []);
  for (const round of prog.rounds) {
    const n = round.messages.length;
    const arrival = new Array<number>(n);
    const sendDone = new Array<number>(n);
    const ready = new Array<number>(n);
    const entry = new Array<number>(prog.ranks);
    for (let r = 0; r < prog.ranks; r++) {
      let t = clock[r] + round.before[r];
      for (const [i, m] of round.messages.entries()) {
        if (m.from !== r) continue;
        const start = Math.max(t + o, nicFree[r]);
        nicFree[r] = start + gap(m.bytes);
        const injected = start + wire(m.bytes);
        const key = `${m.from}>${m.to}`;
        arrival[i] = Math.max(injected + L, lastArrival.get(key) ?? 0);
        lastArrival.set(key, arrival[i]);
        sendDone[i] = hockneyModel ? arrival[i] : injected;
        t += o;
      }
      entry[r] = t + round.after[r];
    }
    // A receive is posted when its rank's round starts.
    for (const [i, m] of round.messages.entries()) ready[i] = Math.max(clock[m.to], arrival[i]);
    /** A wait entered at `at` for the receives `rs` and sends `ss` of this round: when it returns. */
    const wait = (at: number, rs: number[], ss: number[]): number => {
      let back = at;
      for (const i of ss) back = Math.max(back, sendDone[i]);
      if (!handled) {
        for (const i of rs) back = Math.max(back, ready[i] + o);
        return back;
      }
      let cpu = at;
      for (const i of rs.slice().sort((a, b) => ready[a] - ready[b])) cpu = Math.max(cpu, ready[i]) + o;
      return Math.max(back, cpu);
    };
    for (let r = 0; r < prog.ranks; r++) {
      const rs = round.messages.flatMap((m, i) => (m.to === r ? [i] : []));
      const ss = round.messages.flatMap((m, i) => (m.from === r ? [i] : []));
      let t = entry[r];
      const finish = round.finish[r];
      if (finish === "all") out[r].push((t = wait(t, rs, ss)));
      else if (finish === "each") {
        for (const i of rs) out[r].push((t = wait(t, [i], [])));
        for (const i of ss) out[r].push((t = wait(t, [], [i])));
      } else {
        out[r].push((t = wait(t, rs, [])));
        out[r].push((t = wait(t, [], ss)));
      }
      clock[r] = t;
    }
  }
  return out;
}

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
}

describe("MPI waits against LogGP worked out by hand (fast-check)", () => {
  it("give the new rule's times; under Hockney the old rule's, under LogGP never earlier than the old rule's", () => {
    fc.assert(
      fc.property(programArb, (prog) => {
        const sim = simulate(prog);
        const now = reference(prog, true);
        const before = reference(prog, false);
        for (let r = 0; r < prog.ranks; r++) {
          expect(sim[r].length).toBe(now[r].length);
          for (let k = 0; k < sim[r].length; k++) {
            if (!near(sim[r][k], now[r][k])) expect({ rank: r, wait: k, sim: sim[r][k] }).toEqual({ rank: r, wait: k, sim: now[r][k] });
            if (prog.net.model === "hockney" || prog.net.o === 0) expect(before[r][k]).toBe(now[r][k]);
            else expect(now[r][k]).toBeGreaterThanOrEqual(before[r][k]);
          }
        }
      }),
      { numRuns: 300, seed: 23 },
    );
  });
});

// ---------------------------------------------------------------- completing calls, by hand

/** What the receiving rank does after posting its receives. */
type Op = { op: "compute"; us: number } | { op: "waitany" } | { op: "waitsome" } | { op: "test"; i: number } | { op: "wait"; i: number };

describe("MPI_Waitany, MPI_Waitsome, MPI_Test and MPI_Wait against LogGP worked out by hand (fast-check)", () => {
  it("handle each message they return once it has arrived, o each, in list order, after the call's entry or the arrival that woke it", () => {
    const o = 3;
    const L = 1.25;
    const arb = fc.record({
      // Sender k (rank k + 1, its own node) sends 1 byte (no wire time) at sends[k] us.
      sends: fc.array(fc.integer({ min: 0, max: 400 }).map((t) => t / 7), { minLength: 1, maxLength: 6 }),
      ops: fc.array(
        fc.oneof(
          fc.integer({ min: 0, max: 30 }).map((us): Op => ({ op: "compute", us })),
          fc.constant<Op>({ op: "waitany" }),
          fc.constant<Op>({ op: "waitsome" }),
          fc.integer({ min: 0, max: 5 }).map((i): Op => ({ op: "test", i })),
          fc.integer({ min: 0, max: 5 }).map((i): Op => ({ op: "wait", i })),
        ),
        { maxLength: 10 },
      ),
    });
    /** Per call of the receiver: [returned at, what it returned]; the ops that would meet an arrival at the same time, null. */
    const reference = (sends: number[], ops: Op[]): [number, string][] | null => {
      const arrival = sends.map((t) => t + o + L);
      const active = sends.map(() => true);
      const out: [number, string][] = [];
      let t = 0;
      const tie = (x: number) => arrival.some((a, i) => active[i] && Math.abs(a - x) < 1e-9);
      const arrived = () => arrival.flatMap((a, i) => (active[i] && a < t ? [i] : []));
      for (const op of ops) {
        if (tie(t)) return null;
        if (op.op === "compute") {
          t += op.us;
          continue;
        }
        if (op.op === "test" || op.op === "wait") {
          if (op.i >= sends.length || !active[op.i]) continue;
          if (op.op === "test" && !(arrival[op.i] < t)) {
            out.push([t, "false"]);
            continue;
          }
          t = Math.max(t, arrival[op.i]) + o;
          active[op.i] = false;
          out.push([t, op.op === "test" ? "true" : "done"]);
          continue;
        }
        let done = arrived();
        if (done.length === 0) {
          const left = arrival.flatMap((a, i) => (active[i] ? [a] : []));
          if (left.length === 0) {
            out.push([t, op.op === "waitany" ? "-1" : ""]);
            continue;
          }
          t = Math.min(...left);
          done = arrival.flatMap((a, i) => (active[i] && a <= t ? [i] : []));
        }
        if (op.op === "waitany") done = done.slice(0, 1);
        for (const i of done) active[i] = false;
        t += o * done.length;
        out.push([t, done.join(",")]);
      }
      return tie(t) ? null : out;
    };
    const simulate = (sends: number[], ops: Op[]): [number, string][] => {
      const w = world(sends.length + 1, { model: "loggp", params: { L, o, g: 1, bandwidth: 1e9 }, eagerLimit: Infinity });
      const out: [number, string][] = [];
      w.launch(function* (c) {
        if (c.rank > 0) {
          yield w.sim.timeout(sends[c.rank - 1]);
          yield* c.send(0, 0, 1);
          return;
        }
        const reqs = sends.map((_, k) => c.irecv(k + 1, 0));
        for (const op of ops) {
          if (op.op === "compute") yield w.sim.timeout(op.us);
          else if (op.op === "waitany") {
            const i = yield* c.waitany(reqs);
            out.push([w.sim.now, String(i)]);
          } else if (op.op === "waitsome") {
            const done = yield* c.waitsome(reqs);
            out.push([w.sim.now, done.join(",")]);
          } else if (op.i < reqs.length && reqs[op.i] !== REQUEST_NULL) {
            if (op.op === "test") {
              const done = yield* c.test(reqs[op.i]);
              if (done) reqs[op.i] = REQUEST_NULL;
              out.push([w.sim.now, String(done)]);
            } else {
              yield* c.wait(reqs[op.i]);
              reqs[op.i] = REQUEST_NULL;
              out.push([w.sim.now, "done"]);
            }
          }
        }
        yield* c.waitall(reqs);
      });
      w.run();
      w.finalize();
      return out;
    };
    fc.assert(
      fc.property(arb, ({ sends, ops }) => {
        const want = reference(sends, ops);
        fc.pre(want !== null);
        const got = simulate(sends, ops);
        expect(got.map(([t, what]) => [+t.toFixed(9), what])).toEqual(want!.map(([t, what]) => [+t.toFixed(9), what]));
      }),
      { numRuns: 400, seed: 3 },
    );
  });
});
