import { beforeAll, describe, expect, it } from "vitest";
import type { SizeScaling } from "../../../scenarios/index.js";
import { runShock, USE_GODUNOV } from "./run-shock.js";

/** Paper 000 Figures 4-5 and Eq. 1-2: mode-averaged mean time vs Q, EFMFlux vs GodunovFlux. */
describe("mean time per invocation vs array size", () => {
  let states: SizeScaling;
  let efm: SizeScaling;
  let godunov: SizeScaling;
  beforeAll(() => {
    const a = runShock().evidence!;
    states = a.scaling.find((s) => s.component === "StatesConstructor")!;
    efm = a.scaling.find((s) => s.component === "EFMFlux")!;
    godunov = runShock([USE_GODUNOV]).evidence!.scaling.find((s) => s.component === "GodunovFlux")!;
  });

  it("is explained well by a straight line once the modes are averaged", () => {
    expect(efm.linear.r2).toBeGreaterThan(0.98);
    expect(godunov.linear.r2).toBeGreaterThan(0.95);
    expect(states.linear.r2).toBeGreaterThan(0.85);
    expect(states.linear.points).toBeGreaterThan(50);
  });

  it("lands in the paper's range: EFM about 0.16 us per double, StatesConstructor near exp(1.19 log Q - 3.68)", () => {
    expect(efm.linear.slope).toBeGreaterThan(0.13);
    expect(efm.linear.slope).toBeLessThan(0.19);
    for (const p of states.points.filter((x) => x.size >= 3e3)) {
      const paper = Math.exp(1.19 * Math.log(p.size) - 3.68);
      expect(p.mean / paper).toBeGreaterThan(0.4);
      expect(p.mean / paper).toBeLessThan(2.5);
    }
  });

  it("makes GodunovFlux clearly costlier than EFMFlux at large Q, with a standard deviation growing with Q", () => {
    const big = 3e4;
    const g = godunov.points.filter((p) => p.size >= big);
    const e = efm.points.filter((p) => p.size >= big);
    const mean = (xs: { mean: number }[]) => xs.reduce((s, x) => s + x.mean, 0) / xs.length;
    expect(mean(g) / mean(e)).toBeGreaterThan(1.5);
    expect(godunov.linear.slope).toBeGreaterThan(0.25);
    expect(godunov.linear.slope).toBeLessThan(0.4);
    expect(godunov.stdLinear.slope).toBeGreaterThan(0);
    expect(godunov.stdTrend).toBeGreaterThan(0.8);
    // Godunov's spread (an iterative solve per element) exceeds EFM's at large Q.
    const std = (xs: { std: number }[]) => xs.reduce((s, x) => s + x.std, 0) / xs.length;
    expect(std(g)).toBeGreaterThan(2 * std(e));
  });
});
