import type { Comm, MpiCall } from "../comm.js";
import { TAG, isPow2, registerCollective } from "./algorithm.js";

/**
 * Bruck alltoall (MPICH, n <= 256 bytes and p >= 8): ceil(lg p) rounds; in round k each rank sends
 * to rank + 2^k the blocks whose index has bit k set (a rotation makes the index relative).
 * Cost: ceil(lg p) * (alpha + (p/2) * n*beta) (local rotations are not charged).
 */
export function* bruckAlltoall(c: Comm, bytes: number): MpiCall {
  const p = c.size;
  for (let k = 1; k < p; k <<= 1) {
    // Blocks i in [0, p) with bit k set.
    let count = 0;
    for (let i = 0; i < p; i++) if (i & k) count++;
    const r = c.collRecv((c.rank - k + p) % p, TAG.alltoall, count * bytes);
    const s = c.collSend((c.rank + k) % p, TAG.alltoall, count * bytes);
    const ev = c.collWait(r, s);
    if (ev !== null) yield ev;
    c.collRelease(r, s);
  }
}

/**
 * Scattered alltoall (MPICH, medium messages): post receives and sends to everyone, at most
 * `alltoallThrottle` pairs at a time, then wait for them all. The sends of a rank contend for
 * its NIC, so the cost is about alpha + (p-1) * n*beta. Self-copies are not charged. Each send is
 * posted once the CPU is done with the previous one's overhead, as MPI_Isend posts them, so it
 * joins its NIC's queue when it is ready, behind what other ranks of the node posted meanwhile.
 */
export function* scatteredAlltoall(c: Comm, bytes: number): MpiCall {
  const p = c.size;
  const block = Math.max(1, c.world.collectives.alltoallThrottle);
  const slots = new Int32Array(2 * Math.min(block, p));
  for (let start = 1; start < p; start += block) {
    const end = Math.min(p, start + block);
    let n = 0;
    for (let i = start; i < end; i++) slots[n++] = c.collRecv((c.rank + i) % p, TAG.alltoall, bytes);
    for (let i = start; i < end; i++) {
      slots[n++] = c.collSend((c.rank - i + p) % p, TAG.alltoall, bytes);
      const posted = c.collPosted();
      if (posted !== null) yield posted;
    }
    const ev = c.collWaitAll(slots, n);
    if (ev !== null) yield ev;
    for (let i = 0; i < n; i++) c.collRelease(slots[i], -1);
  }
}

/**
 * Pairwise-exchange alltoall (MPICH, long messages): p-1 steps; in step i exchange with rank XOR i
 * (power-of-two p) or send to rank + i and receive from rank - i. Cost: (p-1) * (alpha + n*beta).
 */
export function* pairwiseAlltoall(c: Comm, bytes: number): MpiCall {
  const p = c.size;
  const pow2 = isPow2(p);
  for (let i = 1; i < p; i++) {
    const to = pow2 ? c.rank ^ i : (c.rank + i) % p;
    const from = pow2 ? c.rank ^ i : (c.rank - i + p) % p;
    const r = c.collRecv(from, TAG.alltoall, bytes);
    const s = c.collSend(to, TAG.alltoall, bytes);
    const ev = c.collWait(r, s);
    if (ev !== null) yield ev;
    c.collRelease(r, s);
  }
}

registerCollective({
  name: "bruck",
  collective: "alltoall",
  summary: "Bruck's log-round algorithm (MPICH: n <= 256 bytes and p >= 8)",
  cost: "ceil(lg p) * (alpha + (p/2) n*beta)",
  params: [],
  run: (c, bytes) => bruckAlltoall(c, bytes),
});

registerCollective({
  name: "scattered",
  collective: "alltoall",
  summary: "all irecvs and isends posted at once, throttled (MPICH: n <= 32768 bytes)",
  cost: "about alpha + (p-1) n*beta (NIC-serialised)",
  params: [],
  run: (c, bytes) => scatteredAlltoall(c, bytes),
});

registerCollective({
  name: "pairwise",
  collective: "alltoall",
  summary: "p-1 pairwise exchanges (MPICH: n > 32768 bytes)",
  cost: "(p-1) * (alpha + n*beta)",
  params: [],
  run: (c, bytes) => pairwiseAlltoall(c, bytes),
});
