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

function ensurePages(pages: number): void {
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

/** The pass's page stream through a fully associative LRU list of `A` entries; misses of the second pass. */
function followPages(B: number, A: number, q: number, e: number, arrays: number, stride: number, arrayBytes: number): number {
  const range = Math.floor(((arrays - 1) * arrayBytes + (q - 1) * e) / B) + 1;
  ensurePages(range);
  // Only the residency flags are cleared: a page's links are written when it enters the list,
  // before they are read, so the links a previous call left behind are never followed.
  resident.fill(0, 0, range);
  let head = -1;
  let tail = -1;
  let size = 0;
  let misses = 0;
  const s = stride >= 1 ? stride : 1;
  const rows = Math.ceil(q / s);
  // Why page numbers are recomputed per access rather than per array base: the skew leaves bases
  // inside a page, and an element's page is that of its first byte.
  for (let pass = 0; pass < 2; pass++) {
    for (let c = 0; c < s; c++) {
      for (let i = 0; i < rows; i++) {
        const j = i * s + c;
        if (j >= q) break;
        for (let a = 0; a < arrays; a++) {
          const p = Math.floor((a * arrayBytes + j * e) / B);
          if (p === head) continue;
          if (resident[p] === 1) {
            // Unlink, then push to the front.
            const pp = prev[p];
            const np = next[p];
            if (pp >= 0) next[pp] = np;
            if (np >= 0) prev[np] = pp;
            else tail = pp;
          } else {
            if (pass === 1) misses++;
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
      }
    }
  }
  return misses;
}
