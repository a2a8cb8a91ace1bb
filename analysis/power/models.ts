/**
 * The counter-based performance metrics and power model of paper 004, section 3, for one event
 * on one thread (inclusive or exclusive values). Missing counters degrade the result instead of
 * failing it: what could not be computed is listed in `missing`, and derived quantities say how
 * they were derived.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import type { PowerConstantSet } from "./constants.js";

/** Values of one event on one thread, by metric name (counts; time metrics in microseconds). */
export type CounterValues = Readonly<Record<string, number>>;

/** Context the counters alone do not give. */
export interface CounterContext {
  /**
   * CPU clock in MHz (TAU metadata "CPU MHz"), to derive cycles from time or time from cycles;
   * a finite number above 0 (another value is refused with an `AnalysisInputError`).
   */
  readonly cpuMHz?: number;
}

/** How the cycle count and the time were obtained. */
export interface CycleBasis {
  /** Cycles (NaN when unavailable). */
  readonly cycles: number;
  /** Counter used, or "time × CPU MHz", or "unavailable". */
  readonly cyclesFrom: string;
  /** Time in microseconds (NaN when unavailable). */
  readonly timeUs: number;
  /** Metric used, or "cycles / CPU MHz", or "unavailable". */
  readonly timeFrom: string;
  /** Whether the cycles or the time came from the other with the CPU clock. */
  readonly fromClock: boolean;
}

/** Picks the first counter of `names` present in `values`. @internal */
export function pick(values: CounterValues, names: readonly string[]): { name: string; value: number } | undefined {
  for (const n of names) {
    const v = values[n];
    if (v !== undefined && Number.isFinite(v)) return { name: n, value: v };
  }
  return undefined;
}

/**
 * Refuses a CPU clock (MHz) that is not a finite number above 0: it would leave every time or
 * cycle count derived from it NaN, or 0. @internal
 */
export function checkClock(cpuMHz: number | undefined): void {
  if (cpuMHz !== undefined && !(Number.isFinite(cpuMHz) && cpuMHz > 0)) throw new AnalysisInputError(`cpuMHz must be a clock above 0 MHz, got ${cpuMHz}`);
}

/** Cycles and time of an event, deriving one from the other with the CPU clock when needed. */
export function cycleBasis(values: CounterValues, set: PowerConstantSet, ctx: CounterContext = {}): CycleBasis {
  checkClock(ctx.cpuMHz);
  const c = pick(values, set.counters.cycles);
  const t = pick(values, set.counters.time);
  const mhz = ctx.cpuMHz;
  // 1 µs × f MHz = f cycles.
  const cycles = c ? c.value : t && mhz ? t.value * mhz : NaN;
  const cyclesFrom = c ? c.name : t && mhz ? `${t.name} × CPU MHz` : "unavailable";
  const timeUs = t ? t.value : c && mhz ? c.value / mhz : NaN;
  const timeFrom = t ? t.name : c && mhz ? `${c.name} / CPU MHz` : "unavailable";
  return { cycles, cyclesFrom, timeUs, timeFrom, fromClock: mhz !== undefined && ((!c && !!t) || (!t && !!c)) };
}

/**
 * Why an event has no cycle basis: a cycle count of 0 (the event spends no cycles, as an
 * exclusive view of a caller that only calls others), or no cycle counter and no time with a clock.
 */
function noCyclesReason(basis: CycleBasis, set: PowerConstantSet): string {
  if (basis.cycles === 0) return `no cycles spent (${basis.cyclesFrom} is 0), so no rate`;
  return `no cycle count (${set.counters.cycles.join("|")}, or a time metric with CPU MHz)`;
}

/** Paper 004's performance metrics; a metric is undefined when a counter it needs is missing. */
export interface PerformanceMetrics {
  /** Stall_Cycles / Total_Cycles (Eq. 1). */
  readonly globalStalls?: number;
  /** FLP_Stalls / Total_Cycles (Eq. 2), a fraction. */
  readonly flpStalls?: number;
  /** FLP_OPS · (FLP_Stalls / Total_Cycles) (Eq. 3), problem-size dependent. */
  readonly flpIneffD?: number;
  /** (FP_OPS / Retired_Inst) · (Stall_Cycles / Total_Cycles) (Eq. 4), problem-size independent. */
  readonly flpIneffI?: number;
  /** Memory stall cycles of the latency model, when every term's counters are present. */
  readonly memoryStalls?: number;
  /**
   * Memory stall cycles / total cycles. It can exceed 1: the model charges every reference its
   * full latency, one after another, while a processor overlaps misses with each other and with
   * work (on the Itanium 2 every floating-point load is an L2 reference, so floating-point
   * kernels exceed it most).
   */
  readonly memoryStallRatio?: number;
  /**
   * True when {@link memoryStallRatio} exceeds 1: the model's estimate exceeds the cycles it
   * explains, because it charges every L1 hit 1 cycle, every L2 hit 2 and so on, one after another
   * (as TAU PerfExplorer's script does), while the processor overlaps those latencies.
   */
  readonly memoryStallsAboveCycles: boolean;
  /**
   * Instructions retired (the `instructions` counter), undefined without it. An event with cycles
   * but 0 instructions (a simulated rank blocked in MPI: every cycle a stall) has no FLPIneffI and
   * only the idle power.
   */
  readonly retiredInstructions?: number;
  /** Remote_mem_access / L3_miss. */
  readonly remoteMemoryAccessRatio?: number;
  /** Terms of the memory stall model that were computed, cycles each. */
  readonly memoryTerms: Readonly<Record<string, number>>;
  /** Metrics or terms that could not be computed, each with the counters it lacks. */
  readonly missing: readonly string[];
  /** Cycle and time basis. */
  readonly basis: CycleBasis;
}

/**
 * Computes GlobalStalls, %FLPStalls, FLPIneffD, FLPIneffI, the memory-stall model and the remote
 * memory access ratio from one event's counters.
 */
export function counterMetrics(values: CounterValues, set: PowerConstantSet, ctx: CounterContext = {}): PerformanceMetrics {
  const k = set.counters;
  const basis = cycleBasis(values, set, ctx);
  const missing: string[] = [];
  const need = (what: string, ...lists: (readonly string[])[]): number[] | undefined => {
    const vals = lists.map((l) => pick(values, l));
    const absent = lists.filter((_, i) => !vals[i]).map((l) => l.join("|"));
    if (absent.length > 0) {
      missing.push(`${what} (needs ${absent.join(", ")})`);
      return undefined;
    }
    return vals.map((v) => v!.value);
  };
  const cyc = Number.isFinite(basis.cycles) && basis.cycles > 0 ? basis.cycles : undefined;
  const noCycles = (what: string): undefined => {
    missing.push(basis.cycles === 0 ? `${what} (no cycles spent: ${basis.cyclesFrom} is 0)` : `${what} (needs ${k.cycles.join("|")} or a time metric with CPU MHz)`);
    return undefined;
  };
  const stall = need("GlobalStalls", k.stallCycles);
  const globalStalls = stall ? (cyc ? stall[0]! / cyc : noCycles("GlobalStalls")) : undefined;
  const flpParts = k.flpStallTerms.map((n) => values[n]);
  const flpStallCycles = flpParts.every((v) => v !== undefined && Number.isFinite(v)) ? flpParts.reduce((s, v) => s! + v!, 0)! : undefined;
  if (flpStallCycles === undefined) missing.push(`%FLPStalls (needs ${k.flpStallTerms.filter((n) => values[n] === undefined).join(", ")})`);
  const flpStalls = flpStallCycles !== undefined ? (cyc ? flpStallCycles / cyc : noCycles("%FLPStalls")) : undefined;
  const fp = pick(values, k.flops);
  const flpIneffD = flpStalls !== undefined ? (fp ? fp.value * flpStalls : (missing.push(`FLPIneffD (needs ${k.flops.join("|")})`), undefined)) : undefined;
  let flpIneffI: number | undefined;
  const inst = need("FLPIneffI", k.flops, k.instructions, k.stallCycles);
  // FP_OPS / Retired_Inst is 0/0 where no instruction retired: undefined, not NaN or 0.
  if (inst) flpIneffI = !cyc ? noCycles("FLPIneffI") : inst[1]! > 0 ? (inst[0]! / inst[1]!) * (inst[2]! / cyc) : (missing.push(`FLPIneffI (no instruction retired: ${pick(values, k.instructions)!.name} is 0)`), undefined);
  const retiredInstructions = pick(values, k.instructions)?.value;

  const lat = set.latencies;
  const memoryTerms: Record<string, number> = {};
  const l1 = pick(values, k.l1Hits);
  if (l1) memoryTerms.l1 = l1.value * lat.l1;
  else missing.push(`memory term L1 hits (needs ${k.l1Hits.join("|")})`);
  const l2 = need("memory term L2 hits", k.l2DataReferences, k.l2Misses);
  if (l2) memoryTerms.l2 = (l2[0]! - l2[1]!) * lat.l2;
  const l3 = need("memory term L3 hits", k.l2Misses, k.l3Misses);
  if (l3) memoryTerms.l3 = (l3[0]! - l3[1]!) * lat.l3;
  const mem = need("memory terms local/remote memory", k.l3Misses, k.remoteAccesses);
  if (mem) {
    memoryTerms.local = (mem[0]! - mem[1]!) * lat.local;
    memoryTerms.remote = mem[1]! * lat.remote;
  }
  const tlb = need("memory term TLB misses", k.tlbMisses);
  if (tlb) memoryTerms.tlb = tlb[0]! * lat.tlb;
  const complete = ["l2", "l3", "local", "remote", "tlb"].every((t) => t in memoryTerms);
  const memoryStalls = complete ? Object.values(memoryTerms).reduce((a, b) => a + b, 0) : undefined;
  const memoryStallRatio = memoryStalls !== undefined && cyc ? memoryStalls / cyc : undefined;
  const remoteMemoryAccessRatio = mem && mem[0]! > 0 ? mem[1]! / mem[0]! : undefined;
  const memoryStallsAboveCycles = memoryStallRatio !== undefined && memoryStallRatio > 1;
  return { globalStalls, flpStalls, flpIneffD, flpIneffI, memoryStalls, memoryStallRatio, memoryStallsAboveCycles, retiredInstructions, remoteMemoryAccessRatio, memoryTerms, missing, basis };
}

/** Power of one model component. */
export interface ComponentPower {
  /** Component name. */
  readonly component: string;
  /** Counter that gave its accesses. */
  readonly counter: string;
  /** Accesses per cycle. */
  readonly accessRate: number;
  /** AccessRate · ArchitecturalScaling · MaxPower, watts. */
  readonly watts: number;
}

/** Result of {@link estimatePower}. */
export interface PowerEstimate {
  /** Σ component power + idle power, watts (a lower bound when components are omitted). */
  readonly watts: number;
  /** Idle power, watts. */
  readonly idleWatts: number;
  /** Components whose power was computed. */
  readonly components: readonly ComponentPower[];
  /** Components left out, with the reason. */
  readonly omitted: readonly { readonly component: string; readonly reason: string }[];
  /** True when every component of the set was computed. */
  readonly complete: boolean;
  /**
   * True when {@link watts} exceeds the set's MaxPower (the thermal design power). The model is
   * linear in the access rates and has no cap, so such an estimate over-states the power.
   */
  readonly aboveMaxPower: boolean;
  /** Energy = power × time, joules (NaN without a time). */
  readonly joules: number;
  /** Floating-point operations (NaN without a FLOP counter). */
  readonly flops: number;
  /** Counter that gave the FLOPs. */
  readonly flopsFrom: string;
  /** FLOPs per joule (NaN when either is unavailable). */
  readonly flopsPerJoule: number;
  /** Cycle and time basis. */
  readonly basis: CycleBasis;
  /** Name of the constant set. */
  readonly constants: string;
}

/**
 * Estimates power, energy and FLOP/J of one event from its counters:
 * Power(C_i) = AccessRate(C_i) · ArchitecturalScaling(C_i) · MaxPower, TotalPower = Σ + IdlePower.
 * @throws AnalysisInputError when a counter value is negative
 */
export function estimatePower(values: CounterValues, set: PowerConstantSet, ctx: CounterContext = {}): PowerEstimate {
  for (const [k, v] of Object.entries(values)) if (v < 0) throw new AnalysisInputError(`counter '${k}' is negative (${v})`);
  const basis = cycleBasis(values, set, ctx);
  const components: ComponentPower[] = [];
  const omitted: { component: string; reason: string }[] = [];
  const haveCycles = Number.isFinite(basis.cycles) && basis.cycles > 0;
  for (const c of set.components) {
    const acc = pick(values, c.accessCounters);
    if (!acc) omitted.push({ component: c.name, reason: `no access counter (${c.accessCounters.join("|")})` });
    else if (!haveCycles) omitted.push({ component: c.name, reason: noCyclesReason(basis, set) });
    else {
      const accessRate = acc.value / basis.cycles;
      components.push({ component: c.name, counter: acc.name, accessRate, watts: accessRate * c.scaling * set.maxPower });
    }
  }
  const watts = components.reduce((s, c) => s + c.watts, 0) + set.idlePower;
  const seconds = basis.timeUs * 1e-6;
  const joules = Number.isFinite(seconds) ? watts * seconds : NaN;
  const fp = pick(values, set.counters.flops);
  const flops = fp ? fp.value : NaN;
  return {
    watts,
    idleWatts: set.idlePower,
    components,
    omitted,
    complete: omitted.length === 0,
    aboveMaxPower: watts > set.maxPower,
    joules,
    flops,
    flopsFrom: fp ? fp.name : "unavailable",
    flopsPerJoule: joules > 0 ? flops / joules : NaN,
    basis,
    constants: set.name,
  };
}
