/**
 * Conversion between the formats of this layer (`ccasim profile convert`).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import { ProfileError, ProfileModelError, type ProfileWarning } from "./errors.js";
import { extrapFromTrials, readExtrap, writeExtrap, type ExtrapExperiment, type ExtrapFilledCallpath, type ExtrapFormat, type ExtrapStatistic } from "./extrap.js";
import type { InvocationRecord, Trial } from "./model.js";
import { checkOutputPath, realPathOf, type CommandInput } from "./protected-paths.js";
import { profileFolderOf, readTrial, recordsFileIn } from "./read.js";
import { readRecords } from "./records.js";
import { writeRecordsCsv, writeRecordsJsonl } from "./records-write.js";
import { selectMetrics } from "./select-metrics.js";
import { writeProfileTableCsv } from "./table-csv.js";
import { writeTauProfile, type WriteTauOptions } from "./tau/text-write.js";
import { writeCubeProfile } from "./cube/cube-write.js";
import { writePackedProfile } from "./tau/ppk-write.js";
import { writeTauXmlProfile } from "./tau/xml-write.js";

/** Output formats of {@link convertProfile}. */
export type ConvertTarget = "tau" | "records-csv" | "records-jsonl" | "extrap-text" | "extrap-json" | "extrap-jsonl" | "table-csv" | "cube" | "ppk" | "tau-xml";

/** Every {@link ConvertTarget}. */
export const CONVERT_TARGETS: readonly ConvertTarget[] = ["tau", "records-csv", "records-jsonl", "extrap-text", "extrap-json", "extrap-jsonl", "table-csv", "cube", "ppk", "tau-xml"];

/** What an input file holds. */
export type InputKind = "trial" | "records" | "extrap";

/** Options of {@link convertProfile}. */
export interface ConvertOptions {
  /** Output format (default: from the output name, see {@link inferConvertTarget}). */
  readonly to?: ConvertTarget;
  /** For trials to Extra-P: the parameter values of each input, in input order (refused for other outputs). */
  readonly points?: readonly Readonly<Record<string, number>>[];
  /** For trials to Extra-P, a TAU directory or table-csv: the metrics to write (default all; refused for records and Extra-P inputs). */
  readonly metrics?: readonly string[];
  /** For trials to Extra-P: export callpaths instead of flat timers; for table-csv: add callpath rows (refused for other outputs). */
  readonly callpaths?: boolean;
  /** TAU output options (overwrite, integerTime); `integerTime: false` is refused for other outputs. */
  readonly tau?: WriteTauOptions;
  /**
   * For trials to Extra-P: each callpath's `inclusive` values (the default) or `exclusive` ones
   * (what Extra-P models of a CUBE4 profile it reads itself); refused for other outputs.
   */
  readonly value?: "inclusive" | "exclusive";
  /** For trials to Extra-P: what of each trial's threads a point gets (see `ExtrapFromTrialsOptions.statistic`); refused for other outputs. */
  readonly statistic?: ExtrapStatistic;
  /** Of TAU XML inputs, which snapshot of each thread is read (see `ReadTrialOptions.snapshot`). */
  readonly snapshot?: number | string;
}

/** What {@link convertProfile} did. */
export interface ConvertResult {
  readonly from: InputKind;
  readonly to: ConvertTarget;
  /** Load-time warnings of the trials read (inconsistent values, repeated lines; see {@link summarizeProfileWarnings}). */
  readonly warnings: readonly ProfileWarning[];
  /**
   * Trials to Extra-P: the parameters, the callpaths written as 0 at points whose trial never
   * called them, and the trials whose callpaths are depth-limited (see {@link ExtrapFromTrialsResult.truncated}).
   */
  readonly extrap?: { readonly parameters: readonly string[]; readonly filled: readonly ExtrapFilledCallpath[]; readonly truncated: readonly string[]; readonly arrowNames: readonly string[] };
}

/** Guesses what an input holds from its name and first bytes. @throws ProfileError when it does not exist. */
export function profileInputKind(path: string): InputKind {
  if (!existsSync(path)) throw new ProfileError(`'${path}' does not exist`);
  if (statSync(path).isDirectory()) return "trial";
  const ext = extname(path).toLowerCase();
  if (ext === ".ppk") return "trial";
  if (ext === ".csv") return "records";
  if (ext === ".txt") return "extrap";
  if (ext === ".json") return "extrap";
  if (ext === ".jsonl" || ext === ".ndjson") {
    const first = readFileSync(path, "utf8").split("\n").find((l) => l.trim() !== "") ?? "";
    return /"params"\s*:/.test(first) ? "extrap" : "records";
  }
  return "trial";
}

/** Extensions of profile formats other tools write and this one only reads (or not at all): never a TAU directory's name by accident. */
const UNWRITABLE_EXTENSIONS: Readonly<Record<string, string>> = {
  ".cube": "CUBE 3 files are not written (CUBE4, .cubex, is)",
  ".gz": "compressed output is not written",
};

/**
 * The output format implied by a file name: `.cubex` CUBE4, `.ppk` ParaProf packed, `.xml` TAU XML, `.csv`
 * records, `.txt`/`.json` Extra-P, `.jsonl` records (Extra-P when the input is Extra-P), otherwise
 * a TAU directory (whose name may hold a dot, `run.v2`).
 * @throws ProfileModelError for the extension of a format that is not written (`.cube`, `.gz`)
 */
export function inferConvertTarget(output: string, from: InputKind): ConvertTarget {
  const ext = extname(output).toLowerCase();
  const unwritable = UNWRITABLE_EXTENSIONS[ext];
  if (unwritable !== undefined) {
    throw new ProfileModelError(`cannot write ${output}: ${unwritable}; outputs are a TAU directory (a name without these extensions), a ParaProf .ppk file, a TAU XML .xml file, a CUBE4 .cubex file, .csv or .jsonl records, or Extra-P .txt, .json, .jsonl`);
  }
  if (ext === ".cubex") return "cube";
  if (ext === ".ppk") return "ppk";
  if (ext === ".xml") return "tau-xml";
  if (ext === ".csv") return "records-csv";
  if (ext === ".txt") return "extrap-text";
  if (ext === ".json") return "extrap-json";
  if (ext === ".jsonl" || ext === ".ndjson") return from === "extrap" ? "extrap-jsonl" : "records-jsonl";
  return "tau";
}

/**
 * What reading `input` reads, which a conversion's output must not replace: the input itself and,
 * for a folder, the profile folder and records file inside it that are read.
 */
function convertedFiles(input: string): CommandInput[] {
  const files: CommandInput[] = [{ path: input, what: "the input" }];
  if (existsSync(input) && statSync(input).isDirectory()) {
    const profile = profileFolderOf(input);
    if (profile !== input) files.push({ path: profile, what: "the input's profile folder" });
    const records = recordsFileIn(input) ?? recordsFileIn(profile);
    if (records !== undefined) files.push({ path: records, what: "the input's records" });
  }
  return files;
}

/**
 * Converts `inputs` (usually one) into `output`. Trials (TAU directory or file, `.ppk`, TAU XML,
 * `.cubex`) convert to a TAU directory or a ParaProf `.ppk`, TAU XML `.xml` or CUBE4 `.cubex` file (all metrics, or
 * those of `metrics`), a CSV table of their timers (table-csv), their records, or Extra-P (several trials with `points`; timers a trial never called are
 * written as 0 there and reported in {@link ConvertResult.extrap}); records convert to records;
 * Extra-P files convert between Extra-P formats. Before anything is read, `output` is checked
 * (see `checkOutputPath`): it may not be an input or hold one, and its parent must be writable.
 * @throws OutputPathError (an input error) when `output` would replace an input or cannot be written.
 * @throws ProfileModelError when the conversion makes no sense (records to TAU, missing points),
 *   or for an option the conversion would not use (`points` for a TAU directory, ...).
 * @throws ProfileFormatError / ProfileError from reading and writing.
 */
export function convertProfile(inputs: readonly string[], output: string, options: ConvertOptions = {}): ConvertResult {
  if (inputs.length === 0) throw new ProfileModelError("no input given");
  checkOutputPath(output, "output", { inputs: inputs.flatMap(convertedFiles) });
  const kinds = inputs.map(profileInputKind);
  const from = kinds[0];
  if (options.snapshot !== undefined && from !== "trial") throw new ProfileModelError(`a snapshot is chosen of TAU XML profiles; the inputs are ${from === "records" ? "records" : "Extra-P inputs"}`);
  if (kinds.some((k) => k !== from)) throw new ProfileModelError(`inputs mix ${[...new Set(kinds)].join(" and ")} files`);
  // Records and Extra-P inputs are pooled into one output: one given twice would repeat its measurements.
  if (from === "records" || from === "extrap") refuseRepeatedInputs(inputs);
  const to = options.to ?? inferConvertTarget(output, from);
  const extrapFormat: Record<string, ExtrapFormat> = { "extrap-text": "text", "extrap-json": "json", "extrap-jsonl": "jsonl" };
  checkOptionsApply(from, to, inputs.length, options);

  if (from === "extrap") {
    if (!(to in extrapFormat)) throw new ProfileModelError(`an Extra-P experiment can only be written as extrap-text, extrap-json or extrap-jsonl, not ${to}`);
    const exps = inputs.map((p) => readExtrap(p));
    writeExtrap(mergeExperiments(exps), output, extrapFormat[to]);
    return { from, to, warnings: [] };
  }
  if (from === "records") {
    const records = inputs.flatMap((p) => readRecords(p));
    writeRecordsAs(records, output, to);
    return { from, to, warnings: [] };
  }
  const trials = inputs.map((p) => readTrial(p, { snapshot: options.snapshot }));
  const warnings = trials.flatMap((t) => t.warnings);
  if (to in extrapFormat) {
    const points = options.points;
    if (!points || points.length !== trials.length) throw new ProfileModelError(`converting trials to Extra-P needs one point (parameter values) per input: got ${points?.length ?? 0} for ${trials.length} inputs`);
    const exp = extrapFromTrials(
      trials.map((trial, i) => ({ trial, point: points[i] })),
      { metrics: options.metrics, callpaths: options.callpaths, value: options.value, statistic: options.statistic },
    );
    writeExtrap(exp, output, extrapFormat[to]);
    return { from, to, warnings, extrap: { parameters: exp.parameters, filled: exp.filled, truncated: exp.truncated, arrowNames: exp.arrowNames } };
  }
  if (trials.length !== 1) throw new ProfileModelError(`${to} output takes one trial, got ${trials.length}`);
  const trial = trials[0];
  if (to === "tau") {
    writeTauProfile(options.metrics !== undefined ? selectMetrics(trial, options.metrics) : trial, output, options.tau);
    return { from, to, warnings };
  }
  if (to === "table-csv") {
    writeProfileTableCsv(trial, output, { metrics: options.metrics, callpaths: options.callpaths });
    return { from, to, warnings };
  }
  if (to === "cube") {
    writeCubeProfile(options.metrics !== undefined ? selectMetrics(trial, options.metrics) : trial, output);
    return { from, to, warnings };
  }
  if (to === "ppk") {
    writePackedProfile(options.metrics !== undefined ? selectMetrics(trial, options.metrics) : trial, output);
    return { from, to, warnings };
  }
  if (to === "tau-xml") {
    writeTauXmlProfile(options.metrics !== undefined ? selectMetrics(trial, options.metrics) : trial, output);
    return { from, to, warnings };
  }
  writeRecordsAs(recordsOf(trial), output, to);
  return { from, to, warnings };
}

/**
 * Refuses an input path given twice (the links resolved).
 * @throws ProfileModelError naming both spellings
 */
function refuseRepeatedInputs(inputs: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const p of inputs) {
    const key = realPathOf(p);
    const first = seen.get(key);
    if (first !== undefined) throw new ProfileModelError(`the input '${p}' is given twice${first !== p ? ` (as '${first}' too)` : ""}: its measurements would be written twice`);
    seen.set(key, p);
  }
}

/**
 * Refuses options that the chosen conversion would not use, rather than ignoring them.
 * @throws ProfileModelError naming the option and the outputs it applies to
 */
function checkOptionsApply(from: InputKind, to: ConvertTarget, inputs: number, options: ConvertOptions): void {
  const toExtrap = to === "extrap-text" || to === "extrap-json" || to === "extrap-jsonl";
  const trialsToExtrap = from === "trial" && toExtrap;
  if (options.points !== undefined && !trialsToExtrap) {
    const hint = to === "records-jsonl" ? "; for Extra-P JSON Lines give --to extrap-jsonl" : from === "trial" ? "; give --to extrap-json, extrap-jsonl or extrap-text for Extra-P" : "";
    throw new ProfileModelError(`points (--point) apply only to trials converted to Extra-P, not to ${from} input written as ${to}${hint}`);
  }
  if (from === "trial" && (to === "records-csv" || to === "records-jsonl") && inputs > 1) {
    throw new ProfileModelError(`${to} output takes one trial, got ${inputs}${to === "records-jsonl" ? "; to write trials at parameter values as Extra-P JSON Lines, give --point per input and --to extrap-jsonl" : ""}`);
  }
  const metricsApply = from === "trial" && (trialsToExtrap || to === "tau" || to === "table-csv" || to === "cube" || to === "ppk" || to === "tau-xml");
  if (options.metrics !== undefined && !metricsApply) {
    throw new ProfileModelError(`metrics (--metric) apply only to trials written as a TAU directory, a .ppk, a .xml, a .cubex, table-csv or Extra-P, not to ${from} input written as ${to}`);
  }
  if (options.callpaths === true && !(trialsToExtrap || (from === "trial" && to === "table-csv"))) {
    throw new ProfileModelError(`callpaths (--callpaths) apply only to trials written as Extra-P or table-csv, not to ${from} input written as ${to}`);
  }
  if (options.statistic !== undefined && !trialsToExtrap) {
    throw new ProfileModelError(`the statistic (--statistic) applies only to trials converted to Extra-P, not to ${from} input written as ${to}`);
  }
  if (options.value !== undefined && !trialsToExtrap) {
    throw new ProfileModelError(`the value (--value) applies only to trials converted to Extra-P, not to ${from} input written as ${to}`);
  }
  if (options.tau?.integerTime === false && !(from === "trial" && to === "tau")) {
    throw new ProfileModelError(`exact time (--exact-time) applies only to a TAU directory, not to ${to} output`);
  }
}

function recordsOf(trial: Trial): readonly InvocationRecord[] {
  if (trial.recordTable.count === 0) throw new ProfileModelError(`${trial.source ?? "the trial"} has no per-invocation records (records.csv or records.jsonl) to convert; for its timers as a CSV table give --to table-csv`);
  return trial.records;
}

function writeRecordsAs(records: readonly InvocationRecord[], output: string, to: ConvertTarget): void {
  if (to === "records-csv") writeRecordsCsv(records, output);
  else if (to === "records-jsonl") writeRecordsJsonl(records, output);
  else throw new ProfileModelError(`records can only be written as records-csv or records-jsonl, not ${to}`);
}

function mergeExperiments(exps: readonly ExtrapExperiment[]): ExtrapExperiment {
  const parameters = exps[0].parameters;
  for (const e of exps) {
    if (e.parameters.join("\u0000") !== parameters.join("\u0000")) throw new ProfileModelError(`Extra-P inputs have different parameters (${parameters.join(", ")} vs ${e.parameters.join(", ")})`);
  }
  return { parameters, measurements: exps.flatMap((e) => e.measurements) };
}
