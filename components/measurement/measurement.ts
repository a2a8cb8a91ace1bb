import { grown } from "../../profile/internal.js";
import { TraceIntervals } from "../../profile/index.js";
import { ProfileArena } from "./profile-arena.js";
import { RankProfile } from "./rank-profile.js";
import { APPLICATION_TIMER, DEFAULT_GROUP, TimerTable } from "./timer-table.js";
import { UserEvents } from "./user-events.js";

/** Warnings a run lists (the first; the others are counted). */
const MAX_RUN_WARNINGS = 1000;

/**
 * Reads the current value of every metric of a rank into `out` (TIME in microseconds first, then
 * counters). Supplied by the runtime, which owns the clock and the counters.
 */
export type MetricReader = (rank: number, out: Float64Array) => void;

/**
 * What the query interface returns for one running timer (paper 001, section 4.1.3): per metric
 * its inclusive and exclusive values so far, its calls and the timers it called. Values are of the
 * timer's callpath (the running stack down to it), in the metric's unit (TIME in microseconds,
 * counters in counts).
 */
export interface TimerQuery {
  readonly name: string;
  /** Inclusive value so far of each metric: the finished calls plus the running one up to now. */
  readonly inclusive: Readonly<Record<string, number>>;
  /**
   * Exclusive value so far of each metric: the finished calls' own part plus the running call's,
   * which is its time (or count) up to now less that of the timers it called, finished or running.
   */
  readonly exclusive: Readonly<Record<string, number>>;
  /** Calls (start/stop pairs), the running one included. */
  readonly calls: number;
  /** Timers started directly inside this timer's calls (subroutine calls), the running call's included. */
  readonly subroutines: number;
}

/**
 * The TAU measurement component of paper 001: timers with start/stop and nesting checks, groups
 * that can be disabled at run time, inclusive and exclusive values of every configured metric
 * along callpaths, atomic user events, and a query interface. One instance serves all ranks of a
 * run (each rank is a TAU thread `node.0.0`).
 *
 * Measurement costs no simulated time: the papers exclude measurement overhead from measured
 * values, and so does the simulator.
 */
export class Measurement {
  readonly timers = new TimerTable();
  /**
   * Every finished call of a timer, as the interval `(rank, timer id, start, end)` in simulated
   * microseconds, when the measurement was made with `trace: true` (calls of timers whose group
   * was disabled are left out, as they are from the profile).
   */
  readonly trace?: TraceIntervals;
  readonly events: UserEvents;
  /** Per rank, a view of its measurements. */
  readonly ranks: RankProfile[];
  private readonly arena: ProfileArena;
  private readonly warn: ((message: string) => void)[];
  private readonly disabledGroups = new Set<string>();
  private readonly scratch: Float64Array;
  // Per rank: stack of timers started while their group was disabled, so their stops are skipped
  // too; its depth per rank in one typed array, so the common case (empty) reads no per-rank object.
  private readonly skipped: number[][];
  private readonly skippedDepth: Int32Array;
  private groupMask: Uint8Array = new Uint8Array(16); // 1 = timer disabled, by timer id

  /**
   * @param metrics - metric names, `TIME` first
   * @param rankCount - number of ranks
   * @param read - reads the current metric values of a rank
   * @param options - `trace: true` keeps every finished call as an interval in {@link trace}
   */
  constructor(readonly metrics: readonly string[], rankCount: number, private readonly read: MetricReader, options: { readonly trace?: boolean } = {}) {
    if (metrics[0] !== "TIME") throw new Error(`the first metric must be TIME, got ${metrics[0]}`);
    this.arena = new ProfileArena(rankCount, metrics.length);
    if (options.trace) this.arena.trace = this.trace = new TraceIntervals();
    this.ranks = Array.from({ length: rankCount }, (_, r) => new RankProfile(this.arena, r));
    this.warn = this.ranks.map((rp) => (message: string) => rp.warn(message));
    this.events = new UserEvents(rankCount);
    this.scratch = new Float64Array(metrics.length);
    this.skipped = Array.from({ length: rankCount }, () => []);
    this.skippedDepth = new Int32Array(rankCount);
    this.timers.id(APPLICATION_TIMER, DEFAULT_GROUP);
  }

  /** The id of timer `name` (created in `group` on first use). Resolve ids once, outside hot loops. */
  timer(name: string, group: string = DEFAULT_GROUP): number {
    const id = this.timers.id(name, group);
    if (id >= this.groupMask.length) this.groupMask = grown(this.groupMask, this.groupMask.length * 2 + id);
    this.groupMask[id] = this.groupDisabled(this.timers.groups[id]) ? 1 : 0;
    return id;
  }

  /** Starts timer `id` on `rank`. */
  start(rank: number, id: number): void {
    if (this.groupMask[id] === 1) {
      this.skipped[rank].push(id);
      this.skippedDepth[rank]++;
      return;
    }
    this.read(rank, this.scratch);
    this.arena.start(rank, id, this.scratch);
  }

  /**
   * Starts timer `id` on `rank` with metric values the caller has just read with the run's
   * {@link MetricReader} (so one read serves the timer and a Mastermind record).
   */
  startWith(rank: number, id: number, values: Float64Array): void {
    if (this.groupMask[id] === 1) {
      this.skipped[rank].push(id);
      this.skippedDepth[rank]++;
      return;
    }
    this.arena.start(rank, id, values);
  }

  /** Pops `id` if it is the innermost skipped (unselected) timer of `rank`; true if it was. */
  private closeSkipped(rank: number, id: number): boolean {
    const sk = this.skipped[rank];
    if (sk[sk.length - 1] !== id) return false;
    sk.pop();
    this.skippedDepth[rank]--;
    return true;
  }

  /** Stops timer `id` on `rank` (overlaps are recorded as warnings, as TAU does). */
  stop(rank: number, id: number): void {
    if (this.skippedDepth[rank] > 0 && this.closeSkipped(rank, id)) return;
    this.read(rank, this.scratch);
    this.arena.stop(rank, id, this.scratch, this.timers, this.warn[rank]);
  }

  /** {@link stop} with metric values the caller has just read (see {@link startWith}). */
  stopWith(rank: number, id: number, values: Float64Array): void {
    if (this.skippedDepth[rank] > 0 && this.closeSkipped(rank, id)) return;
    this.arena.stop(rank, id, values, this.timers, this.warn[rank]);
  }

  /** Disables every timer of `group` from now on (control interface). */
  disableGroup(group: string): void {
    this.disabledGroups.add(group);
    this.refreshMask();
  }

  /** Re-enables `group`. */
  enableGroup(group: string): void {
    this.disabledGroups.delete(group);
    this.refreshMask();
  }

  /** Records a user event value on `rank` (event interface). */
  trigger(rank: number, event: string, value: number): void {
    this.events.trigger(rank, this.events.id(event), value);
  }

  /**
   * The query interface: running timers of `rank`, outermost first, each with its inclusive and
   * exclusive values so far per metric, its calls and its subroutine calls (see {@link TimerQuery}).
   * Timers of a disabled group are not running, as for the profile.
   */
  query(rank: number): TimerQuery[] {
    const rp = this.ranks[rank];
    this.read(rank, this.scratch);
    const now = this.scratch;
    const out: TimerQuery[] = [];
    const active = rp.activeTimers();
    for (let d = 0; d < active.length; d++) {
      const node = rp.frameNode(d);
      const start = rp.frameStart(d);
      // The running call's own part ends where its running child (if any) began.
      const end = d + 1 < active.length ? rp.frameStart(d + 1) : now;
      const children = rp.frameChildren(d);
      const inclusive: Record<string, number> = {};
      const exclusive: Record<string, number> = {};
      this.metrics.forEach((m, k) => {
        inclusive[m] = rp.inclusive(node, k) + (now[k] - start[k]);
        exclusive[m] = rp.exclusive(node, k) + (end[k] - start[k] - children[k]);
      });
      out.push({ name: this.timers.names[active[d]], inclusive, exclusive, calls: rp.callsOf(node), subroutines: rp.subroutinesOf(node) });
    }
    return out;
  }

  /**
   * Overlap warnings of all ranks, each prefixed by its rank: at most {@link MAX_RUN_WARNINGS},
   * then one line counting the others (those ranks did not keep, see `MAX_WARNINGS`, included).
   */
  warnings(): string[] {
    const out: string[] = [];
    let more = 0;
    this.ranks.forEach((r, i) => {
      for (const w of r.warnings) {
        if (out.length < MAX_RUN_WARNINGS) out.push(`rank ${i}: ${w}`);
        else more++;
      }
      more += r.warningsDropped;
    });
    if (more > 0) out.push(`${more} more warning${more === 1 ? "" : "s"} not listed`);
    return out;
  }

  private groupDisabled(groups: string): boolean {
    if (this.disabledGroups.size === 0) return false;
    return groups.split("|").some((g) => this.disabledGroups.has(g.trim()));
  }

  private refreshMask(): void {
    for (let id = 0; id < this.timers.size; id++) this.groupMask[id] = this.groupDisabled(this.timers.groups[id]) ? 1 : 0;
  }
}
