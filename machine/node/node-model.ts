/**
 * The SMP node model: what a compute kernel costs on one processor of a node (duration and
 * counter increments), from the cache hierarchy, the TLB, the prefetcher, memory and noise.
 *
 * @packageDocumentation
 */
import type { RandomStream } from "../../engine/random.js";
import { LEVEL_KEYS, presentLevels, type LevelKey, type MachineConfig } from "./config.js";
import { COUNTER_COUNT, COUNTER_NAMES, CounterId, describePmuDemand, pmuDemand, presetMapOf, supportedCounters, type CounterName } from "./counters.js";
import { MachineInputError } from "./errors.js";
import { levelGeometry, tlbGeometry, type CacheGeometry } from "./geometry.js";
import { stridedIsSequential, validateKernel, type KernelSpec } from "./kernel.js";
import { memoryCv, osJitter } from "./noise.js";
import { ReferenceHierarchy } from "./reference-cache.js";
import { ShapeMemo } from "./shape-memo.js";
import { levelMissesPerPass, PATTERN_RANDOM, PATTERN_SEQUENTIAL, PATTERN_STRIDED } from "./stride-miss-model.js";
import { nearestName } from "../../engine/registry.js";
import { validateMachine } from "./params.js";

/** A preallocated result of {@link NodeModel.kernelCost}; reuse one per caller. */
export interface KernelCost {
  /** Duration of the invocation in microseconds. */
  duration: number;
  /** Counter increments, indexed by {@link CounterId}; length {@link COUNTER_COUNT}. */
  readonly counters: Float64Array;
  /** Misses (sector fills) per cache level for the invocation, innermost first, then TLB misses. */
  readonly misses: Float64Array;
  /** Cycles the core needed without any memory stall (issue or FP bound, at the sustained rate: see `computeEfficiency`). */
  computeCycles: number;
  /** Cycles stalled on miss latency (after overlap and memory-level parallelism). */
  latencyCycles: number;
  /** Cycles beyond compute spent waiting for memory bandwidth. */
  bandwidthCycles: number;
  /** Cycles of TLB page walks. */
  tlbCycles: number;
  /** Microseconds lost to OS interruptions. */
  osJitter: number;
}

/** A fresh, zeroed {@link KernelCost} (allocate once, reuse for every call). */
export function createKernelCost(): KernelCost {
  return {
    duration: 0,
    counters: new Float64Array(COUNTER_COUNT),
    // Every cache level a machine may have, then the TLB.
    misses: new Float64Array(LEVEL_KEYS.length + 1),
    computeCycles: 0,
    latencyCycles: 0,
    bandwidthCycles: 0,
    tlbCycles: 0,
    osJitter: 0,
  };
}

/** Options of a {@link NodeModel}. */
export interface NodeModelOptions {
  /** Processes sharing this node's memory bandwidth. Default: `processorsPerNode`. */
  sharers?: number;
  /**
   * Share of last-level misses served by another node's memory, in [0, 1]. Default:
   * `memory.remoteFraction` of the configuration (a node of a multi-node ccNUMA system). A
   * {@link Cluster} of one node passes 0: without another node there is no remote memory.
   */
  remoteFraction?: number;
}

/**
 * One node of a machine. Cheap to call: {@link kernelCost} allocates nothing and evaluates the
 * analytical model in O(levels).
 */
export class NodeModel {
  /** The validated configuration. */
  readonly config: MachineConfig;
  /** Keys of the cache levels present, innermost first. */
  readonly levelKeys: readonly LevelKey[];
  /** Counter names this machine supports (others stay 0). */
  readonly counterNames: readonly CounterName[];
  /** Processes sharing the memory bandwidth. */
  readonly sharers: number;
  /** Share of last-level misses served by remote memory (see {@link NodeModelOptions.remoteFraction}). */
  readonly remoteFraction: number;
  private readonly geoms: CacheGeometry[];
  private readonly latencies: Float64Array;
  private readonly tlbGeom: CacheGeometry;
  private readonly unsupported: Int32Array;
  /** Position of `l1`, `l2`, `l3` among the present levels (-1 when absent): level counters follow the level, not its position. */
  private readonly l1Index: number;
  private readonly l2Index: number;
  private readonly l3Index: number;
  /** Whether the first level serves integer loads only (`l1.integerOnly`): floating-point streams bypass it. */
  private readonly l1IntegerOnly: boolean;
  /**
   * Whether the PAPI L1 presets follow PAPI's Itanium 2 map (native events `itanium2`): data
   * accesses are the L1D reads, misses the read misses (see `counters.ts`).
   */
  private readonly papiL1Reads: boolean;
  private readonly scratch: Float64Array;
  private reference: ReferenceHierarchy | undefined;
  /** The hierarchy without its first level, for streams that bypass it. */
  private referenceBeyondL1: ReferenceHierarchy | undefined;
  private readonly memo: ShapeMemo;
  /** The reference replays' misses per kernel shape (a replay is a pure function of the shape). */
  private readonly referenceMemo: ShapeMemo;
  /** Kernel invocations costed with each engine's misses (analytical, reference replay): what `missModel: auto` chose. */
  readonly missEngineInvocations = { analytical: 0, reference: 0 };

  /**
   * @throws MachineInputError when the configuration is invalid
   */
  constructor(config: MachineConfig, options: NodeModelOptions = {}) {
    validateMachine(config);
    this.config = config;
    const levels = presentLevels(config);
    this.levelKeys = levels.map((l) => l.key);
    this.geoms = levels.map((l) => levelGeometry(l.level));
    this.latencies = new Float64Array(levels.map((l) => l.level.latency));
    this.tlbGeom = tlbGeometry(config.tlb);
    this.counterNames = supportedCounters(this.levelKeys, config.counters.native);
    this.l1Index = this.levelKeys.indexOf("l1");
    this.l2Index = this.levelKeys.indexOf("l2");
    this.l3Index = this.levelKeys.indexOf("l3");
    // (Only with a level after it: what passes the L1 must reference one.)
    this.l1IntegerOnly = this.l1Index === 0 && levels.length > 1 && config.l1?.integerOnly === true;
    this.papiL1Reads = config.counters.native === "itanium2";
    const supported = new Set<string>(this.counterNames);
    this.unsupported = new Int32Array(COUNTER_NAMES.map((n, i) => (supported.has(n) ? -1 : i)).filter((i) => i >= 0));
    this.scratch = new Float64Array(levels.length + 1);
    this.memo = new ShapeMemo(levels.length + 1);
    this.referenceMemo = new ShapeMemo(levels.length + 1);
    const sharers = options.sharers ?? config.processorsPerNode;
    if (!Number.isInteger(sharers) || sharers < 1) throw new MachineInputError("sharers", "an integer >= 1", sharers);
    this.sharers = sharers;
    const remoteFraction = options.remoteFraction ?? config.memory.remoteFraction;
    if (typeof remoteFraction !== "number" || !(remoteFraction >= 0 && remoteFraction <= 1)) throw new MachineInputError("remoteFraction", "a number in [0, 1]", remoteFraction);
    this.remoteFraction = remoteFraction;
  }

  /** Number of cache levels. */
  get levels(): number {
    return this.geoms.length;
  }

  /** Geometry of cache level `k` (0 = innermost). */
  geometry(k: number): CacheGeometry {
    return this.geoms[k];
  }

  /**
   * Steady-state misses of one pass from the analytical model: `out[k]` for level k (innermost
   * first), `out[levels]` for the TLB, of the kernel's stream through every level (an integer-only
   * L1 is taken as an ordinary one here; {@link kernelCost} applies it). Allocation-free.
   * @throws MachineInputError for an invalid kernel
   */
  analyticalMissesPerPass(kernel: KernelSpec, out: Float64Array): void {
    const q = kernel.elements;
    const e = kernel.elementSize;
    const arrays = kernel.arrays ?? 1;
    const pattern = streamPattern(kernel);
    const stride = pattern === PATTERN_STRIDED ? (kernel.stride ?? 1) : 1;
    this.analyticalMisses(q, e, arrays, pattern, stride, false, out);
  }

  /**
   * {@link analyticalMissesPerPass} from the kernel's fields, read once by the caller; with
   * `bypassL1` the stream skips the first level (its misses are 0, the next level sees every access).
   */
  private analyticalMisses(q: number, e: number, arrays: number, pattern: number, stride: number, bypassL1: boolean, out: Float64Array): void {
    // Kernel shapes repeat (AMR-style runs): a memo hit skips the set-conflict analysis.
    const code = shapeCode(arrays, pattern, bypassL1);
    if (this.memo.get(q, e, stride, code, out)) return;
    this.computeMisses(q, e, arrays, pattern, stride, bypassL1, out);
    this.memo.set(q, e, stride, code, out);
  }

  private computeMisses(q: number, e: number, arrays: number, pattern: number, stride: number, bypassL1: boolean, out: Float64Array): void {
    const n = this.geoms.length;
    let bound = q * arrays;
    const first = bypassL1 ? 1 : 0;
    if (bypassL1) out[0] = 0;
    for (let k = first; k < n; k++) {
      // A level cannot miss more often than it is accessed (the misses of the level above).
      const m = Math.min(bound, levelMissesPerPass(this.geoms[k], q, e, arrays, pattern, stride));
      out[k] = m;
      bound = m;
    }
    out[n] = Math.min(q * arrays, levelMissesPerPass(this.tlbGeom, q, e, arrays, pattern, stride));
  }

  /**
   * Steady-state misses of one pass from the trace-driven reference cache (replays two passes).
   * Same layout and stream as {@link analyticalMissesPerPass}.
   */
  referenceMissesPerPass(kernel: KernelSpec, out: Float64Array): void {
    if (this.reference === undefined) this.reference = new ReferenceHierarchy(this.geoms, this.tlbGeom);
    this.reference.steadyStateMisses(kernel, out);
  }

  /** {@link referenceMissesPerPass} of a stream that skips the first level (its misses 0; same layout). */
  private referenceMissesBeyondL1(kernel: KernelSpec, out: Float64Array): void {
    if (this.referenceBeyondL1 === undefined) this.referenceBeyondL1 = new ReferenceHierarchy(this.geoms.slice(1), this.tlbGeom);
    // The hierarchy's layout is one level shorter: its results shift up by one.
    const inner = out.subarray(1);
    this.referenceBeyondL1.steadyStateMisses(kernel, inner);
    out[0] = 0;
  }

  /**
   * The cost of one kernel invocation on one processor of this node. Fills `out` (duration in
   * microseconds, counter increments, breakdown) and returns it. Without `rng` the result is the
   * noise-free expectation; with `rng` (a named stream, for example `sim.random("noise/rank3")`)
   * compute time, memory stall time (cache-state and memory-system variation, larger once the arrays
   * overflow the last level) and OS interruptions scatter; miss counts stay at their expectation.
   * Noise never makes a kernel faster than the machine allows: the compute cycles stay at or above
   * the peak issue and floating-point rates, and a process sharing the node's memory bandwidth
   * stays at or above the node's whole bandwidth (`memory.bandwidth` for local fills,
   * `memory.remoteBandwidth` for remote ones); alone on its node, its memory noise scatters both
   * ways around the sustained bandwidth, keeping the bandwidth time's mean. The duration's mean
   * is above the noise-free one by the OS interruptions, and where compute and bandwidth time are
   * close (the duration takes the larger of the two scattered times).
   *
   * Time model, in cycles: `max(compute, memory bandwidth) + demand-miss latency + TLB walks`,
   * plus OS interruptions, where compute = `max(instructions / issueWidth, flops / flopsPerCycle) /
   * computeEfficiency`;
   * misses the prefetcher covers (sequential or small-stride streams, within a page) cost only
   * bandwidth; the others cost `max(0, next-level latency - overlapCycles) / memoryParallelism`.
   * A share {@link remoteFraction} of the last level's misses is served by remote memory (its
   * latency and bandwidth) and counted in `DATA_EAR_CACHE_LAT128`.
   *
   * @throws MachineInputError for an invalid kernel (key `kernel.<name>`)
   */
  kernelCost(kernel: KernelSpec, rng: RandomStream | undefined, out: KernelCost): KernelCost {
    validateKernel(kernel);
    const c = this.config;
    const n = this.geoms.length;
    // Every field read once: kernel objects of several shapes make each read a polymorphic lookup.
    const q = kernel.elements;
    const e = kernel.elementSize;
    const arrays = kernel.arrays ?? 1;
    const passes = kernel.passes ?? 1;
    const perLoads = kernel.loads;
    const perStores = kernel.stores;
    const perFlops = kernel.flops;
    const pattern = streamPattern(kernel);
    const stride = pattern === PATTERN_STRIDED ? (kernel.stride ?? 1) : 1;
    const perPass = this.scratch;
    // Floating-point loads skip a first level that serves integer loads only, and with them the
    // arrays of floating-point data they read.
    const perFloatLoads = this.l1IntegerOnly ? (kernel.floatLoads ?? (perFlops > 0 ? perLoads : 0)) : 0;
    // The arrays skip the L1 when no integer load reads them (stores do not allocate there).
    const bypassL1 = this.l1IntegerOnly && perFloatLoads >= perLoads;
    const useReference = c.missModel === "reference" || (c.missModel === "auto" && q * arrays <= c.referenceMaxAccesses);
    if (useReference) {
      this.missEngineInvocations.reference++;
      // Each shape is replayed once: its two passes cost q * arrays accesses each, and a run
      // repeats its shapes (200 iterations of a 20 M-element kernel: hours of replay otherwise).
      const code = shapeCode(arrays, pattern, bypassL1);
      if (!this.referenceMemo.get(q, e, stride, code, perPass)) {
        if (bypassL1) this.referenceMissesBeyondL1(kernel, perPass);
        else this.referenceMissesPerPass(kernel, perPass);
        this.referenceMemo.set(q, e, stride, code, perPass);
      }
    } else {
      this.missEngineInvocations.analytical++;
      this.analyticalMisses(q, e, arrays, pattern, stride, bypassL1, perPass);
    }

    const streamAccesses = q * arrays * passes;
    const refs = q * passes * (perLoads + perStores);
    const fmaFraction = kernel.fmaFraction ?? 0;
    // Whole counts, as every count below (a kernel may do 2.5 flops per element).
    const flops = Math.round(q * passes * perFlops);
    const fpIns = Math.round(flops * (1 - fmaFraction / 2));
    const other = q * passes * kernel.otherInstructions;
    const instructions = Math.round(refs + fpIns + other);

    // Cache-state and memory-system variation scales the memory stall cycles (more when the arrays
    // overflow the last level). Not the miss counts: a stream's misses have a floor (every sector
    // it brings in), which a scaled count would cross, and counts are what the counters report.
    const footprint = q * e * arrays;
    const lastSize = n > 0 ? this.geoms[n - 1].size : 0;
    let memoryFactor = 1;
    let computeFactor = 1;
    if (rng !== undefined) {
      const cv = memoryCv(c.noise.memoryCv, c.noise.overflowCv, footprint, lastSize);
      if (cv > 0) memoryFactor = rng.lognormalMeanCv(1, cv);
      if (c.noise.computeCv > 0) computeFactor = rng.lognormalMeanCv(1, c.noise.computeCv);
    }

    const loads = Math.round(q * passes * perLoads);
    const stores = Math.round(q * passes * perStores);
    // An integer-only first level reads the integer loads; floating-point loads and (written
    // through) stores are references of the next level.
    const floatLoads = Math.round(q * passes * perFloatLoads);
    const throughL1 = this.l1IntegerOnly ? floatLoads + stores : 0;
    const misses = out.misses;
    // A loop, not `fill(0)`: the builtin call costs more than the rest of a memoised invocation.
    for (let k = 0; k < misses.length; k++) misses[k] = 0;
    let bound = Math.min(streamAccesses, loads + stores);
    for (let k = 0; k < n; k++) {
      let m = Math.min(bound, Math.round(perPass[k] * passes));
      if (k === 0 && this.l1IntegerOnly) {
        // An integer-only L1 is written through without allocating: it misses on the arrays that
        // integer loads read (one per integer load per element, at most all of them), and the
        // next level is referenced by those misses and by what passes it (floating-point loads,
        // stores).
        const readArrays = Math.min(arrays, perLoads - perFloatLoads);
        m = readArrays > 0 ? Math.round((m * readArrays) / arrays) : 0;
        misses[0] = m;
        bound = Math.min(bound, m + throughL1);
        continue;
      }
      misses[k] = m;
      // The next level is referenced by this one's misses.
      bound = m;
    }
    const tlbMisses = Math.min(streamAccesses, Math.round(perPass[n] * passes));
    misses[n] = tlbMisses;

    // Prefetch coverage: sequential and small-stride streams are followed within a page.
    const page = c.tlb.pageSize;
    let strideBytes = pattern === PATTERN_SEQUENTIAL ? e : pattern === PATTERN_STRIDED ? stride * e : Infinity;
    if (!c.prefetch.enabled || strideBytes > c.prefetch.maxStride || strideBytes >= page) strideBytes = Infinity;

    const clock = c.clock;
    const remoteFraction = this.remoteFraction;
    const memLatencyUs = (1 - remoteFraction) * c.memory.latency + remoteFraction * c.memory.remoteLatency;
    const memLatency = memLatencyUs * 1e-6 * clock;
    const overlap = c.overlapCycles;
    const mlp = c.memoryParallelism;
    let latencyCycles = 0;
    for (let k = 0; k < n; k++) {
      const unit = this.geoms[k].sector;
      const covered = strideBytes === Infinity ? 0 : 1 - Math.min(1, Math.max(unit, strideBytes) / page);
      const demand = misses[k] * (1 - covered);
      const next = k + 1 < n ? this.latencies[k + 1] : memLatency;
      latencyCycles += (demand * Math.max(0, next - overlap)) / mlp;
    }
    if (n === 0) latencyCycles = (streamAccesses * Math.max(0, memLatency - overlap)) / mlp;
    latencyCycles *= memoryFactor;
    const tlbCycles = tlbMisses * c.tlb.missPenalty * memoryFactor;

    const memAccesses = n > 0 ? misses[n - 1] : streamAccesses;
    const fillBytes = n > 0 ? this.geoms[n - 1].sector : e;
    const remote = Math.round(memAccesses * remoteFraction);
    const localBw = c.memory.bandwidth / this.sharers;
    const bytes = memAccesses * fillBytes;
    const localBytes = (memAccesses - remote) * fillBytes;
    const remoteSeconds = (remote * fillBytes) / c.memory.remoteBandwidth;
    const bwSeconds = localBytes / localBw + remoteSeconds;
    // Memory noise scales the bandwidth time, mean-preserving around the calibrated sustained
    // bandwidth. A process that shares the node's bandwidth never moves its bytes faster than the
    // whole node can (one process using all of it, as if its sharers were idle). Alone on the node
    // (one sharer) the draws keep scattering both ways around the sustained rate, an average:
    // flooring them there would bias every memory-bound kernel's mean time upwards.
    const floorSeconds = this.sharers > 1 ? localBytes / c.memory.bandwidth + remoteSeconds : 0;
    const memoryCycles = bytes > 0 ? Math.max(floorSeconds, bwSeconds * memoryFactor) * clock : 0;

    // At peak the core is issue- or FP-bound; compiled code sustains a fraction of that peak, and
    // the cycles it loses wait on register dependencies (execution bubbles). Compute noise scales
    // the sustained cycles but never below the peak: the core cannot issue more than its width
    // (so cycles - BACK_END_BUBBLE_ALL, the issue-limited cycles, hold every instruction).
    const issueCycles = instructions / c.issueWidth;
    const peakCycles = Math.max(issueCycles, flops / c.flopsPerCycle);
    const computeCycles = Math.max(peakCycles, (peakCycles * computeFactor) / (c.computeEfficiency ?? 1));
    const busy = Math.max(computeCycles, memoryCycles);
    let cycles = busy + latencyCycles + tlbCycles;
    let jitter = 0;
    if (rng !== undefined) {
      jitter = osJitter(rng, (cycles / clock) * 1e6, c.noise.osRate, c.noise.osCost);
      cycles += jitter * 1e-6 * clock;
    }

    out.duration = (cycles / clock) * 1e6;
    out.computeCycles = computeCycles;
    out.latencyCycles = latencyCycles;
    out.bandwidthCycles = busy - computeCycles;
    out.tlbCycles = tlbCycles;
    out.osJitter = jitter;

    const ct = out.counters;
    const id = CounterId;
    const refs1 = loads - floatLoads + stores;
    // Accesses reaching present level k are the misses of the level inside it (all references for
    // the innermost), plus what passes an integer-only first level for the one after it; absent
    // levels read 0 here and are zeroed below as unsupported anyway.
    const i1 = this.l1Index;
    const i2 = this.l2Index;
    const i3 = this.l3Index;
    const l1Misses = i1 >= 0 ? misses[i1] : 0;
    const l2Refs = i2 > 0 ? misses[i2 - 1] + (i2 === 1 ? throughL1 : 0) : i2 === 0 ? refs1 : 0;
    const l2Misses = i2 >= 0 ? misses[i2] : 0;
    const l3Refs = i3 > 0 ? misses[i3 - 1] + (i3 === 1 ? throughL1 : 0) : i3 === 0 ? refs1 : 0;
    const l3Misses = i3 >= 0 ? misses[i3] : 0;
    const l1Reads = loads - floatLoads;
    // Misses caused by loads: all of them when the L1 does not allocate on stores (integer-only,
    // written through), else the load share of the references.
    const l1ReadMisses = this.l1IntegerOnly ? l1Misses : Math.round(l1Misses * (refs1 > 0 ? l1Reads / refs1 : 0));
    // PAPI's L1 data presets: on the Itanium 2 the L1D reads and their misses, elsewhere every reference.
    const papiL1Accesses = this.papiL1Reads ? l1Reads : refs1;
    // Instruction fetches, one L1I read per issue group, a last partial group included (see
    // counters.ts): a count of reads, as the cache's other reference counts are.
    const l1iReads = this.papiL1Reads ? Math.ceil(instructions / c.issueWidth) : 0;
    const papiL1Misses = this.papiL1Reads ? l1ReadMisses : l1Misses;
    const stall = cycles - issueCycles;
    const exeStall = busy - computeCycles + latencyCycles + (computeCycles - peakCycles);
    const fpShare = fpIns + other > 0 ? fpIns / (fpIns + other) : 0;
    ct[id.CPU_CYCLES] = cycles;
    ct[id.IA64_INST_RETIRED] = instructions;
    ct[id.FP_OPS_RETIRED] = flops;
    ct[id.LOADS_RETIRED] = loads;
    ct[id.STORES_RETIRED] = stores;
    ct[id.BACK_END_BUBBLE_ALL] = stall;
    ct[id.BE_EXE_BUBBLE_ALL] = exeStall;
    ct[id.BE_EXE_BUBBLE_FRALL] = exeStall * fpShare;
    ct[id.BE_L1D_FPU_BUBBLE_FPU] = peakCycles - issueCycles;
    ct[id.L1D_READS_SET0] = l1Reads;
    ct[id.L1D_READ_MISSES_ALL] = l1ReadMisses;
    ct[id.L2_DATA_REFERENCES_L2_ALL] = l2Refs;
    ct[id.L2_REFERENCES] = l2Refs;
    ct[id.L2_MISSES] = l2Misses;
    ct[id.L3_REFERENCES] = l3Refs;
    ct[id.L3_MISSES] = l3Misses;
    ct[id.L2DTLB_MISSES] = tlbMisses;
    ct[id.DATA_EAR_CACHE_LAT128] = remote;
    ct[id.PAPI_TOT_CYC] = cycles;
    ct[id.PAPI_TOT_INS] = instructions;
    ct[id.PAPI_FP_OPS] = flops;
    ct[id.PAPI_FP_INS] = fpIns;
    ct[id.PAPI_LD_INS] = loads;
    ct[id.PAPI_SR_INS] = stores;
    ct[id.PAPI_L1_DCA] = papiL1Accesses;
    ct[id.PAPI_L1_DCM] = papiL1Misses;
    ct[id.PAPI_L1_DCH] = papiL1Accesses - papiL1Misses;
    ct[id.PAPI_L1_TCA] = papiL1Accesses + l1iReads;
    ct[id.L1I_READS] = l1iReads;
    ct[id.PAPI_L2_TCA] = l2Refs;
    ct[id.PAPI_L2_TCM] = l2Misses;
    ct[id.PAPI_L3_TCA] = l3Refs;
    ct[id.PAPI_L3_TCM] = l3Misses;
    ct[id.PAPI_TLB_DM] = tlbMisses;
    ct[id.PAPI_RES_STL] = exeStall;
    ct[id.PAPI_STL_CCY] = stall;
    const unsupported = this.unsupported;
    for (let i = 0; i < unsupported.length; i++) ct[unsupported[i]] = 0;
    return out;
  }

  /**
   * Ids of the counters a measurement asks for, checked against this machine.
   * @throws MachineInputError for an unknown or unsupported name (suggesting the nearest one), or
   *   when the names take more than `counters.pmuCounters` physical counters (when non-zero): each
   *   name counts the distinct native events PAPI's preset map builds it from ({@link pmuDemand})
   */
  selectCounters(names: readonly string[]): Int32Array {
    const ids = new Int32Array(names.length);
    names.forEach((name, i) => {
      if (!(this.counterNames as readonly string[]).includes(name)) {
        const near = nearestName(name, this.counterNames);
        throw new MachineInputError("counters", `a counter this machine supports${near ? ` (did you mean '${near}'?)` : ""}: ${this.counterNames.join(", ")}`, name);
      }
      ids[i] = CounterId[name as CounterName];
    });
    const limit = this.config.counters.pmuCounters;
    if (limit > 0) {
      const demand = pmuDemand(names, presetMapOf(this.config.counters));
      if (demand.natives.length > limit)
        throw new MachineInputError(
          "counters",
          `at most ${limit} counters at once (machine.counters.pmuCounters); these take ${describePmuDemand(demand)}`,
          names,
        );
    }
    return ids;
  }
}

/**
 * The pattern code of a kernel's address stream: a strided sweep of one column or one row
 * ({@link stridedIsSequential}) is the sequential stream, priced as one (misses, prefetching).
 */
function streamPattern(kernel: KernelSpec): number {
  const p = kernel.pattern;
  if (p === "sequential") return PATTERN_SEQUENTIAL;
  if (p === "random") return PATTERN_RANDOM;
  return stridedIsSequential(kernel.elements, kernel.stride ?? 1) ? PATTERN_SEQUENTIAL : PATTERN_STRIDED;
}

/** The part of a kernel shape's memo key beyond elements, element size and stride (unique: arrays <= 64, three patterns). */
function shapeCode(arrays: number, pattern: number, bypassL1: boolean): number {
  return (bypassL1 ? 512 : 0) + pattern * 128 + arrays;
}
