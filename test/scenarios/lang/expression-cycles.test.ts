import { describe, expect, it } from "vitest";
import { ExpressionError, checkExpressionCycles, compileExpressionSet } from "../../../scenarios/lang/index.js";

function cycleMessage(defs: Record<string, string>, where?: string): string {
  try {
    checkExpressionCycles(defs, where);
  } catch (e) {
    expect(e).toBeInstanceOf(ExpressionError);
    expect((e as ExpressionError).isInputError).toBe(true);
    return (e as Error).message;
  }
  return "no cycle";
}

describe("cycles between named cost functions", () => {
  it("name a two-function cycle through calls", () => {
    expect(cycleMessage({ FA: "FB(x) + 1", FB: "2*FA(x)" })).toBe("cost function cycle: FA -> FB -> FA");
  });

  it("name a function that refers to itself", () => {
    expect(cycleMessage({ FA: "x > 1 ? FA(x - 1) : 1" }, "model.costs")).toBe("model.costs: cost function cycle: FA -> FA");
  });

  it("follow references used as values as well as calls", () => {
    expect(cycleMessage({ total: "comm + comp", comp: "Q^2", comm: "lat + total / 2" })).toBe("cost function cycle: total -> comm -> total");
    expect(cycleMessage({ A: "B(x)", B: "C", C: "D(x) + 1", D: "B * 2" })).toBe("cost function cycle: B -> C -> D -> B");
  });

  it("accept shared dependencies that form no cycle", () => {
    expect(cycleMessage({ top: "left(x) + right(x)", left: "base(x)", right: "base(x) * 2", base: "x^2" })).toBe("no cycle");
    expect(cycleMessage({})).toBe("no cycle");
  });

  it("stop compilation of a set with a cycle", () => {
    expect(() => compileExpressionSet({ a: "b(x)", b: "a(x)" })).toThrow("cost function cycle: a -> b -> a");
  });

  it("report a syntax error in a definition under its name", () => {
    expect(cycleMessage({ ok: "x", bad: "2 * (x" }, "costs")).toMatch(/^costs\.bad: expression "2 \* \(x": syntax error: /);
  });
});
