import { Registry, type Registrable } from "../../../engine/index.js";
import type { Comm, MpiCall } from "../comm.js";

/** The collectives built from point-to-point messages. */
export type CollectiveName = "barrier" | "bcast" | "reduce" | "allreduce" | "allgather" | "alltoall";

/** Every collective name. */
export const COLLECTIVES: readonly CollectiveName[] = ["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall"];

/**
 * A collective algorithm: a generator run by every rank of the communicator with the same
 * arguments, built from collective-internal point-to-point messages (which never match user
 * messages and are not reported to the observer individually).
 */
export interface CollectiveAlgorithm extends Registrable {
  /** Which collective it implements. */
  readonly collective: CollectiveName;
  /** The textbook cost on p ranks in the Hockney model (alpha, beta per byte, gamma per byte), for documentation and tests. */
  readonly cost: string;
  /** Whether it can run on `p` ranks (default: any p). */
  supports?(p: number): boolean;
  /** What {@link supports} asks of the rank count, for error messages ("a power-of-two number of ranks"). */
  readonly requires?: string;
  /**
   * Runs the algorithm for the calling rank.
   * @param comm - the calling rank's communicator
   * @param bytes - message size argument (per rank; see each collective)
   * @param root - root rank (bcast, reduce)
   */
  run(comm: Comm, bytes: number, root: number): MpiCall;
}

/** One registry of algorithms per collective; register your own to extend. */
export const collectiveAlgorithms: Readonly<Record<CollectiveName, Registry<CollectiveAlgorithm>>> = {
  barrier: new Registry<CollectiveAlgorithm>("barrier algorithm"),
  bcast: new Registry<CollectiveAlgorithm>("bcast algorithm"),
  reduce: new Registry<CollectiveAlgorithm>("reduce algorithm"),
  allreduce: new Registry<CollectiveAlgorithm>("allreduce algorithm"),
  allgather: new Registry<CollectiveAlgorithm>("allgather algorithm"),
  alltoall: new Registry<CollectiveAlgorithm>("alltoall algorithm"),
};

/** Registers an algorithm in its collective's registry. */
export function registerCollective(a: CollectiveAlgorithm): CollectiveAlgorithm {
  return collectiveAlgorithms[a.collective].register(a);
}

/** Largest power of two <= p. */
export function pof2(p: number): number {
  let m = 1;
  while (m * 2 <= p) m *= 2;
  return m;
}

/** True when p is a power of two. */
export function isPow2(p: number): boolean {
  return p > 0 && (p & (p - 1)) === 0;
}

/** Tags of collective-internal messages (as MPICH's MPIR_*_TAG; they live in the collective context). */
export const TAG = { barrier: 1, bcast: 2, reduce: 3, allreduce: 4, allgather: 5, alltoall: 6 } as const;

/**
 * Splits `bytes` into `k` chunks of whole elements as MPICH does: chunks 0..k-2 hold
 * floor(count/k) elements, the last one the rest (count = floor(bytes/elementBytes); bytes that do
 * not fill an element go to the last chunk).
 */
export class Chunks {
  readonly base: number;
  readonly last: number;
  constructor(readonly bytes: number, readonly k: number, elementBytes: number) {
    const count = Math.floor(bytes / elementBytes);
    this.base = Math.floor(count / k) * elementBytes;
    this.last = bytes - this.base * (k - 1);
  }
  /** Bytes of chunks [a, b). */
  range(a: number, b: number): number {
    if (b <= a) return 0;
    return b === this.k ? (b - a - 1) * this.base + this.last : (b - a) * this.base;
  }
  /** Bytes of chunk i. */
  size(i: number): number {
    return i === this.k - 1 ? this.last : this.base;
  }
}

/** Where a recursive-halving reduce-scatter left a rank: its chunk window, for the phase after it. */
export interface HalvingState {
  sendIdx: number;
  recvIdx: number;
  lastIdx: number;
  /** Bytes to send and to receive in the current step of {@link undoHalvingStep}. */
  sendBytes: number;
  recvBytes: number;
}

/**
 * The reduce-scatter by recursive halving shared by Rabenseifner's allreduce and reduce: among
 * `m = 2^k` surviving ranks (numbered `newrank`), each step exchanges half of the current chunk
 * window with the partner `newrank ^ mask` and reduces what it receives. `peerOf` maps a survivor
 * number back to its rank in `c`.
 * @returns the chunk window the following gather or allgather phase starts from
 */
export function* reduceScatterHalving(
  c: Comm,
  ch: Chunks,
  newrank: number,
  m: number,
  peerOf: (survivor: number) => number,
  tag: number,
): MpiCall<HalvingState> {
  let sendIdx = 0;
  let recvIdx = 0;
  let lastIdx = m;
  let mask = 1;
  while (mask < m) {
    const newdst = newrank ^ mask;
    const half = m / (mask * 2);
    let sb: number;
    let rb: number;
    if (newrank < newdst) {
      sendIdx = recvIdx + half;
      sb = ch.range(sendIdx, lastIdx);
      rb = ch.range(recvIdx, sendIdx);
    } else {
      recvIdx = sendIdx + half;
      sb = ch.range(sendIdx, recvIdx);
      rb = ch.range(recvIdx, lastIdx);
    }
    const peer = peerOf(newdst);
    const r = c.collRecv(peer, tag, rb);
    const s = c.collSend(peer, tag, sb);
    const ev = c.collWait(r, s, rb);
    if (ev !== null) yield ev;
    c.collRelease(r, s);
    sendIdx = recvIdx;
    mask <<= 1;
    if (mask < m) lastIdx = recvIdx + m / mask;
  }
  return { sendIdx, recvIdx, lastIdx, sendBytes: 0, recvBytes: 0 };
}

/**
 * One step of undoing the halving (masks m/2, m/4, ... 1), shared by the allgather of
 * Rabenseifner's allreduce and the gather of its reduce: sets `sendBytes`/`recvBytes` for the
 * exchange with `newrank ^ mask` and moves the window on for the next step.
 */
export function undoHalvingStep(st: HalvingState, ch: Chunks, newrank: number, mask: number, m: number): void {
  const newdst = newrank ^ mask;
  const half = m / (mask * 2);
  if (newrank < newdst) {
    if (mask !== m / 2) st.lastIdx += half;
    st.recvIdx = st.sendIdx + half;
    st.sendBytes = ch.range(st.sendIdx, st.recvIdx);
    st.recvBytes = ch.range(st.recvIdx, st.lastIdx);
  } else {
    st.recvIdx = st.sendIdx - half;
    st.sendBytes = ch.range(st.sendIdx, st.lastIdx);
    st.recvBytes = ch.range(st.recvIdx, st.sendIdx);
    st.sendIdx = st.recvIdx;
  }
}
