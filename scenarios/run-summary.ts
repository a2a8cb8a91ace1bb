/**
 * The deterministic summary of a run (`summary.json`), as {@link RunArtifacts.summary} holds it.
 *
 * @packageDocumentation
 */
import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { NetworkTraffic } from "../machine/index.js";

/** What every run summary holds. Times are in microseconds (`simulatedTimeUnit`). */
export type RunSummaryBase = {
  /** Marks the file as a ccasim run summary (`RUN_SUMMARY_MARK`). */
  readonly ccasim: string;
  /** The scenario's name. */
  readonly scenario: string;
  /**
   * The scenario file's name, without its directory (the same however and wherever the path was
   * given, so that one scenario and seed give byte-identical summaries); for a sweep's inline
   * scenario, the sweep file's name and `(inline scenario)`.
   */
  readonly file: string;
  /** The seed every random stream derives from. */
  readonly seed: string | number;
  /** The `key=value` overrides applied, as given. */
  readonly overrides: readonly string[];
  /** Simulated end time in microseconds. */
  readonly simulatedTime: number;
  readonly simulatedTimeUnit: "us";
  /** Events the kernel fired. */
  readonly events: number;
  /**
   * Messages and bytes the interconnect carried, between nodes and within a node: user and
   * collective-internal messages (their payloads), and each rendezvous's request- and clear-to-send
   * (`controlBytes` each).
   */
  readonly network: NetworkTraffic;
  /** Warnings of the run (also printed by `ccasim run`). */
  readonly warnings: readonly string[];
  /** Messages sent but never received, described. */
  readonly unreceivedMessages: readonly string[];
  /**
   * `false` when the run measured nothing (`ccasim run --no-measure`): it wrote no profile, records,
   * call graph or evidence, whatever `resolved.outputs` asks for. Absent for a measured run.
   */
  readonly measured?: false;
  /**
   * The validated scenario with the machine resolved from its preset (the node configuration and
   * the network) and, for an assembly, the defaults its components' types declare
   * (`ParamDoc.default`) where it left those parameters out.
   */
  readonly resolved: Readonly<Record<string, unknown>>;
};

/** The summary of a run of a component assembly. */
export type AssemblyRunSummary = RunSummaryBase & {
  /** Simulated MPI ranks. */
  readonly ranks: number;
  /** Component method invocations. */
  readonly invocations: number;
  /** Proxy records written (one per proxied invocation). */
  readonly records: number;
  /** Kernel invocations whose cache misses each engine computed (`missModel` chooses). */
  readonly missEngines: { readonly analytical: number; readonly reference: number };
};

/** The summary of a run of a program model (paper 003). */
export type ProgramRunSummary = RunSummaryBase & {
  readonly kind: "program model";
  readonly processes: number;
  readonly threadsPerProcess: number;
  /** {@link RunSummaryBase.simulatedTime} in seconds. */
  readonly simulatedSeconds: number;
  /** Model elements executed. */
  readonly elementsExecuted: number;
  /** When each process finished, in microseconds. */
  readonly finishTimes: readonly number[];
};

/** A run summary: of an assembly, or (with `kind: "program model"`) of a program model. */
export type RunSummary = AssemblyRunSummary | ProgramRunSummary;

/** {@link RunSummaryBase.file}'s form of a scenario's file name. */
export function summaryFileName(file: string): string {
  if (existsSync(file)) return basename(file);
  // A sweep file's inline scenario: the sweep file's name.
  const inline = /^(.*) \(inline scenario\)$/.exec(file);
  return inline !== null && existsSync(inline[1]!) ? `${basename(inline[1]!)} (inline scenario)` : file;
}
