/**
 * Compute kernels: what one invocation does per element, how many elements, and in which order
 * it walks its arrays.
 *
 * The **address stream** of a kernel (what the reference cache replays, and what the analytical
 * model predicts) is defined exactly:
 * - the kernel works on `arrays` arrays of `elements` elements of `elementSize` bytes each;
 *   array `a` starts at byte `a * (roundUp(elements * elementSize, 4096) + 2176)`: back to back,
 *   each padded to whole pages and then skewed by 17 lines of 128 bytes ({@link ARRAY_SKEW}), so
 *   that no two arrays start at the same position of any power-of-two set period. Without the
 *   skew, arrays whose padded size is a multiple of a large cache's set period (1 in 16 sizes for
 *   a 512 kB 8-way L2) would share every set; real machines do not show that, because their large
 *   caches are indexed by physical addresses and the page allocator scatters the pages;
 * - one pass visits every element index `j` once, in pattern order; for each `j` it touches
 *   element `j` of every array in turn (one access each, at the element's first byte);
 * - `sequential`: `j = 0, 1, ..., Q-1`;
 * - `strided` with stride `s` (elements): the column sweep of a row-major 2-D patch whose rows
 *   are `s` elements long (the Y-derivative of the papers): for column `c = 0..s-1`, for row
 *   `i = 0..ceil(Q/s)-1`, `j = i*s + c` (skipping `j >= Q`). A stride of 1 or of `Q` or more (one
 *   column, or one row) gives the sequential stream and costs what it costs
 *   ({@link stridedIsSequential});
 * - `random`: `Q` indices drawn uniformly (with replacement) from a fixed pseudo-random sequence,
 *   new draws at every pass.
 *
 * The kernel's further references (`loads + stores` per element beyond the `arrays` stream
 * accesses: stencil neighbours just touched, temporaries) hit the first-level cache.
 * Caches are in steady state: the same kernel has run many times on the same arrays (the papers'
 * interleaved invocations), so arrays that fit stay resident, also under the random pattern (whose
 * every line has been drawn before).
 *
 * Each access touches one byte, the element's first: an element larger than a sector costs one
 * sector fill per access, as a kernel that reads one field of each struct of an array of
 * structs. A sequential sweep that reads whole elements of `E` bytes is the stream of `E / 8`
 * times as many elements of 8 bytes.
 *
 * @packageDocumentation
 */
import { MachineInputError } from "./errors.js";

/** Access pattern of a kernel over its arrays. */
export type AccessPattern = "sequential" | "strided" | "random";

/** One kernel invocation. All counts are per element unless stated. */
export interface KernelSpec {
  /** Number of elements Q of each array. */
  elements: number;
  /** Element size in bytes (8 for doubles). */
  elementSize: number;
  /** Loads per element (at least the stream accesses that are loads). */
  loads: number;
  /** Stores per element. */
  stores: number;
  /** Floating-point operations per element. */
  flops: number;
  /** Other instructions per element (integer, address, branch). */
  otherInstructions: number;
  /** Access order. */
  pattern: AccessPattern;
  /** Stride in elements for `strided` (the row length of the patch); ignored otherwise. */
  stride?: number;
  /** Passes over the arrays. Default 1. */
  passes?: number;
  /** Distinct arrays walked together (each of Q elements). Default 1. */
  arrays?: number;
  /** Fraction of flops executed as fused multiply-adds (one instruction for two flops). Default 0. */
  fmaFraction?: number;
  /**
   * Loads per element that read floating-point data, at most `loads`. Default: every load when the
   * kernel does floating-point work (`flops > 0`), else none. They matter where the first-level
   * cache serves integer loads only (`l1.integerOnly`, Itanium 2).
   */
  floatLoads?: number;
}

/** Each array's size is padded to a multiple of this (bytes, one page). */
export const ARRAY_ALIGNMENT = 4096;

/**
 * Skew added to each array's distance from the previous one (bytes): 17 lines of 128 bytes, a
 * multiple of every line size up to 128 bytes and an odd number of lines of each, so arrays stay
 * line-aligned but never coincide modulo a power-of-two set period of 256 bytes or more.
 */
export const ARRAY_SKEW = 2176;

// The two constants again under this module's own names, for arraySpan. Why: V8 reads an
// exported binding through its module cell at every use, so through the exported names arraySpan,
// which the miss model takes on every strided evaluation, would divide by a value loaded at run
// time (about 1.5% of the cache benchmark's square-patch class); a module's own constant it
// compiles in, and the division by a power of two becomes a multiplication.
const alignment = ARRAY_ALIGNMENT;
const skew = ARRAY_SKEW;

/** Distance between the bases of consecutive arrays of a kernel (bytes). */
export function arraySpan(elements: number, elementSize: number): number {
  return Math.ceil((elements * elementSize) / alignment) * alignment + skew;
}

/** Base address of array `a` of a kernel (bytes). */
export function arrayBase(a: number, elements: number, elementSize: number): number {
  return a * arraySpan(elements, elementSize);
}

/**
 * Whether a `strided` sweep of stride `stride` (elements) over `elements` elements visits them in
 * sequential order: a stride of 1 (one column) or of `elements` or more (one row, whose columns
 * are its elements, `j = 0, 1, ..., Q-1`). The stream is then the sequential one, and so are its
 * misses, its prefetching and its time.
 */
export function stridedIsSequential(elements: number, stride: number): boolean {
  return stride <= 1 || stride >= elements;
}

/** Stride (elements) of a 2-D Y-derivative over a square-ish patch of `elements` elements: `ceil(sqrt(Q))`. */
export function squarePatchStride(elements: number): number {
  return Math.max(1, Math.ceil(Math.sqrt(elements)));
}

/** Throws the error of kernel key `key`: `expected`, and what was given (`got`, in place of `value`'s text when given). */
function bad(key: string, expected: string, value: unknown, got?: string): never {
  throw new MachineInputError(`kernel.${key}`, expected, value, got === undefined ? undefined : `expected ${expected}, got ${got}`);
}

function checkCount(key: string, v: unknown, min: number, integer: boolean): void {
  if (typeof v !== "number" || !(v >= min) || v === Infinity || (integer && !Number.isInteger(v))) {
    bad(key, `${integer ? "an integer" : "a number"} >= ${min}`, v);
  }
}

/**
 * Checks a kernel description (cheap: a few comparisons; {@link NodeModel.kernelCost} calls it).
 * @throws MachineInputError naming the offending `kernel.<key>`
 */
export function validateKernel(k: KernelSpec): void {
  // Fast path (one branch, every field read once): kernelCost calls this on every invocation and
  // seven helper calls with string keys cost more than the memoised cost model itself.
  const q = k.elements;
  const e = k.elementSize;
  const loads = k.loads;
  const stores = k.stores;
  const pattern = k.pattern;
  const passes = k.passes;
  const arrays = k.arrays;
  const fma = k.fmaFraction;
  if (
    Number.isSafeInteger(q) && q >= 0 &&
    Number.isSafeInteger(e) && e >= 1 &&
    typeof loads === "number" && loads >= 0 && loads < Infinity &&
    typeof stores === "number" && stores >= 0 && stores < Infinity &&
    typeof k.flops === "number" && k.flops >= 0 && k.flops < Infinity &&
    typeof k.otherInstructions === "number" && k.otherInstructions >= 0 && k.otherInstructions < Infinity &&
    (pattern === "sequential" || pattern === "random" || (pattern === "strided" && Number.isSafeInteger(k.stride) && k.stride! >= 1)) &&
    (passes === undefined || (Number.isSafeInteger(passes) && passes >= 0)) &&
    (arrays === undefined || (Number.isInteger(arrays) && arrays >= 1 && arrays <= 64)) &&
    (fma === undefined || (fma >= 0 && fma <= 1)) &&
    (k.floatLoads === undefined || (k.floatLoads >= 0 && k.floatLoads <= loads)) &&
    loads + stores >= (arrays ?? 1) &&
    q * e * (arrays ?? 1) <= MAX_KERNEL_BYTES
  ) return;
  checkKernelValues(k, true);
}

/**
 * {@link validateKernel}'s rules on the values a kernel description gives: each key given, and
 * each rule that joins two keys when both are. With `complete`, a missing required key is an error
 * too (a whole description); without, missing keys are skipped, for a caller that knows some values
 * only (a component's constant parameters, checked at load).
 * @throws MachineInputError naming the first offending `kernel.<key>`
 */
export function checkKernelValues(k: Partial<KernelSpec>, complete = false): void {
  const given = (v: unknown): boolean => complete || v !== undefined;
  if (given(k.elements)) checkCount("elements", k.elements, 0, true);
  if (given(k.elementSize)) checkCount("elementSize", k.elementSize, 1, true);
  if (given(k.loads)) checkCount("loads", k.loads, 0, false);
  if (given(k.stores)) checkCount("stores", k.stores, 0, false);
  if (given(k.flops)) checkCount("flops", k.flops, 0, false);
  if (given(k.otherInstructions)) checkCount("otherInstructions", k.otherInstructions, 0, false);
  if (given(k.pattern) && k.pattern !== "sequential" && k.pattern !== "strided" && k.pattern !== "random") bad("pattern", "sequential, strided or random", k.pattern);
  if (k.pattern === "strided" && given(k.stride)) checkCount("stride", k.stride, 1, true);
  if (k.passes !== undefined) checkCount("passes", k.passes, 0, true);
  if (k.arrays !== undefined && !(Number.isInteger(k.arrays) && k.arrays >= 1 && k.arrays <= 64)) bad("arrays", "an integer in [1, 64]", k.arrays);
  if (k.fmaFraction !== undefined && !(k.fmaFraction >= 0 && k.fmaFraction <= 1)) bad("fmaFraction", "a number in [0, 1]", k.fmaFraction);
  if (k.floatLoads !== undefined && k.loads !== undefined && !(typeof k.floatLoads === "number" && k.floatLoads >= 0 && k.floatLoads <= k.loads)) bad("floatLoads", `a number in [0, loads (${k.loads})]`, k.floatLoads);
  if (k.floatLoads !== undefined && k.loads === undefined) checkCount("floatLoads", k.floatLoads, 0, false);
  const needed = k.arrays ?? 1;
  // The sum is what the rule compares: the loads alone ("got 2") would read as the sum.
  if (k.loads !== undefined && k.stores !== undefined && k.loads + k.stores < needed)
    bad("loads", `loads + stores >= arrays (${needed}): every array access is a load or a store`, k.loads, `${k.loads} + ${k.stores} = ${k.loads + k.stores}`);
  // An element size alone can be out of reach (an expression of a call's arguments gives the elements at run time).
  const bytes = (k.elements ?? 1) * (k.elementSize ?? 1) * needed;
  if (typeof k.elementSize === "number" && Number.isFinite(bytes) && bytes > MAX_KERNEL_BYTES)
    bad(k.elements === undefined || k.elementSize >= k.elements ? "elementSize" : "elements", `elements x elementSize x arrays of at most 2^50 bytes (addresses beyond are not exact doubles in the miss models)`, bytes);
}

/** The most bytes a kernel's arrays span together (1 PiB): every address then stays an exact double, with room for the padding. */
export const MAX_KERNEL_BYTES = 2 ** 50;
