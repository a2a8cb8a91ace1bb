/**
 * Whole cycle counts: the node model prices a kernel invocation in fractions of a cycle (its
 * expected cycles and stall cycles), while a hardware counter reports whole counts. A run makes
 * each invocation's cycle counters whole before adding them to its rank's counters, carrying
 * every fraction to the rank's next invocation, so that a counter's total stays within a few
 * counts of the model's (below) and the relations between the counters hold in every interval a
 * measurement reads:
 * - back-end stall cycles (`BACK_END_BUBBLE_ALL`, `PAPI_STL_CCY`) <= cycles (`CPU_CYCLES`,
 *   `PAPI_TOT_CYC`);
 * - execution bubbles (`BE_EXE_BUBBLE_ALL`, `PAPI_RES_STL`) <= back-end stall cycles;
 * - their floating-point part (`BE_EXE_BUBBLE_FRALL`) <= execution bubbles;
 * - FPU bubbles (`BE_L1D_FPU_BUBBLE_FPU`) <= stall cycles less execution bubbles (the model's
 *   stalls are the execution bubbles, the FPU bubbles, the TLB walks and OS interruptions).
 * Each is rounded down with its own carry and then held to the whole count of the one it is
 * part of: the model's fractions obey the same relations, so a count held back only defers what
 * its carry gives back at a later invocation. A rank's total is never ahead of the model's, and
 * behind it by less than 1 (cycles), 2 (stall cycles), 3 (execution bubbles), 4 (their FP part)
 * or 4 (FPU bubbles): a held count's carry less its limit's carry never grows, and an unheld
 * carry is below 1, so each carry stays below its limit's plus 1 (for the FPU bubbles, whose
 * limit is stall cycles less execution bubbles: below 2 plus the stall carry less the bubbles').
 *
 * The other counters of an invocation (instructions, references, misses) are whole already: the
 * node model rounds each per invocation.
 *
 * @packageDocumentation
 */
import { COUNTER_COUNT, COUNTER_NAMES, CounterId } from "./counters.js";

/** Carries per rank: cycles, stall cycles, execution bubbles, their FP part, FPU bubbles. */
const CARRIES = 5;

/** Rounds each invocation's cycle counters to whole counts, rank by rank (see the file header). */
export class WholeCycleCounts {
  private readonly carry: Float64Array;
  /** 1 for each counter (by `CounterId`) the machine has; the others stay as they are (0). */
  private readonly present = new Float64Array(COUNTER_COUNT);

  /**
   * @param ranks - ranks whose invocations are rounded (each keeps its own carries)
   * @param counterNames - the counters the machine has (`NodeModel.counterNames`): a machine
   *   without the Itanium 2 natives has the PAPI presets alone, which carry the same counts
   */
  constructor(
    readonly ranks: number,
    counterNames: readonly string[],
  ) {
    this.carry = new Float64Array(ranks * CARRIES);
    COUNTER_NAMES.forEach((name, k) => (this.present[k] = counterNames.includes(name) ? 1 : 0));
  }

  /**
   * Makes the cycle counters of one invocation's increments (`counters`, indexed by `CounterId`,
   * as `NodeModel.kernelCost` fills them) whole, in place: `CPU_CYCLES`, `PAPI_TOT_CYC`,
   * `BACK_END_BUBBLE_ALL`, `PAPI_STL_CCY`, `BE_EXE_BUBBLE_ALL`, `PAPI_RES_STL`,
   * `BE_EXE_BUBBLE_FRALL` and `BE_L1D_FPU_BUBBLE_FPU`.
   * @param rank - the rank that ran the invocation (`0..ranks - 1`)
   */
  round(rank: number, counters: Float64Array): void {
    const carry = this.carry;
    const at = rank * CARRIES;
    const id = CounterId;
    // A native and its PAPI preset count the same; the one the machine lacks reads 0.
    const cycles = whole(carry, at, Math.max(counters[id.CPU_CYCLES], counters[id.PAPI_TOT_CYC]), Infinity);
    const stall = whole(carry, at + 1, Math.max(counters[id.BACK_END_BUBBLE_ALL], counters[id.PAPI_STL_CCY]), cycles);
    const exe = whole(carry, at + 2, Math.max(counters[id.BE_EXE_BUBBLE_ALL], counters[id.PAPI_RES_STL]), stall);
    const fp = whole(carry, at + 3, counters[id.BE_EXE_BUBBLE_FRALL], exe);
    const fpu = whole(carry, at + 4, counters[id.BE_L1D_FPU_BUBBLE_FPU], stall - exe);
    const present = this.present;
    counters[id.CPU_CYCLES] = cycles * present[id.CPU_CYCLES];
    counters[id.PAPI_TOT_CYC] = cycles * present[id.PAPI_TOT_CYC];
    counters[id.BACK_END_BUBBLE_ALL] = stall * present[id.BACK_END_BUBBLE_ALL];
    counters[id.PAPI_STL_CCY] = stall * present[id.PAPI_STL_CCY];
    counters[id.BE_EXE_BUBBLE_ALL] = exe * present[id.BE_EXE_BUBBLE_ALL];
    counters[id.PAPI_RES_STL] = exe * present[id.PAPI_RES_STL];
    counters[id.BE_EXE_BUBBLE_FRALL] = fp * present[id.BE_EXE_BUBBLE_FRALL];
    counters[id.BE_L1D_FPU_BUBBLE_FPU] = fpu * present[id.BE_L1D_FPU_BUBBLE_FPU];
  }
}

/**
 * The whole count of `value` plus the carry at `carry[k]`, at most `limit`; the carry keeps the
 * rest. (A counter the machine does not have reads 0 and stays 0.)
 */
function whole(carry: Float64Array, k: number, value: number, limit: number): number {
  const sum = carry[k] + value;
  const n = Math.min(Math.floor(sum), limit);
  carry[k] = sum - n;
  return n;
}
