/**
 * Resolving a machine: a preset by name, overridden key by key (nested objects or dotted keys such
 * as `l2.size`, as sweeps produce them), then validated.
 *
 * @packageDocumentation
 */
import { nearestName } from "../../engine/registry.js";
import "../presets/index.js";
import { LEVEL_KEYS, type MachineConfig } from "./config.js";
import { MachineInputError } from "./errors.js";
import { MACHINE_PARAMS, machineConfigErrors, machineValue } from "./params.js";
import { machinePresets, type ParamSource } from "./preset.js";

/** Overrides: nested objects and/or dotted keys; `null` removes a cache level (`{ l3: null }`). */
export type MachineOverrides = { readonly [key: string]: unknown };

const PARAM_NAMES = MACHINE_PARAMS.map((p) => p.name);
const GROUPS = new Set(PARAM_NAMES.filter((n) => n.includes(".")).map((n) => n.split(".")[0]));

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function unknownKey(path: string, prefix: string): never {
  const near = nearestName(path, [...PARAM_NAMES, ...GROUPS]);
  throw new MachineInputError(`${prefix}.${path}`, "a known machine parameter", path, `unknown machine parameter${near ? ` (did you mean '${near}'?)` : ""}`);
}

/**
 * Sets `path` (a dotted parameter key or a group) of `target` to `value`, adding every parameter
 * key it sets to `set`.
 */
function apply(target: Record<string, unknown>, path: string, value: unknown, prefix: string, set: Set<string>): void {
  const parts = path.split(".");
  if (parts.length === 1 && GROUPS.has(path)) {
    if (value === null) {
      if (!(LEVEL_KEYS as readonly string[]).includes(path)) throw new MachineInputError(`${prefix}.${path}`, `an object (only cache levels ${LEVEL_KEYS.join(", ")} can be removed with null)`, null);
      delete target[path];
      return;
    }
    if (!isPlainObject(value)) {
      // A level given as its size alone (`l2: 512KiB`) is the likeliest slip: say how to write it.
      const keys = PARAM_NAMES.filter((n) => n.startsWith(`${path}.`)).map((n) => n.slice(path.length + 1));
      const level = (LEVEL_KEYS as readonly string[]).includes(path) && (typeof value === "string" || typeof value === "number");
      const advice = level ? `: write ${path}: { size: ${String(value)} }` : `: a map of ${keys.join(", ")}`;
      throw new MachineInputError(`${prefix}.${path}`, "an object of parameters", value, `expected an object of parameters, got ${JSON.stringify(value)}${advice}`);
    }
    if (!isPlainObject(target[path])) target[path] = {};
    for (const [k, v] of Object.entries(value)) apply(target, `${path}.${k}`, v, prefix, set);
    return;
  }
  if (!PARAM_NAMES.includes(path)) unknownKey(path, prefix);
  set.add(path);
  if (parts.length === 1) {
    target[path] = value;
    return;
  }
  const [group, key] = parts;
  if (!isPlainObject(target[group])) target[group] = {};
  const g = target[group] as Record<string, unknown>;
  if (value === null || value === undefined) delete g[key];
  else g[key] = value;
}

/**
 * The configuration of preset `preset` (or a copy of a full configuration) with `overrides`
 * applied, validated. A key the named preset defines as equal to another
 * ({@link ParamSource.equalTo}: the remote memory of a distributed-memory node, equal to its
 * local memory) takes that key's overridden value unless `overrides` set it too, and an error
 * of that value is reported at the key set alone; a full configuration has no such keys.
 * @param prefix - how keys are named in errors (default `machine`, giving `machine.l2.size`)
 * @throws UnknownNameError (input error) for an unknown preset name, suggesting the nearest
 * @throws MachineInputError (input error) naming the offending key and the expected unit/range
 */
export function resolveMachine(preset: string | MachineConfig, overrides: MachineOverrides = {}, prefix = "machine"): MachineConfig {
  const { config, errors } = resolveMachineChecked(preset, overrides, prefix);
  if (errors.length > 0) throw errors[0];
  return config;
}

/**
 * {@link resolveMachine} that returns every problem of the resolved configuration
 * ({@link machineConfigErrors}: each key out of type or range, each level's geometry) instead of
 * throwing the first, for a caller that reports them together. `config` is valid only when
 * `errors` is empty.
 * @throws UnknownNameError (input error) for an unknown preset name, suggesting the nearest
 * @throws MachineInputError (input error) for an override that cannot be applied: an unknown key,
 *   a group that is not a map, a new cache level given in part
 */
export function resolveMachineChecked(preset: string | MachineConfig, overrides: MachineOverrides = {}, prefix = "machine"): { config: MachineConfig; errors: MachineInputError[] } {
  const named = typeof preset === "string" ? machinePresets.get(preset) : undefined;
  const base = named?.config ?? (preset as MachineConfig);
  const config = structuredClone(base) as unknown as Record<string, unknown>;
  if (!isPlainObject(overrides)) throw new MachineInputError(prefix, "an object of overrides", overrides);
  const set = new Set<string>();
  for (const [k, v] of Object.entries(overrides)) apply(config, k, v, prefix, set);
  // Keys defined as equal to another follow its override (why: a distributed-memory node's remote
  // memory is its local memory; overriding one alone would leave a remote memory the node lacks).
  // Each key carried along, by the key it follows.
  const carried = new Map<string, string>();
  for (const [key, src] of Object.entries(named?.sources ?? {})) {
    if (src.equalTo === undefined || !set.has(src.equalTo) || set.has(key)) continue;
    apply(config, key, machineValue(config, src.equalTo), prefix, new Set());
    carried.set(`${prefix}.${key}`, `${prefix}.${src.equalTo}`);
  }
  checkNewLevels(base, config, prefix);
  const resolved = config as unknown as MachineConfig;
  const errors = machineConfigErrors(resolved, prefix);
  // A key carried along holds the value of the key it follows, under the same type and range: its
  // error repeats that key's, which names what the overrides set.
  const reported = new Set(errors.map((e) => e.key));
  return { config: resolved, errors: errors.filter((e) => !reported.has(carried.get(e.key) ?? "")) };
}

/**
 * A cache level the base machine lacks, added by overrides, needs all of size, line, assoc and
 * latency (nothing of it comes from the preset): the error names the first key given, which is
 * the one the user wrote, and lists what is missing.
 */
function checkNewLevels(base: MachineConfig, config: Record<string, unknown>, prefix: string): void {
  for (const lk of LEVEL_KEYS) {
    const lv = config[lk];
    if (isPlainObject(base[lk]) || !isPlainObject(lv)) continue;
    const missing = NEW_LEVEL_KEYS.filter((req) => lv[req] === undefined);
    const given = Object.keys(lv);
    if (missing.length === 0 || given.length === 0) continue;
    throw new MachineInputError(
      `${prefix}.${lk}.${given[0]}`,
      "",
      lv[given[0]!],
      `${lk} is a new level (the machine has none): a new level needs ${NEW_LEVEL_KEYS.join(", ")} (missing: ${missing.join(", ")}), for example ${prefix}.${lk}: { size: 2MiB, line: 128B, assoc: 8, latency: 14 }`,
    );
  }
}

/** What a cache level needs when no preset gives it (sector defaults to line). */
const NEW_LEVEL_KEYS = ["size", "line", "assoc", "latency"] as const;

