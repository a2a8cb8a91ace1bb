/**
 * The trace-driven reference: set-associative LRU caches (with sectors) that replay a kernel's
 * actual address stream. It is the judge of the analytical model, and a scenario can choose it
 * for small kernels. State lives in preallocated typed arrays; replay allocates nothing. Column
 * sweeps count the columns that repeat the previous column's accesses and state instead of
 * replaying them (`column-sweep-replay.ts`; exact, every access is counted at every level).
 *
 * @packageDocumentation
 */
import type { CacheGeometry } from "./geometry.js";
import { arrayBase, type KernelSpec } from "./kernel.js";
import { ColumnSweepScratch, replayColumnSweep } from "./column-sweep-replay.js";

/** One set-associative LRU cache with sectored lines. Addresses are byte addresses. */
export class SetAssociativeCache {
  // Fully associative caches with many ways (TLBs) use a hash table and an LRU list instead of a scan.
  private readonly fully: FullyAssociativeLru | undefined;
  /** Geometry it was built with. */
  readonly geometry: CacheGeometry;
  private readonly sets: number;
  private readonly assoc: number;
  private readonly line: number;
  // Per set, `assoc` ways in recency order (most recent first): tag (line number) and sector mask.
  // Typed arrays instead of objects per way: the replay loop touches them millions of times.
  private readonly tags: Float64Array;
  private readonly masks: Int32Array;
  // Lines, sectors and (usually) set counts are powers of two: shift and mask instead of divide.
  private readonly lineShift: number;
  private readonly sectorShift: number;
  private readonly invLine: number;
  private readonly invSector: number;
  private readonly setMask: number;
  // Addresses below this use the shift path (2^31, or 0 when line or sector is not a power of two).
  private readonly shiftLimit: number;
  private readonly sectorIndexMask: number;
  private lastLine = -1;
  private lastBase = 0;
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
    this.invLine = 1 / geometry.line;
    this.invSector = 1 / geometry.sector;
    const lineShift = Math.log2(geometry.line);
    const sectorShift = Math.log2(geometry.sector);
    // Small integers (V8 Smis), or -1 when the division path is needed.
    this.lineShift = Number.isInteger(lineShift) && lineShift <= 30 ? lineShift | 0 : -1;
    this.sectorShift = Number.isInteger(sectorShift) && sectorShift <= 30 ? sectorShift | 0 : -1;
    this.shiftLimit = this.lineShift >= 0 && this.sectorShift >= 0 ? 2147483648 : 0;
    this.sectorIndexMask = geometry.line / geometry.sector - 1;
    this.setMask = (geometry.sets & (geometry.sets - 1)) === 0 ? geometry.sets - 1 : -1;
    if (geometry.line / geometry.sector > 32) throw new RangeError(`a line of ${geometry.line} bytes has more than 32 sectors of ${geometry.sector} bytes`);
    const ways = geometry.sets * geometry.assoc;
    this.tags = new Float64Array(ways);
    this.masks = new Int32Array(ways);
    this.fully = geometry.sets === 1 && geometry.assoc > 16 && geometry.sector === geometry.line ? new FullyAssociativeLru(geometry.assoc) : undefined;
    this.reset();
  }

  /** Empties the cache and zeroes its statistics. */
  reset(): void {
    this.tags.fill(-1);
    this.masks.fill(0);
    this.lastLine = -1;
    this.lastBase = 0;
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
    // Small enough for V8 to inline into the replay loop: a repeat of the last line's sector
    // (7 of 8 accesses of a sequential sweep) costs a shift and a compare.
    if (address < this.shiftLimit && address >>> this.lineShift === this.lastLine) {
      const bit = 1 << ((address >>> this.sectorShift) & this.sectorIndexMask);
      if ((this.masks[this.lastBase] & bit) !== 0) return false;
    }
    return this.fill(address);
  }

  /** The rest of {@link access} (its statistics already counted). */
  private fill(address: number): boolean {
    let lineNo: number;
    let bit: number;
    // Addresses below 2^31: integer shifts instead of floating-point division and floor.
    if (address < this.shiftLimit) {
      lineNo = address >>> this.lineShift;
      bit = 1 << ((address >>> this.sectorShift) - (lineNo << (this.lineShift - this.sectorShift)));
    } else {
      lineNo = Math.floor(address * this.invLine);
      bit = 1 << Math.floor((address - lineNo * this.line) * this.invSector);
    }
    // Fast path: the line of the previous access is its set's most recent way.
    if (lineNo === this.lastLine) {
      const m = this.masks[this.lastBase];
      if ((m & bit) !== 0) return false;
      this.masks[this.lastBase] = m | bit;
      this.misses++;
      return true;
    }
    this.lastLine = lineNo;
    if (this.fully !== undefined) {
      this.lastBase = 0;
      this.masks[0] = -1;
      if (this.fully.touch(lineNo)) return false;
      this.misses++;
      return true;
    }
    const tags = this.tags;
    const masks = this.masks;
    const base = (this.setMask >= 0 && lineNo < 2147483648 ? lineNo & this.setMask : lineNo % this.sets) * this.assoc;
    this.lastBase = base;
    if (tags[base] === lineNo) {
      const m = masks[base];
      if ((m & bit) !== 0) return false;
      masks[base] = m | bit;
      this.misses++;
      return true;
    }
    const end = base + this.assoc - 1;
    // Find the way (or take the least recent one), then move it to the front.
    let w = base + 1 > end ? end : base + 1;
    while (w < end && tags[w] !== lineNo) w++;
    const hit = tags[w] === lineNo;
    const m = hit ? masks[w] : 0;
    for (let v = w; v > base; v--) {
      tags[v] = tags[v - 1];
      masks[v] = masks[v - 1];
    }
    tags[base] = lineNo;
    if (hit && (m & bit) !== 0) {
      masks[base] = m;
      return false;
    }
    masks[base] = m | bit;
    this.misses++;
    return true;
  }

  /** Numbers {@link writeState} writes: everything future accesses depend on. @internal */
  get stateLength(): number {
    return 2 * this.tags.length + 2 + (this.fully === undefined ? 0 : this.fully.stateLength);
  }

  /**
   * Writes the cache's replacement state (tags and sector masks in recency order, the last line)
   * into `out[at..at + stateLength)`, so that two moments can be compared. @internal
   */
  writeState(out: Float64Array, at: number): void {
    out.set(this.tags, at);
    at += this.tags.length;
    out.set(this.masks, at);
    at += this.masks.length;
    out[at++] = this.lastLine;
    out[at++] = this.lastBase;
    this.fully?.writeState(out, at);
  }
}

/**
 * A fully associative LRU of unsectored lines: a line -> slot index and a doubly linked recency
 * list over slots, all in typed arrays. O(1) per access. Line numbers below {@link DIRECT_LIMIT}
 * (every kernel stream short of 32 GiB of 4 KiB pages) are looked up in a directly indexed table,
 * grown on demand; larger ones in an open-addressing hash table.
 * @internal
 */
class FullyAssociativeLru {
  private readonly keys: Float64Array;
  private readonly table: Int32Array;
  private readonly prev: Int32Array;
  private readonly next: Int32Array;
  private readonly mask: number;
  // Direct index: slot + 1 of line k at direct[k] (0 = absent); a plain load instead of a hash probe.
  private direct = new Int32Array(1024);
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
    this.direct.fill(0);
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

  /** Slot holding `key`, or -1. */
  private find(key: number): number {
    if (key < DIRECT_LIMIT) return key < this.direct.length ? this.direct[key] - 1 : -1;
    return this.table[this.slotOf(key)];
  }

  private insert(key: number, s: number): void {
    if (key < DIRECT_LIMIT) {
      if (key >= this.direct.length) {
        let size = this.direct.length;
        while (size <= key) size *= 2;
        const grown = new Int32Array(size);
        grown.set(this.direct);
        this.direct = grown;
      }
      this.direct[key] = s + 1;
    } else this.table[this.slotOf(key)] = s;
  }

  /** Length of {@link writeState}'s output. */
  get stateLength(): number {
    return 1 + this.capacity;
  }

  /** Writes the entry count and the keys in recency order (padded with -1): the LRU state, whatever the slots. */
  writeState(out: Float64Array, at: number): void {
    out[at++] = this.used;
    for (let s = this.head; s >= 0; s = this.next[s]) out[at++] = this.keys[s];
    for (let i = this.used; i < this.capacity; i++) out[at++] = -1;
  }

  /** Touches `key`; true on a hit. */
  touch(key: number): boolean {
    const found = this.find(key);
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
      const old = this.keys[s];
      if (old < DIRECT_LIMIT) this.direct[old] = 0;
      else this.remove(old);
    }
    this.keys[s] = key;
    this.insert(key, s);
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

/** Line numbers below this are indexed directly by the fully associative LRU (2^23: 32 MiB of Int32). */
const DIRECT_LIMIT = 1 << 23;

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
  private columnScratch: ColumnSweepScratch | undefined;

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
    // A stride beyond Q gives one row whose columns are its elements: the same stream as a stride
    // of Q, whose columns past the row's end would be skipped one by one.
    const s = kernel.pattern === "strided" ? Math.max(1, Math.min(q, kernel.stride ?? 1)) : 1;
    const rows = Math.ceil(q / s);
    const span = arrayBase(1, q, e);
    if (s > 1 && rows > 1) {
      // Columns that repeat the previous one's sequence and state are counted, not replayed (exact).
      this.columnScratch ??= new ColumnSweepScratch(this);
      replayColumnSweep(this, this.columnScratch, q, e, s, arrays, span);
      return rngState;
    }
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
   * counted pass. The random pattern's warm-up is a sequential pass, then a random one: in the
   * steady state of many passes every line has been drawn before, and the last pass's draws
   * decide what stays (one random pass alone leaves the lines it did not draw cold). Writes
   * misses per level (innermost first) into `out[0..levels-1]` and TLB misses into `out[levels]`.
   * @param rngState - seed of the random pattern's index sequence (other patterns ignore it)
   * @returns the number of accesses of the counted pass
   */
  steadyStateMisses(kernel: KernelSpec, out: Float64Array, rngState = 0x2545f491): number {
    this.reset();
    if (kernel.pattern === "random") this.replayPass({ ...kernel, pattern: "sequential" });
    const state = this.replayPass(kernel, rngState);
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
