import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { overloadFraction } from "../../machine/node/stride-miss-model.js";

/** The even-spread overload fraction written out with its divisions (the definition). */
function byDivision(n: number, sets: number, assoc: number): number {
  if (n <= 0 || sets <= 0) return 0;
  const q = Math.floor(n / sets);
  const rem = n - q * sets;
  let over = 0;
  if (q + 1 > assoc) over += rem * (q + 1);
  if (q > assoc) over += (sets - rem) * q;
  return over / n;
}

describe("overload fraction of lines spread evenly over sets", () => {
  it("is the same double as the definition, integer shortcut or not (fast-check)", () => {
    const count = fc.oneof(fc.integer({ min: -5, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 1e7 }));
    const sets = fc.oneof(fc.integer({ min: 0, max: 70000 }), fc.integer({ min: 0, max: 12 }).map((k) => 2 ** k), fc.double({ min: 0.5, max: 1e4 }));
    const assoc = fc.oneof(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 70000 }), fc.double({ min: 0, max: 100 }));
    fc.assert(
      fc.property(count, sets, assoc, (n, s, a) => {
        expect(Object.is(overloadFraction(n, s, a), byDivision(n, s, a))).toBe(true);
      }),
      { numRuns: 30000 },
    );
    // Around the thresholds assoc * sets and (assoc + 1) * sets.
    for (const s of [1, 7, 32, 512, 65535]) for (const a of [0, 1, 4, 8, 64]) for (let d = -2; d <= 2; d++) {
      for (const n of [a * s + d, (a + 1) * s + d]) expect(Object.is(overloadFraction(n, s, a), byDivision(n, s, a))).toBe(true);
    }
  });
});
