import { describe, expect, it } from "vitest";
import { lineRotationSpansWithin } from "../../machine/node/line-rotation.js";
import { rotationEntries } from "../../machine/node/modular.js";
import { checkDecidedSweeps, partnersByRow, sweepCases } from "./column-partners.js";

describe("spans of a rotation of the line", () => {
  it("decide only sweeps where every row of every offset has A partners (fast-check)", () => {
    const decided = checkDecidedSweeps(
      sweepCases([4, 8, 12, 16], [4, 8, 16, 32, 64, 128], 600),
      { numRuns: 3000, seed: 17 },
      ({ B, e, A, last }, _R, _P, r) => lineRotationSpansWithin(r[0], r[1], r[2], r[3], B, e, e & -e, A, last + 1),
      ({ B, e, A, last }, R, P) => {
        // Every offset at least one element into its line (the continuations and more): every row misses.
        for (let p = e; p < B; p += e & -e) {
          const fewest = Math.min(...partnersByRow(R, P, B, e, p, last));
          expect(fewest, `R=${R} P=${P} B=${B} e=${e} A=${A} last=${last} p=${p}`).toBeGreaterThanOrEqual(A);
        }
      },
    );
    // The property is not vacuous.
    expect(decided).toBeGreaterThan(100);
  });

  it("is tight: one row fewer than its longest span is not decided when a row then lacks a partner", () => {
    // Find, for a rotation of the line, the least last row at which every row has A partners at
    // every offset, by brute force; the closed form must decide it and not the row before.
    const B = 64;
    const e = 8;
    const P = 2048;
    const A = 4;
    const r = new Float64Array(4);
    let checked = 0;
    for (let s = 3; s < 400 && checked < 5; s += 2) {
      const R = (s * e) % P;
      rotationEntries(R, P, B, r);
      if (r[0] <= 0 || r[2] <= 0 || r[1] + r[3] !== B) continue;
      let least = -1;
      for (let last = 1; last < 4000 && least < 0; last++) {
        let all = true;
        for (let p = e; p < B && all; p += e) all = Math.min(...partnersByRow(R, P, B, e, p, last)) >= A;
        if (all) least = last;
      }
      if (least < 0) continue;
      checked++;
      expect(lineRotationSpansWithin(r[0], r[1], r[2], r[3], B, e, e, A, least + 1), `s=${s}`).toBe(true);
      expect(lineRotationSpansWithin(r[0], r[1], r[2], r[3], B, e, e, A, least), `s=${s}`).toBe(false);
    }
    expect(checked).toBe(5);
  });

  it("is undecided unless the jumps add up to the line", () => {
    expect(lineRotationSpansWithin(5, 40, 7, 40, 64, 8, 8, 4, 1000)).toBe(false);
    expect(lineRotationSpansWithin(5, 0, -1, 0, 64, 8, 8, 4, 1000)).toBe(false);
  });
});
