import { describe, expect, it } from "vitest";
import { RandomStream } from "../../engine/index.js";
import { NodeModel, createKernelCost, resolveMachine, squarePatchStride, type KernelSpec, type MachineOverrides } from "../../machine/index.js";

/**
 * The papers' central observation (000, Figure 3): the Y-derivative (strided) and X-derivative
 * (sequential) modes of the same kernel take about the same time while the array fits in the 512 kB
 * cache and the strided mode is about 4 times slower once it overflows it.
 *
 * The kernel reads one Q-element double array; per element it does 2 loads, 1 store, 2 flops and
 * 2 other instructions (a centred difference, scaled), at the preset's sustained rate. The strided mode walks the array
 * column by column with stride = row length of a square-ish patch, ceil(sqrt(Q)).
 */
const WORK = { elementSize: 8, loads: 2, stores: 1, flops: 2, otherInstructions: 2 } as const;

function ratioCurve(overrides: MachineOverrides = {}): { q: number; bytes: number; ratio: number }[] {
  const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k", overrides));
  const out = createKernelCost();
  const curve = [];
  for (let k = 0; k <= 42; k++) {
    const q = Math.round(1000 * 1.2 ** k);
    const seq: KernelSpec = { ...WORK, elements: q, pattern: "sequential" };
    const strided: KernelSpec = { ...WORK, elements: q, pattern: "strided", stride: squarePatchStride(q) };
    const tSeq = node.kernelCost(seq, undefined, out).duration;
    const tStr = node.kernelCost(strided, undefined, out).duration;
    curve.push({ q, bytes: q * 8, ratio: tStr / tSeq });
  }
  return curve;
}

/** Footprint (bytes) of the first array size whose ratio reaches 2 (the middle of 1 -> 4). */
function transition(curve: { bytes: number; ratio: number }[]): number {
  const p = curve.find((c) => c.ratio >= 2);
  if (p === undefined) throw new Error("no transition");
  return p.bytes;
}

describe("strided / sequential time ratio on xeon-2.8ghz-512k", () => {
  const L2 = 512 * 1024;
  const curve = ratioCurve();

  it("stays between 0.9 and 1.3 while the array fits in L2", () => {
    const inCache = curve.filter((c) => c.bytes <= L2);
    expect(inCache.length).toBeGreaterThan(10);
    for (const c of inCache) expect(c.ratio, `Q=${c.q}`).toBeGreaterThanOrEqual(0.9);
    for (const c of inCache) expect(c.ratio, `Q=${c.q}`).toBeLessThanOrEqual(1.3);
  });

  it("lies between 3 and 5 for arrays several times larger than L2, except rare row lengths that alias in the L2 sets", () => {
    const large = curve.filter((c) => c.bytes >= 3 * L2);
    expect(large.length).toBeGreaterThan(10);
    const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    const reference = new Float64Array(3);
    let aliased = 0;
    for (const c of large) {
      expect(c.ratio, `Q=${c.q}`).toBeGreaterThanOrEqual(3);
      if (c.ratio <= 5) continue;
      // Larger ratios must be genuine set conflicts: the replayed LRU cache misses on most accesses.
      aliased++;
      node.referenceMissesPerPass({ ...WORK, elements: c.q, pattern: "strided", stride: squarePatchStride(c.q) }, reference);
      expect(reference[1] / c.q, `Q=${c.q}`).toBeGreaterThan(0.5);
    }
    expect(aliased).toBeLessThanOrEqual(large.length / 10);
    const sorted = large.map((c) => c.ratio).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    expect(median).toBeGreaterThanOrEqual(3.5);
    expect(median).toBeLessThanOrEqual(4.5);
  });

  it("makes the transition where the working set crosses the cache size", () => {
    const t = transition(curve);
    expect(t).toBeGreaterThan(L2);
    expect(t).toBeLessThanOrEqual(1.5 * L2);
  });

  it("moves the transition to half the array size when the cache is halved", () => {
    const half = transition(ratioCurve({ "l2.size": L2 / 2 }));
    const full = transition(curve);
    expect(half).toBeGreaterThan(L2 / 2);
    expect(half).toBeLessThanOrEqual(0.75 * L2);
    expect(half / full).toBeGreaterThan(0.4);
    expect(half / full).toBeLessThan(0.6);
  });

  it("shows set conflicts when a power-of-two row length maps the column onto few sets", () => {
    const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
    const misses = new Float64Array(3);
    const reference = new Float64Array(3);
    const conflicting: KernelSpec = { ...WORK, elements: 512 * 512, pattern: "strided", stride: 512 };
    node.analyticalMissesPerPass(conflicting, misses);
    node.referenceMissesPerPass(conflicting, reference);
    // 512 rows 4 KiB apart use 16 of the 512 L2 sets: every access misses, as the replay confirms.
    expect(misses[1] / conflicting.elements).toBeCloseTo(1, 2);
    expect(reference[1] / conflicting.elements).toBeCloseTo(1, 2);
    const out = createKernelCost();
    const padded = node.kernelCost({ ...conflicting, stride: 516 }, undefined, out).duration;
    const aligned = node.kernelCost(conflicting, undefined, out).duration;
    expect(aligned / padded).toBeGreaterThan(3);
  });
});

describe("per-invocation noise", () => {
  const node = new NodeModel(resolveMachine("xeon-2.8ghz-512k"));
  const out = createKernelCost();
  function samples(q: number, seed: number, n = 300): number[] {
    const rng = new RandomStream(seed, "noise/rank0");
    const k: KernelSpec = { ...WORK, elements: q, pattern: "strided", stride: squarePatchStride(q) };
    return Array.from({ length: n }, () => node.kernelCost(k, rng, out).duration);
  }
  const cv = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1)) / m;
  };

  it("repeats exactly for the same seed and stream", () => {
    expect(samples(200_000, 42, 50)).toEqual(samples(200_000, 42, 50));
    expect(samples(200_000, 43, 50)).not.toEqual(samples(200_000, 42, 50));
  });

  it("scatters more once the arrays overflow the cache", () => {
    const small = cv(samples(20_000, 1));
    const large = cv(samples(400_000, 1));
    expect(small).toBeGreaterThan(0);
    expect(large).toBeGreaterThan(3 * small);
  });

  it("keeps the mean near the noise-free cost", () => {
    const q = 400_000;
    const xs = samples(q, 5, 400);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const exact = node.kernelCost({ ...WORK, elements: q, pattern: "strided", stride: squarePatchStride(q) }, undefined, out).duration;
    expect(Math.abs(mean / exact - 1)).toBeLessThan(0.1);
  });
});
