import { Interrupt } from "./errors.js";
import { SimEvent, URGENT, type Waiter } from "./events.js";
import type { Simulation } from "./simulation.js";

/** What a process generator may yield: any event (a timeout, another process, a condition, a request). */
export type Yieldable = SimEvent<any>;

/** A generator function body run as a simulated process. */
export type ProcessGenerator<T = unknown> = Generator<Yieldable, T, any>;

/** Options of {@link Simulation.process}. */
export interface ProcessOptions {
  /** Name used in traces and deadlock reports. */
  name?: string;
  /**
   * A daemon (a server loop such as a NIC or a progress engine) may stay blocked forever
   * without that counting as a deadlock.
   */
  daemon?: boolean;
}

function startProcess(p: Process<any>): void {
  p.resume(undefined, true);
}

function deliverInterrupt(arg: { p: Process<any>; cause: unknown }): void {
  const p = arg.p;
  if (p.triggered) return; // finished before the interrupt arrived
  if (p.target !== null) {
    p.target.removeWaiter(p);
    p.target = null;
  }
  p.resume(new Interrupt(arg.cause), false);
}

/**
 * A simulated process: a generator that yields events and is resumed with their values. A
 * process is itself an event that succeeds with the generator's return value (so processes can
 * wait for each other) or fails with the error it threw.
 */
export class Process<T = unknown> extends SimEvent<T> implements Waiter {
  /** The event the process currently waits on, or null while running or finished. */
  target: SimEvent | null = null;
  /** Process name, used in traces and deadlock reports. */
  readonly name: string;
  /** See {@link ProcessOptions.daemon}. */
  readonly daemon: boolean;

  constructor(sim: Simulation, private readonly gen: ProcessGenerator<T>, options: ProcessOptions = {}, id = 0) {
    super(sim);
    this.name = options.name ?? `process#${id}`;
    this.daemon = options.daemon ?? false;
    sim.schedule(0, startProcess, this, URGENT);
  }

  override describe(): string {
    return `process ${this.name}`;
  }

  /** True while the generator has not returned or thrown. */
  get isAlive(): boolean {
    return !this.triggered;
  }

  /** What the process waits on, for deadlock reports. */
  get waitingOn(): string {
    return this.target === null ? "nothing (not started)" : this.target.describe();
  }

  /**
   * Interrupts the process: at the current time (before normal events), it stops waiting on its
   * target and receives an {@link Interrupt} carrying `cause` at its `yield`.
   * @throws Error if the process has finished
   */
  interrupt(cause?: unknown): void {
    if (this.triggered) throw new Error(`cannot interrupt ${this.name}: it has finished`);
    this.sim.schedule(0, deliverInterrupt, { p: this, cause }, URGENT);
  }

  /** @internal */
  onEvent(ev: SimEvent): void {
    if (ev !== this.target) return;
    this.target = null;
    if (!ev.ok) ev.defused = true;
    this.resume(ev.value, ev.ok);
  }

  /** @internal Runs the generator until it waits on an unprocessed event or finishes. */
  resume(value: unknown, ok: boolean): void {
    const gen = this.gen;
    for (;;) {
      let r: IteratorResult<Yieldable, T>;
      this.sim.activeProcess = this;
      try {
        r = ok ? gen.next(value) : gen.throw(value);
      } catch (err) {
        this.sim.activeProcess = null;
        this.sim.processFinished(this);
        this.fail(err);
        return;
      }
      this.sim.activeProcess = null;
      if (r.done) {
        this.sim.processFinished(this);
        this.succeed(r.value);
        return;
      }
      const next = r.value;
      if (!(next instanceof SimEvent)) {
        ok = false;
        value = new TypeError(`process ${this.name} yielded ${String(next)}, which is not an event`);
        continue;
      }
      if (next.processed) {
        // Already happened: continue at once with its outcome, like SimPy.
        if (!next.ok) next.defused = true;
        value = next.value;
        ok = next.ok;
        continue;
      }
      this.target = next;
      next.addWaiter(this);
      return;
    }
  }
}
