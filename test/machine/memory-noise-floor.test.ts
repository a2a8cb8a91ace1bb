import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RandomStream } from "../../engine/index.js";
import { NodeModel, createKernelCost, resolveMachine, type KernelSpec } from "../../machine/index.js";

/** Microseconds the node's whole memory bandwidth needs for the fills of `out` (local and remote). */
function bandwidthFloorUs(node: NodeModel, out: ReturnType<typeof createKernelCost>): number {
  const n = node.levels;
  const fills = out.misses[n - 1];
  const fillBytes = node.geometry(n - 1).sector;
  const remote = Math.round(fills * node.remoteFraction);
  const m = node.config.memory;
  return (((fills - remote) * fillBytes) / m.bandwidth + (remote * fillBytes) / m.remoteBandwidth) * 1e6;
}

describe("memory-stall noise", () => {
  it("never moves the fills of a process sharing the node faster than the node's whole memory bandwidth (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("xeon-2.8ghz-512k", "itanium2-madison", "pentium3-xeon-700"),
        fc.constant(2),
        fc.integer({ min: 50_000, max: 3_000_000 }),
        fc.constantFrom("sequential", "strided") as fc.Arbitrary<KernelSpec["pattern"]>,
        fc.integer({ min: 2, max: 3000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (preset, sharers, elements, pattern, stride, seed) => {
          const config = resolveMachine(preset);
          const node = new NodeModel(config, { sharers: Math.min(sharers, config.processorsPerNode) });
          const k: KernelSpec = { elements, elementSize: 8, loads: 2, stores: 1, flops: 2, otherInstructions: 1, pattern, stride };
          const out = createKernelCost();
          const rng = new RandomStream(seed, "noise/rank0");
          for (let draw = 0; draw < 50; draw++) {
            node.kernelCost(k, rng, out);
            const floor = bandwidthFloorUs(node, out);
            // (A relative slack of 1e-12 for the cycle conversion's rounding.)
            expect(out.duration).toBeGreaterThanOrEqual(floor * (1 - 1e-12));
            expect(((out.computeCycles + out.bandwidthCycles) / config.clock) * 1e6).toBeGreaterThanOrEqual(floor * (1 - 1e-12));
          }
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });

  it("floors the Xeon's memory-bound stream at 3.2 GB/s for one of two processes, keeping the noise-free time", () => {
    const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    const k: KernelSpec = { elements: 1_000_000, elementSize: 8, loads: 2, stores: 1, flops: 2, otherInstructions: 1, pattern: "sequential" };
    const out = createKernelCost();
    const noiseFree = node.kernelCost(k, undefined, out).duration;
    // Two processes share the node's 3.2 GB/s: the expectation moves 8 MB at 1.6 GB/s.
    expect(noiseFree).toBeGreaterThan(5000);
    const rng = new RandomStream(1, "noise/rank0");
    let fastest = Infinity;
    for (let i = 0; i < 5000; i++) fastest = Math.min(fastest, node.kernelCost(k, rng, out).duration);
    expect(8e6 / (fastest * 1e-6)).toBeLessThanOrEqual(3.2e9);
    // Same seed, same draws.
    const again = new RandomStream(1, "noise/rank0");
    let fastestAgain = Infinity;
    for (let i = 0; i < 5000; i++) fastestAgain = Math.min(fastestAgain, node.kernelCost(k, again, out).duration);
    expect(fastestAgain).toBe(fastest);
  });

  it("keeps the noise-free time as the mean of a process alone on its node (no floor biases it)", () => {
    for (const preset of ["xeon-2.8ghz-512k", "itanium2-madison"]) {
      const node = new NodeModel(resolveMachine(preset), { sharers: 1 });
      const k: KernelSpec = { elements: 4_000_000, elementSize: 8, loads: 4, stores: 1, flops: 2, otherInstructions: 1, arrays: 3, pattern: "sequential" };
      const out = createKernelCost();
      const noiseFree = node.kernelCost(k, undefined, out).duration;
      const rng = new RandomStream(5, "noise/rank0");
      let sum = 0;
      const draws = 4000;
      for (let i = 0; i < draws; i++) sum += node.kernelCost(k, rng, out).duration;
      // The OS jitter adds a little on average; a floor at the sustained bandwidth added 7-12 %.
      expect(sum / draws / noiseFree).toBeGreaterThan(0.97);
      expect(sum / draws / noiseFree).toBeLessThan(1.04);
    }
  });
});
