/**
 * Running a program model: SPMD over the machine's processes (and threads), with either
 * evaluator, and turning the run into a TAU profile.
 *
 * @packageDocumentation
 */
import { runToTrial, type AssemblyRunResult, type Measurement } from "../../components/index.js";
import type { NetworkTraffic } from "../../machine/index.js";
import { Trial } from "../../profile/index.js";
import { compileProgram, type CompiledProgram } from "./compile.js";
import { interpretProgram } from "./interpret.js";
import type { ProgramModel } from "./model.js";
import { ProgramRuntime, type ProgramNetwork, type ProgramRunOptions } from "./runtime.js";
import type { TraceRecorder } from "./trace.js";

/** Which evaluator runs the model: the compiled closures (default) or the reference tree interpreter. */
export type ProgramEvaluator = "compiled" | "interpreter";

/** What a program run produced. */
export interface ProgramRunResult {
  /** T_s: simulated time of the whole run (us). */
  readonly simulatedTime: number;
  /** Elements executed (all threads). */
  readonly elementsExecuted: number;
  /** Kernel events fired. */
  readonly events: number;
  readonly processes: number;
  readonly threads: number;
  /** Timers per element (undefined with `measure: false`). */
  readonly measurement?: Measurement;
  /** Element intervals (with `trace: true`). */
  readonly trace?: TraceRecorder;
  /** Final clock of each process thread (us), by uid. */
  readonly finishTimes: Float64Array;
  /** Messages sent and never received. */
  readonly unreceived: readonly string[];
  /** Messages and bytes the network carried, per path. */
  readonly traffic: NetworkTraffic;
  /** Requests left pending or started again while pending (located at their elements), then timer overlap warnings. */
  readonly warnings: readonly string[];
  /** Wall-clock seconds of the evaluation (runtime set-up and simulation; not the transformation). */
  readonly wallSeconds: number;
  /**
   * T_e as paper 003 defines it: CPU seconds (user + system) of the evaluation. Less sensitive
   * than wall time to other programs sharing the machine.
   */
  readonly cpuSeconds: number;
}

const compiledCache = new WeakMap<ProgramModel, CompiledProgram>();

/** The compiled form of `model`, compiled on first use. */
export function compiledProgramOf(model: ProgramModel): CompiledProgram {
  let c = compiledCache.get(model);
  if (c === undefined) compiledCache.set(model, (c = compileProgram(model)));
  return c;
}

/**
 * Runs a program model on its machine layout.
 * @throws MpiDeadlockError when processes block forever; ModelRuntimeError / ExpressionError for a
 * model that fails while running (negative cost, while loop past its bound, division giving NaN)
 */
export function runProgram(model: ProgramModel, net: ProgramNetwork, options: ProgramRunOptions & { readonly evaluator?: ProgramEvaluator }): ProgramRunResult {
  const body = options.evaluator === "interpreter" ? interpretProgram(model) : compiledProgramOf(model).main;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const rt = new ProgramRuntime(model, net, options);
  rt.run((t) => body(rt, t));
  const wallSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(c0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const left = rt.world.leftovers().unreceived;
  return {
    simulatedTime: rt.sim.now,
    events: rt.sim.eventsProcessed,
    elementsExecuted: rt.executed,
    processes: model.processes,
    threads: model.threads,
    measurement: rt.measurement,
    trace: rt.trace,
    finishTimes: rt.clock,
    traffic: rt.world.net.traffic(),
    unreceived: left.map((u) => {
      const sent = u.site >= 0 ? rt.elementText(u.site) : undefined;
      return `message from process ${u.source} to process ${u.dest} (tag ${u.tag}, ${u.bytes} bytes${sent === undefined ? "" : `, sent ${sent}`}): ${u.state}`;
    }),
    warnings: [...rt.requestWarnings(), ...(rt.measurement?.warnings() ?? [])],
    wallSeconds,
    cpuSeconds,
  };
}

/**
 * The TAU profile of a measured program run: one TAU thread per process thread (`profile.pid.0.tid`),
 * one timer per element in the group of its diagram, MPI calls nested below their elements.
 * @throws Error when the run was not measured
 */
export function programToTrial(result: ProgramRunResult, metadata: Readonly<Record<string, string>> = {}): Trial {
  if (!result.measurement) throw new Error("the program run was not measured (measure: false): there is no profile to build");
  const shaped = { measurement: result.measurement, simulatedTime: result.simulatedTime } as unknown as AssemblyRunResult;
  const flat = runToTrial(shaped, metadata);
  if (result.threads === 1) return flat;
  // runToTrial numbers TAU threads by measurement rank (the uid): renumber them pid.0.tid.
  const nt = result.threads;
  return new Trial({
    metadata: flat.metadata,
    threadMetadata: flat.threadMetadata,
    metrics: flat.metrics,
    threads: flat.threads.map((t) => ({ node: Math.floor(t.node / nt), context: 0, thread: t.node % nt })),
    timers: flat.timers,
    userEvents: flat.userEvents,
    values: flat.values,
    events: flat.events,
    records: flat.recordTable,
    warnings: flat.warnings,
    source: flat.source,
  });
}
