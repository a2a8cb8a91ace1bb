import seedrandom from "seedrandom";

/**
 * A named, seeded random stream. Each stream is derived from the simulation seed and its own
 * name only, so adding or using another stream never changes this one's draws.
 *
 * The generator is seedrandom's Alea (fast, 2^116 period, passes BigCrush); draws are doubles
 * in [0, 1) with 32 bits of resolution ({@link RandomStream.nextDouble} gives 53).
 */
export class RandomStream {
  private readonly rng: seedrandom.PRNG;

  /**
   * @param seed - the simulation or scenario seed
   * @param name - the stream's name, for example `"network"` or `"noise/rank3"`
   */
  constructor(readonly seed: string | number, readonly name: string) {
    this.rng = seedrandom.alea(`${String(seed)}\u241f${name}`);
  }

  /**
   * A uniform draw in [0, 1) with 32 bits of resolution. Why not `double()`: it costs two
   * generator steps, and 2^-32 resolution is finer than any simulated quantity needs.
   */
  next(): number {
    return this.rng();
  }

  /** A uniform draw in [0, 1) with 53 bits of resolution (two generator steps). */
  nextDouble(): number {
    return this.rng.double();
  }

  /** A uniform draw in [lo, hi). */
  uniform(lo = 0, hi = 1): number {
    return lo + (hi - lo) * this.rng();
  }

  /**
   * A uniform integer in [lo, hi] (both inclusive).
   * @throws RangeError unless lo and hi are integers with lo <= hi
   */
  integer(lo: number, hi: number): number {
    if (!(Number.isInteger(lo) && Number.isInteger(hi) && lo <= hi)) throw new RangeError(`integer(${lo}, ${hi}): lo and hi must be integers with lo <= hi`);
    return lo + Math.floor(this.rng() * (hi - lo + 1));
  }

  /** An exponential draw with the given mean (same unit as the mean). */
  exponential(mean = 1): number {
    return -mean * Math.log(1 - this.rng());
  }

  /** A normal draw (Box–Muller; one uniform pair per draw, so draws do not depend on call parity). */
  normal(mean = 0, sd = 1): number {
    const u1 = 1 - this.rng();
    const u2 = this.rng();
    return mean + sd * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  /**
   * A lognormal draw `exp(N(mu, sigma))`, where mu and sigma are the mean and standard deviation
   * of the underlying normal (log space).
   */
  lognormal(mu = 0, sigma = 1): number {
    return Math.exp(this.normal(mu, sigma));
  }

  /**
   * A lognormal draw with the given arithmetic mean and coefficient of variation (sd/mean): the
   * form noise models want ("mean 1, 5% scatter").
   */
  lognormalMeanCv(mean: number, cv: number): number {
    if (cv <= 0) return mean;
    const s2 = Math.log(1 + cv * cv);
    return mean * Math.exp(this.normal(-s2 / 2, Math.sqrt(s2)));
  }

  /**
   * Picks one element uniformly.
   * @throws RangeError when `items` is empty
   */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick: the list is empty");
    return items[Math.floor(this.rng() * items.length)];
  }
}
