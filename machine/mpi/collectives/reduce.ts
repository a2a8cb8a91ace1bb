import type { Comm, MpiCall } from "../comm.js";
import { Chunks, TAG, pof2, reduceScatterHalving, registerCollective, undoHalvingStep } from "./algorithm.js";

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
        const ev = c.collWait(r, -1, bytes);
        if (ev !== null) yield ev;
        c.collRelease(r, -1);
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

/**
 * Rabenseifner's reduce (MPICH's MPI_Reduce for long messages, "reduce_scatter_gather"):
 * reduce-scatter by recursive halving, then a binomial gather of the reduced chunks to the root.
 * For non-power-of-two p, the first 2*rem ranks fold pairwise first (odd ranks hand their vector
 * to the even rank below and sit out); if the root sat out, the even rank below it gathers and
 * forwards the result. Cost (p = 2^k, n divisible): 2 lg p * alpha + 2 (p-1)/p * n*beta + (p-1)/p * n*gamma.
 */
export function* reduceScatterGatherReduce(c: Comm, bytes: number, root: number): MpiCall {
  const p = c.size;
  if (p === 1) return;
  const me = c.rank;
  const m = pof2(p);
  const rem = p - m;
  let newrank: number;
  if (me < 2 * rem) {
    if (me % 2 === 1) {
      const s = c.collSend(me - 1, TAG.reduce, bytes);
      const ev = c.collWait(s, -1);
      if (ev !== null) yield ev;
      c.collRelease(s, -1);
      newrank = -1;
    } else {
      const r = c.collRecv(me + 1, TAG.reduce, bytes);
      const ev = c.collWait(r, -1, bytes);
      if (ev !== null) yield ev;
      c.collRelease(r, -1);
      newrank = me >> 1;
    }
  } else newrank = me - rem;
  const real = (nr: number) => (nr < rem ? nr * 2 : nr + rem);
  // The survivor that gathers: the root itself, or the even rank below a root that sat out.
  const gatherer = root < 2 * rem && root % 2 === 1 ? root - 1 : root;
  const newroot = gatherer < 2 * rem ? gatherer >> 1 : gatherer - rem;
  if (newrank >= 0) {
    const ch = new Chunks(bytes, m, c.world.collectives.elementBytes);
    const st = yield* reduceScatterHalving(c, ch, newrank, m, real, TAG.reduce);
    // Binomial gather towards newroot, undoing the halving.
    let j = Math.log2(m) - 1;
    for (let mask = m >> 1; mask > 0; mask >>= 1, j--) {
      const newdst = newrank ^ mask;
      undoHalvingStep(st, ch, newrank, mask, m);
      const peer = real(newdst);
      if (newdst >> j === newroot >> j) {
        const s = c.collSend(peer, TAG.reduce, st.sendBytes);
        const ev = c.collWait(s, -1);
        if (ev !== null) yield ev;
        c.collRelease(s, -1);
        break;
      }
      const r = c.collRecv(peer, TAG.reduce, st.recvBytes);
      const ev = c.collWait(r, -1);
      if (ev !== null) yield ev;
      c.collRelease(r, -1);
    }
  }
  if (gatherer !== root) {
    const slot = me === gatherer ? c.collSend(root, TAG.reduce, bytes) : me === root ? c.collRecv(gatherer, TAG.reduce, bytes) : -1;
    if (slot >= 0) {
      const ev = c.collWait(slot, -1);
      if (ev !== null) yield ev;
      c.collRelease(slot, -1);
    }
  }
}

registerCollective({
  name: "reduce_scatter_gather",
  collective: "reduce",
  summary: "Rabenseifner: reduce-scatter (recursive halving) + binomial gather (MPICH: n > 2048 bytes and count >= pof2)",
  cost: "2 lg p * alpha + 2 (p-1)/p * n*beta + (p-1)/p * n*gamma for p = 2^k",
  params: [],
  run: reduceScatterGatherReduce,
});

registerCollective({
  name: "binomial",
  collective: "reduce",
  summary: "binomial tree towards the root (MPICH: n <= 2048 bytes)",
  cost: "ceil(lg p) * (alpha + n*beta + n*gamma)",
  params: [],
  run: binomialReduce,
});
