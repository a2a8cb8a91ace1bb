import { beforeAll, describe, expect, it } from "vitest";
import type { SizeScaling } from "../../../scenarios/index.js";
import { runShock } from "./run-shock.js";

/** Paper 000 Figure 3 / paper 001 Figure 6b, from the simulated StatesConstructor records. */
describe("StatesConstructor: strided vs sequential by array size", () => {
  let states: SizeScaling;
  beforeAll(() => {
    const art = runShock();
    states = art.evidence!.scaling.find((s) => s.component === "StatesConstructor")!;
  });

  it("records both modes in equal numbers for every patch (X and Y derivatives alternate)", () => {
    expect(states.modes).toEqual(["sequential", "strided"]);
    expect(states.baseline).toBe("sequential");
    for (const b of states.bins) expect(b.modes.sequential.count).toBe(b.modes.strided.count);
  });

  it("takes about the same time in both modes for cache-resident arrays (ratio 0.8-1.3 below 512 kB of data)", () => {
    // Three arrays of Q doubles fit the 512 kB L2 up to Q = 21845; bins wholly below 1e4 are resident.
    const small = states.bins.filter((b) => b.hi <= 1.0001e4);
    expect(small.length).toBeGreaterThanOrEqual(2);
    for (const b of small) {
      expect(b.ratios.strided).toBeGreaterThan(0.8);
      expect(b.ratios.strided).toBeLessThan(1.3);
    }
  });

  it("grows to a strided/sequential ratio of about 4 (3-5) for arrays well beyond the cache", () => {
    const large = states.bins.filter((b) => b.lo >= 3e4 && b.time.count >= 20);
    expect(large.length).toBeGreaterThanOrEqual(1);
    for (const b of large) {
      expect(b.ratios.strided).toBeGreaterThan(3);
      expect(b.ratios.strided).toBeLessThan(5);
    }
    // The ratio rises with size: the largest populated bin's ratio exceeds the smallest's by 2.5x at least.
    const populated = states.bins.filter((b) => b.time.count >= 20);
    expect(populated[populated.length - 1].ratios.strided / populated[0].ratios.strided).toBeGreaterThan(2.5);
  });

  it("scatters more as arrays grow (standard deviation rises with size)", () => {
    expect(states.stdTrend).toBeGreaterThan(0.8);
    const populated = states.bins.filter((b) => b.time.count >= 20);
    const first = populated[0];
    const last = populated[populated.length - 1];
    expect(last.time.std).toBeGreaterThan(20 * first.time.std);
    // Relative scatter of each mode grows too, not only the absolute one.
    expect(last.modes.strided.std / last.modes.strided.mean).toBeGreaterThan(first.modes.strided.std / first.modes.strided.mean);
  });
});
