import type { Comm, MpiCall } from "../comm.js";
import type { ExchangeProgram, ExchangeStep } from "../world.js";
import { Chunks, TAG, pof2, reduceScatterHalving, registerCollective, undoHalvingStep } from "./algorithm.js";

/** Exchanges `sb` bytes out and `rb` bytes in with `peer`, then reduces `reduceBytes`. */
function* exchange(c: Comm, peer: number, sb: number, rb: number, reduceBytes: number): MpiCall {
  const r = c.collRecv(peer, TAG.allreduce, rb);
  const s = c.collSend(peer, TAG.allreduce, sb);
  const ev = c.collWait(r, s, reduceBytes);
  if (ev !== null) yield ev;
  c.collRelease(r, s);
}

/**
 * The non-power-of-two fold of MPICH's allreduce: of the first 2*rem ranks (rem = p - pof2),
 * each even rank sends its whole vector to the next odd rank, which reduces it; the even ranks
 * then sit out. Returns the rank's number among the pof2 survivors, or -1.
 */
function* foldIn(c: Comm, bytes: number, rem: number): MpiCall<number> {
  const me = c.rank;
  if (me < 2 * rem) {
    if (me % 2 === 0) {
      const s = c.collSend(me + 1, TAG.allreduce, bytes);
      const ev = c.collWait(s, -1);
      if (ev !== null) yield ev;
      c.collRelease(s, -1);
      return -1;
    }
    const r = c.collRecv(me - 1, TAG.allreduce, bytes);
    const ev = c.collWait(r, -1, bytes);
    if (ev !== null) yield ev;
    c.collRelease(r, -1);
    return me >> 1;
  }
  return me - rem;
}

/** The last step of the fold: odd ranks hand the result back to the even ranks that sat out. */
function* foldOut(c: Comm, bytes: number, rem: number): MpiCall {
  const me = c.rank;
  if (me >= 2 * rem) return;
  const slot = me % 2 === 1 ? c.collSend(me - 1, TAG.allreduce, bytes) : c.collRecv(me + 1, TAG.allreduce, bytes);
  const ev = c.collWait(slot, -1);
  if (ev !== null) yield ev;
  c.collRelease(slot, -1);
}

/** World-of-survivors rank back to a communicator rank. */
function realRank(newrank: number, rem: number): number {
  return newrank < rem ? newrank * 2 + 1 : newrank + rem;
}

/**
 * Recursive-doubling allreduce (MPICH, short messages): lg p' exchanges of the whole vector with
 * rank XOR 2^k, each followed by a reduction, with the fold for non-power-of-two p.
 * Cost: p = 2^k: lg p * (alpha + n*beta + n*gamma); otherwise
 * (floor(lg p) + 1) * (alpha + n*beta + n*gamma) + (alpha + n*beta).
 */
export function* recursiveDoublingAllreduce(c: Comm, bytes: number): MpiCall {
  const p = c.size;
  if (p === 1) return;
  const m = pof2(p);
  const rem = p - m;
  const newrank = yield* foldIn(c, bytes, rem);
  if (newrank >= 0) {
    // The hot loop of allreduce-heavy runs: the exchange is inlined to save a generator per step.
    for (let mask = 1; mask < m; mask <<= 1) {
      const peer = realRank(newrank ^ mask, rem);
      const r = c.collRecv(peer, TAG.allreduce, bytes);
      const s = c.collSend(peer, TAG.allreduce, bytes);
      const ev = c.collWait(r, s, bytes);
      if (ev !== null) yield ev;
      c.collRelease(r, s);
    }
  }
  yield* foldOut(c, bytes, rem);
}

/**
 * Rabenseifner's allreduce (MPICH, long messages): reduce-scatter by recursive halving, then
 * allgather by recursive doubling, with the fold for non-power-of-two p.
 * Cost (p = 2^k, n divisible): 2 lg p * alpha + 2 (p-1)/p * n*beta + (p-1)/p * n*gamma.
 */
export function* rabenseifnerAllreduce(c: Comm, bytes: number): MpiCall {
  const p = c.size;
  if (p === 1) return;
  const m = pof2(p);
  const rem = p - m;
  const newrank = yield* foldIn(c, bytes, rem);
  if (newrank >= 0) {
    const ch = new Chunks(bytes, m, c.world.collectives.elementBytes);
    const st = yield* reduceScatterHalving(c, ch, newrank, m, (nr) => realRank(nr, rem), TAG.allreduce);
    for (let mask = m >> 1; mask > 0; mask >>= 1) {
      undoHalvingStep(st, ch, newrank, mask, m);
      yield* exchange(c, realRank(newrank ^ mask, rem), st.sendBytes, st.recvBytes, 0);
    }
  }
  yield* foldOut(c, bytes, rem);
}

/**
 * Ring allreduce (Patarasuk and Yuan 2009): a ring reduce-scatter of p chunks followed by a ring
 * allgather. Cost: 2 (p-1) * alpha + 2 (p-1)/p * n*beta + (p-1)/p * n*gamma.
 */
export function* ringAllreduce(c: Comm, bytes: number): MpiCall {
  const p = c.size;
  if (p === 1) return;
  const ch = new Chunks(bytes, p, c.world.collectives.elementBytes);
  const me = c.rank;
  const left = (me - 1 + p) % p;
  const right = (me + 1) % p;
  for (let i = 0; i < p - 1; i++) {
    const sendChunk = (me - i + p) % p;
    const recvChunk = (me - i - 1 + 2 * p) % p;
    const r = c.collRecv(left, TAG.allreduce, ch.size(recvChunk));
    const s = c.collSend(right, TAG.allreduce, ch.size(sendChunk));
    const ev = c.collWait(r, s, ch.size(recvChunk));
    if (ev !== null) yield ev;
    c.collRelease(r, s);
  }
  for (let i = 0; i < p - 1; i++) {
    const sendChunk = (me + 1 - i + p) % p;
    const recvChunk = (me - i + p) % p;
    const r = c.collRecv(left, TAG.allreduce, ch.size(recvChunk));
    const s = c.collSend(right, TAG.allreduce, ch.size(sendChunk));
    const ev = c.collWait(r, s);
    if (ev !== null) yield ev;
    c.collRelease(r, s);
  }
}

/**
 * {@link recursiveDoublingAllreduce} as an exchange program (run by callbacks; same messages and
 * timing): step 0 is the fold, steps 1..lg p' the exchanges, step lg p' + 1 the unfold.
 */
export const recursiveDoublingAllreduceProgram: ExchangeProgram = foldedExchange(
  (lgm) => lgm,
  (newrank, m, rem, k, bytes, out) => {
    const peer = realRank(newrank ^ (1 << (k - 1)), rem);
    out.send = peer;
    out.recv = peer;
    out.recvBytes = bytes;
    out.reduceBytes = bytes;
  },
);

/**
 * The middle step `k` (1-based) of a {@link foldedExchange} on the surviving rank `newrank` of the
 * `m` = p' power-of-two ranks; `rem` = p - p' ranks were folded away. Fills `out` (already reset).
 */
type MiddleStep = (newrank: number, m: number, rem: number, k: number, bytes: number, out: ExchangeStep, elementBytes: number) => void;

/**
 * An exchange program over the largest power of two p' <= p: step 0 folds the first 2(p - p')
 * ranks pairwise, steps 1..middleSteps(lg p') run `middle` among the p' survivors, and the step
 * after them unfolds (MPICH's scheme for non-power-of-two allreduce).
 */
function foldedExchange(middleSteps: (lgm: number) => number, middle: MiddleStep): ExchangeProgram {
  return {
    lastStep(rank: number, p: number): number {
      if (p === 1) return -1;
      const m = pof2(p);
      const last = middleSteps(Math.log2(m));
      return rank < 2 * (p - m) ? last + 1 : last;
    },
    step(rank: number, p: number, k: number, bytes: number, out: ExchangeStep, elementBytes: number): boolean {
      const m = pof2(p);
      const rem = p - m;
      const unfold = middleSteps(Math.log2(m)) + 1;
      out.tag = TAG.allreduce;
      out.send = -1;
      out.recv = -1;
      out.sendBytes = bytes;
      out.reduceBytes = 0;
      if (p === 1 || k > unfold) return false;
      const folded = rank < 2 * rem;
      if (k === 0) {
        if (folded) foldStep(rank, bytes, out);
      } else if (k === unfold) {
        if (folded) unfoldStep(rank, out);
      } else {
        const newrank = folded ? (rank % 2 === 0 ? -1 : rank >> 1) : rank - rem;
        if (newrank >= 0) middle(newrank, m, rem, k, bytes, out, elementBytes);
      }
      return true;
    },
  };
}

/** The fold before a power-of-two exchange: among the first 2 * (p - p') ranks, even ranks send their data to the odd rank above, which reduces it. */
function foldStep(rank: number, bytes: number, out: ExchangeStep): void {
  if (rank % 2 === 0) out.send = rank + 1;
  else {
    out.recv = rank - 1;
    out.reduceBytes = bytes;
  }
}

/** The unfold after a power-of-two exchange: odd folded ranks send the result back to the even rank below. */
function unfoldStep(rank: number, out: ExchangeStep): void {
  if (rank % 2 === 1) out.send = rank - 1;
  else out.recv = rank + 1;
}

/** Bytes of chunks [a, b) of `bytes` split into `k` chunks of whole elements (as {@link Chunks.range}, without allocating). */
function chunkRange(bytes: number, k: number, elementBytes: number, a: number, b: number): number {
  if (b <= a) return 0;
  const base = Math.floor(Math.floor(bytes / elementBytes) / k) * elementBytes;
  return b === k ? (b - a - 1) * base + (bytes - base * (k - 1)) : (b - a) * base;
}

/**
 * {@link rabenseifnerAllreduce} as an exchange program (run by callbacks; same messages and
 * timing): step 0 is the fold, steps 1..lg p' the reduce-scatter by recursive halving, steps
 * lg p' + 1..2 lg p' the allgather that undoes it, step 2 lg p' + 1 the unfold. Each step replays
 * the chunk window from the start (lg p' integer steps) so the program keeps no state per rank.
 */
export const rabenseifnerAllreduceProgram: ExchangeProgram = foldedExchange(
  (lgm) => 2 * lgm,
  (newrank, m, rem, k, bytes, out, elementBytes) => {
    const lgm = Math.log2(m);
    // Replay the halving (as reduceScatterHalving) up to step k or to its end.
    let sendIdx = 0;
    let recvIdx = 0;
    let lastIdx = m;
    const halvingSteps = k <= lgm ? k : lgm;
    for (let j = 1, mask = 1; j <= halvingSteps; j++, mask <<= 1) {
      const newdst = newrank ^ mask;
      const half = m / (mask * 2);
      let sb: number;
      let rb: number;
      if (newrank < newdst) {
        sendIdx = recvIdx + half;
        sb = chunkRange(bytes, m, elementBytes, sendIdx, lastIdx);
        rb = chunkRange(bytes, m, elementBytes, recvIdx, sendIdx);
      } else {
        recvIdx = sendIdx + half;
        sb = chunkRange(bytes, m, elementBytes, sendIdx, recvIdx);
        rb = chunkRange(bytes, m, elementBytes, recvIdx, lastIdx);
      }
      if (j === k) {
        const peer = realRank(newdst, rem);
        out.send = peer;
        out.recv = peer;
        out.sendBytes = sb;
        out.recvBytes = rb;
        out.reduceBytes = rb;
        return;
      }
      sendIdx = recvIdx;
      if (mask * 2 < m) lastIdx = recvIdx + m / (mask * 2);
    }
    // Allgather: undo the halving (as undoHalvingStep) with masks m/2, m/4, ... down to step k's.
    for (let mask = m >> 1, j = lgm + 1; j <= k; mask >>= 1, j++) {
      const newdst = newrank ^ mask;
      const half = m / (mask * 2);
      let sb: number;
      let rb: number;
      if (newrank < newdst) {
        if (mask !== m / 2) lastIdx += half;
        recvIdx = sendIdx + half;
        sb = chunkRange(bytes, m, elementBytes, sendIdx, recvIdx);
        rb = chunkRange(bytes, m, elementBytes, recvIdx, lastIdx);
      } else {
        recvIdx = sendIdx - half;
        sb = chunkRange(bytes, m, elementBytes, sendIdx, lastIdx);
        rb = chunkRange(bytes, m, elementBytes, recvIdx, sendIdx);
        sendIdx = recvIdx;
      }
      if (j === k) {
        const peer = realRank(newdst, rem);
        out.send = peer;
        out.recv = peer;
        out.sendBytes = sb;
        out.recvBytes = rb;
        return;
      }
    }
  },
);

function* runProgram(c: Comm, program: ExchangeProgram, bytes: number): MpiCall {
  const ev = c.world.runSteps(c, program, bytes);
  if (ev !== null) yield ev;
}

registerCollective({
  name: "recursive_doubling",
  collective: "allreduce",
  summary: "whole-vector exchanges with rank XOR 2^k (MPICH: n <= 2048 bytes)",
  cost: "lg p * (alpha + n*beta + n*gamma) for p = 2^k; (floor(lg p)+1)(alpha + n*beta + n*gamma) + alpha + n*beta otherwise",
  params: [],
  run: (c, bytes) => (c.world.fastPaths ? runProgram(c, recursiveDoublingAllreduceProgram, bytes) : recursiveDoublingAllreduce(c, bytes)),
});

registerCollective({
  name: "rabenseifner",
  collective: "allreduce",
  summary: "reduce-scatter (recursive halving) + allgather (recursive doubling) (MPICH: n > 2048 bytes)",
  cost: "2 lg p * alpha + 2 (p-1)/p * n*beta + (p-1)/p * n*gamma for p = 2^k",
  params: [],
  run: (c, bytes) => (c.world.fastPaths ? runProgram(c, rabenseifnerAllreduceProgram, bytes) : rabenseifnerAllreduce(c, bytes)),
});

registerCollective({
  name: "ring",
  collective: "allreduce",
  summary: "ring reduce-scatter + ring allgather (bandwidth-optimal; only when forced)",
  cost: "2 (p-1) * alpha + 2 (p-1)/p * n*beta + (p-1)/p * n*gamma",
  params: [],
  run: (c, bytes) => ringAllreduce(c, bytes),
});
