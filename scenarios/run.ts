import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  buildCallGraph,
  runAssembly,
  runToTrial,
  ScenarioValueError,
  type AssemblyRunResult,
  type CallGraph,
  type KernelSpec,
  type Platform,
} from "../components/index.js";
import { parseKeyPath, RECORD_FILE_NAMES, RUN_FILES, RUN_PROFILE_FOLDER, RUN_SUMMARY_MARK, writeRecordFiles, writeTauProfile, writeTextFileAtomically, type ChromeTraceFile, type Trial } from "../profile/index.js";
import { writeDirectoryAtomically } from "./atomic-dir.js";
import { addedAfterRun, checkRunOutputFolder, type OutputFolderOptions } from "./output-folder.js";
import { loadScenario, type LoadedScenario, type LoadOptions } from "./load.js";
import { CONNECTION_PATTERN } from "./scenario-schema.js";
import { ExpressionError, formatBinaryBytes, formatQuantity, ScenarioErrors } from "./lang/index.js";
import type { RandomStream } from "../engine/index.js";
import { buildPlatform } from "./platform.js";
import { computeEvidence, type Evidence } from "./evidence.js";
import { runMetadata } from "./run-metadata.js";
import { executeProgramScenario } from "./program/execute.js";
import { locatedProgramError } from "./program/located-error.js";
import { assemblyTrace } from "./assembly-trace.js";
import { summaryFileName, type AssemblyRunSummary, type RunSummary } from "./run-summary.js";
import { componentsWithDefaults } from "./resolved-components.js";

/** Options of {@link executeScenario}. */
export interface ExecuteOptions {
  /** Measure (default true). `false` runs the same simulation without measurement or proxies. */
  readonly measure?: boolean;
  /**
   * Keep the trace (default: as the scenario's `outputs.trace` asks). `false` keeps none, for
   * callers that write no trace.json (a sweep point). Without measurement there is none.
   */
  readonly trace?: boolean;
  /** Progress callback (simulated time in microseconds, events so far). */
  readonly onProgress?: (now: number, events: number) => void;
}

/** Everything a run produced, in memory. */
export interface RunArtifacts {
  readonly scenario: LoadedScenario;
  readonly result: AssemblyRunResult;
  /** The profile (undefined when not measured). */
  readonly trial?: Trial;
  readonly callgraph?: CallGraph;
  /** What the profile and records show (cost centres, size scaling, record groups); undefined when not measured, and for a program model (it has no proxy records). */
  readonly evidence?: Evidence;
  /**
   * Chrome/Perfetto trace (with `outputs.trace`: a program model's elements, an assembly's timer
   * calls): `JSON.stringify` gives `trace.json`.
   */
  readonly trace?: ChromeTraceFile;
  /** Deterministic summary (`summary.json`): seed, resolved scenario, simulated time, events. */
  readonly summary: RunSummary;
  /**
   * Wall-clock figures (the only output that differs between runs with the same seed): seconds,
   * events per wall second, simulated seconds per wall second, and for program models the CPU
   * seconds of the evaluation (paper 003's T_e).
   */
  readonly timing: { readonly wallSeconds: number; readonly eventsPerSecond: number; readonly simulatedPerWall: number; readonly cpuSeconds?: number };
}

/**
 * Runs a loaded scenario: builds the platform, runs the assembly on every rank, and assembles the
 * outputs in memory.
 * @throws DeadlockError / MpiDeadlockError when ranks block forever
 */
export function executeScenario(scenario: LoadedScenario, options: ExecuteOptions = {}): RunArtifacts {
  const { config } = scenario;
  if (scenario.program) {
    try {
      return executeProgramScenario(scenario, options);
    } catch (e) {
      throw locatedProgramError(scenario, e);
    }
  }
  if (!scenario.assembly) throw new Error(`${scenario.file}: nothing to run (no assembly)`);
  const memoryWarnings: string[] = [];
  const platform = withMemoryCheck(buildPlatform(scenario.machine), scenario, memoryWarnings);
  // The node model counts across runs of one loaded scenario: this run's are the difference.
  const enginesBefore = { ...scenario.machine.cluster.nodeModels[0].missEngineInvocations };
  const t0 = process.hrtime.bigint();
  let result: AssemblyRunResult;
  try {
    result = runAssembly(scenario.assembly, platform, {
      seed: config.seed,
      metrics: config.metrics,
      workload: config.workload,
      measure: options.measure ?? true,
      // A trace is a measurement too: without measurement, none (the run is for its time alone).
      trace: (options.measure ?? true) && (options.trace ?? config.outputs.trace),
      onProgress: options.onProgress,
    });
  } catch (e) {
    throw locatedRunError(scenario, e);
  }
  if (memoryWarnings.length > 0) result = { ...result, warnings: [...memoryWarnings, ...result.warnings] };
  const wallSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cluster = scenario.machine.cluster;
  const metadata = runMetadata(
    config,
    {
      clockMHz: scenario.machine.config.clock / 1e6,
      preset: scenario.machine.presetName,
      nodes: cluster.nodes,
      processesPerNode: cluster.processesPerNode,
      interconnect: scenario.machine.network.preset ?? scenario.machine.network.interNode.model,
    },
    result.simulatedTime,
  );
  const trial = result.measurement ? runToTrial(result, metadata) : undefined;
  const callgraph = result.measurement ? buildCallGraph(result.measurement) : undefined;
  // The Mastermind is a record table: evidence and record files read its arrays, no object per record.
  const evidence = trial ? computeEvidence(trial, result.mastermind ?? []) : undefined;
  const summary: AssemblyRunSummary = {
    ccasim: RUN_SUMMARY_MARK,
    scenario: config.name,
    file: summaryFileName(scenario.file),
    seed: config.seed,
    overrides: scenario.overrides,
    ranks: result.ranks,
    simulatedTime: result.simulatedTime,
    simulatedTimeUnit: "us",
    events: result.events,
    network: result.traffic,
    invocations: result.invocations,
    records: result.mastermind?.count ?? 0,
    // One node model serves every node of the cluster.
    missEngines: {
      analytical: cluster.nodeModels[0].missEngineInvocations.analytical - enginesBefore.analytical,
      reference: cluster.nodeModels[0].missEngineInvocations.reference - enginesBefore.reference,
    },
    warnings: [...scenario.warnings, ...result.warnings],
    unreceivedMessages: result.unreceived,
    ...(result.measurement ? {} : { measured: false as const }),
    resolved: {
      ...config,
      machine: { ...config.machine, resolved: scenario.machine.config, network: scenario.machine.network },
      // The settings the run used: each component's documented defaults where the scenario left them out.
      ...(config.assembly && { assembly: { ...config.assembly, components: componentsWithDefaults(config.assembly.components) } }),
    },
  };
  return {
    scenario,
    result,
    trial,
    callgraph,
    evidence,
    trace: result.measurement?.trace ? assemblyTrace(result.measurement, cluster.rankToNode, config.name) : undefined,
    summary,
    timing: {
      wallSeconds,
      eventsPerSecond: result.events / Math.max(wallSeconds, 1e-9),
      simulatedPerWall: result.simulatedTime / 1e6 / Math.max(wallSeconds, 1e-9),
    },
  };
}

/**
 * The folder a run of `scenario` writes into: `out` when given, else the scenario's `outputs.dir`,
 * else `out/<scenario name>`.
 */
export function runOutputFolder(scenario: LoadedScenario, out?: string): string {
  return out ?? scenario.config.outputs.dir ?? join("out", scenario.config.name);
}

/** The record files a run writes, as the readers look for them. */
const [RECORDS_CSV, RECORDS_JSONL] = RECORD_FILE_NAMES;

/**
 * An input error raised while the assembly runs (a cost that evaluates negative, an argument of the
 * wrong kind), which names its component instance first (`A: ...`, `A.compute: ...`), located at
 * that component in the scenario file, as the loader's errors are; a parameter's expression that
 * does not evaluate to a finite number (`A.cost: expression ...`) is located at that parameter.
 * Other errors are returned as they are.
 */
function locatedRunError(scenario: LoadedScenario, e: unknown): unknown {
  if (!(e instanceof Error) || (e as { isInputError?: boolean }).isInputError !== true || e instanceof ScenarioErrors) return e;
  // The longest instance name the message starts with: `AB: ...` is AB's, not A's.
  const instance = (scenario.assembly?.instances ?? [])
    .map((i) => i.name)
    .filter((name) => e.message.startsWith(`${name}: `) || e.message.startsWith(`${name}.`))
    .sort((a, b) => b.length - a.length)[0];
  if (instance === undefined) return e;
  const cycle = cycleError(scenario, e);
  if (cycle !== undefined) return cycle;
  // A parameter's expression that failed to evaluate names `<instance>.<parameter>`: located there.
  if (e instanceof ExpressionError && e.where !== undefined && e.where.startsWith(`${instance}.`) && e.message.startsWith(`${e.where}: `))
    return scenario.errorAt(["assembly", "components", instance, "params", ...parseKeyPath(e.where.slice(instance.length + 1))], e.message.slice(e.where.length + 2));
  const detail = e.message.startsWith(`${instance}: `) ? e.message.slice(instance.length + 2) : e.message;
  // A value a parameter took in the run: at that parameter.
  if (e instanceof ScenarioValueError && e.key !== undefined) return scenario.errorAt(["assembly", "components", instance, "params", ...parseKeyPath(e.key)], e.problem ?? detail);
  return scenario.errorAt(["assembly", "components", instance], detail);
}

/**
 * `platform` with its kernels checked against the memory of a node when the machine gives one
 * (`machine.memory.size`): the first kernel whose arrays exceed a process's share of it adds a
 * warning to `warnings` (the model neither pages nor runs out of memory, so such a run's time
 * means nothing). Without a memory size, `platform` itself.
 */
function withMemoryCheck(platform: Platform, scenario: LoadedScenario, warnings: string[]): Platform {
  const size = scenario.machine.config.memory.size;
  if (size === undefined) return platform;
  const perNode = scenario.machine.cluster.processesPerNode;
  const share = size / perNode;
  const kernel = platform.kernel.bind(platform);
  let warned = false;
  const checked = (rank: number, spec: KernelSpec, counters: Float64Array, rng: RandomStream): number => {
    // why: two multiplications and a comparison per kernel, only when the machine has a memory size
    const bytes = spec.elements * spec.elementSize * (spec.arrays ?? 1);
    if (bytes > share && !warned) {
      warned = true;
      warnings.push(
        `a kernel on rank ${rank} works on ${spec.arrays ?? 1} array(s) of ${spec.elements} elements of ${spec.elementSize} bytes, ${formatBinaryBytes(bytes)}, ` +
          `more than a process's share of node memory, ${formatBinaryBytes(share)} (machine.memory.size ${formatQuantity(size, "bytes")} / ${perNode} process(es) per node): ` +
          "the model neither pages nor runs out of memory, so its time is not what such a run would take",
      );
    }
    return kernel(rank, spec, counters, rng);
  };
  return Object.assign(Object.create(platform) as Platform, { kernel: checked });
}

/**
 * Nesting too deep around a cycle of instances (an error carrying `cycle`, their names), located
 * at the connections between them (the last in the file), which it names: the cycle is where the
 * mistake is, not the instance that happened to reach the bound.
 */
function cycleError(scenario: LoadedScenario, e: Error): ScenarioErrors | undefined {
  const names = (e as { cycle?: unknown }).cycle;
  if (!Array.isArray(names) || names.length === 0) return undefined;
  const onCycle = new Set(names as string[]);
  const re = new RegExp(CONNECTION_PATTERN);
  const connections = (scenario.config.assembly?.connections ?? [])
    .map((text, i) => ({ m: re.exec(text), i, text }))
    .filter((c) => c.m !== null && onCycle.has(c.m[1]!) && onCycle.has(c.m[3]!));
  if (connections.length === 0) return undefined;
  const prefix = `${names[0]}: `;
  const detail = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
  const through = connections.map((c) => `${c.m![1]}.${c.m![2]} -> ${c.m![3]}.${c.m![4]}`).join(", ");
  const [head, ...rest] = detail.split(" (the most a rank nests)");
  return scenario.errorAt(["assembly", "connections", connections[connections.length - 1]!.i], `${head} through ${through}${rest.length > 0 ? ` (the most a rank nests)${rest.join("")}` : ""}`);
}


/**
 * Writes a run's outputs into `dir` atomically (a temporary sibling renamed at the end): the TAU
 * profile folder `profile/`, `records.csv` / `records.jsonl`, `callgraph.json`, `summary.json` and
 * `evidence.json` (see {@link computeEvidence}), `trace.json` (with `outputs.trace`)
 * and `timing.json`. Everything but `timing.json` is byte-identical for the same scenario and seed.
 * `dir` must be absent, empty or an earlier run's folder unless `options.overwrite` is set, and
 * never the scenario file or a folder holding it (see {@link checkRunOutputFolder}).
 * @returns the absolute output path
 * @throws OutputFolderError (an input error) when `dir` may not be replaced
 */
export function writeRunOutputs(art: RunArtifacts, dir: string, options: OutputFolderOptions = {}): string {
  checkRunOutputFolder(dir, withScenarioInput(art.scenario, options));
  const outputs = art.scenario.config.outputs;
  return writeDirectoryAtomically(dir, (tmp) => {
    // Times as simulated, fractions of a microsecond kept: rounding them as TAU's timers do would
    // erase a nanosecond-scale cost and distort a microsecond one.
    if (art.trial && outputs.profile) writeTauProfile(art.trial, join(tmp, RUN_PROFILE_FOLDER), { records: "none", integerTime: false });
    // A run without measurement has no Mastermind, hence no records (not an empty table of them).
    const records = art.result.mastermind;
    if (records) {
      writeRecordFiles(records, {
        csv: outputs.records.includes("csv") ? join(tmp, RECORDS_CSV) : undefined,
        jsonl: outputs.records.includes("jsonl") ? join(tmp, RECORDS_JSONL) : undefined,
      });
    }
    if (art.callgraph && outputs.callgraph) writeJson(join(tmp, RUN_FILES.callgraph), art.callgraph);
    if (art.evidence) writeJson(join(tmp, RUN_FILES.evidence), art.evidence);
    const trace = outputs.trace ? art.trace : undefined;
    if (trace) {
      writeTextFileAtomically(join(tmp, RUN_FILES.trace), (write) => {
        trace.writeTo(write);
        write("\n");
      });
    }
    writeJson(join(tmp, RUN_FILES.summary), art.summary);
    writeJson(join(tmp, RUN_FILES.timing), art.timing);
  });
}

/** `options` with the scenario's file among the inputs the output folder must not replace. */
export function withScenarioInput(scenario: LoadedScenario, options: OutputFolderOptions): OutputFolderOptions {
  return { ...options, inputs: [{ path: scenario.file, what: "the scenario file" }, ...(options.inputs ?? [])] };
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

/** Options of {@link runScenario}. */
export interface RunScenarioOptions extends LoadOptions, ExecuteOptions, OutputFolderOptions {
  /** Output folder (default: see {@link runOutputFolder}). */
  readonly out?: string;
  /**
   * Called with the loaded scenario once it and the output folder are checked, before the
   * simulation: a caller may refuse an option that does not apply to its kind (it throws).
   */
  readonly onLoaded?: (scenario: LoadedScenario) => void;
}

/** Where a run wrote its outputs, and what of the folder it replaced it deleted without having written it. */
export interface WrittenRun {
  /** The absolute output path. */
  readonly outDir: string;
  /**
   * Files other ccasim commands had written into the replaced run folder after its run (its
   * `report.html`, see `ADDED_AFTER_RUN`), which replacing the folder deleted; empty for a new folder.
   */
  readonly deleted: readonly string[];
}

/**
 * {@link writeRunOutputs}, noting first which files of `dir` that ccasim wrote there after an
 * earlier run (its `report.html`) the replacement deletes.
 * @throws as {@link writeRunOutputs}
 */
export function writeRunReplacing(art: RunArtifacts, dir: string, options: OutputFolderOptions = {}): WrittenRun {
  const deleted = addedAfterRun(dir);
  return { outDir: writeRunOutputs(art, dir, options), deleted };
}

/**
 * Loads, runs and writes a scenario in one call (what `ccasim run` does). The output folder is
 * checked before the simulation starts: it may not be the scenario file or a folder holding it,
 * and its parent must be writable.
 * @throws ScenarioErrors for an invalid scenario; OutputFolderError when the output folder may not be replaced or cannot be written
 */
export function runScenario(file: string, options: RunScenarioOptions = {}): RunArtifacts & WrittenRun {
  const scenario = loadScenario(file, options);
  const dir = runOutputFolder(scenario, options.out);
  checkRunOutputFolder(dir, withScenarioInput(scenario, options));
  options.onLoaded?.(scenario);
  const art = executeScenario(scenario, options);
  return { ...art, ...writeRunReplacing(art, dir, options) };
}
