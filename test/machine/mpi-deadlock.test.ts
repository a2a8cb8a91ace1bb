import { describe, expect, it } from "vitest";
import { DeadlockError } from "../../engine/index.js";
import { MpiDeadlockError, MpiUnreceivedMessagesError } from "../../machine/index.js";
import { hockney, world } from "./helpers.js";

describe("MPI deadlock and leftover detection", () => {
  it("names each blocked rank, its call and the peer and tag it waits for", () => {
    const w = world(3, hockney(10, 1e8));
    w.launch(function* (c) {
      if (c.rank === 0) yield* c.recv(1, 4);
      else if (c.rank === 1) yield* c.recv(2, 5);
      else yield* c.allreduce(8);
    });
    let err: unknown;
    try {
      w.run();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MpiDeadlockError);
    expect(err).toBeInstanceOf(DeadlockError);
    const d = err as MpiDeadlockError;
    expect(d.ranks.map((r) => [r.rank, r.call, r.waitsFor[0].kind, r.waitsFor[0].peer, r.waitsFor[0].tag])).toEqual([
      [0, "MPI_Recv()", "recv", 1, 4],
      [1, "MPI_Recv()", "recv", 2, 5],
      [2, "MPI_Allreduce()", "recv", 1, 4],
    ]);
    expect(d.message).toContain("rank 0 in MPI_Recv() waits for receive from rank 1 with tag 4 on MPI_COMM_WORLD");
    expect(d.message).toContain("rank 2 in MPI_Allreduce() waits for receive from rank 1 with tag 4 on MPI_COMM_WORLD (collective)");
    expect(d.blocked.map((b) => b.name).sort()).toEqual(["rank 0", "rank 1", "rank 2"]);
  });

  it("describes blocked ranks in a plain kernel DeadlockError too", () => {
    const w = world(2, hockney(10, 1e8, 10));
    w.launch(function* (c) {
      if (c.rank === 0) yield* c.send(1, 3, 1000);
    });
    expect(() => w.sim.run()).toThrow(/rank 0 waits on MPI_Send\(\) on rank 0, waiting for send of 1000 bytes to rank 1 with tag 3 .*rendezvous: waiting for the receiver/);
  });

  it("reports messages never received and receives never matched at finalisation", () => {
    const w = world(3, hockney(10, 1e8));
    w.launch(function* (c) {
      if (c.rank === 0) {
        yield* c.send(1, 7, 64);
        c.irecv(2, 1);
      }
    });
    w.run();
    let err: unknown;
    try {
      w.finalize();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MpiUnreceivedMessagesError);
    const f = err as MpiUnreceivedMessagesError;
    expect(f.unreceived).toEqual([{ source: 0, dest: 1, tag: 7, comm: "MPI_COMM_WORLD", bytes: 64, state: "unexpected, no matching receive", site: -1 }]);
    expect(f.unmatched).toEqual([{ rank: 0, source: 2, tag: 1, comm: "MPI_COMM_WORLD" }]);
    expect(f.message).toContain("rank 0 -> rank 1 tag 7");
    // The simulated program failed, not its input: the command exits 1 and prints no --verbose hint.
    expect([(f as { isInputError?: boolean }).isInputError, f.isSimulatedFailure]).toEqual([undefined, true]);
  });
});
