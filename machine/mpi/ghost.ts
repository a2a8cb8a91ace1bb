import type { Comm, MpiCall } from "./comm.js";

/**
 * A block decomposition of a 2-D or 3-D patch grid over a grid of ranks, as an AMR level has:
 * `patches[i]` patches along dimension i, each of `patchCells[i]` cells, dealt out in contiguous
 * blocks to `ranks[i]` ranks (rank = x + ranks[0] * (y + ranks[1] * z)). Each patch has a ghost
 * region of `ghostWidth` cells around it.
 */
export interface BlockDecomposition {
  /** Rank grid, 2 or 3 entries; its product is the communicator size used. */
  readonly ranks: readonly number[];
  /** Patch grid (default: one patch per rank); each entry a multiple of the rank grid's. */
  readonly patches?: readonly number[];
  /** Cells per patch along each dimension. */
  readonly patchCells: readonly number[];
  /** Halo width w in cells (>= 1, at most a block's extent). */
  readonly ghostWidth: number;
  /** Bytes per cell (all state variables of a cell). */
  readonly bytesPerCell: number;
  /** Periodic boundaries, per dimension or for all (default false). */
  readonly periodic?: boolean | readonly boolean[];
  /** Exchange edge and corner strips too (default true: the full box halo a 9/27-point stencil needs). */
  readonly corners?: boolean;
}

/** One rank's halo traffic: one message per neighbour direction, each way. */
export interface HaloPlan {
  /** The rank the plan is for. */
  readonly rank: number;
  /** Neighbour rank per direction (a rank appears twice when it is a neighbour on both sides). */
  readonly peers: Int32Array;
  /** Tag of the message sent towards each direction (the receiver expects it from the opposite one). */
  readonly sendTags: Int32Array;
  /** Tag of the message received from each direction. */
  readonly recvTags: Int32Array;
  /** Strip size in bytes per direction (sent and received sizes are equal). */
  readonly bytes: Float64Array;
  /** Bytes received from other ranks in total. */
  readonly haloBytes: number;
  /** Halo bytes copied between patches of this rank (no message). */
  readonly localCopyBytes: number;
}

/** What one exchange did on the calling rank. */
export interface GhostExchangeStats {
  readonly messagesSent: number;
  readonly bytesSent: number;
  readonly bytesReceived: number;
  /** Number of MPI_Waitsome calls until everything completed. */
  readonly waitsomeCalls: number;
  /** Halo bytes between this rank's own patches (to be charged as memory copies by the caller). */
  readonly localCopyBytes: number;
}

/** A decomposition that cannot be used; names the offending field. */
export class DecompositionError extends Error {
  readonly isInputError = true;
  constructor(readonly field: string, message: string) {
    super(`decomposition.${field}: ${message}`);
    this.name = "DecompositionError";
  }
}

/** Tags a plan uses: baseTag + [0, 27). */
export const GHOST_TAG_SPAN = 27;

function check(d: BlockDecomposition): { dims: number; patches: number[]; periodic: boolean[] } {
  const dims = d.ranks.length;
  if (dims !== 2 && dims !== 3) throw new DecompositionError("ranks", `must have 2 or 3 entries, got ${dims}`);
  const patches = [...(d.patches ?? d.ranks)];
  if (patches.length !== dims) throw new DecompositionError("patches", `must have ${dims} entries like ranks`);
  if (d.patchCells.length !== dims) throw new DecompositionError("patchCells", `must have ${dims} entries like ranks`);
  for (let i = 0; i < dims; i++) {
    if (!Number.isInteger(d.ranks[i]) || d.ranks[i] < 1) throw new DecompositionError(`ranks[${i}]`, `must be a positive integer, got ${d.ranks[i]}`);
    if (!Number.isInteger(patches[i]) || patches[i] < 1 || patches[i] % d.ranks[i] !== 0)
      throw new DecompositionError(`patches[${i}]`, `must be a positive multiple of ranks[${i}] = ${d.ranks[i]}, got ${patches[i]}`);
    if (!Number.isInteger(d.patchCells[i]) || d.patchCells[i] < 1) throw new DecompositionError(`patchCells[${i}]`, `must be a positive integer, got ${d.patchCells[i]}`);
    if (d.ghostWidth > d.patchCells[i]) throw new DecompositionError("ghostWidth", `${d.ghostWidth} exceeds the patch extent ${d.patchCells[i]} along dimension ${i}`);
  }
  if (!Number.isInteger(d.ghostWidth) || d.ghostWidth < 1) throw new DecompositionError("ghostWidth", `must be a positive integer, got ${d.ghostWidth}`);
  if (!(d.bytesPerCell > 0) || !Number.isFinite(d.bytesPerCell)) throw new DecompositionError("bytesPerCell", `must be a finite number > 0, got ${d.bytesPerCell}`);
  const periodic = typeof d.periodic === "boolean" || d.periodic === undefined ? new Array<boolean>(dims).fill(d.periodic ?? false) : [...d.periodic];
  if (periodic.length !== dims) throw new DecompositionError("periodic", `must have ${dims} entries like ranks`);
  return { dims, patches, periodic };
}

/** Neighbour directions of a 2-D or 3-D grid: offsets and the tag indices of each way. */
interface Directions {
  /** Offsets in {-1,0,1}^dims without 0 (faces only unless corners), in tag order. */
  readonly offsets: readonly (readonly number[])[];
  /** Tag index of each offset (its position in the 3^dims cube). */
  readonly dir: readonly number[];
  /** Tag index of the opposite offset. */
  readonly opposite: readonly number[];
}

// Directions by 2 * dims + corners: the same few tables serve every rank's plan (a plan is made
// per rank, often thousands of times in a row).
const directionTables: (Directions | undefined)[] = [];

/** The neighbour directions of a `dims`-D grid, faces only unless `corners`. */
function directions(dims: number, corners: boolean): Directions {
  const key = 2 * dims + (corners ? 1 : 0);
  const known = directionTables[key];
  if (known !== undefined) return known;
  const offsets: number[][] = [];
  const total = 3 ** dims;
  for (let k = 0; k < total; k++) {
    const o: number[] = [];
    let x = k;
    for (let i = 0; i < dims; i++) {
      o.push((x % 3) - 1);
      x = Math.floor(x / 3);
    }
    const nz = o.filter((v) => v !== 0).length;
    if (nz === 0 || (!corners && nz > 1)) continue;
    offsets.push(o);
  }
  const table = { offsets, dir: offsets.map(dirIndex), opposite: offsets.map((o) => dirIndex(o.map((v) => -v))) };
  directionTables[key] = table;
  return table;
}

function dirIndex(o: readonly number[]): number {
  let k = 0;
  for (let i = o.length - 1; i >= 0; i--) k = k * 3 + (o[i] + 1);
  return k;
}

/** @throws DecompositionError when `rank` is not in the rank grid of `d` */
function checkRank(d: BlockDecomposition, rank: number): void {
  const nranks = d.ranks.reduce((a, b) => a * b, 1);
  if (!Number.isInteger(rank) || rank < 0 || rank >= nranks) throw new DecompositionError("ranks", `rank ${rank} is outside the ${d.ranks.join("x")} grid`);
}

/** A neighbour across one face of a rank's block. */
export interface FaceNeighbour {
  /** The neighbour's rank. */
  readonly peer: number;
  /** The dimension the face is across (the two blocks' coordinates differ along it alone). */
  readonly dimension: number;
}

/**
 * The neighbours across the faces of `rank`'s block under decomposition `d` (periodic
 * boundaries wrap; a rank that is its own neighbour is left out): the ranks whose strips must
 * match this rank's in size, since each side sends its own face and receives the other's.
 * @throws DecompositionError as {@link haloPlan}
 */
export function faceNeighbours(d: BlockDecomposition, rank: number): FaceNeighbour[] {
  const { dims, periodic } = check(d);
  checkRank(d, rank);
  const out: FaceNeighbour[] = [];
  let stride = 1;
  for (let i = 0; i < dims; i++) {
    const n = d.ranks[i];
    const c = Math.floor(rank / stride) % n;
    for (const step of [-1, 1]) {
      let to = c + step;
      if (to < 0 || to >= n) {
        if (!periodic[i]) continue;
        to = (to + n) % n;
      }
      const peer = rank + (to - c) * stride;
      if (peer !== rank && !out.some((x) => x.peer === peer && x.dimension === i)) out.push({ peer, dimension: i });
    }
    stride *= n;
  }
  return out;
}

/**
 * The halo messages of `rank` under decomposition `d`. Strips have their true sizes: a face
 * strip is w cells deep and as long as the rank's block, an edge or corner strip w by w (by the
 * block extent in 3-D along the zero direction).
 * @param baseTag - first tag of the level's exchange; tags baseTag .. baseTag + 26 are used
 * @throws DecompositionError for an inconsistent decomposition or a rank outside the grid
 */
export function haloPlan(d: BlockDecomposition, rank: number, baseTag = 0): HaloPlan {
  const { dims, patches, periodic } = check(d);
  checkRank(d, rank);
  const coord: number[] = [];
  let x = rank;
  for (let i = 0; i < dims; i++) {
    coord.push(x % d.ranks[i]);
    x = Math.floor(x / d.ranks[i]);
  }
  const per = patches.map((p, i) => p / d.ranks[i]);
  const extent = per.map((p, i) => p * d.patchCells[i]);
  const w = d.ghostWidth;
  const corners = d.corners ?? true;
  const peers: number[] = [];
  const sendTags: number[] = [];
  const recvTags: number[] = [];
  const bytes: number[] = [];
  const dirs = directions(dims, corners);
  for (let j = 0; j < dirs.offsets.length; j++) {
    const o = dirs.offsets[j];
    let peer = 0;
    let mul = 1;
    let ok = true;
    for (let i = 0; i < dims; i++) {
      let c = coord[i] + o[i];
      if (c < 0 || c >= d.ranks[i]) {
        if (!periodic[i]) {
          ok = false;
          break;
        }
        c = (c + d.ranks[i]) % d.ranks[i];
      }
      peer += c * mul;
      mul *= d.ranks[i];
    }
    if (!ok || peer === rank) continue; // a periodic self-neighbour is a local copy
    let cells = 1;
    for (let i = 0; i < dims; i++) cells *= o[i] === 0 ? extent[i] : w;
    peers.push(peer);
    sendTags.push(baseTag + dirs.dir[j]);
    recvTags.push(baseTag + dirs.opposite[j]);
    bytes.push(cells * d.bytesPerCell);
  }
  // Halo strips between patches owned by this rank are copied locally.
  let local = 0;
  const offs = dirs.offsets;
  const pc = new Array<number>(dims).fill(0);
  const count = per.reduce((a, b) => a * b, 1);
  for (let k = 0; k < count; k++) {
    let y = k;
    for (let i = 0; i < dims; i++) {
      pc[i] = coord[i] * per[i] + (y % per[i]);
      y = Math.floor(y / per[i]);
    }
    for (const o of offs) {
      let mine = true;
      for (let i = 0; i < dims; i++) {
        let c = pc[i] + o[i];
        if (c < 0 || c >= patches[i]) {
          if (!periodic[i]) {
            mine = false;
            break;
          }
          c = (c + patches[i]) % patches[i];
        }
        if (Math.floor(c / per[i]) !== coord[i]) {
          mine = false;
          break;
        }
      }
      if (!mine) continue;
      let cells = 1;
      for (let i = 0; i < dims; i++) cells *= o[i] === 0 ? d.patchCells[i] : w;
      local += cells * d.bytesPerCell;
    }
  }
  return {
    rank,
    peers: Int32Array.from(peers),
    sendTags: Int32Array.from(sendTags),
    recvTags: Int32Array.from(recvTags),
    bytes: Float64Array.from(bytes),
    haloBytes: bytes.reduce((a, b) => a + b, 0),
    localCopyBytes: local,
  };
}

/**
 * Ghost-cell exchange of one AMR level on the calling rank: posts an MPI_Irecv per neighbour
 * direction, then an MPI_Isend per direction, then calls MPI_Waitsome until every request has
 * completed (as the AMR mesh component of paper 000 does). All ranks of the decomposition must
 * call it with the same plan layout and base tag.
 * @param comm - the calling rank's communicator (its rank is the plan's rank)
 * @param plan - from {@link haloPlan} for `comm.rank`
 * @throws RangeError when the plan is for another rank
 */
export function* ghostExchange(comm: Comm, plan: HaloPlan): MpiCall<GhostExchangeStats> {
  if (plan.rank !== comm.rank) throw new RangeError(`ghostExchange: plan is for rank ${plan.rank}, called on rank ${comm.rank}`);
  const n = plan.peers.length;
  let calls = 0;
  if (comm.world.fastPaths && comm.world.observer === null && comm.exchangesAtOnce(plan.peers, plan.bytes)) {
    // Nobody times the calls and they take no CPU overhead: the same messages and MPI_Waitsome calls,
    // driven by callbacks, so the process wakes once.
    const ev = comm.haloExchangeStart(plan.peers, plan.recvTags, plan.sendTags, plan.bytes);
    if (ev !== null) yield ev;
    calls = comm.haloExchangeEnd();
  } else {
    const reqs: number[] = new Array(2 * n);
    for (let i = 0; i < n; i++) reqs[i] = comm.irecv(plan.peers[i], plan.recvTags[i], plan.bytes[i]);
    for (let i = 0; i < n; i++) reqs[n + i] = yield* comm.isend(plan.peers[i], plan.sendTags[i], plan.bytes[i]);
    let left = 2 * n;
    while (left > 0) {
      const done = yield* comm.waitsome(reqs);
      calls++;
      left -= done.length;
    }
  }
  return { messagesSent: n, bytesSent: plan.haloBytes, bytesReceived: plan.haloBytes, waitsomeCalls: calls, localCopyBytes: plan.localCopyBytes };
}
