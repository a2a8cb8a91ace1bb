import { describe, expect, it } from "vitest";
import { NodeModel, createKernelCost, resolveMachine, type KernelSpec } from "../../machine/index.js";

const L4 = { "l4.size": 64 * 1024 * 1024, "l4.line": 128, "l4.assoc": 16, "l4.latency": 60 };
const stream = (elements: number, pattern: KernelSpec["pattern"] = "sequential", stride?: number): KernelSpec => ({
  elements,
  elementSize: 8,
  loads: 2,
  stores: 1,
  flops: 2,
  otherInstructions: 1,
  pattern,
  stride,
});

describe("a fourth cache level", () => {
  it("holds arrays the L3 cannot, so their kernel runs faster than without it, and misses nothing itself", () => {
    const without = new NodeModel(resolveMachine("itanium2-madison"));
    const node = new NodeModel(resolveMachine("itanium2-madison", L4));
    expect(node.levelKeys).toEqual(["l1", "l2", "l3", "l4"]);
    // 32 MB of data: beyond the 9 MiB L3, within the 64 MiB L4.
    const k = stream(4_000_000);
    const cost = node.kernelCost(k, undefined, createKernelCost());
    expect(cost.misses[2]).toBeGreaterThan(0);
    expect(cost.misses[3]).toBe(0);
    // The TLB's misses follow the four levels (8 MB of 16 KB pages per array, 128 entries).
    expect(cost.misses).toHaveLength(5);
    expect(cost.misses[4]).toBeGreaterThan(0);
    expect(cost.duration).toBeLessThan(0.75 * without.kernelCost(k, undefined, createKernelCost()).duration);
  });

  it("misses as the reference LRU replay does, sequential and strided", () => {
    const node = new NodeModel(resolveMachine("itanium2-madison", { ...L4, "l4.size": 16 * 1024 * 1024, "l4.assoc": 8 }));
    for (const k of [stream(3_000_000), stream(1_000_000, "strided", 1000), stream(3_000_000, "strided", 1733)]) {
      const analytical = new Float64Array(node.levels + 1);
      const reference = new Float64Array(node.levels + 1);
      node.analyticalMissesPerPass(k, analytical);
      node.referenceMissesPerPass(k, reference);
      for (let level = 0; level < node.levels; level++) expect(Math.abs(analytical[level] - reference[level]) / k.elements).toBeLessThanOrEqual(0.07);
      // Arrays beyond the 16 MiB L4 miss it; smaller ones stay in it.
      if (k.elements * k.elementSize > 16 * 1024 * 1024) expect(reference[3]).toBeGreaterThan(0);
      else expect(reference[3]).toBe(0);
    }
  });

  it("names the level's missing keys, and removes it with null", () => {
    expect(() => resolveMachine("itanium2-madison", { "l4.size": 64 * 1024 * 1024 })).toThrow(/l4 is a new level .* needs size, line, assoc, latency \(missing: line, assoc, latency\)/);
    expect(new NodeModel(resolveMachine("itanium2-madison", { ...L4, l4: null })).levelKeys).toEqual(["l1", "l2", "l3"]);
  });
});
