import type { Comm, MpiCall } from "../comm.js";
import { TAG, isPow2, registerCollective } from "./algorithm.js";

/**
 * Binomial-tree broadcast (MPICH's short-message MPI_Bcast): a rank receives from its parent
 * (relative rank minus its lowest set bit), then sends to its children, largest subtree first,
 * with blocking sends. Cost: ceil(lg p) * (alpha + n*beta).
 */
export function* binomialBcast(c: Comm, bytes: number, root: number): MpiCall {
  const p = c.size;
  const rel = (c.rank - root + p) % p;
  let mask = 1;
  while (mask < p) {
    if (rel & mask) {
      const r = c.collRecv((c.rank - mask + p) % p, TAG.bcast, bytes);
      const ev = c.collWait(r, -1);
      if (ev !== null) yield ev;
      c.collRelease(r, -1);
      break;
    }
    mask <<= 1;
  }
  mask >>= 1;
  while (mask > 0) {
    if (rel + mask < p) {
      const s = c.collSend((c.rank + mask) % p, TAG.bcast, bytes);
      const ev = c.collWait(s, -1);
      if (ev !== null) yield ev;
      c.collRelease(s, -1);
    }
    mask >>= 1;
  }
}

/** Size of block i when n bytes are cut into blocks of `scatter` bytes. */
function block(n: number, scatter: number, i: number): number {
  const b = n - i * scatter;
  return b <= 0 ? 0 : b < scatter ? b : scatter;
}

/**
 * Binomial scatter of the broadcast buffer (MPICH's scatter_for_bcast): block i of ceil(n/p)
 * bytes ends on relative rank i; a rank whose blocks are empty (i * ceil(n/p) >= n) neither
 * receives nor sends. Returns the bytes this rank holds afterwards.
 */
function* scatterForBcast(c: Comm, n: number, root: number, scatter: number): MpiCall<number> {
  const p = c.size;
  const rel = (c.rank - root + p) % p;
  let cur = rel === 0 ? n : 0;
  let mask = 1;
  while (mask < p) {
    if (rel & mask) {
      // Blocks from this rank's on hold no byte when ceil(n/p) divides n unevenly (n = 24,
      // p = 7: relative rank 6): its parent sends nothing, so no receive is posted (MPICH).
      if (n - rel * scatter > 0) {
        const r = c.collRecv((c.rank - mask + p) % p, TAG.bcast, n);
        const ev = c.collWait(r, -1);
        if (ev !== null) yield ev;
        cur = c.collReceived(r);
        c.collRelease(r, -1);
      }
      break;
    }
    mask <<= 1;
  }
  mask >>= 1;
  while (mask > 0) {
    if (rel + mask < p) {
      const send = cur - scatter * mask;
      if (send > 0) {
        const s = c.collSend((c.rank + mask) % p, TAG.bcast, send);
        const ev = c.collWait(s, -1);
        if (ev !== null) yield ev;
        c.collRelease(s, -1);
        cur -= send;
      }
    }
    mask >>= 1;
  }
  return cur;
}

/**
 * Van de Geijn broadcast for long messages: binomial scatter, then a ring allgather (MPICH's
 * long-message MPI_Bcast). Cost: (lg p + p - 1) * alpha + 2 * ((p-1)/p) * n * beta.
 */
export function* scatterRingAllgatherBcast(c: Comm, bytes: number, root: number): MpiCall {
  const p = c.size;
  if (p === 1) return;
  const scatter = Math.ceil(bytes / p);
  yield* scatterForBcast(c, bytes, root, scatter);
  const rel = (c.rank - root + p) % p;
  const left = (c.rank - 1 + p) % p;
  const right = (c.rank + 1) % p;
  let j = rel;
  let jnext = (rel - 1 + p) % p;
  for (let i = 1; i < p; i++) {
    const r = c.collRecv(left, TAG.bcast, block(bytes, scatter, jnext));
    const s = c.collSend(right, TAG.bcast, block(bytes, scatter, j));
    const ev = c.collWait(r, s);
    if (ev !== null) yield ev;
    c.collRelease(r, s);
    j = jnext;
    jnext = (jnext - 1 + p) % p;
  }
}

/**
 * Broadcast for medium messages on a power-of-two communicator: binomial scatter, then a
 * recursive-doubling allgather (MPICH). Cost: 2 lg p * alpha + 2 * ((p-1)/p) * n * beta.
 */
export function* scatterRecursiveDoublingBcast(c: Comm, bytes: number, root: number): MpiCall {
  const p = c.size;
  if (p === 1) return;
  const scatter = Math.ceil(bytes / p);
  yield* scatterForBcast(c, bytes, root, scatter);
  const rel = (c.rank - root + p) % p;
  for (let mask = 1; mask < p; mask <<= 1) {
    const partner = rel ^ mask;
    const mine = rel & ~(mask - 1);
    const theirs = partner & ~(mask - 1);
    let sb = 0;
    let rb = 0;
    for (let i = 0; i < mask; i++) {
      sb += block(bytes, scatter, mine + i);
      rb += block(bytes, scatter, theirs + i);
    }
    const peer = (partner + root) % p;
    const r = c.collRecv(peer, TAG.bcast, rb);
    const s = c.collSend(peer, TAG.bcast, sb);
    const ev = c.collWait(r, s);
    if (ev !== null) yield ev;
    c.collRelease(r, s);
  }
}

registerCollective({
  name: "binomial",
  collective: "bcast",
  summary: "binomial tree (MPICH: n < 12288 bytes or p < 8)",
  cost: "ceil(lg p) * (alpha + n*beta)",
  params: [],
  run: binomialBcast,
});

registerCollective({
  name: "scatter_ring_allgather",
  collective: "bcast",
  summary: "van de Geijn: binomial scatter + ring allgather (MPICH: long messages or non-power-of-two p)",
  cost: "(lg p + p - 1) * alpha + 2 (p-1)/p * n*beta",
  params: [],
  run: scatterRingAllgatherBcast,
});

registerCollective({
  name: "scatter_recursive_doubling_allgather",
  collective: "bcast",
  summary: "binomial scatter + recursive-doubling allgather (MPICH: medium messages, power-of-two p)",
  cost: "2 lg p * alpha + 2 (p-1)/p * n*beta",
  params: [],
  supports: isPow2,
  requires: "a power-of-two number of ranks",
  run: scatterRecursiveDoublingBcast,
});
