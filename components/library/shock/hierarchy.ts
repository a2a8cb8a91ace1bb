/**
 * The patch hierarchy of the shock-interface AMR application (paper 000, section 5): levels of
 * rectangular patches, refinement factor 2, refined bands that follow the moving shock and
 * interface, patches of any size and aspect ratio dealt out to ranks by a load balancer, and the
 * message plans that follow from the geometry (ghost-cell updates between abutting patches, data
 * migration at a regrid).
 *
 * A hierarchy is a pure function of the mesh description, the number of ranks, the scenario seed
 * and the regrid epoch, so every rank computes the same one without communicating.
 *
 * @packageDocumentation
 */
import { RandomStream } from "../../../engine/index.js";
import type { ArrayArg } from "../../ports.js";

/** Refinement factor between consecutive levels (the papers use 2). */
export const REFINEMENT = 2;

/** Bytes per double. */
export const DOUBLE = 8;

/** An inclusive integer range of patch extents, in cells of the patch's level. */
export interface SizeRange {
  readonly min: number;
  readonly max: number;
}

/** Patch extents of one level: widths and heights are drawn log-uniformly from these ranges. */
export interface LevelSizes {
  readonly width: SizeRange;
  readonly height: SizeRange;
}

/**
 * A moving front the refinement follows (the shock, the interface). Positions are in level-0
 * cells; the front sits at `x + speed * step + amplitude * sin(2 pi waves y / height)`.
 */
export interface Front {
  readonly name: string;
  /** Position at step 0 (level-0 cells from the left boundary). */
  readonly x: number;
  /** Level-0 cells per coarse step. */
  readonly speed: number;
  /** Amplitude of the front's perturbation along y (level-0 cells; 0 = planar). */
  readonly amplitude: number;
  /** Number of perturbation wavelengths over the domain height. */
  readonly waves: number;
}

/** What the mesh is: the scenario's workload description of the AMR hierarchy. */
export interface MeshSpec {
  /** Domain width and height in level-0 cells. */
  readonly width: number;
  readonly height: number;
  /** Number of levels (level 0 covers the domain). */
  readonly levels: number;
  /** Doubles per cell (state variables, interleaved per cell: a patch row holds nx * variables doubles). */
  readonly variables: number;
  /** Ghost-cell halo width (cells). */
  readonly haloWidth: number;
  /** Patch extents per level (`levels` entries). */
  readonly patchSizes: readonly LevelSizes[];
  /** Half-width (level-0 cells) of the refined band around each front, per refined level (`levels - 1` entries). */
  readonly bands: readonly number[];
  /** The fronts the refinement follows. */
  readonly fronts: readonly Front[];
  /** Load balancer of every level (default `sfc`). */
  readonly balancer?: Balancer;
}

/** One patch: a box of cells on one level, owned by one rank. */
export interface Patch {
  /** Index of the patch within its level. */
  readonly id: number;
  readonly level: number;
  /** Lower corner and extents, in cells of its level. */
  readonly x0: number;
  readonly y0: number;
  readonly nx: number;
  readonly ny: number;
  /** Owning rank. */
  readonly owner: number;
  /** nx * ny. */
  readonly cells: number;
  /** Doubles of the patch's data array (cells * variables): the papers' Q. */
  readonly doubles: number;
  /** Ghost cells not filled by same-level neighbours (coarse-fine and physical boundary): what prolongation fills. */
  readonly boundaryGhostCells: number;
  /** The patch's data array as components receive it: `doubles` doubles in rows of `nx * variables`. */
  readonly field: ArrayArg;
}

/** One message of a plan: to or from `peer`, with its tag and size. */
export interface Message {
  readonly peer: number;
  readonly tag: number;
  /** Bytes. */
  readonly bytes: number;
}

/** One rank's part of an exchange. */
export interface RankPlan {
  /** Receives to post (in this order). */
  readonly recv: readonly Message[];
  /** Sends to post (in this order). */
  readonly send: readonly Message[];
  /** Bytes copied between patches this rank owns (no message). */
  readonly localCopyBytes: number;
}

/** The patches of one level, per rank, with the ghost-update plan of each rank. */
export interface LevelLayout {
  readonly level: number;
  readonly patches: readonly Patch[];
  /** Patches owned by each rank, in id order. */
  readonly local: readonly (readonly Patch[])[];
  /** Ghost-cell update plan of each rank. */
  readonly ghost: readonly RankPlan[];
}

/** A patch hierarchy of one regrid epoch. */
export interface Hierarchy {
  /** 0 for the initial hierarchy, +1 at every regrid. */
  readonly epoch: number;
  /** Coarse step at which it was built. */
  readonly step: number;
  readonly levels: readonly LevelLayout[];
  /** Data migration from the previous epoch's hierarchy, per rank (empty plans for epoch 0). */
  readonly migration: readonly RankPlan[];
}

/** Largest tag span of one level's messages; tags wrap inside it (MPI matching is FIFO per source and tag). */
const LEVEL_TAG_SPAN = 1 << 22;
/** Tags of migration messages start here, above every ghost-update tag. */
const MIGRATION_TAG_BASE = 1 << 29;

interface Box {
  x0: number;
  y0: number;
  nx: number;
  ny: number;
}

/** A log-uniform integer in [min, max]. */
function drawExtent(rng: RandomStream, r: SizeRange): number {
  if (r.max <= r.min) return r.min;
  return Math.min(r.max, Math.max(r.min, Math.round(Math.exp(rng.uniform(Math.log(r.min), Math.log(r.max + 1)) - 0.5))));
}

/**
 * Cuts [0, length) into pieces drawn from `r`. A piece that would leave a remainder shorter than
 * `r.min` takes the remainder too when that keeps it within `r.max`; otherwise what is left is
 * halved. Pieces are at least `r.min` (unless `length < min`) and at most `max(r.max, 2 r.min)`.
 */
function cut(rng: RandomStream, length: number, r: SizeRange): number[] {
  const out: number[] = [];
  let left = length;
  while (left > 0) {
    let w = drawExtent(rng, r);
    if (w >= left || (left - w < r.min && left <= r.max)) w = left;
    else if (left - w < r.min) w = Math.ceil(left / 2);
    out.push(w);
    left -= w;
  }
  return out;
}

/** Merged x-intervals [a, b) of the refined band of `level` at level-0 height `yMid`, in level cells. */
function bandIntervals(spec: MeshSpec, level: number, step: number, yMid: number): Array<[number, number]> {
  const scale = REFINEMENT ** level;
  const widthL = spec.width * scale;
  const half = spec.bands[level - 1];
  const raw: Array<[number, number]> = [];
  for (const f of spec.fronts) {
    const centre = f.x + f.speed * step + f.amplitude * Math.sin((2 * Math.PI * f.waves * yMid) / spec.height);
    // Even bounds keep every fine patch aligned with the cells of its parent level.
    let a = Math.floor(((centre - half) * scale) / 2) * 2;
    let b = Math.ceil(((centre + half) * scale) / 2) * 2;
    a = Math.max(0, a);
    b = Math.min(widthL, b);
    if (b > a) raw.push([a, b]);
  }
  raw.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const merged: Array<[number, number]> = [];
  for (const iv of raw) {
    const last = merged[merged.length - 1];
    if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else merged.push([iv[0], iv[1]]);
  }
  return merged;
}

/** The boxes of one level: strips of drawn heights, each cut into drawn widths over the level's extent. */
function tileLevel(spec: MeshSpec, level: number, step: number, rng: RandomStream): Box[] {
  const scale = REFINEMENT ** level;
  const sizes = spec.patchSizes[level];
  const boxes: Box[] = [];
  let y = 0;
  for (const h of cut(rng, spec.height * scale, sizes.height)) {
    const intervals = level === 0 ? [[0, spec.width] as [number, number]] : bandIntervals(spec, level, step, (y + h / 2) / scale);
    for (const [a, b] of intervals) {
      let x = a;
      for (const w of cut(rng, b - a, sizes.width)) {
        boxes.push({ x0: x, y0: y, nx: w, ny: h });
        x += w;
      }
    }
    y += h;
  }
  return boxes;
}

/** How patches are dealt out to ranks. */
export type Balancer = "sfc" | "greedy" | "composite";

/**
 * Greedy longest-processing-time balancing: patches by decreasing cell count (ties by index) go
 * to the rank with the fewest cells so far (ties to the lowest rank). Returns the owner of each box.
 */
function balanceGreedy(boxes: readonly Box[], ranks: number): Int32Array {
  const order = boxes.map((_, i) => i).sort((i, j) => boxes[j].nx * boxes[j].ny - boxes[i].nx * boxes[i].ny || i - j);
  const load = new Float64Array(ranks);
  const owner = new Int32Array(boxes.length);
  for (const i of order) {
    let best = 0;
    for (let r = 1; r < ranks; r++) if (load[r] < load[best]) best = r;
    owner[i] = best;
    load[best] += boxes[i].nx * boxes[i].ny;
  }
  return owner;
}

/** Morton (Z-order) key of a point with 16-bit coordinates. */
function morton(x: number, y: number): number {
  let k = 0;
  for (let b = 15; b >= 0; b--) k = k * 4 + ((((y >> b) & 1) << 1) | ((x >> b) & 1));
  return k;
}

/**
 * Space-filling-curve balancing, as GrACE-style SAMR partitioners do: patches in Morton order of
 * their centres are cut into `ranks` contiguous runs of about equal cell counts (a patch goes to
 * the next rank when more than half of it lies beyond the current rank's share). Locality is kept
 * (neighbours mostly share a rank); the balance is only as good as the patch granularity allows.
 */
function balanceSfc(boxes: readonly Box[], ranks: number, extentX: number, extentY: number): Int32Array {
  const scale = 65535 / Math.max(extentX, extentY, 1);
  const keys = boxes.map((b) => morton(Math.floor((b.x0 + b.nx / 2) * scale), Math.floor((b.y0 + b.ny / 2) * scale)));
  const order = boxes.map((_, i) => i).sort((i, j) => keys[i] - keys[j] || i - j);
  let total = 0;
  for (const b of boxes) total += b.nx * b.ny;
  const share = total / ranks;
  const owner = new Int32Array(boxes.length);
  let before = 0;
  for (const i of order) {
    const cells = boxes[i].nx * boxes[i].ny;
    owner[i] = Math.min(ranks - 1, Math.floor((before + cells / 2) / share));
    before += cells;
  }
  return owner;
}

/**
 * Composite balancing, as GrACE partitions a SAMR hierarchy: every finer patch belongs to the
 * level-0 patch under its centre; level-0 patches, in Morton order, are cut into `ranks` runs of
 * about equal work, where a level-0 patch's work is its cells plus the cells of the finer patches
 * it carries, weighted by their substeps (2^level). A rank owns whole columns of the hierarchy:
 * little coarse-fine traffic and a balanced total, but each level alone may be unbalanced.
 * Returns the owners, level by level.
 */
function balanceComposite(levels: readonly (readonly Box[])[], ranks: number, width: number, height: number): Int32Array[] {
  const base = levels[0];
  const weight = new Float64Array(base.length);
  base.forEach((b, i) => (weight[i] = b.nx * b.ny));
  const grid = new BoxGrid(base);
  const parentOf = levels.map((boxes, l) =>
    Int32Array.from(boxes, (b, i) => {
      if (l === 0) return i;
      const scale = REFINEMENT ** l;
      const cx = (b.x0 + b.nx / 2) / scale;
      const cy = (b.y0 + b.ny / 2) / scale;
      for (const j of grid.near(Math.floor(cx), Math.floor(cy), Math.floor(cx) + 1, Math.floor(cy) + 1)) {
        const p = base[j];
        if (cx >= p.x0 && cx < p.x0 + p.nx && cy >= p.y0 && cy < p.y0 + p.ny) return j;
      }
      return 0;
    }),
  );
  levels.forEach((boxes, l) => {
    if (l > 0) boxes.forEach((b, i) => (weight[parentOf[l][i]] += b.nx * b.ny * REFINEMENT ** l));
  });
  const scale = 65535 / Math.max(width, height, 1);
  const keys = base.map((b) => morton(Math.floor((b.x0 + b.nx / 2) * scale), Math.floor((b.y0 + b.ny / 2) * scale)));
  const order = base.map((_, i) => i).sort((i, j) => keys[i] - keys[j] || i - j);
  let total = 0;
  for (const w of weight) total += w;
  const share = total / ranks;
  const baseOwner = new Int32Array(base.length);
  let before = 0;
  for (const i of order) {
    baseOwner[i] = Math.min(ranks - 1, Math.floor((before + weight[i] / 2) / share));
    before += weight[i];
  }
  return levels.map((_, l) => Int32Array.from(parentOf[l], (j) => baseOwner[j]));
}

/** Cells of the intersection of two boxes (0 when disjoint). */
function overlap(ax0: number, ay0: number, ax1: number, ay1: number, b: Box): number {
  const w = Math.min(ax1, b.x0 + b.nx) - Math.max(ax0, b.x0);
  if (w <= 0) return 0;
  const h = Math.min(ay1, b.y0 + b.ny) - Math.max(ay0, b.y0);
  return h <= 0 ? 0 : w * h;
}

/**
 * A uniform bucket grid over boxes, keyed by each box's lower corner, for finding the boxes that
 * overlap a region without testing every pair (levels of a 256-rank run hold thousands of patches).
 */
class BoxGrid {
  private readonly buckets = new Map<number, number[]>();
  private readonly size: number;
  private readonly reach: number;
  constructor(private readonly boxes: readonly Box[]) {
    let ext = 1;
    for (const b of boxes) ext = Math.max(ext, b.nx, b.ny);
    this.reach = ext;
    this.size = ext;
    boxes.forEach((b, i) => {
      const k = this.key(Math.floor(b.x0 / this.size), Math.floor(b.y0 / this.size));
      const list = this.buckets.get(k);
      if (list) list.push(i);
      else this.buckets.set(k, [i]);
    });
  }
  private key(bx: number, by: number): number {
    return bx * 1048576 + by;
  }
  /** Indices (ascending) of the boxes that may overlap [x0, x1) x [y0, y1). */
  near(x0: number, y0: number, x1: number, y1: number): number[] {
    const out: number[] = [];
    const bx0 = Math.floor((x0 - this.reach) / this.size);
    const bx1 = Math.floor((x1 - 1) / this.size);
    const by0 = Math.floor((y0 - this.reach) / this.size);
    const by1 = Math.floor((y1 - 1) / this.size);
    for (let bx = bx0; bx <= bx1; bx++)
      for (let by = by0; by <= by1; by++) {
        const list = this.buckets.get(this.key(bx, by));
        if (list) for (const i of list) out.push(i);
      }
    return out.sort((a, b) => a - b);
  }
}

/** Per-rank plans being filled. */
class PlanBuilder {
  readonly recv: Message[][];
  readonly send: Message[][];
  readonly local: Float64Array;
  constructor(ranks: number) {
    this.recv = Array.from({ length: ranks }, () => []);
    this.send = Array.from({ length: ranks }, () => []);
    this.local = new Float64Array(ranks);
  }
  add(from: number, to: number, tag: number, bytes: number): void {
    if (from === to) this.local[to] += bytes;
    else {
      this.send[from].push({ peer: to, tag, bytes });
      this.recv[to].push({ peer: from, tag, bytes });
    }
  }
  plans(): RankPlan[] {
    return this.recv.map((recv, r) => ({ recv, send: this.send[r], localCopyBytes: this.local[r] }));
  }
}

/**
 * Builds the hierarchy of regrid `epoch` (made at coarse step `step`) for `ranks` ranks. With
 * `previous`, the migration plan moves each patch's data from its old owners to its new one.
 * @param seed - the scenario seed; the tiling draws come from the stream `AMRMesh/hierarchy/epoch<k>`
 */
export function buildHierarchy(spec: MeshSpec, ranks: number, seed: string | number, epoch: number, step: number, previous?: Hierarchy): Hierarchy {
  const rng = new RandomStream(seed, `AMRMesh/hierarchy/epoch${epoch}`);
  const bytesPerCell = spec.variables * DOUBLE;
  const w = spec.haloWidth;
  const levels: LevelLayout[] = [];
  const migration = new PlanBuilder(ranks);
  const tiles = Array.from({ length: spec.levels }, (_, level) => tileLevel(spec, level, step, rng));
  const composite = spec.balancer === "composite" ? balanceComposite(tiles, ranks, spec.width, spec.height) : undefined;
  for (let level = 0; level < spec.levels; level++) {
    const boxes = tiles[level];
    const scale = REFINEMENT ** level;
    const owner = composite
      ? composite[level]
      : spec.balancer === "greedy"
        ? balanceGreedy(boxes, ranks)
        : balanceSfc(boxes, ranks, spec.width * scale, spec.height * scale);
    const ghost = new PlanBuilder(ranks);
    const filled = new Float64Array(boxes.length);
    // Ghost cells of A that lie in B come from B's owner: one message per ordered pair of abutting patches.
    const grid = new BoxGrid(boxes);
    let k = 0;
    const tagBase = level * LEVEL_TAG_SPAN;
    const pairs: Array<[number, number, number]> = [];
    boxes.forEach((a, i) => {
      for (const j of grid.near(a.x0 - w, a.y0 - w, a.x0 + a.nx + w, a.y0 + a.ny + w)) {
        if (j <= i) continue;
        const b = boxes[j];
        const ab = overlap(a.x0 - w, a.y0 - w, a.x0 + a.nx + w, a.y0 + a.ny + w, b); // b's cells in a's halo
        if (ab === 0) continue; // the halo relation is symmetric
        pairs.push([j, i, ab]);
        pairs.push([i, j, overlap(b.x0 - w, b.y0 - w, b.x0 + b.nx + w, b.y0 + b.ny + w, a)]);
      }
    });
    pairs.sort((p, q) => p[1] - q[1] || p[0] - q[0]);
    for (const [from, to, cells] of pairs) {
      ghost.add(owner[from], owner[to], tagBase + (k++ % LEVEL_TAG_SPAN), cells * bytesPerCell);
      filled[to] += cells;
    }
    const patches: Patch[] = boxes.map((b, i) => ({
      id: i,
      level,
      x0: b.x0,
      y0: b.y0,
      nx: b.nx,
      ny: b.ny,
      owner: owner[i],
      cells: b.nx * b.ny,
      doubles: b.nx * b.ny * spec.variables,
      boundaryGhostCells: Math.max(0, (b.nx + 2 * w) * (b.ny + 2 * w) - b.nx * b.ny - filled[i]),
      field: { length: b.nx * b.ny * spec.variables, elementSize: DOUBLE, rowLength: b.nx * spec.variables },
    }));
    const local: Patch[][] = Array.from({ length: ranks }, () => []);
    for (const p of patches) local[p.owner].push(p);
    levels.push({ level, patches, local, ghost: ghost.plans() });

    if (previous && level < previous.levels.length) {
      // Data of the new patch comes from the old patches of the same level it overlaps.
      const old = previous.levels[level].patches;
      const oldGrid = new BoxGrid(old);
      let m = 0;
      const mBase = MIGRATION_TAG_BASE + level * LEVEL_TAG_SPAN;
      for (const p of patches) {
        for (const j of oldGrid.near(p.x0, p.y0, p.x0 + p.nx, p.y0 + p.ny)) {
          const o = old[j];
          const cells = overlap(o.x0, o.y0, o.x0 + o.nx, o.y0 + o.ny, p);
          if (cells > 0) migration.add(o.owner, p.owner, mBase + (m++ % LEVEL_TAG_SPAN), cells * bytesPerCell);
        }
      }
    }
  }
  return { epoch, step, levels, migration: migration.plans() };
}

/** Summary numbers of a hierarchy, for documentation and tests. */
export function hierarchyStats(h: Hierarchy): Array<{ level: number; patches: number; cells: number; minDoubles: number; maxDoubles: number; imbalance: number; messages: number }> {
  return h.levels.map((l) => {
    const perRank = l.local.map((ps) => ps.reduce((s, p) => s + p.cells, 0));
    const cells = perRank.reduce((a, b) => a + b, 0);
    const mean = cells / perRank.length;
    return {
      level: l.level,
      patches: l.patches.length,
      cells,
      minDoubles: Math.min(...l.patches.map((p) => p.doubles)),
      maxDoubles: Math.max(...l.patches.map((p) => p.doubles)),
      imbalance: mean > 0 ? Math.max(...perRank) / mean : 1,
      messages: l.ghost.reduce((s, g) => s + g.send.length, 0),
    };
  });
}
