/**
 * Extra-P input files (text, JSON, JSON Lines), read and written, as specified in Extra-P's
 * `docs/file-formats.md`, so users can cross-check our model fits in Extra-P.
 *
 * An Extra-P experiment is a set of measurements: for each (callpath, metric, point) the values
 * of the repetitions. Points are coordinates, one per parameter. Extra-P joins callpath elements
 * with `->`.
 */
import { readFileSync } from "node:fs";
import { writeTextFileAtomically } from "./atomic-text-file.js";
import { extname } from "node:path";
import { ProfileError, ProfileFormatError, ProfileModelError } from "./errors.js";
import { DERIVED_KINDS, derivedView, type DerivedKind } from "./derived.js";
import type { Trial } from "./model.js";
import { callpathRoots, callpathTimers, callpathTree, flatTimers } from "./views.js";
import { decimalValue } from "./decimal-text.js";
import { fileErrorText } from "./file-error.js";

/** The repetitions measured for one callpath and metric at one point. */
export interface ExtrapMeasurement {
  /** Callpath, elements joined with `->` (`main->solve`). */
  readonly callpath: string;
  readonly metric: string;
  /** One coordinate per parameter, in {@link ExtrapExperiment.parameters} order. */
  readonly point: readonly number[];
  /** The repetitions' values. */
  readonly values: readonly number[];
}

/** An Extra-P experiment: parameters and measurements. */
export interface ExtrapExperiment {
  readonly parameters: readonly string[];
  readonly measurements: readonly ExtrapMeasurement[];
}

/** The Extra-P file formats. */
export type ExtrapFormat = "text" | "json" | "jsonl";

/** Merges measurements with the same callpath, metric and point (values are concatenated), keeping first-seen order. */
export function mergeMeasurements(list: readonly ExtrapMeasurement[]): ExtrapMeasurement[] {
  const byKey = new Map<string, { callpath: string; metric: string; point: number[]; values: number[] }>();
  for (const m of list) {
    const key = JSON.stringify([m.callpath, m.metric, m.point]);
    const e = byKey.get(key);
    if (e) e.values.push(...m.values);
    else byKey.set(key, { callpath: m.callpath, metric: m.metric, point: [...m.point], values: [...m.values] });
  }
  return [...byKey.values()];
}

function num(tok: string): number | undefined {
  const v = decimalValue(tok);
  return Number.isFinite(v) ? v : undefined;
}

/**
 * Parses Extra-P's text format (`PARAMETER`, `POINTS`, `METRIC`, `REGION`, `DATA` lines; `#`
 * comments). Points may be written `(4) (8)`, `4 8`, or `(20 1) (30 2)` for several parameters.
 * Refused as Extra-P refuses them: a point listed twice in POINTS, and a region given a second
 * block of DATA lines for one metric (Extra-P's reader appends it, and its validation finds more
 * measurements than points).
 * @throws ProfileFormatError naming the file and line.
 */
export function parseExtrapText(text: string, file = "(text)"): ExtrapExperiment {
  const parameters: string[] = [];
  const points: number[][] = [];
  const out: ExtrapMeasurement[] = [];
  let metric = "";
  let callpath: string | undefined;
  let next = 0;
  let lastData = 0;
  // The lines of the current block's REGION and METRIC headers (0: none since the last DATA; a
  // second one replaces the first, as its name does), and where each (callpath, metric) got its
  // block: a second block of one is refused at its header.
  let regionLine = 0;
  let metricLine = 0;
  const blockOf = new Map<string, number>();
  // DATA lines are matched to POINTS by position: a block of fewer lines cannot say which point
  // lacks one, so it is refused rather than read as the first points.
  const checkBlock = (): void => {
    if (next > 0 && next < points.length) throw new ProfileFormatError(file, lastData, `${next} DATA line(s) for the ${points.length} POINTS of REGION '${callpath}'${metric === "" ? "" : `, METRIC '${metric}'`}: write one DATA line per point, in POINTS order`);
  };
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\s+/g, " ").trim();
    const fail = (what: string): never => {
      throw new ProfileFormatError(file, i + 1, what);
    };
    if (line === "" || line.startsWith("#")) continue;
    const sp = line.indexOf(" ");
    const field = sp < 0 ? line : line.slice(0, sp);
    const value = sp < 0 ? "" : line.slice(sp + 1).trim();
    switch (field) {
      case "PARAMETER":
        if (value === "") fail("PARAMETER needs at least one name");
        if (points.length > 0) fail("PARAMETER after POINTS");
        parameters.push(...value.split(" "));
        break;
      case "POINTS": {
        if (parameters.length === 0) fail("POINTS before any PARAMETER");
        const got = parsePoints(value, parameters.length);
        if (typeof got === "string") fail(got);
        for (const point of got as number[][]) {
          // why: DATA lines go to points by position, so a repeated point would pool two lines' values unsaid; Extra-P refuses the file.
          if (points.some((q) => q.every((v, i) => v === point[i]))) fail(`point (${point.join(" ")}) is listed twice in POINTS, which Extra-P refuses: list each point once and put all its repetitions on its DATA line`);
          points.push(point);
        }
        break;
      }
      case "METRIC":
        if (value === "") fail("METRIC needs a name");
        checkBlock();
        metricLine = i + 1;
        metric = value;
        next = 0;
        break;
      case "REGION":
        if (value === "") fail("REGION needs a callpath");
        checkBlock();
        regionLine = i + 1;
        callpath = value;
        next = 0;
        break;
      case "DATA": {
        if (parameters.length === 0) fail("DATA before any PARAMETER");
        if (callpath === undefined) fail("DATA before any REGION");
        if (next >= points.length) fail(`more DATA lines than the ${points.length} POINTS`);
        const vals = value === "" ? [] : value.split(" ").map(num);
        if (vals.length === 0 || vals.some((v) => v === undefined)) fail(`expected finite numbers after DATA, found '${value}'`);
        if (next === 0) {
          const blockStart = Math.min(...[regionLine, metricLine].filter((l) => l > 0));
          const key = JSON.stringify([callpath, metric]);
          const first = blockOf.get(key);
          // why: Extra-P's reader appends a second block's measurements to the first's, and its validate_experiment then refuses the region (more measurements than POINTS); pooling them would fit data Extra-P never fits.
          if (first !== undefined) throw new ProfileFormatError(file, blockStart, `REGION '${callpath}'${metric === "" ? "" : `, METRIC '${metric}'`} is given a second time (its first block starts at line ${first}), which Extra-P refuses (the region's measurements outnumber the ${points.length} POINTS): give each region one block per metric, with all repetitions of a point on its DATA line`);
          blockOf.set(key, blockStart);
        }
        regionLine = 0;
        metricLine = 0;
        out.push({ callpath: callpath!, metric, point: points[next], values: vals as number[] });
        next++;
        lastData = i + 1;
        break;
      }
      default:
        fail(`unknown field '${field}'; expected PARAMETER, POINTS, METRIC, REGION or DATA`);
    }
  }
  if (parameters.length === 0) throw new ProfileFormatError(file, undefined, "no PARAMETER line");
  if (out.length === 0) throw new ProfileFormatError(file, undefined, "no DATA lines");
  checkBlock();
  return { parameters, measurements: mergeMeasurements(out) };
}

function parsePoints(value: string, nParams: number): number[][] | string {
  const points: number[][] = [];
  if (value.indexOf("(") < 0) {
    const toks = value.split(" ");
    if (nParams !== 1) return `points for ${nParams} parameters must be written in parentheses, e.g. (1 2)`;
    for (const t of toks) {
      const v = num(t);
      if (v === undefined) return `expected a number in POINTS, found '${t}'`;
      points.push([v]);
    }
    return points;
  }
  let depth = 0;
  let cur = "";
  for (const ch of value) {
    if (ch === "(") {
      depth++;
      cur += " ";
    } else if (ch === ")") {
      depth--;
      if (depth < 0) return "unbalanced ')' in POINTS";
      cur += " ";
      if (depth === 0) {
        const toks = cur.trim().split(/\s+/).filter((t) => t !== "");
        const vals = toks.map(num);
        if (vals.some((v) => v === undefined)) return `expected numbers in POINTS, found '(${cur.trim()})'`;
        if (vals.length !== nParams) return `a point needs ${nParams} coordinate(s), found ${vals.length}`;
        points.push(vals as number[]);
        cur = "";
      }
    } else if (depth === 0) {
      if (ch.trim() !== "") return `unexpected '${ch}' between points`;
    } else cur += ch;
  }
  if (depth !== 0) return "unbalanced '(' in POINTS";
  return points;
}

/** The most parameters Extra-P's text reader accepts (it refuses a file with more; JSON has no limit). */
export const EXTRAP_TEXT_MAX_PARAMETERS = 4;

/**
 * Writes Extra-P's text format (one DATA line per point, in POINTS order).
 * @throws ProfileModelError when some (callpath, metric) lacks a point (as every writer here:
 *   Extra-P refuses such input), for more than {@link EXTRAP_TEXT_MAX_PARAMETERS} parameters
 *   (Extra-P's text reader refuses them), or for names the text format cannot hold.
 */
export function formatExtrapText(exp: ExtrapExperiment): string {
  checkExperiment(exp);
  if (exp.parameters.length > EXTRAP_TEXT_MAX_PARAMETERS) {
    throw new ProfileModelError(`${exp.parameters.length} parameters (${exp.parameters.join(", ")}) cannot be written in Extra-P's text format, whose reader takes at most ${EXTRAP_TEXT_MAX_PARAMETERS}; write JSON instead`);
  }
  for (const p of exp.parameters) if (/\s/.test(p) || p === "") throw new ProfileModelError(`parameter name '${p}' cannot be written in Extra-P's text format (it must be one word)`);
  const points = uniquePoints(exp);
  const index = new Map(points.map((p, i) => [JSON.stringify(p), i]));
  const groups = groupBy(exp);
  const lines: string[] = [`PARAMETER ${exp.parameters.join(" ")}`];
  lines.push(`POINTS ${points.map((p) => `(${p.map(String).join(" ")})`).join(" ")}`, "");
  for (const [metric, byPath] of groups) {
    for (const [callpath, ms] of byPath) {
      for (const s of [metric, callpath]) {
        // Extra-P's text reader collapses whitespace runs, so such names would not read back.
        if (/[\r\n\t\f\v]|\s\s/.test(s) || s.trim() !== s || s === "") throw new ProfileModelError(`name '${s}' cannot be written in Extra-P's text format (empty, padded, tabs, repeated spaces or line breaks); write JSON instead`);
      }
      const rows: (readonly number[] | undefined)[] = new Array(points.length).fill(undefined);
      for (const m of ms) rows[index.get(JSON.stringify(m.point))!] = m.values;
      lines.push(`METRIC ${metric}`, `REGION ${callpath}`);
      for (const r of rows) lines.push(`DATA ${r!.map(String).join(" ")}`);
      lines.push("");
    }
  }
  return lines.join("\n");
}

/**
 * Parses Extra-P JSON: the current format (`{parameters, measurements: {callpath: {metric: [{point, values}]}}}`)
 * or the older id-based one (`callpaths`, `coordinates`, `metrics`, `parameters`, `measurements` arrays).
 * @throws ProfileFormatError naming the file and what is missing.
 */
export function parseExtrapJson(text: string, file = "(json)"): ExtrapExperiment {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ProfileFormatError(file, jsonErrorLine(text, e), `invalid JSON: ${(e as Error).message}`);
  }
  const fail = (what: string): never => {
    throw new ProfileFormatError(file, undefined, what);
  };
  if (!isObj(doc)) fail("expected a JSON object");
  const d = doc as Record<string, unknown>;
  if (Array.isArray(d.parameters) && isObj(d.measurements)) {
    const parameters = d.parameters.map((p, i) => (typeof p === "string" ? p : fail(`parameters[${i}] is not a string`)));
    const out: ExtrapMeasurement[] = [];
    for (const [callpath, metrics] of Object.entries(d.measurements as object)) {
      if (!isObj(metrics)) fail(`measurements['${callpath}'] is not an object`);
      for (const [metric, list] of Object.entries(metrics as object)) {
        if (!Array.isArray(list)) fail(`measurements['${callpath}']['${metric}'] is not an array`);
        // Extra-P refuses a point listed twice for one callpath and metric (its repetitions are the
        // values of one entry): the list then holds more measurements than the experiment has points.
        const seen = new Map<string, number>();
        (list as unknown[]).forEach((e, i) => {
          const at = `measurements['${callpath}']['${metric}'][${i}]`;
          if (!isObj(e)) fail(`${at} is not an object`);
          const r = e as Record<string, unknown>;
          const point = numbers(r.point, `${at}.point`, fail);
          if (point.length !== parameters.length) fail(`${at}.point has ${point.length} coordinates for ${parameters.length} parameters`);
          const key = point.join(",");
          const first = seen.get(key);
          if (first !== undefined) fail(`${at}.point [${point.join(", ")}] is measurements['${callpath}']['${metric}'][${first}].point again: Extra-P refuses a point given twice (give its repetitions as the values of one entry)`);
          seen.set(key, i);
          const values = numbers(r.values, `${at}.values`, fail);
          out.push({ callpath, metric, point, values });
        });
      }
    }
    return completeExperiment(file, parameters, out);
  }
  if (Array.isArray(d.callpaths) && Array.isArray(d.coordinates) && Array.isArray(d.measurements) && Array.isArray(d.metrics) && Array.isArray(d.parameters)) {
    const byId = (arr: unknown[], what: string): Map<unknown, Record<string, unknown>> => {
      const m = new Map<unknown, Record<string, unknown>>();
      arr.forEach((x, i) => (isObj(x) ? m.set((x as Record<string, unknown>).id, x as Record<string, unknown>) : fail(`${what}[${i}] is not an object`)));
      return m;
    };
    const params = byId(d.parameters, "parameters");
    const paramIds = [...params.keys()];
    const parameters = paramIds.map((id) => String(params.get(id)!.name));
    const callpaths = byId(d.callpaths, "callpaths");
    const metrics = byId(d.metrics, "metrics");
    const coords = byId(d.coordinates, "coordinates");
    const out: ExtrapMeasurement[] = [];
    (d.measurements as unknown[]).forEach((x, i) => {
      if (!isObj(x)) fail(`measurements[${i}] is not an object`);
      const r = x as Record<string, unknown>;
      const cp = callpaths.get(r.callpath_id) ?? fail(`measurements[${i}] refers to unknown callpath_id ${String(r.callpath_id)}`);
      const me = metrics.get(r.metric_id) ?? fail(`measurements[${i}] refers to unknown metric_id ${String(r.metric_id)}`);
      const co = coords.get(r.coordinate_id) ?? fail(`measurements[${i}] refers to unknown coordinate_id ${String(r.coordinate_id)}`);
      const pairs = Array.isArray(co.parameter_value_pairs) ? co.parameter_value_pairs : fail(`coordinate ${String(r.coordinate_id)} has no parameter_value_pairs`);
      const point = paramIds.map((pid) => {
        const pv = (pairs as unknown[]).find((p) => isObj(p) && (p as Record<string, unknown>).parameter_id === pid) as Record<string, unknown> | undefined;
        const v = pv?.parameter_value;
        return typeof v === "number" && Number.isFinite(v) ? v : fail(`coordinate ${String(r.coordinate_id)} lacks a value for parameter ${String(pid)}`);
      });
      const value = r.value;
      if (typeof value !== "number" || !Number.isFinite(value)) fail(`measurements[${i}].value is not a finite number`);
      out.push({ callpath: String(cp.name), metric: String(me.name), point, values: [value as number] });
    });
    return completeExperiment(file, parameters, out);
  }
  return fail("expected Extra-P JSON with 'parameters' and 'measurements' (or the older 'callpaths'/'coordinates'/'metrics' arrays)");
}

/**
 * Writes Extra-P's current JSON format (pretty-printed, deterministic).
 * @throws ProfileModelError when some (callpath, metric) lacks a point: Extra-P refuses such input.
 */
export function formatExtrapJson(exp: ExtrapExperiment): string {
  checkExperiment(exp);
  const measurements: Record<string, Record<string, { point: number[]; values: number[] }[]>> = {};
  for (const m of mergeMeasurements(exp.measurements)) {
    const byMetric = (measurements[m.callpath] ??= {});
    (byMetric[m.metric] ??= []).push({ point: [...m.point], values: [...m.values] });
  }
  return JSON.stringify({ parameters: exp.parameters, measurements }, null, 2) + "\n";
}

/**
 * Parses Extra-P JSON Lines: one object per line, `{"params": {...}, "value": x | [x...],
 * "callpath"?: ..., "metric"?: ...}`. Defaults are Extra-P's: callpath `<root>`, metric `<default>`.
 * The parameter order is that of the first line.
 * @throws ProfileFormatError naming the file and line.
 */
export function parseExtrapJsonLines(text: string, file = "(jsonl)"): ExtrapExperiment {
  let parameters: string[] | undefined;
  const out: ExtrapMeasurement[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i].trim();
    if (s === "") continue;
    const fail = (what: string): never => {
      throw new ProfileFormatError(file, i + 1, what);
    };
    let d: unknown;
    try {
      d = JSON.parse(s);
    } catch (e) {
      fail(`invalid JSON: ${(e as Error).message}`);
    }
    if (!isObj(d)) fail("expected a JSON object");
    const r = d as Record<string, unknown>;
    if (!isObj(r.params)) fail("missing 'params' object");
    const params = r.params as Record<string, unknown>;
    parameters ??= Object.keys(params);
    const point = parameters.map((p) => {
      const v = params[p];
      return typeof v === "number" && Number.isFinite(v) ? v : fail(`params.${p} is missing or not a finite number`);
    });
    const values = typeof r.value === "number" ? numbers([r.value], "value", fail) : numbers(r.value, "value", fail);
    const callpath = r.callpath === undefined ? "<root>" : typeof r.callpath === "string" ? r.callpath : fail("'callpath' is not a string");
    const metric = r.metric === undefined ? "<default>" : typeof r.metric === "string" ? r.metric : fail("'metric' is not a string");
    out.push({ callpath, metric, point, values });
  }
  if (!parameters) throw new ProfileFormatError(file, undefined, "no measurements");
  return completeExperiment(file, parameters, out);
}

/**
 * The experiment of a JSON or JSON Lines file, refused as Extra-P's `validate_experiment` refuses
 * it: without measurements, or with a callpath and metric not measured at every point (the text
 * format's DATA blocks are checked as they are read).
 * @throws ProfileFormatError naming the file and the first callpath and metric that lacks a point
 */
function completeExperiment(file: string, parameters: string[], out: readonly ExtrapMeasurement[]): ExtrapExperiment {
  if (out.length === 0) throw new ProfileFormatError(file, undefined, "no measurements");
  const exp = { parameters, measurements: mergeMeasurements(out) };
  const gap = missingExtrapPoints(exp);
  if (gap !== undefined) throw new ProfileFormatError(file, undefined, gap);
  return exp;
}

/**
 * Writes Extra-P JSON Lines: one line per (callpath, metric, point) with all repetitions.
 * @throws ProfileModelError when some (callpath, metric) lacks a point: Extra-P refuses such input.
 */
export function formatExtrapJsonLines(exp: ExtrapExperiment): string {
  checkExperiment(exp);
  let s = "";
  for (const m of mergeMeasurements(exp.measurements)) {
    const params: Record<string, number> = {};
    exp.parameters.forEach((p, i) => (params[p] = m.point[i]));
    s += JSON.stringify({ params, metric: m.metric, callpath: m.callpath, value: m.values }) + "\n";
  }
  return s;
}

/** The format implied by a file name (`.txt` text, `.json` JSON, `.jsonl`/`.ndjson` JSON Lines), or undefined. */
export function extrapFormatOf(path: string): ExtrapFormat | undefined {
  const e = extname(path).toLowerCase();
  return e === ".txt" ? "text" : e === ".json" ? "json" : e === ".jsonl" || e === ".ndjson" ? "jsonl" : undefined;
}

/**
 * Reads an Extra-P input file; the format comes from the extension, else from the content.
 * @throws ProfileFormatError for malformed content; ProfileError when the file cannot be read.
 */
export function readExtrap(path: string, format?: ExtrapFormat): ExtrapExperiment {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ProfileError(`cannot read '${path}': ${fileErrorText(e)}`);
  }
  // A binary file (a ParaProf .ppk is gzip) would be parsed as text and reported by its garbage.
  if (text.charCodeAt(0) === 0x1f || text.includes("\u0000")) {
    throw new ProfileFormatError(path, undefined, `not an Extra-P input but a binary file${text.charCodeAt(0) === 0x1f ? " (gzip: a profile, .ppk, .cubex or TAU XML, is read with readTrial)" : ""}`);
  }
  const f = format ?? extrapFormatOf(path) ?? sniff(text);
  return f === "text" ? parseExtrapText(text, path) : f === "json" ? parseExtrapJson(text, path) : parseExtrapJsonLines(text, path);
}

/**
 * Writes an Extra-P input file in the format given or implied by the extension (default JSON),
 * atomically (a failed write leaves no half-written file).
 * @throws ProfileError naming `path` when it cannot be written
 */
export function writeExtrap(exp: ExtrapExperiment, path: string, format?: ExtrapFormat): void {
  const f = format ?? extrapFormatOf(path) ?? "json";
  const text = f === "text" ? formatExtrapText(exp) : f === "json" ? formatExtrapJson(exp) : formatExtrapJsonLines(exp);
  writeTextFileAtomically(path, (write) => write(text));
}

/** Options of {@link extrapFromTrials}. */
export interface ExtrapFromTrialsOptions {
  /** Metric names to export (default: every metric of the first trial). */
  readonly metrics?: readonly string[];
  /** `inclusive` (default) or `exclusive` values. */
  readonly value?: "inclusive" | "exclusive";
  /**
   * Statistic across threads (default `mean`, as ParaProf's mean), or `threads`: every thread's
   * value a repetition of its own (0 on a thread that never called the timer), as Extra-P's own
   * Cube reader keeps every process's value under weak scaling, so that the experiment holds the
   * spread over threads (`total` is its strong scaling's sum).
   */
  readonly statistic?: ExtrapStatistic;
  /**
   * Export the call tree instead of flat timers (default false): the callpath timers (as `A->B`)
   * and the tree's roots (`.TAU application`, by their names alone), as Extra-P names the nodes
   * of a Cube call tree.
   */
  readonly callpaths?: boolean;
}

/** What {@link extrapFromTrials} writes of each trial's threads: a statistic across them, or each one. */
export type ExtrapStatistic = DerivedKind | "threads";

/** Every {@link ExtrapStatistic}. */
export const EXTRAP_STATISTICS: readonly ExtrapStatistic[] = [...DERIVED_KINDS, "threads"];

/** Callpaths that some trials never called, written as 0 at those trials' points by {@link extrapFromTrials}. */
export interface ExtrapFilledCallpath {
  /** Callpath as written (`A->B`). */
  readonly callpath: string;
  /** The metrics filled (every exported metric, unless a trial lacked the timer in some only). */
  readonly metrics: readonly string[];
  /** The points (one coordinate per parameter) where 0 was written, in first-seen order. */
  readonly points: readonly (readonly number[])[];
}

/** What {@link extrapFromTrials} returns: the experiment and the zeros it wrote. */
export interface ExtrapFromTrialsResult extends ExtrapExperiment {
  /** Callpaths filled with 0 at points whose trial never called them (empty when none). */
  readonly filled: readonly ExtrapFilledCallpath[];
  /**
   * With callpaths: the sources of trials whose callpaths are depth-limited (TAU's default depth
   * 2 keeps a routine's caller, not its path from the root), whose `A->B` callpaths Extra-P shows
   * under each caller as a root of its own; empty otherwise.
   */
  readonly truncated: readonly string[];
  /**
   * Timer names (one routine's, not a callpath's) that hold `->`, Extra-P's call-path separator
   * (C++'s `operator->`): Extra-P reads each as a callpath of its pieces. Empty when none.
   */
  readonly arrowNames: readonly string[];
}

/**
 * Builds an Extra-P experiment from trials measured at different parameter values: each trial
 * gives one repetition of every timer at its point; trials at the same point are repetitions.
 *
 * Extra-P needs every callpath measured at every point (it refuses an experiment where a
 * callpath has fewer measurements than there are points). A timer a trial never called was
 * called 0 times there, so its value in that trial is 0: such repetitions are written as 0 and
 * listed in {@link ExtrapFromTrialsResult.filled}, for the caller to report.
 * @throws ProfileModelError when entries lack a parameter or a requested metric, with
 * `callpaths` when a trial records no callpaths (a flat profile), and when two timers of a trial
 * would have the same Extra-P name (a routine named `A->B` beside the callpath `A => B`).
 */
export function extrapFromTrials(entries: readonly { readonly point: Readonly<Record<string, number>>; readonly trial: Trial }[], options: ExtrapFromTrialsOptions = {}): ExtrapFromTrialsResult {
  if (entries.length === 0) throw new ProfileModelError("no trials to export");
  const parameters = Object.keys(entries[0].point);
  const metrics = options.metrics ?? entries[0].trial.metrics;
  const callpaths = options.callpaths ?? false;
  // Every exported callpath of any trial, in first-seen order: the rows each trial must fill.
  const names: string[] = [];
  const seen = new Set<string>();
  const truncated: string[] = [];
  const arrowNames = new Set<string>();
  const perTrial = entries.map(({ trial }) => {
    // why: a flat profile's zeros at every callpath would read as routines it never called.
    if (callpaths && callpathTimers(trial).length === 0) {
      throw new ProfileModelError(`${trial.source ?? "a trial"} records no callpaths (no 'A => B' timers: a flat profile), so it has no call tree to export; leave out callpaths (--callpaths) to export its flat timers`);
    }
    if (callpaths && callpathTree(trial).truncated) truncated.push(trial.source ?? "(trial)");
    const statistic = options.statistic ?? "mean";
    // Each thread's own values: the maximum's view says which timers some thread called.
    const view = derivedView(trial, statistic === "threads" ? "max" : statistic);
    const byName = new Map<string, number>();
    // With callpaths, the tree's roots too (as Extra-P names a Cube call tree's root: by itself,
    // its callees 'root->callee'): their flat timers hold the whole program's time.
    const exported = callpaths ? [...callpathRoots(trial), ...callpathTimers(trial)] : flatTimers(trial);
    for (const t of exported) {
      if (view.present[t.index] === 0) continue;
      const name = t.path.join("->");
      for (const routine of t.path) if (routine.includes("->")) arrowNames.add(routine);
      const other = byName.get(name);
      // why: the second would silently take the first one's place in the experiment.
      if (other !== undefined) throw new ProfileModelError(`${trial.source ?? "a trial"}: timers '${trial.timers[other].name}' and '${t.name}' would both be '${name}' in Extra-P, whose call-path separator is '->'`);
      byName.set(name, t.index);
      if (!seen.has(name)) {
        seen.add(name);
        names.push(name);
      }
    }
    return { view, byName };
  });
  const out: ExtrapMeasurement[] = [];
  const filled = new Map<string, { metrics: Set<string>; points: Map<string, number[]> }>();
  entries.forEach(({ point, trial }, k) => {
    const coords = parameters.map((p) => {
      const v = point[p];
      if (typeof v !== "number" || !Number.isFinite(v)) throw new ProfileModelError(`trial ${trial.source ?? ""} has no value for parameter '${p}'`);
      return v;
    });
    const { view, byName } = perTrial[k];
    const inclusive = (options.value ?? "inclusive") === "inclusive";
    const nT = trial.timers.length;
    const threads = trial.threads.length;
    for (const metric of metrics) {
      const m = trial.metricIndex(metric);
      const arr = inclusive ? view.inclusive[m] : view.exclusive[m];
      const all = inclusive ? trial.values.inclusive[m] : trial.values.exclusive[m];
      for (const name of names) {
        const t = byName.get(name);
        if (t === undefined) {
          let f = filled.get(name);
          if (!f) filled.set(name, (f = { metrics: new Set(), points: new Map() }));
          f.metrics.add(metric);
          f.points.set(JSON.stringify(coords), coords);
        }
        let values: number[];
        if (options.statistic !== "threads") values = [t === undefined ? 0 : arr[t]];
        else values = Array.from({ length: threads }, (_, th) => (t === undefined || trial.values.present[th * nT + t] === 0 ? 0 : all[th * nT + t]));
        out.push({ callpath: name, metric, point: coords, values });
      }
    }
  });
  return {
    parameters,
    measurements: mergeMeasurements(out),
    filled: [...filled].map(([callpath, f]) => ({ callpath, metrics: [...f.metrics], points: [...f.points.values()] })),
    truncated,
    arrowNames: [...arrowNames],
  };
}

/** `p=2,q=4` for a point of an experiment with these parameters. */
export function formatExtrapPoint(parameters: readonly string[], point: readonly number[]): string {
  return parameters.map((p, i) => `${p}=${point[i]}`).join(",");
}

/**
 * Every (callpath, metric) of an experiment must have a measurement at every point of the
 * experiment, or Extra-P refuses the file. @returns a message naming the first gap, or undefined.
 */
export function missingExtrapPoints(exp: ExtrapExperiment): string | undefined {
  const points = uniquePoints(exp);
  for (const [metric, byPath] of groupBy(exp)) {
    for (const [callpath, ms] of byPath) {
      if (ms.length === points.length) continue;
      const have = new Set(ms.map((m) => JSON.stringify(m.point)));
      const lack = points.filter((p) => !have.has(JSON.stringify(p))).map((p) => `(${formatExtrapPoint(exp.parameters, p)})`);
      return `callpath '${callpath}' metric '${metric}' has measurements at ${ms.length} of the experiment's ${points.length} points (none at ${lack.join(" ")}); Extra-P needs every callpath measured at every point`;
    }
  }
  return undefined;
}

function checkExperiment(exp: ExtrapExperiment): void {
  if (exp.parameters.length === 0) throw new ProfileModelError("an Extra-P experiment needs at least one parameter");
  for (const m of exp.measurements) {
    if (m.point.length !== exp.parameters.length) throw new ProfileModelError(`measurement of '${m.callpath}' has ${m.point.length} coordinates for ${exp.parameters.length} parameters`);
    if (m.values.length === 0) throw new ProfileModelError(`measurement of '${m.callpath}' has no values`);
    if (![...m.point, ...m.values].every(Number.isFinite)) throw new ProfileModelError(`measurement of '${m.callpath}' has a non-finite number`);
  }
  const gap = missingExtrapPoints(exp);
  if (gap !== undefined) throw new ProfileModelError(gap);
}

function uniquePoints(exp: ExtrapExperiment): number[][] {
  const seen = new Map<string, number[]>();
  for (const m of exp.measurements) {
    const k = JSON.stringify(m.point);
    if (!seen.has(k)) seen.set(k, [...m.point]);
  }
  return [...seen.values()];
}

function groupBy(exp: ExtrapExperiment): Map<string, Map<string, ExtrapMeasurement[]>> {
  const g = new Map<string, Map<string, ExtrapMeasurement[]>>();
  for (const m of mergeMeasurements(exp.measurements)) {
    let byPath = g.get(m.metric);
    if (!byPath) g.set(m.metric, (byPath = new Map()));
    let list = byPath.get(m.callpath);
    if (!list) byPath.set(m.callpath, (list = []));
    list.push(m);
  }
  return g;
}

function isObj(x: unknown): boolean {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function numbers(x: unknown, what: string, fail: (w: string) => never): number[] {
  if (!Array.isArray(x) || x.length === 0) return fail(`${what} must be a non-empty array of numbers`);
  return x.map((v, i) => (typeof v === "number" && Number.isFinite(v) ? v : fail(`${what}[${i}] is not a finite number`)));
}

function sniff(text: string): ExtrapFormat {
  const t = text.trimStart();
  if (!t.startsWith("{")) return "text";
  const first = t.split("\n", 1)[0].trim();
  try {
    const d: unknown = JSON.parse(first);
    return isObj(d) && "params" in (d as object) ? "jsonl" : "json";
  } catch {
    return "json";
  }
}

function jsonErrorLine(text: string, e: unknown): number | undefined {
  const m = /position (\d+)/.exec((e as Error).message);
  if (!m) return undefined;
  return text.slice(0, Number(m[1])).split("\n").length;
}
