/**
 * Hardware counters a kernel invocation increments: Itanium 2 native events under their libpfm
 * names, and PAPI presets. Counter values live in a `Float64Array` indexed by {@link CounterId}.
 *
 * Native names are those of libpfm's Itanium 2 event table (`itanium2_pe[]` in libpfm's
 * `itanium2_events.h`, entries `PME_ITA2_<NAME>`); PAPI presets follow PAPI's Itanium 2 mapping
 * (`ia2_preset_search_map` in PAPI's ia64 substrate): `PAPI_TOT_CYC = CPU_CYCLES`,
 * `PAPI_TOT_INS = IA64_INST_RETIRED`, `PAPI_FP_OPS = FP_OPS_RETIRED`, `PAPI_L2_TCA = L2_REFERENCES`,
 * `PAPI_L2_TCM = L2_MISSES`, `PAPI_L3_TCA = L3_REFERENCES`, `PAPI_L3_TCM = L3_MISSES`,
 * `PAPI_TLB_DM = L2DTLB_MISSES`, `PAPI_RES_STL = BE_EXE_BUBBLE_ALL`, `PAPI_STL_CCY = BACK_END_BUBBLE_ALL`,
 * `PAPI_L1_DCM = L1D_READ_MISSES_ALL`, `PAPI_L1_DCA = L1D_READS_SET1` (the count of `L1D_READS_SET0`,
 * from the other counter set), `PAPI_L1_DCH = L1D_READS_SET1 - L1D_READ_MISSES_ALL`,
 * `PAPI_L1_TCA = L1D_READS_SET0 + L1I_READS` (instruction fetch is not modelled: the L1D reads).
 * PAPI's Itanium 2 map has no `PAPI_FP_INS`; it is emitted with PAPI's general meaning (below).
 * On machines without the Itanium 2 natives the L1 presets count every data reference.
 *
 * Meaning in the model (per invocation):
 * - `CPU_CYCLES`: duration x clock (includes OS interruptions, which appear as stall cycles).
 * - `IA64_INST_RETIRED`: loads + stores + FP instructions + other instructions.
 * - `FP_OPS_RETIRED`: flops; `PAPI_FP_INS`: FP instructions (an FMA is one instruction, two flops).
 * - `LOADS_RETIRED`, `STORES_RETIRED`: memory references.
 * - `L1D_READS_SET0`: integer loads (floating-point loads bypass the Itanium 2's L1D);
 *   `L1D_READ_MISSES_ALL`: L1 misses caused by loads (all of them when the L1 is integer-only and
 *   written through, as the Itanium 2's; else the load share of the L1 misses).
 * - `L2_DATA_REFERENCES_L2_ALL` = `L2_REFERENCES`: L1 misses, plus on the Itanium 2 (integer-only,
 *   written-through L1D) the floating-point loads and the stores (instruction fetch is not modelled).
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
 * - `PAPI_L1_DCM`: L1 data misses; `PAPI_L1_TCA`/`PAPI_L1_DCA`: L1 data accesses; `PAPI_L1_DCH`: L1
 *   data hits, accesses less misses (the L1 term of paper 004's memory-stall model). With the
 *   Itanium 2 natives these are the L1D reads, as PAPI maps them; elsewhere loads and stores.
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
