/**
 * The event list behind {@link Simulation}: a priority queue of pending events ordered by
 * `(time, order)`, where `order` packs the priority and the schedule-time sequence number
 * (see {@link packOrder}). Two implementations exist: {@link HeapQueue} (the default, a binary
 * heap over typed arrays) and {@link ReferenceQueue} (js-sdsl's PriorityQueue, kept as the judge
 * in tests and as the baseline in benchmarks).
 *
 * @packageDocumentation
 */

/** A function run when its event fires. It receives the argument given at schedule time. */
export type EventHandler<A = any> = (arg: A) => void;

/**
 * An opaque handle to a scheduled event, used only to cancel it. Handles are versioned: once an
 * event has fired or been cancelled, its handle can never cancel another event, even one that
 * reuses the same storage slot.
 */
export type EventHandle = number;

/** The contract every event-list implementation fulfils. */
export interface EventQueue {
  /** Number of live (scheduled, not yet fired, not cancelled) events. */
  readonly size: number;
  /** Time of the most recently popped event. */
  poppedTime: number;
  /** Argument of the most recently popped event. */
  poppedArg: unknown;
  /**
   * Inserts an event. `order` breaks ties between equal times: smaller fires first; the
   * simulation guarantees orders are unique.
   */
  push(time: number, order: number, handler: EventHandler, arg: unknown): EventHandle;
  /** Cancels a pending event; returns false if the handle is stale (fired, cancelled or unknown). */
  cancel(handle: EventHandle): boolean;
  /** Time of the earliest live event, or `Infinity` when there is none. */
  peekTime(): number;
  /**
   * Removes the earliest live event and returns its handler (time and argument are left in
   * {@link poppedTime} and {@link poppedArg}), or `undefined` when the queue is empty.
   */
  pop(): EventHandler | undefined;
  /** Optionally pre-allocates room for `n` pending events. */
  reserve?(n: number): void;
  /** Approximate bytes of storage held, for benchmarks. */
  bytesUsed?(): number;
}

/** Smallest and largest event priority accepted by {@link packOrder}. Lower priorities fire first. */
export const MIN_PRIORITY = -512;
/** @see MIN_PRIORITY */
export const MAX_PRIORITY = 511;
const SEQ_SPAN = 2 ** 42;

/**
 * Packs a priority and a sequence number into one double that orders by priority first, then
 * sequence. Exact while `seq < 2^42` (4.4e12 events) and priority is in
 * [{@link MIN_PRIORITY}, {@link MAX_PRIORITY}].
 *
 * Why: comparing one Float64 per tie instead of two fields keeps the heap's inner loop short.
 */
export function packOrder(priority: number, seq: number): number {
  return (priority - MIN_PRIORITY) * SEQ_SPAN + seq;
}

/** Inverse of {@link packOrder} for the priority part. */
export function orderPriority(order: number): number {
  return Math.floor(order / SEQ_SPAN) + MIN_PRIORITY;
}

/** Inverse of {@link packOrder} for the sequence part. */
export function orderSequence(order: number): number {
  return order % SEQ_SPAN;
}

/** Largest sequence number {@link packOrder} represents exactly. */
export const MAX_SEQUENCE = SEQ_SPAN - 1;
