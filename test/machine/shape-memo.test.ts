import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NodeModel, levelMissesPerPass, PATTERN_RANDOM, PATTERN_SEQUENTIAL, PATTERN_STRIDED, resolveMachine, type KernelSpec } from "../../machine/index.js";

const WORK = { elementSize: 8, loads: 3, stores: 1, flops: 8, otherInstructions: 12 } as const;
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
    // More shapes than slots (4096): later shapes overwrite earlier ones, which are recomputed.
    const shapes = fc.sample(kernel, { numRuns: 4500, seed: 7 }).map((s): KernelSpec => ({ ...WORK, ...s, loads: 4 }));
    const expected = shapes.map((k) => direct(node, k));
    for (let round = 0; round < 2; round++) {
      shapes.forEach((k, i) => {
        node.analyticalMissesPerPass(k, out);
        expect(Array.from(out.subarray(0, node.levels))).toEqual(expected[i]);
      });
    }
  });
});
