import type { Comm, MpiCall } from "../comm.js";
import { TAG, registerCollective } from "./algorithm.js";

/**
 * Binomial-tree reduce (MPICH's MPI_Reduce for commutative operations): at step k a rank whose
 * relative rank has bit k clear receives from rank + 2^k and reduces; a rank with bit k set sends
 * its partial result to rank - 2^k and stops. Cost: ceil(lg p) * (alpha + n*beta + n*gamma).
 */
export function* binomialReduce(c: Comm, bytes: number, root: number): MpiCall {
  const p = c.size;
  const rel = (c.rank - root + p) % p;
  for (let mask = 1; mask < p; mask <<= 1) {
    if ((rel & mask) === 0) {
      const src = rel | mask;
      if (src < p) {
        const r = c.collRecv((src + root) % p, TAG.reduce, bytes);
        let ev = c.collWait(r, -1);
        if (ev !== null) yield ev;
        c.collRelease(r, -1);
        const d = c.reduceDelay(bytes);
        if (d !== null) yield d;
      }
    } else {
      const s = c.collSend(((rel & ~mask) + root) % p, TAG.reduce, bytes);
      const ev = c.collWait(s, -1);
      if (ev !== null) yield ev;
      c.collRelease(s, -1);
      break;
    }
  }
}

registerCollective({
  name: "binomial",
  collective: "reduce",
  summary: "binomial tree towards the root",
  cost: "ceil(lg p) * (alpha + n*beta + n*gamma)",
  params: [],
  run: binomialReduce,
});
