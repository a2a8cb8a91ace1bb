import { definePreset } from "../node/preset.js";

const ITA_MAN = "Intel Itanium 2 Processor Reference Manual for Software Development and Optimization (order 251110)";
const P004 = "paper 004, section 4 (Altix 3600, Madison 9M)";
const PERFEXP = "coefficients of paper 004's memory-stall model as coded in the TAU PerfExplorer script computing it (openuh/memoryStalls.py: L2 2, L3 10, TLB 30, local 150, remote 232 cycles)";

/**
 * SGI Altix 3600 node of paper 004 (section 4): two 1.6 GHz Itanium 2 (Madison 9M) per node, L1D 16 KiB
 * 4-way 64 B, L2 256 KiB 8-way 128 B, L3 9 MiB 18-way 128 B, 16 KiB pages, local and remote
 * (NUMAlink) memory, Itanium 2 native counters.
 */
export const itanium2Preset = definePreset(
  "itanium2-madison",
  "SGI Altix 3600 node: two 1.6 GHz Itanium 2 Madison 9M, 9 MiB L3, ccNUMA memory (paper 004)",
  {
    clock: 1.6e9,
    issueWidth: 6,
    flopsPerCycle: 4,
    computeEfficiency: 0.5,
    processorsPerNode: 2,
    overlapCycles: 0,
    memoryParallelism: 4,
    l1: { size: 16 * 1024, line: 64, assoc: 4, latency: 1, integerOnly: true },
    l2: { size: 256 * 1024, line: 128, assoc: 8, latency: 6 },
    l3: { size: 9 * 1024 * 1024, line: 128, assoc: 18, latency: 14 },
    tlb: { entries: 128, pageSize: 16384, missPenalty: 30 },
    memory: { latency: 150 / 1.6e3, bandwidth: 6.4e9, remoteLatency: 232 / 1.6e3, remoteBandwidth: 3.2e9, remoteFraction: 0.05 },
    prefetch: { enabled: true, maxStride: 2048 },
    noise: { computeCv: 0.01, memoryCv: 0.02, overflowCv: 0.15, osRate: 1024, osCost: 3 },
    counters: { native: "itanium2", pmuCounters: 0 },
    missModel: "analytical",
    referenceMaxAccesses: 65536,
  },
  {
    clock: { source: `${P004}; NCSA Cobalt Altix: 1.6 GHz Madison 9M` },
    issueWidth: { source: `${ITA_MAN}: two 3-instruction bundles per cycle` },
    flopsPerCycle: { source: `${ITA_MAN}: two FMA units (4 flops per cycle, 6.4 GFlop/s at 1.6 GHz)` },
    computeEfficiency: {
      source:
        "assumed: compiler-scheduled (software-pipelined) floating-point code on the in-order EPIC core sustains about half its peak, " +
        "1.7 times the Xeon preset's 0.3, as SPEC CFP2000 results of 2003 credit the 1.5 GHz Madison with about four times a 2.8 GHz Xeon's work per clock " +
        "at twice its peak floating-point rate (part of that from its larger caches, which the cache model accounts for)",
      calibrated: true,
    },
    processorsPerNode: { source: `${P004}: 'two Itanium 2 processors per node'` },
    overlapCycles: { source: `${ITA_MAN}: in-order core; latency is hidden only by compiler scheduling`, calibrated: true },
    memoryParallelism: { source: "non-blocking L2 with many outstanding misses; effective overlap of ~4 for strided code", calibrated: true },
    "l1.size": { source: `${P004}: 16 KB L1 data cache` },
    "l1.line": { source: `${ITA_MAN}: 64-byte L1D lines` },
    "l1.assoc": { source: `${ITA_MAN}: 4-way L1D` },
    "l1.latency": { source: `${ITA_MAN}: 1-cycle integer load latency` },
    "l1.integerOnly": { source: `${ITA_MAN}: the L1D holds integer data only (floating-point loads are served by the L2) and is write-through` },
    "l2.size": { source: `${P004}: 256 KB unified L2` },
    "l2.line": { source: `${ITA_MAN}: 128-byte L2 lines` },
    "l2.assoc": { source: `${ITA_MAN}: 8-way L2` },
    "l2.latency": { source: `${ITA_MAN}: 5-7 cycles (6 for FP loads, which bypass L1D); ${PERFEXP} uses 2 for the extra cost over L1` },
    "l3.size": { source: `${ITA_MAN} (Madison 9M): 9 MiB unified on-die L3` },
    "l3.line": { source: `${ITA_MAN}: 128-byte L3 lines` },
    "l3.assoc": {
      source:
        "assumed: 18 ways, so that 9 MiB holds 4096 sets of 128-byte lines; no Madison 9M datasheet figure was found " +
        "(the 3 MB McKinley L3 is 12-way, and a 24-way 9 MiB L3 would have 3072 sets)",
      calibrated: true,
    },
    "l3.latency": { source: `${ITA_MAN}: 14-cycle L3 latency (Madison); ${PERFEXP} uses 10 over L2` },
    "tlb.entries": { source: `${ITA_MAN}: 128-entry L2DTLB` },
    "tlb.pageSize": { source: "16 KB pages, the Linux/ia64 default on the Altix" },
    "tlb.missPenalty": { source: PERFEXP },
    "memory.latency": { source: `${PERFEXP}: 150 cycles at 1.6 GHz = 93.75 ns (a later version of the script, whose coefficients the power constant set itanium2-madison uses, has 127 cycles)` },
    "memory.bandwidth": {
      source:
        "assumed sustainable: the 6.4 GB/s peak of the node's front-side bus (128 bits at 400 MT/s), shared by its two processors; " +
        "a sustained (STREAM) figure of an Altix 3600 node would be lower",
      calibrated: true,
    },
    "memory.remoteLatency": { source: `${PERFEXP}: 232 cycles at 1.6 GHz = 145 ns (worst-case hops estimate, paper 004 section 3.1)` },
    "memory.remoteBandwidth": { source: "NUMAlink 4: 3.2 GB/s per direction per link" },
    "memory.remoteFraction": { source: "assumed: first-touch placement keeps most pages local; 5% of misses remote", calibrated: true },
    "prefetch.enabled": {
      source: "modelling assumption: the Itanium 2 has no hardware stream prefetcher; the compiler's lfetch streams are modelled as one",
      calibrated: true,
    },
    "prefetch.maxStride": { source: "lfetch covers strides of a few lines; 2 KB assumed", calibrated: true },
    "noise.computeCv": { source: "assumed small run-to-run variation of in-cache code", calibrated: true },
    "noise.memoryCv": { source: "assumed small run-to-run variation of in-cache code", calibrated: true },
    "noise.overflowCv": { source: "assumed, scatter growing out of cache as in paper 000 Figure 3", calibrated: true },
    "noise.osRate": { source: "Linux/ia64 timer interrupt at 1024 Hz" },
    "noise.osCost": { source: "a few microseconds per interruption", calibrated: true },
    "counters.native": { source: "libpfm Itanium 2 event table (itanium2_events.h), names verified for every native counter" },
    "counters.pmuCounters": { source: "no PMU limit unless a scenario asks (Itanium 2 has 4 generic counters, PMC4-PMC7)" },
    missModel: { source: "the analytical stride model, the default; the reference LRU cache is the judge of its accuracy" },
    referenceMaxAccesses: { source: "replay kernels up to 64 Ki accesses with missModel auto" },
  },
  { preset: "numalink-4", source: "paper 004, section 4: the Altix 3600's nodes share one address space over NUMAlink 4" },
);
