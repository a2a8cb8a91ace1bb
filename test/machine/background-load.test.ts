import { describe, expect, it } from "vitest";
import { PiecewiseLoad } from "../../machine/index.js";
import { world } from "./helpers.js";

function repeatedExchange(seed: number, mean: number): number[] {
  const w = world(2, { preset: "gigabit-ethernet", eagerLimit: Infinity, load: { model: "piecewise", params: { period: 500, mean, cv: 1 } } }, { seed });
  const times: number[] = [];
  w.launch(function* (c) {
    for (let i = 0; i < 40; i++) {
      const t0 = w.sim.now;
      if (c.rank === 0) {
        yield* c.send(1, 0, 10000);
        yield* c.recv(1, 0);
        times.push(w.sim.now - t0);
      } else {
        yield* c.recv(0, 0);
        yield* c.send(0, 0, 10000);
      }
      yield w.sim.timeout(300);
    }
  });
  w.run();
  return times;
}

describe("background load", () => {
  it("stretches transfers so repeated exchanges scatter, never below the unloaded time", () => {
    const base = 2 * (30 + 10000 * 0.01);
    const times = repeatedExchange(1, 0.3);
    expect(new Set(times.map((t) => t.toFixed(6))).size).toBeGreaterThan(10);
    expect(Math.min(...times)).toBeGreaterThan(base);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    expect(mean / base).toBeGreaterThan(1.1);
    expect(mean / base).toBeLessThan(1.8);
  });

  it("is reproducible for a seed and differs between seeds", () => {
    expect(repeatedExchange(3, 0.3)).toEqual(repeatedExchange(3, 0.3));
    expect(repeatedExchange(3, 0.3)).not.toEqual(repeatedExchange(4, 0.3));
  });

  it("has factor exactly 1 with mean 0 and a mean close to 1 + mean over many intervals", () => {
    expect(repeatedExchange(1, 0)).toEqual(new Array(40).fill(2 * (30 + 10000 * 0.01)));
    const load = new PiecewiseLoad(10, 0.25, 0.5, 12345, 67890);
    let s = 0;
    const n = 20000;
    for (let k = 0; k < n; k++) s += load.factor(k * 10 + 3);
    expect(s / n).toBeGreaterThan(1.24);
    expect(s / n).toBeLessThan(1.26);
    // Order-independent: asking backwards gives the same factors.
    const fwd = [5, 1e7, 42, 3e12].map((t) => load.factor(t));
    const back = [3e12, 42, 1e7, 5].map((t) => load.factor(t)).reverse();
    expect(back).toEqual(fwd);
  });
});
