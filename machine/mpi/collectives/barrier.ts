import type { Comm, MpiCall } from "../comm.js";
import { TAG, registerCollective } from "./algorithm.js";

/**
 * Dissemination barrier (Hensgen, Finkel and Manber 1988; MPICH's MPI_Barrier): in round k each
 * rank sends a zero-byte message to rank + 2^k and receives from rank - 2^k (mod p).
 * Cost: ceil(lg p) * alpha.
 */
export function* disseminationBarrier(c: Comm): MpiCall {
  const p = c.size;
  const me = c.rank;
  for (let mask = 1; mask < p; mask <<= 1) {
    const r = c.collRecv((me - mask + p) % p, TAG.barrier, 0);
    const s = c.collSend((me + mask) % p, TAG.barrier, 0);
    const ev = c.collWait(r, s);
    if (ev !== null) yield ev;
    c.collRelease(r, s);
  }
}

registerCollective({
  name: "dissemination",
  collective: "barrier",
  summary: "ceil(lg p) rounds of zero-byte messages to rank + 2^k",
  cost: "ceil(lg p) * alpha",
  params: [],
  run: (c) => disseminationBarrier(c),
});
