import { describe, expect, it } from "vitest";
import { ExpressionError, compileExpression, compileExpressionSet, expressionReferences } from "../../../scenarios/lang/index.js";

function errorOf(fn: () => unknown): ExpressionError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ExpressionError) return e;
    throw e;
  }
  throw new Error("expected ExpressionError");
}

describe("compiled cost expressions", () => {
  it("evaluate the paper's fitted model and the known-model costs", () => {
    const t = compileExpression("exp(1.19*log(Q) - 3.68)");
    expect(t.variables).toEqual(["Q"]);
    expect(t.evaluate({ Q: 1000 })).toBe(Math.exp(1.19 * Math.log(1000) - 3.68));
    const a2 = compileExpression("x^2");
    expect(a2.evaluate({ x: 7 })).toBe(49);
    expect(compileExpression("2x").evaluate({ x: 7 })).toBe(14);
    expect(compileExpression(42).evaluate({})).toBe(42);
  });

  it("list free symbols sorted, without constants and functions", () => {
    expect(compileExpression("b*pi + a - sqrt(c) + e").variables).toEqual(["a", "b", "c"]);
    expect(compileExpression("e * x", { known: ["e", "x"] }).variables).toEqual(["e", "x"]);
  });

  it("bind values positionally in any order, ignoring extra names", () => {
    const f = compileExpression("x - 2*y");
    const g = f.bind(["unused", "y", "x"]);
    expect(g([99, 1, 10])).toBe(8);
    expect(g(new Float64Array([0, 3, 1]))).toBe(-5);
    expect(() => f.bind(["x"])).toThrow(ExpressionError);
    expect(errorOf(() => f.bind(["x"])).message).toBe(`expression "x - 2*y": needs 'y', which is not among the bound names (x)`);
  });

  it("follow mathjs semantics for log, modulo, rounding and comparisons", () => {
    const v = (text: string, scope: Record<string, number> = {}) => compileExpression(text).evaluate(scope);
    expect(v("log(8, 2)")).toBeCloseTo(3, 14);
    expect(v("log(e)")).toBe(1);
    expect(v("-7 % 3")).toBe(2);
    expect(v("7 % -3")).toBe(-2);
    expect(v("5 % 0")).toBe(5);
    expect(v("round(-2.5)")).toBe(-3);
    expect(v("round(2.5)")).toBe(3);
    expect(v("floor(0.1*3*10)")).toBe(3);
    expect(v("ceil(0.1*3*10 - 1e-14)")).toBe(3);
    expect(v("(0.1 + 0.2 == 0.3) ? 1 : 2")).toBe(1);
    expect(v("x > 1 and not (x > 5) ? x : -x", { x: 3 })).toBe(3);
    expect(v("1 < x < 3 ? 10 : 20", { x: 5 })).toBe(20);
    expect(v("min(3, x, 2) + max(1, x)", { x: 7 })).toBe(9);
    expect(v("(-8)^(1/3)")).toBeCloseTo(-2, 14);
    expect(v("x + 5%", { x: 200 })).toBe(210);
    expect(v("(x > 2) * 4", { x: 3 })).toBe(4);
  });

  it("call other mathjs functions and fall back to mathjs for the rest", () => {
    expect(compileExpression("cbrt(27) + hypot(3, 4)").evaluate({})).toBe(8);
    expect(compileExpression("sum([1, 2, x])").evaluate({ x: 3 })).toBe(6);
    expect(compileExpression("[10, 20, 30][n]").evaluate({ n: 2 })).toBe(20);
  });

  it("call user functions, JS or compiled, with arguments bound to the callee's sorted variables", () => {
    const FA4 = compileExpression("2*P + 1");
    const f = compileExpression("FA4(P) + FA4(2*P) + half(P)", { functions: { FA4, half: (x: number) => x / 2 } });
    expect(f.variables).toEqual(["P"]);
    expect(f.evaluate({ P: 4 })).toBe(9 + 17 + 2);
    expect(errorOf(() => compileExpression("FA4(1, 2)", { functions: { FA4 } })).message).toBe(
      `expression "FA4(1, 2)": 'FA4' takes 1 argument (P), got 2`,
    );
  });

  it("treat a named expression used as a value as taking the caller's variables", () => {
    const comm = compileExpression("latency + Q / bw");
    const f = compileExpression("2*comm + Q", { functions: { comm } });
    expect(f.variables).toEqual(["Q", "bw", "latency"]);
    expect(f.evaluate({ Q: 100, bw: 10, latency: 5 })).toBe(130);
  });

  it("reject unknown symbols naming the nearest known one and where", () => {
    const e = errorOf(() => compileExpression("2*Qq + P", { known: ["Q", "P"], where: "s.yaml: components.A.cost" }));
    expect(e.isInputError).toBe(true);
    expect(e.message).toBe(`s.yaml: components.A.cost: expression "2*Qq + P": unknown symbol 'Qq' (did you mean 'Q'?); known: P, Q`);
    expect(errorOf(() => compileExpression("sqroot(x)")).message).toBe(`expression "sqroot(x)": unknown function 'sqroot' (did you mean 'sqrt'?)`);
    expect(errorOf(() => compileExpression("f + 1", { functions: { f: Math.abs } })).message).toBe(
      `expression "f + 1": 'f' is a function: call it with arguments, as f(...)`,
    );
  });

  it("report syntax errors with the character position and reject assignments", () => {
    const e = errorOf(() => compileExpression("2*x )"));
    expect(e.message).toBe(`expression "2*x )": syntax error: Unexpected operator ) (char 5)`);
    expect(e.char).toBe(4);
    expect(errorOf(() => compileExpression("x = 3")).message).toBe(`expression "x = 3": assignments and statement blocks are not allowed in a cost expression`);
    expect(errorOf(() => compileExpression("x * random()")).message).toBe(
      `expression "x * random()": function 'random' is not allowed in a cost expression: costs must be deterministic (noise comes from the machine model)`,
    );
    expect(errorOf(() => compileExpression("import({})")).message).toMatch(/function 'import' is not allowed/);
    expect(errorOf(() => compileExpression(Number.NaN)).message).toBe(`expression "NaN": a constant cost must be a finite number`);
  });

  it("throw an input error naming the expression and the values when the result is not a finite number", () => {
    const f = compileExpression("1/x");
    expect(errorOf(() => f.evaluate({ x: 0 })).message).toBe(`expression "1/x": evaluates to Infinity (not a finite number) for x=0`);
    expect(errorOf(() => f.bind(["x"])([0])).message).toBe(`expression "1/x": evaluates to Infinity (not a finite number) for x=0`);
    expect(errorOf(() => compileExpression("sqrt(x)").evaluate({ x: -4 })).message).toBe(`expression "sqrt(x)": evaluates to NaN (not a finite number) for x=-4`);
    expect(errorOf(() => compileExpression("[x, x]").evaluate({ x: 2 })).message).toBe(`expression "[x, x]": evaluates to DenseMatrix [2, 2] (not a finite number) for x=2`);
    expect(errorOf(() => compileExpression("x + y").evaluate({ x: 2 })).message).toBe(`expression "x + y": no value for 'y'; given: x`);
  });

  it("read a comparison's true/false as 1/0, as C and mathjs arithmetic do", () => {
    expect(compileExpression("x > 1").evaluate({ x: 2 })).toBe(1);
    expect(compileExpression("x == 1").bind(["x"])([2])).toBe(0);
    expect(compileExpression("(x == 2) * 500").evaluate({ x: 2 })).toBe(500);
  });

  it("find referenced symbols and calls", () => {
    expect(expressionReferences("FA(P) + max(Q, FB) * Q")).toEqual({ symbols: ["FB", "P", "Q"], calls: ["FA", "max"] });
  });
});

describe("sets of named cost functions", () => {
  it("compile in dependency order, each seeing the others", () => {
    const set = compileExpressionSet({ total: "FA4(P) + FB", FA4: "2*P + 1", FB: "P*Q" }, { where: "model" });
    expect(set.total.variables).toEqual(["P", "Q"]);
    expect(set.total.evaluate({ P: 3, Q: 2 })).toBe(13);
    expect(errorOf(() => compileExpressionSet({ a: "b(x) + zeta", b: "2*x" }, { known: ["x"], where: "model" })).message).toBe(
      `model.a: expression "b(x) + zeta": unknown symbol 'zeta'; known: x`,
    );
  });
});
