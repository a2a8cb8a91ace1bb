/**
 * Hardware counters a kernel invocation increments: Itanium 2 native events under their libpfm
 * names, and PAPI presets. Counter values live in a `Float64Array` indexed by {@link CounterId}.
 *
 * Native names are those of libpfm's Itanium 2 event table (`itanium2_pe[]` in libpfm's
 * `itanium2_events.h`, entries `PME_ITA2_<NAME>`); PAPI presets follow PAPI's Itanium 2 mapping
 * (`ia2_preset_search_map` in PAPI's ia64 substrate): `PAPI_TOT_CYC = CPU_CYCLES`,
 * `PAPI_TOT_INS = IA64_INST_RETIRED + IA32_INST_RETIRED` (no IA-32 code runs: the IA-64 count), `PAPI_FP_OPS = FP_OPS_RETIRED`, `PAPI_L2_TCA = L2_REFERENCES`,
 * `PAPI_L2_TCM = L2_MISSES`, `PAPI_L3_TCA = L3_REFERENCES`, `PAPI_L3_TCM = L3_MISSES`,
 * `PAPI_TLB_DM = L2DTLB_MISSES`, `PAPI_RES_STL = BE_EXE_BUBBLE_ALL`, `PAPI_STL_CCY = BACK_END_BUBBLE_ALL`,
 * `PAPI_L1_DCM = L1D_READ_MISSES_ALL`, `PAPI_L1_DCA = L1D_READS_SET1` (the count of `L1D_READS_SET0`,
 * from the other counter set), `PAPI_L1_DCH = L1D_READS_SET1 - L1D_READ_MISSES_ALL`,
 * `PAPI_L1_TCA = L1D_READS_SET0 + L1I_READS`.
 * PAPI's Itanium 2 map has no `PAPI_FP_INS`; it is emitted with PAPI's general meaning (below).
 * On machines without the Itanium 2 natives the L1 presets count every data reference.
 *
 * A PMU limit (`counters.pmuCounters`) counts physical counters: the distinct native events the
 * machine's PAPI preset map ({@link PresetMap}) builds the asked presets from, plus the natives
 * asked by name ({@link pmuDemand}). `PAPI_L1_DCH` and `PAPI_L1_TCA` together take four counters on
 * the Itanium 2; `PAPI_TOT_CYC` with `CPU_CYCLES` takes one.
 *
 * Meaning in the model (per invocation; the node model gives expected counts, in fractions of a
 * cycle for the cycle counters, which a run makes whole: see `whole-cycles.ts`):
 * - `CPU_CYCLES`: duration x clock (includes OS interruptions, which appear as stall cycles).
 * - `IA64_INST_RETIRED`: loads + stores + FP instructions + other instructions.
 * - `FP_OPS_RETIRED`: flops; `PAPI_FP_INS`: FP instructions (an FMA is one instruction, two flops).
 * - `LOADS_RETIRED`, `STORES_RETIRED`: memory references.
 * - `L1I_READS`: instruction fetches from the L1I, one per issue group, rounded up (`issueWidth` instructions:
 *   the Itanium 2 fetches two 16-byte bundles, six instruction slots, per L1I read, as it issues
 *   them). Kernels are loops whose code stays in the L1I, so fetches never miss and add no L2
 *   reference; bundles padded with no-ops would take more fetches than this count, a lower bound.
 * - `L1D_READS_SET0`: integer loads (floating-point loads bypass the Itanium 2's L1D);
 *   `L1D_READ_MISSES_ALL`: L1 misses caused by loads (all of them when the L1 is integer-only and
 *   written through, as the Itanium 2's; else the load share of the L1 misses).
 * - `L2_DATA_REFERENCES_L2_ALL` = `L2_REFERENCES`: L1 misses, plus on the Itanium 2 (integer-only,
 *   written-through L1D) the floating-point loads and the stores (instruction fetches hit the L1I).
 * - `L2_MISSES`, `L3_REFERENCES` (= L2 misses), `L3_MISSES`: fills of each level.
 * - `L2DTLB_MISSES`: data TLB misses.
 * - `DATA_EAR_CACHE_LAT128`: last-level misses served by remote memory (the papers' "remote memory
 *   accesses"). On the real PMU the event counts loads whose latency reached 128 cycles, which with
 *   the preset's 150-cycle local memory would take in local misses too; the model reads it as paper
 *   004's memory-stall model and TAU PerfExplorer's scripts do.
 * - `BACK_END_BUBBLE_ALL`: all stall cycles = cycles - issue-limited cycles. A rank outside its
 *   kernels (blocked in MPI, in a component's plain cost) retires no modelled instruction, so each
 *   of those cycles is a stall cycle ({@link IDLE_STALL_COUNTERS}).
 * - `BE_EXE_BUBBLE_ALL`: cycles waiting on data (miss latency and memory bandwidth) and on register
 *   dependencies (the compute cycles beyond peak that `computeEfficiency` below 1 adds).
 * - `BE_EXE_BUBBLE_FRALL`: the part of those spent by FP consumers (FP share of non-memory instructions).
 * - `BE_L1D_FPU_BUBBLE_FPU`: cycles the FP units are the bottleneck at peak (flop-bound beyond issue).
 * - `PAPI_L1_DCM`: L1 data misses; `PAPI_L1_DCA`: L1 data accesses; `PAPI_L1_DCH`: L1 data hits,
 *   accesses less misses (the L1 term of paper 004's memory-stall model); `PAPI_L1_TCA`: L1 accesses
 *   (paper 004's L1 access rate). With the Itanium 2 natives these are the L1D reads, and for
 *   `PAPI_L1_TCA` the L1I reads too, as PAPI maps them; elsewhere loads and stores.
 *
 * @packageDocumentation
 */
import { LEVEL_KEYS, type LevelKey } from "./config.js";

/** Every counter the model can produce, in id order. */
export const COUNTER_NAMES = [
  "CPU_CYCLES",
  "IA64_INST_RETIRED",
  "FP_OPS_RETIRED",
  "LOADS_RETIRED",
  "STORES_RETIRED",
  "BACK_END_BUBBLE_ALL",
  "BE_EXE_BUBBLE_ALL",
  "BE_EXE_BUBBLE_FRALL",
  "BE_L1D_FPU_BUBBLE_FPU",
  "L1D_READS_SET0",
  "L1D_READ_MISSES_ALL",
  "L2_DATA_REFERENCES_L2_ALL",
  "L2_REFERENCES",
  "L2_MISSES",
  "L3_REFERENCES",
  "L3_MISSES",
  "L2DTLB_MISSES",
  "DATA_EAR_CACHE_LAT128",
  "PAPI_TOT_CYC",
  "PAPI_TOT_INS",
  "PAPI_FP_OPS",
  "PAPI_FP_INS",
  "PAPI_LD_INS",
  "PAPI_SR_INS",
  "PAPI_L1_DCA",
  "PAPI_L1_DCM",
  "PAPI_L1_TCA",
  "PAPI_L2_TCA",
  "PAPI_L2_TCM",
  "PAPI_L3_TCA",
  "PAPI_L3_TCM",
  "PAPI_TLB_DM",
  "PAPI_RES_STL",
  "PAPI_STL_CCY",
  "PAPI_L1_DCH",
  "L1I_READS",
] as const;

/** A counter name. */
export type CounterName = (typeof COUNTER_NAMES)[number];

/**
 * Index of each counter in a counter `Float64Array` (`CounterId.PAPI_L2_TCM` ...), in
 * {@link COUNTER_NAMES} order. A literal of constants so that the hot path's loads fold away.
 */
export const CounterId = {
  CPU_CYCLES: 0,
  IA64_INST_RETIRED: 1,
  FP_OPS_RETIRED: 2,
  LOADS_RETIRED: 3,
  STORES_RETIRED: 4,
  BACK_END_BUBBLE_ALL: 5,
  BE_EXE_BUBBLE_ALL: 6,
  BE_EXE_BUBBLE_FRALL: 7,
  BE_L1D_FPU_BUBBLE_FPU: 8,
  L1D_READS_SET0: 9,
  L1D_READ_MISSES_ALL: 10,
  L2_DATA_REFERENCES_L2_ALL: 11,
  L2_REFERENCES: 12,
  L2_MISSES: 13,
  L3_REFERENCES: 14,
  L3_MISSES: 15,
  L2DTLB_MISSES: 16,
  DATA_EAR_CACHE_LAT128: 17,
  PAPI_TOT_CYC: 18,
  PAPI_TOT_INS: 19,
  PAPI_FP_OPS: 20,
  PAPI_FP_INS: 21,
  PAPI_LD_INS: 22,
  PAPI_SR_INS: 23,
  PAPI_L1_DCA: 24,
  PAPI_L1_DCM: 25,
  PAPI_L1_TCA: 26,
  PAPI_L2_TCA: 27,
  PAPI_L2_TCM: 28,
  PAPI_L3_TCA: 29,
  PAPI_L3_TCM: 30,
  PAPI_TLB_DM: 31,
  PAPI_RES_STL: 32,
  PAPI_STL_CCY: 33,
  PAPI_L1_DCH: 34,
  L1I_READS: 35,
} as const;

/** Length of a counter array. */
export const COUNTER_COUNT = COUNTER_NAMES.length;

/** Native Itanium 2 events (libpfm names). */
export const ITANIUM2_NATIVE_EVENTS: readonly CounterName[] = COUNTER_NAMES.filter((n) => !n.startsWith("PAPI_"));

/**
 * Stall-cycle counters that also advance, one per cycle, while a rank runs no kernel (blocked in
 * MPI, in a component's plain cost): it retires no modelled instruction then, and every cycle
 * it does not issue is a back-end stall (`BACK_END_BUBBLE_ALL` = cycles - issue-limited cycles).
 * The execution-bubble counters (`BE_EXE_BUBBLE_*`, `PAPI_RES_STL`) stay with the kernels: a rank
 * that waits has no instruction waiting on data.
 */
export const IDLE_STALL_COUNTERS: readonly CounterName[] = ["BACK_END_BUBBLE_ALL", "PAPI_STL_CCY"];

/** Counters (PAPI presets and natives) that count one cache level, with the level they need. */
const COUNTER_LEVEL: Readonly<Record<string, LevelKey>> = {
  PAPI_L1_DCA: "l1",
  PAPI_L1_DCH: "l1",
  PAPI_L1_DCM: "l1",
  PAPI_L1_TCA: "l1",
  PAPI_L2_TCA: "l2",
  PAPI_L2_TCM: "l2",
  PAPI_L3_TCA: "l3",
  PAPI_L3_TCM: "l3",
  L1D_READS_SET0: "l1",
  L1D_READ_MISSES_ALL: "l1",
  L2_DATA_REFERENCES_L2_ALL: "l2",
  L2_REFERENCES: "l2",
  L2_MISSES: "l2",
  L3_REFERENCES: "l3",
  L3_MISSES: "l3",
};

/** The cache level a counter counts (`PAPI_L3_TCM`: `l3`), or undefined for one of no level. */
export function counterLevel(name: string): LevelKey | undefined {
  return Object.prototype.hasOwnProperty.call(COUNTER_LEVEL, name) ? COUNTER_LEVEL[name] : undefined;
}

/**
 * Counter names a machine supports: PAPI presets for the cache levels it has, plus the Itanium 2
 * natives when `native` is `itanium2`. A level counter needs that very level: a machine whose
 * `l2` was removed (`l1` and `l3` present) has no L2 counters, and its L3 counters count `l3`.
 * @param levels - keys of the cache levels present (`presentLevels`), or a count `n` for `l1`..`ln`
 */
export function supportedCounters(levels: readonly LevelKey[] | number, native: "itanium2" | "none"): CounterName[] {
  const present: readonly LevelKey[] = typeof levels === "number" ? LEVEL_KEYS.slice(0, levels) : levels;
  return COUNTER_NAMES.filter((n) => {
    const level = COUNTER_LEVEL[n];
    if (level !== undefined && !present.includes(level)) return false;
    return n.startsWith("PAPI_") || native === "itanium2";
  });
}

/**
 * Which PAPI preset map turns a preset into the native events the PMU counts for it (each native
 * event takes one physical counter):
 * - `itanium2`: PAPI's Itanium 2 map (`ia2_preset_search_map` in PAPI's ia64 substrate,
 *   `src/linux-ia64.c`), with libpfm's Itanium 2 event names (`itanium2_events.h`);
 * - `pentium4`: PAPI's Pentium 4 map (`src/papi_events.csv`, section `CPU,netburst`, with
 *   `PAPI_FP_OPS` from its `Intel Pentium4 FPU SSE_DP` section), with libpfm's NetBurst event names;
 * - `none`: no map, one counter per preset.
 * A preset a map leaves out (PAPI does not offer it on that processor; the model emits it all the
 * same) takes one counter of its own name.
 */
export type PresetMap = "itanium2" | "pentium4" | "none";

/**
 * PAPI's Itanium 2 map for the presets the model emits: `+` and `-` of PAPI's `DERIVED_ADD` and
 * `DERIVED_SUB` become a list of natives. `PAPI_FP_INS` is not in the map.
 */
/** Native events (libpfm names, with masks where the map gives them) of each PAPI preset a map covers. */
type PresetNatives = Readonly<Partial<Record<CounterName, readonly string[]>>>;

const ITANIUM2_PRESET_NATIVES: PresetNatives = {
  PAPI_TOT_CYC: ["CPU_CYCLES"],
  PAPI_TOT_INS: ["IA64_INST_RETIRED", "IA32_INST_RETIRED"],
  PAPI_FP_OPS: ["FP_OPS_RETIRED"],
  PAPI_LD_INS: ["LOADS_RETIRED"],
  PAPI_SR_INS: ["STORES_RETIRED"],
  PAPI_L1_DCA: ["L1D_READS_SET1"],
  PAPI_L1_DCM: ["L1D_READ_MISSES_ALL"],
  PAPI_L1_DCH: ["L1D_READS_SET1", "L1D_READ_MISSES_ALL"],
  PAPI_L1_TCA: ["L1D_READS_SET0", "L1I_READS"],
  PAPI_L2_TCA: ["L2_REFERENCES"],
  PAPI_L2_TCM: ["L2_MISSES"],
  PAPI_L3_TCA: ["L3_REFERENCES"],
  PAPI_L3_TCM: ["L3_MISSES"],
  PAPI_TLB_DM: ["L2DTLB_MISSES"],
  PAPI_RES_STL: ["BE_EXE_BUBBLE_ALL"],
  PAPI_STL_CCY: ["BACK_END_BUBBLE_ALL"],
};

/**
 * PAPI's Pentium 4 map for the presets the model emits, native events with their masks (two
 * masks of one event are two counters). `DERIVED_CMPD` presets (tagged µops) take both events.
 * It has no L1 data presets and no `PAPI_STL_CCY`.
 */
const PENTIUM4_PRESET_NATIVES: PresetNatives = {
  PAPI_TOT_CYC: ["execution_event:nbogus0:nbogus1:nbogus2:nbogus3:bogus0:bogus1:bogus2:bogus3:cmpl:thr=15"],
  PAPI_TOT_INS: ["INSTR_RETIRED:NBOGUSNTAG"],
  PAPI_FP_OPS: ["execution_event:NBOGUS1", "scalar_DP_uop:ALL:TAG1"],
  PAPI_FP_INS: ["execution_event:NBOGUS0", "x87_FP_uop:ALL:TAG0"],
  PAPI_LD_INS: ["front_end_event:NBOGUS", "uops_type:TAGLOADS"],
  PAPI_SR_INS: ["front_end_event:NBOGUS", "uops_type:TAGSTORES"],
  PAPI_L2_TCA: ["BSQ_cache_reference:RD_2ndL_MISS:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM"],
  PAPI_L2_TCM: ["BSQ_cache_reference:RD_2ndL_MISS"],
  PAPI_TLB_DM: ["page_walk_type:DTMISS"],
  PAPI_RES_STL: ["resource_stall:SBFULL"],
};

const PRESET_MAPS: Readonly<Record<Exclude<PresetMap, "none">, PresetNatives>> = {
  itanium2: ITANIUM2_PRESET_NATIVES,
  pentium4: PENTIUM4_PRESET_NATIVES,
};

/**
 * The native events behind one counter name under a preset map: a native event is itself; a
 * PAPI preset is what the map builds it from (itself when the map leaves it out or is `none`).
 */
export function counterNatives(name: string, map: PresetMap): readonly string[] {
  if (map === "none" || !name.startsWith("PAPI_")) return [name];
  return PRESET_MAPS[map][name as CounterName] ?? [name];
}

/** The physical counters a set of counter names takes at once. */
export interface PmuDemand {
  /** Distinct native events, in order of first use: each takes one physical counter. */
  readonly natives: readonly string[];
  /** The natives of each name asked, in the order asked. */
  readonly byName: readonly { readonly name: string; readonly natives: readonly string[] }[];
}

/**
 * The physical counters that counting `names` at once takes: each name expanded to its native
 * events ({@link counterNatives}), duplicates counted once (`PAPI_TOT_CYC` and `CPU_CYCLES` share
 * one counter). libpfm's event-group constraints (events restricted to some counters, events that
 * cannot be counted together) are not modelled: any `pmuCounters` natives fit.
 */
export function pmuDemand(names: readonly string[], map: PresetMap): PmuDemand {
  const natives: string[] = [];
  const byName = names.map((name) => {
    const n = counterNatives(name, map);
    for (const e of n) if (!natives.includes(e)) natives.push(e);
    return { name, natives: n };
  });
  return { natives, byName };
}

/**
 * The physical counters of a demand, for messages: `4 physical counters: L1D_READS_SET1,
 * L1D_READ_MISSES_ALL, L1D_READS_SET0, L1I_READS (PAPI_L1_DCH needs L1D_READS_SET1 and
 * L1D_READ_MISSES_ALL; PAPI_L1_TCA needs L1D_READS_SET0 and L1I_READS)`; names that are their own
 * native event are not repeated in the parenthesis.
 */
export function describePmuDemand(demand: PmuDemand): string {
  const and = (xs: readonly string[]) => (xs.length === 1 ? xs[0] : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
  const expanded = demand.byName.filter((d) => d.natives.length !== 1 || d.natives[0] !== d.name);
  const why = expanded.length === 0 ? "" : ` (${expanded.map((d) => `${d.name} needs ${and(d.natives)}`).join("; ")})`;
  return `${demand.natives.length} physical counter${demand.natives.length === 1 ? "" : "s"}: ${demand.natives.join(", ")}${why}`;
}

/** The preset map a machine's counters follow: the configured one, else `itanium2` with the Itanium 2 natives, else `none`. */
export function presetMapOf(counters: { readonly native: "itanium2" | "none"; readonly presetMap?: PresetMap }): PresetMap {
  return counters.presetMap ?? (counters.native === "itanium2" ? "itanium2" : "none");
}
