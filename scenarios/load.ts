import { readFileSync } from "node:fs";
import { RANK_NAMES, type AssemblyConfig, type ConnectionConfig, type InstanceConfig, type PreparedAssembly } from "../components/index.js";
import {
  applyOverride,
  parseOverride,
  parseYamlSource,
  type Override,
  fileErrorText,
  ScenarioError,
  ScenarioErrors,
  collectErrors,
  validateValue,
  type KeyPath,
  type SourceDoc,
} from "./lang/index.js";
import { didYouMean, nearestName } from "../engine/index.js";
import { locateNearest, otherInputFileKindText, parseKeyPath } from "../profile/index.js";
import { counterLevel, describePmuDemand, ITANIUM2_NATIVE_EVENTS, machineConfigWarnings, pmuDemand, presetMapOf, supportedCounters, type CounterName } from "../machine/index.js";
import { setupMachine, type MachineSetup } from "./machine-setup.js";
import { CYCLE_COUNTERS } from "./platform.js";
import { CONNECTION_PATTERN, scenarioSchema, type ScenarioConfig } from "./scenario-schema.js";
import { prepareProgram } from "./program/prepare.js";
import { prepareWorkloadAssembly } from "./workload-assembly.js";
import { undefinedWorkloadVariable, unknownWorkloadVariable, workloadVariablesOf } from "./workload.js";
import { SYSTEM_SLOTS, type ProgramModel } from "./program/model.js";

/**
 * A `key=value` override with where it comes from, so that its errors name that place (a column
 * of a measured-times table, an entry of a file) instead of `--set`.
 */
export interface SourcedOverride {
  /** The override, `key.path=value`. */
  readonly text: string;
  /** Where it comes from, as errors name it: `m.csv:1, column 2 'workload.NAT'`. */
  readonly source: string;
}

/** Options of {@link loadScenario}. */
export interface LoadOptions {
  /**
   * `key=value` overrides, applied before validation (as `--set`; a plain text is named
   * `--set <text>` in errors). An override may set a workload variable the scenario's workload
   * section defines, or replace the whole section, but not add a variable to it.
   */
  readonly set?: readonly (string | SourcedOverride)[];
  /** Replaces the scenario's seed (as `--seed`). */
  readonly seed?: number | string;
}

/** A scenario read, validated and resolved: ready to run. */
export interface LoadedScenario {
  /** File name as given. */
  readonly file: string;
  /** The validated configuration (base units, defaults filled, overrides applied). */
  readonly config: ScenarioConfig;
  /** Machine and network, resolved from presets and overrides. */
  readonly machine: MachineSetup;
  /** The prepared assembly, for assembly scenarios. */
  readonly assembly?: PreparedAssembly;
  /** The validated and compiled program model, for program scenarios. */
  readonly program?: ProgramModel;
  /** The overrides applied, as given. */
  readonly overrides: readonly string[];
  /**
   * An input error located at `path` in the scenario file (its line, or the nearest enclosing
   * key's), naming the overrides of that key, of anything in it and of the workload, for problems
   * found after loading, while it runs.
   */
  readonly errorAt: (path: KeyPath, message: string) => ScenarioErrors;
  /**
   * What the scenario may mean but most likely does not, each located as errors are
   * (`file:line:column: key: message`): a component connected to nothing, a kernel whose arrays
   * exceed the node's memory. The CLI prints them on stderr; they do not stop a run.
   */
  readonly warnings: readonly string[];
}

/**
 * Reads, validates and resolves a scenario file: YAML syntax, the scenario schema, machine and
 * network presets with overrides, component parameters and expressions, the wiring of the
 * assembly, and the metrics. Every error names the file, line, column and key.
 * @throws ScenarioErrors (an input error) listing every problem found
 */
export function loadScenario(file: string, options: LoadOptions = {}): LoadedScenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ScenarioErrors([new ScenarioError(`cannot read the scenario: ${fileErrorText(e, "scenario file")}`, { file })]);
  }
  return loadScenarioText(text, file, options);
}

/** {@link loadScenario} on text already in memory; `file` names it in errors. */
export function loadScenarioText(text: string, file: string, options: LoadOptions = {}): LoadedScenario {
  const doc = parseYamlSource(text, file);
  // A sweep file or a selection assembly is named for what it is, not checked key by key.
  const otherKind = otherInputFileKindText(doc.value, file, "scenario");
  if (otherKind !== undefined) throw new ScenarioErrors([new ScenarioError(otherKind, { file })]);
  // Overrides set keys inside the scenario's map: a file holding a text or a list is refused for
  // what it is, at its line, rather than as the first override's failure ("--set: cannot set a key").
  if (doc.value !== null && doc.value !== undefined && (typeof doc.value !== "object" || Array.isArray(doc.value))) validateValue<ScenarioConfig>(scenarioSchema(), doc.value, file, doc.locate);
  const overrides: NamedOverride[] = (options.set ?? []).map(namedOverride);
  if (options.seed !== undefined) overrides.push({ text: `seed=${options.seed}`, path: ["seed"], value: options.seed, source: `--seed ${options.seed}` });
  const undefinedVariables = [...undefinedWorkloadOverrides(doc, overrides), ...undefinedFunctionOverrides(doc, overrides), ...undefinedComponentOverrides(doc, overrides)];
  const value = overrides.reduce((v, o) => applyOverride(v, o.path, o.value), doc.value);
  const located = locator(doc, overrides);
  let loaded: LoadedScenario;
  try {
    loaded = resolveScenario(validateValue<ScenarioConfig>(scenarioSchema(), value, file, located), file, located, overrides, (path) => overrideNote(path, overrides, doc.locate));
  } catch (e0) {
    const e = e0 instanceof ScenarioErrors ? withIndependentErrors(e0, value, file, located, overrides) : e0;
    // Say which errors come from an override, since they have no place in the file.
    const noted = withOverrideNotes(e, overrides, file, doc.locate);
    // An override already reported as setting an undefined name explains what it causes at its key.
    // (With what it causes inside the key: a component added by a misspelt name lacks its type.)
    const explained = undefinedVariables.map((x) => x.path).filter((p): p is string => p !== undefined);
    const isExplained = (p: string | undefined): boolean => p !== undefined && explained.some((x) => p === x || p.startsWith(`${x}.`) || p.startsWith(`${x}[`));
    throw noted instanceof ScenarioErrors ? new ScenarioErrors([...undefinedVariables, ...noted.errors.filter((x) => !isExplained(x.path))], file) : noted;
  }
  if (undefinedVariables.length > 0) throw new ScenarioErrors(undefinedVariables, file);
  return loaded;
}

/**
 * Keys whose value, left out, only takes its default (a unit, a thread count, the placement, the
 * seed, an output switch) and that no check of the rest reads: an invalid one hides no structure
 * the rest of the scenario needs. (Not the node and process counts: a program model's peers are
 * checked against them. Not `outputs.records` or `callgraph`: a program model refuses them.)
 */
// (An element's unit is `...[i].unit`; a global or local named `unit` or `threads` is not matched.)
const DEFAULTED_KEY = /^program\.(?:costUnit|threads)$|^program\..*\]\.unit$|^(?:seed|description|machine\.placement|outputs\.(?:profile|trace|dir))$/;

/**
 * `e` (the schema's errors) with the errors the rest of the scenario has too, when every schema
 * error is at a key that only picks a default ({@link DEFAULTED_KEY}): the scenario is loaded
 * again without those keys, so that one run of `validate` reports a misspelt unit and a unit
 * written in a cost expression together, or a misspelt placement and a misspelt machine key.
 * Otherwise `e` itself.
 */
function withIndependentErrors(e: ScenarioErrors, value: unknown, file: string, located: SourceDoc["locate"], overrides: readonly NamedOverride[]): ScenarioErrors {
  if (e.errors.length === 0 || !e.errors.every((x) => DEFAULTED_KEY.test(x.path))) return e;
  const without = e.errors.reduce((v, x) => removeKey(v, parseKeyPath(x.path)), value);
  try {
    resolveScenario(validateValue<ScenarioConfig>(scenarioSchema(), without, file, located), file, located, overrides);
  } catch (again) {
    if (!(again instanceof ScenarioErrors)) return e;
    const seen = new Set(e.errors.map((x) => x.path));
    return new ScenarioErrors([...e.errors, ...again.errors.filter((x) => !seen.has(x.path))], file);
  }
  return e;
}

/** A copy of `root` without the map key at `path` (unchanged when the path does not lead to one). */
function removeKey(root: unknown, path: KeyPath): unknown {
  if (path.length === 0 || typeof root !== "object" || root === null) return root;
  const [k, ...rest] = path;
  if (Array.isArray(root)) {
    if (typeof k !== "number" || k >= root.length) return root;
    const copy = [...root];
    copy[k] = removeKey(root[k], rest);
    return copy;
  }
  const obj = root as Record<string, unknown>;
  if (typeof k !== "string" || !Object.prototype.hasOwnProperty.call(obj, k)) return root;
  if (rest.length === 0) {
    const { [k]: _dropped, ...kept } = obj;
    return kept;
  }
  return { ...obj, [k]: removeKey(obj[k], rest) };
}

/** An override parsed, with where it comes from. */
interface NamedOverride extends Override {
  /** Named in errors: `--set workload.x=3`, or the {@link SourcedOverride.source}. */
  readonly source: string;
}

function namedOverride(o: string | SourcedOverride): NamedOverride {
  if (typeof o === "string") return { ...parseOverride(o), source: `--set ${o}` };
  return { ...parseOverride(o.text, o.source), source: o.source };
}

/**
 * The validated configuration's machine, metrics, and assembly or program, prepared.
 * @param noteOf - what a warning at a key ends with: which override set it (` (from --set ...)`),
 *   as errors say, since the line of the file it is placed at did not
 */
function resolveScenario(config: ScenarioConfig, file: string, located: SourceDoc["locate"], overrides: readonly NamedOverride[], noteOf: (path: KeyPath) => string = () => ""): LoadedScenario {
  const fail = (path: KeyPath, message: string): never => {
    const pos = locateNearest({ locate: located }, path, "key");
    throw new ScenarioErrors([new ScenarioError(message, { file, line: pos?.line, column: pos?.column, path })]);
  };
  const warnings: string[] = [];
  const warn = (path: KeyPath, message: string): void => {
    const pos = locateNearest({ locate: located }, path, "key");
    warnings.push(new ScenarioError(message + noteOf(path), { file, line: pos?.line, column: pos?.column, path }).message);
  };
  // The sections are checked one after another, and the errors of each are reported together:
  // the machine's do not hide the assembly's (which reads no machine parameter but the number of
  // ranks, when the machine was set up). What needs the machine (metrics, a program model's
  // layout, a halo exchange's rank grid) is checked only when it was set up.
  const errors: ScenarioError[] = [];
  checkReservedWorkloadNames(config, fail);
  const machine = collectErrors(errors, () => setupMachine(config, fail));
  if (machine !== undefined) collectErrors(errors, () => checkMetrics(config, machine, fail));
  // A machine no real one is like (an L2 below the L1 in size): said, at the key, not refused.
  if (machine !== undefined) for (const w of machineConfigWarnings(machine.config, "machine", new Set(machine.overridden))) warn(parseKeyPath(w.key), w.message);
  // Whether an output was asked for (in the file or by --set), not left at its default: one the
  // scenario's kind does not write would silently be missing.
  const asked = (key: string): boolean => located(["outputs", key]) !== undefined || overrides.some((o) => isPrefix(o.path, ["outputs", key]) || isPrefix(["outputs", key], o.path));
  let assembly: PreparedAssembly | undefined;
  if (config.assembly) {
    assembly = collectErrors(errors, () => prepareWorkloadAssembly(assemblyConfig(config, fail), config.workload, fail, warn, machine?.cluster.ranks));
  }
  // (A machine that was not set up has reported its errors.)
  if (errors.length > 0 || machine === undefined) throw new ScenarioErrors(errors, file);
  let program: ProgramModel | undefined;
  if (config.program) {
    // Records and the call graph come from an assembly's proxies and timers: asked for here (in
    // the file or by --set), they would silently not be written.
    if (config.outputs.records.length > 0 && asked("records")) fail(["outputs", "records"], "a program model writes no per-invocation records (they come from an assembly's proxies): leave records out or set it to []");
    if (config.outputs.callgraph && asked("callgraph")) fail(["outputs", "callgraph"], "a program model writes no call graph (the profile's callpaths and outputs.trace show its structure): leave callgraph out or set it to false");
    const c = machine.cluster;
    const layout = { processes: c.ranks, processToNode: c.rankToNode, nodes: c.nodes, processorsPerNode: machine.config.processorsPerNode, processesPerNode: c.processesPerNode };
    const overridden = (names: readonly string[]): string => {
      const by = overrides.filter((x) => x.path[0] === "workload" && (x.path.length === 1 || names.includes(String(x.path[1]))));
      return by.length === 0 ? "" : ` (overridden: ${by.map((x) => x.source).join(", ")})`;
    };
    program = prepareProgram(config.program, config.workload, layout, { file, locate: located, overridden });
  }
  const errorAt = (path: KeyPath, message: string): ScenarioErrors => {
    const pos = locateNearest({ locate: located }, path, "key");
    // The overrides of the key, of anything in it (a component's parameters, for the component)
    // and of the workload its expressions read: which of them caused a run-time value is unknown.
    // In a program model, any expression may call a cost function or read a global, and the
    // machine's size is np.
    const readByAll = (x: NamedOverride): boolean =>
      path[0] === "program" &&
      ((x.path[0] === "program" && (x.path.length === 1 || x.path[1] === "functions" || x.path[1] === "globals")) ||
        (x.path[0] === "machine" && (x.path.length === 1 || x.path[1] === "nodes" || x.path[1] === "processesPerNode")));
    const related = overrides.filter((x) => isPrefix(x.path, path) || isPrefix(path, x.path) || x.path[0] === "workload" || readByAll(x));
    const note = related.length === 0 ? "" : ` (overridden: ${related.map((x) => x.source).join(", ")})`;
    return new ScenarioErrors([new ScenarioError(message + note, { file, line: pos?.line, column: pos?.column, path })]);
  };
  return { file, config, machine, assembly, program, overrides: overrides.map((o) => o.text), errorAt, warnings };
}


/**
 * The errors of the overrides that set a workload variable the scenario does not define (a
 * misspelt `--set workload.y=3` would otherwise run with the defined variables unchanged), each
 * located at the scenario's workload section. An override of the whole `workload` section
 * defines the variables of its value for the overrides after it.
 */
function undefinedWorkloadOverrides(doc: SourceDoc, overrides: readonly NamedOverride[]): ScenarioError[] {
  let known = workloadVariablesOf(doc.value);
  const errors: ScenarioError[] = [];
  for (const o of overrides) {
    if (o.path.length === 1 && o.path[0] === "workload") known = workloadVariablesOf({ workload: o.value });
    const name = undefinedWorkloadVariable(o.path, known);
    if (name === undefined) continue;
    const pos = doc.locate(["workload"]);
    errors.push(new ScenarioError(`${unknownWorkloadVariable(name, known)} (from ${o.source})`, { file: doc.file, line: pos?.line, column: pos?.column, path: ["workload", name] }));
  }
  return errors;
}

/**
 * The map at `section` (`program.functions`, `assembly.components`) of the scenario's value `root`,
 * or undefined when it is not a map.
 */
function sectionMap(root: unknown, section: readonly [string, string]): Record<string, unknown> | undefined {
  const parent = typeof root === "object" && root !== null ? (root as Record<string, unknown>)[section[0]] : undefined;
  const map = typeof parent === "object" && parent !== null ? (parent as Record<string, unknown>)[section[1]] : undefined;
  return typeof map === "object" && map !== null && !Array.isArray(map) ? (map as Record<string, unknown>) : undefined;
}

/**
 * The map at `section` after override `o`: `o`'s value when it replaces the map or its parent
 * section, else `current` (the file's, or an earlier override's).
 */
function sectionAfter(o: NamedOverride, section: readonly [string, string], current: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (o.path[0] !== section[0] || o.path.length > 2) return current;
  if (o.path.length === 1) return sectionMap({ [section[0]]: o.value }, section);
  return o.path[1] === section[1] ? sectionMap({ [section[0]]: { [section[1]]: o.value } }, section) : current;
}

/** The cost functions of a `program.functions` map, by name -> key as written (`Stencil` -> `Stencil(a, b)`). */
function costFunctionsOf(fns: Record<string, unknown> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const key of Object.keys(fns ?? {})) {
    const name = /^\s*([A-Za-z_]\w*)/.exec(key)?.[1];
    if (name !== undefined) out.set(name, key);
  }
  return out;
}

const FUNCTIONS = ["program", "functions"] as const;
const COMPONENTS = ["assembly", "components"] as const;

/**
 * The errors of the overrides that set a cost function the program does not define
 * (`--set program.functions.Stencl=1` would otherwise add an unused function and change nothing),
 * or define one under another key than the file's (`Stencil` for `Stencil(a, b)`), located at
 * the program's functions section. An override of the whole `program` or `program.functions`
 * defines the functions of its value for the overrides after it.
 */
function undefinedFunctionOverrides(doc: SourceDoc, overrides: readonly NamedOverride[]): ScenarioError[] {
  const program = (doc.value as Record<string, unknown> | null)?.program;
  let fns = sectionMap(doc.value, FUNCTIONS);
  const errors: ScenarioError[] = [];
  for (const o of overrides) {
    fns = sectionAfter(o, FUNCTIONS, fns);
    if (program === undefined || o.path.length < 3 || o.path[0] !== "program" || o.path[1] !== "functions" || typeof o.path[2] !== "string") continue;
    const known = costFunctionsOf(fns);
    const key = o.path[2];
    const name = /^\s*([A-Za-z_]\w*)/.exec(key)?.[1] ?? key;
    const defined = known.get(name);
    if (defined !== undefined && defined.replace(/\s+/g, "") === key.replace(/\s+/g, "")) continue;
    const pos = doc.locate(["program", "functions", ...(defined === undefined ? [] : [defined])]) ?? doc.locate(["program"]);
    const near = defined === undefined ? nearestName(name, [...known.keys()]) : undefined;
    const detail =
      defined !== undefined
        ? `cost function '${name}' is defined as '${defined}': set program.functions.${defined}`
        : `'${name}' is not a cost function of the program${near ? ` (did you mean '${known.get(near) ?? near}'?)` : ""}: an override changes a function, it does not add one (defined, as keys: ${[...known.values()].join(", ") || "none"})`;
    errors.push(new ScenarioError(`${detail} (from ${o.source})`, { file: doc.file, line: pos?.line, column: pos?.column, path: ["program", "functions", key] }));
  }
  return errors;
}

/**
 * The errors of the overrides that set a key inside a component the assembly does not have
 * (`--set assembly.components.Kernal.params.loads=3` would otherwise add a component of no type),
 * located at the assembly's components. An override of a whole component adds it; one of the
 * whole `assembly` or its `components` defines the components of its value for the overrides after it.
 */
function undefinedComponentOverrides(doc: SourceDoc, overrides: readonly NamedOverride[]): ScenarioError[] {
  let components = sectionMap(doc.value, COMPONENTS);
  const errors: ScenarioError[] = [];
  for (const o of overrides) {
    components = sectionAfter(o, COMPONENTS, components);
    if (o.path[0] !== "assembly" || o.path[1] !== "components" || typeof o.path[2] !== "string") continue;
    const name = o.path[2];
    const known = Object.keys(components ?? {});
    if (known.includes(name)) continue;
    if (o.path.length === 3) {
      components = { ...components, [name]: o.value };
      continue;
    }
    const pos = doc.locate(["assembly", "components"]) ?? doc.locate(["assembly"]);
    const detail = `'${name}' is not a component of the assembly${didYouMean(name, known)}: an override of one of its keys changes a component, it does not add one (to add one, set assembly.components.${name} to the whole component; components: ${known.join(", ") || "none"})`;
    errors.push(new ScenarioError(`${detail} (from ${o.source})`, { file: doc.file, line: pos?.line, column: pos?.column, path: ["assembly", "components", name] }));
  }
  return errors;
}

/** `e` with each of its scenario errors that an override caused saying so; anything else as it is. */
function withOverrideNotes(e: unknown, overrides: readonly NamedOverride[], file: string, inFile: SourceDoc["locate"]): unknown {
  if (!(e instanceof ScenarioErrors) || overrides.length === 0) return e;
  return new ScenarioErrors(
    e.errors.map((x) => {
      const note = overrideNote(parseKeyPath(x.path), overrides, inFile);
      return note ? new ScenarioError(x.detail + note, { file: x.file, line: x.line, column: x.column, path: x.path }) : x;
    }),
    file,
  );
}

/**
 * A workload variable may not take a name that expressions bind to the process itself (`rank`,
 * `size` in an assembly; `pid`, `np` ... in a program model): it would be shadowed there without
 * a word, and its value never read.
 */
function checkReservedWorkloadNames(config: ScenarioConfig, fail: (path: KeyPath, message: string) => never): void {
  const reserved: readonly string[] = config.program ? SYSTEM_SLOTS : RANK_NAMES;
  for (const name of Object.keys(config.workload))
    if (reserved.includes(name))
      fail(["workload", name], `'${name}' is a name expressions give to the ${config.program ? "process" : "rank"} itself (${reserved.join(", ")}): rename the workload variable`);
}

/**
 * Every metric must be TIME or a counter the machine records (for a program model, whose actions
 * cost time only, a cycle counter), and a machine that models a PMU (`counters.pmuCounters` > 0)
 * reads at most that many counters in one run (TIME needs none): the distinct native events PAPI's
 * preset map builds the metrics from (`pmuDemand`, `counters.presetMap`).
 */
function checkMetrics(config: ScenarioConfig, machine: MachineSetup, fail: (path: KeyPath, message: string) => never): void {
  const node = machine.cluster.nodeModels[0];
  const known = ["TIME", ...node.counterNames];
  config.metrics.forEach((m, i) => {
    if (!known.includes(m)) {
      // A counter of a cache level the machine lacks (an override removed it, or the preset has
      // none), which the machine would count with that level.
      const level = counterLevel(m);
      if (level !== undefined && !node.levelKeys.includes(level) && supportedCounters([...node.levelKeys, level], machine.config.counters.native).includes(m as CounterName))
        fail(["metrics", i], `metric '${m}' counts the ${level.toUpperCase()} cache, which the machine does not have (its levels: ${node.levelKeys.join(", ")}): leave the metric out, or give the machine an ${level}`);
      // A native event of a machine that counts PAPI presets only.
      if (machine.config.counters.native === "none" && (ITANIUM2_NATIVE_EVENTS as readonly string[]).includes(m))
        fail(["metrics", i], `metric '${m}' is an Itanium 2 native event, and the ${machine.presetName} node counts PAPI presets only (machine.counters.native: none): use a PAPI preset, or set machine.counters.native: itanium2`);
      const near = nearestName(m, known);
      fail(["metrics", i], `unknown metric '${m}'${near ? ` (did you mean '${near}'?)` : ""}: the ${machine.presetName} node records ${known.join(", ")}`);
    }
  });
  if (config.program !== undefined)
    config.metrics.forEach((m, i) => {
      if (m !== "TIME" && !CYCLE_COUNTERS.includes(m))
        fail(["metrics", i], `metric '${m}' cannot be measured in a program model: actions have costs in time only (use TIME${CYCLE_COUNTERS.filter((c) => known.includes(c)).map((c) => `, ${c}`).join("")})`);
    });
  const counters = config.metrics.filter((m) => m !== "TIME");
  const limit = machine.config.counters.pmuCounters;
  if (limit > 0) {
    const demand = pmuDemand(counters, presetMapOf(machine.config.counters));
    if (demand.natives.length > limit)
      fail(
        ["metrics"],
        `they take ${describePmuDemand(demand)}; the PMU reads at most ${limit} at once (machine.counters.pmuCounters): split them over several runs of the same seed, whose times and counts do not depend on the metrics recorded (their MULTI__<metric> folders, put in one folder, read as one trial)`,
      );
  }
}

/**
 * Positions in the file. A path an override set (or one inside it) comes from the command line: it
 * is placed at the key the override replaced where the file has that key (`metrics:` for `--set
 * metrics=[...]`), else it has none (the caller then takes the nearest enclosing key's).
 */
function locator(doc: SourceDoc, overrides: readonly Override[]): SourceDoc["locate"] {
  if (overrides.length === 0) return doc.locate;
  return (path) => {
    const o = overrides.find((x) => isPrefix(x.path, path));
    return o === undefined ? doc.locate(path) : doc.locate(o.path);
  };
}

function isPrefix(prefix: KeyPath, path: KeyPath): boolean {
  return prefix.length <= path.length && prefix.every((k, i) => k === path[i]);
}

/**
 * ` (from <override>)` when an override set the key at `path` or a key holding it, or created
 * it: set a key inside it that the file does not have (`--set machine.L2.size=...` for an
 * unknown key `machine.L2`); else "".
 */
function overrideNote(path: KeyPath, overrides: readonly NamedOverride[], inFile: SourceDoc["locate"]): string {
  const o = overrides.find((x) => isPrefix(x.path, path)) ?? (path.length >= 2 && inFile(path) === undefined ? overrides.find((x) => isPrefix(path, x.path)) : undefined);
  return o ? ` (from ${o.source})` : "";
}

/** Translates the assembly section into the component layer's configuration. */
function assemblyConfig(config: ScenarioConfig, fail: (path: KeyPath, message: string) => never): AssemblyConfig {
  const a = config.assembly!;
  const instances: InstanceConfig[] = Object.entries(a.components).map(([name, c]) => ({ name, type: c.type, params: c.params }));
  const re = new RegExp(CONNECTION_PATTERN);
  const connections: ConnectionConfig[] = a.connections.map((text, i) => {
    const m = re.exec(text);
    if (!m) fail(["assembly", "connections", i], `cannot read connection '${text}': write user.port -> provider.port`);
    return { user: m[1], usesPort: m[2], provider: m[3], providesPort: m[4] };
  });
  const proxies = a.proxies.map((p) => {
    const [component, port] = p.port.split(".");
    return { component, port, parameters: p.parameters, ...(p.methods === undefined ? {} : { methods: p.methods }) };
  });
  let entry;
  if (a.entry) {
    const [component, port, method] = a.entry.split(".");
    entry = { component, port, method };
  }
  return { instances, connections, proxies, entry };
}

