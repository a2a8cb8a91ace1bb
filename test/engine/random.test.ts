import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RandomStream, Simulation } from "../../engine/index.js";

function draws(s: RandomStream, n: number): number[] {
  return Array.from({ length: n }, () => s.next());
}

describe("named random streams", () => {
  it("give identical draws for the same seed and name", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.string()), fc.string(), (seed, name) => {
        expect(draws(new RandomStream(seed, name), 20)).toEqual(draws(new RandomStream(seed, name), 20));
      }),
      { numRuns: 50 },
    );
  });

  it("are independent of other streams: creating and using another stream changes nothing", () => {
    const a = new Simulation({ seed: 7 });
    const b = new Simulation({ seed: 7 });
    const net = draws(a.random("network"), 10);
    draws(b.random("noise"), 1000);
    b.random("other").normal();
    expect(draws(b.random("network"), 10)).toEqual(net);
  });

  it("differ between names and between seeds", () => {
    const x = draws(new RandomStream(1, "network"), 10);
    expect(draws(new RandomStream(1, "noise"), 10)).not.toEqual(x);
    expect(draws(new RandomStream(2, "network"), 10)).not.toEqual(x);
  });

  it("returns the same stream object for the same name within a simulation", () => {
    const sim = new Simulation({ seed: 3 });
    expect(sim.random("a")).toBe(sim.random("a"));
  });

  it("draws distributions with the right first two moments", () => {
    const s = new RandomStream(11, "moments");
    const n = 200_000;
    const stats = (f: () => number) => {
      let m = 0;
      let m2 = 0;
      for (let i = 0; i < n; i++) {
        const v = f();
        m += v;
        m2 += v * v;
      }
      m /= n;
      return { mean: m, sd: Math.sqrt(m2 / n - m * m) };
    };
    const u = stats(() => s.uniform(2, 4));
    expect(u.mean).toBeCloseTo(3, 2);
    expect(u.sd).toBeCloseTo(2 / Math.sqrt(12), 2);
    const e = stats(() => s.exponential(2.5));
    expect(e.mean).toBeCloseTo(2.5, 1);
    expect(e.sd).toBeCloseTo(2.5, 1);
    const g = stats(() => s.normal(10, 3));
    expect(g.mean).toBeCloseTo(10, 1);
    expect(g.sd).toBeCloseTo(3, 1);
    const l = stats(() => s.lognormalMeanCv(5, 0.2));
    expect(l.mean).toBeCloseTo(5, 1);
    expect(l.sd / l.mean).toBeCloseTo(0.2, 2);
    const ln = stats(() => Math.log(s.lognormal(1, 0.5)));
    expect(ln.mean).toBeCloseTo(1, 2);
    expect(ln.sd).toBeCloseTo(0.5, 2);
  });

  it("draws integers in the inclusive range, every value reachable", () => {
    const s = new RandomStream(5, "ints");
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = s.integer(3, 8);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(8);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7, 8]);
  });
});

describe("draws from an empty or malformed range", () => {
  it.each([
    [3, 1],
    [0.5, 2],
    [0, 2.5],
    [Number.NaN, 2],
  ])("refuses integer(%s, %s), which has no integer in [lo, hi] or bounds that are not integers", (lo, hi) => {
    expect(() => new RandomStream(5, "ints").integer(lo, hi)).toThrow(RangeError);
    expect(() => new RandomStream(5, "ints").integer(lo, hi)).toThrow(`integer(${lo}, ${hi}): lo and hi must be integers with lo <= hi`);
  });

  it("draws the one value of a range of one integer", () => {
    expect(new RandomStream(5, "ints").integer(4, 4)).toBe(4);
  });

  it("refuses to pick from an empty list", () => {
    expect(() => new RandomStream(5, "pick").pick([])).toThrow("pick: the list is empty");
  });

  it("draws the same values as before for valid arguments", () => {
    const a = new RandomStream(7, "same");
    const b = new RandomStream(7, "same");
    expect([a.integer(1, 6), a.pick(["x", "y", "z"])]).toEqual([1 + Math.floor(b.next() * 6), ["x", "y", "z"][Math.floor(b.next() * 3)]]);
  });
});
