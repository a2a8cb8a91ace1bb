import { DeadlockError, InvalidDelayError, type BlockedProcess } from "./errors.js";
import {
  MAX_PRIORITY,
  MAX_SEQUENCE,
  MIN_PRIORITY,
  packOrder,
  type EventHandle,
  type EventHandler,
  type EventQueue,
} from "./event-queue.js";
import { AllOf, AnyOf, NORMAL, SimEvent, Timeout } from "./events.js";
import { HeapQueue } from "./heap-queue.js";
import { Process, type ProcessGenerator, type ProcessOptions } from "./process.js";
import { RandomStream } from "./random.js";
import { ReferenceQueue } from "./reference-queue.js";

/** Which event list a simulation uses. */
export type QueueChoice = "heap" | "reference" | EventQueue;

/** Options of a {@link Simulation}. */
export interface SimulationOptions {
  /** Seed from which every named random stream is derived. Default 0. */
  seed?: string | number;
  /** Event list implementation: `"heap"` (default), `"reference"` (js-sdsl) or your own. */
  queue?: QueueChoice;
  /** Simulated start time in microseconds. Default 0. */
  startTime?: number;
}

/** Options of {@link Simulation.run}. */
export interface RunOptions {
  /** Stop before the first event later than this time (microseconds); `now` is then set to it. */
  until?: number;
  /**
   * What to do when the event list runs dry while non-daemon processes are blocked:
   * `"throw"` (default) raises a {@link DeadlockError}; `"report"` returns them in the result.
   */
  onDeadlock?: "throw" | "report";
}

/** What {@link Simulation.run} returns. */
export interface RunResult {
  /** Simulated time when the run stopped (microseconds). */
  readonly now: number;
  /** Events fired by this call. */
  readonly events: number;
  /** Why the run stopped. */
  readonly reason: "empty" | "until" | "stopped" | "deadlock";
  /** Processes left blocked when the list ran dry (only with `onDeadlock: "report"`). */
  readonly blocked: readonly BlockedProcess[];
}

/**
 * The discrete-event kernel.
 *
 * Time is a double in **microseconds** everywhere in ccasim (the kernel itself does not care, but
 * every layer above it agrees on this unit). Events fire in the order
 * `(time, priority, sequence number assigned at schedule time)`: among simultaneous events, lower
 * priority first, and with equal priority in the order they were scheduled.
 *
 * The callback layer (`schedule`, `cancel`, `step`, `run`) is the fast core; processes
 * (`process`, `timeout`, `event`, `anyOf`, `allOf`) are generators built on it.
 */
export class Simulation {
  /** Current simulated time in microseconds. */
  now: number;
  /** Seed of the named random streams. */
  readonly seed: string | number;
  /** Events fired since creation. */
  eventsProcessed = 0;
  /** The process whose generator is running right now, if any. */
  activeProcess: Process<any> | null = null;

  private readonly queue: EventQueue;
  private seq = 0;
  private stopRequested = false;
  private readonly streams = new Map<string, RandomStream>();
  private readonly alive = new Set<Process<any>>();
  private processCount = 0;

  /**
   * @throws InvalidDelayError for a start time below 0 or not finite
   * @throws RangeError for a `queue` named neither heap nor reference
   */
  constructor(options: SimulationOptions = {}) {
    this.seed = options.seed ?? 0;
    this.now = options.startTime ?? 0;
    if (!Number.isFinite(this.now) || this.now < 0) throw new InvalidDelayError(this.now, "start time");
    const q = options.queue ?? "heap";
    // why: a misspelt name would otherwise be taken for an EventQueue and fail at the first schedule
    if (typeof q === "string" && q !== "heap" && q !== "reference") throw new RangeError(`unknown event list '${q}': use heap, reference or an EventQueue`);
    this.queue = q === "heap" ? new HeapQueue() : q === "reference" ? new ReferenceQueue() : q;
  }

  /** Number of pending (scheduled, not cancelled) events. */
  get pending(): number {
    return this.queue.size;
  }

  /**
   * Schedules `handler(arg)` to run `delay` microseconds from now.
   * @param priority - integer in [-512, 511]; lower fires first among simultaneous events
   * @returns a handle for {@link cancel}
   * @throws InvalidDelayError if delay is negative, NaN or infinite
   */
  schedule<A>(delay: number, handler: EventHandler<A>, arg?: A, priority: number = NORMAL): EventHandle {
    // `!(x >= 0)` rejects NaN as well as negatives in one comparison.
    if (!(delay >= 0) || delay === Infinity) throw new InvalidDelayError(delay);
    if (priority !== NORMAL) checkPriority(priority);
    const seq = this.seq++;
    if (seq > MAX_SEQUENCE) throw new RangeError("sequence numbers exhausted");
    return this.queue.push(this.now + delay, packOrder(priority, seq), handler as EventHandler, arg);
  }

  /**
   * Schedules `handler(arg)` at absolute time `time` (microseconds, not before now).
   * @throws InvalidDelayError if time is before now, NaN or infinite
   */
  scheduleAt<A>(time: number, handler: EventHandler<A>, arg?: A, priority: number = NORMAL): EventHandle {
    if (!(time >= this.now) || time === Infinity) throw new InvalidDelayError(time, "time", `a finite number >= ${this.now} (now)`);
    return this.schedule(time - this.now, handler, arg, priority);
  }

  /**
   * Takes the ordering key (see {@link packOrder}) that an event scheduled right now with
   * `priority` would get, without scheduling anything. {@link scheduleReserved} can later place
   * an event with exactly that key: a model can so decide after the fact that an event is needed
   * and still have it fire where it would have fired had it been scheduled now. Keys never repeat.
   */
  reserveOrder(priority: number = NORMAL): number {
    if (priority !== NORMAL) checkPriority(priority);
    const seq = this.seq++;
    if (seq > MAX_SEQUENCE) throw new RangeError("sequence numbers exhausted");
    return packOrder(priority, seq);
  }

  /**
   * Schedules `handler(arg)` at absolute time `time` (microseconds) with a key from
   * {@link reserveOrder}. The caller guarantees the event would not already have fired: `time`
   * is later than now, or equal to now with a key after the event being processed.
   * @throws InvalidDelayError if time is before now, NaN or infinite
   */
  scheduleReserved<A>(time: number, order: number, handler: EventHandler<A>, arg?: A): EventHandle {
    if (!(time >= this.now) || time === Infinity) throw new InvalidDelayError(time, "time", `a finite number >= ${this.now} (now)`);
    return this.queue.push(time, order, handler as EventHandler, arg);
  }

  /** Cancels a scheduled event. Returns false if it already fired, was cancelled, or the handle is stale. */
  cancel(handle: EventHandle): boolean {
    return this.queue.cancel(handle);
  }

  /** Time of the next event, or `Infinity` when none is pending. */
  peek(): number {
    return this.queue.peekTime();
  }

  /** Fires the next event. Returns false when none is pending. */
  step(): boolean {
    const q = this.queue;
    const h = q.pop();
    if (h === undefined) return false;
    this.now = q.poppedTime;
    this.eventsProcessed++;
    h(q.poppedArg);
    return true;
  }

  /** Asks a running {@link run} to return after the current event. */
  stop(): void {
    this.stopRequested = true;
  }

  /**
   * Fires events until none is left, `until` is passed, or {@link stop} is called.
   * @throws InvalidDelayError when `until` is NaN or before now
   * @throws TypeError when `onDeadlock` is neither "throw" nor "report"
   * @throws DeadlockError when the list runs dry while non-daemon processes are blocked (unless `onDeadlock: "report"`)
   * @throws whatever an event handler or an unwaited failing process throws
   */
  run(options: RunOptions = {}): RunResult {
    const until = options.until ?? Infinity;
    // An unknown choice would act as "report" below without a word.
    if (options.onDeadlock !== undefined && options.onDeadlock !== "throw" && options.onDeadlock !== "report") throw new TypeError(`onDeadlock must be "throw" or "report", got ${JSON.stringify(options.onDeadlock)}`);
    if (Number.isNaN(until) || until < this.now) throw new InvalidDelayError(until, "until", `a number >= ${this.now} (now), or Infinity`);
    const q = this.queue;
    const start = this.eventsProcessed;
    this.stopRequested = false;
    let reason: RunResult["reason"] = "empty";
    // Two loops so the common unbounded run does not peek before every pop.
    if (until === Infinity) {
      for (;;) {
        const h = q.pop();
        if (h === undefined) break;
        this.now = q.poppedTime;
        this.eventsProcessed++;
        h(q.poppedArg);
        if (this.stopRequested) {
          reason = "stopped";
          break;
        }
      }
    } else {
      for (;;) {
        const t = q.peekTime();
        if (t > until) {
          if (t !== Infinity) reason = "until";
          break;
        }
        const h = q.pop()!;
        this.now = q.poppedTime;
        this.eventsProcessed++;
        h(q.poppedArg);
        if (this.stopRequested) {
          reason = "stopped";
          break;
        }
      }
    }
    let blocked: BlockedProcess[] = [];
    if (reason === "empty") {
      blocked = this.blockedProcesses();
      if (blocked.length > 0) {
        if ((options.onDeadlock ?? "throw") === "throw") throw new DeadlockError(this.now, blocked);
        reason = "deadlock";
      } else if (until !== Infinity) this.now = until;
    } else if (reason === "until") this.now = until;
    return { now: this.now, events: this.eventsProcessed - start, reason, blocked };
  }

  /** Non-daemon processes that are alive, with what they wait on. */
  blockedProcesses(): BlockedProcess[] {
    const out: BlockedProcess[] = [];
    for (const p of this.alive) if (!p.daemon) out.push({ name: p.name, waitingOn: p.waitingOn });
    return out;
  }

  /**
   * The named random stream `name`, derived from the seed and the name alone (so adding a stream
   * never changes another's draws). The same name returns the same stream object.
   */
  random(name: string): RandomStream {
    let s = this.streams.get(name);
    if (s === undefined) {
      s = new RandomStream(this.seed, name);
      this.streams.set(name, s);
    }
    return s;
  }

  /** Starts a generator as a process (it begins at the current time, before normal events). */
  process<T>(gen: ProcessGenerator<T>, options: ProcessOptions = {}): Process<T> {
    const p = new Process<T>(this, gen, options, this.processCount++);
    this.alive.add(p);
    return p;
  }

  /** @internal Called by a process when its generator returns or throws. */
  processFinished(p: Process<any>): void {
    this.alive.delete(p);
  }

  /** An event that succeeds `delay` microseconds from now with `value`. */
  timeout<T = undefined>(delay: number, value?: T, label?: string): Timeout<T> {
    return new Timeout<T>(this, delay, value, label);
  }

  /** A new pending event, to be triggered with `succeed` or `fail`. */
  event<T = unknown>(label?: string): SimEvent<T> {
    return new SimEvent<T>(this, label);
  }

  /** An event that succeeds when the first of `events` succeeds. */
  anyOf(events: readonly SimEvent[], label?: string): AnyOf {
    return new AnyOf(this, events, label);
  }

  /** An event that succeeds when all of `events` have succeeded. */
  allOf(events: readonly SimEvent[], label?: string): AllOf {
    return new AllOf(this, events, label);
  }

  /** Pre-allocates the event list for `n` pending events when the implementation supports it. */
  reserve(n: number): void {
    this.queue.reserve?.(n);
  }

  /** Approximate bytes held by the event list, when the implementation reports it. */
  queueBytes(): number | undefined {
    return this.queue.bytesUsed?.();
  }
}

function checkPriority(priority: number): void {
  if (!Number.isInteger(priority) || priority < MIN_PRIORITY || priority > MAX_PRIORITY)
    throw new RangeError(`invalid priority ${priority}: must be an integer in [${MIN_PRIORITY}, ${MAX_PRIORITY}]`);
}
