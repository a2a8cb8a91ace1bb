import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exactLog2, mod, nextInWindow, reducedRotationEntries, rotationEntries } from "../../machine/node/modular.js";

/** The two window searches rotationEntries replaces, with the approach distances they imply. */
function bySearch(step: number, p: number, w: number): number[] {
  const ahead = nextInWindow(step, 0, p, 0, w - 1, 1);
  const behind = nextInWindow(step, 0, p, p - w + 1, p - 1, 1);
  return [ahead, ahead < 0 ? 0 : (ahead * step) % p, behind, behind < 0 ? 0 : p - ((behind * step) % p)];
}

describe("modular arithmetic of address streams", () => {
  it("takes the exact base-2 logarithm of int32 powers of two and -1 of anything else (fast-check)", () => {
    for (let k = 0; k <= 30; k++) expect(exactLog2(2 ** k)).toBe(k);
    for (const x of [0, -1, -2, 3, 6, 2 ** 31, 2 ** 32, 0.5, 1.5, Number.NaN, Infinity]) expect(exactLog2(x)).toBe(-1);
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: -1e10, max: 1e10 }), fc.integer(), fc.integer({ min: 0, max: 31 }).map((k) => 2 ** k)), (x) => {
        const k = exactLog2(x);
        if (k < 0) expect(Number.isInteger(Math.log2(x)) && x >= 1 && x < 2 ** 31).toBe(false);
        else expect(2 ** k).toBe(x);
      }),
      { numRuns: 5000 },
    );
  });

  it("finds both first returns of a rotation to within a line of 0 as the two window searches do (fast-check)", () => {
    const out = new Float64Array(4);
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1024 }), fc.integer({ min: 2, max: 8192 }), fc.integer({ min: 0, max: 3 * 1024 * 8192 }), (w, sets, raw) => {
        const p = w * sets;
        const step = raw % (3 * p);
        rotationEntries(step, p, w, out);
        expect([...out]).toEqual(bySearch(step, p, w));
      }),
      { numRuns: 5000 },
    );
  });

  it("gives a reduced step the entries of every step congruent to it, writing all four over stale ones (fast-check)", () => {
    const out = new Float64Array(4);
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1024 }), fc.integer({ min: 2, max: 8192 }), fc.nat(), fc.integer({ min: -3, max: 3 }), (w, sets, raw, turns) => {
        const p = w * sets;
        const s = raw % p;
        out.fill(Number.NaN);
        reducedRotationEntries(s, p, w, out);
        expect([...out]).toEqual(bySearch(s, p, w));
        const reduced = [...out];
        out.fill(7);
        rotationEntries(s + turns * p, p, w, out);
        expect([...out]).toEqual(reduced);
      }),
      { numRuns: 3000 },
    );
  });

  it("handles rotations that return to 0 (steps that are multiples of the line or of the period)", () => {
    const out = new Float64Array(4);
    for (const [step, p, w] of [
      [0, 1024, 64],
      [1024, 1024, 64],
      [64, 1024, 64],
      [128, 1024, 64],
      [960, 1024, 64],
      [512, 1024, 64],
      [3 * 4096, 65536, 128],
    ]) {
      rotationEntries(step, p, w, out);
      expect([...out], `step ${step}, period ${p}, line ${w}`).toEqual(bySearch(step, p, w));
    }
    // A rotation by a whole period returns to 0 at once and never comes from below.
    rotationEntries(1024, 1024, 64, out);
    expect([...out]).toEqual([1, 0, -1, 0]);
  });

  it("finds the same entries in double arithmetic for periods of 2^30 bytes or more (scan of the first multiples)", () => {
    const out = new Float64Array(4);
    const w = 4096;
    const p = 2 ** 30 + 3 * w;
    const limit = 2 ** 20;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: p - 1 }), (step) => {
        rotationEntries(step, p, w, out);
        // The window searches lose exactness above 2^26; a plain scan (exact sums below 2^31) does not.
        let ahead = -1;
        let behind = -1;
        let x = 0;
        for (let y = 1; y <= limit && (ahead < 0 || behind < 0); y++) {
          x += step;
          if (x >= p) x -= p;
          if (ahead < 0 && x < w) ahead = y;
          if (behind < 0 && x > p - w) behind = y;
        }
        if (ahead > 0) expect([out[0], out[1]]).toEqual([ahead, (ahead * step) % p]);
        else expect(out[0] < 0 || out[0] > limit).toBe(true);
        if (behind > 0) expect([out[2], out[3]]).toEqual([behind, p - ((behind * step) % p)]);
        else expect(out[2] < 0 || out[2] > limit).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("takes remainders of integers in int32 or double arithmetic alike", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 31 }), (x, m) => {
        expect(mod(x, m)).toBe(x % m);
        expect(mod(-x, m)).toBe(((-x % m) + m) % m);
      }),
    );
  });
});
