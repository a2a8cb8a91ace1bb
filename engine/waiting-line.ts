import type { SimEvent } from "./events.js";
import type { Simulation } from "./simulation.js";

/** Options of a {@link WaitingLine}. */
export interface WaitingLineOptions {
  /** Number of servers (units that can be held at once). Default 1. */
  capacity?: number;
  /** `"fifo"` (default) or `"priority"` (lower priority value served first, FIFO among equals). */
  discipline?: "fifo" | "priority";
  /** Name used in deadlock reports. */
  name?: string;
}

interface Waiting {
  ev: SimEvent<void>;
  priority: number;
  seq: number;
}

/**
 * A waiting line in front of `capacity` servers: a NIC that serialises outgoing messages, a
 * memory bus, a lock. `request()` returns an event that succeeds when a server is granted;
 * `release()` hands the server to the next waiter. Built only on the public kernel API. A process
 * that stops waiting for its request (an `Interrupt` at its `yield`) gives it back with
 * `cancel(request)`; else the line would grant the server to the abandoned request, and hold it.
 *
 * ```ts
 * const nic = new WaitingLine(sim, { name: "nic0" });
 * yield nic.request();
 * yield sim.timeout(transferTime);
 * nic.release();
 * ```
 */
export class WaitingLine {
  readonly capacity: number;
  readonly discipline: "fifo" | "priority";
  readonly name: string;
  private busy = 0;
  private seq = 0;
  private readonly queue: Waiting[] = [];
  private head = 0;
  /** The requests this line made, and those given back with {@link cancel}. */
  private readonly issued = new WeakSet<SimEvent<void>>();
  private readonly cancelled = new WeakSet<SimEvent<void>>();

  constructor(private readonly sim: Simulation, options: WaitingLineOptions = {}) {
    this.capacity = options.capacity ?? 1;
    if (!Number.isInteger(this.capacity) || this.capacity < 1)
      throw new RangeError(`waiting line capacity must be a positive integer, got ${this.capacity}`);
    this.discipline = options.discipline ?? "fifo";
    // An unknown word would serve by priority without a word.
    if (this.discipline !== "fifo" && this.discipline !== "priority") throw new RangeError(`waiting line discipline must be "fifo" or "priority", got ${JSON.stringify(this.discipline)}`);
    this.name = options.name ?? "waiting line";
  }

  /** Servers currently held. */
  get inUse(): number {
    return this.busy;
  }

  /** Requests waiting for a server. */
  get queueLength(): number {
    return this.queue.length - this.head;
  }

  /** An event that succeeds when a server is granted to the caller. */
  request(priority = 0): SimEvent<void> {
    const ev = this.sim.event<void>(`${this.name}.request`);
    this.issued.add(ev);
    if (this.busy < this.capacity && this.queueLength === 0) {
      this.busy++;
      ev.succeed();
      return ev;
    }
    const w: Waiting = { ev, priority, seq: this.seq++ };
    if (this.discipline === "fifo") this.queue.push(w);
    else this.insertByPriority(w);
    return ev;
  }

  /**
   * Releases one server and grants it to the next waiter, if any.
   * @throws Error when no server is held
   */
  release(): void {
    if (this.busy === 0) throw new Error(`${this.name}: release() without a matching request`);
    if (this.queueLength > 0) {
      const w = this.queue[this.head];
      this.queue[this.head++] = undefined as unknown as Waiting;
      if (this.head > 64 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      w.ev.succeed();
    } else this.busy--;
  }

  /**
   * Gives back a request its process stopped waiting for before receiving it (interrupted at its
   * `yield`): one still waiting leaves the line; one granted in the meantime (at the same time,
   * before the interrupt) releases its server to the next waiter. Call it once per abandoned
   * request, and not for one the process received (that one is given back with `release()`).
   * Returns false for a request of another line or one given back already.
   */
  cancel(request: SimEvent<void>): boolean {
    if (this.cancelled.has(request)) return false;
    for (let i = this.head; i < this.queue.length; i++) {
      if (this.queue[i].ev !== request) continue;
      this.queue.splice(i, 1);
      this.cancelled.add(request);
      return true;
    }
    if (!request.triggered || !this.issued.has(request)) return false;
    this.cancelled.add(request);
    this.release();
    return true;
  }

  private insertByPriority(w: Waiting): void {
    // Binary search for the first waiter with a larger priority: FIFO among equal priorities.
    let lo = this.head;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.queue[mid].priority <= w.priority) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, w);
  }
}
