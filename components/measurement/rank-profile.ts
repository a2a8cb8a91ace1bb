import type { ProfileArena } from "./profile-arena.js";

/**
 * Warnings a rank keeps. Why a bound: a component that mis-nests its timers does so on every
 * call, and millions of identical messages would fill memory and the run's summary.
 */
const MAX_WARNINGS = 100;

/**
 * The measurements of one rank (one TAU thread), as a view into the run's {@link ProfileArena}: a
 * callpath tree whose nodes carry calls, subroutine calls, and inclusive/exclusive values of every
 * metric, plus the stack of running timers. Node 0 is the virtual root above `.TAU application`.
 */
export class RankProfile {
  private readonly kept: string[] = [];
  private dropped = 0;

  /**
   * @param arena - the run's profile storage
   * @param rank - the rank this view reads
   */
  constructor(
    private readonly arena: ProfileArena,
    readonly rank: number,
  ) {}

  /** Records a warning (kept among the first {@link MAX_WARNINGS}, else counted). */
  warn(message: string): void {
    if (this.kept.length < MAX_WARNINGS) this.kept.push(message);
    else this.dropped++;
  }

  /** Overlapping or unmatched stops found on this rank (TAU warns about them; so do we), the first {@link MAX_WARNINGS}. */
  get warnings(): readonly string[] {
    return this.kept;
  }

  /** Warnings beyond the first {@link MAX_WARNINGS}, counted rather than kept. */
  get warningsDropped(): number {
    return this.dropped;
  }

  /** Number of metrics (values per node). */
  get m(): number {
    return this.arena.m;
  }

  /** Callpath nodes in use (node 0 is the virtual root above `.TAU application`). */
  get nodeCount(): number {
    return this.arena.nodeCount(this.rank);
  }

  /** Running-timer stack depth. */
  get depth(): number {
    return this.arena.depth(this.rank);
  }

  /** Parent node of `node` (-1 for the root). */
  parentOf(node: number): number {
    return this.arena.parentOf(this.rank, node);
  }

  /** Timer id of `node` (-1 for the root). */
  timerOf(node: number): number {
    return this.arena.timerOf(this.rank, node);
  }

  /** Calls of `node`'s timer along this callpath (running ones included). */
  callsOf(node: number): number {
    return this.arena.callsOf(this.rank, node);
  }

  /** Subroutine calls (timers started directly inside) of `node`, running activations included. */
  subroutinesOf(node: number): number {
    return this.arena.subroutinesOf(this.rank, node);
  }

  /** Inclusive value of metric k at callpath node `node` (completed calls). */
  inclusive(node: number, k: number): number {
    return this.arena.inclusive(this.rank, node, k);
  }

  /** Exclusive value of metric k at callpath node `node` (completed calls). */
  exclusive(node: number, k: number): number {
    return this.arena.exclusive(this.rank, node, k);
  }

  /** Timer ids of the running timers, outermost first. */
  activeTimers(): number[] {
    const out: number[] = [];
    for (let d = 0; d < this.depth; d++) out.push(this.arena.frameTimer(this.rank, d));
    return out;
  }

  /** Callpath node of the running frame at `depth` (0 = outermost). */
  frameNode(depth: number): number {
    return this.arena.frameNode(this.rank, depth);
  }

  /** Summed inclusive values of the finished children of the running frame at `depth`, per metric. */
  frameChildren(depth: number): Float64Array {
    return this.arena.frameChildren(this.rank, depth);
  }

  /** Metric values recorded when the frame at `depth` started. */
  frameStart(depth: number): Float64Array {
    return this.arena.frameStart(this.rank, depth);
  }

  /** Path of timer ids from the top to `node`. */
  path(node: number): number[] {
    const out: number[] = [];
    for (let n = node; n !== 0; n = this.parentOf(n)) out.push(this.timerOf(n));
    return out.reverse();
  }
}
