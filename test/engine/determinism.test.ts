import { describe, expect, it } from "vitest";
import { Simulation } from "../../engine/index.js";

/** A small stochastic model: processes contend for time slots with random service times. */
function trace(seed: number): string[] {
  const sim = new Simulation({ seed });
  const out: string[] = [];
  for (let p = 0; p < 4; p++)
    sim.process(
      (function* () {
        const rng = sim.random(`worker${p}`);
        for (let i = 0; i < 5; i++) {
          yield sim.timeout(rng.exponential(3));
          out.push(`${p}:${i}@${sim.now.toFixed(9)}`);
        }
      })(),
    );
  sim.run();
  return out;
}

describe("determinism", () => {
  it("gives the identical trace for the same seed", () => {
    expect(trace(42)).toEqual(trace(42));
  });
  it("gives a different trace for another seed", () => {
    expect(trace(43)).not.toEqual(trace(42));
  });
});
