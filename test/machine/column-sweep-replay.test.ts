import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReferenceHierarchy, arraySpan, cacheGeometry, tlbGeometry, type CacheGeometry, type KernelSpec } from "../../machine/index.js";

/** The simplest correct sectored LRU: one Map per set, re-inserted on use (insertion order = LRU order). */
class NaiveLru {
  private readonly sets: Map<number, Set<number>>[];
  accesses = 0;
  misses = 0;
  constructor(private readonly g: CacheGeometry) {
    this.sets = Array.from({ length: g.sets }, () => new Map<number, Set<number>>());
  }
  /** True on a miss. */
  access(a: number): boolean {
    this.accesses++;
    const line = Math.floor(a / this.g.line);
    const sector = Math.floor((a % this.g.line) / this.g.sector);
    const set = this.sets[line % this.g.sets];
    const present = set.get(line);
    if (present) {
      set.delete(line);
      set.set(line, present);
      if (present.has(sector)) return false;
      present.add(sector);
    } else {
      if (set.size >= this.g.assoc) set.delete(set.keys().next().value!);
      set.set(line, new Set([sector]));
    }
    this.misses++;
    return true;
  }
}

/** The strided stream of `kernel.ts`, column by column. */
function* columnStream(q: number, e: number, s: number, arrays: number): Generator<number> {
  const span = arraySpan(q, e);
  const rows = Math.ceil(q / s);
  for (let c = 0; c < s; c++) for (let i = 0; i < rows; i++) {
    const j = i * s + c;
    if (j < q) for (let a = 0; a < arrays; a++) yield a * span + j * e;
  }
}

const level = fc
  .record({ line: fc.constantFrom(16, 32, 64, 128), sectorsPerLine: fc.constantFrom(1, 2, 4), sets: fc.constantFrom(1, 2, 3, 4, 8, 16), assoc: fc.constantFrom(1, 2, 3, 4, 8) })
  .map(({ line, sectorsPerLine, sets, assoc }): CacheGeometry => cacheGeometry(line * sets * assoc, line, line / sectorsPerLine, assoc, sets));

const WORK = { loads: 1, stores: 0, flops: 0, otherInstructions: 0 } as const;

describe("column sweep replay (repeated columns counted, not replayed)", () => {
  it("counts exactly what a plain Map LRU hierarchy counts over two passes, for random geometries and column sweeps", () => {
    fc.assert(
      fc.property(
        level,
        level,
        fc.constantFrom(2, 4, 8, 24),
        fc.constantFrom(256, 512, 4096),
        fc.constantFrom(1, 2, 4, 8, 12, 16),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 2, max: 200 }),
        fc.integer({ min: 1, max: 3 }),
        (l1, l2, entries, pageSize, e, q, s, arrays) => {
          const tlb = tlbGeometry({ entries, pageSize, missPenalty: 1 });
          const h = new ReferenceHierarchy([l1, l2], tlb);
          const kernel: KernelSpec = { ...WORK, loads: arrays, elements: q, elementSize: e, pattern: "strided", stride: s, arrays };
          const out = new Float64Array(3);
          const accesses = h.steadyStateMisses(kernel, out);

          const n1 = new NaiveLru(l1);
          const n2 = new NaiveLru(l2);
          const nt = new NaiveLru(tlb);
          const counted = new Float64Array(3);
          for (let pass = 0; pass < 2; pass++) {
            if (pass === 1) counted.set([n1.misses, n2.misses, nt.misses]);
            for (const a of columnStream(q, e, s, arrays)) {
              nt.access(a);
              if (n1.access(a)) n2.access(a);
            }
          }
          expect(accesses).toBe(q * arrays);
          expect([...out]).toEqual([n1.misses - counted[0], n2.misses - counted[1], nt.misses - counted[2]]);
          expect([h.levels[0].accesses, h.levels[1].accesses, h.tlb.accesses]).toEqual([n1.accesses, n2.accesses, nt.accesses]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("skips most columns of a long column sweep (the Figure 3 stride on the Xeon geometry) yet counts them all", () => {
    const l1 = cacheGeometry(8192, 64, 64, 4, 32);
    const l2 = cacheGeometry(524288, 128, 64, 8, 512);
    const tlb = tlbGeometry({ entries: 64, pageSize: 4096, missPenalty: 1 });
    const h = new ReferenceHierarchy([l1, l2], tlb);
    let replayed = 0;
    const access = h.access.bind(h);
    h.access = (a: number) => {
      replayed++;
      access(a);
    };
    const q = 256 * 400;
    const kernel: KernelSpec = { ...WORK, elements: q, elementSize: 8, pattern: "strided", stride: 256 };
    const out = new Float64Array(3);
    h.steadyStateMisses(kernel, out);
    expect(replayed).toBeLessThan(q); // two passes of q accesses, under half of them replayed
    const n1 = new NaiveLru(l1);
    const n2 = new NaiveLru(l2);
    const nt = new NaiveLru(tlb);
    const counted = new Float64Array(3);
    for (let pass = 0; pass < 2; pass++) {
      if (pass === 1) counted.set([n1.misses, n2.misses, nt.misses]);
      for (const a of columnStream(q, 8, 256, 1)) {
        nt.access(a);
        if (n1.access(a)) n2.access(a);
      }
    }
    expect([...out]).toEqual([n1.misses - counted[0], n2.misses - counted[1], nt.misses - counted[2]]);
    expect(h.tlb.accesses).toBe(2 * q);
  });
});
