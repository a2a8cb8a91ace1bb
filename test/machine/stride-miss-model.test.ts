import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  NodeModel,
  PATTERN_RANDOM,
  PATTERN_SEQUENTIAL,
  PATTERN_STRIDED,
  ReferenceHierarchy,
  levelMissesPerPass,
  resolveMachine,
  squarePatchStride,
  tlbGeometry,
  type CacheGeometry,
  type KernelSpec,
} from "../../machine/index.js";

const TOLERANCE = 0.07;
const code = { sequential: PATTERN_SEQUENTIAL, strided: PATTERN_STRIDED, random: PATTERN_RANDOM } as const;

function kernel(elements: number, elementSize: number, pattern: KernelSpec["pattern"], stride: number, arrays: number): KernelSpec {
  return { elements, elementSize, loads: arrays, stores: 0, flops: 0, otherInstructions: 0, pattern, stride, arrays };
}

describe("analytical stride miss model, exact cases", () => {
  const g: CacheGeometry = { size: 32 * 1024, line: 64, sector: 32, assoc: 4, sets: 128 };
  it("misses nothing when the arrays stay resident", () => {
    expect(levelMissesPerPass(g, 3000, 8, 1, PATTERN_SEQUENTIAL, 1)).toBe(0);
    expect(levelMissesPerPass(g, 1500, 8, 2, PATTERN_STRIDED, 37)).toBe(0);
  });
  it("fetches each sector once per pass in a sequential sweep that overflows", () => {
    expect(levelMissesPerPass(g, 100_000, 8, 1, PATTERN_SEQUENTIAL, 1)).toBe(100_000 / 4);
  });
  it("misses on every access when a power-of-two row length maps the column onto too few sets", () => {
    // rows 8 KiB apart use 1 set of 4 ways: 64 rows thrash.
    expect(levelMissesPerPass(g, 64 * 1024, 8, 1, PATTERN_STRIDED, 1024)).toBe(64 * 1024);
  });
  it("sees the TLB reach: pages of a column beyond the entries miss", () => {
    const tlb = tlbGeometry({ entries: 64, pageSize: 4096, missPenalty: 30 });
    expect(levelMissesPerPass(tlb, 100 * 512, 8, 1, PATTERN_STRIDED, 512)).toBe(100 * 512);
    expect(levelMissesPerPass(tlb, 60 * 512, 8, 1, PATTERN_STRIDED, 512)).toBe(0);
  });
});

interface Agreement {
  points: number;
  within: number;
  meanError: number;
  worst: number;
}

function agreement(errors: number[]): Agreement {
  return {
    points: errors.length,
    within: errors.filter((e) => e <= TOLERANCE).length / errors.length,
    meanError: errors.reduce((a, b) => a + b, 0) / errors.length,
    worst: Math.max(...errors),
  };
}

describe("analytical model against the reference LRU cache", () => {
  it("agrees on the preset geometries over a grid of sizes, strides and arrays", () => {
    const errors: number[] = [];
    const exact: number[] = [];
    for (const [preset, overrides] of [["xeon-2.8ghz-512k", {}], ["itanium2-madison", { l3: null }]] as const) {
      const node = new NodeModel(resolveMachine(preset, overrides));
      const a = new Float64Array(4);
      const r = new Float64Array(4);
      for (const q of [700, 3000, 12_000, 40_000]) {
        for (const s of [1, 2, 3, 8, 16, 100, 129, 256, squarePatchStride(q)]) {
          for (const arrays of [1, 2]) {
            const k = kernel(q, 8, s === 1 ? "sequential" : "strided", s, arrays);
            node.analyticalMissesPerPass(k, a);
            node.referenceMissesPerPass(k, r);
            for (let i = 0; i <= node.levels; i++) {
              const err = Math.abs(a[i] - r[i]) / (q * arrays);
              errors.push(err);
              if (s === 1 || i === node.levels) exact.push(err);
            }
          }
        }
      }
    }
    const all = agreement(errors);
    expect(all.points).toBeGreaterThan(400);
    expect(all.within).toBeGreaterThanOrEqual(0.97);
    expect(all.meanError).toBeLessThan(0.015);
    // Sequential sweeps and the TLB are within tolerance everywhere.
    expect(Math.max(...exact)).toBeLessThanOrEqual(TOLERANCE);
  });

  it("agrees on the L2 and TLB misses of the acceptance kernel (Y-derivative of a square-ish patch)", () => {
    const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    const a = new Float64Array(3);
    const r = new Float64Array(3);
    for (let k = 0; k < 22; k++) {
      const q = Math.round(1000 * 1.3 ** k);
      const kk = kernel(q, 8, "strided", squarePatchStride(q), 1);
      node.analyticalMissesPerPass(kk, a);
      node.referenceMissesPerPass(kk, r);
      expect(Math.abs(a[1] - r[1]) / q, `L2 Q=${q}`).toBeLessThanOrEqual(TOLERANCE);
      expect(Math.abs(a[2] - r[2]) / q, `TLB Q=${q}`).toBeLessThanOrEqual(TOLERANCE);
    }
  });

  it("agrees on random set-associative geometries (fast-check)", () => {
    const errors: number[] = [];
    const patternErrors: Record<string, number[]> = { sequential: [], strided: [], random: [] };
    const tlb = tlbGeometry({ entries: 16, pageSize: 4096, missPenalty: 1 });
    fc.assert(
      fc.property(
        fc.constantFrom(4096, 16_384, 65_536),
        fc.constantFrom(32, 64, 128),
        fc.constantFrom(2, 4, 8),
        fc.constantFrom(1, 2),
        fc.constantFrom(4, 8),
        fc.integer({ min: 64, max: 24_000 }),
        fc.constantFrom("sequential", "strided", "strided", "random") as fc.Arbitrary<KernelSpec["pattern"]>,
        fc.oneof(fc.constantFrom(2, 3, 7, 16, 31, 64, 100, 128, 256, 512), fc.constant(0)),
        fc.constantFrom(1, 1, 2),
        (size, line, assoc, sectorsPerLine, e, q, pattern, strideChoice, arrays) => {
          const g: CacheGeometry = { size, line, sector: line / sectorsPerLine, assoc, sets: size / (line * assoc) };
          const stride = strideChoice === 0 ? squarePatchStride(q) : strideChoice;
          const k = kernel(q, e, pattern, stride, arrays);
          const h = new ReferenceHierarchy([g], tlb);
          const out = new Float64Array(2);
          const accesses = h.steadyStateMisses(k, out);
          const err = Math.abs(Math.min(accesses, levelMissesPerPass(g, q, e, arrays, code[pattern], stride)) - out[0]) / accesses;
          errors.push(err);
          patternErrors[pattern].push(err);
        },
      ),
      { numRuns: 300, seed: 11 },
    );
    const all = agreement(errors);
    expect(all.within).toBeGreaterThanOrEqual(0.97);
    expect(all.meanError).toBeLessThan(0.015);
    expect(Math.max(...patternErrors.sequential)).toBeLessThanOrEqual(TOLERANCE);
    expect(agreement(patternErrors.random).within).toBeGreaterThanOrEqual(0.97);
  });
});
