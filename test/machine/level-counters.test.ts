import { describe, expect, it } from "vitest";
import { CounterId, NodeModel, createKernelCost, resolveMachine, type KernelSpec } from "../../machine/index.js";

const stream: KernelSpec = { elements: 400_000, elementSize: 8, loads: 2, stores: 1, flops: 2, otherInstructions: 1, pattern: "sequential" };

describe("cache-level counters follow the level they name", () => {
  it("drops the L2 counters and keeps the L3 ones when l2 is removed", () => {
    const node = new NodeModel(resolveMachine("itanium2-madison", { l2: null }));
    expect(node.levelKeys).toEqual(["l1", "l3"]);
    for (const name of ["PAPI_L2_TCA", "PAPI_L2_TCM", "L2_MISSES", "L2_REFERENCES", "L2_DATA_REFERENCES_L2_ALL"]) expect(node.counterNames).not.toContain(name);
    for (const name of ["PAPI_L3_TCA", "PAPI_L3_TCM", "L3_MISSES", "L3_REFERENCES", "PAPI_L1_DCM"]) expect(node.counterNames).toContain(name);
  });

  it("counts L3 references as what passes the L1 and L3 misses as the l3 level's fills without an l2", () => {
    const node = new NodeModel(resolveMachine("itanium2-madison", { l2: null }));
    const cost = node.kernelCost(stream, undefined, createKernelCost());
    const c = cost.counters;
    // The Itanium 2's L1D serves integer loads only: the floating-point loads and the written-through
    // stores (3 per element) pass it, besides its misses (none: the arrays bypass it).
    expect(cost.misses[0]).toBe(0);
    expect(c[CounterId.PAPI_L3_TCA]).toBe(cost.misses[0] + 3 * stream.elements);
    expect(c[CounterId.L3_REFERENCES]).toBe(c[CounterId.PAPI_L3_TCA]);
    // An ordinary L1 (integer-only switched off): only its misses reach the L3.
    const plain = new NodeModel(resolveMachine("itanium2-madison", { l2: null, "l1.integerOnly": false }));
    const p = plain.kernelCost(stream, undefined, createKernelCost());
    expect(p.misses[0]).toBeGreaterThan(0);
    expect(p.counters[CounterId.PAPI_L3_TCA]).toBe(p.misses[0]);
    expect(c[CounterId.PAPI_L3_TCM]).toBe(cost.misses[1]);
    expect(c[CounterId.L3_MISSES]).toBe(cost.misses[1]);
    expect(c[CounterId.PAPI_L2_TCM]).toBe(0);
    expect(c[CounterId.L2_MISSES]).toBe(0);
  });

  it("sends every reference to L2 when l1 is removed", () => {
    const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k", { l1: null }));
    expect(node.counterNames).not.toContain("PAPI_L1_DCM");
    const cost = node.kernelCost(stream, undefined, createKernelCost());
    const refs = 3 * stream.elements;
    expect(cost.counters[CounterId.PAPI_L2_TCA]).toBe(refs);
    expect(cost.counters[CounterId.PAPI_L2_TCM]).toBe(cost.misses[0]);
    expect(cost.counters[CounterId.PAPI_L1_DCM]).toBe(0);
  });
});
