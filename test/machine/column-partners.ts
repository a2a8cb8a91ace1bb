import fc from "fast-check";
import { rotationEntries } from "../../machine/node/modular.js";
import { fillReturnOrbits, type ReturnOrbits } from "../../machine/node/return-lists.js";

/** Fills `orbits` for rows `R` bytes apart modulo the set period `P`, as `column-reuse.ts` does. */
export function fillForRows(orbits: ReturnOrbits, R: number, P: number, B: number, e: number, A: number): boolean {
  const r = new Float64Array(4);
  rotationEntries(R % P, P, B, r);
  const dn = r[1] === 0 ? [r[0], 0, -1, 0] : [r[2], r[3], r[0], r[1]];
  return fillReturnOrbits(orbits, r[0], r[1], r[2], r[3], dn[0], dn[1], dn[2], dn[3], B, e, A);
}

/**
 * Partners in its set of the access at byte `p` of a line, for each row `i <= last` of a column
 * whose later partners reach row `last`, from the definition in `column-reuse.ts`: earlier rows
 * `i - k` (this column) whose byte lands in the line, later rows `i + k` (the previous column,
 * one element back) whose byte does. Rows are `R` bytes apart modulo the set period `P`.
 */
export function partnersByRow(R: number, P: number, B: number, e: number, p: number, last: number): number[] {
  const earlier = [0];
  const later = [0];
  for (let k = 1; k <= last; k++) {
    earlier.push(earlier[k - 1] + ((((p - k * R) % P) + P) % P < B ? 1 : 0));
    later.push(later[k - 1] + ((p - e + k * R) % P < B ? 1 : 0));
  }
  return Array.from({ length: last + 1 }, (_, i) => earlier[i] + later[last - i]);
}

/** A one-array column sweep of the bound tests: line `B`, element `e`, `sets` sets, rows `s` elements long, `A` ways, last row `last`. */
export interface SweepCase {
  readonly B: number;
  readonly e: number;
  readonly sets: number;
  readonly s: number;
  readonly A: number;
  readonly last: number;
}

/** Sweeps over the given element sizes and set counts, up to `maxLast` rows. */
export function sweepCases(elementSizes: readonly number[], setCounts: readonly number[], maxLast: number): fc.Arbitrary<SweepCase> {
  return fc.record({
    B: fc.constantFrom(32, 64, 128),
    e: fc.constantFrom(...elementSizes),
    sets: fc.constantFrom(...setCounts),
    s: fc.integer({ min: 2, max: 3000 }),
    A: fc.constantFrom(1, 2, 4, 8),
    last: fc.integer({ min: 1, max: maxLast }),
  });
}

/**
 * Runs `check` on every sweep of `cases` (rows `R = s*e mod P` bytes apart, `P = B * sets`, with
 * the rotation's entries in `r`) that `decides` decides; returns how many it decided.
 */
export function checkDecidedSweeps(
  cases: fc.Arbitrary<SweepCase>,
  run: { numRuns: number; seed: number },
  decides: (c: SweepCase, R: number, P: number, r: Float64Array) => boolean,
  check: (c: SweepCase, R: number, P: number) => void,
): number {
  const r = new Float64Array(4);
  let decided = 0;
  fc.assert(
    fc.property(cases, (c) => {
      const P = c.B * c.sets;
      const R = (c.s * c.e) % P;
      if (R === 0 || c.e >= c.B) return;
      rotationEntries(R, P, c.B, r);
      if (!decides(c, R, P, r)) return;
      decided++;
      check(c, R, P);
    }),
    run,
  );
  return decided;
}
