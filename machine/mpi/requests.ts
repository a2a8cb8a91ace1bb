/**
 * Request and message slots of the MPI layer, stored as parallel typed arrays (struct of arrays)
 * so that posting a message or a receive allocates nothing once the pool has grown. A send
 * request slot doubles as the message in flight; a slot is recycled through a free list, and
 * its generation counter makes stale handles detectable.
 *
 * @internal
 * @packageDocumentation
 */

/** Slot holds a send request (and its message). */
export const KIND_SEND = 1;
/** Slot holds a receive request. */
export const KIND_RECV = 2;

/** The request is complete (visible to wait/test). */
export const F_COMPLETE = 1;
/** Its owner rank is blocked in a wait that includes it. */
export const F_WAITED = 2;
/** The owner has released it (waited or tested complete). */
export const F_RELEASED = 4;
/** Send: the message is still referenced by the network or a queue (not yet fully delivered). */
export const F_NET = 8;
/** Send: rendezvous protocol. */
export const F_RDV = 16;
/** A completion event is scheduled for it. */
export const F_SCHED = 32;
/** Created by a collective (never visible to the program). */
export const F_INTERNAL = 64;
/** Sitting in a posted-receive or unexpected-message queue. */
export const F_QUEUED = 128;
/** Receive: matched (status fields hold the message's envelope). */
export const F_MATCHED = 256;
/** Send: a network handler completes it at the right time (no completion event needed). */
export const F_AUTO = 512;

/** Slot indices use the low bits of a handle; the generation the rest. */
export const SLOT_SPAN = 2 ** 26;
/** End of a linked list. */
export const NIL = -1;

/** @internal The pool. */
export class RequestPool {
  capacity: number;
  kind!: Uint8Array;
  flags!: Uint16Array;
  gen!: Uint32Array;
  /** World rank owning the request (sender of a send). */
  owner!: Int32Array;
  /** Send: destination world rank. Receive: source asked for (world rank or -1), then the actual source once matched. */
  peer!: Int32Array;
  /** Tag (receive: asked for, then actual). */
  tag!: Int32Array;
  /** Matching context (communicator and point-to-point/collective). */
  ctx!: Int32Array;
  /** Send: message size. Receive: buffer size, then actual size once matched. */
  bytes!: Float64Array;
  /** A number carried with the message (the simulator moves no data; programs may tag messages with it). */
  value!: Float64Array;
  /** Send: time at which the request completes, NaN while unknown. */
  completeAt!: Float64Array;
  /** Next slot in a queue or the free list. */
  next!: Int32Array;
  /** The matched partner slot. */
  match!: Int32Array;
  private freeHead = NIL;
  private used = 0;
  /** Slots in use. */
  live = 0;

  constructor(initial = 1024) {
    this.capacity = 0;
    this.grow(Math.max(16, initial));
  }

  /** Takes a free slot (its fields are stale; the caller sets them). */
  alloc(): number {
    let s = this.freeHead;
    if (s !== NIL) this.freeHead = this.next[s];
    else {
      if (this.used === this.capacity) this.grow(this.capacity * 2);
      s = this.used++;
    }
    this.live++;
    return s;
  }

  /** Returns a slot to the free list and bumps its generation. */
  free(s: number): void {
    this.flags[s] = 0;
    this.kind[s] = 0;
    this.gen[s] = (this.gen[s] + 1) % SLOT_SPAN;
    this.next[s] = this.freeHead;
    this.freeHead = s;
    this.live--;
  }

  /** Slots ever used (upper bound for scans). */
  get highWater(): number {
    return this.used;
  }

  /** The handle of slot `s` (slot + generation * 2^26, exact in a double). */
  handle(s: number): number {
    return s + this.gen[s] * SLOT_SPAN;
  }

  /** The slot of a handle, or -1 when the handle is stale or invalid. */
  slotOf(h: number): number {
    if (!Number.isInteger(h) || h < 0) return NIL;
    const s = h % SLOT_SPAN;
    if (s >= this.used || this.kind[s] === 0 || this.gen[s] !== (h - s) / SLOT_SPAN) return NIL;
    return s;
  }

  /** Bytes held by the arrays. */
  bytesUsed(): number {
    return this.capacity * (1 + 2 + 4 * 7 + 8 * 3);
  }

  private grow(n: number): void {
    const copy = <T extends Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array>(old: T | undefined, make: (n: number) => T): T => {
      const a = make(n);
      if (old) a.set(old as never);
      return a;
    };
    this.kind = copy(this.kind, (k) => new Uint8Array(k));
    this.flags = copy(this.flags, (k) => new Uint16Array(k));
    this.gen = copy(this.gen, (k) => new Uint32Array(k));
    this.owner = copy(this.owner, (k) => new Int32Array(k));
    this.peer = copy(this.peer, (k) => new Int32Array(k));
    this.tag = copy(this.tag, (k) => new Int32Array(k));
    this.ctx = copy(this.ctx, (k) => new Int32Array(k));
    this.bytes = copy(this.bytes, (k) => new Float64Array(k));
    this.value = copy(this.value, (k) => new Float64Array(k));
    this.completeAt = copy(this.completeAt, (k) => new Float64Array(k));
    this.next = copy(this.next, (k) => new Int32Array(k));
    this.match = copy(this.match, (k) => new Int32Array(k));
    this.capacity = n;
  }
}
