import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cacheGeometry, levelGeometry, resolveMachine, tlbGeometry } from "../../machine/index.js";

describe("cache geometry", () => {
  it("carries exact reciprocals of the line and sector: multiplying is dividing, to the last bit (fast-check)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 16 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 ** 40 }), (lineBits, sectorShift, bytes) => {
        const line = 2 ** lineBits;
        const sector = line / 2 ** Math.min(sectorShift, lineBits - 1);
        const g = cacheGeometry(line * 64 * 4, line, sector, 4);
        expect(g.sets).toBe(64);
        expect(Object.is(bytes * g.invLine, bytes / line)).toBe(true);
        expect(Object.is(bytes * g.invSector, bytes / sector)).toBe(true);
      }),
    );
  });

  it("refuses a line or sector that is not a power of two", () => {
    expect(() => cacheGeometry(48 * 64, 48, 48, 1)).toThrow(/powers of two/);
    expect(() => cacheGeometry(64 * 64, 64, 24, 1)).toThrow(/powers of two/);
    expect(() => cacheGeometry(64 * 64, 64, 0, 1)).toThrow(/powers of two/);
  });

  it("is what the machine's levels and TLB resolve to", () => {
    const cfg = resolveMachine("xeon-2.8ghz-512k");
    expect(levelGeometry(cfg.l2!)).toEqual({ size: 512 * 1024, line: 128, sector: 64, assoc: 8, sets: 512, invLine: 1 / 128, invSector: 1 / 64 });
    expect(tlbGeometry(cfg.tlb)).toEqual({ size: 64 * 4096, line: 4096, sector: 4096, assoc: 64, sets: 1, invLine: 1 / 4096, invSector: 1 / 4096 });
  });
});
