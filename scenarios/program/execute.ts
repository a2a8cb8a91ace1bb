/**
 * A program scenario run end to end, producing the same artefacts as an assembly run (TAU
 * profile, summary, timing) plus the trace.
 *
 * @packageDocumentation
 */
import type { AssemblyRunResult } from "../../components/index.js";
import type { LoadedScenario } from "../load.js";
import type { ExecuteOptions, RunArtifacts } from "../run.js";
import { summaryFileName, type ProgramRunSummary } from "../run-summary.js";
import { RUN_SUMMARY_MARK } from "../../profile/index.js";
import { runMetadata } from "../run-metadata.js";
import { programToTrial, runProgram, type ProgramEvaluator, type ProgramRunResult } from "./run-program.js";
import { ChromeTrace } from "./trace.js";

/** Options of {@link executeProgramScenario}. */
export interface ProgramExecuteOptions extends ExecuteOptions {
  /** Evaluator (default compiled). */
  readonly evaluator?: ProgramEvaluator;
}

/**
 * Runs the program model of a loaded scenario.
 * @throws Error when the scenario has no program; errors of {@link runProgram}
 */
export function executeProgramScenario(scenario: LoadedScenario, options: ProgramExecuteOptions = {}): RunArtifacts & { program: ProgramRunResult } {
  const model = scenario.program;
  if (!model) throw Object.assign(new Error(`${scenario.file}: no program model to run (the scenario has no \`program:\` section)`), { isInputError: true });
  const { config, machine } = scenario;
  const mhz = machine.config.clock / 1e6;
  const measure = options.measure ?? true;
  const run = runProgram(
    model,
    { network: machine.network, collectives: machine.collectives },
    {
      seed: config.seed,
      metrics: config.metrics,
      timeDerived: { PAPI_TOT_CYC: mhz, CPU_CYCLES: mhz },
      measure,
      // A trace is a measurement too: without measurement, none (the run is for its time alone).
      trace: measure && (options.trace ?? config.outputs.trace),
      evaluator: options.evaluator,
    },
  );
  const cluster = machine.cluster;
  const metadata = runMetadata(
    config,
    {
      clockMHz: mhz,
      preset: machine.presetName,
      nodes: cluster.nodes,
      processesPerNode: cluster.processesPerNode,
      interconnect: machine.network.preset ?? machine.network.interNode.model,
    },
    run.simulatedTime,
    { "Threads per process": String(model.threads) },
  );
  const trial = run.measurement ? programToTrial(run, metadata) : undefined;
  // The assembly-shaped view the `run` command and writers share.
  const result: AssemblyRunResult = {
    simulatedTime: run.simulatedTime,
    events: run.events,
    ranks: run.processes * run.threads,
    measurement: run.measurement,
    counters: [],
    unreceived: run.unreceived,
    traffic: run.traffic,
    warnings: [...model.warnings, ...run.warnings],
    invocations: run.elementsExecuted,
  };
  const summary: ProgramRunSummary = {
    ccasim: RUN_SUMMARY_MARK,
    kind: "program model",
    scenario: config.name,
    file: summaryFileName(scenario.file),
    seed: config.seed,
    overrides: scenario.overrides,
    processes: run.processes,
    threadsPerProcess: run.threads,
    simulatedTime: run.simulatedTime,
    simulatedTimeUnit: "us",
    simulatedSeconds: run.simulatedTime / 1e6,
    events: run.events,
    network: run.traffic,
    elementsExecuted: run.elementsExecuted,
    finishTimes: Array.from(run.finishTimes),
    warnings: result.warnings,
    unreceivedMessages: run.unreceived,
    ...(run.measurement ? {} : { measured: false as const }),
    resolved: {
      ...config,
      machine: { ...config.machine, resolved: machine.config, network: machine.network },
      // What the run wrote: a program model writes no records or call graph (asked for, they are refused).
      outputs: { ...config.outputs, records: [], callgraph: false },
    },
  };
  const wall = run.wallSeconds;
  // T_e as paper 003 reports it (CPU seconds) next to the wall time every run writes.
  const timing = {
    wallSeconds: wall,
    cpuSeconds: run.cpuSeconds,
    eventsPerSecond: run.events / Math.max(wall, 1e-9),
    simulatedPerWall: run.simulatedTime / 1e6 / Math.max(wall, 1e-9),
  };
  return {
    scenario,
    result,
    trial,
    summary,
    trace: run.trace ? new ChromeTrace(run.trace, model, config.name) : undefined,
    program: run,
    timing,
  };
}
