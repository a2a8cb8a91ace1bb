import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SetAssociativeCache, ReferenceHierarchy, cacheGeometry, tlbGeometry, type CacheGeometry } from "../../machine/index.js";

/** The simplest correct model: one Map per set, re-inserted on use (insertion order = LRU order). */
function naiveMisses(g: CacheGeometry, addresses: readonly number[]): number {
  const sets = Array.from({ length: g.sets }, () => new Map<number, Set<number>>());
  let misses = 0;
  for (const a of addresses) {
    const line = Math.floor(a / g.line);
    const sector = Math.floor((a % g.line) / g.sector);
    const set = sets[line % g.sets];
    const present = set.get(line);
    if (present) {
      set.delete(line);
      set.set(line, present);
      if (!present.has(sector)) {
        present.add(sector);
        misses++;
      }
    } else {
      misses++;
      if (set.size >= g.assoc) set.delete(set.keys().next().value!);
      set.set(line, new Set([sector]));
    }
  }
  return misses;
}

describe("SetAssociativeCache", () => {
  it("counts exactly the misses of a naive per-set LRU with sectors, for any stream", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 4, 8),
        fc.constantFrom(1, 2, 8),
        fc.constantFrom(32, 64),
        fc.constantFrom(1, 2),
        fc.array(fc.integer({ min: 0, max: 1 << 14 }), { minLength: 1, maxLength: 400 }),
        (assoc, sets, line, sectorsPerLine, addresses) => {
          const g = cacheGeometry(assoc * sets * line, line, line / sectorsPerLine, assoc, sets);
          const c = new SetAssociativeCache(g);
          for (const a of addresses) c.access(a);
          expect(c.misses).toBe(naiveMisses(g, addresses));
          expect(c.accesses).toBe(addresses.length);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it("matches the naive LRU as a large fully associative cache (the TLB path)", () => {
    fc.assert(
      fc.property(fc.constantFrom(17, 32, 64, 128), fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 2000 }), (entries, pages) => {
        const g = cacheGeometry(entries * 4096, 4096, 4096, entries, 1);
        const addresses = pages.map((p) => p * 4096 + 8);
        const c = new SetAssociativeCache(g);
        for (const a of addresses) c.access(a);
        expect(c.misses).toBe(naiveMisses(g, addresses));
      }),
      { numRuns: 200, seed: 9 },
    );
  });

  it("matches the naive LRU as a fully associative cache whose page numbers are far apart (hashed, not directly indexed)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 2000 }), (pages) => {
        const g = cacheGeometry(32 * 4096, 4096, 4096, 32, 1);
        // Pages beyond 2^23 and near 2^40, mixed with low ones: both lookup paths in one cache.
        const addresses = pages.map((p) => (p % 3 === 0 ? p : p % 3 === 1 ? 2 ** 23 + p * 977 : 2 ** 40 + p * 65537) * 4096 + 8);
        const c = new SetAssociativeCache(g);
        for (const a of addresses) c.access(a);
        expect(c.misses).toBe(naiveMisses(g, addresses));
      }),
      { numRuns: 100, seed: 5 },
    );
  });

  it("keeps an array that fits and evicts one that overflows a cyclic sweep", () => {
    const g = cacheGeometry(1024, 64, 64, 2, 8);
    const c = new SetAssociativeCache(g);
    for (let pass = 0; pass < 2; pass++) for (let a = 0; a < 1024; a += 8) c.access(a);
    expect(c.misses).toBe(16);
    c.reset();
    for (let pass = 0; pass < 2; pass++) for (let a = 0; a < 2048; a += 8) c.access(a);
    expect(c.misses).toBe(64);
  });
});

describe("ReferenceHierarchy", () => {
  it("feeds each level with the misses of the level above and the TLB with every access", () => {
    const l1 = cacheGeometry(512, 64, 64, 2, 4);
    const l2 = cacheGeometry(4096, 128, 64, 4, 8);
    const h = new ReferenceHierarchy([l1, l2], tlbGeometry({ entries: 4, pageSize: 4096, missPenalty: 1 }));
    const out = new Float64Array(3);
    const accesses = h.steadyStateMisses({ elements: 256, elementSize: 8, loads: 1, stores: 0, flops: 0, otherInstructions: 0, pattern: "sequential" }, out);
    expect(accesses).toBe(256);
    expect(out[0]).toBe(32); // 2 KiB do not fit 512 B: one miss per 64-byte line
    expect(out[1]).toBe(0); // but they fit the 4 KiB second level
    expect(out[2]).toBe(0); // and one page
    expect(h.levels[1].accesses).toBe(64); // warm-up + counted pass: 2 x 32 L1 misses
  });
});
