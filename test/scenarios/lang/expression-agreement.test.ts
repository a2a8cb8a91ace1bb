import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExpressionError, compileExpression } from "../../../scenarios/lang/index.js";
import { math } from "../../../scenarios/lang/math.js";

const VARS = ["x", "y", "z"] as const;

// Values rounded to 1e-6: subnormal exponents make mathjs's own odd-root search for negative bases take milliseconds.
const rounded = (d: number): number => Math.round(d * 1e6) / 1e6;
const value = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -1e3, max: 1e3, noNaN: true }).map(rounded), fc.constantFrom(0.5, 2.5, -2.5, 0.1 + 0.2, 1e-16));

/** Random expressions over the subset compiled to JavaScript, as mathjs text. */
const { expr } = fc.letrec<{ expr: string; cond: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", maxDepth: 4, withCrossShrink: true },
    fc.constantFrom(...VARS),
    fc.oneof(fc.integer({ min: 0, max: 12 }), fc.double({ min: -50, max: 50, noNaN: true }).map(rounded)).map((n) => (n < 0 || Object.is(n, -0) ? `(${n})` : String(n))),
    fc.tuple(tie("expr"), fc.constantFrom("+", "-", "*", "/", "^", "%"), tie("expr")).map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie("expr").map((a) => `-(${a})`),
    fc.tuple(fc.constantFrom("exp", "log", "log2", "log10", "sqrt", "abs", "floor", "ceil", "round", "sin", "cos", "tanh"), tie("expr")).map(([f, a]) => `${f}(${a})`),
    fc.tuple(fc.constantFrom("log", "pow"), tie("expr"), tie("expr")).map(([f, a, b]) => `${f}(${a}, ${b})`),
    fc.tuple(fc.constantFrom("min", "max"), fc.array(tie("expr"), { minLength: 1, maxLength: 3 })).map(([f, args]) => `${f}(${args.join(", ")})`),
    fc.tuple(tie("cond"), tie("expr"), tie("expr")).map(([c, a, b]) => `((${c}) ? ${a} : ${b})`),
  ),
  cond: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    fc.tuple(tie("expr"), fc.constantFrom("<", ">", "<=", ">=", "==", "!="), tie("expr")).map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(tie("cond"), fc.constantFrom("and", "or", "xor"), tie("cond")).map(([a, op, b]) => `(${a}) ${op} (${b})`),
    tie("cond").map((c) => `not (${c})`),
    fc.tuple(tie("expr"), tie("expr"), tie("expr")).map(([a, b, c]) => `${a} < ${b} <= ${c}`),
  ),
}));


describe("generated closures agree with mathjs", () => {
  it("give mathjs's result to 1e-12 relative, or an input error where mathjs gives no finite number", () => {
    fc.assert(
      fc.property(expr, fc.tuple(value, value, value), (text, [x, y, z]) => {
        const scope = { x, y, z };
        let expected: unknown;
        try {
          expected = math.evaluate(text, { ...scope });
        } catch (e) {
          expected = e;
        }
        const compiled = compileExpression(text, { known: [...VARS] });
        const bound = compiled.bind(VARS);
        for (const run of [() => compiled.evaluate(scope), () => bound([x, y, z])]) {
          if (typeof expected === "number" && Number.isFinite(expected)) {
            const got = run();
            expect(Math.abs(got - expected)).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
          } else {
            expect(run).toThrow(ExpressionError);
          }
        }
      }),
      { seed: 2024, numRuns: 500 },
    );
  });
});
