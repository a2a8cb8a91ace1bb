import fc from "fast-check";
import type { KernelSpec } from "../../machine/index.js";

/** Inclusive integer ranges (and element sizes) of the kernels {@link kernelArbitrary} draws. */
export interface KernelRanges {
  readonly elements?: readonly [number, number];
  readonly elementSizes?: readonly number[];
  readonly loads?: readonly [number, number];
  readonly stores?: readonly [number, number];
  readonly flops?: readonly [number, number];
  readonly otherInstructions?: readonly [number, number];
  readonly passes?: readonly [number, number];
  readonly arrays?: readonly [number, number];
}

const int = ([min, max]: readonly [number, number]) => fc.integer({ min, max });

/**
 * Random kernels for property tests: every pattern, strides 1..2000, any FMA fraction, counts in
 * the given ranges (keep `loads + stores >= arrays`, which a kernel requires).
 */
export function kernelArbitrary(r: KernelRanges = {}): fc.Arbitrary<KernelSpec & { passes: number; arrays: number }> {
  return fc.record({
    elements: int(r.elements ?? [0, 150_000]),
    elementSize: fc.constantFrom(...(r.elementSizes ?? [4, 8, 16])),
    loads: int(r.loads ?? [2, 6]),
    stores: int(r.stores ?? [0, 3]),
    flops: int(r.flops ?? [0, 30]),
    otherInstructions: int(r.otherInstructions ?? [0, 30]),
    pattern: fc.constantFrom("sequential", "strided", "random") as fc.Arbitrary<KernelSpec["pattern"]>,
    stride: fc.integer({ min: 1, max: 2000 }),
    passes: int(r.passes ?? [1, 3]),
    arrays: int(r.arrays ?? [1, 2]),
    fmaFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  });
}
