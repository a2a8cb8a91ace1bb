import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COUNTER_COUNT, CounterId, WholeCycleCounts, supportedCounters } from "../../machine/index.js";

/** One invocation's cycle counters as the node model relates them (fractions of a cycle). */
const invocation = fc
  .record({
    cycles: fc.double({ min: 0, max: 1e7, noNaN: true }),
    stallShare: fc.double({ min: 0, max: 1, noNaN: true }),
    exeShare: fc.double({ min: 0, max: 1, noNaN: true }),
    fpuShare: fc.double({ min: 0, max: 1, noNaN: true }),
    fpShare: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ cycles, stallShare, exeShare, fpuShare, fpShare }) => {
    const stall = cycles * stallShare;
    const exe = stall * exeShare;
    return { cycles, stall, exe, fp: exe * fpShare, fpu: (stall - exe) * fpuShare };
  });

function increments(v: { cycles: number; stall: number; exe: number; fp: number; fpu: number }, natives: boolean): Float64Array {
  const c = new Float64Array(COUNTER_COUNT);
  c[CounterId.PAPI_TOT_CYC] = v.cycles;
  c[CounterId.PAPI_STL_CCY] = v.stall;
  c[CounterId.PAPI_RES_STL] = v.exe;
  if (natives) {
    c[CounterId.CPU_CYCLES] = v.cycles;
    c[CounterId.BACK_END_BUBBLE_ALL] = v.stall;
    c[CounterId.BE_EXE_BUBBLE_ALL] = v.exe;
    c[CounterId.BE_EXE_BUBBLE_FRALL] = v.fp;
    c[CounterId.BE_L1D_FPU_BUBBLE_FPU] = v.fpu;
  }
  return c;
}

describe("whole cycle counts of a rank's invocations", () => {
  it("are whole, keep the stall relations in every invocation and each total a few counts behind the model's at most (property)", () => {
    const itanium = supportedCounters(3, "itanium2");
    fc.assert(
      fc.property(fc.array(invocation, { minLength: 1, maxLength: 60 }), fc.nat(3), (calls, rank) => {
        const whole = new WholeCycleCounts(4, itanium);
        const total = { cycles: 0, stall: 0, exe: 0, fp: 0, fpu: 0 };
        const model = { cycles: 0, stall: 0, exe: 0, fp: 0, fpu: 0 };
        for (const v of calls) {
          const c = increments(v, true);
          whole.round(rank, c);
          const [cycles, stall, exe, fp, fpu] = [c[CounterId.CPU_CYCLES], c[CounterId.BACK_END_BUBBLE_ALL], c[CounterId.BE_EXE_BUBBLE_ALL], c[CounterId.BE_EXE_BUBBLE_FRALL], c[CounterId.BE_L1D_FPU_BUBBLE_FPU]];
          for (const x of [cycles, stall, exe, fp, fpu]) expect(Number.isInteger(x) && x >= 0).toBe(true);
          expect(stall).toBeLessThanOrEqual(cycles);
          expect(exe).toBeLessThanOrEqual(stall);
          expect(fp).toBeLessThanOrEqual(exe);
          expect(fpu).toBeLessThanOrEqual(stall - exe);
          // The presets count what their natives count.
          expect([c[CounterId.PAPI_TOT_CYC], c[CounterId.PAPI_STL_CCY], c[CounterId.PAPI_RES_STL]]).toEqual([cycles, stall, exe]);
          Object.assign(total, { cycles: total.cycles + cycles, stall: total.stall + stall, exe: total.exe + exe, fp: total.fp + fp, fpu: total.fpu + fpu });
          Object.assign(model, { cycles: model.cycles + v.cycles, stall: model.stall + v.stall, exe: model.exe + v.exe, fp: model.fp + v.fp, fpu: model.fpu + v.fpu });
        }
        // Rounded down with the fraction carried: never ahead of the model's total, and behind it
        // by less than each count's bound (its carry below the one up its chain plus 1). (1e-6
        // relative: the sums' own rounding.)
        const behind = { cycles: 1, stall: 2, exe: 3, fp: 4, fpu: 4 };
        for (const k of ["cycles", "stall", "exe", "fp", "fpu"] as const) {
          const slack = 1e-6 * (1 + model[k]);
          expect(total[k], k).toBeLessThanOrEqual(model[k] + slack);
          expect(total[k], k).toBeGreaterThan(model[k] - behind[k] - slack);
        }
      }),
    );
  });

  it("carries each rank's fractions apart: a third of a cycle three times is one cycle, on each rank", () => {
    const whole = new WholeCycleCounts(2, supportedCounters(2, "none"));
    const counts = [0, 1, 0, 1, 0, 1].map((rank) => {
      const c = increments({ cycles: 1 / 3 + 1e-9, stall: 0, exe: 0, fp: 0, fpu: 0 }, false);
      whole.round(rank, c);
      return c[CounterId.PAPI_TOT_CYC];
    });
    expect(counts).toEqual([0, 0, 0, 0, 1, 1]);
  });

  it("leaves the counters a machine lacks at 0 (a Xeon has the PAPI presets, not the Itanium 2 natives)", () => {
    const whole = new WholeCycleCounts(1, supportedCounters(2, "none"));
    const c = increments({ cycles: 1000.5, stall: 400.25, exe: 100.75, fp: 0, fpu: 0 }, false);
    whole.round(0, c);
    expect([c[CounterId.PAPI_TOT_CYC], c[CounterId.PAPI_STL_CCY], c[CounterId.PAPI_RES_STL]]).toEqual([1000, 400, 100]);
    expect([c[CounterId.CPU_CYCLES], c[CounterId.BACK_END_BUBBLE_ALL], c[CounterId.BE_EXE_BUBBLE_ALL], c[CounterId.BE_EXE_BUBBLE_FRALL]]).toEqual([0, 0, 0, 0]);
  });
});
