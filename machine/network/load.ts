import { Registry, type ParamDoc, type Registrable, type Simulation } from "../../engine/index.js";

/**
 * Background traffic on the network: a factor >= 1 by which inter-node transfers started at a
 * given time are stretched (wire time, NIC occupancy and latency are multiplied by it). It is a
 * pure function of time and the seed, so queries may come in any order.
 */
export interface BackgroundLoad {
  /** The stretch factor (>= 1) for a transfer starting at `time` (us). */
  factor(time: number): number;
}

/** A registered background load model. */
export interface BackgroundLoadModel extends Registrable {
  /**
   * Builds the load for one simulation. Random numbers derive from `sim.random(streamName)`.
   * @param values - validated parameters in base units
   */
  create(values: Readonly<Record<string, number>>, sim: Simulation, streamName: string): BackgroundLoad;
}

/** No background traffic: the factor is exactly 1. */
export const NO_LOAD: BackgroundLoad = { factor: () => 1 };

/** 32-bit finaliser of MurmurHash3: a bijective avalanche mix. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Piecewise-constant load: time is cut into intervals of `period` us; in interval k the extra load
 * is a lognormal draw with arithmetic mean `mean` and coefficient of variation `cv`, and the factor
 * is `1 + load`. Draws are counter-based (a hash of two seed words from the named stream and k),
 * so the factor of an interval does not depend on the order in which intervals are asked for.
 */
export class PiecewiseLoad implements BackgroundLoad {
  private readonly keyA: number;
  private readonly keyB: number;
  private readonly s2: number;
  // Cache of the last interval asked for: consecutive transfers mostly fall in the same one.
  private lastK = -1;
  private lastFactor = 1;

  /**
   * @param period - interval length (us), > 0
   * @param mean - mean extra load (0 = none; 0.2 stretches transfers by 20% on average)
   * @param cv - coefficient of variation of the extra load between intervals
   * @param seedA - first seed word (32-bit), from a named random stream
   * @param seedB - second seed word (32-bit)
   */
  constructor(readonly period: number, readonly mean: number, readonly cv: number, seedA: number, seedB: number) {
    if (!(period > 0) || !Number.isFinite(period)) throw new RangeError(`load period must be a finite time > 0 us, got ${period}`);
    if (!(mean >= 0) || !(cv >= 0)) throw new RangeError(`load mean and cv must be >= 0, got mean=${mean}, cv=${cv}`);
    this.keyA = seedA >>> 0;
    this.keyB = seedB >>> 0;
    this.s2 = Math.log(1 + cv * cv);
  }

  factor(time: number): number {
    if (this.mean === 0) return 1;
    const k = Math.floor(time / this.period);
    if (k === this.lastK) return this.lastFactor;
    const f = 1 + this.level(k);
    this.lastK = k;
    this.lastFactor = f;
    return f;
  }

  /** The extra load of interval k. */
  level(k: number): number {
    if (this.cv === 0) return this.mean;
    const u1 = this.unit(k, 1);
    const u2 = this.unit(k, 2);
    const z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
    return this.mean * Math.exp(-this.s2 / 2 + Math.sqrt(this.s2) * z);
  }

  /** A uniform double in [0, 1) from (seed, k, j), 53 bits. */
  private unit(k: number, j: number): number {
    const lo = k >>> 0;
    const hi = Math.floor(k / 4294967296) >>> 0;
    const h1 = fmix32(this.keyA ^ fmix32(lo ^ Math.imul(j, 0x9e3779b9)) ^ Math.imul(hi, 0x27d4eb2f));
    const h2 = fmix32(this.keyB ^ fmix32(h1 + lo) ^ Math.imul(j + hi, 0x165667b1));
    return ((h1 >>> 5) * 67108864 + (h2 >>> 6)) / 9007199254740992;
  }
}

/** Registry of background load models (`none`, `piecewise`). */
export const backgroundLoadModels = new Registry<BackgroundLoadModel>("background load model");

backgroundLoadModels.register({
  name: "none",
  summary: "no background traffic (factor 1)",
  params: [],
  create: () => NO_LOAD,
});

const piecewiseParams: readonly ParamDoc[] = [
  { name: "period", type: "quantity", dimension: "time", doc: "Length of an interval of constant load.", default: 1000, min: 1e-9 },
  { name: "mean", type: "number", doc: "Mean extra load: transfers take (1 + load) times longer; 0.2 means 20% longer on average.", default: 0.2, min: 0 },
  { name: "cv", type: "number", doc: "Coefficient of variation of the load between intervals (lognormal).", default: 1, min: 0 },
];

backgroundLoadModels.register({
  name: "piecewise",
  summary: "seeded lognormal load, constant over intervals of `period` us",
  params: piecewiseParams,
  create: (v, sim, streamName) => {
    const rng = sim.random(streamName);
    const a = Math.floor(rng.next() * 4294967296);
    const b = Math.floor(rng.next() * 4294967296);
    return new PiecewiseLoad(v.period, v.mean, v.cv, a, b);
  },
});
