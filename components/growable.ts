/**
 * Append-only columns of numbers in typed arrays that double their capacity when full: millions
 * of values without one object each (the garbage collector never scans typed-array contents).
 */
abstract class Growable<A extends Float64Array | Int32Array> {
  /** Values in use (the first `length` slots of `array`). */
  length = 0;
  /** The backing store; replaced when it grows, so do not keep a reference across appends. */
  array: A;

  constructor(initialCapacity: number) {
    this.array = this.allocate(Math.max(1, initialCapacity));
  }

  /** Appends `value`. */
  push(value: number): void {
    if (this.length === this.array.length) this.grow();
    this.array[this.length++] = value;
  }

  /** Value at `i` (undefined behaviour outside 0..length-1: it reads the unused capacity). */
  get(i: number): number {
    return this.array[i];
  }

  protected abstract allocate(n: number): A;

  private grow(): void {
    const next = this.allocate(this.array.length * 2);
    next.set(this.array as ArrayLike<number>);
    this.array = next;
  }
}

/** A growable column of float64 values. */
export class GrowableFloat64 extends Growable<Float64Array> {
  constructor(initialCapacity = 1024) {
    super(initialCapacity);
  }
  protected allocate(n: number): Float64Array {
    return new Float64Array(n);
  }
}

/** A growable column of int32 values. */
export class GrowableInt32 extends Growable<Int32Array> {
  constructor(initialCapacity = 1024) {
    super(initialCapacity);
  }
  protected allocate(n: number): Int32Array {
    return new Int32Array(n);
  }
}
