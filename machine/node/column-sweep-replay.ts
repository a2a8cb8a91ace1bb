/**
 * Exact replay of a column sweep that skips repeated columns.
 *
 * A strided pass (see `kernel.ts`) visits column `c` as the addresses `a*span + i*R + c*e` for
 * every row `i` and array `a` (`R = s*e` bytes per row). Let `g` be the gcd of `R`, `span` and
 * every level's sector (fill unit, the TLB's page): every row starts at a multiple of `g`, and every
 * sector boundary is a multiple of `g`. So when no multiple of `g` lies in `((c-1)e, ce]`, no
 * address of column `c` crosses a sector boundary of any level from its address in column `c-1`:
 * both columns present every cache with the same sequence of (line, sector) pairs. A run of such
 * columns shares one sequence.
 *
 * The hierarchy is a deterministic machine. If replaying a run's column leaves the whole state
 * (tags and sector masks in recency order of every level and the TLB) exactly as the previous
 * column left it, then every further column of the run starts from that same state with the same
 * input, so it produces the same misses and leaves the same state: those columns are accounted by
 * multiplying the last column's counts instead of replaying them. Nothing is approximated; the
 * differential tests check the counts against a plain replay.
 *
 * @packageDocumentation
 */
import { gcd } from "./modular.js";
import type { SetAssociativeCache } from "./reference-cache.js";

/** A cache hierarchy as the column replay sees it: the TLB and the levels, and one access through all. */
export interface ColumnSweepTarget {
  /** Levels, innermost first. */
  readonly levels: readonly SetAssociativeCache[];
  /** The TLB. */
  readonly tlb: SetAssociativeCache;
  /** One access at `address` (bytes) through the TLB and the levels. */
  access(address: number): void;
}

/** Per-hierarchy buffers of the skipping replay (allocated once per hierarchy, not per pass). */
export class ColumnSweepScratch {
  /** State after the previous column and after the current one (swapped, not copied). */
  private before: Float64Array;
  private after: Float64Array;
  /** Accesses and misses of each cache (TLB first) at the start of the current column. */
  readonly counts: Float64Array;
  readonly caches: readonly SetAssociativeCache[];
  readonly stateLength: number;

  constructor(target: ColumnSweepTarget) {
    this.caches = [target.tlb, ...target.levels];
    this.stateLength = this.caches.reduce((n, c) => n + c.stateLength, 0);
    this.before = new Float64Array(this.stateLength);
    this.after = new Float64Array(this.stateLength);
    this.counts = new Float64Array(2 * this.caches.length);
  }

  /** Records the current state as the state after the previous column. */
  saveBefore(): void {
    this.write(this.before);
  }

  /** Records the current state and tells whether it equals the saved one (then keeps it saved). */
  stateRepeats(): boolean {
    this.write(this.after);
    const a = this.before;
    const b = this.after;
    let same = true;
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) {
        same = false;
        break;
      }
    }
    this.before = b;
    this.after = a;
    return same;
  }

  /** Remembers every cache's counters (the start of a column). */
  markCounts(): void {
    const caches = this.caches;
    for (let k = 0; k < caches.length; k++) {
      this.counts[2 * k] = caches[k].accesses;
      this.counts[2 * k + 1] = caches[k].misses;
    }
  }

  /** Adds `times` more copies of every cache's counts since {@link markCounts}. */
  repeatCounts(times: number): void {
    const caches = this.caches;
    for (let k = 0; k < caches.length; k++) {
      caches[k].accesses += times * (caches[k].accesses - this.counts[2 * k]);
      caches[k].misses += times * (caches[k].misses - this.counts[2 * k + 1]);
    }
  }

  private write(out: Float64Array): void {
    let at = 0;
    for (const c of this.caches) {
      c.writeState(out, at);
      at += c.stateLength;
    }
  }
}

/** Replays column `c` of the sweep: rows `i` with `i*s + c < q`, every array. */
function replayColumn(h: ColumnSweepTarget, q: number, e: number, s: number, rows: number, arrays: number, span: number, c: number): void {
  for (let i = 0; i < rows; i++) {
    const j = i * s + c;
    if (j >= q) continue;
    const address = j * e;
    for (let a = 0; a < arrays; a++) h.access(a * span + address);
  }
}

/**
 * Replays one pass of a column sweep (`q` elements of `e` bytes per array, rows of `s` elements,
 * `arrays` arrays `span` bytes apart) through `h`, with exactly the counts and final state of the
 * plain column-by-column replay.
 */
export function replayColumnSweep(h: ColumnSweepTarget, scratch: ColumnSweepScratch, q: number, e: number, s: number, arrays: number, span: number): void {
  const rows = Math.ceil(q / s);
  // Columns before lastRow have `rows` rows, the others one fewer: a change of sequence.
  const lastRow = q - (rows - 1) * s;
  let g = gcd(s * e, arrays > 1 ? span : s * e);
  for (const c of scratch.caches) g = gcd(g, c.geometry.sector);
  // A compare of the whole state (about 1 ns per number) must be paid back by the columns it lets
  // us skip (tens of ns per access).
  const minSkipped = scratch.stateLength / (32 * rows * arrays);
  let c = 0;
  while (c < s) {
    // End of the run of columns sharing column c's sequence: the next column whose offset
    // crosses a multiple of g, or the first column with one row fewer.
    let end = g > e && Number.isInteger(g) ? Math.min(s, Math.ceil(((Math.floor((c * e) / g) + 1) * g) / e)) : c + 1;
    if (c < lastRow && lastRow < end) end = lastRow;
    replayColumn(h, q, e, s, rows, arrays, span, c++);
    if (end - c <= 1 || end - c < minSkipped) {
      while (c < end) replayColumn(h, q, e, s, rows, arrays, span, c++);
      continue;
    }
    // Replay until a column leaves the state as it found it (usually the second), then skip.
    scratch.saveBefore();
    // A few attempts: a state that keeps changing (a slow LRU rotation) is just replayed.
    let attempts = 4;
    while (c < end) {
      scratch.markCounts();
      replayColumn(h, q, e, s, rows, arrays, span, c++);
      if (c === end) break;
      if (scratch.stateRepeats()) {
        scratch.repeatCounts(end - c);
        c = end;
      } else if (--attempts === 0) {
        while (c < end) replayColumn(h, q, e, s, rows, arrays, span, c++);
      }
    }
  }
}
