/**
 * The rule MPI sets for collectives: every member of a communicator makes the same collective
 * calls in the same order, each with the same size (bytes per rank) and, for a rooted one, the
 * same root. A rank that breaks it would otherwise run another algorithm than its peers (the
 * choice depends on the size), or wait in a collective the others never enter, and end in a
 * deadlock report that names neither call; or, when both sizes pick the same algorithm, go on
 * with a time that holds for no real run.
 *
 * @packageDocumentation
 */
import { MpiUsageError } from "./errors.js";

/** What the first member to make one of a communicator's collectives gave it. */
interface FirstCall {
  readonly call: string;
  readonly bytes: number;
  /** Root (rank in the communicator), or -1 for a collective without one. */
  readonly root: number;
  /** The member's rank in MPI_COMM_WORLD. */
  readonly worldRank: number;
  /** Members yet to make it. */
  left: number;
}

/** The collectives a communicator's members have made, checked call by call against the first member's. */
export class CollectiveOrder {
  /** Collectives each member (group rank) has made. */
  private readonly made: Float64Array;
  /**
   * The collectives some members have made and others not yet: `open[i]` is collective
   * `closed + i` (0-based). Why an array from the oldest open one: a member makes its collectives
   * in order, so they close in order and those open are consecutive; each member's call then
   * costs one indexed load, where a map keyed by index would hash it (every member's collective
   * calls pass here, in the allreduce loops of large runs).
   */
  private readonly open: FirstCall[] = [];
  /** Collectives every member has made. */
  private closed = 0;

  /**
   * @param size - members of the communicator
   * @param comm - the communicator's name, for the messages
   */
  constructor(
    private readonly size: number,
    private readonly comm: string,
  ) {
    this.made = new Float64Array(size);
  }

  /**
   * Records that the member of rank `rank` in the communicator (`worldRank` in MPI_COMM_WORLD,
   * which the messages name, as every MPI error does) makes `call` with `bytes` per rank and root
   * `root` (-1 when the call has none).
   * @throws MpiUsageError when another member made this collective (the same index in its
   *   order) as another call, with another size or another root
   */
  enter(rank: number, worldRank: number, call: string, bytes: number, root: number): void {
    if (this.size === 1) return;
    const k = this.made[rank]++;
    const first = this.open[k - this.closed];
    if (first === undefined) {
      this.open.push({ call, bytes, root, worldRank, left: this.size - 1 });
      return;
    }
    if (first.call !== call || first.bytes !== bytes || first.root !== root) {
      throw new MpiUsageError(
        worldRank,
        call,
        `collective call ${k + 1} on ${this.comm} is ${describe(call, bytes, root)} here, but rank ${first.worldRank} made it ${describe(first.call, first.bytes, first.root)}: every rank of a communicator makes the same collectives in the same order, with the same size and root`,
      );
    }
    // The last member to make it: it is the oldest open one (the others made it first).
    if (--first.left === 0) {
      this.open.shift();
      this.closed++;
    }
  }
}

/** `MPI_Bcast() of 8 bytes from root 0`, `MPI_Reduce() of 8 bytes to root 1`, `MPI_Barrier()`. */
function describe(call: string, bytes: number, root: number): string {
  const size = call === "MPI_Barrier()" ? "" : ` of ${bytes} bytes${call === "MPI_Allgather()" || call === "MPI_Alltoall()" ? " per rank" : ""}`;
  return `${call}${size}${root < 0 ? "" : call === "MPI_Reduce()" ? ` to root ${root}` : ` from root ${root}`}`;
}
