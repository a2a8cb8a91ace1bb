import { describe, expect, it } from "vitest";
import { rotationEntries } from "../../machine/node/modular.js";
import { partnerSpanExceeds } from "../../machine/node/partner-lattice.js";
import { checkDecidedSweeps, partnersByRow, sweepCases } from "./column-partners.js";

describe("partner lattice bound of a column sweep", () => {
  it("holds: when it exceeds the last row, no access of any offset has A partners in its column (fast-check)", () => {
    const decided = checkDecidedSweeps(
      sweepCases([4, 8, 16], [4, 8, 16, 32, 64, 128, 3, 6, 12, 24, 96], 400),
      { numRuns: 1500, seed: 11 },
      ({ B, e, A, last }, _R, P, r) => partnerSpanExceeds(r[0], r[1], r[2], r[3], P, B, e, A, last),
      ({ B, e, A, last }, R, P) => {
        // Every access that continues an element (byte e or more into its line): fewer than A partners on every row.
        for (let p = e; p < B; p += e) {
          const most = Math.max(...partnersByRow(R, P, B, e, p, last));
          expect(most, `R=${R} P=${P} B=${B} e=${e} A=${A} last=${last} p=${p}`).toBeLessThan(A);
        }
      },
    );
    // The property is not vacuous: the bound decides a fair share of the points.
    expect(decided).toBeGreaterThan(100);
  });

  it("is undecided for entries that are not a basis pair or a periodic rotation", () => {
    // A periodic rotation (no entry behind) and a zero jump ahead.
    expect(partnerSpanExceeds(4, 0, -1, 0, 1024, 64, 8, 4, 10)).toBe(false);
    expect(partnerSpanExceeds(16, 32, 0, 0, 1024, 64, 8, 4, 10)).toBe(false);
    // uF * wB + uB * vF differs from P.
    expect(partnerSpanExceeds(5, 10, 7, 20, 1000, 64, 8, 4, 10)).toBe(false);
  });

  it("is exact at its edge: a sweep whose A-th partner lies exactly at the limit is not decided", () => {
    // Rows 8 * 33 bytes apart modulo 2048 (32 sets of 64 bytes): find the least last row with a row
    // holding A partners at some offset, and check the bound does not decide it.
    const B = 64;
    const e = 8;
    const P = 2048;
    const R = 8 * 33;
    const A = 4;
    const r = new Float64Array(4);
    rotationEntries(R, P, B, r);
    let least = -1;
    for (let last = 1; last < 2000 && least < 0; last++) {
      for (let p = e; p < B && least < 0; p += e) if (Math.max(...partnersByRow(R, P, B, e, p, last)) >= A) least = last;
    }
    expect(least).toBeGreaterThan(0);
    expect(partnerSpanExceeds(r[0], r[1], r[2], r[3], P, B, e, A, least)).toBe(false);
  });
});
