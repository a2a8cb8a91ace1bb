import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cacheGeometry, type CacheGeometry } from "../../machine/index.js";
import { columnReuseMisses } from "../../machine/node/column-reuse.js";
import { PartnerSpans, partnerSpans } from "../../machine/node/partner-spans.js";
import { ReturnOrbits } from "../../machine/node/return-lists.js";
import { fillForRows, partnersByRow } from "./column-partners.js";

/**
 * The column groups of a sweep of `rows` rows of `s` elements whose last row holds `lastRow`, as
 * `column-reuse.ts` documents them: rows present, `last`, columns.
 */
function groups(rows: number, s: number, lastRow: number): [number, number, number][] {
  if (lastRow === s) return s > 1 ? [[rows, rows, 1], [rows, rows - 1, s - 1]] : [[rows, rows, 1]];
  const out: [number, number, number][] = [[rows, rows - 1, lastRow]];
  if (rows > 1) out.push([rows - 1, rows - 1, 1]);
  if (rows > 1 && s - 1 - lastRow > 0) out.push([rows - 1, rows - 2, s - 1 - lastRow]);
  return out;
}

/** Continuation misses of one array by the definition, and whether none or every one misses. */
function definedMisses(g: CacheGeometry, q: number, e: number, s: number): { misses: number; all: boolean } {
  const B = g.line;
  const P = g.sets * B;
  const R = (s * e) % P;
  const rows = Math.ceil(q / s);
  let sum = 0;
  let every = 0;
  for (let p = e; p < B; p += e) {
    if (p % g.sector === 0) continue;
    for (const [n, last, columns] of groups(rows, s, q - (rows - 1) * s)) {
      const partners = partnersByRow(R, P, B, e, p, last).slice(0, n);
      sum += partners.filter((c) => c >= g.assoc).length * columns;
      every += n * columns;
    }
  }
  return { misses: (sum * e) / B, all: sum === every };
}

describe("column reuse from the orbit sums", () => {
  it("counts what the definition counts, also where the partner spans just decide or just fail to (fast-check)", () => {
    const orbits = new ReturnOrbits();
    const spans = new PartnerSpans();
    const seen = { none: 0, all: 0, partial: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(32, 64, 128),
        fc.constantFrom(1, 2),
        fc.constantFrom(3, 4, 6, 8, 16, 24, 32, 64, 128),
        fc.constantFrom(2, 4, 8),
        fc.constantFrom(4, 8),
        fc.integer({ min: 1, max: 3000 }),
        fc.boolean(),
        fc.integer({ min: -3, max: 3 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (line, sectorsPerLine, sets, assoc, e, stride, nearWidened, delta, lastShare) => {
          const g: CacheGeometry = cacheGeometry(line * sets * assoc, line, line / sectorsPerLine, assoc, sets);
          const P = sets * line;
          const s = Math.max(stride, line / e);
          const R = (s * e) % P;
          if (R === 0 || e >= g.sector) return;
          // Rows set next to where a span decides: the spans of this very rotation.
          if (!fillForRows(orbits, R, P, line, e, assoc) || !partnerSpans(orbits, assoc, spans)) return;
          const rows = (nearWidened ? spans.shortestWidened : spans.longestNarrowed) + delta;
          if (rows < 2 || rows > 400) return;
          const lastRow = 1 + Math.floor(lastShare * (s - 1));
          const q = (rows - 1) * s + lastRow;
          const defined = definedMisses(g, q, e, s);
          const got = columnReuseMisses(g, q, e, s, 1, q * e + line);
          const where = `${sets} sets x ${assoc} ways of ${line} B (${g.sector} B sectors), q=${q} e=${e} s=${s}`;
          if (defined.misses === 0) seen.none++;
          else if (defined.all) seen.all++;
          else seen.partial++;
          // Bounds taken before the sums give every continuation as missing in whole elements.
          if (defined.all && got !== defined.misses) expect(got, where).toBe(q - Math.ceil((q * e) / g.sector));
          else expect(got, where).toBe(defined.misses);
        },
      ),
      { numRuns: 1500, seed: 21 },
    );
    expect(seen.none).toBeGreaterThan(100);
    expect(seen.all).toBeGreaterThan(100);
    expect(seen.partial).toBeGreaterThan(100);
  });
});
