import { describe, expect, it } from "vitest";
import { Cluster, createKernelCost, placeRanks, resolveMachine } from "../../machine/index.js";

describe("cluster placement", () => {
  it("places ranks in blocks: node 0 gets ranks 0..P-1", () => {
    expect(Array.from(placeRanks({ nodes: 3, processesPerNode: 2, placement: "block" }))).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it("deals ranks round-robin: rank r on node r mod N", () => {
    expect(Array.from(placeRanks({ nodes: 3, processesPerNode: 2, placement: "round-robin" }))).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it("exposes rankToNode as an Int32Array and the ranks of each node", () => {
    const c = new Cluster(resolveMachine("xeon-2.8ghz-512k"), { nodes: 4, processesPerNode: 2, placement: "round-robin" });
    expect(c.rankToNode).toBeInstanceOf(Int32Array);
    expect(c.ranks).toBe(8);
    expect(Array.from(c.ranksOn(1))).toEqual([1, 5]);
    expect(c.nodeOf(6)).toBe(2);
  });

  it("rejects more processes per node than processors, and bad shapes, naming the key", () => {
    const m = resolveMachine("xeon-2.8ghz-512k");
    expect(() => new Cluster(m, { nodes: 2, processesPerNode: 3 })).toThrow(/cluster\.processesPerNode/);
    expect(() => placeRanks({ nodes: 0, processesPerNode: 1 })).toThrow(/cluster\.nodes/);
    expect(() => placeRanks({ nodes: 1, processesPerNode: 1, placement: "scatter" as "block" })).toThrow(/cluster\.placement/);
  });

  it("shares node memory bandwidth among the processes placed on it", () => {
    const m = resolveMachine("xeon-2.8ghz-512k");
    const k = { elements: 2_000_000, elementSize: 8, loads: 1, stores: 0, flops: 1, otherInstructions: 0, pattern: "sequential" as const };
    const out = createKernelCost();
    const alone = new Cluster(m, { nodes: 1, processesPerNode: 1 }).modelOf(0).kernelCost(k, undefined, out).duration;
    const shared = new Cluster(m, { nodes: 1, processesPerNode: 2 }).modelOf(0).kernelCost(k, undefined, out).duration;
    expect(shared / alone).toBeGreaterThan(1.8);
  });
});
