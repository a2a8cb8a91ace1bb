import { definePreset } from "../node/preset.js";

const P003 = "paper 003, section 5 (Gescher cluster: 16 SGI 1450 nodes, four Pentium III Xeon 700 MHz each, 2 GB ECC RAM)";
const PIII_DS = "Intel Pentium III Xeon Processor at 700 MHz and 900 MHz datasheet (order 245094): 16 KB L1 data cache, full-speed on-die L2 (1 or 2 MB), 100 MHz system bus";
const P6_OPT = "Intel Architecture Optimization Reference Manual (order 245127), P6 family: 3 micro-ops retired per cycle, 32-byte cache lines, 4-way L1D, 3-cycle L1 load latency, 64-entry data TLB";

/**
 * A node of the Gescher cluster of paper 003 (SGI 1450): four 700 MHz Pentium III Xeon
 * (Cascades) processors sharing a 100 MHz front-side bus. Program models price actions with
 * their cost functions, so only the clock and the processor count matter to them; the cache and
 * memory numbers serve kernel-based component scenarios on the same node.
 */
export const pentium3XeonPreset = definePreset(
  "pentium3-xeon-700",
  "SGI 1450 node: four 700 MHz Pentium III Xeon (1 MiB L2), 100 MHz FSB (paper 003's Gescher cluster)",
  {
    clock: 700e6,
    issueWidth: 3,
    flopsPerCycle: 1,
    computeEfficiency: 0.33,
    processorsPerNode: 4,
    overlapCycles: 8,
    memoryParallelism: 1,
    l1: { size: 16 * 1024, line: 32, assoc: 4, latency: 3 },
    l2: { size: 1024 * 1024, line: 32, assoc: 8, latency: 7 },
    tlb: { entries: 64, pageSize: 4096, missPenalty: 20 },
    memory: { latency: 0.17, bandwidth: 0.8e9, remoteLatency: 0.17, remoteBandwidth: 0.8e9, remoteFraction: 0 },
    prefetch: { enabled: false, maxStride: 0 },
    noise: { computeCv: 0.02, memoryCv: 0.03, overflowCv: 0.3, osRate: 100, osCost: 10 },
    counters: { native: "none", pmuCounters: 2 },
    missModel: "analytical",
    referenceMaxAccesses: 65536,
  },
  {
    clock: { source: `${P003}: 'Pentium III Xeon 700MHz'` },
    issueWidth: { source: P6_OPT },
    flopsPerCycle: { source: "x87 on the P6 core: one double-precision add or multiply per cycle (0.7 GFlop/s peak at 700 MHz)" },
    computeEfficiency: { source: "assumed: compiled code on the P6 core retires about one of its three micro-ops per cycle between cache misses (not measured on Gescher)", calibrated: true },
    processorsPerNode: { source: `${P003}: 'Each node of the cluster has four Pentium III Xeon 700MHz processors'` },
    overlapCycles: { source: "the P6 out-of-order window hides about an L2 hit (not measured on Gescher)", calibrated: true },
    memoryParallelism: { source: "the P6 bus allows few outstanding misses; one effective (not measured on Gescher)", calibrated: true },
    "l1.size": { source: PIII_DS },
    "l1.line": { source: P6_OPT },
    "l1.assoc": { source: P6_OPT },
    "l1.latency": { source: P6_OPT },
    "l2.size": { source: `${PIII_DS}; the 1 MB variant assumed (paper 003 does not say)` },
    "l2.line": { source: P6_OPT },
    "l2.assoc": { source: `${PIII_DS}: 8-way Advanced Transfer Cache` },
    "l2.latency": { source: "full-speed on-die L2 of the Cascades core: about 7 cycles load to use (lmbench-class figure)", calibrated: true },
    "tlb.entries": { source: P6_OPT },
    "tlb.pageSize": { source: "IA-32 Linux base page, 4 KB" },
    "tlb.missPenalty": { source: "a page walk hitting the caches, about 20 cycles (not measured on Gescher)", calibrated: true },
    "memory.latency": { source: "about 170 ns load latency of a ServerWorks-chipset PC133 Pentium III server", calibrated: true },
    "memory.bandwidth": { source: `${PIII_DS}: 100 MHz x 8 B front-side bus = 800 MB/s peak, shared by the four processors` },
    "memory.remoteLatency": { source: "no remote memory on a distributed-memory cluster: equal to local", equalTo: "memory.latency" },
    "memory.remoteBandwidth": { source: "no remote memory on a distributed-memory cluster: equal to local", equalTo: "memory.bandwidth" },
    "memory.remoteFraction": { source: "distributed-memory cluster: every miss is local" },
    "prefetch.enabled": { source: "the P6 core has no hardware stream prefetcher into L2" },
    "prefetch.maxStride": { source: "no hardware prefetcher" },
    "noise.computeCv": { source: "same small scatter as the Xeon preset (no Gescher measurements)", calibrated: true },
    "noise.memoryCv": { source: "same small scatter as the Xeon preset (no Gescher measurements)", calibrated: true },
    "noise.overflowCv": { source: "same as the Xeon preset (no Gescher measurements)", calibrated: true },
    "noise.osRate": { source: "Linux 2.2/2.4 timer interrupt HZ = 100 of the era" },
    "noise.osCost": { source: "about 10 us per interruption on a 700 MHz processor", calibrated: true },
    "counters.native": { source: "PAPI presets only" },
    "counters.pmuCounters": { source: "the P6 PMU has two programmable counters (P6_OPT)" },
    missModel: { source: "the analytical stride model, the default; the reference LRU cache is the judge of its accuracy" },
    referenceMaxAccesses: { source: "replay kernels up to 64 Ki accesses with missModel auto" },
  },
  { preset: "fast-ethernet", source: "paper 003, section 5: 'the nodes of Gescher are interconnected via a 100Mbit/s Fast Ethernet network' (the one its experiments used)" },
);
