import type { TimerTable } from "./timer-table.js";

const ROOT = 0;
/** Children of one node scanned linearly; beyond this many, a Map finds them. */
const WIDE = 16;

// Region header: nodes in use, node capacity (read only when a node is added; what every start
// and stop reads is kept per rank in arrays apart, see ProfileArena).
const H_NODES = 0;
const H_NODES_CAP = 1;
const HEADER = 2;
/** Timers (the first ids, usually the components') whose last callpath node a rank remembers. */
const HINTS = 6;
// Frame record (a running timer): node, timer, timers started inside so far, m start values, then
// m values of finished children.
const F_NODE = 0;
const F_TIMER = 1;
const F_SUBRS = 2;
const F_START = 3;
// Node values: calls, subroutine calls, m inclusive and m exclusive values.
const N_CALLS = 0;
const N_SUBRS = 1;
const N_INCL = 2;
// Node links, kept apart from the values: parent, timer, first child, next sibling, last child,
// child count.
const L_PARENT = 0;
const L_TIMER = 1;
const L_FIRST = 2;
const L_NEXT = 3;
const L_LAST = 4;
const L_COUNT = 5;
const LINKS = 6;

/**
 * The measurements of every rank of a run in one typed array: per rank a region holding a small
 * header, the stack of running timers (frames) and the callpath tree: the values of every node
 * (calls, subroutine calls, inclusive/exclusive values of every metric), then the links of every
 * node (exact small integers).
 *
 * Why one array: every component invocation starts and stops a timer, with a thousand ranks taking
 * turns, so each separate object or array a start touches is one more cache miss. Here a start
 * touches the rank's top frames (adjacent), a stop those and one node's values. The links sit
 * apart from the values because only a start that misses its remembered node reads them: a rank's
 * hot lines are its frames and node values (a third fewer lines than with links inline, and a
 * thousand ranks' regions must share the caches with the rest of the run).
 *
 * Why the stack depth, frame capacity and remembered nodes of every rank sit in arrays of their
 * own, indexed by rank: every start and stop reads them first, and the frame and node it then
 * touches are found from them. In a region they were one more cold line per start and stop that
 * the others had to wait for; in arrays by rank, the ranks that take turns at one simulated
 * instant (in rank order, in SCMD runs) read neighbouring entries of lines that stay cached.
 *
 * Calls and subroutine calls are counted in the running frames and added to the nodes when the
 * frames stop; the accessors add the running ones, so readers see the counts TAU would. For its
 * first few timer ids a rank remembers the callpath node each last started at and under which
 * parent: started again under the same parent, the timer reuses the node without reading the tree.
 *
 * A region that fills up moves to the end of the array with double the room; the array grows by
 * doubling.
 */
export class ProfileArena {
  /** Number of metrics (values per node and frame). */
  readonly m: number;
  private readonly frameSize: number;
  /** Doubles of one node's values. */
  private readonly nodeSize: number;
  private data: Float64Array;
  private top = 0; // first free slot
  /** Start of each rank's region. */
  private readonly region: Int32Array;
  /** Running-timer stack depth, by rank. */
  private readonly depthOf: Int32Array;
  /** Frames each rank's region holds, by rank. */
  private readonly framesCap: Int32Array;
  /** By `timer * ranks + rank` for timers below HINTS: the parent and the node the timer last started at. */
  private readonly hintParent: Int32Array;
  private readonly hintNode: Int32Array;
  private readonly ranks: number;
  // Nodes with more than WIDE children also get a Map (program models may have many elements), per rank.
  private readonly wide: (Map<number, Map<number, number>> | undefined)[];

  /**
   * @param ranks - number of ranks
   * @param metrics - number of metrics
   */
  constructor(ranks: number, metrics: number) {
    this.m = metrics;
    this.frameSize = F_START + 2 * metrics;
    this.nodeSize = N_INCL + 2 * metrics;
    this.region = new Int32Array(ranks);
    this.ranks = ranks;
    this.depthOf = new Int32Array(ranks);
    this.framesCap = new Int32Array(ranks);
    this.hintParent = new Int32Array(HINTS * ranks).fill(-1);
    this.hintNode = new Int32Array(HINTS * ranks);
    this.wide = new Array(ranks).fill(undefined);
    const frames = 8;
    const nodes = 8;
    this.data = new Float64Array(Math.max(1024, ranks * this.regionSize(frames, nodes)));
    for (let r = 0; r < ranks; r++) {
      const b = this.allocate(this.regionSize(frames, nodes));
      this.region[r] = b;
      this.framesCap[r] = frames;
      this.data[b + H_NODES] = 1; // node 0: the virtual root above `.TAU application`
      this.data[b + H_NODES_CAP] = nodes;
      this.initLinks(r, b, 0, nodes);
    }
  }

  /** Running-timer stack depth of `rank`. */
  depth(rank: number): number {
    return this.depthOf[rank];
  }

  /** Callpath nodes in use on `rank` (node 0 is the virtual root). */
  nodeCount(rank: number): number {
    return this.data[this.region[rank] + H_NODES];
  }

  /** Parent node of `node` (-1 for the root). */
  parentOf(rank: number, node: number): number {
    return this.data[this.link(rank, node) + L_PARENT];
  }

  /** Timer id of `node` (-1 for the root). */
  timerOf(rank: number, node: number): number {
    return this.data[this.link(rank, node) + L_TIMER];
  }

  /** Calls of `node`'s timer along this callpath (running ones included). */
  callsOf(rank: number, node: number): number {
    let calls = this.data[this.node(rank, node) + N_CALLS];
    const b = this.region[rank];
    for (let d = 0; d < this.depthOf[rank]; d++) if (this.data[b + HEADER + d * this.frameSize + F_NODE] === node) calls++;
    return calls;
  }

  /** Subroutine calls (timers started directly inside) of `node`, running activations included. */
  subroutinesOf(rank: number, node: number): number {
    let subrs = this.data[this.node(rank, node) + N_SUBRS];
    const b = this.region[rank];
    for (let d = 0; d < this.depthOf[rank]; d++) {
      const f = b + HEADER + d * this.frameSize;
      if (this.data[f + F_NODE] === node) subrs += this.data[f + F_SUBRS];
    }
    return subrs;
  }

  /** Inclusive value of metric k at callpath node `node` (completed calls). */
  inclusive(rank: number, node: number, k: number): number {
    return this.data[this.node(rank, node) + N_INCL + k];
  }

  /** Exclusive value of metric k at callpath node `node` (completed calls). */
  exclusive(rank: number, node: number, k: number): number {
    return this.data[this.node(rank, node) + N_INCL + this.m + k];
  }

  /** Timer id of the running frame at `depth` (0 = outermost). */
  frameTimer(rank: number, depth: number): number {
    return this.data[this.region[rank] + HEADER + depth * this.frameSize + F_TIMER];
  }

  /** Metric values recorded when the frame at `depth` started (a view). */
  frameStart(rank: number, depth: number): Float64Array {
    const f = this.region[rank] + HEADER + depth * this.frameSize + F_START;
    return this.data.subarray(f, f + this.m);
  }

  /** Starts `timer` on `rank` with the current metric values `now` (length m). */
  start(rank: number, timer: number, now: Float64Array): void {
    let b = this.region[rank];
    let a = this.data;
    const d = this.depthOf[rank];
    if (d === this.framesCap[rank]) {
      b = this.relocate(rank, 2 * d, a[b + H_NODES_CAP]);
      a = this.data;
    }
    const fs = this.frameSize;
    const fb = b + HEADER + d * fs;
    let parentNode = ROOT;
    if (d > 0) {
      parentNode = a[fb - fs + F_NODE];
      a[fb - fs + F_SUBRS]++;
    }
    let node: number;
    const h = timer * this.ranks + rank;
    if (timer < HINTS && this.hintParent[h] === parentNode) node = this.hintNode[h];
    else {
      node = this.child(rank, parentNode, timer);
      b = this.region[rank]; // adding a node may have moved the region
      a = this.data;
      if (timer < HINTS) {
        this.hintParent[h] = parentNode;
        this.hintNode[h] = node;
      }
    }
    const f = b + HEADER + d * fs;
    a[f + F_NODE] = node;
    a[f + F_TIMER] = timer;
    a[f + F_SUBRS] = 0;
    const m = this.m;
    for (let k = 0; k < m; k++) {
      a[f + F_START + k] = now[k];
      a[f + F_START + m + k] = 0;
    }
    this.depthOf[rank] = d + 1;
  }

  /**
   * Stops `timer` on `rank` with the current metric values. A stop that does not match the
   * innermost running timer is an overlap: it is reported through `warn` and the timers above it
   * are stopped first, as they would have had to be; a stop of a timer that is not running is
   * reported and ignored.
   */
  stop(rank: number, timer: number, now: Float64Array, names: TimerTable, warn: (message: string) => void): void {
    const b = this.region[rank];
    const a = this.data;
    const fs = this.frameSize;
    let d = this.depthOf[rank] - 1;
    if (d < 0 || a[b + HEADER + d * fs + F_TIMER] !== timer) {
      let k = d;
      while (k >= 0 && a[b + HEADER + k * fs + F_TIMER] !== timer) k--;
      if (k < 0) {
        warn(`stop of timer '${names.names[timer]}' which is not running`);
        return;
      }
      warn(`overlapping timers: '${names.names[timer]}' stopped while '${names.names[a[b + HEADER + d * fs + F_TIMER]]}' was running inside it`);
      while (d > k) {
        this.popFrame(rank, now, a[b + HEADER + d * fs + F_TIMER]);
        d--;
      }
    }
    this.popFrame(rank, now, timer);
  }

  /** Stops the innermost frame (of `timer`) of `rank`. */
  private popFrame(rank: number, now: Float64Array, timer: number): void {
    const a = this.data;
    const b = this.region[rank];
    const d = --this.depthOf[rank];
    const fs = this.frameSize;
    const fb = b + HEADER + d * fs;
    const m = this.m;
    const pc = fb - fs + F_START + m; // the parent frame's children values
    const nodes = b + HEADER + this.framesCap[rank] * fs;
    // Why the hint: the node's values are usually a cold cache line, and so is the frame that
    // names the node. The node this timer last started at is almost always the frame's; taking
    // its offset from the (cached) hints, with a check that is predicted to pass, lets the
    // processor fetch the node's line together with the frame's instead of after it.
    const hinted = timer < HINTS ? this.hintNode[timer * this.ranks + rank] : -1;
    let nb = nodes + hinted * this.nodeSize;
    if (a[fb + F_NODE] !== hinted) nb = nodes + a[fb + F_NODE] * this.nodeSize;
    a[nb + N_CALLS]++;
    a[nb + N_SUBRS] += a[fb + F_SUBRS];
    for (let k = 0; k < m; k++) {
      const delta = now[k] - a[fb + F_START + k];
      a[nb + N_INCL + k] += delta;
      a[nb + N_INCL + m + k] += delta - a[fb + F_START + m + k];
      if (d > 0) a[pc + k] += delta;
    }
  }

  /** Offset of `node`'s values of `rank`. */
  private node(rank: number, node: number): number {
    return this.region[rank] + HEADER + this.framesCap[rank] * this.frameSize + node * this.nodeSize;
  }

  /** Offset of the links of node 0 of `rank`, whose region is at `b` (node n's are LINKS * n further). */
  private links0(rank: number, b: number): number {
    return b + HEADER + this.framesCap[rank] * this.frameSize + this.data[b + H_NODES_CAP] * this.nodeSize;
  }

  /** Offset of `node`'s links of `rank`. */
  private link(rank: number, node: number): number {
    return this.links0(rank, this.region[rank]) + node * LINKS;
  }

  /** The callpath node for `timer` under `parent`, created on first use. */
  private child(rank: number, parent: number, timer: number): number {
    const a = this.data;
    const l0 = this.link(rank, 0);
    const pl = l0 + parent * LINKS;
    const wide = a[pl + L_COUNT] > WIDE ? this.wide[rank]!.get(parent)! : undefined;
    if (wide !== undefined) {
      const found = wide.get(timer);
      if (found !== undefined) return found;
    } else {
      for (let n = a[pl + L_FIRST]; n >= 0; n = a[l0 + n * LINKS + L_NEXT]) if (a[l0 + n * LINKS + L_TIMER] === timer) return n;
    }
    return this.addNode(rank, parent, timer, wide);
  }

  private addNode(rank: number, parent: number, timer: number, wide: Map<number, number> | undefined): number {
    let b = this.region[rank];
    const node = this.data[b + H_NODES];
    if (node === this.data[b + H_NODES_CAP]) b = this.relocate(rank, this.framesCap[rank], 2 * node);
    const a = this.data;
    a[b + H_NODES] = node + 1;
    const l0 = this.links0(rank, b);
    const nl = l0 + node * LINKS;
    const pl = l0 + parent * LINKS;
    a[nl + L_PARENT] = parent;
    a[nl + L_TIMER] = timer;
    const last = a[pl + L_LAST];
    if (last < 0) a[pl + L_FIRST] = node;
    else a[l0 + last * LINKS + L_NEXT] = node;
    a[pl + L_LAST] = node;
    const count = ++a[pl + L_COUNT];
    if (wide !== undefined) wide.set(timer, node);
    else if (count > WIDE) {
      const map = new Map<number, number>();
      for (let n = a[pl + L_FIRST]; n >= 0; n = a[l0 + n * LINKS + L_NEXT]) map.set(a[l0 + n * LINKS + L_TIMER], n);
      (this.wide[rank] ??= new Map()).set(parent, map);
    }
    return node;
  }

  private regionSize(frames: number, nodes: number): number {
    return HEADER + frames * this.frameSize + nodes * (this.nodeSize + LINKS);
  }

  /** Reserves `size` slots at the end of the array, growing it if needed; returns their offset. */
  private allocate(size: number): number {
    if (this.top + size > this.data.length) {
      const grown = new Float64Array(Math.max(2 * this.data.length, this.top + size));
      grown.set(this.data.subarray(0, this.top));
      this.data = grown;
    }
    const at = this.top;
    this.top += size;
    return at;
  }

  /** Moves `rank`'s region to the end with room for `frames` frames and `nodes` nodes; returns its new offset. */
  private relocate(rank: number, frames: number, nodes: number): number {
    const nb = this.allocate(this.regionSize(frames, nodes));
    const a = this.data;
    const ob = this.region[rank];
    const oldFrames = this.framesCap[rank];
    const oldNodes = a[ob + H_NODES_CAP];
    a.copyWithin(nb, ob, ob + HEADER + oldFrames * this.frameSize);
    const oldN0 = ob + HEADER + oldFrames * this.frameSize;
    const newN0 = nb + HEADER + frames * this.frameSize;
    a.copyWithin(newN0, oldN0, oldN0 + oldNodes * this.nodeSize);
    const oldL0 = oldN0 + oldNodes * this.nodeSize;
    a.copyWithin(newN0 + nodes * this.nodeSize, oldL0, oldL0 + oldNodes * LINKS);
    this.framesCap[rank] = frames;
    a[nb + H_NODES_CAP] = nodes;
    this.region[rank] = nb;
    this.initLinks(rank, nb, oldNodes, nodes);
    return nb;
  }

  /** Marks nodes `from..to-1` of `rank`'s region (at `b`) as unlinked. */
  private initLinks(rank: number, b: number, from: number, to: number): void {
    const a = this.data;
    const l0 = this.links0(rank, b);
    for (let n = from; n < to; n++) {
      const nl = l0 + n * LINKS;
      a[nl + L_PARENT] = -1;
      a[nl + L_TIMER] = -1;
      a[nl + L_FIRST] = -1;
      a[nl + L_NEXT] = -1;
      a[nl + L_LAST] = -1;
    }
  }
}
