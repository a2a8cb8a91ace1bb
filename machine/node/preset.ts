/**
 * Machine presets: named, documented, overridable machine configurations registered in
 * {@link machinePresets}. Every number of a preset carries its source; numbers tuned to reproduce
 * a paper's observation rather than read from a datasheet are marked `calibrated`.
 *
 * @packageDocumentation
 */
import type { ParamDoc } from "../../engine/params.js";
import { Registry, type Registrable } from "../../engine/registry.js";
import { LEVEL_KEYS, type MachineConfig } from "./config.js";
import { presetMapOf } from "./counters.js";
import { MACHINE_PARAMS, machineParam, machineValue } from "./params.js";

/** Where a preset's number comes from. */
export interface ParamSource {
  /** Citation (paper, manual, table). */
  readonly source: string;
  /** True when the number was tuned to reproduce an observation rather than taken from a datasheet. */
  readonly calibrated?: boolean;
  /**
   * The key whose value this one is by the preset's definition, not a figure of its own: the
   * remote memory of a distributed-memory node, which has none, is its local memory
   * (`memory.remoteBandwidth` equal to `memory.bandwidth`). Overrides of that key alone carry
   * this one along (see {@link resolveMachine}); the two values must be equal in the preset, and
   * that key must be a figure of its own (not equal to a third).
   */
  readonly equalTo?: string;
}

/**
 * The source of a preset's value as its documentation states it: the citation, and for a key
 * {@link ParamSource.equalTo} another, that it follows that key's override.
 */
function sourceText(src: ParamSource): string {
  return src.equalTo === undefined ? src.source : `${src.source}; so it follows an override of ${src.equalTo} unless it is set too`;
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
 * @throws Error when a present parameter has no source (every number must be cited), or one
 *   {@link ParamSource.equalTo} another differs from it or names a key itself equal to a third
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
    if (src.equalTo !== undefined && machineValue(config, src.equalTo) !== v) {
      throw new Error(`machine preset '${name}': parameter '${p.name}' is equal to '${src.equalTo}' by its source, but is ${String(v)} where '${src.equalTo}' is ${String(machineValue(config, src.equalTo))}`);
    }
    // Why: an override carries a key along with the one it is equal to, once, not on to a third.
    const followed = src.equalTo === undefined ? undefined : sources[src.equalTo]?.equalTo;
    if (followed !== undefined) {
      throw new Error(`machine preset '${name}': parameter '${p.name}' is equal to '${src.equalTo}' by its source, which is itself equal to '${followed}': make it equal to '${followed}'`);
    }
    params.push({ ...p, default: v, doc: `${p.doc} Source: ${sourceText(src)}${src.calibrated ? " [calibrated]" : ""}.` });
  }
  return { name, summary, config, sources, params, ...(interconnect !== undefined ? { interconnect } : {}) };
}

/** One machine parameter of a preset: its value, meaning and source (what `ccasim presets <name>` lists). */
export interface PresetParameter {
  /** Dotted key (`l2.size`). */
  readonly key: string;
  /**
   * Value in base units (numbers: bytes, hertz, cycles, ...) or as given (strings, booleans);
   * null for a key that has no value unless a scenario gives one (`memory.size`).
   */
  readonly value: unknown;
  /** What the parameter means, without the source. */
  readonly meaning: string;
  /** The preset's citation for the value, or why the key takes its default. */
  readonly source: string;
  /** True when the value was tuned to reproduce an observation rather than read from a datasheet. */
  readonly calibrated: boolean;
  /** The preset leaves the key out: `value` is the default the node model then takes. */
  readonly defaulted: boolean;
}

/**
 * Every machine parameter of `preset`, in the order of the machine's parameter documentation
 * ({@link MACHINE_PARAMS}): those it sets, with its value and source, and the optional ones it
 * leaves out (a level's sector, `computeEfficiency`, `memory.size`) with the value the node model
 * then takes, marked `defaulted`.
 */
export function presetParameters(preset: MachinePreset): PresetParameter[] {
  const set = new Map(preset.params.map((p) => [p.name, p]));
  const out: PresetParameter[] = [];
  for (const doc of MACHINE_PARAMS) {
    const p = set.get(doc.name);
    if (p !== undefined) {
      const source = preset.sources[p.name];
      out.push({ key: p.name, value: p.default, meaning: machineParam(p.name)?.doc ?? p.doc, source: source === undefined ? "" : sourceText(source), calibrated: source?.calibrated === true, defaulted: false });
      continue;
    }
    const fallback = defaultOf(doc.name, preset);
    if (fallback !== undefined) out.push({ key: doc.name, value: fallback.value, meaning: doc.doc, source: `not set by the preset: ${fallback.why}`, calibrated: false, defaulted: true });
  }
  return out;
}

/**
 * The value an optional machine key takes when `preset` leaves it out (as the node model reads
 * it), or undefined when the key does not apply (a key of a level the preset lacks).
 */
function defaultOf(key: string, preset: MachinePreset): { value: unknown; why: string } | undefined {
  const [group, name] = key.split(".");
  const level = (LEVEL_KEYS as readonly string[]).includes(group!) ? (preset.config as unknown as Record<string, { line: number } | undefined>)[group!] : undefined;
  if (name === "sector" && level) return { value: level.line, why: `the default, ${group}.line` };
  if (key === "l1.integerOnly" && level) return { value: false, why: "the default" };
  if (key === "computeEfficiency") return { value: 1, why: "the default, peak rates" };
  if (key === "counters.presetMap") return { value: presetMapOf({ native: preset.config.counters.native }), why: "the default for its native events (counters.native)" };
  if (key === "memory.size") return { value: null, why: "none, so no kernel's arrays are checked against a memory size" };
  return undefined;
}
