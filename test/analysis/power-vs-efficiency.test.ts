import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { kernelArbitrary } from "../machine/kernel-arbitrary.js";
import { COUNTER_NAMES, CounterId, NodeModel, createKernelCost, estimatePower, powerConstantSets, resolveMachine, type KernelSpec } from "../../index.js";

/**
 * Paper 004, Table 1: optimisations that raise the instructions retired per cycle raise the power
 * and lower the energy. On simulated Itanium 2 counters the power model must show the same: a
 * core sustaining more of its peak (computeEfficiency) runs the same work in fewer cycles, at
 * higher access rates (watts) and for less time (joules).
 */
const kernelArb = kernelArbitrary({ elements: [1000, 2_000_000], elementSizes: [8], loads: [1, 40], stores: [0, 10], flops: [0, 300], otherInstructions: [0, 60], passes: [1, 1], arrays: [1, 1] });

function powerAt(kernel: KernelSpec, efficiency: number) {
  const out = createKernelCost();
  new NodeModel(resolveMachine("itanium2-madison", { computeEfficiency: efficiency })).kernelCost(kernel, undefined, out);
  const values: Record<string, number> = { TIME: out.duration };
  for (const name of COUNTER_NAMES) values[name] = out.counters[CounterId[name]];
  return estimatePower(values, powerConstantSets.get("itanium2-madison"));
}

describe("power and energy against the sustained share of peak (paper 004, Table 1)", () => {
  it("rise and fall: more instructions per cycle, never fewer watts nor more joules, and at least the idle power", () => {
    const set = powerConstantSets.get("itanium2-madison");
    fc.assert(
      fc.property(kernelArb, fc.double({ min: 0.1, max: 1, noNaN: true }), fc.double({ min: 0.1, max: 1, noNaN: true }), (kernel, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const slow = powerAt(kernel, lo);
        const fast = powerAt(kernel, hi);
        expect(slow.complete && fast.complete).toBe(true);
        expect(fast.watts).toBeGreaterThanOrEqual(slow.watts * (1 - 1e-12));
        expect(fast.joules).toBeLessThanOrEqual(slow.joules * (1 + 1e-12));
        for (const p of [slow, fast]) {
          expect(p.watts).toBeGreaterThanOrEqual(set.idlePower);
        }
      }),
      { numRuns: 200, seed: 4 },
    );
  });

  it("strictly so for compute-bound work: an in-cache kernel at half and at a quarter of peak", () => {
    const kernel: KernelSpec = { elements: 1024, elementSize: 8, loads: 4, stores: 1, flops: 40, otherInstructions: 10, pattern: "sequential", passes: 50, fmaFraction: 0.5 };
    const quarter = powerAt(kernel, 0.25);
    const half = powerAt(kernel, 0.5);
    expect(half.watts).toBeGreaterThan(quarter.watts + 1);
    // Twice the rate, half the time: the dynamic energy is the same, the idle energy halves.
    expect(half.joules).toBeLessThan(quarter.joules * 0.75);
    expect(half.joules).toBeGreaterThan(quarter.joules * 0.5);
  });
});
