/**
 * The metadata a simulated run writes into its TAU profile: what ran (scenario, seed, machine)
 * and with which workload, so that a run folder analysed later, alone or beside others, says
 * what it measured, as TAU_METADATA does for a real run.
 *
 * @packageDocumentation
 */
import type { ScenarioConfig } from "./scenario-schema.js";

/** The machine as the metadata names it. */
export interface RunMachineMetadata {
  /** Processor clock, MHz. */
  readonly clockMHz: number;
  /** The machine preset the scenario names. */
  readonly preset: string;
  readonly nodes: number;
  readonly processesPerNode: number;
  /** Interconnect preset, or the inter-node model's name. */
  readonly interconnect: string;
}

/**
 * Metadata of a run: the scenario, its seed, the first metric, the machine, the simulated end
 * time (microseconds), any `extra` entries, and every workload variable as `workload.<name>` (as
 * `--set workload.<name>=...` names it), which `ccasim fit --q metadata:workload.<name>` reads.
 */
export function runMetadata(config: ScenarioConfig, machine: RunMachineMetadata, simulatedTimeUs: number, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const metadata: Record<string, string> = {
    "ccasim scenario": config.name,
    "ccasim seed": String(config.seed),
    "Metric Name": config.metrics[0]!,
    "CPU MHz": String(machine.clockMHz),
    "Machine preset": machine.preset,
    "Nodes": String(machine.nodes),
    "Processes per node": String(machine.processesPerNode),
    ...extra,
    "Interconnect": machine.interconnect,
    "Simulated end time (us)": String(simulatedTimeUs),
  };
  for (const [name, value] of Object.entries(config.workload)) metadata[`workload.${name}`] = String(value);
  return metadata;
}
