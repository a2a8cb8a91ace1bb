import { compile } from "mathjs";
import type { AssemblyErrorSink, CostExpression, InstanceConfig, PrepareEnv } from "../../components/index.js";

/** A plain mathjs-backed compiler for framework tests that do not go through scenario files. */
export function testCompile(text: string | number, known: readonly string[], where: string): CostExpression {
  const code = compile(String(text));
  const expr: CostExpression = {
    text: String(text),
    variables: [...known],
    evaluate: (scope) => Number(code.evaluate({ ...scope })),
    bind: (names) => (values) => {
      const scope: Record<string, number> = {};
      names.forEach((n, i) => (scope[n] = values[i]));
      const v = Number(code.evaluate(scope));
      if (!Number.isFinite(v)) throw new Error(`${where}: ${text} gave ${v}`);
      return v;
    },
  };
  return expr;
}

export class TestSinkError extends Error {}

/** An error sink that throws plain errors with the path. */
export const testSink: AssemblyErrorSink = {
  fail(path, message): never {
    throw new TestSinkError(`${path.join(".")}: ${message}`);
  },
  envFor(instance: InstanceConfig, _i: number, workloadNames: readonly string[]): PrepareEnv {
    return {
      instance: instance.name,
      workloadNames,
      compile: testCompile,
      error(where: string, message: string): never {
        throw new TestSinkError(`${instance.name}.${where}: ${message}`);
      },
    };
  },
};
