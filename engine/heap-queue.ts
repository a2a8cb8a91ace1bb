import type { EventHandle, EventHandler, EventQueue } from "./event-queue.js";

/** Bits of a handle that hold the slot index; the rest hold the slot's version. */
const SLOT_BITS = 26;
const SLOT_SPAN = 2 ** SLOT_BITS;
const VERSION_MASK = 2 ** 26 - 1; // versions wrap with a mask: `%` on doubles is several times slower
/** Largest number of simultaneously pending events a {@link HeapQueue} can hold. */
export const HEAP_QUEUE_MAX_PENDING = SLOT_SPAN - 1;

/** End marker of the free-slot list. */
const NO_SLOT = -1;

/**
 * The default event list: a binary min-heap kept in parallel typed arrays.
 *
 * Layout (32 bytes per pending event):
 * - heap entries: `time` (Float64), `order` (Float64), `slot` (Int32) — keys stored inline so the
 *   sift loops compare without indirection;
 * - per slot: `version` (Uint32) and the handler reference (a JS array element).
 *
 * Freed slots form a free list threaded through the handler array (a free slot holds the index
 * of the next free slot instead of a function), so no extra array is needed. Cancellation is
 * lazy: the handler is cleared and the version bumped; the dead heap entry is discarded when it
 * reaches the top, and the heap is compacted when dead entries outnumber live ones. Versions have
 * 26 bits; a slot whose version wraps back to 0 is retired, never reused, so no handle can ever
 * name a later event.
 */
export class HeapQueue implements EventQueue {
  poppedTime = 0;
  poppedArg: unknown = undefined;

  private capacity: number;
  private n = 0; // heap entries, live or dead
  private live = 0;
  private hTime: Float64Array;
  private hOrder: Float64Array;
  private hSlot: Int32Array;
  private version: Uint32Array;
  // Holds EventHandler (live), null (cancelled, still in heap) or a free-list link (number).
  private handlers: Array<EventHandler | null | number>;
  // Arguments are stored only once some event carries one, so argument-free workloads pay nothing.
  // Allocated at full capacity when first needed: a sparse JS array would fall into dictionary mode.
  private args: unknown[] | null = null;
  private freeHead = NO_SLOT;
  private nextUnused = 0;

  constructor(initialCapacity = 1024) {
    this.capacity = Math.max(16, initialCapacity | 0);
    this.hTime = new Float64Array(this.capacity);
    this.hOrder = new Float64Array(this.capacity);
    this.hSlot = new Int32Array(this.capacity);
    this.version = new Uint32Array(this.capacity);
    this.handlers = new Array(this.capacity);
  }

  get size(): number {
    return this.live;
  }

  reserve(n: number): void {
    if (n > this.capacity) this.grow(n);
  }

  bytesUsed(): number {
    // typed arrays + one pointer per handler element (8 bytes on 64-bit V8 without pointer compression)
    return this.capacity * (8 + 8 + 4 + 4) + this.handlers.length * 8 + (this.args === null ? 0 : this.args.length * 8);
  }

  push(time: number, order: number, handler: EventHandler, arg: unknown): EventHandle {
    let slot: number;
    if (this.freeHead !== NO_SLOT) {
      slot = this.freeHead;
      this.freeHead = this.handlers[slot] as number;
    } else {
      if (this.nextUnused === this.capacity) this.grow(this.capacity * 2);
      slot = this.nextUnused++;
    }
    this.handlers[slot] = handler;
    if (this.args !== null) this.args[slot] = arg;
    else if (arg !== undefined) {
      this.args = new Array<unknown>(this.capacity).fill(undefined);
      this.args[slot] = arg;
    }
    if (this.n === this.capacity) this.grow(this.capacity * 2);
    this.siftUp(this.n++, time, order, slot);
    this.live++;
    return this.version[slot] * SLOT_SPAN + slot;
  }

  cancel(handle: EventHandle): boolean {
    const slot = handle % SLOT_SPAN;
    const version = (handle - slot) / SLOT_SPAN;
    if (!(slot >= 0 && slot < this.nextUnused) || this.version[slot] !== version) return false;
    if (typeof this.handlers[slot] !== "function") return false;
    this.handlers[slot] = null;
    if (this.args !== null) this.args[slot] = undefined;
    this.version[slot] = (version + 1) & VERSION_MASK;
    this.live--;
    const dead = this.n - this.live;
    if (dead > 1024 && dead > this.live) this.compact();
    return true;
  }

  peekTime(): number {
    while (this.n > 0) {
      if (typeof this.handlers[this.hSlot[0]] === "function") return this.hTime[0];
      this.removeTop(); // a cancelled entry: discard it
    }
    return Infinity;
  }

  pop(): EventHandler | undefined {
    while (this.n > 0) {
      const slot = this.hSlot[0];
      const h = this.handlers[slot];
      const time = this.hTime[0];
      this.removeTop();
      if (typeof h === "function") {
        this.poppedTime = time;
        const args = this.args;
        if (args !== null) {
          this.poppedArg = args[slot];
          args[slot] = undefined;
        } else this.poppedArg = undefined;
        this.version[slot] = (this.version[slot] + 1) & VERSION_MASK;
        this.live--;
        this.freeSlot(slot);
        return h;
      }
    }
    return undefined;
  }

  /** Removes the heap root; frees its slot if it was a cancelled entry. */
  private removeTop(): void {
    const slot = this.hSlot[0];
    if (this.handlers[slot] === null) this.freeSlot(slot);
    const last = --this.n;
    if (last > 0) this.siftDown(0, this.hTime[last], this.hOrder[last], this.hSlot[last]);
  }

  /** Puts a slot (its version already bumped) on the free list, or retires it when its version wrapped. */
  private freeSlot(slot: number): void {
    // why: a slot whose version came back to 0 could be named by a handle of its first use; it is
    // never reused (one slot lost per 2^26 events through it), so stale handles stay stale.
    if (this.version[slot] === 0) {
      this.handlers[slot] = null;
      return;
    }
    this.handlers[slot] = this.freeHead;
    this.freeHead = slot;
  }

  /** Places (time, order, slot) at hole `i` or above, moving larger parents down. */
  private siftUp(i: number, time: number, order: number, slot: number): void {
    const T = this.hTime;
    const O = this.hOrder;
    const S = this.hSlot;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = T[p];
      if (pt < time || (pt === time && O[p] < order)) break;
      T[i] = pt;
      O[i] = O[p];
      S[i] = S[p];
      i = p;
    }
    T[i] = time;
    O[i] = order;
    S[i] = slot;
  }

  /** Places (time, order, slot) at hole `i` or below, moving smaller children up. */
  private siftDown(i: number, time: number, order: number, slot: number): void {
    const T = this.hTime;
    const O = this.hOrder;
    const S = this.hSlot;
    const n = this.n;
    const half = n >> 1;
    // Orders are read only when times tie: ties are rare, and each avoided load is a cache line.
    while (i < half) {
      let c = 2 * i + 1;
      let ct = T[c];
      const r = c + 1;
      if (r < n) {
        const rt = T[r];
        if (rt < ct || (rt === ct && O[r] < O[c])) {
          c = r;
          ct = rt;
        }
      }
      if (time < ct || (time === ct && order < O[c])) break;
      T[i] = ct;
      O[i] = O[c];
      S[i] = S[c];
      i = c;
    }
    T[i] = time;
    O[i] = order;
    S[i] = slot;
  }

  /** Drops cancelled entries and re-heapifies in O(n). */
  private compact(): void {
    let w = 0;
    for (let r = 0; r < this.n; r++) {
      const slot = this.hSlot[r];
      if (typeof this.handlers[slot] === "function") {
        this.hTime[w] = this.hTime[r];
        this.hOrder[w] = this.hOrder[r];
        this.hSlot[w] = slot;
        w++;
      } else this.freeSlot(slot);
    }
    this.n = w;
    for (let i = (w >> 1) - 1; i >= 0; i--) this.siftDown(i, this.hTime[i], this.hOrder[i], this.hSlot[i]);
  }

  private grow(min: number): void {
    const cap = Math.max(min, 16);
    if (cap > SLOT_SPAN) throw new RangeError(`event queue full: more than ${HEAP_QUEUE_MAX_PENDING} pending events`);
    const t = new Float64Array(cap);
    t.set(this.hTime);
    this.hTime = t;
    const o = new Float64Array(cap);
    o.set(this.hOrder);
    this.hOrder = o;
    const s = new Int32Array(cap);
    s.set(this.hSlot);
    this.hSlot = s;
    const v = new Uint32Array(cap);
    v.set(this.version);
    this.version = v;
    this.handlers.length = cap;
    if (this.args !== null) {
      const old = this.args.length;
      this.args.length = cap;
      this.args.fill(undefined, old);
    }
    this.capacity = cap;
  }
}
