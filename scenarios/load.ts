import { readFileSync } from "node:fs";
import {
  prepareAssembly,
  type AssemblyConfig,
  type AssemblyErrorSink,
  type ConnectionConfig,
  type CostExpression,
  type InstanceConfig,
  type PreparedAssembly,
  type PrepareEnv,
} from "../components/index.js";
import {
  applyOverride,
  compileExpression,
  parseOverride,
  parseYamlSource,
  type Override,
  ScenarioError,
  ScenarioErrors,
  validateValue,
  type KeyPath,
  type SourceDoc,
} from "./lang/index.js";
import { nearestName } from "../engine/index.js";
import { setupMachine, type MachineSetup } from "./machine-setup.js";
import { CONNECTION_PATTERN, scenarioSchema, type ScenarioConfig } from "./scenario-schema.js";
import { prepareProgram } from "./program/prepare.js";
import type { ProgramModel } from "./program/model.js";

/** Options of {@link loadScenario}. */
export interface LoadOptions {
  /** `key=value` overrides, applied before validation (as `--set`). */
  readonly set?: readonly string[];
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
    throw new ScenarioErrors([new ScenarioError(`cannot read the scenario: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file })]);
  }
  return loadScenarioText(text, file, options);
}

/** {@link loadScenario} on text already in memory; `file` names it in errors. */
export function loadScenarioText(text: string, file: string, options: LoadOptions = {}): LoadedScenario {
  const doc = parseYamlSource(text, file);
  const overrides: Override[] = (options.set ?? []).map((t) => parseOverride(t));
  if (options.seed !== undefined) overrides.push({ text: `seed=${options.seed}`, path: ["seed"], value: options.seed });
  const value = overrides.reduce((v, o) => applyOverride(v, o.path, o.value), doc.value);
  const located = locator(doc, overrides);
  let config: ScenarioConfig;
  try {
    config = validateValue<ScenarioConfig>(scenarioSchema(), value, file, located);
  } catch (e) {
    if (!(e instanceof ScenarioErrors) || overrides.length === 0) throw e;
    // Say which errors come from --set, since they have no place in the file.
    throw new ScenarioErrors(
      e.errors.map((x) => {
        const note = overrideNote(parseWhere(x.path), overrides);
        return note ? new ScenarioError(x.detail + note, { file: x.file, line: x.line, column: x.column, path: x.path }) : x;
      }),
      file,
    );
  }
  const fail = (path: KeyPath, message: string): never => {
    const pos = located(path) ?? nearestLocation(located, path);
    throw new ScenarioErrors([new ScenarioError(message + overrideNote(path, overrides), { file, line: pos?.line, column: pos?.column, path })]);
  };
  const machine = setupMachine(config, fail);
  checkMetrics(config, machine, fail);
  const workloadNames = Object.keys(config.workload);
  let assembly: PreparedAssembly | undefined;
  if (config.assembly) assembly = prepareAssembly(assemblyConfig(config, fail), workloadNames, errorSink(fail));
  let program: ProgramModel | undefined;
  if (config.program) {
    const c = machine.cluster;
    const layout = { processes: c.ranks, processToNode: c.rankToNode, nodes: c.nodes, processorsPerNode: machine.config.processorsPerNode, processesPerNode: c.processesPerNode };
    program = prepareProgram(config.program, config.workload, layout, { file, locate: located });
  }
  return { file, config, machine, assembly, program, overrides: overrides.map((o) => o.text) };
}

/** Every metric must be TIME or a counter the machine records. */
function checkMetrics(config: ScenarioConfig, machine: MachineSetup, fail: (path: KeyPath, message: string) => never): void {
  const known = ["TIME", ...machine.cluster.nodeModels[0].counterNames];
  config.metrics.forEach((m, i) => {
    if (!known.includes(m)) {
      const near = nearestName(m, known);
      fail(["metrics", i], `unknown metric '${m}'${near ? ` (did you mean '${near}'?)` : ""}: the ${machine.presetName} node records ${known.join(", ")}`);
    }
  });
}

/** Positions in the file; overridden paths have none (they come from the command line). */
function locator(doc: SourceDoc, overrides: readonly Override[]): SourceDoc["locate"] {
  if (overrides.length === 0) return doc.locate;
  return (path) => (overrides.some((o) => isPrefix(o.path, path)) ? undefined : doc.locate(path));
}

function nearestLocation(locate: SourceDoc["locate"], path: KeyPath) {
  for (let n = path.length - 1; n >= 0; n--) {
    const p = locate(path.slice(0, n));
    if (p) return p;
  }
  return undefined;
}

function isPrefix(prefix: KeyPath, path: KeyPath): boolean {
  return prefix.length <= path.length && prefix.every((k, i) => k === path[i]);
}

function overrideNote(path: KeyPath, overrides: readonly Override[]): string {
  const o = overrides.find((x) => isPrefix(x.path, path));
  return o ? ` (from --set ${o.text})` : "";
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
    return { component, port, parameters: p.parameters };
  });
  let entry;
  if (a.entry) {
    const [component, port, method] = a.entry.split(".");
    entry = { component, port, method };
  }
  return { instances, connections, proxies, entry };
}

/** Maps component-layer errors to located scenario errors. */
function errorSink(fail: (path: KeyPath, message: string) => never): AssemblyErrorSink {
  return {
    fail,
    envFor(instance: InstanceConfig, _index: number, workloadNames: readonly string[]): PrepareEnv {
      const base: KeyPath = ["assembly", "components", instance.name, "params"];
      return {
        instance: instance.name,
        workloadNames,
        compile(text: string | number, known: readonly string[], where: string): CostExpression {
          try {
            return compileExpression(text, { known });
          } catch (e) {
            return fail([...base, ...parseWhere(where)], (e as Error).message);
          }
        },
        error(where: string, message: string): never {
          return fail([...base, ...parseWhere(where)], message);
        },
      };
    },
  };
}

/** `calls[1].args.x` -> ["calls", 1, "args", "x"]. */
function parseWhere(where: string): KeyPath {
  const out: (string | number)[] = [];
  for (const part of where.split(".")) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}
