import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildHierarchy, type MeshSpec } from "../../../components/index.js";

const SPEC: MeshSpec = {
  width: 320,
  height: 96,
  levels: 3,
  variables: 5,
  haloWidth: 2,
  patchSizes: [
    { width: { min: 60, max: 160 }, height: { min: 32, max: 96 } },
    { width: { min: 40, max: 240 }, height: { min: 40, max: 160 } },
    { width: { min: 24, max: 240 }, height: { min: 32, max: 160 } },
  ],
  bands: [40, 24],
  fronts: [
    { name: "shock", x: 90, speed: 4, amplitude: 0, waves: 1 },
    { name: "interface", x: 200, speed: 2, amplitude: 12, waves: 1 },
  ],
  balancer: "composite",
};

function overlaps(a: { x0: number; y0: number; nx: number; ny: number }, b: { x0: number; y0: number; nx: number; ny: number }, w = 0): number {
  const dx = Math.min(a.x0 + a.nx + w, b.x0 + b.nx) - Math.max(a.x0 - w, b.x0);
  const dy = Math.min(a.y0 + a.ny + w, b.y0 + b.ny) - Math.max(a.y0 - w, b.y0);
  return dx > 0 && dy > 0 ? dx * dy : 0;
}

describe("patch hierarchy", () => {
  it("tiles level 0 exactly and keeps every level's patches disjoint and inside the domain", () => {
    const h = buildHierarchy(SPEC, 3, 7, 0, 0);
    expect(h.levels[0].patches.reduce((s, p) => s + p.cells, 0)).toBe(SPEC.width * SPEC.height);
    for (const lv of h.levels) {
      const scale = 2 ** lv.level;
      for (const p of lv.patches) {
        expect(p.x0).toBeGreaterThanOrEqual(0);
        expect(p.y0).toBeGreaterThanOrEqual(0);
        expect(p.x0 + p.nx).toBeLessThanOrEqual(SPEC.width * scale);
        expect(p.y0 + p.ny).toBeLessThanOrEqual(SPEC.height * scale);
        expect(p.doubles).toBe(p.cells * SPEC.variables);
      }
      for (let i = 0; i < lv.patches.length; i++) for (let j = i + 1; j < lv.patches.length; j++) expect(overlaps(lv.patches[i], lv.patches[j])).toBe(0);
    }
  });

  it("is the same on every rank: a pure function of spec, ranks, seed and epoch", () => {
    expect(JSON.stringify(buildHierarchy(SPEC, 3, 7, 0, 0))).toBe(JSON.stringify(buildHierarchy(SPEC, 3, 7, 0, 0)));
    expect(JSON.stringify(buildHierarchy(SPEC, 3, 7, 0, 0))).not.toBe(JSON.stringify(buildHierarchy(SPEC, 3, 8, 0, 0)));
  });

  it("moves the refined band with the fronts and changes the decomposition at a regrid", () => {
    const h0 = buildHierarchy(SPEC, 3, 7, 0, 0);
    const h1 = buildHierarchy(SPEC, 3, 7, 1, 10, h0);
    const minX = (h: typeof h0) => Math.min(...h.levels[2].patches.map((p) => p.x0));
    expect(minX(h1)).toBeGreaterThan(minX(h0));
    expect(h1.migration.reduce((s, p) => s + p.send.length, 0)).toBeGreaterThan(0);
    const owners = (h: typeof h0) => h.levels.map((l) => l.patches.map((p) => `${p.x0},${p.y0},${p.nx},${p.ny}@${p.owner}`).join(" "));
    expect(owners(h1)).not.toEqual(owners(h0));
  });

  it("sends true halo sizes: every message is matched by a receive, and equals the brute-force halo overlap", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 7 }), fc.constantFrom("sfc", "greedy", "composite"), (seed, ranks, balancer) => {
        const spec = { ...SPEC, balancer: balancer as MeshSpec["balancer"] };
        const h = buildHierarchy(spec, ranks, seed, 0, 0);
        for (const lv of h.levels) {
          // Brute force: bytes each rank should receive from each other rank.
          const want = new Map<string, number>();
          let local = 0;
          for (const a of lv.patches)
            for (const b of lv.patches) {
              if (a === b) continue;
              const cells = overlaps(a, b, spec.haloWidth);
              if (cells === 0) continue;
              if (a.owner === b.owner) local += cells * 40;
              else want.set(`${b.owner}->${a.owner}`, (want.get(`${b.owner}->${a.owner}`) ?? 0) + cells * 40);
            }
          const got = new Map<string, number>();
          lv.ghost.forEach((plan, r) => {
            for (const m of plan.recv) got.set(`${m.peer}->${r}`, (got.get(`${m.peer}->${r}`) ?? 0) + m.bytes);
            for (const m of plan.send) {
              const back = lv.ghost[m.peer].recv.filter((x) => x.peer === r && x.tag === m.tag && x.bytes === m.bytes);
              expect(back.length).toBeGreaterThanOrEqual(1);
            }
          });
          expect(got).toEqual(want);
          expect(lv.ghost.reduce((s, p) => s + p.localCopyBytes, 0)).toBe(local);
        }
      }),
      { numRuns: 25 },
    );
  });

  it("balances the composite load within the granularity of level-0 patches", () => {
    const h = buildHierarchy(SPEC, 3, 7, 0, 0);
    const work = [0, 0, 0];
    for (const lv of h.levels) for (const p of lv.patches) work[p.owner] += p.cells * 2 ** lv.level;
    const biggest = Math.max(...h.levels[0].patches.map((p) => p.cells)) * 8;
    const mean = work.reduce((a, b) => a + b, 0) / 3;
    expect(Math.max(...work) - mean).toBeLessThan(biggest);
  });
});
