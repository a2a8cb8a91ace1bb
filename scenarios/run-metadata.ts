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
 * Metadata of a run: the scenario, its seed, the first metric, the machine (its preset, counts,
 * and every other setting of the `machine:` section as `machine.<key path>`), the simulated end
 * time (microseconds), any `extra` entries, and every workload variable as `workload.<name>` (as
 * `--set workload.<name>=...` names them), which `ccasim fit --q metadata:workload.<name>` reads.
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
  for (const [key, value] of machineSettings(config.machine)) metadata[key] = value;
  for (const [name, value] of Object.entries(config.workload)) metadata[`workload.${name}`] = String(value);
  return metadata;
}

/** Keys of the `machine:` section the entries above give already. */
const NAMED = new Set(["preset", "nodes", "processesPerNode"]);

/**
 * Every other setting of the `machine:` section (the preset's overrides, the placement, the
 * network) as `machine.<key path>` (as `--set` names it) and its value as the scenario gives it:
 * the machine that ran is the preset with these, so a profile read without its scenario says
 * which (a cache size swept, a network's bandwidth). Lists as JSON.
 */
function machineSettings(section: object): [string, string][] {
  const out: [string, string][] = [];
  const walk = (value: unknown, path: string): void => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
    } else out.push([path, Array.isArray(value) ? JSON.stringify(value) : String(value)]);
  };
  for (const [k, v] of Object.entries(section)) if (!NAMED.has(k)) walk(v, `machine.${k}`);
  return out;
}
