import type { TimerTable } from "./timer-table.js";

const ROOT = 0;
/** Children of one node scanned linearly; beyond this many, a Map finds them. */
const WIDE = 16;

// Node ints: parent, timer, first child, next sibling, last child, child count.
const N_PARENT = 0;
const N_TIMER = 1;
const N_FIRST = 2;
const N_NEXT = 3;
const N_LAST = 4;
const N_COUNT = 5;
const NODE_INTS = 6;
// Node floats: calls, subroutine calls, then m inclusive and m exclusive values.
const N_CALLS = 0;
const N_SUBRS = 1;
const N_INCL = 2;
// Frame ints: node, timer. Frame floats: m start values, then m values of finished children.
const FRAME_INTS = 2;

/**
 * The measurements of one rank (one TAU thread): a callpath tree whose nodes carry calls,
 * subroutine calls, and inclusive/exclusive values of every metric, plus the stack of running
 * timers.
 *
 * Every component invocation and MPI call starts and stops a timer, on every rank in turn, so
 * storage is data-oriented and compact: each node's values sit side by side in one typed array
 * (and its links in another), as do each running frame's, so a start or stop touches a few cache
 * lines of the rank (typed arrays grown by doubling). Read values with the accessor methods.
 */
export class RankProfile {
  /** Number of metrics (values per node). */
  readonly m: number;
  /** Callpath nodes in use (node 0 is the virtual root above `.TAU application`). */
  nodeCount = 1;
  /** Running-timer stack depth. */
  depth = 0;
  /** Overlapping or unmatched stops found on this rank (TAU warns about them; so do we). */
  readonly warnings: string[] = [];

  private readonly nodeFloats: number;
  private nodeInt: Int32Array; // nodes x NODE_INTS
  private nodeNum: Float64Array; // nodes x (2 + 2m)
  private frameInt: Int32Array; // depth x FRAME_INTS
  private frameNum: Float64Array; // depth x 2m
  // Nodes with more than WIDE children also get a Map (program models may have many elements).
  private readonly wideChildren = new Map<number, Map<number, number>>();

  constructor(metrics: number) {
    this.m = metrics;
    this.nodeFloats = 2 + 2 * metrics;
    const nodes = 16;
    this.nodeInt = new Int32Array(nodes * NODE_INTS);
    this.nodeNum = new Float64Array(nodes * this.nodeFloats);
    this.initLinks(0, nodes);
    const frames = 16;
    this.frameInt = new Int32Array(frames * FRAME_INTS);
    this.frameNum = new Float64Array(frames * 2 * metrics);
  }

  /** Parent node of `node` (-1 for the root). */
  parentOf(node: number): number {
    return this.nodeInt[node * NODE_INTS + N_PARENT];
  }

  /** Timer id of `node` (-1 for the root). */
  timerOf(node: number): number {
    return this.nodeInt[node * NODE_INTS + N_TIMER];
  }

  /** Calls of `node`'s timer along this callpath. */
  callsOf(node: number): number {
    return this.nodeNum[node * this.nodeFloats + N_CALLS];
  }

  /** Subroutine calls (timers started directly inside) of `node`. */
  subroutinesOf(node: number): number {
    return this.nodeNum[node * this.nodeFloats + N_SUBRS];
  }

  /** Inclusive value of metric k at callpath node `node` (completed calls). */
  inclusive(node: number, k: number): number {
    return this.nodeNum[node * this.nodeFloats + N_INCL + k];
  }

  /** Exclusive value of metric k at callpath node `node` (completed calls). */
  exclusive(node: number, k: number): number {
    return this.nodeNum[node * this.nodeFloats + N_INCL + this.m + k];
  }

  /** The callpath node for `timer` under `parent`, created on first use. */
  private child(parent: number, timer: number): number {
    const links = this.nodeInt;
    const pb = parent * NODE_INTS;
    const wide = links[pb + N_COUNT] > WIDE ? this.wideChildren.get(parent)! : undefined;
    if (wide !== undefined) {
      const found = wide.get(timer);
      if (found !== undefined) return found;
    } else
      for (let n = links[pb + N_FIRST]; n >= 0; n = links[n * NODE_INTS + N_NEXT]) if (links[n * NODE_INTS + N_TIMER] === timer) return n;
    return this.addNode(parent, timer, wide);
  }

  private addNode(parent: number, timer: number, wide: Map<number, number> | undefined): number {
    const node = this.nodeCount++;
    if (node * NODE_INTS === this.nodeInt.length) this.growNodes();
    const links = this.nodeInt;
    const nb = node * NODE_INTS;
    const pb = parent * NODE_INTS;
    links[nb + N_PARENT] = parent;
    links[nb + N_TIMER] = timer;
    const last = links[pb + N_LAST];
    if (last < 0) links[pb + N_FIRST] = node;
    else links[last * NODE_INTS + N_NEXT] = node;
    links[pb + N_LAST] = node;
    const count = ++links[pb + N_COUNT];
    if (wide !== undefined) wide.set(timer, node);
    else if (count > WIDE) {
      const map = new Map<number, number>();
      for (let n = links[pb + N_FIRST]; n >= 0; n = links[n * NODE_INTS + N_NEXT]) map.set(links[n * NODE_INTS + N_TIMER], n);
      this.wideChildren.set(parent, map);
    }
    return node;
  }

  /** Starts `timer` with the current metric values `now` (length m). */
  start(timer: number, now: Float64Array): void {
    const d = this.depth;
    const parentNode = d === 0 ? ROOT : this.frameInt[(d - 1) * FRAME_INTS];
    const node = this.child(parentNode, timer);
    if (d * FRAME_INTS === this.frameInt.length) this.growStack();
    this.frameInt[d * FRAME_INTS] = node;
    this.frameInt[d * FRAME_INTS + 1] = timer;
    const m = this.m;
    const f = this.frameNum;
    const base = d * 2 * m;
    for (let k = 0; k < m; k++) {
      f[base + k] = now[k];
      f[base + m + k] = 0;
    }
    const nf = this.nodeFloats;
    this.nodeNum[node * nf + N_CALLS]++;
    if (parentNode !== ROOT) this.nodeNum[parentNode * nf + N_SUBRS]++;
    this.depth = d + 1;
  }

  /**
   * Stops `timer` with the current metric values. A stop that does not match the innermost running
   * timer is an overlap: it is recorded as a warning and the timers above it are stopped first,
   * as they would have had to be; a stop of a timer that is not running is recorded and ignored.
   */
  stop(timer: number, now: Float64Array, names: TimerTable): void {
    let d = this.depth - 1;
    if (d < 0 || this.frameInt[d * FRAME_INTS + 1] !== timer) {
      let k = d;
      while (k >= 0 && this.frameInt[k * FRAME_INTS + 1] !== timer) k--;
      if (k < 0) {
        this.warnings.push(`stop of timer '${names.names[timer]}' which is not running`);
        return;
      }
      this.warnings.push(
        `overlapping timers: '${names.names[timer]}' stopped while '${names.names[this.frameInt[d * FRAME_INTS + 1]]}' was running inside it`,
      );
      while (d > k) {
        this.popFrame(now);
        d--;
      }
    }
    this.popFrame(now);
  }

  private popFrame(now: Float64Array): void {
    const d = --this.depth;
    const node = this.frameInt[d * FRAME_INTS];
    const m = this.m;
    const f = this.frameNum;
    const base = d * 2 * m;
    const pb = (d - 1) * 2 * m + m; // the parent frame's children values
    const v = this.nodeNum;
    const nb = node * this.nodeFloats + N_INCL;
    for (let k = 0; k < m; k++) {
      const delta = now[k] - f[base + k];
      v[nb + k] += delta;
      v[nb + m + k] += delta - f[base + m + k];
      if (d > 0) f[pb + k] += delta;
    }
  }

  /** Timer ids of the running timers, outermost first. */
  activeTimers(): number[] {
    const out: number[] = [];
    for (let d = 0; d < this.depth; d++) out.push(this.frameInt[d * FRAME_INTS + 1]);
    return out;
  }

  /** Metric values recorded when the frame at `depth` started. */
  frameStart(depth: number): Float64Array {
    return this.frameNum.subarray(depth * 2 * this.m, depth * 2 * this.m + this.m);
  }

  /** Path of timer ids from the top to `node`. */
  path(node: number): number[] {
    const out: number[] = [];
    for (let n = node; n !== ROOT; n = this.parentOf(n)) out.push(this.timerOf(n));
    return out.reverse();
  }

  private initLinks(from: number, to: number): void {
    for (let n = from; n < to; n++) {
      const b = n * NODE_INTS;
      this.nodeInt[b + N_PARENT] = -1;
      this.nodeInt[b + N_TIMER] = -1;
      this.nodeInt[b + N_FIRST] = -1;
      this.nodeInt[b + N_NEXT] = -1;
      this.nodeInt[b + N_LAST] = -1;
    }
  }

  private growNodes(): void {
    const cap = this.nodeInt.length / NODE_INTS;
    const ints = new Int32Array(cap * 2 * NODE_INTS);
    ints.set(this.nodeInt);
    this.nodeInt = ints;
    this.initLinks(cap, cap * 2);
    const nums = new Float64Array(cap * 2 * this.nodeFloats);
    nums.set(this.nodeNum);
    this.nodeNum = nums;
  }

  private growStack(): void {
    const ints = new Int32Array(this.frameInt.length * 2);
    ints.set(this.frameInt);
    this.frameInt = ints;
    const nums = new Float64Array(this.frameNum.length * 2);
    nums.set(this.frameNum);
    this.frameNum = nums;
  }
}
