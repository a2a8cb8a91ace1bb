import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { disseminationBarrier, recursiveDoublingAllreduce, registerCollective, type CollectiveName, type Comm, type MpiCall } from "../../machine/index.js";
import { world } from "./helpers.js";

// The generator algorithms, registered under other names, as the reference for the callback-driven programs.
registerCollective({ name: "recursive_doubling_generator", collective: "allreduce", summary: "reference", cost: "", params: [], run: (c, b) => recursiveDoublingAllreduce(c, b) });
registerCollective({ name: "dissemination_generator", collective: "barrier", summary: "reference", cost: "", params: [], run: (c) => disseminationBarrier(c) });

function finishTimes(s: Scenario, coll: CollectiveName, algorithm: string, op: (c: Comm) => MpiCall): number[] {
  const w = world(
    s.p,
    { preset: "infiniband-4x", model: s.model, eagerLimit: s.eagerLimit, load: s.load ? { model: "piecewise", params: { period: 7, mean: 0.4 } } : { model: "none" } },
    { rankToNode: s.rankToNode, nodes: s.p, seed: s.seed, collectives: { algorithms: { [coll]: algorithm }, params: { reduceCostPerByte: s.gamma } } },
  );
  const out = new Array<number>(s.p).fill(NaN);
  w.launch(function* (c) {
    yield w.sim.timeout(s.skew[c.rank]);
    for (let i = 0; i < 3; i++) yield* op(c);
    out[c.rank] = w.sim.now;
  });
  w.run();
  w.finalize();
  return out;
}

interface Scenario {
  p: number;
  rankToNode: number[];
  skew: number[];
  model: string;
  eagerLimit: number;
  load: boolean;
  seed: number;
  gamma: number;
  bytes: number;
}

const scenario = fc.integer({ min: 1, max: 37 }).chain((p) =>
  fc.record({
    p: fc.constant(p),
    rankToNode: fc.array(fc.integer({ min: 0, max: p - 1 }), { minLength: p, maxLength: p }),
    skew: fc.array(fc.integer({ min: 0, max: 50 }), { minLength: p, maxLength: p }),
    model: fc.constantFrom("hockney", "loggp"),
    eagerLimit: fc.constantFrom(0, 1024, Infinity),
    load: fc.boolean(),
    seed: fc.integer({ min: 0, max: 100 }),
    gamma: fc.constantFrom(0, 0.001, 0.05),
    bytes: fc.integer({ min: 0, max: 5000 }),
  }),
);

describe("callback-driven exchange programs", () => {
  it("give exactly the timing of the generator algorithms (recursive-doubling allreduce, dissemination barrier)", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        expect(finishTimes(s, "allreduce", "recursive_doubling", (c) => c.allreduce(s.bytes))).toEqual(
          finishTimes(s, "allreduce", "recursive_doubling_generator", (c) => c.allreduce(s.bytes)),
        );
        expect(finishTimes(s, "barrier", "dissemination", (c) => c.barrier())).toEqual(finishTimes(s, "barrier", "dissemination_generator", (c) => c.barrier()));
      }),
      { numRuns: 60, seed: 31 },
    );
  });
});
