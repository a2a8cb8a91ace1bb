import type { Simulation } from "./simulation.js";

/** Priority of kernel bookkeeping events (process start, interrupts): before normal events at the same time. */
export const URGENT = -1;
/** Default priority of scheduled events. */
export const NORMAL = 0;

const PENDING = 0;
const TRIGGERED = 1;
const PROCESSED = 2;

/**
 * Something that is resumed when an event it waits on is processed: a {@link Process} or a
 * condition ({@link AnyOf}, {@link AllOf}).
 * @internal
 */
export interface Waiter {
  onEvent(ev: SimEvent): void;
}

/** Kernel handler that processes a triggered event: runs its waiters. */
function processEvent(ev: SimEvent): void {
  ev.process();
}

/**
 * An event processes may wait on (`yield ev`). It is pending until triggered with
 * {@link SimEvent.succeed} or {@link SimEvent.fail}; it is then processed through the event list
 * at the trigger time (plus an optional delay), which resumes its waiters in the order they
 * started waiting.
 *
 * @typeParam T - the value a waiting process receives
 */
export class SimEvent<T = unknown> {
  /** @internal */ state = PENDING;
  /** The value (or, for a failed event, the error) once triggered. */
  value: T | undefined = undefined;
  /** False when the event failed: waiters get `value` thrown into them. */
  ok = true;
  /** Set when a failure has been handed to a waiter, so the kernel does not rethrow it. */
  defused = false;
  private w0: Waiter | null = null;
  private ws: Waiter[] | null = null;

  /**
   * @param sim - the simulation the event belongs to
   * @param label - what the event stands for, used in deadlock reports
   */
  constructor(readonly sim: Simulation, public label?: string) {}

  /** True once succeed/fail was called. */
  get triggered(): boolean {
    return this.state !== PENDING;
  }

  /** True once its waiters have been resumed. */
  get processed(): boolean {
    return this.state === PROCESSED;
  }

  /** A one-line description for deadlock reports. */
  describe(): string {
    return this.label ?? this.constructor.name;
  }

  /**
   * Triggers the event successfully. Waiters resume at `now + delay` (microseconds).
   * @throws Error if the event was already triggered
   * @throws InvalidDelayError for a negative, NaN or infinite delay (the event stays pending)
   */
  succeed(value?: T, delay = 0): this {
    if (this.state !== PENDING) throw new Error(`${this.describe()} has already been triggered`);
    // Scheduled first: a refused delay must leave the event pending, not triggered and never processed.
    this.sim.schedule(delay, processEvent, this);
    this.state = TRIGGERED;
    this.value = value;
    return this;
  }

  /**
   * Triggers the event as failed: waiting processes get `error` thrown at their `yield`
   * `delay` microseconds from now.
   * @throws Error if the event was already triggered
   * @throws InvalidDelayError for a negative, NaN or infinite delay (the event stays pending)
   */
  fail(error: unknown, delay = 0): this {
    if (this.state !== PENDING) throw new Error(`${this.describe()} has already been triggered`);
    this.sim.schedule(delay, processEvent, this);
    this.state = TRIGGERED;
    this.ok = false;
    this.value = error as T;
    return this;
  }

  /** @internal Registers a waiter; it is resumed once, when the event is processed. */
  addWaiter(w: Waiter): void {
    if (this.w0 === null && this.ws === null) this.w0 = w;
    else (this.ws ??= []).push(w);
  }

  /** @internal Removes a waiter that no longer waits (an interrupted process). */
  removeWaiter(w: Waiter): void {
    if (this.w0 === w) {
      this.w0 = null;
      return;
    }
    if (this.ws) {
      const i = this.ws.indexOf(w);
      if (i >= 0) this.ws.splice(i, 1);
    }
  }

  /** @internal True when nobody waits. */
  get hasWaiters(): boolean {
    return this.w0 !== null || (this.ws !== null && this.ws.length > 0);
  }

  /** @internal Marks the event processed and resumes its waiters (kernel use). */
  process(): void {
    this.state = PROCESSED;
    const w0 = this.w0;
    const ws = this.ws;
    this.w0 = null;
    this.ws = null;
    if (w0 !== null) w0.onEvent(this);
    if (ws !== null) for (let i = 0; i < ws.length; i++) ws[i].onEvent(this);
    if (!this.ok && !this.defused) {
      const err = this.value;
      throw err instanceof Error ? err : new Error(`unhandled failure of ${this.describe()}: ${String(err)}`);
    }
  }
}

/** An event that succeeds by itself after a delay. Created by {@link Simulation.timeout}. */
export class Timeout<T = unknown> extends SimEvent<T> {
  /**
   * @param delay - microseconds from now
   * @throws InvalidDelayError for a negative, NaN or infinite delay
   */
  constructor(sim: Simulation, readonly delay: number, value?: T, label?: string) {
    super(sim, label);
    this.state = TRIGGERED;
    this.value = value;
    sim.schedule(delay, processEvent, this);
  }

  override describe(): string {
    return this.label ?? `Timeout(${this.delay})`;
  }
}

/** Value of a processed {@link AnyOf}: which event fired first and its value. */
export interface AnyOfValue {
  /** Index, in the list given to anyOf, of the first event processed. */
  readonly index: number;
  /** That event's value. */
  readonly value: unknown;
}

/**
 * Succeeds as soon as any of its events succeeds (value: {@link AnyOfValue}); fails if the first
 * event to be processed failed.
 */
export class AnyOf extends SimEvent<AnyOfValue> implements Waiter {
  constructor(sim: Simulation, readonly events: readonly SimEvent[], label?: string) {
    super(sim, label);
    if (events.length === 0) {
      this.succeed({ index: -1, value: undefined });
      return;
    }
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      if (e.processed) {
        this.onEvent(e);
        return;
      }
    }
    for (const e of events) e.addWaiter(this);
  }

  onEvent(ev: SimEvent): void {
    if (this.triggered) return;
    for (const e of this.events) if (e !== ev) e.removeWaiter(this);
    if (ev.ok) this.succeed({ index: this.events.indexOf(ev), value: ev.value });
    else {
      ev.defused = true;
      this.fail(ev.value);
    }
  }

  override describe(): string {
    return this.label ?? `any of [${this.events.filter((e) => !e.processed).map((e) => e.describe()).join(", ")}]`;
  }
}

/**
 * Succeeds when all its events have succeeded (value: their values, in order); fails as soon as
 * one fails.
 */
export class AllOf extends SimEvent<unknown[]> implements Waiter {
  private remaining: number;

  constructor(sim: Simulation, readonly events: readonly SimEvent[], label?: string) {
    super(sim, label);
    this.remaining = events.length;
    for (const e of events) {
      if (e.processed) {
        this.onEvent(e);
        if (this.triggered) return;
      } else e.addWaiter(this);
    }
    if (this.remaining === 0 && !this.triggered) this.succeed(events.map((e) => e.value));
  }

  onEvent(ev: SimEvent): void {
    if (this.triggered) return;
    if (!ev.ok) {
      ev.defused = true;
      for (const e of this.events) if (e !== ev) e.removeWaiter(this);
      this.fail(ev.value);
      return;
    }
    if (--this.remaining === 0) this.succeed(this.events.map((e) => e.value));
  }

  override describe(): string {
    return this.label ?? `all of [${this.events.filter((e) => !e.processed).map((e) => e.describe()).join(", ")}]`;
  }
}
