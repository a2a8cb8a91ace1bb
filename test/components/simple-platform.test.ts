import { describe, expect, it } from "vitest";
import { simplePlatform } from "../../components/index.js";
import { RandomStream } from "../../engine/index.js";

describe("the simple platform of assemblies built in code", () => {
  it.each([0, -1, 1.5, Number.NaN])("refuses %s ranks", (ranks) => {
    expect(() => simplePlatform(ranks)).toThrow(RangeError);
    expect(() => simplePlatform(ranks)).toThrow(`simplePlatform: ranks must be an integer >= 1, got ${ranks}`);
  });

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY])("refuses a clock of %s MHz and a rate of %s instructions per cycle", (v) => {
    expect(() => simplePlatform(2, v)).toThrow(`simplePlatform: clockMHz must be a finite number > 0, got ${v}`);
    expect(() => simplePlatform(2, 1000, v)).toThrow(`simplePlatform: opsPerCycle must be a finite number > 0, got ${v}`);
  });

  it("costs a kernel its instructions over the rate times the clock, in microseconds", () => {
    const p = simplePlatform(2, 2000, 2);
    const counters = new Float64Array(2);
    const us = p.kernel(0, { elements: 1000, elementSize: 8, loads: 2, stores: 1, flops: 2, otherInstructions: 3, pattern: "sequential" }, counters, new RandomStream(1, "k"));
    expect(us).toBe(8000 / (2 * 2000));
    expect(Array.from(counters)).toEqual([8000, 2000]);
  });

  it("counts whole instructions and flops, as a PMU does, where a kernel does fractions of them per element", () => {
    const p = simplePlatform(1);
    const counters = new Float64Array(2);
    // 333 elements of 2.5 flops and 0.3 other instructions: 832.5 flops, 932.4 instructions.
    p.kernel(0, { elements: 333, elementSize: 8, loads: 0, stores: 0, flops: 2.5, otherInstructions: 0.3, pattern: "sequential" }, counters, new RandomStream(1, "k"));
    expect(Array.from(counters)).toEqual([932, 833]);
  });
});
