import {
  Cluster,
  collectiveParams,
  MACHINE_PARAMS,
  resolveCollectives,
  resolveNetwork,
  type CollectiveSpec,
  type MachineConfig,
  type NetworkSpec,
  type ResolvedNetwork,
} from "../machine/index.js";
import { backgroundLoadModels, DEFAULT_INTRA_MODEL, DEFAULT_LOAD_MODEL, DEFAULT_MODEL, machinePresets, pointToPointModels, resolveMachineChecked } from "../machine/index.js";
import { didYouMean, type ParamDoc } from "../engine/index.js";
import { collectErrors, parseQuantity, ScenarioError, ScenarioErrors, validateValue, type KeyPath } from "./lang/index.js";
import { machineSectionSchema, type MachineSection, type ScenarioConfig } from "./scenario-schema.js";

/** The machine of a scenario, resolved: node configuration, cluster layout, network. */
export interface MachineSetup {
  readonly presetName: string;
  readonly config: MachineConfig;
  readonly cluster: Cluster;
  readonly network: ResolvedNetwork;
  readonly collectives: CollectiveSpec;
  /** The node parameters the section sets, as dotted keys (`memory.bandwidth`), in the order given. */
  readonly overridden: readonly string[];
}

const SECTION_KEYS = new Set(["preset", "nodes", "processesPerNode", "placement", "network"]);
const PARAM_BY_NAME = new Map<string, ParamDoc>(MACHINE_PARAMS.map((p) => [p.name, p]));
/** Every key the section may hold at its top: its own and the node parameters' (or their groups, `l2`). */
const TOP_KEYS = [...SECTION_KEYS, ...new Set(MACHINE_PARAMS.map((p) => p.name.split(".")[0]))];

/**
 * Resolves the `machine:` section: the node preset with its overrides (quantities with units
 * converted through the preset's parameter documentation), the cluster layout, the interconnect
 * and the collective-algorithm choices.
 * @throws via `fail` a located input error naming the offending key
 */
export function setupMachine(config: ScenarioConfig, fail: (path: KeyPath, message: string) => never): MachineSetup {
  const section = config.machine;
  if (!machinePresets.has(section.preset)) {
    try {
      machinePresets.get(section.preset);
    } catch (e) {
      fail(["machine", "preset"], (e as Error).message);
    }
  }
  // Every key is checked before any error is thrown, so that one run names every misspelt key and
  // every quantity without its unit.
  const keyErrors: ScenarioError[] = [];
  const reportKey = (path: KeyPath, message: string): void => void collectErrors(keyErrors, () => fail(path, message));
  // Overrides: every key other than the section's own, nested maps flattened to dotted keys.
  const overrides: Record<string, unknown> = {};
  const flatten = (value: unknown, path: string[]): void => {
    const key = path.join(".");
    if (value !== null && typeof value === "object" && !Array.isArray(value) && !PARAM_BY_NAME.has(key)) {
      for (const [k, v] of Object.entries(value)) flatten(v, [...path, k]);
      return;
    }
    const doc = PARAM_BY_NAME.get(key);
    // Numbers too: a bare number is ambiguous for times, rates and frequencies (which unit?).
    if (doc?.type === "quantity" && (typeof value === "string" || typeof value === "number")) {
      try {
        // A number without unit is refused with the unit that makes it nearest the preset's value.
        value = parseQuantity(value, doc.dimension!, undefined, { typical: presetValue(section.preset, key), binaryUnits: doc.binaryUnits === true });
      } catch (e) {
        reportKey(["machine", ...path], (e as Error).message);
        return;
      }
    }
    overrides[key] = value;
  };
  for (const [k, v] of Object.entries(section)) {
    if (SECTION_KEYS.has(k)) continue;
    // Checked here, where the section's own keys are known too: a near miss of
    // `processesPerNode` is not taken for the node parameter `processorsPerNode`.
    if (!TOP_KEYS.includes(k)) reportKey(["machine", k], `unknown key${didYouMean(k, TOP_KEYS)}; known: ${TOP_KEYS.join(", ")}`);
    else flatten(v, [k]);
  }
  // The node (its overrides checked above), the interconnect and the collectives are resolved
  // apart, and their errors reported together.
  let machine: MachineConfig | undefined;
  let cluster: Cluster | undefined;
  if (keyErrors.length === 0) {
    const reportMachine = (e: unknown): void => {
      const { key, problem, related, value, expected } = e as { key?: string; problem?: string; related?: string; value?: unknown; expected?: string };
      const bare = (k: string) => k.replace(/^machine\./, "");
      if (key && problem && related && !(bare(key) in overrides) && bare(related) in overrides) {
        // A conflict between a key the scenario sets and one it leaves at the preset's value:
        // blame the key set (its location, and its --set note), naming the other.
        reportKey(keyToPath(related), `conflicts with ${bare(key)} = ${String(value)} (the preset's, not set here), which must be ${expected}`);
      } else {
        const path = key ? keyToPath(key) : ["machine"];
        // The located message names the key already: the problem alone follows it.
        reportKey(path, key && problem ? problem : (e as Error).message);
      }
    };
    try {
      // Every key out of range and every level's geometry are reported together, as the units are.
      // (By name: the keys the preset defines as equal to another follow its overrides.)
      const resolved = resolveMachineChecked(section.preset, overrides);
      for (const error of resolved.errors) reportMachine(error);
      if (resolved.errors.length === 0) {
        machine = resolved.config;
        cluster = new Cluster(machine, { nodes: section.nodes, processesPerNode: section.processesPerNode, placement: section.placement });
      }
    } catch (e) {
      reportMachine(e);
    }
  }
  const { collectives: collectivesRaw, ...netRaw } = section.network as Record<string, unknown>;
  let network: ResolvedNetwork | undefined;
  try {
    // A network naming no preset is the node preset's system's, with `params` overriding its values.
    network = resolveNetwork(convertNetworkUnits(netRaw) as NetworkSpec, machinePresets.get(section.preset).interconnect?.preset, ["collectives"]);
  } catch (e) {
    const { key, problem } = e as { key?: string; problem?: string };
    // The located message names the key already: the problem alone follows it.
    reportKey(["machine", "network", ...(key ? key.split(".") : [])], problem ?? (e as Error).message);
  }
  let collectives: CollectiveSpec | undefined;
  try {
    collectives = convertCollectiveUnits(collectivesRaw);
    // Every collective of a scenario runs on all its ranks: a forced algorithm must run on that many.
    const resolved = resolveCollectives(collectives);
    const ranks = section.nodes * section.processesPerNode;
    if (Number.isInteger(ranks) && ranks > 0) resolved.checkRanks(ranks);
  } catch (e) {
    const { key, problem } = e as { key?: string; problem?: string };
    // The located message names the key already: the problem alone follows it.
    const message = (e as Error).message;
    const named = `collectives.${key}: `;
    reportKey(["machine", "network", "collectives", ...(key ? key.split(".") : [])], problem ?? (key && message.startsWith(named) ? message.slice(named.length) : message));
  }
  // (Each part left undefined has reported its error.)
  if (keyErrors.length > 0 || machine === undefined || cluster === undefined || network === undefined || collectives === undefined) throw new ScenarioErrors(keyErrors);
  return { presetName: section.preset, config: machine, cluster, network, collectives, overridden: Object.keys(overrides) };
}


/**
 * The machine of a `machine:` section written in code, resolved as a scenario file's is: a preset,
 * `nodes`, `processesPerNode`, `placement` (defaults 1, 1, block), `network`, and node-parameter
 * overrides with units (`{ preset: "xeon-2.8ghz-512k", nodes: 4, l2: { size: "256KiB" } }`).
 * Run an assembly built in code on it with `runAssembly(prepareWorkloadAssembly(...),
 * buildPlatform(setup), ...)`.
 * @throws ScenarioErrors whose error names the offending key (`machine.l2.size`), with no file
 */
export function machineSetupOf(section: Readonly<Record<string, unknown>>): MachineSetup {
  const machine = validateValue<MachineSection>(machineSectionSchema(), section, "", undefined, ["machine"]);
  const fail = (path: KeyPath, message: string): never => {
    throw new ScenarioErrors([new ScenarioError(message, { path })]);
  };
  return setupMachine({ machine } as ScenarioConfig, fail);
}

/** `machine.l2.size` / `cluster.nodes` -> a scenario path. */
function keyToPath(key: string): KeyPath {
  const parts = key.split(".");
  if (parts[0] === "cluster") return ["machine", ...parts.slice(1)];
  if (parts[0] === "machine") return parts;
  return ["machine", ...parts];
}

/**
 * Network parameters may be written with units (`alpha: 30us`, `bandwidth: 100MB/s`,
 * `eagerLimit: 64KiB`); the network layer takes base units. Each value is converted by the
 * dimension its model's parameter documentation declares (the same docs the network layer
 * validates against), so a new model's parameters need nothing here.
 */
function convertNetworkUnits(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  const docsOf = (registry: { has(n: string): boolean; get(n: string): { params: readonly ParamDoc[] } }, model: unknown, fallback: string) => {
    const name = typeof model === "string" ? model : fallback;
    return registry.has(name) ? registry.get(name).params : undefined;
  };
  out.params = convertByDocs(raw.params, docsOf(pointToPointModels, raw.model, DEFAULT_MODEL), "params");
  for (const key of ["eagerLimit", "controlBytes"])
    if (typeof raw[key] === "string") out[key] = quantityAt(key, raw[key], "bytes");
  for (const [key, registry, fallback] of [
    ["intraNode", pointToPointModels, DEFAULT_INTRA_MODEL],
    ["load", backgroundLoadModels, DEFAULT_LOAD_MODEL],
  ] as const) {
    const section = raw[key];
    if (section !== null && typeof section === "object" && !Array.isArray(section)) {
      const sec = section as Record<string, unknown>;
      out[key] = { ...sec, params: convertByDocs(sec.params, docsOf(registry, sec.model, fallback), `${key}.params`) };
    }
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/**
 * Collective thresholds may be written with units (`bcastShortMsg: 12KiB`,
 * `reduceCostPerByte: 1ns`), converted by the dimension `collectiveParams` documents.
 */
function convertCollectiveUnits(raw: unknown): CollectiveSpec {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return (raw ?? {}) as CollectiveSpec;
  const spec = raw as Record<string, unknown>;
  const params = spec.params;
  if (params === null || typeof params !== "object" || Array.isArray(params)) return spec as CollectiveSpec;
  return { ...spec, params: convertByDocs(params, collectiveParams, "params") } as CollectiveSpec;
}

/**
 * A parameter map with each quantity its documentation declares converted to base units, whether
 * written with a unit or as a bare number (refused as ambiguous where the dimension needs a unit:
 * times, rates); other values and maps without docs are returned as they are.
 */
function convertByDocs(values: unknown, docs: readonly ParamDoc[] | undefined, at: string): unknown {
  if (values === null || typeof values !== "object" || Array.isArray(values) || !docs) return values;
  const converted: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const doc = docs.find((d) => d.name === k);
    converted[k] = doc?.type === "quantity" && (typeof v === "string" || typeof v === "number") ? quantityAt(`${at}.${k}`, v, doc.dimension!) : v;
  }
  return converted;
}

/**
 * A network quantity in base units; a bad one throws with its key (`params.alpha`, relative to
 * `machine.network`) so the located error names it.
 */
function quantityAt(key: string, text: string | number, dimension: NonNullable<ParamDoc["dimension"]>): number {
  try {
    return parseQuantity(text, dimension);
  } catch (e) {
    const problem = (e as Error).message;
    throw Object.assign(new Error(`${key}: ${problem}`), { key, problem });
  }
}

/** The value preset `preset` gives machine key `key` (`memory.latency`), if a number. */
function presetValue(preset: string, key: string): number | undefined {
  let cur: unknown = machinePresets.get(preset).config;
  for (const part of key.split(".")) cur = cur !== null && typeof cur === "object" ? (cur as Record<string, unknown>)[part] : undefined;
  return typeof cur === "number" ? cur : undefined;
}
