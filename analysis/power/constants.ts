/**
 * Named constant sets of the counter-based power and performance models (paper 004, section 3),
 * one per architecture. `itanium2-madison` carries the constants and counter names of TAU
 * PerfExplorer's Itanium 2 scripts (tools/src/perfexplorer/openuh/powerModels.py,
 * memoryStalls.py, inefficiency.py, totalStalls.py in UO-OACISS/tau2). New sets are registered
 * with `powerConstantSets.register(...)` or loaded from a YAML/JSON file.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { AnalysisInputError } from "../errors.js";
import { keyPlace, keyText, notYamlError } from "../yaml-input.js";
import { NamedRegistry } from "../registry.js";
import { fileErrorText, measurementFileKind, otherInputFileKindText, parseLocatedYaml, YamlTextError, type KeyPath, type LocatedYaml } from "../../profile/index.js";

/** One on-die component of the power model: Power = AccessRate · ArchitecturalScaling · MaxPower. */
export interface PowerComponent {
  /** Component name ("core", "L1", "L2", "L3"). */
  readonly name: string;
  /** Architectural scaling factor (share of transistors), dimensionless. */
  readonly scaling: number;
  /** Counters counting its accesses, in order of preference; AccessRate = accesses / cycles. */
  readonly accessCounters: readonly string[];
}

/** Latencies (cycles) of the memory-stall model. */
export interface MemoryLatencies {
  /** Per L1 hit (PerfExplorer's script adds this term; the paper's formula omits it). */
  readonly l1: number;
  /** Per L2 hit. */
  readonly l2: number;
  /** Per L3 hit. */
  readonly l3: number;
  /** Per local memory access. */
  readonly local: number;
  /** Per remote memory access (worst case, system dependent). */
  readonly remote: number;
  /** Per TLB miss. */
  readonly tlb: number;
}

/** Counter names (alternatives in order of preference) the models read. */
export interface CounterNames {
  /** Total cycles. */
  readonly cycles: readonly string[];
  /** Wall-clock time in microseconds. */
  readonly time: readonly string[];
  /** Retired instructions. */
  readonly instructions: readonly string[];
  /** Floating-point operations. */
  readonly flops: readonly string[];
  /** Back-end stall cycles. */
  readonly stallCycles: readonly string[];
  /** Floating-point stall cycles: the sum of these counters. */
  readonly flpStallTerms: readonly string[];
  /** L1 data hits. */
  readonly l1Hits: readonly string[];
  /** L2 data references. */
  readonly l2DataReferences: readonly string[];
  /** L2 misses. */
  readonly l2Misses: readonly string[];
  /** L3 misses. */
  readonly l3Misses: readonly string[];
  /** Remote memory accesses. */
  readonly remoteAccesses: readonly string[];
  /** TLB misses. */
  readonly tlbMisses: readonly string[];
}

/** A named constant set for one architecture. */
export interface PowerConstantSet {
  /** Registered name ("itanium2-madison"). */
  readonly name: string;
  /** One line for listings. */
  readonly summary: string;
  /**
   * Processors the constants describe: substrings (any case) of a trial's "CPU Type" metadata, or
   * of the machine preset a simulated run names ("Machine preset"). Undefined or empty: any.
   */
  readonly processors?: readonly string[];
  /** Thermal design power, watts. */
  readonly maxPower: number;
  /** Idle power, watts. */
  readonly idlePower: number;
  /** Components of the power model. */
  readonly components: readonly PowerComponent[];
  /** Latencies of the memory-stall model, cycles. */
  readonly latencies: MemoryLatencies;
  /** Counter names. */
  readonly counters: CounterNames;
}

/** Registry of constant sets. */
export const powerConstantSets = new NamedRegistry<PowerConstantSet>("power constant set");

const COMMON_TIME = ["LINUX_TIMERS", "TIME", "GET_TIME_OF_DAY", "P_WALL_CLOCK_TIME", "WALL_CLOCK_TIME"];

powerConstantSets.register({
  name: "itanium2-madison",
  summary: "Intel Itanium 2 Madison 9M (SGI Altix / NCSA Cobalt): MaxPower 122 W, idle 97.66 W, TAU PerfExplorer's scaling factors",
  processors: ["Itanium"],
  maxPower: 122,
  idlePower: 97.66,
  components: [
    { name: "core", scaling: 0.0459, accessCounters: ["IA64_INST_RETIRED_THIS", "IA64_INST_RETIRED", "PAPI_TOT_INS"] },
    { name: "L1", scaling: 0.0017, accessCounters: ["PAPI_L1_TCA", "L1_REFERENCES"] },
    { name: "L2", scaling: 0.0171, accessCounters: ["L2_REFERENCES", "PAPI_L2_TCA"] },
    { name: "L3", scaling: 0.935, accessCounters: ["L3_REFERENCES", "PAPI_L3_TCA"] },
  ],
  // The latencies of openuh/memoryStalls.py as it stands since tau2 commit 26edb02 (April 2008),
  // as compareMemoryStalls.py (added then) and OpenUHRules.drl's memory-stall metric have them:
  // local memory 127 cycles, L1 hits counted with PAPI_L1_DCH. memoryStalls.py's two earlier
  // versions have 150 local cycles (the latency the simulator's itanium2-madison preset uses):
  // the first (02cc46b) counts L1 hits with PAPI_L1_TCA, the second (0515c28) with PAPI_L1_DCH
  // already, so the versions with 150 and with 127 differ in that latency only. L2 2, L3 10,
  // TLB 30 and remote 232 cycles are the same in all three. (Every version's comment still
  // reads "L1 hits: PAPI_L1_TCA * 1".)
  latencies: { l1: 1, l2: 2, l3: 10, local: 127, remote: 232, tlb: 30 },
  counters: {
    cycles: ["CPU_CYCLES", "PAPI_TOT_CYC"],
    time: COMMON_TIME,
    instructions: ["IA64_INST_RETIRED_THIS", "IA64_INST_RETIRED", "PAPI_TOT_INS"],
    flops: ["PAPI_FP_OPS", "FP_OPS_RETIRED", "PAPI_FP_INS"],
    stallCycles: ["BACK_END_BUBBLE_ALL"],
    flpStallTerms: ["BE_EXE_BUBBLE_FRALL", "BE_L1D_FPU_BUBBLE_FPU"],
    l1Hits: ["PAPI_L1_DCH"],
    l2DataReferences: ["L2_DATA_REFERENCES_L2_ALL"],
    l2Misses: ["L2_MISSES"],
    l3Misses: ["L3_MISSES"],
    remoteAccesses: ["DATA_EAR_CACHE_LAT128"],
    tlbMisses: ["L2DTLB_MISSES"],
  },
});

const COUNTER_KEYS: readonly (keyof CounterNames)[] = [
  "cycles", "time", "instructions", "flops", "stallCycles", "flpStallTerms", "l1Hits", "l2DataReferences", "l2Misses", "l3Misses", "remoteAccesses", "tlbMisses",
];

/** The keys of a constant set in a constants file. @internal */
export const CONSTANT_SET_KEYS: readonly string[] = ["name", "summary", "processors", "maxPower", "idlePower", "components", "latencies", "counters"];

/** The keys of one component of a constant set (`components[i]`). */
const COMPONENT_KEYS: readonly string[] = ["name", "scaling", "accessCounters"];

/**
 * Validates a plain object as a constant set. Counter lists left out are taken from `base`
 * (default `itanium2-madison`), so a file may give only the power constants. `processors` (a name
 * or a list) is the set's own, never the base's: left out, the set applies to any processor.
 * @throws AnalysisInputError naming the offending key
 */
export function parsePowerConstantSet(raw: unknown, where: string, base: PowerConstantSet = powerConstantSets.get("itanium2-madison")): PowerConstantSet {
  const fail = (path: KeyPath, msg: string): never => {
    throw new ConstantSetKeyError(path, msg, where);
  };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail([], "expected a mapping");
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!CONSTANT_SET_KEYS.includes(k)) fail([k], `unknown key (known: ${CONSTANT_SET_KEYS.join(", ")})`);
  // Why String for numbers: JSON.stringify writes Infinity (YAML's .inf, 1e400) and NaN as null.
  const num = (v: unknown, key: KeyPath): number =>
    typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : fail(key, v === undefined ? "missing: expected a non-negative number" : `expected a non-negative number, got ${typeof v === "number" ? String(v) : JSON.stringify(v)}`);
  const strs = (v: unknown, key: KeyPath, what = "a counter name"): string[] =>
    Array.isArray(v) && v.every((s) => typeof s === "string") ? (v as string[]) : typeof v === "string" ? [v] : fail(key, `expected ${what} or a list of them`);
  // A blank counter name matches no counter of any trial (this file is at fault, not the trial);
  // a blank processor name is part of every processor's name (it would match them all).
  const nonEmpty = (v: unknown, key: KeyPath, what: string): string[] => {
    const names = strs(v, key, what);
    names.forEach((n, i) => n.trim() === "" && fail(Array.isArray(v) ? [...key, i] : key, `expected a non-empty ${what.replace(/^an? /, "")}`));
    return names;
  };
  const counterNames = (v: unknown, key: KeyPath): string[] => nonEmpty(v, key, "a counter name");
  if (typeof o.name !== "string" || o.name === "") fail(["name"], "expected a non-empty string");
  if (!Array.isArray(o.components) || o.components.length === 0) fail(["components"], "expected a non-empty list");
  const components = (o.components as unknown[]).map((c, i) => {
    const key = ["components", i];
    if (typeof c !== "object" || c === null || Array.isArray(c)) return fail(key, "expected a mapping");
    const cc = c as Record<string, unknown>;
    // A key the model does not read (a per-component maxPower, a misspelt scaling) would be ignored unsaid.
    for (const k of Object.keys(cc)) if (!COMPONENT_KEYS.includes(k)) fail([...key, k], `unknown key (known: ${COMPONENT_KEYS.join(", ")})`);
    if (typeof cc.name !== "string" || cc.name === "") fail([...key, "name"], "expected a non-empty string");
    // Eq. 6 sums every component: one listed twice would count its power twice.
    const first = (o.components as unknown[]).findIndex((d) => typeof d === "object" && d !== null && (d as Record<string, unknown>).name === cc.name);
    if (first < i) fail([...key, "name"], `'${cc.name as string}' is components[${first}]'s name too: each component is listed once (the total sums them)`);
    const accessCounters = counterNames(cc.accessCounters, [...key, "accessCounters"]);
    if (accessCounters.length === 0) fail([...key, "accessCounters"], "expected at least one counter name (the component's accesses)");
    return { name: cc.name as string, scaling: num(cc.scaling, [...key, "scaling"]), accessCounters };
  });
  const mapping = (v: unknown, key: string): Record<string, unknown> =>
    v === undefined ? {} : typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail([key], "expected a mapping");
  const lat = mapping(o.latencies, "latencies");
  const latencies = { ...base.latencies };
  for (const [k, v] of Object.entries(lat)) {
    if (!(k in latencies)) fail(["latencies", k], `unknown latency (known: ${Object.keys(base.latencies).join(", ")})`);
    (latencies as Record<string, number>)[k] = num(v, ["latencies", k]);
  }
  const cnt = mapping(o.counters, "counters");
  const counters: Record<string, readonly string[]> = { ...base.counters };
  for (const [k, v] of Object.entries(cnt)) {
    if (!COUNTER_KEYS.includes(k as keyof CounterNames)) fail(["counters", k], `unknown counter role (known: ${COUNTER_KEYS.join(", ")})`);
    counters[k] = counterNames(v, ["counters", k]);
    if (counters[k].length === 0) fail(["counters", k], `expected at least one counter name (leave the role out to use ${base.name}'s)`);
  }
  const maxPower = num(o.maxPower, ["maxPower"]);
  if (maxPower === 0) fail(["maxPower"], "expected the thermal design power in watts, above 0, got 0");
  const idlePower = num(o.idlePower, ["idlePower"]);
  // TotalPower = Σ components + IdlePower: an idle power above MaxPower puts every estimate above it.
  if (idlePower > maxPower) fail(["idlePower"], `${idlePower} W is above maxPower (${maxPower} W, the thermal design power): every estimate would exceed it`);
  return {
    name: o.name as string,
    summary: typeof o.summary === "string" ? o.summary : `constant set from ${where}`,
    ...(o.processors === undefined ? {} : { processors: nonEmpty(o.processors, ["processors"], "a processor name") }),
    maxPower,
    idlePower,
    components,
    latencies,
    counters: counters as unknown as CounterNames,
  };
}

/** A bad key of a constant set: the message reads `<where>: key '<key>': <what is wrong>`. */
class ConstantSetKeyError extends AnalysisInputError {
  constructor(
    readonly path: KeyPath,
    readonly problem: string,
    where: string,
  ) {
    super(`key '${keyText(path)}': ${problem}`, where);
  }
}

/**
 * Reads constant sets from a YAML or JSON file (one set, or a list of sets) and registers them.
 * @returns the sets read
 * @throws AnalysisInputError when the file cannot be read or parsed, or a set is invalid or its
 *   name taken by a different set (the same set again gives the registered one)
 */
export function loadPowerConstantFile(path: string): PowerConstantSet[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new AnalysisInputError(`cannot read power constant file: ${fileErrorText(e)}`, path);
  }
  let located: LocatedYaml;
  try {
    located = parseLocatedYaml(text);
  } catch (e) {
    // A profile given in its place is named for what it is.
    const measured = measurementFileKind(path);
    if (measured !== undefined) throw new AnalysisInputError(`this is ${measured}, not a power constants file: --constants-file reads power constants in YAML or JSON (ccasim power --help); the profile is the input before the options`, path);
    if (e instanceof YamlTextError) throw notYamlError(path, e);
    throw e;
  }
  const doc = located.value;
  // A scenario, a sweep file or an assembly is named for what it is, not checked key by key.
  const otherKind = otherInputFileKindText(doc, path, "power");
  if (otherKind !== undefined) throw new AnalysisInputError(otherKind, path);
  const list = Array.isArray(doc) ? doc : [doc];
  if (list.length === 0) throw new AnalysisInputError("holds no power constant set: write one set (a mapping) or a list of sets", path);
  return list.map((raw, i) => {
    let set: PowerConstantSet;
    try {
      set = parsePowerConstantSet(raw, list.length > 1 ? `${path} (set ${i + 1})` : path);
    } catch (e) {
      // Where the key is in the file: its line and column, as scenario errors give them.
      if (!(e instanceof ConstantSetKeyError)) throw e;
      const at = keyPlace(path, located, [...(Array.isArray(doc) ? [i] : []), ...e.path]);
      throw new AnalysisInputError(`${list.length > 1 ? `set ${i + 1}: ` : ""}key '${keyText(e.path)}': ${e.problem}`, at);
    }
    if (powerConstantSets.has(set.name)) {
      // The same file read twice in one process (a second command) gives the set already there.
      const known = powerConstantSets.get(set.name);
      if (JSON.stringify(known) === JSON.stringify(set)) return known;
      throw new AnalysisInputError(`power constant set '${set.name}' is already registered`, path);
    }
    return powerConstantSets.register(set);
  });
}
