import { describe, expect, it, vi } from "vitest";
import { MACHINE_PARAMS, MachineInputError, machinePresets, resolveMachine, validateKernel, NodeModel, createKernelCost, type KernelSpec } from "../../machine/index.js";

function inputError(fn: () => unknown): MachineInputError & Error {
  try {
    fn();
  } catch (e) {
    expect((e as { isInputError?: boolean }).isInputError).toBe(true);
    return e as MachineInputError;
  }
  throw new Error("expected an input error");
}

describe("machine presets", () => {
  it("registers xeon-2.8ghz-512k and itanium2-madison by name", () => {
    expect(machinePresets.names()).toEqual(expect.arrayContaining(["itanium2-madison", "xeon-2.8ghz-512k"]));
    const xeon = machinePresets.get("xeon-2.8ghz-512k").config;
    expect(xeon.clock).toBe(2.8e9);
    expect(xeon.l1?.size).toBe(8 * 1024);
    expect(xeon.l2?.size).toBe(512 * 1024);
    expect(xeon.l3).toBeUndefined();
    const ita = machinePresets.get("itanium2-madison").config;
    expect([ita.clock, ita.l1?.size, ita.l1?.assoc, ita.l1?.line]).toEqual([1.6e9, 16 * 1024, 4, 64]);
    expect([ita.l2?.size, ita.l2?.assoc, ita.l2?.line]).toEqual([256 * 1024, 8, 128]);
    expect([ita.l3?.size, ita.l3?.assoc, ita.l3?.line]).toEqual([9 * 1024 * 1024, 18, 128]);
    expect(ita.tlb.pageSize).toBe(16 * 1024);
  });

  it("documents and cites every parameter, marking calibrated numbers", () => {
    for (const preset of machinePresets.all()) {
      for (const p of preset.params) {
        expect(p.default, `${preset.name} ${p.name}`).toBeDefined();
        expect(p.doc, `${preset.name} ${p.name}`).toMatch(/Source: .+/);
        expect(MACHINE_PARAMS.some((m) => m.name === p.name)).toBe(true);
      }
      expect(preset.params.some((p) => p.doc.includes("[calibrated]"))).toBe(true);
      expect(Object.values(preset.sources).every((s) => s.source.length > 10)).toBe(true);
    }
  });

  it("is a plain JSON-serialisable object", () => {
    const c = resolveMachine("itanium2-madison");
    expect(JSON.parse(JSON.stringify(c))).toEqual(c);
  });

  it("suggests the nearest preset for an unknown name", () => {
    expect(() => resolveMachine("xeon-2.8ghz-512")).toThrow(/did you mean 'xeon-2.8ghz-512k'/);
  });
});

describe("resolveMachine overrides", () => {
  it("overrides key by key, nested or dotted, without touching the preset", () => {
    const a = resolveMachine("xeon-2.8ghz-512k", { "l2.size": 256 * 1024, memory: { latency: 0.2 } });
    expect(a.l2?.size).toBe(256 * 1024);
    expect(a.l2?.assoc).toBe(8);
    expect(a.memory.latency).toBe(0.2);
    expect(a.memory.bandwidth).toBe(machinePresets.get("xeon-2.8ghz-512k").config.memory.bandwidth);
    expect(machinePresets.get("xeon-2.8ghz-512k").config.l2?.size).toBe(512 * 1024);
  });

  it("adds and removes cache levels", () => {
    const withL3 = resolveMachine("xeon-2.8ghz-512k", { l3: { size: 2 * 1024 * 1024, line: 128, assoc: 8, latency: 30 } });
    expect(new NodeModel(withL3).levels).toBe(3);
    const noL3 = resolveMachine("itanium2-madison", { l3: null });
    expect(noL3.l3).toBeUndefined();
    expect(new NodeModel(noL3).counterNames).not.toContain("L3_MISSES");
  });

  it("names the offending key and the expected unit and range", () => {
    expect(inputError(() => resolveMachine("xeon-2.8ghz-512k", { "l2.size": -5 })).message).toMatch(/machine\.l2\.size.*bytes/);
    expect(inputError(() => resolveMachine("xeon-2.8ghz-512k", { "l2.size": 500_000 })).message).toMatch(/machine\.l2\.size.*multiple of/);
    expect(inputError(() => resolveMachine("xeon-2.8ghz-512k", { "memory.latency": "fast" })).message).toMatch(/machine\.memory\.latency.*microseconds/);
    expect(inputError(() => resolveMachine("xeon-2.8ghz-512k", { clock: 0 })).message).toMatch(/machine\.clock.*Hz/);
    expect(inputError(() => resolveMachine("xeon-2.8ghz-512k", { "l1.line": 48 })).message).toMatch(/machine\.l1\.line.*power of two/);
    expect(inputError(() => resolveMachine("xeon-2.8ghz-512k", { "l2.siz": 1 })).message).toMatch(/machine\.l2\.siz.*did you mean 'l2\.size'/);
    expect(inputError(() => resolveMachine("xeon-2.8ghz-512k", { l3: { size: 1 << 20 } })).message).toMatch(/machine\.l3\.size: l3 is a new level .*needs size, line, assoc, latency \(missing: line, assoc, latency\)/);
    expect(inputError(() => resolveMachine("xeon-2.8ghz-512k", { missModel: "exact" })).message).toMatch(/missModel.*analytical, reference, auto/);
    expect(inputError(() => resolveMachine("xeon-2.8ghz-512k", { missModel: "atuo" })).message).toMatch(/got "atuo" \(did you mean 'auto'\?\)/);
  });
});

describe("kernel validation", () => {
  const base: KernelSpec = { elements: 100, elementSize: 8, loads: 1, stores: 0, flops: 1, otherInstructions: 0, pattern: "strided", stride: 10 };
  it("names the offending kernel key", () => {
    expect(inputError(() => validateKernel({ ...base, stride: undefined })).message).toMatch(/kernel\.stride/);
    expect(inputError(() => validateKernel({ ...base, elements: 1.5 })).message).toMatch(/kernel\.elements/);
    expect(inputError(() => validateKernel({ ...base, pattern: "zigzag" as KernelSpec["pattern"] })).message).toMatch(/kernel\.pattern/);
    expect(inputError(() => validateKernel({ ...base, arrays: 3, loads: 1 })).message).toMatch(/kernel\.loads/);
    const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    expect(() => node.kernelCost({ ...base, flops: -1 }, undefined, createKernelCost())).toThrow(/kernel\.flops/);
  });
});

describe("miss engine choice", () => {
  it("uses the reference cache when asked, and for small kernels with auto", () => {
    const k: KernelSpec = { elements: 30_000, elementSize: 8, loads: 1, stores: 0, flops: 1, otherInstructions: 0, pattern: "strided", stride: 103 };
    const out = createKernelCost();
    const ref = new NodeModel(resolveMachine("xeon-2.8ghz-512k", { missModel: "reference" }));
    const expected = new Float64Array(3);
    ref.referenceMissesPerPass(k, expected);
    ref.kernelCost(k, undefined, out);
    expect(out.misses[0]).toBe(expected[0]);
    const auto = new NodeModel(resolveMachine("xeon-2.8ghz-512k", { missModel: "auto", referenceMaxAccesses: 50_000 }));
    auto.kernelCost(k, undefined, out);
    expect(out.misses[0]).toBe(expected[0]);
    // It says which engine costed each invocation.
    auto.kernelCost(k, undefined, out);
    auto.kernelCost({ ...k, elements: 60_000 }, undefined, out);
    expect(auto.missEngineInvocations).toEqual({ analytical: 1, reference: 2 });
  });

  it("replays each kernel shape once, and a shape differing in any part of the stream again", () => {
    const k: KernelSpec = { elements: 30_000, elementSize: 8, loads: 2, stores: 1, flops: 1, otherInstructions: 0, pattern: "strided", stride: 103, arrays: 2 };
    const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k", { missModel: "reference" }));
    const replay = vi.spyOn(node, "referenceMissesPerPass");
    const first = createKernelCost();
    node.kernelCost(k, undefined, first);
    const again = createKernelCost();
    // Other work per element, the same stream: the misses come from the memo.
    node.kernelCost({ ...k, flops: 5, otherInstructions: 3 }, undefined, again);
    expect(replay).toHaveBeenCalledTimes(1);
    expect(Array.from(again.misses)).toEqual(Array.from(first.misses));
    for (const other of [{ elements: 30_001 }, { elementSize: 4 }, { stride: 104 }, { arrays: 1, loads: 1 }, { pattern: "sequential" as const }, { pattern: "random" as const }]) node.kernelCost({ ...k, ...other }, undefined, again);
    expect(replay).toHaveBeenCalledTimes(7);
    expect(node.missEngineInvocations).toEqual({ analytical: 0, reference: 8 });
  });
});
