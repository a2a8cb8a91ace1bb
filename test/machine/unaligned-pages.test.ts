import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unalignedOneSetMisses } from "../../machine/node/unaligned-pages.js";
import { cacheGeometry, type CacheGeometry } from "../../machine/node/geometry.js";

/** Misses of the second of two passes, every access followed through an LRU list of `assoc` pages. */
function replayedMisses(line: number, assoc: number, q: number, e: number, arrays: number, stride: number, arrayBytes: number): number {
  const recency: number[] = [];
  let misses = 0;
  const rows = Math.ceil(q / stride);
  for (let pass = 0; pass < 2; pass++) {
    for (let c = 0; c < stride; c++) {
      for (let i = 0; i < rows; i++) {
        const j = i * stride + c;
        if (j >= q) break;
        for (let a = 0; a < arrays; a++) {
          const page = Math.floor((a * arrayBytes + j * e) / line);
          const at = recency.indexOf(page);
          if (at >= 0) recency.splice(at, 1);
          else if (pass === 1) misses++;
          recency.unshift(page);
          if (recency.length > assoc) recency.pop();
        }
      }
    }
  }
  return misses;
}

function oneSet(line: number, assoc: number): CacheGeometry {
  return cacheGeometry(line * assoc, line, line, assoc);
}

describe("unalignedOneSetMisses", () => {
  it("counts what an access-by-access LRU replay of the two passes counts (rows and columns whose pages repeat are skipped)", () => {
    let followed = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(512, 4096, 16_384),
        fc.integer({ min: 12, max: 40 }),
        fc.constantFrom(1, 2, 3, 4, 8, 12, 24),
        fc.integer({ min: 2, max: 5 }),
        fc.double({ min: -0.2, max: 1.5, noNaN: true }),
        fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 600 })),
        fc.integer({ min: 1, max: 5000 }),
        (line, assoc, e, arrays, beyond, stride, skew) => {
          // Arrays whose pages land around the list's capacity: the band that is followed.
          const q = Math.max(1, Math.round(((assoc + beyond * (4 * arrays + 4)) * line) / (arrays * e)));
          const arrayBytes = Math.ceil((q * e) / 4096) * 4096 + skew;
          const got = unalignedOneSetMisses(oneSet(line, assoc), q, e, arrays, stride, arrayBytes);
          if (got < 0) return;
          followed++;
          expect(got, `line ${line} assoc ${assoc} q ${q} e ${e} arrays ${arrays} stride ${stride} arrayBytes ${arrayBytes}`).toBe(replayedMisses(line, assoc, q, e, arrays, stride, arrayBytes));
        },
      ),
      { numRuns: 300, seed: 7 },
    );
    expect(followed).toBeGreaterThan(100);
  });
});
