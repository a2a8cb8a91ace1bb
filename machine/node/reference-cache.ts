/**
 * The trace-driven reference: set-associative LRU caches (with sectors) that replay a kernel's
 * actual address stream. It is the judge of the analytical model, and a scenario can choose it
 * for small kernels. State lives in preallocated typed arrays; replay allocates nothing.
 *
 * @packageDocumentation
 */
import type { CacheGeometry } from "./geometry.js";
import { arrayBase, type KernelSpec } from "./kernel.js";

/** One set-associative LRU cache with sectored lines. Addresses are byte addresses. */
export class SetAssociativeCache {
  // Fully associative caches with many ways (TLBs) use a hash table and an LRU list instead of a scan.
  private readonly fully: FullyAssociativeLru | undefined;
  /** Geometry it was built with. */
  readonly geometry: CacheGeometry;
  private readonly sets: number;
  private readonly assoc: number;
  private readonly line: number;
  private readonly sector: number;
  // Typed arrays instead of objects per way: the replay loop touches them millions of times.
  private readonly tags: Float64Array;
  private readonly stamps: Float64Array;
  private readonly masks: Uint32Array;
  // Lines, sectors and (usually) set counts are powers of two: multiply by inverses and mask.
  private readonly invLine: number;
  private readonly invSector: number;
  private readonly setMask: number;
  private clock = 0;
  private lastLine = -1;
  private lastWay = -1;
  /** Accesses since the last {@link reset}. */
  accesses = 0;
  /** Sector fills (misses) since the last {@link reset}. */
  misses = 0;

  /**
   * @throws RangeError when a line holds more than 32 sectors
   */
  constructor(geometry: CacheGeometry) {
    this.geometry = geometry;
    this.sets = geometry.sets;
    this.assoc = geometry.assoc;
    this.line = geometry.line;
    this.sector = geometry.sector;
    this.invLine = 1 / geometry.line;
    this.invSector = 1 / geometry.sector;
    this.setMask = (geometry.sets & (geometry.sets - 1)) === 0 ? geometry.sets - 1 : -1;
    if (geometry.line / geometry.sector > 32) throw new RangeError(`a line of ${geometry.line} bytes has more than 32 sectors of ${geometry.sector} bytes`);
    const ways = geometry.sets * geometry.assoc;
    this.tags = new Float64Array(ways);
    this.stamps = new Float64Array(ways);
    this.masks = new Uint32Array(ways);
    this.fully = geometry.sets === 1 && geometry.assoc > 16 && geometry.sector === geometry.line ? new FullyAssociativeLru(geometry.assoc) : undefined;
    this.reset();
  }

  /** Empties the cache and zeroes its statistics. */
  reset(): void {
    this.tags.fill(-1);
    this.stamps.fill(-1);
    this.masks.fill(0);
    this.clock = 0;
    this.lastLine = -1;
    this.lastWay = -1;
    this.accesses = 0;
    this.misses = 0;
    this.fully?.reset();
  }

  /**
   * Accesses the byte at `address`.
   * @returns true on a miss (the sector had to be filled)
   */
  access(address: number): boolean {
    this.accesses++;
    const lineNo = Math.floor(address * this.invLine);
    const bit = 1 << Math.floor((address - lineNo * this.line) * this.invSector);
    // Fast path: the same line as the previous access is already most recently used.
    if (lineNo === this.lastLine && (this.masks[this.lastWay] & bit) !== 0) return false;
    if (this.fully !== undefined) {
      this.lastLine = lineNo;
      this.lastWay = 0;
      this.masks[0] = 0xffffffff;
      if (this.fully.touch(lineNo)) return false;
      this.misses++;
      return true;
    }
    const base = (this.setMask >= 0 && lineNo < 2147483648 ? lineNo & this.setMask : lineNo % this.sets) * this.assoc;
    const end = base + this.assoc;
    const stamp = ++this.clock;
    let victim = base;
    let oldest = Infinity;
    for (let w = base; w < end; w++) {
      if (this.tags[w] === lineNo) {
        this.stamps[w] = stamp;
        this.lastLine = lineNo;
        this.lastWay = w;
        if ((this.masks[w] & bit) !== 0) return false;
        this.masks[w] |= bit;
        this.misses++;
        return true;
      }
      const s = this.stamps[w];
      if (s < oldest) {
        oldest = s;
        victim = w;
      }
    }
    this.tags[victim] = lineNo;
    this.stamps[victim] = stamp;
    this.masks[victim] = bit;
    this.lastLine = lineNo;
    this.lastWay = victim;
    this.misses++;
    return true;
  }
}

/**
 * A fully associative LRU of unsectored lines: an open-addressing hash table (line -> slot) and a
 * doubly linked recency list over slots, all in typed arrays. O(1) per access.
 * @internal
 */
class FullyAssociativeLru {
  private readonly keys: Float64Array;
  private readonly table: Int32Array;
  private readonly prev: Int32Array;
  private readonly next: Int32Array;
  private readonly mask: number;
  private used = 0;
  private head = -1;
  private tail = -1;

  constructor(private readonly capacity: number) {
    this.keys = new Float64Array(capacity);
    this.prev = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    let size = 1;
    while (size < capacity * 4) size <<= 1;
    this.table = new Int32Array(size);
    this.mask = size - 1;
  }

  reset(): void {
    this.table.fill(-1);
    this.used = 0;
    this.head = -1;
    this.tail = -1;
  }

  private slotOf(key: number): number {
    let h = (Math.imul(key | 0, 0x9e3779b1) ^ ((key / 4294967296) | 0)) & this.mask;
    for (;;) {
      const s = this.table[h];
      if (s < 0 || this.keys[s] === key) return h;
      h = (h + 1) & this.mask;
    }
  }

  private unlink(s: number): void {
    const p = this.prev[s];
    const n = this.next[s];
    if (p >= 0) this.next[p] = n;
    else this.head = n;
    if (n >= 0) this.prev[n] = p;
    else this.tail = p;
  }

  private pushFront(s: number): void {
    this.prev[s] = -1;
    this.next[s] = this.head;
    if (this.head >= 0) this.prev[this.head] = s;
    this.head = s;
    if (this.tail < 0) this.tail = s;
  }

  /** Touches `key`; true on a hit. */
  touch(key: number): boolean {
    const h = this.slotOf(key);
    const found = this.table[h];
    if (found >= 0) {
      if (found !== this.head) {
        this.unlink(found);
        this.pushFront(found);
      }
      return true;
    }
    let s: number;
    if (this.used < this.capacity) s = this.used++;
    else {
      s = this.tail;
      this.unlink(s);
      this.remove(this.keys[s]);
    }
    this.keys[s] = key;
    this.table[this.slotOf(key)] = s;
    this.pushFront(s);
    return false;
  }

  /** Deletes `key` from the hash table (backward-shift deletion keeps probe chains intact). */
  private remove(key: number): void {
    let h = this.slotOf(key);
    this.table[h] = -1;
    let j = (h + 1) & this.mask;
    while (this.table[j] >= 0) {
      const s = this.table[j];
      const k = this.keys[s];
      const ideal = (Math.imul(k | 0, 0x9e3779b1) ^ ((k / 4294967296) | 0)) & this.mask;
      // Move the entry back if its ideal slot is not cyclically within (h, j].
      if ((j > h && (ideal <= h || ideal > j)) || (j < h && ideal <= h && ideal > j)) {
        this.table[h] = s;
        this.table[j] = -1;
        h = j;
      }
      j = (j + 1) & this.mask;
    }
  }
}

/**
 * A cache hierarchy plus a TLB replaying address streams: level k+1 sees the misses of level k;
 * the TLB sees every access.
 */
export class ReferenceHierarchy {
  /** Levels, innermost first. */
  readonly levels: readonly SetAssociativeCache[];
  /** The TLB (a one-set cache of pages). */
  readonly tlb: SetAssociativeCache;
  private readonly snapshot: Float64Array;

  constructor(levels: readonly CacheGeometry[], tlb: CacheGeometry) {
    this.levels = levels.map((g) => new SetAssociativeCache(g));
    this.tlb = new SetAssociativeCache(tlb);
    this.snapshot = new Float64Array(levels.length + 2);
  }

  /** Empties every level and the TLB. */
  reset(): void {
    for (const l of this.levels) l.reset();
    this.tlb.reset();
  }

  /** One access at `address` (bytes) through the TLB and the levels. */
  access(address: number): void {
    this.tlb.access(address);
    const levels = this.levels;
    for (let k = 0; k < levels.length; k++) if (!levels[k].access(address)) return;
  }

  /**
   * Replays one pass of `kernel`'s address stream (see `kernel.ts`), starting from whatever the
   * caches hold. `rngState` seeds the random pattern's index sequence and the updated state is
   * returned (so consecutive passes draw different indices).
   */
  replayPass(kernel: KernelSpec, rngState = 0x2545f491): number {
    const q = kernel.elements;
    const e = kernel.elementSize;
    const arrays = kernel.arrays ?? 1;
    if (kernel.pattern === "random") {
      let x = rngState | 0 || 1;
      for (let i = 0; i < q; i++) {
        // xorshift32: a fixed, fast, seedable index sequence (the stream must be reproducible).
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        const j = Math.floor(((x >>> 0) / 4294967296) * q);
        for (let a = 0; a < arrays; a++) this.access(arrayBase(a, q, e) + j * e);
      }
      return x;
    }
    const s = kernel.pattern === "strided" ? Math.max(1, kernel.stride ?? 1) : 1;
    const rows = Math.ceil(q / s);
    const span = arrayBase(1, q, e);
    for (let c = 0; c < s; c++) {
      for (let i = 0; i < rows; i++) {
        const j = i * s + c;
        if (j >= q) continue;
        const address = j * e;
        for (let a = 0; a < arrays; a++) this.access(a * span + address);
      }
    }
    return rngState;
  }

  /**
   * Steady-state misses of one pass: empties the caches, replays one warm-up pass, then one
   * counted pass. Writes misses per level (innermost first) into `out[0..levels-1]` and TLB
   * misses into `out[levels]`.
   * @returns the number of accesses of the counted pass
   */
  steadyStateMisses(kernel: KernelSpec, out: Float64Array): number {
    this.reset();
    const state = this.replayPass(kernel);
    const n = this.levels.length;
    const snap = this.snapshot;
    for (let k = 0; k < n; k++) snap[k] = this.levels[k].misses;
    snap[n] = this.tlb.misses;
    snap[n + 1] = this.tlb.accesses;
    this.replayPass(kernel, state);
    for (let k = 0; k < n; k++) out[k] = this.levels[k].misses - snap[k];
    out[n] = this.tlb.misses - snap[n];
    return this.tlb.accesses - snap[n + 1];
  }
}
