import { grown } from "../../profile/internal.js";
import type { TraceIntervals } from "../../profile/index.js";
import type { TimerTable } from "./timer-table.js";

const ROOT = 0;
/** Children of one node scanned linearly; beyond this many, a Map finds them. */
const WIDE = 16;
/** Timers (the first ids, usually the components') whose last callpath node a rank remembers. */
const HINTS = 6;
/** Frames and nodes per rank that the tables hold at first (both double when a rank needs more). */
const INITIAL_CAPACITY = 8;
// Frame record (a running timer): node, timer, timers started inside so far, m start values, then
// m values of finished children.
const F_NODE = 0;
const F_TIMER = 1;
const F_SUBRS = 2;
const F_START = 3;
/**
 * Relative size (to a metric's reading) below which an exclusive value is rounding: a difference
 * of readings is exact to about 1e-16 of them, and a call sums at most thousands.
 */
const ROUNDING = 1e-12;

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
 * The measurements of every rank of a run in a few flat tables: the stack of running timers
 * (frames) of every rank, and its callpath tree: the values of every node (calls, subroutine
 * calls, inclusive/exclusive values of every metric) and, apart, its links (exact small
 * integers). Node ids are per rank (node 0 is the virtual root above `.TAU application`).
 *
 * Why tables indexed by (depth or node, rank), rank fastest: every component invocation starts
 * and stops a timer, with a thousand ranks taking turns, and in SCMD runs the ranks take their
 * turns at one simulated instant in rank order, each doing what the previous one did. The frame
 * at depth d of rank r then sits next to that of rank r - 1, and node k of rank r next to node k
 * of rank r - 1 (the same callpath: ranks create their nodes in the same order), so the stream
 * of starts and stops walks through each table in address order, which the processor's
 * prefetchers can follow, instead of touching cold lines of one rank-private region after another
 * (it saves a few per cent of a 1024-rank run with measurement on). The stack depth and the
 * remembered nodes (below) are read first by every start and stop and sit in arrays by rank for
 * the same reason. The links sit apart from the values because only a start that misses its
 * remembered node reads them.
 *
 * Calls and subroutine calls are counted in the running frames and added to the nodes when the
 * frames stop; the accessors add the running ones, so readers see the counts TAU would. For its
 * first few timer ids a rank remembers the callpath node each last started at and under which
 * parent: started again under the same parent, the timer reuses the node without reading the tree.
 *
 * Capacities are shared by all ranks: when one rank needs a deeper stack or another node, the
 * table doubles for every rank (the layout keeps existing entries where they are, so growing is
 * one copy). A run whose ranks differ widely in callpath count pays the largest for all.
 */
export class ProfileArena {
  /** Number of metrics (values per node and frame). */
  readonly m: number;
  private readonly ranks: number;
  private readonly frameSize: number;
  /** Doubles of one node's values. */
  private readonly nodeSize: number;
  /** Frame (depth d, rank r) at `(d * ranks + r) * frameSize`. */
  private frames: Float64Array;
  private frameCap = INITIAL_CAPACITY;
  /** Values of node k of rank r at `(k * ranks + r) * nodeSize`. */
  private values: Float64Array;
  /** Links of node k of rank r at `(k * ranks + r) * LINKS`. */
  private links: Int32Array;
  private nodeCap = INITIAL_CAPACITY;
  /** Running-timer stack depth, by rank. */
  private readonly depthOf: Int32Array;
  /**
   * Where every call is opened and closed in metric 0 (the measurement's TIME), when a trace is
   * kept; null otherwise.
   */
  trace: TraceIntervals | null = null;
  /** Callpath nodes in use, by rank. */
  private readonly nodesOf: Int32Array;
  /** By `timer * ranks + rank` for timers below HINTS: the parent and the node the timer last started at. */
  private readonly hintParent: Int32Array;
  private readonly hintNode: Int32Array;
  // Nodes with more than WIDE children also get a Map (program models may have many elements), per rank.
  private readonly wide: (Map<number, Map<number, number>> | undefined)[];

  /**
   * @param ranks - number of ranks
   * @param metrics - number of metrics
   */
  constructor(ranks: number, metrics: number) {
    this.m = metrics;
    this.ranks = ranks;
    this.frameSize = F_START + 2 * metrics;
    this.nodeSize = N_INCL + 2 * metrics;
    this.frames = new Float64Array(INITIAL_CAPACITY * ranks * this.frameSize);
    this.values = new Float64Array(INITIAL_CAPACITY * ranks * this.nodeSize);
    this.links = new Int32Array(INITIAL_CAPACITY * ranks * LINKS).fill(-1);
    this.depthOf = new Int32Array(ranks);
    this.nodesOf = new Int32Array(ranks).fill(1); // node 0: the virtual root
    this.hintParent = new Int32Array(HINTS * ranks).fill(-1);
    this.hintNode = new Int32Array(HINTS * ranks);
    this.wide = new Array(ranks).fill(undefined);
    for (let r = 0; r < ranks; r++) this.links[r * LINKS + L_COUNT] = 0;
  }

  /** Running-timer stack depth of `rank`. */
  depth(rank: number): number {
    return this.depthOf[rank];
  }

  /** Callpath nodes in use on `rank` (node 0 is the virtual root). */
  nodeCount(rank: number): number {
    return this.nodesOf[rank];
  }

  /** Parent node of `node` (-1 for the root). */
  parentOf(rank: number, node: number): number {
    return this.links[this.link(rank, node) + L_PARENT];
  }

  /** Timer id of `node` (-1 for the root). */
  timerOf(rank: number, node: number): number {
    return this.links[this.link(rank, node) + L_TIMER];
  }

  /** Calls of `node`'s timer along this callpath (running ones included). */
  callsOf(rank: number, node: number): number {
    let calls = this.values[this.node(rank, node) + N_CALLS];
    for (let d = 0; d < this.depthOf[rank]; d++) if (this.frames[this.frame(rank, d) + F_NODE] === node) calls++;
    return calls;
  }

  /** Subroutine calls (timers started directly inside) of `node`, running activations included. */
  subroutinesOf(rank: number, node: number): number {
    let subrs = this.values[this.node(rank, node) + N_SUBRS];
    for (let d = 0; d < this.depthOf[rank]; d++) {
      const f = this.frame(rank, d);
      if (this.frames[f + F_NODE] === node) subrs += this.frames[f + F_SUBRS];
    }
    return subrs;
  }

  /** Inclusive value of metric k at callpath node `node` (completed calls). */
  inclusive(rank: number, node: number, k: number): number {
    return this.values[this.node(rank, node) + N_INCL + k];
  }

  /** Exclusive value of metric k at callpath node `node` (completed calls). */
  exclusive(rank: number, node: number, k: number): number {
    return this.values[this.node(rank, node) + N_INCL + this.m + k];
  }

  /** Timer id of the running frame at `depth` (0 = outermost). */
  frameTimer(rank: number, depth: number): number {
    return this.frames[this.frame(rank, depth) + F_TIMER];
  }

  /** Callpath node of the running frame at `depth` (0 = outermost). */
  frameNode(rank: number, depth: number): number {
    return this.frames[this.frame(rank, depth) + F_NODE];
  }

  /** Summed inclusive values of the finished children of the running frame at `depth` (a view, m values). */
  frameChildren(rank: number, depth: number): Float64Array {
    const f = this.frame(rank, depth) + F_START + this.m;
    return this.frames.subarray(f, f + this.m);
  }

  /** Metric values recorded when the frame at `depth` started (a view). */
  frameStart(rank: number, depth: number): Float64Array {
    const f = this.frame(rank, depth) + F_START;
    return this.frames.subarray(f, f + this.m);
  }

  /** Starts `timer` on `rank` with the current metric values `now` (length m). */
  start(rank: number, timer: number, now: Float64Array): void {
    const d = this.depthOf[rank];
    if (d === this.frameCap) this.growFrames();
    const a = this.frames;
    const fs = this.frameSize;
    // Frames of one rank are `ranks * fs` apart: the parent is one depth below.
    const f = (d * this.ranks + rank) * fs;
    const pf = f - this.ranks * fs;
    let parentNode = ROOT;
    if (d > 0) {
      parentNode = a[pf + F_NODE];
      a[pf + F_SUBRS]++;
    }
    let node: number;
    const h = timer * this.ranks + rank;
    if (timer < HINTS && this.hintParent[h] === parentNode) node = this.hintNode[h];
    else {
      node = this.child(rank, parentNode, timer);
      if (timer < HINTS) {
        this.hintParent[h] = parentNode;
        this.hintNode[h] = node;
      }
    }
    a[f + F_NODE] = node;
    a[f + F_TIMER] = timer;
    a[f + F_SUBRS] = 0;
    const m = this.m;
    for (let k = 0; k < m; k++) {
      a[f + F_START + k] = now[k];
      a[f + F_START + m + k] = 0;
    }
    this.depthOf[rank] = d + 1;
    if (this.trace !== null) this.trace.open(rank, now[0]);
  }

  /**
   * Stops `timer` on `rank` with the current metric values. A stop that does not match the
   * innermost running timer is an overlap: it is reported through `warn` and the timers above it
   * are stopped first, as they would have had to be; a stop of a timer that is not running is
   * reported and ignored.
   */
  stop(rank: number, timer: number, now: Float64Array, names: TimerTable, warn: (message: string) => void): void {
    const a = this.frames;
    let d = this.depthOf[rank] - 1;
    if (d < 0 || a[this.frame(rank, d) + F_TIMER] !== timer) {
      let k = d;
      while (k >= 0 && a[this.frame(rank, k) + F_TIMER] !== timer) k--;
      if (k < 0) {
        warn(`stop of timer '${names.names[timer]}' which is not running`);
        return;
      }
      warn(`overlapping timers: '${names.names[timer]}' stopped while '${names.names[a[this.frame(rank, d) + F_TIMER]]}' was running inside it`);
      while (d > k) {
        this.popFrame(rank, now, a[this.frame(rank, d) + F_TIMER]);
        d--;
      }
    }
    this.popFrame(rank, now, timer);
  }

  /** Stops the innermost frame (of `timer`) of `rank`. */
  private popFrame(rank: number, now: Float64Array, timer: number): void {
    const a = this.frames;
    const v = this.values;
    const d = --this.depthOf[rank];
    const fs = this.frameSize;
    const f = (d * this.ranks + rank) * fs;
    const m = this.m;
    const pc = f - this.ranks * fs + F_START + m; // the parent frame's children values
    // Why the hint: the node's values may be a cold cache line, and so may the frame that names
    // the node. The node this timer last started at is almost always the frame's; taking it
    // from the (cached) hints, with a check that is predicted to pass, lets the processor fetch
    // the node's line together with the frame's instead of after it.
    const hinted = timer < HINTS ? this.hintNode[timer * this.ranks + rank] : -1;
    let nb = this.node(rank, hinted);
    if (a[f + F_NODE] !== hinted) nb = this.node(rank, a[f + F_NODE]);
    v[nb + N_CALLS]++;
    v[nb + N_SUBRS] += a[f + F_SUBRS];
    if (this.trace !== null) this.trace.close(rank, timer, now[0]);
    for (let k = 0; k < m; k++) {
      const delta = now[k] - a[f + F_START + k];
      v[nb + N_INCL + k] += delta;
      // Children nest inside their parent, so for a counter or a clock its exclusive part is never
      // below 0; computed as a difference of large readings (cycles since the start), it rounds
      // to a hair either side of 0 when the children fill the whole call (a routine that only
      // calls others would show 1.5e-16 ms or 4.7e-10 cycles of its own). Only such rounding
      // (within 1e-12 of the reading, which is at least the call's inclusive value) is taken for
      // 0: a metric that can fall keeps its negative part, NaN stays NaN.
      const exclusive = delta - a[f + F_START + m + k];
      v[nb + N_INCL + m + k] += Math.abs(exclusive) < ROUNDING * Math.abs(now[k]) ? 0 : exclusive;
      if (d > 0) a[pc + k] += delta;
    }
  }

  /** Offset of `rank`'s frame at `depth`. */
  private frame(rank: number, depth: number): number {
    return (depth * this.ranks + rank) * this.frameSize;
  }

  /** Offset of `node`'s values of `rank`. */
  private node(rank: number, node: number): number {
    return (node * this.ranks + rank) * this.nodeSize;
  }

  /** Offset of `node`'s links of `rank`. */
  private link(rank: number, node: number): number {
    return (node * this.ranks + rank) * LINKS;
  }

  /** The callpath node for `timer` under `parent`, created on first use. */
  private child(rank: number, parent: number, timer: number): number {
    const l = this.links;
    const pl = this.link(rank, parent);
    const wide = l[pl + L_COUNT] > WIDE ? this.wide[rank]!.get(parent)! : undefined;
    if (wide !== undefined) {
      const found = wide.get(timer);
      if (found !== undefined) return found;
    } else {
      for (let n = l[pl + L_FIRST]; n >= 0; n = l[this.link(rank, n) + L_NEXT]) if (l[this.link(rank, n) + L_TIMER] === timer) return n;
    }
    return this.addNode(rank, parent, timer, wide);
  }

  private addNode(rank: number, parent: number, timer: number, wide: Map<number, number> | undefined): number {
    const node = this.nodesOf[rank];
    if (node === this.nodeCap) this.growNodes();
    this.nodesOf[rank] = node + 1;
    const l = this.links;
    const nl = this.link(rank, node);
    const pl = this.link(rank, parent);
    l[nl + L_PARENT] = parent;
    l[nl + L_TIMER] = timer;
    l[nl + L_COUNT] = 0;
    const last = l[pl + L_LAST];
    if (last < 0) l[pl + L_FIRST] = node;
    else l[this.link(rank, last) + L_NEXT] = node;
    l[pl + L_LAST] = node;
    const count = ++l[pl + L_COUNT];
    if (wide !== undefined) wide.set(timer, node);
    else if (count > WIDE) {
      const map = new Map<number, number>();
      for (let n = l[pl + L_FIRST]; n >= 0; n = l[this.link(rank, n) + L_NEXT]) map.set(l[this.link(rank, n) + L_TIMER], n);
      (this.wide[rank] ??= new Map()).set(parent, map);
    }
    return node;
  }

  /** Doubles the stack depth every rank has room for (depth-major: existing frames stay put). */
  private growFrames(): void {
    this.frameCap *= 2;
    this.frames = grown(this.frames, this.frameCap * this.ranks * this.frameSize);
  }

  /** Doubles the nodes every rank has room for (node-major: existing nodes stay put). */
  private growNodes(): void {
    this.nodeCap *= 2;
    this.values = grown(this.values, this.nodeCap * this.ranks * this.nodeSize);
    this.links = grown(this.links, this.nodeCap * this.ranks * LINKS, -1);
  }
}
