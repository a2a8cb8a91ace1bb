/**
 * Request and message slots of the MPI layer. A send request slot doubles as the message in
 * flight; a slot is recycled through a free list, and its generation counter makes stale handles
 * detectable.
 *
 * Layout: one 64-byte record per slot in a single buffer (ten 32-bit fields, then three doubles),
 * read through an Int32Array and a Float64Array view of it. Why: handling a message touches most
 * fields of two or three slots at random indices; with one record per cache line that is two or
 * three cache misses instead of one per field array, which dominates on worlds of 10^4+ ranks.
 *
 * @internal
 * @packageDocumentation
 */

/** Slot holds a send request (and its message). */
export const KIND_SEND = 1;
/** Slot holds a receive request. */
export const KIND_RECV = 2;

/**
 * The request is complete (visible to wait/test). A receive is complete once its message has
 * arrived; the call that completes it for the program then takes the handling time.
 */
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
/** Send of a pairwise exchange step whose arrival event is only reserved (see MpiWorld's pair steps). */
export const F_LATENT = 1024;

/** Transient mark while a wait's request list is read (a handle listed twice is refused). */
export const F_LISTED = 2048;

/** Slot indices use the low bits of a handle; the generation the rest. */
export const SLOT_SPAN = 2 ** 26;
/** End of a linked list. */
export const NIL = -1;

// Int32 fields of a record (record i starts at Int32 index 16 i).
const KIND = 0;
const FLAGS = 1;
const GEN = 2;
const OWNER = 3;
const PEER = 4;
const TAG = 5;
const CTX = 6;
const NEXT = 7;
const MATCH = 8;
const AUX = 9;
// Float64 fields (record i starts at Float64 index 8 i; indices 0-4 overlay the Int32 fields).
const BYTES = 5;
const VALUE = 6;
const COMPLETE_AT = 7;
/** Bytes per record. */
const RECORD = 64;

/** @internal The pool. */
export class RequestPool {
  capacity = 0;
  private i32 = new Int32Array(0);
  private f64 = new Float64Array(0);
  private freeHead = NIL;
  private used = 0;
  /** Slots in use. */
  live = 0;

  constructor(initial = 1024) {
    this.grow(Math.max(16, initial));
  }

  /** Takes a free slot and sets its fields (`next` and `match` start as NIL). */
  alloc(kind: number, flags: number, owner: number, peer: number, tag: number, ctx: number, bytes: number, value: number, completeAt: number): number {
    let s = this.freeHead;
    if (s !== NIL) this.freeHead = this.i32[(s << 4) + NEXT];
    else {
      if (this.used === this.capacity) this.grow(this.capacity * 2);
      s = this.used++;
    }
    this.live++;
    const I = this.i32;
    const b = s << 4;
    I[b + KIND] = kind;
    I[b + FLAGS] = flags;
    I[b + OWNER] = owner;
    I[b + PEER] = peer;
    I[b + TAG] = tag;
    I[b + CTX] = ctx;
    I[b + NEXT] = NIL;
    I[b + MATCH] = NIL;
    const F = this.f64;
    const d = s << 3;
    F[d + BYTES] = bytes;
    F[d + VALUE] = value;
    F[d + COMPLETE_AT] = completeAt;
    return s;
  }

  /** Returns a slot to the free list and bumps its generation. */
  free(s: number): void {
    const I = this.i32;
    const b = s << 4;
    I[b + FLAGS] = 0;
    I[b + KIND] = 0;
    I[b + GEN] = (I[b + GEN] + 1) % SLOT_SPAN;
    I[b + NEXT] = this.freeHead;
    this.freeHead = s;
    this.live--;
  }

  /** Slots ever used (upper bound for scans). */
  get highWater(): number {
    return this.used;
  }

  /** The handle of slot `s` (slot + generation * 2^26, exact in a double). */
  handle(s: number): number {
    return s + this.i32[(s << 4) + GEN] * SLOT_SPAN;
  }

  /** The slot of a handle, or -1 when the handle is stale or invalid. */
  slotOf(h: number): number {
    if (!Number.isInteger(h) || h < 0) return NIL;
    const s = h % SLOT_SPAN;
    if (s >= this.used || this.i32[(s << 4) + KIND] === 0 || this.i32[(s << 4) + GEN] !== (h - s) / SLOT_SPAN) return NIL;
    return s;
  }

  /** True when handle `h` still refers to the request it was made for. */
  isCurrent(h: number): boolean {
    const s = h % SLOT_SPAN;
    return this.i32[(s << 4) + GEN] === (h - s) / SLOT_SPAN && this.i32[(s << 4) + KIND] !== 0;
  }

  /** Bytes held by the records. */
  bytesUsed(): number {
    return this.capacity * RECORD;
  }

  /** KIND_SEND, KIND_RECV or 0 (free). */
  kind(s: number): number {
    return this.i32[(s << 4) + KIND];
  }
  /** F_* bits. */
  flags(s: number): number {
    return this.i32[(s << 4) + FLAGS];
  }
  setFlags(s: number, v: number): void {
    this.i32[(s << 4) + FLAGS] = v;
  }
  orFlags(s: number, bits: number): void {
    this.i32[(s << 4) + FLAGS] |= bits;
  }
  clearFlags(s: number, bits: number): void {
    this.i32[(s << 4) + FLAGS] &= ~bits;
  }
  /** World rank owning the request (sender of a send). */
  owner(s: number): number {
    return this.i32[(s << 4) + OWNER];
  }
  /** Send: destination world rank. Receive: source asked for (world rank or -1), then the actual source once matched. */
  peer(s: number): number {
    return this.i32[(s << 4) + PEER];
  }
  setPeer(s: number, v: number): void {
    this.i32[(s << 4) + PEER] = v;
  }
  /** Tag (receive: asked for, then actual). */
  tag(s: number): number {
    return this.i32[(s << 4) + TAG];
  }
  setTag(s: number, v: number): void {
    this.i32[(s << 4) + TAG] = v;
  }
  /** Matching context (communicator and point-to-point/collective). */
  ctx(s: number): number {
    return this.i32[(s << 4) + CTX];
  }
  /** Next slot in a queue or the free list. */
  next(s: number): number {
    return this.i32[(s << 4) + NEXT];
  }
  setNext(s: number, v: number): void {
    this.i32[(s << 4) + NEXT] = v;
  }
  /** The matched partner slot. */
  match(s: number): number {
    return this.i32[(s << 4) + MATCH];
  }
  setMatch(s: number, v: number): void {
    this.i32[(s << 4) + MATCH] = v;
  }
  /** A number the current waiter keeps with the request (its position in a waitsome list). */
  aux(s: number): number {
    return this.i32[(s << 4) + AUX];
  }
  setAux(s: number, v: number): void {
    this.i32[(s << 4) + AUX] = v;
  }
  /** Send: message size. Receive: buffer size, then actual size once matched. */
  bytes(s: number): number {
    return this.f64[(s << 3) + BYTES];
  }
  setBytes(s: number, v: number): void {
    this.f64[(s << 3) + BYTES] = v;
  }
  /** A number carried with the message (the simulator moves no data; programs may tag messages with it). */
  value(s: number): number {
    return this.f64[(s << 3) + VALUE];
  }
  setValue(s: number, v: number): void {
    this.f64[(s << 3) + VALUE] = v;
  }
  /**
   * Latent send: the kernel order reserved for its arrival event. Kept in the value field: latent
   * sends are collective-internal, and those carry no value (saves a cache line per message).
   */
  order(s: number): number {
    return this.f64[(s << 3) + VALUE];
  }
  setOrder(s: number, v: number): void {
    this.f64[(s << 3) + VALUE] = v;
  }
  /** Send: time at which the request completes, NaN while unknown. */
  completeAt(s: number): number {
    return this.f64[(s << 3) + COMPLETE_AT];
  }
  setCompleteAt(s: number, v: number): void {
    this.f64[(s << 3) + COMPLETE_AT] = v;
  }
  /**
   * Receive, once its message has arrived: the CPU time (us) its owner spends handling the
   * message (the path's receiver overhead). Kept in the completeAt field, which only sends use.
   */
  handling(s: number): number {
    return this.f64[(s << 3) + COMPLETE_AT];
  }
  setHandling(s: number, v: number): void {
    this.f64[(s << 3) + COMPLETE_AT] = v;
  }

  private grow(n: number): void {
    const buf = new ArrayBuffer(n * RECORD);
    const i32 = new Int32Array(buf);
    i32.set(this.i32);
    this.i32 = i32;
    this.f64 = new Float64Array(buf);
    this.capacity = n;
  }
}
