import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, dirname, extname, resolve } from "node:path";
import { parseDocument, stringify as stringifyYaml } from "yaml";
import { collectErrors, fileErrorText, formatPath, parseOverride, parseYamlSource, schemaAt, ScenarioError, ScenarioErrors, validate, type KeyPath, type SourceDoc } from "../lang/index.js";
import { scenarioSchema } from "../scenario-schema.js";
import { locateNearest, otherInputFileKindText, type CommandInput } from "../../profile/index.js";
import { undefinedWorkloadVariable, unknownWorkloadVariable, workloadVariablesOf } from "../workload.js";
import { sweepFactors, type SweepFail } from "./design.js";
import { canonicalValue, enumeratePoints, pointOverrideEntries, pointOverrides, type SweepPoint } from "./points.js";
import type { SourcedOverride } from "../load.js";
import { sweepSchema, type AxisValue, type SweepConfig } from "./sweep-schema.js";

/** A sweep file read, validated and expanded into its points. */
export interface Sweep {
  /** The sweep file as given ("(inline)" for text). */
  readonly file: string;
  /** Study name. */
  readonly name: string;
  /** The validated configuration. */
  readonly config: SweepConfig;
  /** Scenario text every point runs (read from the referenced file, or the inline scenario as YAML); stored with the study and hashed. */
  readonly scenarioText: string;
  /**
   * The text to load the scenario from: {@link scenarioText} for a file; for an inline scenario the
   * sweep file's own text with everything but the scenario blanked, so that errors give the sweep
   * file's lines and columns.
   */
  readonly loadText: string;
  /** Scenario file name used in error messages and in re-run commands (absolute for files). */
  readonly scenarioFile: string;
  /** True when the scenario is inline in the sweep file. */
  readonly inlineScenario: boolean;
  /** Every point, in enumeration order. */
  readonly points: readonly SweepPoint[];
  /** Swept key paths, sorted. */
  readonly axes: readonly string[];
  /** Identity of the study: a hash of the scenario text, the fixed overrides and the points (resuming checks it). */
  readonly studyHash: string;
  /**
   * The {@link studyHash} the same sweep has with the other `seeds:` mode: a database written
   * with it (before `seeds: common` was the default, say) is recognised, and the key to add named.
   */
  readonly otherSeedsHash: string;
  /** Where each swept or fixed key stands in the sweep file, as errors name it: `axes key 'machine.l2.size' (s.sweep.yaml:4:3)`. */
  readonly keySources: Readonly<Record<string, string>>;
}

/**
 * Reads and expands a sweep file.
 * @throws ScenarioErrors (an input error) with file, line, column and key for every problem
 */
export function loadSweep(file: string): Sweep {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ScenarioErrors([new ScenarioError(`cannot read the sweep file: ${fileErrorText(e, "sweep file")}`, { file })]);
  }
  return loadSweepText(text, file);
}

/** {@link loadSweep} on text in memory; `file` names it in errors and anchors a relative scenario path. */
export function loadSweepText(text: string, file: string): Sweep {
  const doc = parseYamlSource(text, file);
  // A scenario or a selection assembly is named for what it is, not checked key by key.
  const otherKind = otherInputFileKindText(doc.value, file, "sweep");
  if (otherKind !== undefined) throw new ScenarioErrors([new ScenarioError(otherKind, { file })]);
  const config = validate<SweepConfig>(sweepSchema(), doc);
  const fail: SweepFail = (path: KeyPath, message: string) => {
    const pos = locateNearest({ locate: doc.locate }, path, "key");
    throw new ScenarioErrors([new ScenarioError(message, { file, line: pos?.line, column: pos?.column, path })]);
  };
  let scenarioText: string;
  let scenarioFile: string;
  const inlineScenario = typeof config.scenario !== "string";
  if (typeof config.scenario === "string") {
    scenarioFile = resolve(dirname(file), config.scenario);
    try {
      scenarioText = readFileSync(scenarioFile, "utf8");
    } catch (e) {
      return fail(["scenario"], `cannot read the scenario '${config.scenario}' (${scenarioFile}): ${fileErrorText(e, "scenario file")}`);
    }
  } else {
    scenarioText = stringifyYaml(config.scenario);
    scenarioFile = `${file} (inline scenario)`;
  }
  const loadText = inlineScenario ? inlineScenarioSource(text) ?? scenarioText : scenarioText;
  // Each key's and each axis's problem is reported, not only the first.
  const errors: ScenarioError[] = [];
  const attempt = (check: () => void): void => void collectErrors(errors, check);
  const scenarioValue = parseYamlSource(loadText, scenarioFile).value;
  // A sweep file or a selection assembly named as the scenario is named for what it is, before its
  // keys are read as a scenario's (its workload variables, none, would be the first complaint).
  const scenarioKind = inlineScenario ? undefined : otherInputFileKindText(scenarioValue, scenarioFile, "scenario");
  if (scenarioKind !== undefined) fail(["scenario"], `the scenario '${config.scenario as string}': ${scenarioKind}`);
  checkWorkloadKeys(config, workloadVariablesOf(scenarioValue), fail, attempt);
  checkScenarioValues(config, doc, attempt);
  const factors = sweepFactors(config, fail, attempt);
  if (errors.length > 0) throw new ScenarioErrors(errors, file);
  const points = enumeratePoints(factors, config.replications, config.seed, config.seeds);
  const axes = factors.flatMap((f) => f.keys).sort();
  const hashOf = (studyPoints: readonly SweepPoint[]): string =>
    createHash("sha256")
      .update(JSON.stringify({ scenarioText, set: sortedEntries(config.set), seed: config.seed, points: studyPoints.map((p) => [p.id, p.seed]) }))
      .digest("hex")
      .slice(0, 16);
  const studyHash = hashOf(points);
  const otherSeedsHash = hashOf(enumeratePoints(factors, config.replications, config.seed, config.seeds === "common" ? "per-point" : "common"));
  const name = config.name ?? basename(file, extname(file));
  const keySources: Record<string, string> = {};
  for (const [key, where] of sweepKeys(config)) {
    const pos = locateNearest({ locate: doc.locate }, where, "key");
    keySources[key] = `${formatPath(where.slice(0, -1))} key '${key}' (${file}${pos ? `:${pos.line}:${pos.column}` : ""})`;
  }
  return { file, name, config, scenarioText, loadText, scenarioFile, inlineScenario, points, axes, studyHash, otherSeedsHash, keySources };
}

/**
 * The sweep file's text with every character outside the value of its `scenario:` key made a
 * space (line ends kept): the inline scenario where it stands, so that a loader's lines and columns
 * are the sweep file's. Undefined when the value cannot be found.
 */
function inlineScenarioSource(text: string): string | undefined {
  const node = parseDocument(text).get("scenario", true) as { range?: [number, number, number] } | undefined;
  const range = node?.range;
  if (range === undefined) return undefined;
  const [start, end] = range;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    out += (i >= start && i < end) || c === "\n" || c === "\r" ? c : " ";
  }
  return out;
}

/** Every key the sweep sets, swept or fixed, with where it stands in the sweep file. */
function sweepKeys(config: SweepConfig): [string, KeyPath][] {
  return [
    ...Object.keys(config.axes).map((k): [string, KeyPath] => [k, ["axes", k]]),
    ...config.zip.flatMap((group, g) => Object.keys(group).map((k): [string, KeyPath] => [k, ["zip", g, k]])),
    ...Object.keys(config.random?.axes ?? {}).map((k): [string, KeyPath] => [k, ["random", "axes", k]]),
    ...Object.keys(config.set).map((k): [string, KeyPath] => [k, ["set", k]]),
  ];
}

/**
 * Checks the values the sweep gives keys against the scenario's schema at each key, located in
 * the sweep file (`set["outputs.records"][0]: expected one of 'csv', 'jsonl'`): every `set:` value
 * (fixed, it would fail every point), and every list or map an axis, a zip group or a `choice:`
 * lists. A number, text or true/false an axis lists is checked by its point's load, as `--set`
 * is: an invalid combination fails that point alone. A key whose schema depends on the rest of
 * the scenario (a union of several shapes) is left to the points' loads too.
 */
function checkScenarioValues(config: SweepConfig, doc: SourceDoc, attempt: (check: () => void) => void): void {
  const schema = scenarioSchema();
  const check = (key: string, where: KeyPath, value: AxisValue, always: boolean): void => {
    if (!always && typeof value !== "object") return;
    // why: each key becomes a `--set key=value` of the point, so its path is read as --set reads it
    const sub = schemaAt(schema, parseOverride(`${key}=0`).path);
    if (sub !== undefined) attempt(() => void validate(sub, doc, where));
  };
  for (const [key, value] of Object.entries(config.set)) check(key, ["set", key], value, true);
  for (const [key, spec] of Object.entries(config.axes)) if (Array.isArray(spec)) (spec as readonly AxisValue[]).forEach((v, i) => check(key, ["axes", key, i], v, false));
  config.zip.forEach((group, g) => Object.entries(group).forEach(([key, values]) => values.forEach((v, i) => check(key, ["zip", g, key, i], v, false))));
  for (const [key, d] of Object.entries(config.random?.axes ?? {})) if ("choice" in d) d.choice.forEach((v, i) => check(key, ["random", "axes", key, "choice", i], v, false));
}

/**
 * Refuses a swept or fixed key that sets a workload variable the scenario does not define (every
 * point would run with the defined variables unchanged: a misspelt axis gives identical points),
 * or the scenario's seed (every point's seed comes from the sweep, which would override it).
 * @throws via `fail`, at the key in the sweep file
 */
function checkWorkloadKeys(config: SweepConfig, known: readonly string[], fail: SweepFail, attempt: (check: () => void) => void): void {
  for (const [key, where] of sweepKeys(config)) attempt(() => checkWorkloadKey(key, where, known, fail));
}

/** {@link checkWorkloadKeys} of one key. */
function checkWorkloadKey(key: string, where: KeyPath, known: readonly string[], fail: SweepFail): void {
  // why: each key becomes a `--set key=value` of the point, so it is read as --set reads it
  const path = parseOverride(`${key}=0`).path;
  if (path.length === 1 && path[0] === "seed")
    fail(
      where,
      "a point's seed comes from the sweep, not from its scenario keys: set the sweep's `seed:` (the study seed) and `seeds:` (common: every point runs with the same seed; per-point: each its own), and `replications:` for runs with other seeds",
    );
  const name = undefinedWorkloadVariable(path, known);
  if (name !== undefined) fail(where, unknownWorkloadVariable(name, known));
}

/**
 * The files a sweep reads, which no output of it may replace: the sweep file and, when the
 * scenario is not inline, the scenario file.
 */
export function sweepInputs(sweep: Sweep): CommandInput[] {
  const inputs: CommandInput[] = [{ path: sweep.file, what: "the sweep file" }];
  if (!sweep.inlineScenario) inputs.push({ path: sweep.scenarioFile, what: "the sweep's scenario file" });
  return inputs;
}

/** The `--set` overrides of a point of a sweep (fixed `set:` entries, then axis values). */
export function sweepPointOverrides(sweep: Sweep, point: SweepPoint): string[] {
  return pointOverrides(sweep.config.set, point);
}

/**
 * {@link sweepPointOverrides} with where each comes from in the sweep file, for loading the point:
 * an error an override causes then names the sweep key that set it, not `--set`.
 */
export function sweepPointLoadOverrides(sweep: Sweep, point: SweepPoint): SourcedOverride[] {
  return pointOverrideEntries(sweep.config.set, point).map(([key, text]) => ({ text: `${key}=${text}`, source: sweep.keySources[key] ?? `--set ${key}=${text}` }));
}

/**
 * The `ccasim run` command that re-runs one point alone (same overrides, same seed, same result).
 * For an inline scenario it re-runs the point through `ccasim sweep <file> --point K` instead.
 */
export function pointRunCommand(sweep: Sweep, point: SweepPoint): string {
  if (sweep.inlineScenario) return `ccasim sweep ${shellQuote(sweep.file)} --point ${point.index}`;
  const sets = sweepPointOverrides(sweep, point).map((o) => `--set ${shellQuote(o)}`);
  return ["ccasim run", shellQuote(sweep.scenarioFile), ...sets, `--seed ${point.seed}`].join(" ");
}

/** The `ccasim query` command that lists the failed points of the study in `db` with their errors. */
export function failedPointsCommand(db: string): string {
  return `ccasim query ${shellQuote(db)} "SELECT p.point_index, e.kind, e.message FROM point p JOIN error e USING (point_id) ORDER BY p.point_index"`;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The entries of `o` by key, each value in its canonical form (a map's keys sorted). */
function sortedEntries(o: Readonly<Record<string, AxisValue>>): [string, AxisValue][] {
  return Object.keys(o)
    .sort()
    .map((k) => [k, canonicalValue(o[k])]);
}

