/**
 * The machine configuration: a plain, JSON-serialisable nested object in base units. Scenarios
 * build it from YAML; sweeps override keys by path (`machine.l2.size`). Units:
 * - sizes in **bytes**, clock in **hertz**, bandwidth in **bytes per second**;
 * - cache hit latencies and the TLB miss penalty in **processor cycles**;
 * - memory latencies and OS-noise costs in **microseconds** (they do not scale with the clock).
 *
 * @packageDocumentation
 */

import type { PresetMap } from "./counters.js";

/** One cache level (`l1` to `l4`). Absent levels do not exist. */
export interface CacheLevelConfig {
  /** Capacity in bytes; a multiple of `line * assoc`. */
  size: number;
  /** Line (tag) size in bytes, a power of two. */
  line: number;
  /** Sector (fill unit) size in bytes, a power of two dividing `line`; defaults to `line`. */
  sector?: number;
  /** Associativity (ways per set). */
  assoc: number;
  /** Load-to-use hit latency in cycles. */
  latency: number;
  /**
   * First level only, with a level after it: it serves integer loads only, as Itanium 2's L1D does.
   * Floating-point loads go to the next level (which the compiler schedules for), and stores are
   * written through to it without allocating here, so both count as that level's references; it
   * misses only on the arrays integer loads read, and arrays no integer load reads bypass it.
   * Default false.
   */
  integerOnly?: boolean;
}

/** The data TLB (the last-level data TLB, whose misses cost a page walk). */
export interface TlbConfig {
  /** Entries (fully associative, LRU). */
  entries: number;
  /** Page size in bytes, a power of two. */
  pageSize: number;
  /** Page-walk cost of a miss, in cycles. */
  missPenalty: number;
}

/** Main memory as seen by one node. */
export interface MemoryConfig {
  /** Local memory load latency in microseconds. */
  latency: number;
  /** Sustainable local memory bandwidth of the whole node, bytes/s (shared by its processes). */
  bandwidth: number;
  /** Remote (other node, ccNUMA) memory latency in microseconds. */
  remoteLatency: number;
  /** Remote memory bandwidth, bytes/s. */
  remoteBandwidth: number;
  /**
   * Fraction of last-level misses served by another node's memory on a multi-node ccNUMA system
   * (pages first touched elsewhere, shared data), whatever the rank placement; 0 on a
   * distributed-memory cluster. A cluster of one node has no remote memory and uses 0.
   */
  remoteFraction: number;
  /**
   * Memory of one node in bytes, shared by its processes, when known: a kernel whose arrays
   * exceed a process's share is warned about (the model neither pages nor fails). Optional.
   */
  size?: number;
}

/** The hardware prefetcher: follows sequential and small-stride streams within a page. */
export interface PrefetchConfig {
  /** Whether the prefetcher runs. */
  enabled: boolean;
  /** Largest stride it follows, in bytes (strides beyond it, or beyond a page, are not prefetched). */
  maxStride: number;
}

/** Per-invocation variability (drawn only when a random stream is passed). */
export interface NoiseConfig {
  /** Coefficient of variation of the compute part (ratio). */
  computeCv: number;
  /** Coefficient of variation of the memory-stall part while the arrays fit in the last cache level (ratio). */
  memoryCv: number;
  /** Extra coefficient of variation of the memory-stall part once the arrays overflow the last level (ratio). */
  overflowCv: number;
  /** Rate of OS interruptions (timer ticks, daemons) in hertz. */
  osRate: number;
  /** Mean cost of one OS interruption in microseconds (exponentially distributed). */
  osCost: number;
}

/** Which counters the processor exposes. */
export interface CounterConfig {
  /** Native event table: `itanium2` (libpfm's Itanium 2 names) or `none` (PAPI presets only). */
  native: "itanium2" | "none";
  /** Physical PMU counters that can be read at once; 0 means unlimited (no PMU modelled). */
  pmuCounters: number;
  /**
   * PAPI preset map that says which native events (one physical counter each) a preset takes
   * under `pmuCounters`; absent: `itanium2` with the Itanium 2 natives, else `none` (one counter
   * per preset). See {@link PresetMap}.
   */
  presetMap?: PresetMap;
}

/** How cache misses are computed. */
export type MissModelChoice = "analytical" | "reference" | "auto";

/** A whole machine: processors, nodes, caches, TLB, memory, prefetcher, noise and counters. */
export interface MachineConfig {
  /** Processor clock in hertz. */
  clock: number;
  /** Instructions the core issues per cycle at most (peak). */
  issueWidth: number;
  /** Peak floating-point operations per cycle. */
  flopsPerCycle: number;
  /**
   * Fraction of the peak issue and floating-point rates that compiled code sustains between memory
   * stalls (register dependencies, scheduling, branches), a ratio in (0, 1]; the cycles lost are
   * back-end execution bubbles. Default 1: per-element work is then an effective count at peak.
   */
  computeEfficiency?: number;
  /** Processors (one process each) per node. */
  processorsPerNode: number;
  /** Cycles of miss latency the core hides by executing independent work (out-of-order window). */
  overlapCycles: number;
  /** Demand misses outstanding at once (memory-level parallelism) for misses the prefetcher does not cover. */
  memoryParallelism: number;
  /** First-level data cache. */
  l1?: CacheLevelConfig;
  /** Second-level cache. */
  l2?: CacheLevelConfig;
  /** Third-level cache. */
  l3?: CacheLevelConfig;
  /** Fourth-level cache (an off-chip or memory-side cache; no counters count it). */
  l4?: CacheLevelConfig;
  /** Data TLB. */
  tlb: TlbConfig;
  /** Main memory. */
  memory: MemoryConfig;
  /** Hardware prefetcher. */
  prefetch: PrefetchConfig;
  /** Per-invocation noise. */
  noise: NoiseConfig;
  /** Hardware counters. */
  counters: CounterConfig;
  /** Miss engine: `analytical` (default), `reference` (trace-driven LRU replay) or `auto` (reference for small kernels). */
  missModel: MissModelChoice;
  /** With `missModel: auto`, kernels of at most this many distinct accesses per pass are replayed. */
  referenceMaxAccesses: number;
}

/** Cache level keys, outermost last. */
export const LEVEL_KEYS = ["l1", "l2", "l3", "l4"] as const;

/** A cache level key. */
export type LevelKey = (typeof LEVEL_KEYS)[number];

/** The cache levels present in `config`, innermost first, with their keys. */
export function presentLevels(config: MachineConfig): { key: LevelKey; level: CacheLevelConfig }[] {
  const out: { key: LevelKey; level: CacheLevelConfig }[] = [];
  for (const key of LEVEL_KEYS) {
    const level = config[key];
    if (level !== undefined && level !== null) out.push({ key, level });
  }
  return out;
}
