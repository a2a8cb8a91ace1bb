import type { MpiCallName } from "./constants.js";

/**
 * Hooks through which a measurement layer times every MPI call of every rank, TAU style. `enter`
 * is called when a rank enters a call and `exit` when the call returns to the rank, both with the
 * simulated time in microseconds. A collective reports once, as the collective (`MPI_Allreduce()`),
 * never as the point-to-point messages it is built from. Calls of one rank nest properly (they
 * never interleave), so the observer can keep a per-rank stack and attribute the time to the
 * component invocation active on that rank.
 */
export interface MpiObserver {
  /** Rank `rank` enters `call` at `now` (us). */
  enter(rank: number, call: MpiCallName, now: number): void;
  /**
   * Rank `rank` leaves `call` at `now` (us). `bytes` is the payload the call completed for this
   * rank: for MPI_Send/MPI_Recv/MPI_Sendrecv the bytes sent plus received; for waits and MPI_Test the
   * sizes of the requests they completed; 0 for MPI_Isend/MPI_Irecv (their wait reports them); the
   * message size argument for collectives.
   */
  exit(rank: number, call: MpiCallName, now: number, bytes: number): void;
  /**
   * World rank `source` posts a message of the program (not one of those a collective is built
   * from) of `bytes` to world rank `dest`, at `now` (us), inside its sending call. Returns a
   * number >= 0 the world gives back to {@link messageReceived} for this message (a flow's index, say).
   * Optional, with `messageReceived`: a world whose observer lacks either keeps nothing per message.
   */
  messageSent?(source: number, dest: number, bytes: number, now: number): number;
  /**
   * The receive of the message `token` ({@link messageSent}'s number) completes on world rank
   * `dest` at `now` (us), when the message has arrived and matched it: inside the call that
   * waits for it, or whatever the rank is doing then (the call that completes the receive for
   * the program handles the message after, the receiver's overhead).
   */
  messageReceived?(token: number, dest: number, now: number): void;
}

/**
 * A ready-made observer that sums time and counts calls per rank and call name; useful in tests
 * and for quick "MPI time per rank" figures.
 */
export class MpiCallTotals implements MpiObserver {
  /** `totals.get(call)[rank]`: inclusive microseconds. */
  readonly time = new Map<MpiCallName, Float64Array>();
  /** `calls.get(call)[rank]`: number of calls. */
  readonly calls = new Map<MpiCallName, Float64Array>();
  /** Bytes per call name and rank. */
  readonly bytes = new Map<MpiCallName, Float64Array>();
  private readonly started: Float64Array;
  private readonly depth: Int32Array;

  /** @param ranks - number of ranks observed */
  constructor(readonly ranks: number) {
    this.started = new Float64Array(ranks);
    this.depth = new Int32Array(ranks);
  }

  enter(rank: number, _call: MpiCallName, now: number): void {
    if (this.depth[rank]++ === 0) this.started[rank] = now;
  }

  exit(rank: number, call: MpiCallName, now: number, bytes: number): void {
    this.depth[rank]--;
    this.row(this.time, call)[rank] += now - this.started[rank];
    this.row(this.calls, call)[rank]++;
    this.row(this.bytes, call)[rank] += bytes;
  }

  private row(m: Map<MpiCallName, Float64Array>, call: MpiCallName): Float64Array {
    let a = m.get(call);
    if (a === undefined) m.set(call, (a = new Float64Array(this.ranks)));
    return a;
  }

  /** Total MPI time of `rank` over all calls (us). */
  totalTime(rank: number): number {
    let t = 0;
    for (const a of this.time.values()) t += a[rank];
    return t;
  }
}

/** One observer that forwards every call to each of `observers` in order (a profiler and a record keeper, say). */
export function combineObservers(...observers: MpiObserver[]): MpiObserver {
  return {
    enter(rank, call, now) {
      for (const o of observers) o.enter(rank, call, now);
    },
    exit(rank, call, now, bytes) {
      for (const o of observers) o.exit(rank, call, now, bytes);
    },
    // Each observer's own number for each message in flight, by the number the combination gives it.
    ...(observers.some((o) => o.messageSent !== undefined && o.messageReceived !== undefined) && messageHooks(observers)),
  };
}

/** {@link MpiObserver.messageSent} and `messageReceived` of several observers: each gets its own numbers back. */
function messageHooks(observers: readonly MpiObserver[]): Pick<MpiObserver, "messageSent" | "messageReceived"> {
  // The messages in flight only: each is forgotten when its receive completes.
  const tokens = new Map<number, number[]>();
  let next = 0;
  return {
    messageSent(source, dest, bytes, now) {
      tokens.set(next, observers.map((o) => (o.messageSent !== undefined && o.messageReceived !== undefined ? o.messageSent(source, dest, bytes, now) : -1)));
      return next++;
    },
    messageReceived(token, dest, now) {
      const own = tokens.get(token)!;
      tokens.delete(token);
      observers.forEach((o, i) => {
        if (o.messageSent !== undefined && o.messageReceived !== undefined) o.messageReceived(own[i]!, dest, now);
      });
    },
  };
}
