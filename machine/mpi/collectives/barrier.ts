import type { Comm, MpiCall } from "../comm.js";
import type { ExchangeProgram, ExchangeStep } from "../world.js";
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

/** {@link disseminationBarrier} as an exchange program (run by callbacks; same messages and timing). */
export const disseminationBarrierProgram: ExchangeProgram = {
  lastStep(_rank: number, p: number): number {
    return p <= 1 ? -1 : Math.ceil(Math.log2(p)) - 1;
  },
  step(rank: number, p: number, k: number, _bytes: number, out: ExchangeStep): boolean {
    const mask = 2 ** k;
    if (mask >= p) return false;
    out.tag = TAG.barrier;
    out.recv = (rank - mask + p) % p;
    out.send = (rank + mask) % p;
    out.sendBytes = 0;
    out.recvBytes = 0;
    out.reduceBytes = 0;
    return true;
  },
};

function* runBarrier(c: Comm): MpiCall {
  const ev = c.world.runSteps(c, disseminationBarrierProgram, 0);
  if (ev !== null) yield ev;
}

registerCollective({
  name: "dissemination",
  collective: "barrier",
  summary: "ceil(lg p) rounds of zero-byte messages to rank + 2^k",
  cost: "ceil(lg p) * alpha",
  params: [],
  run: (c) => (c.world.fastPaths ? runBarrier(c) : disseminationBarrier(c)),
});
