import { definePreset } from "../node/preset.js";

const INTEL_OPT = "IA-32 Intel Architecture Optimization Reference Manual (order 248966-013, April 2006)";
const CACHE_TABLE = `${INTEL_OPT}, Table 1-1 'Pentium 4 and Intel Xeon Processor Cache Parameters', rows of CPUID model 2 (the 512 KB Northwood/Prestonia core)`;
const HINTON = "Hinton et al., The Microarchitecture of the Pentium 4 Processor, Intel Technology Journal Q1 2001";
const FIG3 = "calibrated so that the strided/sequential ratio of a Y-derivative kernel is ~1 in cache and ~4 out of cache (paper 000, Figure 3)";

/**
 * The cluster of paper 000: dual 2.8 GHz Pentium 4 Xeon (Northwood) nodes, 8 KiB L1D, 512 KiB L2,
 * no L3, 4 KiB pages. Memory, overlap and noise numbers are calibrated to 000's Figure 3.
 */
export const xeonPreset = definePreset(
  "xeon-2.8ghz-512k",
  "dual 2.8 GHz Pentium 4 Xeon nodes with 8 KiB L1D and 512 KiB L2 (paper 000's cluster)",
  {
    clock: 2.8e9,
    issueWidth: 3,
    flopsPerCycle: 2,
    computeEfficiency: 0.3,
    processorsPerNode: 2,
    overlapCycles: 24,
    memoryParallelism: 1.3,
    l1: { size: 8 * 1024, line: 64, assoc: 4, latency: 2 },
    l2: { size: 512 * 1024, line: 128, sector: 64, assoc: 8, latency: 16 },
    tlb: { entries: 64, pageSize: 4096, missPenalty: 4 },
    memory: { latency: 0.15, bandwidth: 3.2e9, remoteLatency: 0.15, remoteBandwidth: 3.2e9, remoteFraction: 0 },
    prefetch: { enabled: true, maxStride: 256 },
    noise: { computeCv: 0.02, memoryCv: 0.03, overflowCv: 0.3, osRate: 250, osCost: 5 },
    counters: { native: "none", pmuCounters: 0, presetMap: "pentium4" },
    missModel: "analytical",
    referenceMaxAccesses: 65536,
  },
  {
    clock: { source: "paper 000, section 5: 'dual 2.8 GHz Pentium Xeons'" },
    issueWidth: { source: `${HINTON}: the NetBurst core retires up to 3 uops per cycle` },
    flopsPerCycle: { source: "one 128-bit SSE2 operation (2 doubles) per cycle: 5.6 GFlop/s peak at 2.8 GHz (Top500 Rpeak convention)" },
    computeEfficiency: {
      source:
        "compiled floating-point code on the NetBurst core retires about one of its three uops per cycle between cache misses; " +
        "the per-element work of the shock components is counted at this rate, which keeps their times in the ranges of paper 000 Eq. 1",
      calibrated: true,
    },
    processorsPerNode: { source: "paper 000, section 5: dual-processor nodes" },
    overlapCycles: { source: `${FIG3}; of the order of an L2 hit, which the out-of-order core hides`, calibrated: true },
    memoryParallelism: { source: `${FIG3}; strided misses beyond the prefetcher overlap little (effective 1.3 outstanding)`, calibrated: true },
    "l1.size": { source: `${CACHE_TABLE}: 8 KB L1 data cache` },
    "l1.line": { source: `${CACHE_TABLE}: 64-byte lines` },
    "l1.assoc": { source: `${CACHE_TABLE}: 4-way` },
    "l1.latency": { source: `${CACHE_TABLE}: access latency 2 clocks integer, 9 floating-point; the integer figure, which ScienceMark measures on the Northwood core (2 cycles, AnandTech article 1621, page 2)` },
    "l2.size": { source: "paper 000, section 5: '512 kB caches'; Xeon (Northwood) 512 KB L2" },
    "l2.line": {
      source:
        "128 bytes, the L2 line of Intel's 'A Detailed Look Inside the Intel NetBurst Micro-Architecture of the Intel Pentium 4 Processor' (2000), Table 1; " +
        `${CACHE_TABLE} describes the same cache as two adjacent 64-byte lines that each read miss fetches together (a sector, its footnote 1)`,
    },
    "l2.sector": {
      source:
        `${CACHE_TABLE}: 64-byte lines, the unit a write transfers (footnote 1). The model fills one 64-byte sector per miss and moves 64 bytes per memory access; ` +
        "the hardware's read miss also fetches the adjacent 64 bytes (footnote 1), which the model leaves out",
    },
    "l2.assoc": { source: `${CACHE_TABLE}: 8-way` },
    "l2.latency": {
      source:
        "a measurement, not an Intel figure: 16 cycles load to use on the Northwood core with both Cachemem and ScienceMark " +
        "(AnandTech article 1621 on the Pentium 4 6xx, 2005, page 'Twice the Cache - 17% Higher Latency', https://www.anandtech.com/Show/Index/1621?page=2); " +
        `${CACHE_TABLE} gives 7 clocks, the L2 array's access alone`,
    },
    "tlb.entries": { source: `${HINTON}: 64-entry fully associative data TLB` },
    "tlb.pageSize": { source: "IA-32 Linux base page, 4 KB" },
    "tlb.missPenalty": { source: `${FIG3}; the exposed (not overlapped) part of a page walk: page-table entries of a streamed array sit in the caches, so walks are short`, calibrated: true },
    "memory.latency": { source: "about 150 ns load latency of an E7501-chipset DDR-266 Xeon node", calibrated: true },
    "memory.bandwidth": { source: "533 MT/s x 8 B front-side bus = 4.26 GB/s peak, sustained ~3.2 GB/s per node", calibrated: true },
    "memory.remoteLatency": { source: "no remote memory on a distributed-memory cluster: equal to local", equalTo: "memory.latency" },
    "memory.remoteBandwidth": { source: "no remote memory on a distributed-memory cluster: equal to local", equalTo: "memory.bandwidth" },
    "memory.remoteFraction": { source: "distributed-memory cluster: every miss is local" },
    "prefetch.enabled": { source: `${INTEL_OPT}, chapter 6, 'Hardware Prefetching of Data': an automatic data prefetcher that 'does not prefetch across 4K boundary'` },
    "prefetch.maxStride": {
      source:
        `assumed: ${INTEL_OPT}, chapter 6, 'Hardware Prefetching of Data', says the prefetcher 'attempts to stay 256 bytes ahead' (a look-ahead, not a stride limit); ` +
        "it follows two successive misses closer than a trigger threshold distance (its Table 1-2, not seen), constant strides only below half of it",
      calibrated: true,
    },
    "noise.computeCv": { source: "paper 000, Figure 3: small scatter of in-cache invocations", calibrated: true },
    "noise.memoryCv": { source: "paper 000, Figure 3: small scatter of in-cache invocations", calibrated: true },
    "noise.overflowCv": { source: "paper 000, Figure 3 and Eq. 2: scatter grows once the arrays overflow the cache", calibrated: true },
    "noise.osRate": { source: "Linux 2.4 timer interrupt (HZ) of the era, about 100-1000 Hz", calibrated: true },
    "noise.osCost": { source: "a few microseconds per interruption", calibrated: true },
    "counters.native": { source: "PAPI presets only: Pentium 4 native events are not modelled" },
    "counters.pmuCounters": { source: "no PMU limit unless a scenario asks for one" },
    "counters.presetMap": { source: "PAPI's Pentium 4 preset map (src/papi_events.csv, section CPU,netburst; PAPI_FP_OPS from 'Intel Pentium4 FPU SSE_DP')" },
    missModel: { source: "the analytical stride model, the default; the reference LRU cache is the judge of its accuracy" },
    referenceMaxAccesses: { source: "replay kernels up to 64 Ki accesses with missModel auto" },
  },
  {
    preset: "gigabit-ethernet",
    source: "assumed: the papers do not name the 'neuronic' cluster's network; Gigabit Ethernet was the commodity choice for such a cluster in 2004",
  },
);
