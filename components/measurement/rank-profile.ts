import type { TimerTable } from "./timer-table.js";

const ROOT = 0;

/**
 * The measurements of one rank (one TAU thread): a callpath tree whose nodes carry calls,
 * subroutine calls, and inclusive/exclusive values of every metric, plus the stack of running
 * timers. Storage is data-oriented (typed arrays grown by doubling) because every component
 * invocation and MPI call starts and stops a timer.
 */
export class RankProfile {
  /** Number of metrics (values per node). */
  readonly m: number;
  /** Callpath nodes in use (node 0 is the virtual root above `.TAU application`). */
  nodeCount = 1;
  parent: Int32Array;
  timer: Int32Array;
  calls: Float64Array;
  subrs: Float64Array;
  incl: Float64Array; // nodeCount x m
  excl: Float64Array; // nodeCount x m
  private readonly children: Array<Map<number, number> | undefined> = [undefined];

  /** Running-timer stack. */
  depth = 0;
  private stackNode: Int32Array;
  private stackTimer: Int32Array;
  private stackStart: Float64Array; // depth x m
  private stackChild: Float64Array; // depth x m

  /** Overlapping or unmatched stops found on this rank (TAU warns about them; so do we). */
  readonly warnings: string[] = [];

  constructor(metrics: number) {
    this.m = metrics;
    const cap = 64;
    this.parent = new Int32Array(cap).fill(-1);
    this.timer = new Int32Array(cap).fill(-1);
    this.calls = new Float64Array(cap);
    this.subrs = new Float64Array(cap);
    this.incl = new Float64Array(cap * metrics);
    this.excl = new Float64Array(cap * metrics);
    this.stackNode = new Int32Array(32);
    this.stackTimer = new Int32Array(32);
    this.stackStart = new Float64Array(32 * metrics);
    this.stackChild = new Float64Array(32 * metrics);
  }

  /** The callpath node for `timer` under `parent`, created on first use. */
  private child(parent: number, timer: number): number {
    let map = this.children[parent];
    if (map === undefined) this.children[parent] = map = new Map();
    let node = map.get(timer);
    if (node === undefined) {
      node = this.nodeCount++;
      if (node === this.parent.length) this.growNodes();
      this.parent[node] = parent;
      this.timer[node] = timer;
      this.children.push(undefined);
      map.set(timer, node);
    }
    return node;
  }

  /** Starts `timer` with the current metric values `now` (length m). */
  start(timer: number, now: Float64Array): void {
    const d = this.depth;
    const parentNode = d === 0 ? ROOT : this.stackNode[d - 1];
    const node = this.child(parentNode, timer);
    if (d === this.stackNode.length) this.growStack();
    this.stackNode[d] = node;
    this.stackTimer[d] = timer;
    const m = this.m;
    const base = d * m;
    for (let k = 0; k < m; k++) {
      this.stackStart[base + k] = now[k];
      this.stackChild[base + k] = 0;
    }
    this.calls[node]++;
    if (parentNode !== ROOT) this.subrs[parentNode]++;
    this.depth = d + 1;
  }

  /**
   * Stops `timer` with the current metric values. A stop that does not match the innermost running
   * timer is an overlap: it is recorded as a warning and the timers above it are stopped first,
   * as they would have had to be; a stop of a timer that is not running is recorded and ignored.
   */
  stop(timer: number, now: Float64Array, names: TimerTable): void {
    let d = this.depth - 1;
    if (d < 0 || this.stackTimer[d] !== timer) {
      let k = d;
      while (k >= 0 && this.stackTimer[k] !== timer) k--;
      if (k < 0) {
        this.warnings.push(`stop of timer '${names.names[timer]}' which is not running`);
        return;
      }
      this.warnings.push(
        `overlapping timers: '${names.names[timer]}' stopped while '${names.names[this.stackTimer[d]]}' was running inside it`,
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
    const node = this.stackNode[d];
    const m = this.m;
    const base = d * m;
    const nb = node * m;
    const pb = (d - 1) * m;
    for (let k = 0; k < m; k++) {
      const delta = now[k] - this.stackStart[base + k];
      this.incl[nb + k] += delta;
      this.excl[nb + k] += delta - this.stackChild[base + k];
      if (d > 0) this.stackChild[pb + k] += delta;
    }
  }

  /** Names of running timers, outermost first. */
  activeTimers(): number[] {
    return Array.from(this.stackTimer.subarray(0, this.depth));
  }

  /** Metric values recorded when the frame at `depth` started. */
  frameStart(depth: number): Float64Array {
    return this.stackStart.subarray(depth * this.m, (depth + 1) * this.m);
  }

  /** Path of timer ids from the top to `node`. */
  path(node: number): number[] {
    const out: number[] = [];
    for (let n = node; n !== ROOT; n = this.parent[n]) out.push(this.timer[n]);
    return out.reverse();
  }

  /** Inclusive value of metric k at callpath node `node`, counting the running part if the timer is active. */
  inclusive(node: number, k: number): number {
    return this.incl[node * this.m + k];
  }

  private growNodes(): void {
    const cap = this.parent.length * 2;
    const grow = <T extends Int32Array | Float64Array>(a: T, n: number, fill?: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      if (fill !== undefined) b.fill(fill);
      b.set(a);
      return b;
    };
    this.parent = grow(this.parent, cap, -1);
    this.timer = grow(this.timer, cap, -1);
    this.calls = grow(this.calls, cap);
    this.subrs = grow(this.subrs, cap);
    this.incl = grow(this.incl, cap * this.m);
    this.excl = grow(this.excl, cap * this.m);
  }

  private growStack(): void {
    const cap = this.stackNode.length * 2;
    const n = new Int32Array(cap);
    n.set(this.stackNode);
    this.stackNode = n;
    const t = new Int32Array(cap);
    t.set(this.stackTimer);
    this.stackTimer = t;
    const s = new Float64Array(cap * this.m);
    s.set(this.stackStart);
    this.stackStart = s;
    const c = new Float64Array(cap * this.m);
    c.set(this.stackChild);
    this.stackChild = c;
  }
}
