import { loadScenarioText, ScenarioErrors } from "../../../scenarios/index.js";
import { executeProgramScenario, type ProgramEvaluator } from "../../../scenarios/program/index.js";

/** A scenario file around a `program:` section (given as a plain object; JSON is YAML). */
export function programScenario(program: unknown, opts: { nodes?: number; ppn?: number; workload?: Record<string, number>; trace?: boolean; metrics?: string[] } = {}): string {
  return JSON.stringify({
    name: "t",
    machine: { preset: "pentium3-xeon-700", nodes: opts.nodes ?? 2, processesPerNode: opts.ppn ?? 1, network: { preset: "fast-ethernet" } },
    workload: opts.workload ?? {},
    metrics: opts.metrics ?? ["TIME"],
    program,
    outputs: { records: [], callgraph: false, trace: opts.trace ?? false },
  });
}

/** Loads and runs a scenario text with one evaluator. */
export function runText(text: string, evaluator: ProgramEvaluator = "compiled", set: string[] = []): ReturnType<typeof executeProgramScenario> {
  const sc = loadScenarioText(text, "test.yaml", { set });
  return executeProgramScenario(sc, { evaluator });
}

/** The error messages of the ScenarioErrors thrown by `fn`. */
export function errorsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ScenarioErrors) return e.errors.map((x) => x.message);
    throw e;
  }
  throw new Error("expected ScenarioErrors");
}
