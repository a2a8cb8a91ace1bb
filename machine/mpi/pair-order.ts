/**
 * @internal Non-overtaking bookkeeping: for each (sender, receiver) pair of world ranks with an
 * envelope (eager message or request-to-send) in flight, the arrival time (us) of its latest
 * envelope, so that a later envelope of the pair never arrives before it.
 *
 * MPI 4.0 §3.5 orders messages only per sender, receiver and communicator; keying by the pair
 * (every communicator of the pair shares one channel, as in MPICH's virtual connections) keeps
 * that and lets messages to other receivers go their own way.
 *
 * Per sender, the latest envelope's receiver and arrival, and the latest arrival of all its
 * envelopes, sit in arrays indexed by rank (the common case, a rank sending to one peer at a time
 * or messages arriving in the order they were sent, reads nothing else). When a sender turns
 * to another receiver while its latest envelope is still in flight, that envelope's pair and
 * arrival move to a table: open addressing with linear probing in one ArrayBuffer of 16-byte
 * records (Int32 sender, Int32 receiver, Float64 arrival), one cache line per probe, nothing
 * allocated per message. An entry that arrived by `now` can constrain nothing any more; its slot
 * is reused on the way (a reusable tombstone), and when the occupied slots would pass half the
 * capacity, spent entries are dropped and the rest re-placed, the capacity doubling only while
 * live entries fill more than a quarter of it. So the table holds about as many entries as there
 * are such envelopes in flight, not one per pair that ever talked.
 */
export class PairArrivals {
  /** Per sender: receiver of its latest envelope (-1: none yet). */
  private readonly lastReceiver: Int32Array;
  /** Per sender: arrival (us) of its latest envelope. */
  private readonly lastArrival: Float64Array;
  /** Per sender: the latest arrival (us) of all its envelopes (a message arriving no earlier can overtake none). */
  private readonly latestArrival: Float64Array;
  private i32 = new Int32Array(0);
  private f64 = new Float64Array(0);
  private mask = 0;
  /** Occupied table slots, live or spent. */
  private used = 0;

  /** @param ranks - ranks of the world (senders are 0 to ranks - 1) */
  constructor(ranks: number) {
    this.lastReceiver = new Int32Array(ranks).fill(EMPTY);
    this.lastArrival = new Float64Array(ranks);
    this.latestArrival = new Float64Array(ranks);
    this.allocate(64);
  }

  /**
   * The arrival (us) of an envelope from `sender` to `receiver` that the network delivers at
   * `arrival`: no earlier than the pair's previous envelope. Records it.
   * @param now - current simulated time (us); entries arriving by then are spent
   */
  order(sender: number, receiver: number, arrival: number, now: number): number {
    const last = this.lastArrival[sender];
    const to = this.lastReceiver[sender];
    if (to === receiver) {
      if (arrival < last) arrival = last;
      this.lastArrival[sender] = arrival;
      if (this.latestArrival[sender] < arrival) this.latestArrival[sender] = arrival;
      return arrival;
    }
    // Another receiver: an earlier envelope to this one may have moved to the table; look only
    // when this one would arrive before some earlier envelope of the sender (a spent entry's
    // arrival is <= now <= arrival, so taking the maximum is harmless).
    const latest = this.latestArrival[sender];
    if (arrival < latest) {
      if (this.used !== 0) {
        const earlier = this.find(sender, receiver);
        if (arrival < earlier) arrival = earlier;
      }
    } else this.latestArrival[sender] = arrival;
    if (last > now) this.put(sender, to, last, now);
    this.lastReceiver[sender] = receiver;
    this.lastArrival[sender] = arrival;
    return arrival;
  }

  /** The table's arrival for the pair, -Infinity without an entry. */
  private find(sender: number, receiver: number): number {
    const I = this.i32;
    const mask = this.mask;
    for (let i = hash(sender, receiver) & mask; ; i = (i + 1) & mask) {
      const s = I[i << 2];
      if (s === EMPTY) return -Infinity;
      if (s === sender && I[(i << 2) + 1] === receiver) return this.f64[(i << 1) + 1];
    }
  }

  /** Records `arrival` (us) for the pair in the table, keeping the later of it and the pair's entry. */
  private put(sender: number, receiver: number, arrival: number, now: number): void {
    const I = this.i32;
    const F = this.f64;
    const mask = this.mask;
    let i = hash(sender, receiver) & mask;
    let spent = -1;
    for (;;) {
      const s = I[i << 2];
      if (s === EMPTY) break;
      if (s === sender && I[(i << 2) + 1] === receiver) {
        if (F[(i << 1) + 1] < arrival) F[(i << 1) + 1] = arrival;
        return;
      }
      if (spent < 0 && F[(i << 1) + 1] <= now) spent = i;
      i = (i + 1) & mask;
    }
    // The pair has no entry: take the first spent slot on the way, else the empty one.
    if (spent < 0) {
      if (2 * (this.used + 1) > mask + 1) {
        this.rebuild(now);
        this.put(sender, receiver, arrival, now);
        return;
      }
      spent = i;
      this.used++;
    }
    I[spent << 2] = sender;
    I[(spent << 2) + 1] = receiver;
    F[(spent << 1) + 1] = arrival;
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.lastReceiver.byteLength + this.lastArrival.byteLength + this.latestArrival.byteLength + this.i32.byteLength;
  }

  /** Drops entries spent by `now`; re-places the rest, in a table twice as large while they fill more than a quarter. */
  private rebuild(now: number): void {
    const I = this.i32;
    const F = this.f64;
    const cap = this.mask + 1;
    let live = 0;
    for (let i = 0; i < cap; i++) if (I[i << 2] !== EMPTY && F[(i << 1) + 1] > now) live++;
    let next = cap;
    while (4 * live > next) next *= 2;
    if (next > cap) {
      this.allocate(next);
      for (let i = 0; i < cap; i++) if (I[i << 2] !== EMPTY && F[(i << 1) + 1] > now) this.place(I[i << 2], I[(i << 2) + 1], F[(i << 1) + 1]);
      this.used = live;
      return;
    }
    // In place. Start after a slot that was empty before anything is dropped: no entry's probe
    // path crosses it, so taking out and re-placing each entry in order from there leaves every
    // path unbroken (each entry lands at or before where it was).
    let e = 0;
    while (I[e << 2] !== EMPTY) e++;
    for (let i = 0; i < cap; i++) if (I[i << 2] !== EMPTY && !(F[(i << 1) + 1] > now)) I[i << 2] = EMPTY;
    for (let k = 1; k < cap; k++) {
      const i = (e + k) & this.mask;
      const s = I[i << 2];
      if (s === EMPTY) continue;
      I[i << 2] = EMPTY;
      this.place(s, I[(i << 2) + 1], F[(i << 1) + 1]);
    }
    this.used = live;
  }

  /** Puts an entry known to be absent into the first empty slot of its probe path. */
  private place(sender: number, receiver: number, arrival: number): void {
    const I = this.i32;
    let i = hash(sender, receiver) & this.mask;
    while (I[i << 2] !== EMPTY) i = (i + 1) & this.mask;
    I[i << 2] = sender;
    I[(i << 2) + 1] = receiver;
    this.f64[(i << 1) + 1] = arrival;
  }

  private allocate(cap: number): void {
    const buf = new ArrayBuffer(cap * RECORD);
    this.i32 = new Int32Array(buf);
    this.f64 = new Float64Array(buf);
    for (let i = 0; i < cap; i++) this.i32[i << 2] = EMPTY;
    this.mask = cap - 1;
  }
}

/** Sender field of a free slot; receiver of a sender without envelopes. */
const EMPTY = -1;
/** Bytes per slot. */
const RECORD = 16;

/** Mixes a pair of ranks into 32 bits (MurmurHash3's finaliser): neighbouring pairs spread over the table. */
function hash(sender: number, receiver: number): number {
  let h = Math.imul(sender, 0x9e3779b1) ^ receiver;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
