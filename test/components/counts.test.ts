import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runCount, wholeCount } from "../../components/library/counts.js";

describe("a generic component's count", () => {
  it("is a whole number, 0 or more, up to rounding of the expression that computed it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 30 }), (n) => {
        expect(wholeCount(n)).toBe(n);
        // Rounding of a computed count (0.1 * 30 is 3.0000000000000004) is no fraction.
        expect(wholeCount(n * (1 + 1e-14))).toBe(n);
      }),
    );
    expect(wholeCount(0.1 * 30)).toBe(3);
    for (const bad of [-1, -1e-3, 1.5, 2.0001, 1e9 + 0.5, Number.NaN, Infinity]) expect(wholeCount(bad)).toBeNaN();
  });

  it("found wrong in a run names the component, the key and the value", () => {
    expect(runCount(4, "Driver", "iterations")).toBe(4);
    expect(() => runCount(-2, "Driver", "calls[0].count")).toThrow("Driver: calls[0].count evaluated to -2; a count is a whole number, 0 or more");
  });
});
