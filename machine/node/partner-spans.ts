/**
 * Whether every continuation of a column sweep hits, or every one misses, decided from the orbit
 * sums of `return-lists.ts` before any offset is counted.
 *
 * In `column-reuse.ts` the access at offset `p` of row `i` misses iff `A` or more of its partners
 * share its set: earlier ones, the backward returns of `p` to the line `[0, B)` within `i` rows,
 * and later ones, the forward returns of `p - e` to the line within `last - i` rows (`e` the element
 * size, one position: the spans hold only for elements whose size is the position unit), which are the
 * returns of `p` itself to `[e, B + e)`. So every partner is a visit of `p`'s orbit to the widened
 * window `[0, B + e)` (positions `0..W`), every visit to the narrowed window `[e, B)` (positions
 * `1..W-1`) is a partner on either side, and all partners of a row lie in a span of `last + 1`
 * rows that holds the access itself (a visit to the narrowed window). Hence:
 * - no access misses when no `last + 1` consecutive rows hold `A + 1` widened visits, that is when
 *   the shortest span of `A + 1` consecutive widened visits exceeds `last` rows;
 * - every access misses when any `last + 1` consecutive rows hold `A + 1` narrowed visits, that is
 *   when no narrowed visit is more than `last + 1` rows before its `(A + 1)`-th successor.
 *
 * The usual rotation's fill records both kinds of visit for the orbit of position 0
 * (`widenedTimes`, `narrowedTimes`). When the rotation's steps are multiples of
 * `G` elements, the other residues modulo `G` keep to the window's own positions, `0..W-1` in
 * both cases: their spans lie between these two, so these decide for every offset. Why: for some
 * of the sweeps that reach the orbit sums the answer is all or nothing (those that
 * `partner-lattice.ts` and `line-rotation.ts` leave undecided, one in seven in the cache
 * benchmark's strided classes), and these spans cost one pass over one period instead of a count
 * per offset and column group.
 *
 * @packageDocumentation
 */
import { narrowedTimes, widenedTimes, type ReturnOrbits } from "./return-lists.js";

// The visit times under this module's own constants. Why: V8 compiles a module's own constant
// typed array into its code, but reads an imported one through the import's cell and checks its
// map and length again at every element.
const widenedVisitTimes = widenedTimes;
const narrowedVisitTimes = narrowedTimes;

/** Extreme spans (rows) found by {@link partnerSpans}. */
export class PartnerSpans {
  /** Fewest rows from the first to the last of `A + 1` consecutive visits to the widened window. */
  shortestWidened = 0;
  /** Most rows from a visit to the narrowed window to its `(A + 1)`-th successor there. */
  longestNarrowed = 0;
}

/**
 * Fills `spans` from the visits the last fill of `orbits` recorded.
 * @param A - ways (`<= MAX_RETURNS`)
 * @returns false (spans unknown) when the fill recorded no visits
 */
export function partnerSpans(orbits: ReturnOrbits, A: number, spans: PartnerSpans): boolean {
  const nw = orbits.widenedVisits;
  if (nw === 0) return false;
  const widened = widenedVisitTimes;
  const narrowed = narrowedVisitTimes;
  const period = orbits.period;
  // Later periods: each visit one period after the one a period of visits before it.
  for (let j = 0; j < A; j++) widened[nw + j] = widened[j] + period;
  let shortest = 0x3fffffff;
  for (let j = 0; j < nw; j++) {
    // min and max by sign masks (int32 spans below 2^30). Why: which span is the extreme varies
    // from visit to visit, a branch that mispredicts.
    const d = widened[j + A] - widened[j] - shortest;
    shortest += d & (d >> 31);
  }
  const nn = orbits.narrowedVisits;
  let longest = 0x3fffffff;
  if (nn > 0) {
    for (let j = 0; j <= A; j++) narrowed[nn + j] = narrowed[j] + period;
    longest = 0;
    for (let j = 0; j < nn; j++) {
      const d = narrowed[j + A + 1] - narrowed[j] - longest;
      longest += d & ~(d >> 31);
    }
  }
  spans.shortestWidened = shortest;
  spans.longestNarrowed = longest;
  return true;
}
