import { describe, expect, it } from "vitest";
import { Cluster, CounterId, NodeModel, createKernelCost, placeRanks, resolveMachine } from "../../machine/index.js";

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

  describe("remote memory", () => {
    // 4 Mi doubles (32 MiB) overflow the Madison's 9 MiB L3: every pass goes to memory.
    const k = { elements: 4_000_000, elementSize: 8, loads: 2, stores: 1, flops: 2, otherInstructions: 1, pattern: "sequential" as const };
    const m = resolveMachine("itanium2-madison");

    it("has none on a one-node cluster, whatever the placement: no remote fill is counted or paid", () => {
      const out = createKernelCost();
      for (const placement of ["block", "round-robin"] as const) {
        const c = new Cluster(m, { nodes: 1, processesPerNode: 1, placement });
        expect(c.modelOf(0).remoteFraction).toBe(0);
        c.modelOf(0).kernelCost(k, undefined, out);
        expect(out.counters[CounterId.L3_MISSES]).toBeGreaterThan(0);
        expect(out.counters[CounterId.DATA_EAR_CACHE_LAT128]).toBe(0);
      }
      const local = out.duration;
      // The same node with the preset's remote share pays remote latency and bandwidth.
      const withRemote = new NodeModel(m, { sharers: 1 }).kernelCost(k, undefined, out).duration;
      expect(withRemote).toBeGreaterThan(local);
    });

    it("serves memory.remoteFraction of the last level's misses remotely on several nodes, under either placement", () => {
      const out = createKernelCost();
      const counts = (["block", "round-robin"] as const).map((placement) => {
        const c = new Cluster(m, { nodes: 2, processesPerNode: 1, placement });
        expect(c.modelOf(1).remoteFraction).toBe(m.memory.remoteFraction);
        c.modelOf(1).kernelCost(k, undefined, out);
        expect(out.counters[CounterId.DATA_EAR_CACHE_LAT128]).toBe(Math.round(out.counters[CounterId.L3_MISSES] * m.memory.remoteFraction));
        return out.counters[CounterId.DATA_EAR_CACHE_LAT128];
      });
      expect(counts[0]).toBeGreaterThan(0);
      expect(counts[1]).toBe(counts[0]);
    });

    it("keeps the configuration's share for a node model made directly, and takes an explicit one", () => {
      expect(new NodeModel(m).remoteFraction).toBe(m.memory.remoteFraction);
      expect(new NodeModel(m, { remoteFraction: 0.5 }).remoteFraction).toBe(0.5);
      expect(() => new NodeModel(m, { remoteFraction: 1.5 })).toThrow(/remoteFraction/);
    });
  });
});
