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
