/**
 * A bounded memo of misses per kernel shape, for {@link NodeModel.kernelCost}: of the analytical
 * model (AMR-style runs repeat their shapes millions of times: a 256-rank shock run makes 1.6 M
 * lookups of 14 k shapes) and of the reference cache's replays (one per shape, two passes of its
 * stream each).
 *
 * Four-way set-associative in typed arrays (one hash, up to four slots of four key compares)
 * rather than nested Maps: a hit then costs a few nanoseconds instead of three Map lookups. A new
 * shape takes the first slot of its set and moves the others one slot on, so up to four shapes
 * that share a set do not evict each other. The table starts small and grows (to at most
 * {@link MAX_SLOT_BITS}) while stores keep coming, so a run of few shapes allocates little and a
 * run of many does not recompute them again and again. The values are a pure function of the key,
 * so an eviction costs only a recomputation (for a replayed shape, two passes of its stream: beyond
 * 65536 shapes a run replaying large kernels repeats some replays).
 *
 * @packageDocumentation
 */

/** Slots at first (a power of two): 4096 shapes in 4096 * (4 keys + up to 4 values) * 8 bytes = 256 KiB. */
const FIRST_SLOT_BITS = 12;
/** Most slots (a power of two): 65536 shapes in at most 4 MiB. */
const MAX_SLOT_BITS = 16;
/** Slots per set: those a shape may occupy. */
const WAYS = 4;

/** Memo of `width` numbers per kernel shape `(elements, elementSize, stride, code)`. */
export class ShapeMemo {
  // Allocated on the first store: a memo nothing is stored in (one engine unused) pays nothing.
  private keys: Float64Array | undefined;
  private values: Float64Array | undefined;
  private slotBits = FIRST_SLOT_BITS;
  /** Stores since the table last grew. */
  private stores = 0;

  /** @param width - numbers stored per shape */
  constructor(private readonly width: number) {}

  /** Number of slots the table has now (0 before the first store). */
  get capacity(): number {
    return this.keys === undefined ? 0 : 1 << this.slotBits;
  }

  /** First slot of a shape's set: a multiplicative hash of its (possibly truncated) integer parts. */
  private static set(q: number, e: number, stride: number, code: number, slotBits: number): number {
    // `| 0` truncates keys above 2^31; harmless here: the slot only needs spreading, keys compare exactly.
    const h = Math.imul(q | 0, 0x9e3779b1) ^ Math.imul(stride | 0, 0x85ebca6b) ^ Math.imul((code | 0) + ((e | 0) << 8), 0xc2b2ae35);
    return (Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - slotBits)) & ~(WAYS - 1);
  }

  /**
   * Copies the memoised values of a shape into `out[0..width-1]`.
   * @returns false (leaving `out` untouched) when the shape is not memoised
   */
  get(q: number, e: number, stride: number, code: number, out: Float64Array): boolean {
    const keys = this.keys;
    if (keys === undefined) return false;
    const first = ShapeMemo.set(q, e, stride, code, this.slotBits);
    for (let s = first; s < first + WAYS; s++) {
      const k = 4 * s;
      if (keys[k] !== q || keys[k + 1] !== e || keys[k + 2] !== stride || keys[k + 3] !== code) continue;
      const values = this.values!;
      const w = this.width;
      for (let i = 0, v = w * s; i < w; i++) out[i] = values[v + i];
      return true;
    }
    return false;
  }

  /** Memoises `values[0..width-1]` for a shape not memoised (the last slot of its set is evicted). */
  set(q: number, e: number, stride: number, code: number, values: Float64Array): void {
    if (this.keys === undefined) this.allocate(FIRST_SLOT_BITS);
    else if (++this.stores > (1 << this.slotBits) >>> 1 && this.slotBits < MAX_SLOT_BITS) this.grow();
    this.put(q, e, stride, code, values, 0);
  }

  private allocate(slotBits: number): void {
    this.slotBits = slotBits;
    this.keys = new Float64Array(4 << slotBits).fill(-1);
    this.values = new Float64Array(this.width << slotBits);
    this.stores = 0;
  }

  /**
   * Four times the slots, with the shapes held so far. Why when stores reach half the slots: a run
   * whose shapes fit stops storing (every lookup hits), one whose shapes do not keeps evicting.
   */
  private grow(): void {
    const keys = this.keys!;
    const values = this.values!;
    const n = 1 << this.slotBits;
    this.allocate(Math.min(MAX_SLOT_BITS, this.slotBits + 2));
    const w = this.width;
    // Last slots first: re-put into a set, shapes keep their order (the newest first).
    for (let way = WAYS - 1; way >= 0; way--) {
      for (let s = way; s < n; s += WAYS) {
        if (keys[4 * s] < 0) continue;
        this.put(keys[4 * s], keys[4 * s + 1], keys[4 * s + 2], keys[4 * s + 3], values, w * s);
      }
    }
  }

  /** Writes a shape into the first slot of its set, moving the others one slot on (the last leaves). */
  private put(q: number, e: number, stride: number, code: number, from: Float64Array, at: number): void {
    const keys = this.keys!;
    const values = this.values!;
    const w = this.width;
    const s = ShapeMemo.set(q, e, stride, code, this.slotBits);
    const k = 4 * s;
    keys.copyWithin(k + 4, k, k + 4 * (WAYS - 1));
    values.copyWithin(w * (s + 1), w * s, w * (s + WAYS - 1));
    keys[k] = q;
    keys[k + 1] = e;
    keys[k + 2] = stride;
    keys[k + 3] = code;
    for (let i = 0; i < w; i++) values[w * s + i] = from[at + i];
  }
}
