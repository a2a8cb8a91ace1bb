import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NodeModel, levelMissesPerPass, PATTERN_RANDOM, PATTERN_SEQUENTIAL, PATTERN_STRIDED, resolveMachine, type KernelSpec } from "../../machine/index.js";
import { ShapeMemo } from "../../machine/node/shape-memo.js";

const WORK = { elementSize: 8, loads: 2, stores: 1, flops: 2, otherInstructions: 2 } as const;
const CODE = { sequential: PATTERN_SEQUENTIAL, strided: PATTERN_STRIDED, random: PATTERN_RANDOM } as const;

/** What the memo must reproduce: the levels evaluated afresh, each bounded by the one above. */
function direct(node: NodeModel, k: KernelSpec): number[] {
  const p = CODE[k.pattern];
  const s = k.pattern === "strided" ? k.stride! : 1;
  const arrays = k.arrays ?? 1;
  const out: number[] = [];
  let bound = k.elements * arrays;
  for (let l = 0; l < node.levels; l++) {
    bound = Math.min(bound, levelMissesPerPass(node.geometry(l), k.elements, k.elementSize, arrays, p, s));
    out.push(bound);
  }
  return out;
}

/** The values a shape memoises in the tests of the memo alone: a function of its key, as the node model's are. */
function valuesOf(q: number, e: number, stride: number, code: number): Float64Array {
  return Float64Array.of(q * 3 + e, stride - code, q / 7, e * stride);
}

describe("memo of analytical misses per kernel shape", () => {
  it("returns exactly the direct evaluation on first and repeated calls, also when shapes collide in its slots", () => {
    const node = new NodeModel(resolveMachine("itanium2-madison"));
    const out = new Float64Array(node.levels + 1);
    const kernel = fc.record({
      elements: fc.integer({ min: 1, max: 200_000 }),
      pattern: fc.constantFrom("sequential" as const, "strided" as const, "random" as const),
      stride: fc.integer({ min: 1, max: 5000 }),
      arrays: fc.integer({ min: 1, max: 4 }),
    });
    // More shapes than the first table's slots (4096): it grows, and shapes evicted before it
    // did are recomputed.
    const shapes = fc.sample(kernel, { numRuns: 4500, seed: 7 }).map((s): KernelSpec => ({ ...WORK, ...s, loads: 4 }));
    const expected = shapes.map((k) => direct(node, k));
    for (let round = 0; round < 2; round++) {
      shapes.forEach((k, i) => {
        node.analyticalMissesPerPass(k, out);
        expect(Array.from(out.subarray(0, node.levels))).toEqual(expected[i]);
      });
    }
  });

  it("gives back only what was stored for a shape, whatever the sequence of stores (fast-check)", () => {
    const shape = fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.constantFrom(4, 8), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 300 }));
    fc.assert(
      fc.property(fc.array(shape, { minLength: 1, maxLength: 3000 }), (shapes) => {
        const memo = new ShapeMemo(4);
        const out = new Float64Array(4);
        for (const [q, e, stride, code] of shapes) {
          if (memo.get(q, e, stride, code, out)) expect(out).toEqual(valuesOf(q, e, stride, code));
          else memo.set(q, e, stride, code, valuesOf(q, e, stride, code));
          // The shape just stored or found is there.
          expect(memo.get(q, e, stride, code, out)).toBe(true);
          expect(out).toEqual(valuesOf(q, e, stride, code));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("stays small for few shapes and grows to hold many, so that repeats hit", () => {
    const out = new Float64Array(4);
    const few = new ShapeMemo(4);
    expect(few.capacity).toBe(0);
    for (let rep = 0; rep < 50; rep++) for (let q = 1; q <= 300; q++) if (!few.get(q, 8, 17, 129, out)) few.set(q, 8, 17, 129, valuesOf(q, 8, 17, 129));
    expect(few.capacity).toBe(4096);

    // 14,000 shapes (a 256-rank shock run's count), each looked up in turn, 5 times over.
    const many = new ShapeMemo(4);
    const computed: number[] = [];
    for (let rep = 0; rep < 5; rep++) {
      let n = 0;
      for (let i = 0; i < 14_000; i++) {
        const q = 1000 + i * 13;
        const stride = 1 + (i % 61);
        const code = 128 + (i % 3);
        if (many.get(q, 8, stride, code, out)) continue;
        n++;
        many.set(q, 8, stride, code, valuesOf(q, 8, stride, code));
      }
      computed.push(n);
    }
    expect(many.capacity).toBe(65536);
    // The first pass computes every shape; the second those evicted before the table grew; after
    // that, about 1% of the lookups miss (a shape evicted by four later ones sharing its set).
    expect(computed[0]).toBe(14_000);
    expect(computed[1]).toBeLessThan(14_000 / 2);
    for (const n of computed.slice(2)) expect(n).toBeLessThan(14_000 * 0.015);
  });
});
