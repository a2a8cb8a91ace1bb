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
    if (geometry.line / geometry.sector > 32) throw new RangeError(`a line of ${geometry.line} bytes has more than 32 sectors of ${geometry.sector} bytes`);
    const ways = geometry.sets * geometry.assoc;
    this.tags = new Float64Array(ways);
    this.stamps = new Float64Array(ways);
    this.masks = new Uint32Array(ways);
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
  }

  /**
   * Accesses the byte at `address`.
   * @returns true on a miss (the sector had to be filled)
   */
  access(address: number): boolean {
    this.accesses++;
    const lineNo = Math.floor(address / this.line);
    const bit = 1 << Math.floor((address - lineNo * this.line) / this.sector);
    // Fast path: the same line as the previous access is already most recently used.
    if (lineNo === this.lastLine && (this.masks[this.lastWay] & bit) !== 0) return false;
    const base = (lineNo % this.sets) * this.assoc;
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
    for (let c = 0; c < s; c++) {
      for (let i = 0; i < rows; i++) {
        const j = i * s + c;
        if (j >= q) continue;
        for (let a = 0; a < arrays; a++) this.access(arrayBase(a, q, e) + j * e);
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
