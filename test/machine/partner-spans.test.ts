import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rotationEntries } from "../../machine/node/modular.js";
import { PartnerSpans, partnerSpans } from "../../machine/node/partner-spans.js";
import { fillReturnOrbits, ReturnOrbits } from "../../machine/node/return-lists.js";
import { fillForRows as fill, partnersByRow } from "./column-partners.js";

/**
 * Whether the rotation's jumps ahead and behind add up to the line (`vF + wB = B`): its induced
 * rotation has no point beyond the line, and the visit to byte `B` is added apart.
 */
function jumpsSpanLine(R: number, P: number, B: number): boolean {
  const r = new Float64Array(4);
  rotationEntries(R % P, P, B, r);
  return r[0] > 0 && r[2] > 0 && r[1] + r[3] === B;
}

/**
 * The spans by walking the rotation itself over one period from byte 0: its visits to `[0, B]`
 * (widened) and to `[e, B - e]` (narrowed), cyclically.
 */
function walkedSpans(R: number, P: number, B: number, e: number, A: number): { shortest: number; longest: number } {
  const widened: number[] = [];
  const narrowed: number[] = [];
  let x = 0;
  let period = 0;
  do {
    if (x <= B) widened.push(period);
    if (x >= e && x <= B - e) narrowed.push(period);
    x = (x + R) % P;
    period++;
  } while (x !== 0);
  const at = (times: number[], j: number): number => times[j % times.length] + Math.floor(j / times.length) * period;
  let shortest = Infinity;
  for (let j = 0; j < widened.length; j++) shortest = Math.min(shortest, at(widened, j + A) - at(widened, j));
  let longest = narrowed.length === 0 ? Infinity : 0;
  for (let j = 0; j < narrowed.length; j++) longest = Math.max(longest, at(narrowed, j + A + 1) - at(narrowed, j));
  return { shortest, longest };
}

const sweep = fc.record({
  B: fc.constantFrom(32, 64, 128),
  e: fc.constantFrom(4, 8),
  sets: fc.constantFrom(4, 8, 16, 32, 64, 128, 3, 6, 12, 24, 96),
  s: fc.integer({ min: 2, max: 3000 }),
  A: fc.constantFrom(2, 4, 8),
});

/**
 * The row length `R` and set period `P` of a sweep point, with `orbits` and `spans` filled for
 * them; undefined when the rotation is trivial or records no visits.
 */
function filledSpans({ B, e, sets, s, A }: { B: number; e: number; sets: number; s: number; A: number }, orbits: ReturnOrbits, spans: PartnerSpans): { R: number; P: number } | undefined {
  const P = B * sets;
  const R = (s * e) % P;
  if (R === 0 || B / e > 64 || !fill(orbits, R, P, B, e, A) || !partnerSpans(orbits, A, spans)) return undefined;
  return { R, P };
}

describe("partner spans of a column sweep", () => {
  it("are the shortest widened and longest narrowed spans of the rotation's own orbit (fast-check)", () => {
    const orbits = new ReturnOrbits();
    const spans = new PartnerSpans();
    let known = 0;
    let spanLine = 0;
    fc.assert(
      fc.property(sweep, (point) => {
        const rows = filledSpans(point, orbits, spans);
        if (rows === undefined) return;
        const { B, e, A } = point;
        const { R, P } = rows;
        known++;
        if (jumpsSpanLine(R, P, B)) spanLine++;
        const walked = walkedSpans(R, P, B, e, A);
        expect(spans.shortestWidened, `R=${R} P=${P} B=${B} e=${e} A=${A}`).toBe(walked.shortest);
        if (walked.longest !== Infinity) expect(spans.longestNarrowed, `R=${R} P=${P} B=${B} e=${e} A=${A}`).toBe(walked.longest);
      }),
      { numRuns: 600, seed: 5 },
    );
    expect(known).toBeGreaterThan(150);
    // Both kinds of usual rotation: with a point beyond the line, and with jumps that span it.
    expect(spanLine).toBeGreaterThan(40);
    expect(known - spanLine).toBeGreaterThan(100);
  });

  it("are unknown after a fill that records no visits, or refuses the rotation", () => {
    const orbits = new ReturnOrbits();
    const spans = new PartnerSpans();
    expect(fill(orbits, 1264, 2048, 64, 8, 4)).toBe(true);
    expect(partnerSpans(orbits, 4, spans)).toBe(true);
    // A jump of 4 bytes is no multiple of 8-byte elements: refused, and the last visits are gone.
    expect(fillReturnOrbits(orbits, 3, 4, 5, 60, 5, 60, 3, 4, 64, 8, 4)).toBe(false);
    expect(partnerSpans(orbits, 4, spans)).toBe(false);
    // A rotation that returns every position to itself after 4 rows: uniform, no walk.
    expect(fill(orbits, 512, 2048, 64, 8, 4)).toBe(true);
    expect(orbits.uniform).toBe(true);
    expect(partnerSpans(orbits, 4, spans)).toBe(false);
  });

  it("decide only what the partner counts confirm: no access misses, or every one does (fast-check)", () => {
    const orbits = new ReturnOrbits();
    const spans = new PartnerSpans();
    let none = 0;
    let all = 0;
    fc.assert(
      fc.property(sweep, fc.double({ min: 0.6, max: 1.4, noNaN: true }), fc.boolean(), (point, scale, shorter) => {
        const rows = filledSpans(point, orbits, spans);
        if (rows === undefined) return;
        const { B, e, A } = point;
        const { R, P } = rows;
        // A column near where the decision turns: `last` around the spans, rows up to `last` or one fewer.
        const last = Math.max(1, Math.round(scale * (shorter ? spans.shortestWidened : spans.longestNarrowed)));
        if (last > 5000) return;
        const top = shorter ? last : last - 1;
        const decidesNone = spans.shortestWidened > last;
        const decidesAll = spans.longestNarrowed <= last + 1;
        if (!decidesNone && !decidesAll) return;
        if (decidesNone) none++;
        if (decidesAll) all++;
        for (let p = e; p < B; p += e) {
          const partners = partnersByRow(R, P, B, e, p, last).slice(0, top + 1);
          const where = `R=${R} P=${P} B=${B} e=${e} A=${A} last=${last} byte ${p}`;
          if (decidesNone) expect(Math.max(...partners), where).toBeLessThan(A);
          if (decidesAll) expect(Math.min(...partners), where).toBeGreaterThanOrEqual(A);
        }
      }),
      { numRuns: 1000, seed: 9 },
    );
    expect(none).toBeGreaterThan(100);
    expect(all).toBeGreaterThan(50);
  });
});
