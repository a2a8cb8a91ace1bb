/**
 * Preparing a component assembly against a workload: the cost expressions of its parameters
 * compiled as a scenario's are, and its errors given as scenario keys. Scenario files and
 * assemblies built in code share it.
 *
 * @packageDocumentation
 */
import { prepareAssembly, type AssemblyConfig, type AssemblyErrorSink, type CostExpression, type InstanceConfig, type PreparedAssembly, type PrepareEnv } from "../components/index.js";
import { compileExpression, ExpressionError, formatPath, ScenarioError, ScenarioErrors, unitInExpression, type KeyPath } from "./lang/index.js";
import { parseKeyPath } from "../profile/index.js";
import { compileWithTextualWorkload, nonNumericWorkloadNames, nonNumericWorkloadValue } from "./workload.js";

/** Workload values by name: numbers, which expressions read, or text (a mode, a file name). */
export type WorkloadValues = Readonly<Record<string, number | string>>;

/**
 * Prepares an assembly (components/' `prepareAssembly`) with the workload of a scenario: the
 * component types' parameters are checked and their cost expressions (mathjs, in microseconds
 * where they are costs) compiled once, reading the workload's numbers by name (`x`, `iterations`)
 * besides what each parameter defines; a workload value that is text and that an expression reads
 * is an error. This is what a scenario file's `assembly:` goes through; call it for an assembly
 * built in code, then run it with `runAssembly` on the same workload.
 * @param warn - how warnings are reported (a component connected to nothing); default: not at all
 * @param ranks - the run's number of MPI ranks, when known (a scenario's machine.nodes x
 *   machine.processesPerNode): what must fit it, a halo exchange's rank grid, is checked here
 *   instead of when the run starts
 * @param fail - how errors are reported (default: thrown as {@link ScenarioErrors} holding one
 *   {@link ScenarioError} whose `path` is the offending key, `assembly.components.A.params.cost`,
 *   with no file, line or column)
 * @throws ScenarioErrors (or what `fail` throws) for an unknown component type, a bad parameter
 *   or expression, or wiring that does not fit
 */
export function prepareWorkloadAssembly(
  config: AssemblyConfig,
  workload: WorkloadValues = {},
  fail: (path: KeyPath, message: string) => never = throwAt,
  warn?: (path: KeyPath, message: string) => void,
  ranks?: number,
): PreparedAssembly {
  // why: a workload value that is not a number reads as NaN in an expression, so expressions see only the numbers (errorSink names the others)
  const numeric = Object.keys(workload).filter((k) => typeof workload[k] === "number");
  return prepareAssembly(config, numeric, { ...errorSink(fail, workload, ranks), warn });
}

function throwAt(path: KeyPath, message: string): never {
  throw new ScenarioErrors([new ScenarioError(message, { path })]);
}

/**
 * Maps component-layer errors to located scenario errors. Expressions are compiled with the
 * workload values that are not numbers visible too, so that one an expression uses is named as
 * such (at `workload.<name>`) rather than as an unknown symbol, or as NaN during the run.
 */
function errorSink(fail: (path: KeyPath, message: string) => never, workload: WorkloadValues, ranks: number | undefined): AssemblyErrorSink {
  const textual = nonNumericWorkloadNames(workload);
  const workloadValues = Object.fromEntries(Object.entries(workload).filter((e): e is [string, number] => typeof e[1] === "number"));
  // Several located errors as one report (each keeps its file, line and key).
  const combine = (errors: readonly unknown[]): never => {
    if (errors.length === 1) throw errors[0];
    throw new ScenarioErrors(errors.flatMap((e) => (e instanceof ScenarioErrors ? e.errors : e instanceof ScenarioError ? [e] : [new ScenarioError(e instanceof Error ? e.message : String(e))])));
  };
  return {
    fail,
    combine,
    envFor(instance: InstanceConfig, _index: number, workloadNames: readonly string[]): PrepareEnv {
      const base: KeyPath = ["assembly", "components", instance.name, "params"];
      return {
        instance: instance.name,
        workloadNames,
        workloadValues,
        ranks,
        combine,
        compile(text: string | number, known: readonly string[], where: string): CostExpression {
          let result: { compiled: CostExpression; used: string[] };
          // Named `<instance>.<parameter>` so that an evaluation failing during the run is located
          // at the parameter (see locatedRunError); a load error is located here, without the name.
          const at = `${instance.name}.${where}`;
          try {
            result = compileWithTextualWorkload(textual, known, (names) => compileExpression(text, { known: names, where: at }));
          } catch (e) {
            const message = (e as Error).message;
            // (No key: a component's cost is in microseconds, not in a program model's costUnit.)
            const unit = e instanceof ExpressionError ? unitInExpression(e.detail, String(text), undefined) : undefined;
            return fail([...base, ...parseKeyPath(where)], unit ?? (message.startsWith(`${at}: `) ? message.slice(at.length + 2) : message));
          }
          const used = result.used[0];
          if (used !== undefined) fail(["workload", used], nonNumericWorkloadValue(used, workload[used], formatPath([...base, ...parseKeyPath(where)])));
          return result.compiled;
        },
        error(where: string, message: string): never {
          return fail([...base, ...parseKeyPath(where)], message);
        },
      };
    },
  };
}

