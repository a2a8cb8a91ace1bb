import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, type SymbolNode } from "mathjs";
import type { PrepareEnv } from "../../components/index.js";
import { prepareCalls } from "../../components/library/calls.js";
import { runCount, wholeCount } from "../../components/library/counts.js";
import { testCompile, TestSinkError } from "./helpers.js";

describe("a generic component's count", () => {
  it("is a whole number, 0 or more, up to rounding of the expression that computed it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 30 }), (n) => {
        expect(wholeCount(n)).toBe(n);
        // Rounding of a computed count (0.1 * 30 is 3.0000000000000004) is no fraction.
        expect(wholeCount(n * (1 + 1e-14))).toBe(n);
      }),
    );
    expect(wholeCount(0.1 * 30)).toBe(3);
    for (const bad of [-1, -1e-3, 1.5, 2.0001, 1e9 + 0.5, Number.NaN, Infinity]) expect(wholeCount(bad)).toBeNaN();
  });

  it("found wrong in a run names the component, the key and the value", () => {
    expect(runCount(4, "Driver", "iterations")).toBe(4);
    expect(() => runCount(-2, "Driver", "calls[0].count")).toThrow("Driver: calls[0].count evaluated to -2; a count is a whole number, 0 or more");
  });
});

describe("prepareCalls' load-time check of counts", () => {
  // A compiler that names the symbols an expression reads.
  const env: PrepareEnv = {
    instance: "D",
    workloadNames: ["N"],
    workloadValues: { N: -2 },
    compile(text, known, where) {
      const c = testCompile(text, known, where);
      const read = parse(String(text))
        .filter((n) => (n as SymbolNode).isSymbolNode === true)
        .map((n) => (n as SymbolNode).name);
      return { ...c, variables: read };
    },
    error(where: string, message: string): never {
      throw new TestSinkError(`${where}: ${message}`);
    },
  };
  const scope = ["N", "rank", "size"];

  it("refuses a constant count, and one of workload values alone when told which names are no workload values", () => {
    expect(() => prepareCalls([{ port: "a", count: -1 }], scope, env)).toThrow("calls[0].count: expected a whole number, 0 or more, got -1");
    expect(() => prepareCalls([{ port: "a", count: "N" }], scope, env, ["rank", "size"])).toThrow("calls[0].count: expected a whole number, 0 or more, got -2 (from 'N' with N = -2)");
  });

  it("leaves an expression to the run when called without the names (every name of the scope is then the caller's)", () => {
    expect(prepareCalls([{ port: "a", count: "N" }], scope, env)).toHaveLength(1);
  });
});
