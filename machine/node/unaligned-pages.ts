/**
 * Sweeps of several arrays through a one-set cache of large lines (the TLB: its lines are pages)
 * when the arrays are not aligned to the line. The kernel's arrays are padded to whole 4 KiB pages
 * and skewed by `ARRAY_SKEW` (`kernel.ts`: 17 lines of 128 bytes): every array starts on a line of up to
 * 128 bytes, but arrays after the first start inside a page. Each of them then touches one more
 * page than `ceil(bytes / page)` in most cases, and two arrays may share a page, so the pages of a
 * pass are counted from the addresses, not from the array size.
 *
 * With one set, a cyclic sweep keeps everything when its pages fit the entries. Just beyond that,
 * whether a page survives from one column to the next depends on which pages the column touches
 * in between: the first and last pages of the arrays hold only some columns, and pages of arrays
 * offset by less than a row fall inside one another's reuse window. In that band (a few pages per
 * array beyond the entries) the pass is counted exactly by following the pages of its address
 * stream through an LRU list; beyond it every column's first touch of a page misses and the
 * stride model's counts apply.
 *
 * @packageDocumentation
 */
import type { CacheGeometry } from "./geometry.js";

/**
 * Most accesses (two passes) followed page by page; longer streams keep the stride model's counts.
 * Why this bound: in the band just beyond the TLB's capacity the stride model can be wrong by most
 * of the accesses (it takes pages as aligned), so the band is followed exactly up to passes of a
 * million accesses, a few milliseconds per new kernel shape (the node model memoises shapes);
 * only the few multi-array kernels whose pages land in that band pay it.
 */
export const UNALIGNED_REPLAY_MAX_ACCESSES = 1 << 21;

// Recency list over page numbers (indices): grown on demand, reused across calls. Why typed
// arrays indexed by page: a pass touches a few hundred distinct pages, each millions of times.
let prev = new Int32Array(0);
let next = new Int32Array(0);
let resident = new Uint8Array(0);
/** Pages of the arrays at the current row of {@link followColumn}. */
let rowPages = new Int32Array(0);

function ensurePages(pages: number, arrays: number): void {
  if (rowPages.length < arrays) rowPages = new Int32Array(arrays);
  if (prev.length >= pages) return;
  prev = new Int32Array(pages);
  next = new Int32Array(pages);
  resident = new Uint8Array(pages);
}

/** Whether array bases `arrayBytes` apart start inside a line of `line` bytes (arrays after the first). */
export function arraysUnaligned(line: number, arrays: number, arrayBytes: number): boolean {
  return arrays > 1 && arrayBytes % line !== 0;
}

/** Distinct lines of `line` bytes holding the first byte of some element of the arrays. */
export function linesTouched(line: number, q: number, e: number, arrays: number, arrayBytes: number): number {
  let count = 0;
  let lastEnd = -1;
  for (let a = 0; a < arrays; a++) {
    const base = a * arrayBytes;
    // Elements are narrower than a line here (the caller checks e < line): no line is skipped.
    const first = Math.floor(base / line);
    const last = Math.floor((base + (q - 1) * e) / line);
    count += last - first + 1 - (first === lastEnd ? 1 : 0);
    lastEnd = last;
  }
  return count;
}

/**
 * Misses of one steady-state pass of a sequential (`stride` 1) or column sweep (`stride` s) of
 * `arrays` arrays through a one-set LRU cache whose sector is its line, or -1 when this does not
 * apply (several sets, sectors, elements not narrower than the line, arrays aligned to the line,
 * or a pass too long to follow: the caller's model then applies). Exact: 0 when the pages fit the
 * ways; in the band just beyond, the pass's pages followed through an LRU list (the second of two
 * passes counted); beyond the band -1 (every page the caller's model counts as thrashing does).
 */
export function unalignedOneSetMisses(g: CacheGeometry, q: number, e: number, arrays: number, stride: number, arrayBytes: number): number {
  const B = g.line;
  if (g.sets !== 1 || g.sector !== B || e >= B || !arraysUnaligned(B, arrays, arrayBytes)) return -1;
  const pages = linesTouched(B, q, e, arrays, arrayBytes);
  const A = g.assoc;
  if (pages <= A) return 0;
  // Beyond the band every page misses at each column's first touch of it: a page is kept only
  // while fewer than A others are touched before its reuse, and at most the first and last pages
  // of each array, and one page of each other array, fall outside that window.
  if (pages > A + 4 * arrays + 4 || 2 * q * arrays > UNALIGNED_REPLAY_MAX_ACCESSES || A <= 2 * arrays) return -1;
  return followPages(B, A, q, e, arrays, stride, arrayBytes);
}

/**
 * The pass's page stream through a fully associative LRU list of `A` entries; misses of the second pass.
 *
 * The stream is followed column by column (a column: element `c`, `c + stride`, ... of every
 * array), and two shortcuts skip work that changes nothing (why: following every access was a
 * tenth of a shock run's CPU time; the skips give the same counts, tested against the full replay):
 * - rows: while every array stays in its page, a row touches the pages the row before touched,
 *   in the same order, and changes neither the list nor the misses (those pages are all resident:
 *   fewer than `A`, as `A > 2 * arrays`);
 * - columns: the same page sequence followed twice from any list leaves the list as once did (it
 *   puts the sequence's pages, most recent first, ahead of the others, or keeps only its last `A`).
 *   So when columns `c`, `c + 1`, ... touch the same page sequence, the list after `c + 1` is the
 *   list after `c`, and every later column of the run starts from it: each has the misses of `c + 1`.
 */
function followPages(B: number, A: number, q: number, e: number, arrays: number, stride: number, arrayBytes: number): number {
  const range = Math.floor(((arrays - 1) * arrayBytes + (q - 1) * e) / B) + 1;
  ensurePages(range, arrays);
  // Only the residency flags are cleared: a page's links are written when it enters the list,
  // before they are read, so the links a previous call left behind are never followed.
  resident.fill(0, 0, range);
  const list: PageList = { head: -1, tail: -1, size: 0, capacity: A, sequenceEnd: 0 };
  const s = stride >= 1 ? stride : 1;
  // Columns before `shortFrom` have one row more than the others (q is not a multiple of s).
  const shortFrom = q % s;
  let misses = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let c = 0; c < s; ) {
      const first = followColumn(B, q, e, arrays, s, arrayBytes, c, list);
      // First column after c that touches another page sequence (a row fewer counts).
      let change = list.sequenceEnd < s ? list.sequenceEnd : s;
      if (c < shortFrom && shortFrom < change) change = shortFrom;
      if (change > c + 1) {
        const second = followColumn(B, q, e, arrays, s, arrayBytes, c + 1, list);
        // Columns c + 2 .. change - 1 (same sequence, same list): the misses of c + 1 each, no change to the list.
        if (pass === 1) misses += first + second * (change - c - 1);
        c = change;
      } else {
        if (pass === 1) misses += first;
        c++;
      }
    }
  }
  return misses;
}

/** The LRU list's ends and fill; the links are the module's `prev` and `next`, indexed by page. */
interface PageList {
  head: number;
  tail: number;
  size: number;
  readonly capacity: number;
  /** Set by {@link followColumn}: the first later column whose page sequence differs from the column followed (some element crosses into its next page). */
  sequenceEnd: number;
}

/** Follows column `c` through `list`; returns its misses (first touches of pages not in the list) and sets `list.sequenceEnd`. */
function followColumn(B: number, q: number, e: number, arrays: number, s: number, arrayBytes: number, c: number, list: PageList): number {
  const rows = Math.ceil((q - c) / s);
  const rowBytes = s * e;
  const columnBytes = c * e;
  const A = list.capacity;
  let head = list.head;
  let tail = list.tail;
  let size = list.size;
  let misses = 0;
  let sequenceEnd = Infinity;
  for (let i = 0; i < rows; ) {
    const j = i * s + c;
    // First row after i at which some array's element lies in a later page.
    let nextRow = rows;
    for (let a = 0; a < arrays; a++) {
      // Why page numbers are recomputed per access rather than per array base: the skew leaves
      // bases inside a page, and an element's page is that of its first byte.
      const p = Math.floor((a * arrayBytes + j * e) / B);
      rowPages[a] = p;
      // Exact in doubles: all operands are integers below 2^53, so the ceiling of the quotient is the true one.
      const pageEndRow = Math.ceil(((p + 1) * B - a * arrayBytes - columnBytes) / rowBytes);
      if (pageEndRow < nextRow) nextRow = pageEndRow;
      if (p === head) continue;
      if (resident[p] === 1) {
        // Unlink, then push to the front.
        const pp = prev[p];
        const np = next[p];
        if (pp >= 0) next[pp] = np;
        if (np >= 0) prev[np] = pp;
        else tail = pp;
      } else {
        misses++;
        resident[p] = 1;
        size++;
      }
      prev[p] = -1;
      next[p] = head;
      if (head >= 0) prev[head] = p;
      head = p;
      if (tail < 0) tail = p;
      if (size > A) {
        const t = tail;
        tail = prev[t];
        next[tail] = -1;
        resident[t] = 0;
        size--;
      }
    }
    // Rows i .. last touch the same pages; of them the last row's elements, the furthest into
    // their pages, are the first to cross into the next page as the column moves on.
    const last = (nextRow < rows ? nextRow : rows) - 1;
    for (let a = 0; a < arrays; a++) {
      const crossAt = Math.ceil(((rowPages[a] + 1) * B - a * arrayBytes - last * rowBytes) / e);
      if (crossAt < sequenceEnd) sequenceEnd = crossAt;
    }
    i = nextRow;
  }
  list.head = head;
  list.tail = tail;
  list.size = size;
  list.sequenceEnd = sequenceEnd;
  return misses;
}
