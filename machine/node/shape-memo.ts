/**
 * A fixed-size memo of analytical misses per kernel shape, for {@link NodeModel.kernelCost}:
 * AMR-style runs repeat a few shapes millions of times.
 *
 * Direct-mapped in typed arrays (one hash, one slot, four key compares) rather than nested Maps:
 * a hit then costs a few nanoseconds instead of three Map lookups. A colliding shape overwrites
 * the slot; the values are a pure function of the key, so a collision costs only a recomputation.
 *
 * @packageDocumentation
 */

/** Slots (a power of two): 4096 shapes, 4096 * (4 keys + up to 4 values) * 8 bytes = 256 KiB. */
const SLOT_BITS = 12;
const SLOTS = 1 << SLOT_BITS;

/** Memo of `width` numbers per kernel shape `(elements, elementSize, stride, code)`. */
export class ShapeMemo {
  // Allocated on the first store: a node model that never memoises (reference cache) pays nothing.
  private keys: Float64Array | undefined;
  private values: Float64Array | undefined;

  /** @param width - numbers stored per shape */
  constructor(private readonly width: number) {}

  /** Slot of a shape: a multiplicative hash of its (possibly truncated) integer parts. */
  private static slot(q: number, e: number, stride: number, code: number): number {
    // `| 0` truncates keys above 2^31; harmless here: the slot only needs spreading, keys compare exactly.
    const h = Math.imul(q | 0, 0x9e3779b1) ^ Math.imul(stride | 0, 0x85ebca6b) ^ Math.imul((code | 0) + ((e | 0) << 8), 0xc2b2ae35);
    return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - SLOT_BITS);
  }

  /**
   * Copies the memoised values of a shape into `out[0..width-1]`.
   * @returns false (leaving `out` untouched) when the shape is not memoised
   */
  get(q: number, e: number, stride: number, code: number, out: Float64Array): boolean {
    const keys = this.keys;
    if (keys === undefined) return false;
    const s = ShapeMemo.slot(q, e, stride, code);
    const k = 4 * s;
    if (keys[k] !== q || keys[k + 1] !== e || keys[k + 2] !== stride || keys[k + 3] !== code) return false;
    const values = this.values!;
    const w = this.width;
    for (let i = 0, v = w * s; i < w; i++) out[i] = values[v + i];
    return true;
  }

  /** Memoises `values[0..width-1]` for a shape (replacing whatever shared its slot). */
  set(q: number, e: number, stride: number, code: number, values: Float64Array): void {
    if (this.keys === undefined) {
      this.keys = new Float64Array(4 * SLOTS).fill(-1);
      this.values = new Float64Array(this.width * SLOTS);
    }
    const s = ShapeMemo.slot(q, e, stride, code);
    const k = 4 * s;
    this.keys[k] = q;
    this.keys[k + 1] = e;
    this.keys[k + 2] = stride;
    this.keys[k + 3] = code;
    const w = this.width;
    for (let i = 0, v = w * s; i < w; i++) this.values![v + i] = values[i];
  }
}
