import { describe, expect, it } from "vitest";
import {
  prepareAssembly,
  runAssembly,
  simplePlatform,
  type AssemblyConfig,
  type RankProfile,
} from "../../components/index.js";
import { testSink } from "./helpers.js";

/** Paper 002 Figure 4: Driver -> A (A1 2x | A2 x^2) -> C, Driver -> B (B1 x^3 | B2 2x^2) -> D. */
function knownModels(a: string, b: string, proxies = true): AssemblyConfig {
  return {
    instances: [
      { name: "Driver", type: "driver", params: { iterations: "iterations", calls: [{ port: "a", args: { x: "x" } }, { port: "b", args: { x: "x" } }] } },
      { name: "A", type: "dummy", params: { implementations: { A1: "2*x", A2: "x^2" }, implementation: a, calls: [{ port: "c", args: { x: "x" } }] } },
      { name: "B", type: "dummy", params: { implementations: { B1: "x^3", B2: "2*x^2" }, implementation: b, calls: [{ port: "d", args: { x: "x" } }] } },
      { name: "C", type: "dummy", params: { cost: "0.01*x" } },
      { name: "D", type: "dummy", params: { cost: "0.02*x" } },
    ],
    connections: [
      { user: "Driver", usesPort: "a", provider: "A", providesPort: "work" },
      { user: "Driver", usesPort: "b", provider: "B", providesPort: "work" },
      { user: "A", usesPort: "c", provider: "C", providesPort: "work" },
      { user: "B", usesPort: "d", provider: "D", providesPort: "work" },
    ],
    proxies: proxies
      ? [
          { component: "A", port: "work", parameters: { x: "argument x" } },
          { component: "B", port: "work", parameters: { x: "argument x" } },
        ]
      : [],
  };
}

function run(a: string, b: string, x: number, proxies = true, seed = 1) {
  const asm = prepareAssembly(knownModels(a, b, proxies), ["x", "iterations"], testSink);
  return runAssembly(asm, simplePlatform(4), { seed, workload: { x, iterations: 5 }, metrics: ["TIME", "PAPI_TOT_CYC"] });
}

describe("known-models assembly (paper 002)", () => {
  it.each([
    ["A1", "B1", 1.5],
    ["A2", "B2", 3],
    ["A1", "B2", 0.5],
  ])("records per-invocation times equal to the cost expressions (%s, %s, x=%s)", (a, b, x) => {
    const r = run(a, b, x);
    const cost = { A1: 2 * x, A2: x * x, B1: x ** 3, B2: 2 * x * x } as Record<string, number>;
    const recs = r.mastermind!.records;
    expect(recs).toHaveLength(4 * 5 * 2);
    for (const rec of recs) {
      const own = rec.component === "A" ? cost[a] + 0.01 * x : cost[b] + 0.02 * x;
      expect(rec.wallTime).toBeCloseTo(own, 9);
      expect(rec.mpiTime).toBe(0);
      expect(rec.computeTime).toBeCloseTo(own, 9);
      expect(rec.parameters).toEqual({ x });
      // Whole cycles at 1000 MHz: the counts between the readings at the call's start and end.
      expect(Number.isInteger(rec.counters.PAPI_TOT_CYC)).toBe(true);
      expect(Math.abs(rec.counters.PAPI_TOT_CYC - own * 1000)).toBeLessThanOrEqual(1 + 1e-6);
    }
    expect(r.simulatedTime).toBeCloseTo(5 * (cost[a] + cost[b] + 0.03 * x), 9);
  });

  it("profiles add up: parent inclusive = own exclusive + children inclusive, every metric and rank", () => {
    const r = run("A2", "B1", 2.5);
    const m = r.measurement!;
    for (const rp of m.ranks as RankProfile[]) {
      for (let node = 1; node < rp.nodeCount; node++) {
        for (let k = 0; k < rp.m; k++) {
          let children = 0;
          for (let c = 1; c < rp.nodeCount; c++) if (rp.parentOf(c) === node) children += rp.inclusive(c, k);
          expect(rp.inclusive(node, k)).toBeCloseTo(rp.exclusive(node, k) + children, 6);
          expect(rp.inclusive(node, k)).toBeGreaterThanOrEqual(rp.exclusive(node, k) - 1e-9);
        }
      }
    }
  });

  it("is non-intrusive: removing the proxies changes no simulated time", () => {
    expect(run("A1", "B2", 3, false).simulatedTime).toBe(run("A1", "B2", 3, true).simulatedTime);
    expect(run("A1", "B2", 3, false).events).toBe(run("A1", "B2", 3, true).events);
  });

  it("rejects a port type mismatch and a missing connection with the offending port named", () => {
    const bad = knownModels("A1", "B1");
    const mismatch = { ...bad, instances: bad.instances.map((i) => (i.name === "C" ? { ...i, params: { ...i.params, portType: "Other" } } : i)) };
    expect(() => prepareAssembly(mismatch, ["x", "iterations"], testSink)).toThrow(/port type mismatch: A.c uses 'Work' but C.work provides 'Other'/);
    const missing = { ...bad, connections: bad.connections.slice(0, 3) };
    expect(() => prepareAssembly(missing, ["x", "iterations"], testSink)).toThrow(/missing connection: uses port B.d/);
  });
});
