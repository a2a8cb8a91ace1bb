import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RandomStream } from "../../engine/index.js";
import { COUNTER_NAMES, CounterId, NodeModel, createKernelCost, resolveMachine, type KernelSpec } from "../../machine/index.js";
import { kernelArbitrary } from "./kernel-arbitrary.js";

const kernelArb = kernelArbitrary();

const machineArb = fc.record({
  preset: fc.constantFrom("xeon-2.8ghz-512k", "itanium2-madison"),
  l2: fc.constantFrom(128 * 1024, 256 * 1024, 512 * 1024, 1024 * 1024),
  assoc: fc.constantFrom(4, 8, 16),
  clock: fc.double({ min: 5e8, max: 4e9, noNaN: true }),
  remoteFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  efficiency: fc.double({ min: 0.05, max: 1, noNaN: true }),
  noisy: fc.boolean(),
  seed: fc.integer(),
});

describe("counter invariants", () => {
  it("hold for random kernels on random geometries, with and without noise", () => {
    const out = createKernelCost();
    fc.assert(
      fc.property(kernelArb, machineArb, (kernel, m) => {
        const config = resolveMachine(m.preset, { clock: m.clock, "l2.size": m.l2, "l2.assoc": m.assoc, "memory.remoteFraction": m.remoteFraction, computeEfficiency: m.efficiency });
        const node = new NodeModel(config);
        const rng = m.noisy ? new RandomStream(m.seed, "noise") : undefined;
        node.kernelCost(kernel, rng, out);
        const c = (name: (typeof COUNTER_NAMES)[number]) => out.counters[CounterId[name]];
        const eps = 1e-9;
        for (const v of out.counters) {
          expect(Number.isFinite(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
        }
        // cycles = time x clock
        expect(Math.abs(c("PAPI_TOT_CYC") - (out.duration * 1e-6 * config.clock))).toBeLessThanOrEqual(eps * Math.max(1, c("PAPI_TOT_CYC")));
        // misses of level k <= accesses of level k
        expect(c("PAPI_L1_DCM")).toBeLessThanOrEqual(c("PAPI_L1_DCA"));
        // hits + misses = accesses
        expect(c("PAPI_L1_DCH") + c("PAPI_L1_DCM")).toBe(c("PAPI_L1_DCA"));
        expect(c("PAPI_L2_TCM")).toBeLessThanOrEqual(c("PAPI_L2_TCA"));
        expect(c("PAPI_L3_TCM")).toBeLessThanOrEqual(c("PAPI_L3_TCA"));
        // L2 references: the L1 misses, and on the Itanium 2 (whose L1D serves integer loads only)
        // the floating-point loads and the written-through stores.
        const n = kernel.elements * (kernel.passes ?? 1);
        const past = m.preset === "itanium2-madison" ? Math.round(n * (kernel.flops > 0 ? kernel.loads : 0)) + Math.round(n * kernel.stores) : 0;
        expect(c("PAPI_L2_TCA")).toBe(c("PAPI_L1_DCM") + past);
        // stalls <= cycles, nested as the event definitions are
        expect(c("PAPI_STL_CCY")).toBeLessThanOrEqual(c("PAPI_TOT_CYC") * (1 + eps));
        expect(c("PAPI_RES_STL")).toBeLessThanOrEqual(c("PAPI_STL_CCY") * (1 + eps) + eps);
        expect(c("PAPI_FP_INS")).toBeLessThanOrEqual(c("PAPI_FP_OPS"));
        expect(c("PAPI_TOT_INS")).toBeGreaterThanOrEqual(c("PAPI_LD_INS") + c("PAPI_SR_INS") + c("PAPI_FP_INS"));
        expect(c("PAPI_TLB_DM")).toBeLessThanOrEqual(kernel.elements * kernel.arrays * kernel.passes);
        // Issue-limited cycles (cycles less all stalls) hold every instruction at the issue width,
        // noise or not.
        expect(c("PAPI_TOT_INS")).toBeLessThanOrEqual((c("PAPI_TOT_CYC") - c("PAPI_STL_CCY")) * config.issueWidth * (1 + eps) + eps);
        // The core retires at most its sustained share of the peak rates (noise may speed it a little).
        if (!m.noisy) {
          expect(c("PAPI_TOT_INS")).toBeLessThanOrEqual(c("PAPI_TOT_CYC") * config.issueWidth * m.efficiency * (1 + eps) + eps);
          expect(c("PAPI_FP_OPS")).toBeLessThanOrEqual(c("PAPI_TOT_CYC") * config.flopsPerCycle * m.efficiency * (1 + eps) + eps);
        }
        if (m.preset === "itanium2-madison") {
          // PAPI's Itanium 2 preset map
          expect(c("PAPI_TOT_CYC")).toBe(c("CPU_CYCLES"));
          expect(c("PAPI_TOT_INS")).toBe(c("IA64_INST_RETIRED"));
          expect(c("PAPI_FP_OPS")).toBe(c("FP_OPS_RETIRED"));
          expect(c("PAPI_L2_TCA")).toBe(c("L2_REFERENCES"));
          expect(c("PAPI_L2_TCM")).toBe(c("L2_MISSES"));
          expect(c("PAPI_L3_TCA")).toBe(c("L3_REFERENCES"));
          expect(c("PAPI_L3_TCM")).toBe(c("L3_MISSES"));
          expect(c("PAPI_TLB_DM")).toBe(c("L2DTLB_MISSES"));
          expect(c("PAPI_RES_STL")).toBe(c("BE_EXE_BUBBLE_ALL"));
          expect(c("PAPI_STL_CCY")).toBe(c("BACK_END_BUBBLE_ALL"));
          expect(c("PAPI_L1_DCM")).toBe(c("L1D_READ_MISSES_ALL"));
          expect(c("PAPI_L1_DCA")).toBe(c("L1D_READS_SET0"));
          expect(c("PAPI_L1_TCA")).toBe(c("L1D_READS_SET0") + c("L1I_READS"));
          // One instruction fetch per issue group, a partial last one included: a whole count.
          expect(Number.isInteger(c("L1I_READS"))).toBe(true);
          expect(c("L1I_READS")).toBe(Math.ceil(c("IA64_INST_RETIRED") / config.issueWidth));
          expect(c("PAPI_L1_DCH")).toBe(c("L1D_READS_SET0") - c("L1D_READ_MISSES_ALL"));
          expect(c("L2_DATA_REFERENCES_L2_ALL")).toBe(c("L2_REFERENCES"));
          expect(c("L3_REFERENCES")).toBe(c("L2_MISSES"));
          expect(c("L1D_READ_MISSES_ALL")).toBeLessThanOrEqual(c("L1D_READS_SET0"));
          expect(c("DATA_EAR_CACHE_LAT128")).toBeLessThanOrEqual(c("L3_MISSES"));
          expect(c("BE_EXE_BUBBLE_FRALL")).toBeLessThanOrEqual(c("BE_EXE_BUBBLE_ALL") * (1 + eps));
          expect(c("BE_EXE_BUBBLE_ALL") + c("BE_L1D_FPU_BUBBLE_FPU")).toBeLessThanOrEqual(c("BACK_END_BUBBLE_ALL") * (1 + eps) + eps);
        } else {
          // no L3 and no native table on the Xeon: those counters stay zero and are not listed
          expect(node.counterNames).not.toContain("PAPI_L3_TCM");
          expect(node.counterNames).not.toContain("CPU_CYCLES");
          expect(c("PAPI_L3_TCA")).toBe(0);
          expect(c("CPU_CYCLES")).toBe(0);
        }
      }),
      { numRuns: 250, seed: 3 },
    );
  });

  it("noise scatters the memory stall time, never the miss counts (a stream's misses have a floor)", () => {
    const out = createKernelCost();
    fc.assert(
      fc.property(kernelArb, fc.constantFrom("xeon-2.8ghz-512k", "itanium2-madison"), fc.integer(), (kernel, preset, seed) => {
        const node = new NodeModel(resolveMachine(preset));
        node.kernelCost(kernel, undefined, out);
        const expected = Array.from(out.misses);
        node.kernelCost(kernel, new RandomStream(seed, "noise"), out);
        expect(Array.from(out.misses)).toEqual(expected);
      }),
      { numRuns: 100, seed: 5 },
    );
    // An 8 MiB sequential stream on the Xeon: L1 misses are one per 64-byte line on every draw,
    // while the time scatters (the arrays overflow the 512 kB L2).
    const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    const stream: KernelSpec = { elements: 1 << 20, elementSize: 8, loads: 1, stores: 0, flops: 1, otherInstructions: 1, pattern: "sequential" };
    const rng = new RandomStream(11, "noise");
    const durations = new Set<number>();
    for (let i = 0; i < 50; i++) {
      node.kernelCost(stream, rng, out);
      expect(out.counters[CounterId.PAPI_L1_DCM]).toBe(2 ** 17);
      durations.add(out.duration);
    }
    expect(durations.size).toBe(50);
  });

  it("lists the Itanium 2 native events under their libpfm names", () => {
    const node = new NodeModel(resolveMachine("itanium2-madison"));
    for (const name of ["CPU_CYCLES", "IA64_INST_RETIRED", "FP_OPS_RETIRED", "BACK_END_BUBBLE_ALL", "BE_EXE_BUBBLE_FRALL", "BE_L1D_FPU_BUBBLE_FPU", "L2_DATA_REFERENCES_L2_ALL", "L2_MISSES", "L3_REFERENCES", "L3_MISSES", "L2DTLB_MISSES", "DATA_EAR_CACHE_LAT128"]) {
      expect(node.counterNames).toContain(name);
    }
    for (const name of ["PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_FP_OPS", "PAPI_FP_INS", "PAPI_L1_DCM", "PAPI_L1_TCA", "PAPI_L2_TCA", "PAPI_L2_TCM", "PAPI_L3_TCA", "PAPI_L3_TCM", "PAPI_TLB_DM", "PAPI_RES_STL", "PAPI_STL_CCY"]) {
      expect(node.counterNames).toContain(name);
    }
  });

  it("counts a known sequential kernel exactly", () => {
    const node = new NodeModel(resolveMachine("itanium2-madison"));
    const out = createKernelCost();
    // 1 Mi doubles (8 MiB) fit the 9 MiB L3 but not L2: one L2 miss per 128-byte line. Their loads
    // are floating-point: the Itanium 2's L1D (integer data only) never sees them, the L2 sees each.
    node.kernelCost({ elements: 1 << 20, elementSize: 8, loads: 1, stores: 0, flops: 2, otherInstructions: 1, pattern: "sequential", fmaFraction: 1 }, undefined, out);
    const c = out.counters;
    expect(c[CounterId.IA64_INST_RETIRED]).toBe(3 * 2 ** 20);
    expect(c[CounterId.FP_OPS_RETIRED]).toBe(2 ** 21);
    expect(c[CounterId.PAPI_FP_INS]).toBe(2 ** 20);
    expect(c[CounterId.PAPI_L1_DCM]).toBe(0);
    expect(c[CounterId.L1D_READS_SET0]).toBe(0);
    expect(c[CounterId.L2_DATA_REFERENCES_L2_ALL]).toBe(2 ** 20);
    expect(c[CounterId.L2_MISSES]).toBe(2 ** 16);
    expect(c[CounterId.L3_MISSES]).toBe(0);
    expect(c[CounterId.L2DTLB_MISSES]).toBe(2 ** 9);
    // The same stream of integers goes through the L1D: one miss per 64-byte line, each an L2
    // reference; its stores (one per element) are written through to the L2.
    node.kernelCost({ elements: 1 << 20, elementSize: 8, loads: 1, stores: 1, flops: 0, otherInstructions: 1, pattern: "sequential" }, undefined, out);
    expect(c[CounterId.L1D_READS_SET0]).toBe(2 ** 20);
    expect(c[CounterId.PAPI_L1_DCM]).toBe(2 ** 17);
    expect(c[CounterId.L2_DATA_REFERENCES_L2_ALL]).toBe(2 ** 17 + 2 ** 20);
    expect(c[CounterId.L2_MISSES]).toBe(2 ** 16);
    // Without an L2, what passes the L1D references the L3.
    const noL2 = new NodeModel(resolveMachine("itanium2-madison", { l2: null }));
    noL2.kernelCost({ elements: 1 << 20, elementSize: 8, loads: 1, stores: 1, flops: 1, otherInstructions: 0, pattern: "sequential" }, undefined, out);
    expect(c[CounterId.L3_REFERENCES]).toBe(2 ** 21);
    // On the Xeon (an ordinary L1) the floating-point stream goes through the L1 as any other.
    const xeon = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    xeon.kernelCost({ elements: 1 << 20, elementSize: 8, loads: 1, stores: 0, flops: 2, otherInstructions: 1, pattern: "sequential" }, undefined, out);
    expect(c[CounterId.PAPI_L1_DCM]).toBe(2 ** 17);
    expect(c[CounterId.PAPI_L2_TCA]).toBe(2 ** 17);
  });

  it("moves L1D misses to the L2 smoothly as a kernel's loads turn floating-point, without losing traffic", () => {
    const node = new NodeModel(resolveMachine("itanium2-madison"));
    const at = (floatLoads: number | undefined, stores = 0, loads = 1) => {
      const out = createKernelCost();
      node.kernelCost({ elements: 1 << 20, elementSize: 8, loads, stores, flops: 1, otherInstructions: 0, pattern: "random", floatLoads }, undefined, out);
      return { l1: out.counters[CounterId.PAPI_L1_DCM], l2refs: out.counters[CounterId.L2_DATA_REFERENCES_L2_ALL], l3: out.counters[CounterId.L3_MISSES], time: out.duration };
    };
    const steps = [0, 0.001, 0.25, 0.5, 0.75, 0.999, 1].map((f) => at(f));
    for (let i = 1; i < steps.length; i++) {
      expect(steps[i]!.l1).toBeLessThanOrEqual(steps[i - 1]!.l1);
      expect(steps[i]!.l2refs).toBeGreaterThanOrEqual(steps[i - 1]!.l2refs);
      // The memory traffic is the arrays', whichever loads read them.
      expect(steps[i]!.l3).toBe(steps[0]!.l3);
    }
    expect(steps[0]!.l1).toBeGreaterThan(0);
    expect(steps.at(-1)!.l1).toBe(0);
    expect(steps.at(-1)).toEqual(at(undefined));
    // Stores alone never allocate in the L1D: each is one L2 reference.
    expect(at(0, 1, 0)).toMatchObject({ l1: 0, l2refs: 2 ** 20 });
    // Without a level after it, what passes the L1 would reference nothing: such a machine is refused.
    expect(() => resolveMachine("itanium2-madison", { l2: null, l3: null })).toThrow(/l1\.integerOnly: an integer-only l1 needs a level after it/);
    expect(() => resolveMachine("itanium2-madison", { l2: null, l3: null, "l1.integerOnly": false })).not.toThrow();
  });

  it("replays a floating-point stream past the Itanium 2's L1D with the reference cache too", () => {
    // 64 Ki doubles (512 KiB) overflow the 256 KiB L2: sequentially one L2 miss per 128-byte line;
    // the column sweep of 2 KiB rows misses on every access (its lines fold onto few sets).
    for (const pattern of ["sequential", "strided"] as const) {
      const kernel: KernelSpec = { elements: 1 << 16, elementSize: 8, loads: 1, stores: 0, flops: 1, otherInstructions: 0, pattern, stride: 256 };
      const counts = (missModel: string) => {
        const out = createKernelCost();
        new NodeModel(resolveMachine("itanium2-madison", { missModel })).kernelCost(kernel, undefined, out);
        return [CounterId.PAPI_L1_DCM, CounterId.L2_DATA_REFERENCES_L2_ALL, CounterId.L2_MISSES, CounterId.L3_MISSES].map((id) => out.counters[id]);
      };
      expect(counts("reference"), pattern).toEqual([0, 2 ** 16, pattern === "sequential" ? 2 ** 12 : 2 ** 16, 0]);
      expect(counts("analytical"), pattern).toEqual(counts("reference"));
    }
  });

  it("retires compute-bound work at computeEfficiency of the peak, the lost cycles as execution bubbles", () => {
    // 1 Ki doubles stay in cache: 4 instructions (1 load, 2 FP, 1 other) and 2 flops per element,
    // issue-bound at peak (4/6 cycle per element against 2/4 for the FP units).
    const kernel: KernelSpec = { elements: 1024, elementSize: 8, loads: 1, stores: 0, flops: 2, otherInstructions: 1, pattern: "sequential", passes: 100 };
    const at = (efficiency: number) => {
      const out = createKernelCost();
      new NodeModel(resolveMachine("itanium2-madison", { computeEfficiency: efficiency })).kernelCost(kernel, undefined, out);
      return out;
    };
    const peak = at(1);
    const half = at(0.5);
    const elements = 1024 * 100;
    const c = (out: ReturnType<typeof at>, name: (typeof COUNTER_NAMES)[number]) => out.counters[CounterId[name]];
    expect(peak.computeCycles).toBeCloseTo((elements * 4) / 6, 6);
    expect(half.computeCycles).toBeCloseTo((elements * 4) / 3, 6);
    expect(c(half, "IA64_INST_RETIRED")).toBe(c(peak, "IA64_INST_RETIRED"));
    // The cycles beyond peak wait on register dependencies: back-end execution bubbles.
    expect(c(half, "BE_EXE_BUBBLE_ALL") - c(peak, "BE_EXE_BUBBLE_ALL")).toBeCloseTo((elements * 4) / 6, 3);
    expect(c(half, "BE_L1D_FPU_BUBBLE_FPU")).toBe(c(peak, "BE_L1D_FPU_BUBBLE_FPU"));
    expect(c(half, "CPU_CYCLES") - c(peak, "CPU_CYCLES")).toBeCloseTo((elements * 4) / 6, 3);
  });

  it("refuses more counters than the PMU has when the scenario models one, and unknown names", () => {
    const limited = new NodeModel(resolveMachine("itanium2-madison", { "counters.pmuCounters": 4 }));
    expect(Array.from(limited.selectCounters(["CPU_CYCLES", "L2_MISSES"]))).toEqual([CounterId.CPU_CYCLES, CounterId.L2_MISSES]);
    expect(() => limited.selectCounters(["CPU_CYCLES", "L2_MISSES", "L3_MISSES", "FP_OPS_RETIRED", "IA64_INST_RETIRED"])).toThrow(/at most 4 counters/);
    const two = new NodeModel(resolveMachine("itanium2-madison", { "counters.pmuCounters": 2 }));
    // PAPI's Itanium 2 map: PAPI_L1_DCH = L1D_READS_SET1 - L1D_READ_MISSES_ALL, PAPI_L1_TCA = L1D_READS_SET0 + L1I_READS.
    expect(() => two.selectCounters(["PAPI_L1_DCH", "PAPI_L1_TCA"])).toThrow(
      /at most 2 counters at once \(machine\.counters\.pmuCounters\); these take 4 physical counters: L1D_READS_SET1, L1D_READ_MISSES_ALL, L1D_READS_SET0, L1I_READS/,
    );
    expect(() => two.selectCounters(["PAPI_TOT_INS", "PAPI_TOT_CYC"])).toThrow(/PAPI_TOT_INS needs IA64_INST_RETIRED and IA32_INST_RETIRED/);
    expect(Array.from(two.selectCounters(["PAPI_TOT_CYC", "CPU_CYCLES", "PAPI_STL_CCY"]))).toEqual([CounterId.PAPI_TOT_CYC, CounterId.CPU_CYCLES, CounterId.PAPI_STL_CCY]);
    const free = new NodeModel(resolveMachine("itanium2-madison"));
    expect(free.selectCounters(["CPU_CYCLES", "L2_MISSES", "L3_MISSES", "FP_OPS_RETIRED", "IA64_INST_RETIRED"]).length).toBe(5);
    expect(() => free.selectCounters(["L2_MISSE"])).toThrow(/did you mean 'L2_MISSES'/);
    const xeon = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    expect(() => xeon.selectCounters(["PAPI_L3_TCM"])).toThrow(expect.objectContaining({ isInputError: true }));
  });
});
