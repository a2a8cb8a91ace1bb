import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gcd, nextInWindow, rotationEntries } from "../../machine/node/modular.js";
import { fillReturnOrbits, orbitIndex as index, orbitSums as cum, ReturnOrbits } from "../../machine/node/return-lists.js";

/** The first `count` returns (rows) of the orbit `(x + k * step) mod P`, `k >= 1`, to `[0, B)`, by window searches. */
function bySearch(step: number, x: number, P: number, B: number, count: number): number[] {
  const out: number[] = [];
  let k = 0;
  while (out.length < count) {
    k = nextInWindow(step, x, P, 0, B - 1, k + 1);
    if (k < 0) break;
    out.push(k);
  }
  return out;
}

/** Both directions' three-gap entries of the rotation by `R` modulo `P`, as `column-reuse.ts` derives them. */
function entries(R: number, P: number, B: number): { up: number[]; dn: number[] } {
  const r = new Float64Array(4);
  rotationEntries(R % P, P, B, r);
  const up = [...r];
  const dn = up[1] === 0 ? [up[0], 0, -1, 0] : [up[2], up[3], up[0], up[1]];
  return { up, dn };
}

/** The first `count` forward returns of position `p` from the last fill's orbit sums. */
function forward(p: number, count: number): number[] {
  return Array.from({ length: count }, (_, t) => cum[index[p] + t + 1] - cum[index[p]]);
}

/** Same, backward. */
function backward(p: number, count: number): number[] {
  return Array.from({ length: count }, (_, t) => cum[index[p]] - cum[index[p] - t - 1]);
}

describe("return lists of a rotation from its orbit sums", () => {
  it("gives every position's forward and backward returns as the window searches do (fast-check)", () => {
    const orbits = new ReturnOrbits();
    let filled = 0;
    let walked = 0;
    let coarse = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(32, 64, 128, 256),
        fc.constantFrom(4, 8, 16),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 1, max: 16 }),
        (B, e, setBits, s, count) => {
          const P = B * 2 ** setBits;
          const R = s * e;
          if (B / e > 64) return;
          const { up, dn } = entries(R, P, B);
          if (!fillReturnOrbits(orbits, up[0], up[1], up[2], up[3], dn[0], dn[1], dn[2], dn[3], B, e, count)) return;
          filled++;
          // Filled by the usual rotation's walk (it records the widened visits), and on coarse
          // positions (the rotation's steps a multiple of several elements).
          if (orbits.widenedVisits > 0) walked++;
          if (gcd(R % P, P) > e && gcd(R % P, P) < B) coarse++;
          for (let p = 0; p < B / e; p++) {
            const j = index[p];
            const forward = Array.from({ length: count }, (_, t) => cum[j + t + 1] - cum[j]);
            const backward = Array.from({ length: count }, (_, t) => cum[j] - cum[j - t - 1]);
            expect(forward, `forward from ${p * e}`).toEqual(bySearch(R % P, p * e, P, B, count));
            expect(backward, `backward from ${p * e}`).toEqual(bySearch((P - (R % P)) % P, p * e, P, B, count));
          }
        },
      ),
      { numRuns: 400 },
    );
    // The property must not hold vacuously, nor miss either way of filling.
    expect(filled).toBeGreaterThan(300);
    expect(walked).toBeGreaterThan(100);
    expect(coarse).toBeGreaterThan(50);
  });

  it("mirrors the usual rotation: the backward list of p is the forward list of W - 1 - p (fast-check)", () => {
    const orbits = new ReturnOrbits();
    let mirrored = 0;
    fc.assert(
      fc.property(fc.constantFrom(64, 128), fc.constantFrom(4, 8), fc.integer({ min: 2, max: 9 }), fc.integer({ min: 2, max: 20_000 }), fc.integer({ min: 1, max: 16 }), (B, e, setBits, s, count) => {
        const P = B * 2 ** setBits;
        const { up, dn } = entries(s * e, P, B);
        if (!fillReturnOrbits(orbits, up[0], up[1], up[2], up[3], dn[0], dn[1], dn[2], dn[3], B, e, count) || !orbits.mirrored) return;
        mirrored++;
        const W = B / e;
        for (let p = 0; p < W; p++) {
          const j = index[p];
          const k = index[W - 1 - p];
          for (let t = 1; t <= count; t++) expect(cum[j] - cum[j - t]).toBe(cum[k + t] - cum[k]);
        }
      }),
      { numRuns: 300 },
    );
    expect(mirrored).toBeGreaterThan(200);
  });

  it("gives every position the same lists when the rotation returns each to itself (period shorter than the lists)", () => {
    const orbits = new ReturnOrbits();
    // R = P / 4: every position returns to itself after 4 rows.
    const [B, e, P, count] = [64, 8, 64 * 32, 10];
    const R = P / 4;
    const { up, dn } = entries(R, P, B);
    expect(fillReturnOrbits(orbits, up[0], up[1], up[2], up[3], dn[0], dn[1], dn[2], dn[3], B, e, count)).toBe(true);
    expect(orbits.uniform).toBe(true);
    for (let p = 0; p < B / e; p++) {
      const j = index[p];
      for (let t = 1; t <= count; t++) {
        expect(cum[j + t] - cum[j]).toBe(4 * t);
        expect(cum[j] - cum[j - t]).toBe(4 * t);
      }
    }
  });

  it("fills on coarse positions when the jumps are multiples of several positions", () => {
    const orbits = new ReturnOrbits();
    // Something else first, so that positions a fill leaves out keep stale indices.
    const { up, dn } = entries(1264, 2048, 64);
    expect(fillReturnOrbits(orbits, up[0], up[1], up[2], up[3], dn[0], dn[1], dn[2], dn[3], 64, 8, 4)).toBe(true);
    // On 4 positions, jumps +2 (ahead, 3 rows) and -2 (behind, 5 rows): cycles 0 <-> 2 and 1 <-> 3.
    expect(fillReturnOrbits(orbits, 3, 2, 5, 2, 5, 2, 3, 2, 4, 1, 3)).toBe(true);
    expect(orbits.mirrored).toBe(true);
    expect([0, 1, 2, 3].map((p) => forward(p, 3))).toEqual([[3, 8, 11], [3, 8, 11], [5, 8, 13], [5, 8, 13]]);
    expect([0, 1, 2, 3].map((p) => backward(p, 3))).toEqual([[5, 8, 13], [5, 8, 13], [3, 8, 11], [3, 8, 11]]);
  });

  it("fills a usual rotation of several cycles from its tables", () => {
    const orbits = new ReturnOrbits();
    // On 8 positions, jumps +3 (ahead, 2 rows) and -6 (behind, 7 rows): cycles 0 -> 3 -> 6,
    // 1 -> 4 -> 7 and 2 -> 5 (5 -> 2 both ways, 9 rows); the jumps share a factor the line does not.
    expect(fillReturnOrbits(orbits, 2, 3, 7, 6, 7, 6, 2, 3, 8, 1, 3)).toBe(true);
    expect(orbits.mirrored).toBe(true);
    expect(orbits.widenedVisits).toBe(0);
    expect([0, 1, 2, 5, 6].map((p) => forward(p, 3))).toEqual([[2, 4, 11], [2, 4, 11], [2, 11, 13], [9, 11, 20], [7, 9, 11]]);
  });

  it("refuses a backward map that does not undo the forward one", () => {
    const orbits = new ReturnOrbits();
    const { up } = entries(1264, 2048, 64);
    // The forward entries given as the backward ones: not the inverse unless the map is an involution.
    expect(fillReturnOrbits(orbits, up[0], up[1], up[2], up[3], up[0], up[1], up[2], up[3], 64, 8, 4)).toBe(false);
  });
});
