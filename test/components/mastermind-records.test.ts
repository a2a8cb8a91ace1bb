import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Mastermind, wholeCounts, type InvocationRecord } from "../../components/index.js";
import { extractParam } from "../../components/bound-method.js";
import { executeScenario, loadScenarioText } from "../../scenarios/index.js";

/** Metric values as the runtime passes them: TIME first, then the counters. */
const at = (time: number, ...counters: number[]) => Float64Array.from([time, ...counters]);

describe("the Mastermind's records", () => {
  it("turn each closed invocation into a record with parameters, times and counter deltas", () => {
    const mm = new Mastermind(["PAPI_TOT_CYC"]);
    const site = mm.site("A", "work", "run", ["x", "mode"]);
    const t = mm.begin(3, site, at(10, 100), 2);
    mm.param(t, 0, 1.5);
    mm.param(t, 1, "strided");
    mm.end(t, at(16, 160), 5);
    expect(mm.count).toBe(1);
    expect(mm.records).toEqual<InvocationRecord[]>([
      {
        component: "A",
        port: "work",
        method: "run",
        rank: 3,
        parameters: { x: 1.5, mode: "strided" },
        start: 10,
        wallTime: 6,
        mpiTime: 3,
        computeTime: 3,
        counters: { PAPI_TOT_CYC: 60 },
      },
    ]);
  });

  it("keep completion order for nested calls and reuse the slots of closed ones", () => {
    const mm = new Mastermind([]);
    const outer = mm.site("Outer", "p", "m", ["n"]);
    const inner = mm.site("Inner", "p", "m", ["n"]);
    for (let i = 0; i < 3; i++) {
      const a = mm.begin(0, outer, at(i * 10), 0);
      mm.param(a, 0, i);
      const b = mm.begin(0, inner, at(i * 10 + 1), 0);
      mm.param(b, 0, -i);
      mm.end(b, at(i * 10 + 2), 0);
      mm.end(a, at(i * 10 + 5), 0);
    }
    expect(mm.records.map((r) => `${r.component}:${r.parameters.n}:${r.wallTime}`)).toEqual([
      "Inner:0:1", "Outer:0:5", "Inner:-1:1", "Outer:1:5", "Inner:-2:1", "Outer:2:5",
    ]);
  });

  it("accept a site with more parameters while records of smaller sites are open", () => {
    const mm = new Mastermind([]);
    const one = mm.site("A", "p", "m", ["a"]);
    const open = mm.begin(1, one, at(0), 0);
    mm.param(open, 0, "kept");
    const three = mm.site("B", "p", "m", ["x", "y", "z"]);
    const t = mm.begin(1, three, at(1), 0);
    [7, "eight", 9].forEach((v, k) => mm.param(t, k, v));
    mm.end(t, at(2), 0);
    mm.end(open, at(3), 0);
    expect(mm.records.map((r) => r.parameters)).toEqual([{ x: 7, y: "eight", z: 9 }, { a: "kept" }]);
  });

  it("read numbers as numbers in a slot that held strings, whether set before or after a string", () => {
    const mm = new Mastermind([]);
    const site = mm.site("A", "p", "m", ["a", "b"]);
    const values: [number | string, number | string][] = [["s0", "s1"], [5, "t"], [6, 7], ["u", 8], [9, 10]];
    for (const [a, b] of values) {
      const t = mm.begin(0, site, at(0), 0);
      mm.param(t, 0, a);
      mm.param(t, 1, b);
      mm.end(t, at(1), 0);
    }
    expect(mm.records.map((r) => [r.parameters.a, r.parameters.b])).toEqual(values);
  });

  it("return the same array on every read, extended with records closed since", () => {
    const mm = new Mastermind([]);
    const site = mm.site("A", "p", "m", []);
    mm.end(mm.begin(0, site, at(0), 0), at(1), 0);
    const first = mm.records;
    mm.end(mm.begin(0, site, at(1), 0), at(3), 0);
    expect(mm.records).toBe(first);
    expect(first.map((r) => r.wallTime)).toEqual([1, 2]);
    expect(() => mm.record(2)).toThrow(RangeError);
  });

  it("keep every record across storage chunks, parameters never split between two", () => {
    // 70000 rows span three 32768-row chunks, each with its own parameter pool; records without
    // parameters take no room in the pool.
    const mm = new Mastermind(["CYC"]);
    const three = mm.site("A", "p", "m", ["i", "half", "tag"]);
    const none = mm.site("B", "p", "m", []);
    const n = 70_000;
    for (let i = 0; i < n; i++) {
      const t = mm.begin(i % 7, i % 5 === 0 ? none : three, at(i, 2 * i), i / 4);
      if (i % 5 !== 0) {
        mm.param(t, 0, i);
        mm.param(t, 1, i / 2);
        mm.param(t, 2, i % 2 === 0 ? "even" : "odd");
      }
      mm.end(t, at(i + 1 + (i % 3), 2 * i + i), i / 4 + 0.5);
    }
    expect(mm.count).toBe(n);
    const wrong: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = mm.record(i);
      const p = r.parameters;
      const paramsOk = i % 5 === 0 ? Object.keys(p).length === 0 : p.i === i && p.half === i / 2 && p.tag === (i % 2 === 0 ? "even" : "odd");
      if (!(paramsOk && r.rank === i % 7 && r.start === i && r.wallTime === 1 + (i % 3) && r.mpiTime === 0.5 && r.counters.CYC === i)) wrong.push(i);
    }
    expect(wrong).toEqual([]);
    // The last row of the first chunk and the first of the second.
    expect(mm.record(32_767).parameters).toEqual({ i: 32_767, half: 32_767 / 2, tag: "odd" });
    expect(mm.record(32_768).parameters).toEqual({ i: 32_768, half: 32_768 / 2, tag: "even" });
  });

  it("recompute counters that are multiples of TIME to the deltas a stored counter would have (property)", () => {
    // Counter values as the runtime's reader makes them: the whole counts of TIME times a rate
    // (cycles at 2.8 GHz, an awkward factor), next to a counter read from the node model.
    const rates = [2800, 1 / 3];
    const call = fc.record({ start: fc.double({ noNaN: true, min: 0, max: 1e12 }), wall: fc.double({ noNaN: true, min: 0, max: 1e9 }), other: fc.double({ noNaN: true }) });
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 30 }), (calls) => {
        const names = ["PAPI_TOT_CYC", "L2_MISSES", "SLOW_CYC"];
        const storedAll = new Mastermind(names);
        const recomputed = new Mastermind(names, [rates[0], undefined, rates[1]]);
        for (const mm of [storedAll, recomputed]) {
          const site = mm.site("A", "p", "m", []);
          for (const c of calls) {
            const end = c.start + c.wall;
            const t = mm.begin(0, site, at(c.start, wholeCounts(c.start, rates[0]), 0, wholeCounts(c.start, rates[1])), 0);
            mm.end(t, at(end, wholeCounts(end, rates[0]), c.other, wholeCounts(end, rates[1])), 0);
          }
        }
        expect(recomputed.records).toEqual(storedAll.records);
      }),
    );
  });

  it("store every value exactly as given (property)", () => {
    const value = fc.oneof(fc.double(), fc.string({ maxLength: 6 }));
    const call = fc.record({ rank: fc.nat(2000), start: fc.double({ noNaN: true }), wall: fc.double({ noNaN: true, min: 0 }), cyc: fc.double(), params: fc.array(value, { maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 40 }), (calls) => {
        const mm = new Mastermind(["CYC"]);
        for (const c of calls) {
          const names = c.params.map((_, k) => `p${k}`);
          const t = mm.begin(c.rank, mm.site("C", "p", "m", names), at(c.start, 0), 0);
          c.params.forEach((v, k) => mm.param(t, k, v));
          mm.end(t, at(c.start + c.wall, c.cyc), 0);
        }
        const recs = mm.records;
        expect(recs).toHaveLength(calls.length);
        calls.forEach((c, i) => {
          expect(recs[i].rank).toBe(c.rank);
          expect(recs[i].start).toBe(c.start);
          expect(recs[i].wallTime).toBe(c.start + c.wall - c.start);
          expect(recs[i].counters.CYC).toBe(c.cyc - 0);
          expect(Object.values(recs[i].parameters)).toEqual(c.params);
        });
      }),
    );
  });
});

describe("what a proxy records of an argument", () => {
  it("is its value, its length or size, a boolean as 0 or 1, and NaN for none (never the text 'undefined')", () => {
    expect(extractParam(3, "value")).toBe(3);
    expect(extractParam("strided", "value")).toBe("strided");
    expect(extractParam(true, "value")).toBe(1);
    expect(extractParam(new Float64Array(5), "size")).toBe(5);
    expect(extractParam(undefined, "value")).toBeNaN();
    expect(extractParam(null, "value")).toBeNaN();
    expect(extractParam("x", "size")).toBeNaN();
  });
});

describe("what a proxy records of the component's own parameter (parameter <name>)", () => {
  const scenario = (params: string, proxy: string) => `
name: own
seed: 1
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }
workload: { N: 64 }
assembly:
  components:
    Driver: { type: driver, params: { iterations: 2, calls: [{ port: k, portType: Kernel, method: compute, args: { Q: N } }] } }
    K: { type: kernel, params: { ${params} } }
  connections: [Driver.k -> K.compute]
  proxies: [{ port: K.compute, parameters: { Q: argument Q, p: ${proxy} } }]
# ─ a comment with a non-Latin-1 character, as a file's box drawing has
`;
  const recorded = (params: string, proxy: string) => executeScenario(loadScenarioText(scenario(params, proxy), "own.yaml")).result.mastermind!.records.map((r) => r.parameters.p);
  it("is the scenario's text or number as written, the type's default when left out, a boolean as 0 or 1", () => {
    expect(recorded("pattern: strided", "parameter pattern")).toEqual(["strided", "strided"]);
    expect(recorded("elements: Q", "parameter pattern")).toEqual(["sequential", "sequential"]);
    expect(recorded("elements: Q", "parameter elements")).toEqual(["Q", "Q"]);
    expect(recorded("elements: Q, arrays: 2, loads: 2", "parameter arrays")).toEqual([2, 2]);
    // A text from a file with a non-Latin-1 character: a fresh copy, equal to the written one.
    const [text] = recorded("pattern: random", "parameter pattern");
    expect(text).toBe("random");
  });

  it("refuses a parameter the type does not have, naming the ones it does", () => {
    expect(() => recorded("elements: Q", "parameter patern")).toThrow(/assembly\.proxies\[0\]\.parameters\.p: component 'K' has no parameter 'patern' to record; its parameters: elements, port, portType, method, args/);
  });
});
