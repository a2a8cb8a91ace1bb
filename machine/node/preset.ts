/**
 * Machine presets: named, documented, overridable machine configurations registered in
 * {@link machinePresets}. Every number of a preset carries its source; numbers tuned to reproduce
 * a paper's observation rather than read from a datasheet are marked `calibrated`.
 *
 * @packageDocumentation
 */
import type { ParamDoc } from "../../engine/params.js";
import { Registry, type Registrable } from "../../engine/registry.js";
import type { MachineConfig } from "./config.js";
import { MACHINE_PARAMS, machineValue } from "./params.js";

/** Where a preset's number comes from. */
export interface ParamSource {
  /** Citation (paper, manual, table). */
  readonly source: string;
  /** True when the number was tuned to reproduce an observation rather than taken from a datasheet. */
  readonly calibrated?: boolean;
}

/** A named machine configuration. */
export interface MachinePreset extends Registrable {
  /** The configuration (base units, see `config.ts`). */
  readonly config: MachineConfig;
  /** Source of every parameter, by dotted key. */
  readonly sources: Readonly<Record<string, ParamSource>>;
  /**
   * The interconnect preset of the system this node comes from (`numalink-4` for the Altix), which
   * a scenario gets when its `machine.network` names no preset (what its `params` leave out).
   */
  readonly interconnect?: {
    readonly preset: string;
    /** Why this network (the paper's system). */
    readonly source: string;
  };
}

/** Every registered machine preset (`xeon-2.8ghz-512k`, `itanium2-madison`, ...). */
export const machinePresets = new Registry<MachinePreset>("machine preset");

/**
 * Builds a preset: its `params` are the machine parameters present in `config`, each with the
 * preset's value as default and its source (and `calibrated` mark) in the documentation.
 * @throws Error when a present parameter has no source (every number must be cited)
 */
export function definePreset(
  name: string,
  summary: string,
  config: MachineConfig,
  sources: Record<string, ParamSource>,
  interconnect?: MachinePreset["interconnect"],
): MachinePreset {
  const params: ParamDoc[] = [];
  for (const p of MACHINE_PARAMS) {
    const v = machineValue(config, p.name);
    if (v === undefined) continue;
    const src = sources[p.name];
    if (src === undefined) throw new Error(`machine preset '${name}': parameter '${p.name}' has no source`);
    params.push({ ...p, default: v, doc: `${p.doc} Source: ${src.source}${src.calibrated ? " [calibrated]" : ""}.` });
  }
  return { name, summary, config, sources, params, ...(interconnect !== undefined ? { interconnect } : {}) };
}
