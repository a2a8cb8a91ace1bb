import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { NodeModel, createKernelCost, resolveMachine, type KernelSpec } from "../../machine/index.js";

/**
 * A strided sweep of one row (stride >= Q) or one column (stride 1) visits the elements in
 * sequential order: its stream, misses, counters and time are the sequential kernel's.
 */
const WORK = { elementSize: 8, loads: 2, stores: 1, flops: 2, otherInstructions: 1 } as const;

function costs(node: NodeModel, kernel: KernelSpec): { duration: number; counters: number[]; misses: number[] } {
  const out = createKernelCost();
  node.kernelCost(kernel, undefined, out);
  return { duration: out.duration, counters: [...out.counters], misses: [...out.misses] };
}

describe("strided sweeps of one row or one column", () => {
  it("cost what the sequential sweep costs on the Itanium 2 (100000 doubles, 3 arrays, strides up to 1e12)", () => {
    const node = new NodeModel(resolveMachine("itanium2-madison"));
    const seq = costs(node, { ...WORK, elements: 100_000, arrays: 3, pattern: "sequential" });
    for (const stride of [1, 100_000, 100_001, 200_000, 1_000_000, 1e12]) {
      const str = costs(node, { ...WORK, elements: 100_000, arrays: 3, pattern: "strided", stride });
      expect(str, `stride ${stride}`).toEqual(seq);
    }
  });

  it("replay the sequential stream in the reference cache, at once for a stride far beyond Q", () => {
    const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    const seq = new Float64Array(3);
    const str = new Float64Array(3);
    node.referenceMissesPerPass({ ...WORK, elements: 200_000, arrays: 2, pattern: "sequential" }, seq);
    const t0 = performance.now();
    node.referenceMissesPerPass({ ...WORK, elements: 200_000, arrays: 2, pattern: "strided", stride: 1e12 }, str);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect([...str]).toEqual([...seq]);
  });

  it("give the sequential cost for any size, array count and stride >= Q, with either miss engine", () => {
    const analytical = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    const reference = new NodeModel(resolveMachine("xeon-2.8ghz-512k", { missModel: "reference" }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300_000 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1_000_000 }), (q, arrays, extra) => {
        for (const node of [analytical, reference]) {
          const seq = costs(node, { ...WORK, elements: q, arrays, pattern: "sequential" });
          expect(costs(node, { ...WORK, elements: q, arrays, pattern: "strided", stride: q + extra })).toEqual(seq);
        }
      }),
      { numRuns: 40, seed: 17 },
    );
  });
});
