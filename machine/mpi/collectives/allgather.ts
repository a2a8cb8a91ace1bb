import type { Comm, MpiCall } from "../comm.js";
import { TAG, isPow2, registerCollective } from "./algorithm.js";

function* swap(c: Comm, to: number, from: number, sb: number, rb: number): MpiCall {
  const r = c.collRecv(from, TAG.allgather, rb);
  const s = c.collSend(to, TAG.allgather, sb);
  const ev = c.collWait(r, s);
  if (ev !== null) yield ev;
  c.collRelease(r, s);
}

/**
 * Ring allgather (MPICH, long messages): p-1 steps, each passing one block of n bytes to the right.
 * Cost: (p-1) * (alpha + n*beta).
 */
export function* ringAllgather(c: Comm, bytes: number): MpiCall {
  const p = c.size;
  const left = (c.rank - 1 + p) % p;
  const right = (c.rank + 1) % p;
  for (let i = 1; i < p; i++) yield* swap(c, right, left, bytes, bytes);
}

/**
 * Recursive-doubling allgather (MPICH, power-of-two p, total < 512 KiB): lg p exchanges with
 * rank XOR 2^k of the 2^k blocks gathered so far. Cost: lg p * alpha + (p-1) * n*beta.
 */
export function* recursiveDoublingAllgather(c: Comm, bytes: number): MpiCall {
  const p = c.size;
  for (let mask = 1; mask < p; mask <<= 1) {
    const peer = c.rank ^ mask;
    yield* swap(c, peer, peer, mask * bytes, mask * bytes);
  }
}

/**
 * Bruck allgather (MPICH, short messages, any p): in round k send the 2^k blocks held to rank - 2^k
 * and receive as many from rank + 2^k (the last round sends only the p - 2^k missing blocks).
 * Cost: ceil(lg p) * alpha + (p-1) * n*beta.
 */
export function* bruckAllgather(c: Comm, bytes: number): MpiCall {
  const p = c.size;
  for (let k = 1; k < p; k <<= 1) {
    const blocks = Math.min(k, p - k);
    yield* swap(c, (c.rank - k + p) % p, (c.rank + k) % p, blocks * bytes, blocks * bytes);
  }
}

registerCollective({
  name: "ring",
  collective: "allgather",
  summary: "p-1 steps around a ring (MPICH: total >= 80 KiB and not recursive doubling)",
  cost: "(p-1) * (alpha + n*beta)",
  params: [],
  run: (c, bytes) => ringAllgather(c, bytes),
});

registerCollective({
  name: "recursive_doubling",
  collective: "allgather",
  summary: "lg p exchanges with rank XOR 2^k (MPICH: power-of-two p and total < 512 KiB)",
  cost: "lg p * alpha + (p-1) * n*beta",
  params: [],
  supports: isPow2,
  requires: "a power-of-two number of ranks",
  run: (c, bytes) => recursiveDoublingAllgather(c, bytes),
});

registerCollective({
  name: "bruck",
  collective: "allgather",
  summary: "Bruck's algorithm for any p (MPICH: total < 80 KiB, non-power-of-two p)",
  cost: "ceil(lg p) * alpha + (p-1) * n*beta",
  params: [],
  run: (c, bytes) => bruckAllgather(c, bytes),
});
