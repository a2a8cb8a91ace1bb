import { nearestName, type ParamDoc } from "../../engine/index.js";
import { backgroundLoadModels } from "./load.js";
import { pointToPointModels } from "./cost-model.js";
import { hasPresetParams, interconnectPresets, presetModelParams } from "./presets.js";

/** A cost model choice: a registered model name and its parameters (base units: us, bytes/s). */
export interface LinkSpec {
  /** Registered point-to-point model (`hockney`, `loggp`); default `hockney`. */
  readonly model?: string;
  /** Its parameters; see the model's ParamDocs. */
  readonly params?: Readonly<Record<string, number>>;
}

/** A background load choice. */
export interface LoadSpec {
  /** Registered load model (`none`, `piecewise`); default `none`. */
  readonly model?: string;
  /** Its parameters. */
  readonly params?: Readonly<Record<string, number>>;
}

/**
 * How a scenario describes the network. Everything is optional; the default is the
 * `gigabit-ethernet` preset (a scenario's machine section gives its node preset's interconnect
 * instead, see `MachinePreset.interconnect`) with the Hockney model, a shared-memory path of 1 us
 * and 1 GB/s, a 64 KiB eager limit and no background load.
 *
 * ```ts
 * { preset: "myrinet-2000", model: "loggp", eagerLimit: 16384, load: { model: "piecewise", params: { mean: 0.3 } } }
 * ```
 */
export interface NetworkSpec {
  /** An interconnect preset (`fast-ethernet`, `gigabit-ethernet`, `myrinet-2000`, `infiniband-4x`, `numalink-4`). */
  readonly preset?: string;
  /** Inter-node point-to-point model (default `hockney`). */
  readonly model?: string;
  /**
   * Inter-node model parameters; override what the preset gives. Without a preset they override
   * the default preset's (a scenario's: its machine's interconnect), which gives the ones left out.
   */
  readonly params?: Readonly<Record<string, number>>;
  /** For LogGP derived from a preset: fraction of alpha that is CPU overhead per side (default 0.25). */
  readonly overheadFraction?: number;
  /** Intra-node (shared-memory) path; default Hockney with alpha 1 us and 1 GB/s. */
  readonly intraNode?: LinkSpec;
  /** Messages of at most this many bytes go eagerly; larger ones use rendezvous (default 65536). */
  readonly eagerLimit?: number;
  /** Size of rendezvous control messages (request to send, clear to send) in bytes (default 0). */
  readonly controlBytes?: number;
  /** Background load (default none). */
  readonly load?: LoadSpec;
}

/** A fully resolved, validated network description (every parameter present, base units). */
export interface ResolvedNetwork {
  readonly preset: string | undefined;
  readonly interNode: { readonly model: string; readonly params: Readonly<Record<string, number>> };
  readonly intraNode: { readonly model: string; readonly params: Readonly<Record<string, number>> };
  readonly eagerLimit: number;
  readonly controlBytes: number;
  readonly load: { readonly model: string; readonly params: Readonly<Record<string, number>> };
}

/** A network description that cannot be used; `key` is the dotted path of the offending entry. */
export class NetworkConfigError extends Error {
  readonly isInputError = true;
  /** @param problem - what is wrong with the key, without it (the message names it first) */
  constructor(readonly key: string, readonly problem: string) {
    super(`${key ? `network.${key}` : "network"}: ${problem}`);
    this.name = "NetworkConfigError";
  }
}

/** Inter-node point-to-point model of a network that names none. */
export const DEFAULT_MODEL = "hockney";
/** Point-to-point model of an intra-node path that names none. */
export const DEFAULT_INTRA_MODEL = "hockney";
/** Background load model of a load that names none (no load). */
export const DEFAULT_LOAD_MODEL = "none";
/** The keys of a {@link LinkSpec} or a {@link LoadSpec} (`intraNode`, `load`): a model and its parameters. */
export const LINK_KEYS = ["model", "params"] as const;
/** Default shared-memory path: 1 us, 1 GB/s (typical of MPICH's shared-memory channel on 2004-era SMP nodes; an assumption). */
export const DEFAULT_INTRA_NODE: LinkSpec = { model: DEFAULT_INTRA_MODEL, params: { alpha: 1, bandwidth: 1e9 } };
/** Default eager limit in bytes. */
export const DEFAULT_EAGER_LIMIT = 65536;
/** Default preset. */
export const DEFAULT_PRESET = "gigabit-ethernet";

/**
 * Documentation of the scalar keys of a {@link NetworkSpec} (for scenario validation and help);
 * `params`, `intraNode` and `load` are documented by the chosen models' own ParamDocs.
 */
export const networkParams: readonly ParamDoc[] = [
  { name: "preset", type: "enum", values: ["fast-ethernet", "gigabit-ethernet", "myrinet-2000", "infiniband-4x", "numalink-4"], doc: "Interconnect preset giving alpha and bandwidth (see interconnectPresets); in a scenario the default is the machine preset's interconnect.", default: DEFAULT_PRESET },
  { name: "model", type: "enum", values: ["hockney", "loggp"], doc: "Inter-node point-to-point cost model (see pointToPointModels).", default: DEFAULT_MODEL },
  { name: "overheadFraction", type: "number", doc: "LogGP from a preset: CPU overhead o per side as a fraction of alpha (L = alpha - 2o, g = o).", default: 0.25, min: 0, max: 0.5 },
  { name: "eagerLimit", type: "quantity", dimension: "bytes", doc: "Largest message sent eagerly; larger messages use rendezvous (request to send, clear to send, data).", default: DEFAULT_EAGER_LIMIT, min: 0 },
  { name: "controlBytes", type: "quantity", dimension: "bytes", doc: "Size of rendezvous control messages.", default: 0, min: 0 },
];

const TOP_KEYS = ["preset", "model", "params", "overheadFraction", "intraNode", "eagerLimit", "controlBytes", "load"];

/** What a parameter documented by `d` is refused as, when written with no value (null): it takes none for its default. */
function emptyValue(d: ParamDoc): string {
  const what = d.type === "enum" ? "a name" : d.type !== "quantity" ? "a number" : d.dimension === "bytes" ? "a size" : d.dimension === "time" ? "a duration" : d.dimension === "bandwidth" ? "a bandwidth" : "a quantity";
  return `must be ${what}, got null (an empty value): give a value or leave the key out`;
}

/**
 * Checks `values` against `docs`: rejects unknown keys (naming the nearest known one), values
 * written empty (null), non-finite numbers and values out of range; fills in defaults.
 * @throws NetworkConfigError naming `where.key`
 */
export function validateParams(where: string, docs: readonly ParamDoc[], values: Readonly<Record<string, unknown>> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  const names = docs.map((d) => d.name);
  for (const k of Object.keys(values ?? {})) {
    if (!names.includes(k)) {
      const near = nearestName(k, names);
      // "known: none" would read as a parameter named none (the load model of that name).
      throw new NetworkConfigError(`${where}.${k}`, `unknown parameter${near ? ` (did you mean '${near}'?)` : ""}; ${names.length > 0 ? `known: ${names.join(", ")}` : "the model takes no parameters"}`);
    }
  }
  for (const d of docs) {
    if (values?.[d.name] === null) throw new NetworkConfigError(`${where}.${d.name}`, emptyValue(d));
    const v = values?.[d.name] ?? d.default;
    if (v === undefined) {
      if (d.optional) continue;
      throw new NetworkConfigError(`${where}.${d.name}`, `required (${d.doc})`);
    }
    if (typeof v !== "number" || !Number.isFinite(v)) throw new NetworkConfigError(`${where}.${d.name}`, `must be a finite number, got ${JSON.stringify(v)}`);
    if (d.type === "integer" && !Number.isInteger(v)) throw new NetworkConfigError(`${where}.${d.name}`, `must be an integer, got ${v}`);
    // A vanishing positive minimum (a bandwidth's 1e-300) stands for "more than 0".
    if (d.min !== undefined && v < d.min) throw new NetworkConfigError(`${where}.${d.name}`, d.min > 0 && d.min < 1e-100 ? `must be more than 0, got ${v}` : `must be >= ${d.min}, got ${v}`);
    if (d.max !== undefined && v > d.max) throw new NetworkConfigError(`${where}.${d.name}`, `must be <= ${d.max}, got ${v}`);
    out[d.name] = v;
  }
  return out;
}

/**
 * A section's model name: `fallback` when absent.
 * @throws NetworkConfigError when it is not text
 */
function modelNameOf(key: string, name: unknown, fallback: string): string {
  if (name === undefined) return fallback;
  if (typeof name !== "string") throw new NetworkConfigError(key, `must be a model name, got ${JSON.stringify(name)}`);
  return name;
}

function lookup<T>(key: string, get: () => T): T {
  try {
    return get();
  } catch (e) {
    throw new NetworkConfigError(key, (e as Error).message);
  }
}

/**
 * Refuses a section that is given but is not a map (`params: 5`, `load: piecewise`, a list):
 * read as one, its entries would be silently ignored or named by index. Absent or null is no section.
 * @throws NetworkConfigError naming `key`
 */
function checkMap(key: string, value: unknown, expected: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "object" || Array.isArray(value)) throw new NetworkConfigError(key, `must be ${expected}, got ${JSON.stringify(value)}`);
}

/**
 * Refuses a key of a section `{ model, params }` (`intraNode`, `load`) other than {@link LINK_KEYS}:
 * a misspelt `parms` would leave the model's defaults in force without a word.
 * @throws NetworkConfigError naming `key.k`
 */
function checkLinkKeys(key: string, value: LinkSpec | LoadSpec | null | undefined): void {
  if (value === undefined || value === null) return;
  const known: readonly string[] = LINK_KEYS;
  for (const k of Object.keys(value)) {
    if (known.includes(k)) continue;
    const near = nearestName(k, known);
    throw new NetworkConfigError(`${key}.${k}`, `unknown key${near ? ` (did you mean '${near}'?)` : ""}; known: ${known.join(", ")}`);
  }
}

/** The point-to-point models that take a parameter `name` (alpha, bandwidth, L ...), by model name. */
function modelsTaking(name: string): string[] {
  return pointToPointModels.all().filter((m) => m.params.some((d) => d.name === name)).map((m) => m.name);
}

/**
 * Refuses a parameter that the chosen model lacks but another model takes (`params.L` with the
 * Hockney model), naming the model it belongs to; other unknown names are left to {@link validateParams}.
 * @throws NetworkConfigError naming `where.key`
 */
function checkModelOf(where: string, modelName: string, docs: readonly ParamDoc[], given: Readonly<Record<string, unknown>>): void {
  for (const k of Object.keys(given)) {
    if (docs.some((d) => d.name === k)) continue;
    const names = docs.map((d) => d.name).join(", ");
    if ((k === "beta" || k === "G") && docs.some((d) => d.name === "bandwidth"))
      throw new NetworkConfigError(`${where}.${k}`, `unknown parameter: give its inverse, bandwidth (e.g. 100MB/s); ${modelName} takes: ${names}`);
    const models = modelsTaking(k);
    if (models.length === 0) continue;
    throw new NetworkConfigError(`${where}.${k}`, `not a parameter of the ${modelName} model but of ${models.join(" and ")} (select it with ${where.replace(/params$/, "")}model: ${models[0]}); ${modelName} takes: ${names}`);
  }
}

/**
 * Resolves a {@link NetworkSpec}: applies the preset, validates every parameter against its
 * model's ParamDocs and fills defaults.
 * @param defaultPreset - the preset of a spec that names none: it gives the parameters `params`
 *   leaves out (a scenario gives its machine preset's interconnect)
 * @param callerKeys - keys of the same section the caller reads itself (a scenario's
 *   `collectives`), named among the known keys when a key is unknown
 * @throws NetworkConfigError (an input error) naming the offending key
 */
export function resolveNetwork(spec: NetworkSpec | null = {}, defaultPreset = DEFAULT_PRESET, callerKeys: readonly string[] = []): ResolvedNetwork {
  spec ??= {};
  if (typeof spec !== "object" || Array.isArray(spec)) throw new NetworkConfigError("", `must be a map { preset, model, params, ... }, got ${JSON.stringify(spec)}`);
  const keys = [...TOP_KEYS, ...callerKeys];
  for (const k of Object.keys(spec)) {
    if (!TOP_KEYS.includes(k)) {
      const models = modelsTaking(k);
      const near = nearestName(k, keys);
      const hint =
        models.length > 0
          ? ` (a parameter of the ${models.join(" and ")} model${models.length > 1 ? "s" : ""}: give it as params.${k})`
          : k === "latency"
            ? " (the latency is a model's parameter: params.alpha for hockney, params.L for loggp)"
            : near
              ? ` (did you mean '${near}'?)`
              : "";
      throw new NetworkConfigError(k, `unknown key${hint}; known: ${keys.join(", ")}`);
    }
  }
  // A section may be null (no section); a scalar key written empty would run with its default.
  for (const d of networkParams) if ((spec as Record<string, unknown>)[d.name] === null) throw new NetworkConfigError(d.name, emptyValue(d));
  checkMap("params", spec.params, "a map of the model's parameters (e.g. { alpha: 30us, bandwidth: 100MB/s })");
  checkMap("intraNode", spec.intraNode, "a map { model, params }");
  checkLinkKeys("intraNode", spec.intraNode);
  checkMap("intraNode.params", spec.intraNode?.params, "a map of the model's parameters");
  checkMap("load", spec.load, "a map { model, params }");
  checkLinkKeys("load", spec.load);
  checkMap("load.params", spec.load?.params, "a map of the load model's parameters");
  const modelName = modelNameOf("model", spec.model, DEFAULT_MODEL);
  const model = lookup("model", () => pointToPointModels.get(modelName));
  if (spec.preset !== undefined && typeof spec.preset !== "string") throw new NetworkConfigError("preset", `must be a preset name, got ${JSON.stringify(spec.preset)}`);
  // The named preset, else the default one, gives what `params` leaves out (`--set
  // machine.network.params.alpha=5us` changes the latency of the machine's own interconnect).
  const preset = lookup("preset", () => interconnectPresets.get(spec.preset ?? defaultPreset));
  const rho = spec.overheadFraction ?? 0.25;
  if (!(rho >= 0 && rho <= 0.5)) throw new NetworkConfigError("overheadFraction", `must be in [0, 0.5], got ${rho}`);
  // A model the default preset has no values for takes its parameters from `params` alone.
  const derivable = spec.preset !== undefined || hasPresetParams(modelName);
  const base = derivable ? lookup("model", () => presetModelParams(preset, modelName, rho)) : {};
  const given = spec.params ?? {};
  checkModelOf("params", modelName, model.params, given);
  const interParams = validateParams("params", model.params, { ...base, ...given });
  // The preset a run names: the one given, or the default when it supplied a value.
  const presetName = spec.preset ?? (Object.keys(base).some((k) => given[k] === undefined) ? defaultPreset : undefined);

  // The intra-node path defaults to DEFAULT_INTRA_NODE; its parameters override the default's
  // when the model is the default's, as a preset's are overridden by `params`.
  const intraModelName = modelNameOf("intraNode.model", spec.intraNode?.model, DEFAULT_INTRA_MODEL);
  const intraModel = lookup("intraNode.model", () => pointToPointModels.get(intraModelName));
  const intraBase = intraModelName === DEFAULT_INTRA_MODEL ? DEFAULT_INTRA_NODE.params : undefined;
  checkModelOf("intraNode.params", intraModelName, intraModel.params, spec.intraNode?.params ?? {});
  const intraParams = validateParams("intraNode.params", intraModel.params, { ...intraBase, ...(spec.intraNode?.params ?? {}) });

  const eagerLimit = spec.eagerLimit ?? DEFAULT_EAGER_LIMIT;
  if (!(eagerLimit >= 0)) throw new NetworkConfigError("eagerLimit", `must be a size >= 0 bytes (or Infinity), got ${eagerLimit}`);
  const controlBytes = spec.controlBytes ?? 0;
  if (!(controlBytes >= 0) || !Number.isFinite(controlBytes)) throw new NetworkConfigError("controlBytes", `must be a finite size >= 0 bytes, got ${controlBytes}`);

  const loadModelName = modelNameOf("load.model", spec.load?.model, DEFAULT_LOAD_MODEL);
  const loadModel = lookup("load.model", () => backgroundLoadModels.get(loadModelName));
  // A parameter of another load model (`params.mean` under the default model none, which takes
  // none) names the model it belongs to, as a point-to-point model's does.
  for (const k of Object.keys(spec.load?.params ?? {})) {
    if (loadModel.params.some((d) => d.name === k)) continue;
    const models = backgroundLoadModels.all().filter((m) => m.params.some((d) => d.name === k)).map((m) => m.name);
    if (models.length === 0) continue;
    const takes = loadModel.params.length > 0 ? `takes: ${loadModel.params.map((d) => d.name).join(", ")}` : "takes no parameters";
    throw new NetworkConfigError(`load.params.${k}`, `not a parameter of the ${loadModelName} load model but of ${models.join(" and ")} (select it with load.model: ${models[0]}); ${loadModelName} ${takes}`);
  }
  const loadParams = validateParams("load.params", loadModel.params, spec.load?.params);

  return {
    preset: presetName,
    interNode: { model: modelName, params: interParams },
    intraNode: { model: intraModelName, params: intraParams },
    eagerLimit,
    controlBytes,
    load: { model: loadModelName, params: loadParams },
  };
}
