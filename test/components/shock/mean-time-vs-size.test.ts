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

  it("lands in the paper's range: EFM about 0.16 us per double, StatesConstructor within 0.65-1.4 of exp(1.19 log Q - 3.68) at every size", () => {
    expect(efm.linear.slope).toBeGreaterThan(0.13);
    expect(efm.linear.slope).toBeLessThan(0.19);
    // A staircase around Eq. 1 (one step per loop whose arrays overflow the L2); without noise,
    // over the paper's Q = 1e3 .. 1.5e5, it stays within 0.74-1.22 (calibration-vs-papers.test.ts).
    for (const p of states.points.filter((x) => x.size >= 3e3)) {
      const paper = Math.exp(1.19 * Math.log(p.size) - 3.68);
      expect(p.mean / paper, `Q = ${p.size}`).toBeGreaterThan(0.65);
      expect(p.mean / paper, `Q = ${p.size}`).toBeLessThan(1.4);
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
    // Paper 000's T_Godunov = -963 + 0.315 Q: the intercept is negative because the strided
    // sweeps' penalty past the cache makes the time per double grow with Q.
    expect(godunov.linear.intercept).toBeLessThan(-500);
    expect(godunov.stdLinear.slope).toBeGreaterThan(0);
    expect(godunov.stdTrend).toBeGreaterThan(0.8);
    // Godunov's spread (an iterative solve per element) exceeds EFM's at large Q.
    const std = (xs: { std: number }[]) => xs.reduce((s, x) => s + x.std, 0) / xs.length;
    expect(std(g)).toBeGreaterThan(2 * std(e));
  });

  it("gives GodunovFlux a strided penalty past the cache (paper 001: 'similar phenomena'), and EFMFlux a mild one (paper 000's small sigma_EFM)", () => {
    const populated = (x: SizeScaling) => x.bins.filter((b) => b.time.count >= 20);
    for (const b of populated(godunov).filter((x) => x.lo >= 3e4)) expect(b.ratios.strided).toBeGreaterThan(2.5);
    for (const b of populated(godunov).filter((x) => x.hi <= 1.0001e4)) expect(b.ratios.strided).toBeLessThan(1.2);
    for (const b of populated(efm)) expect(b.ratios.strided).toBeLessThan(1.3);
  });
});
