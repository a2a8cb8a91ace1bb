/**
 * Observations for fitting, taken from the profile data model: per-invocation records, TAU_PARAM
 * timers, or one timer (or user event) across a set of trials with a parameter.
 *
 * @packageDocumentation
 */
import { existsSync, statSync } from "node:fs";
import {
  describeRecordValues,
  forEachRecord,
  isTimeMetric,
  parameterTimers,
  parseParameterizedName,
  readTrial,
  recordsFileIn,
  recordsFormatOf,
  recordValueName,
  recordValueOf,
  type InvocationRecord,
  type RecordValue,
  type Trial,
  withoutSourceLocation,
} from "../../profile/index.js";
import { didYouMean, grown, recordValueSpellings } from "../../profile/internal.js";
import { AnalysisInputError } from "../errors.js";
import type { FitDefaults, fitModels } from "./fit-models.js";
import { metricOf, threadIndexOf, timerOf, userEventOf, valueKindOf, viewOf, type ViewChoice } from "../trial-access.js";

/** Paired observations: T as a function of Q. */
export interface Observations {
  /** Input parameter of each observation. */
  readonly q: Float64Array;
  /** Observed value of each observation. */
  readonly t: Float64Array;
  /** What Q is, for reports ("size", "ranks"). */
  readonly qLabel: string;
  /**
   * What T is, for reports ("wallTime of StatesConstructor.compute"); for profile inputs it names,
   * in parentheses, what is not the default: a metric other than TIME, exclusive values, a view
   * other than the default ("int main (exclusive, max over threads)").
   */
  readonly tLabel: string;
  /** What T is, field by field (what `tLabel` says in words), when the source says it. */
  readonly quantity?: FittedQuantity;
  /**
   * How the source fits these observations by default, when it has a way of its own (Extra-P
   * inputs: Extra-P's families and selection rule): what {@link fitModels} uses unless told otherwise.
   */
  readonly fitDefaults?: FitDefaults;
  /**
   * Trials where the timer runs on only some threads while T is its mean over all threads (the
   * default view across trials): how many threads run it, of how many. The mean then scales with
   * that share, which a fit across rank counts takes for the timer's own scaling.
   */
  readonly partialThreads?: readonly PartialThreads[];
}

/** A trial whose timer only some threads run (see {@link Observations.partialThreads}). */
export interface PartialThreads {
  /** The trial's source path. */
  readonly source: string;
  /** Q of the trial. */
  readonly q: number;
  /** Threads that run the timer. */
  readonly present: number;
  /** Threads of the trial. */
  readonly threads: number;
  /** The first thread that runs it (`n,c,t`). */
  readonly runsOn: string;
}

/** What the fitted T is: the quantity, its unit, of what, and which values of a profile. */
export interface FittedQuantity {
  /**
   * The quantity: a record value (`wallTime`, `computeTime`, `mpiTime`, a counter name), a TAU
   * metric (`TIME`, `PAPI_FP_OPS`), a user event's name, or an Extra-P metric (`time`).
   */
  readonly name: string;
  /** Where it comes from. */
  readonly source: "record" | "tau-metric" | "user-event" | "extrap-metric";
  /**
   * Its unit: `us` (microseconds) for record times and TAU time metrics, `count` for counters;
   * null when the input does not say (user events, Extra-P metrics).
   */
  readonly unit: "us" | "count" | null;
  /** Of what: the component method of records (`StatesConstructor.compute`, null when pooled), the TAU timer or routine, the Extra-P callpath. */
  readonly of: string | null;
  /** For TAU timers: inclusive or exclusive values; null otherwise. */
  readonly kind: "inclusive" | "exclusive" | null;
  /**
   * For profiles: which threads give the observations, `each` (one per thread), a derived view
   * across threads (`mean`, `max`, `min`, `total`, `stddev`), or one thread (`thread n,c,t`,
   * `thread #i`); null otherwise.
   */
  readonly view: string | null;
  /** True when T is a value per call (TAU_PARAM timers: the timer's value divided by its calls). */
  readonly perCall: boolean;
}

/** A view choice as {@link FittedQuantity.view} names it. */
function viewName(view: "each" | ViewChoice): string {
  if (typeof view === "string") return view;
  return typeof view === "number" ? `thread #${view}` : `thread ${view.node},${view.context},${view.thread}`;
}

/** The unit of a TAU metric's values. */
function tauMetricUnit(metric: string): "us" | "count" {
  return isTimeMetric(metric) ? "us" : "count";
}

/** Options of {@link observationsFromRecords}. */
export interface RecordSelection {
  /** Parameter used as Q (a key of {@link InvocationRecord.parameters}). */
  readonly parameter: string;
  /**
   * Value used as T: "wallTime" (default), "computeTime", "mpiTime", or a counter name; the
   * record files' column names are accepted too ("wall_time [us]", "wall_time",
   * "counter:PAPI_TOT_CYC [count]", see {@link recordValueOf}).
   */
  readonly value?: string;
  /** Keep only records of this component. */
  readonly component?: string;
  /** Keep only records of this method. */
  readonly method?: string;
  /** Keep only records of this port. */
  readonly port?: string;
  /**
   * Keep only records whose parameters have these values (`{ mode: "strided", level: 2 }`): equal
   * as text, or as numbers when both are numbers ("2", "2.0" and 2 match alike).
   */
  readonly where?: Readonly<Record<string, string | number>>;
}

/** Observations of records, with the component methods they came from. */
export interface RecordObservationSet extends Observations {
  /**
   * The distinct `component.method` of the records taken, in order of first appearance: more
   * than one means that different methods were pooled into one data set.
   */
  readonly sources: readonly string[];
  /**
   * The `component.method`s left out because none of their records has the parameter (only when
   * the selection leaves the component or the method open: records are pooled), with the
   * parameters their records have.
   */
  readonly skipped: readonly { readonly routine: string; readonly parameters: readonly string[] }[];
  /**
   * Record parameters (other than Q and those `where` fixes) that take several values, as text,
   * among the records taken at the same Q: one fit then pools, say, a sequential and a strided
   * mode of one method (the rule of `StudyObservations.pooledRecordParameters` for a study), in
   * order of name.
   */
  readonly pooledRecordParameters: readonly string[];
}

/**
 * Q and T of per-invocation records (the Mastermind's, simulated or real).
 * @throws AnalysisInputError when no record matches, or a matching record lacks the parameter or
 *   counter or has a non-numeric parameter
 */
export function observationsFromRecords(records: readonly InvocationRecord[], sel: RecordSelection): RecordObservationSet {
  const collect = new RecordObservations(sel);
  for (const r of records) collect.add(r);
  return collect.observations();
}

/**
 * {@link observationsFromRecords} of the records of several inputs pooled (runs at different Q):
 * record files (`.csv`, `.jsonl`, `.ndjson`) and folders holding one (`records.csv` or
 * `records.jsonl`) read record by record, keeping only Q and T (a large run's files hold
 * millions), and other trials (`readTrial`).
 * @throws AnalysisInputError naming the input (the records file) and the record's position in it
 *   (0 is its first record) of a record without the parameter or value, or with a negative value;
 *   ProfileError/ProfileFormatError for unreadable inputs
 */
export function observationsFromRecordInputs(paths: readonly string[], sel: RecordSelection): RecordObservationSet {
  const collect = new RecordObservations(sel);
  for (const p of paths) {
    // A records file, or a folder's (streamed: never all in memory); else a trial's records.
    const file = recordsFormatOf(p) !== undefined ? p : existsSync(p) && statSync(p).isDirectory() ? recordsFileIn(p) : undefined;
    collect.input = file ?? p;
    try {
      if (file !== undefined) forEachRecord(file, (r) => collect.add(r));
      else {
        const trial = readTrial(p);
        // A measured profile has timers, not records: say what fits it instead.
        if (trial.records.length === 0 && trial.timers.length > 0)
          throw new AnalysisInputError(
            "a TAU profile without per-invocation records, which --parameter fits (a ccasim run folder, records.csv or .jsonl): fit its TAU_PARAM timers with --param-timer and --parameter, or a timer across trials with --timer and --q",
            p,
          );
        for (const r of trial.records) collect.add(r);
      }
    } catch (err) {
      if (err instanceof AnalysisInputError && err.where === undefined && paths.length > 1) throw new AnalysisInputError(err.message, p);
      throw err;
    }
  }
  return collect.observations();
}

/**
 * {@link observationsFromRecords} one record at a time, for records that are never all in memory
 * at once (read from a file with `forEachRecord`): keeps only Q and T of the matching records.
 */
export class RecordObservations {
  private q: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private t: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private kept = 0;
  private seen = 0;
  private readonly value: RecordValue;
  private readonly where: readonly (readonly [string, string | number])[];
  /** Methods taken, by component (in order of first appearance). */
  private readonly methods = new Map<string, Set<string>>();
  private lastComponent: string | undefined;
  private lastMethod: string | undefined;
  /** Parameter names of the first record of the component, port and method asked for. */
  private parameterNames: readonly string[] | undefined;
  /**
   * Pooling (the component or the method left open): routines none of whose records so far has
   * the parameter, with their parameters and the first such record (for the error when a later
   * record of the routine has it after all).
   */
  private readonly withoutQ = new Map<string, { parameters: readonly string[]; error: AnalysisInputError }>();
  /** Routines some record of which had the parameter. */
  private readonly withQ = new Set<string>();
  /**
   * Per record parameter other than Q and the `where` ones: its value (as text) at each Q so far;
   * a parameter seen with two values at one Q moves to {@link pooledParameters}.
   */
  private readonly valuesAtQ = new Map<string, Map<number, string>>();
  private readonly pooledParameters = new Set<string>();
  /**
   * Components, ports and methods of the records seen before the first one taken (all of them when
   * none is taken): what a selection that matches nothing is told.
   */
  private readonly names = { component: new Set<string>(), port: new Set<string>(), method: new Set<string>() };
  /** The input the next records come from (named in errors), and the position of its next record. */
  private inputName: string | undefined;
  private inInput = 0;
  get input(): string | undefined {
    return this.inputName;
  }
  /** Names the input the next records come from; their positions in errors count from its first (1). */
  set input(name: string | undefined) {
    this.inputName = name;
    this.inInput = 0;
  }

  /** @param sel - which records, which parameter is Q and which value is T */
  constructor(private readonly sel: RecordSelection) {
    this.value = recordValueOf(sel.value ?? "wallTime");
    this.where = Object.entries(sel.where ?? {});
  }

  /**
   * Takes one record (ignored unless it matches the selection).
   * @throws AnalysisInputError when a matching record lacks the parameter or value, its parameter is
   *   not numeric, or its value is negative
   */
  add(r: InvocationRecord): void {
    this.seen++;
    // The record's position in its input (1 is the first), whether it matches or not: what a reader
    // counts in the file (a CSV file's record 1 is its line 2, after the header).
    const at = ++this.inInput;
    const sel = this.sel;
    if (this.kept === 0) this.noteNames(r);
    if ((sel.component !== undefined && r.component !== sel.component) || (sel.method !== undefined && r.method !== sel.method) || (sel.port !== undefined && r.port !== sel.port)) return;
    this.parameterNames ??= Object.keys(r.parameters);
    for (const [name, wanted] of this.where) if (!parameterEquals(r.parameters[name], wanted)) return;
    const i = this.kept;
    const p = r.parameters[sel.parameter];
    const x = typeof p === "number" ? p : typeof p === "string" ? Number(p) : NaN;
    const routine = `${r.component}.${r.method}`;
    if (!Number.isFinite(x)) {
      const error = new AnalysisInputError(`record ${at} (${routine}) has no numeric parameter '${sel.parameter}' (has ${Object.keys(r.parameters).join(", ") || "none"})`, this.input);
      // Pooled records: a routine without the parameter is left out (and named); one that has it in some records is malformed.
      if (p !== undefined || !this.pooling() || this.withQ.has(routine)) throw error;
      if (!this.withoutQ.has(routine)) this.withoutQ.set(routine, { parameters: Object.keys(r.parameters), error });
      return;
    }
    if (this.withoutQ.has(routine)) throw this.withoutQ.get(routine)!.error;
    this.withQ.add(routine);
    const y = recordValue(r, this.value);
    if (y === undefined || !Number.isFinite(y)) throw new AnalysisInputError(`record ${at} (${r.component}.${r.method}) has no value '${sel.value ?? "wallTime"}'${this.valueHint(r)}`, this.input);
    if (y < 0) throw new AnalysisInputError(`record ${at} (${r.component}.${r.method}) has a negative ${recordValueName(this.value)} (${y}): times and counter values cannot be negative`, this.input);
    if (i === this.q.length) {
      this.q = grown(this.q, 2 * i);
      this.t = grown(this.t, 2 * i);
    }
    this.q[i] = x;
    this.t[i] = y;
    this.kept = i + 1;
    this.noteSource(r);
    this.notePooling(r, x);
  }

  /**
   * Notes the record's other parameters at its Q, to find those that differ at one Q. The same rule
   * as a study's, in SQL: `pooledRecordParameterNames` in `profile/study/extract.ts` (which groups by
   * the swept parameter's value too); a change to one is a change to both.
   */
  private notePooling(r: InvocationRecord, q: number): void {
    for (const name in r.parameters) {
      if (name === this.sel.parameter || this.pooledParameters.has(name) || this.sel.where?.[name] !== undefined) continue;
      const text = String(r.parameters[name]);
      let at = this.valuesAtQ.get(name);
      if (at === undefined) this.valuesAtQ.set(name, (at = new Map()));
      const before = at.get(q);
      if (before === undefined) at.set(q, text);
      else if (before !== text) {
        this.pooledParameters.add(name);
        this.valuesAtQ.delete(name);
      }
    }
  }

  /**
   * The observations of the matching records taken so far.
   * @throws AnalysisInputError when no record matched
   */
  observations(): RecordObservationSet {
    const sel = this.sel;
    if (this.kept === 0 && this.withoutQ.size > 0) {
      const routines = [...this.withoutQ].map(([routine, w]) => `${routine} (${w.parameters.join(", ") || "no parameters"})`);
      throw new AnalysisInputError(`no record matching ${this.describeSelection()} has a numeric parameter '${sel.parameter}'; the records' component methods and their parameters: ${routines.join(", ")}`);
    }
    if (this.kept === 0) throw new AnalysisInputError(`no record matches ${this.describeSelection()} (of ${this.seen} records)${this.namesHint()}${this.whereHint()}`);
    const what = [sel.component, sel.method].filter((s) => s !== undefined).join(".");
    const sources = [...this.methods].flatMap(([component, methods]) => [...methods].map((m) => `${component}.${m}`));
    const quantity: FittedQuantity = {
      name: recordValueName(this.value),
      source: "record",
      // Record times are microseconds (the files' `wall_time [us]`), counters counts.
      unit: this.value.field !== undefined ? "us" : "count",
      of: sources.length === 1 ? sources[0]! : what || null,
      kind: null,
      view: null,
      perCall: false,
    };
    return { q: this.q.slice(0, this.kept), t: this.t.slice(0, this.kept), qLabel: sel.parameter, tLabel: `${recordValueName(this.value)}${what ? ` of ${what}` : ""}`, quantity, sources, skipped: [...this.withoutQ].map(([routine, w]) => ({ routine, parameters: w.parameters })), pooledRecordParameters: [...this.pooledParameters].sort() };
  }

  /** True when the selection leaves the component or the method open, so records of several routines are pooled. */
  private pooling(): boolean {
    return this.sel.component === undefined || this.sel.method === undefined;
  }

  /** Remembers the record's component and method; why the check first: runs of records share them. */
  private noteSource(r: InvocationRecord): void {
    if (r.component === this.lastComponent && r.method === this.lastMethod) return;
    this.lastComponent = r.component;
    this.lastMethod = r.method;
    let methods = this.methods.get(r.component);
    if (methods === undefined) this.methods.set(r.component, (methods = new Set()));
    methods.add(r.method);
  }

  private describeSelection(): string {
    const sel = this.sel;
    const where = this.where.map(([k, v]) => ` ${k}=${v}`).join("");
    return `component=${sel.component ?? "*"} port=${sel.port ?? "*"} method=${sel.method ?? "*"}${where ? ` where${where}` : ""}`;
  }

  /** Notes the record's component, port and method (until a record is taken). */
  private noteNames(r: InvocationRecord): void {
    this.names.component.add(r.component);
    this.names.port.add(r.port);
    this.names.method.add(r.method);
  }

  /**
   * Why the selection matched nothing: a component, port or method no record has, with the nearest
   * name and the names the records have, as 'ccasim sweep fit' says it
   * (`; no component 'StatesConstructer' (did you mean 'StatesConstructor'?) among AMRMesh, ...`).
   */
  private namesHint(): string {
    const parts: string[] = [];
    for (const key of ["component", "port", "method"] as const) {
      const asked = this.sel[key];
      const names = [...this.names[key]].sort();
      if (asked !== undefined && !this.names[key].has(asked)) parts.push(`no ${key} '${asked}'${didYouMean(asked, names)} among ${names.join(", ") || "none (there are no records)"}`);
    }
    return parts.length > 0 ? `; ${parts.join("; ")}` : "";
  }

  /** Why a `where` filter matched nothing: a parameter the records do not have. */
  private whereHint(): string {
    const names = this.parameterNames;
    if (names === undefined) return "";
    const missing = this.where.map(([k]) => k).filter((k) => !names.includes(k));
    if (missing.length === 0) return "";
    return `; the records have no parameter ${missing.map((k) => `'${k}'${didYouMean(k, names)}`).join(", ")} (parameters: ${names.join(", ") || "none"})`;
  }

  /** The valid value names, for a record without the value asked for. */
  private valueHint(r: InvocationRecord): string {
    const counters = Object.keys(r.counters);
    return `${didYouMean(this.sel.value ?? "wallTime", recordValueSpellings(counters))}; values: ${describeRecordValues(counters)}`;
  }
}

/** The value of a record a {@link RecordValue} names (undefined for a counter it lacks). */
function recordValue(r: InvocationRecord, value: RecordValue): number | undefined {
  return value.field !== undefined ? r[value.field] : r.counters[value.counter];
}

/** True when a record parameter equals the wanted value, as text or as numbers. */
function parameterEquals(actual: number | string | undefined, wanted: number | string): boolean {
  if (actual === undefined) return false;
  if (String(actual) === String(wanted)) return true;
  const a = numeric(actual);
  return Number.isFinite(a) && a === numeric(wanted);
}

/** A parameter as a number: NaN for text that is not one (blank text included). */
function numeric(v: number | string): number {
  return typeof v === "number" ? v : v.trim() === "" ? NaN : Number(v);
}

/** Options of {@link observationsFromParameterTimers}. */
export interface ParameterTimerSelection {
  /** Routine name before the `[ <param> = <value> ]` part. */
  readonly routine: string;
  /** Parameter name inside the brackets. */
  readonly parameter: string;
  /** Metric (default: the trial's default metric, see `defaultMetric`: TIME, another time metric, the cycles, else the first by name). */
  readonly metric?: string;
  /** "inclusive" (default) or "exclusive". */
  readonly kind?: "inclusive" | "exclusive";
  /** One observation per thread (default), or per derived view ("mean"). */
  readonly view?: "each" | ViewChoice;
}

/**
 * Per-call values of TAU_PARAM timers (`f [ <size> = <100> ]`): Q is the parameter value, T the
 * inclusive (or exclusive) value divided by the number of calls, one observation per thread.
 * @throws AnalysisInputError when no such timer has a numeric value, or `kind` is neither
 *   inclusive nor exclusive
 */
export function observationsFromParameterTimers(trial: Trial, sel: ParameterTimerSelection): Observations {
  valueKindOf(sel.kind);
  const m = metricOf(trial, sel.metric);
  // The routine in full (a part of its name finds it), for the title and the quantity.
  const routine = resolveParameterRoutine(trial, sel.routine, sel.parameter);
  const timers = parameterTimers(trial, routine, sel.parameter).filter((p) => Number.isFinite(Number(p.value)));
  if (timers.length === 0) throw new AnalysisInputError(`no TAU_PARAM timer '${sel.routine} [ <${sel.parameter}> = <...> ]' with a numeric value`, trial.source);
  const views = sel.view === undefined || sel.view === "each" ? trial.threads.map((_, i) => viewOf(trial, i)) : [viewOf(trial, sel.view)];
  const q: number[] = [];
  const t: number[] = [];
  for (const v of views)
    for (const p of timers) {
      const calls = v.calls[p.timer.index]!;
      if (v.present[p.timer.index] !== 1 || !(calls > 0)) continue;
      const val = (sel.kind === "exclusive" ? v.exclusive : v.inclusive)[m]![p.timer.index]!;
      q.push(Number(p.value));
      t.push(val / calls);
    }
  const tLabel = `${trial.metrics[m]} per call of ${routine}${qualifiers([sel.kind === "exclusive" ? "exclusive" : undefined, viewLabel(sel.view ?? "each", "each")])}`;
  const metric = trial.metrics[m]!;
  const quantity: FittedQuantity = { name: metric, source: "tau-metric", unit: tauMetricUnit(metric), of: routine, kind: sel.kind ?? "inclusive", view: viewName(sel.view ?? "each"), perCall: true };
  return { q: Float64Array.from(q), t: Float64Array.from(t), qLabel: sel.parameter, tLabel, quantity };
}

/**
 * How a label names a view that is not the default: "max over threads", "each thread", "thread
 * 0,0,1" (undefined for the default).
 */
function viewLabel(view: "each" | ViewChoice, dflt: "each" | "mean"): string | undefined {
  if (view === dflt) return undefined;
  if (view === "each") return "each thread";
  if (typeof view === "string") return `${view} over threads`;
  return typeof view === "number" ? `thread #${view}` : `thread ${view.node},${view.context},${view.thread}`;
}

/** " (a, b)" of the qualifiers given, "" without any. */
function qualifiers(parts: readonly (string | undefined)[]): string {
  const given = parts.filter((p): p is string => p !== undefined);
  return given.length > 0 ? ` (${given.join(", ")})` : "";
}

/**
 * The routine name of TAU_PARAM timers carrying `parameter`: `routine` itself when it matches
 * exactly, else the only routine whose name starts with it, else the only one containing it
 * (`__wrap_dgemm` finds `int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]`).
 * @throws AnalysisInputError when several routines match
 */
export function resolveParameterRoutine(trial: Trial, routine: string, parameter: string): string {
  const bases = new Set<string>();
  for (const t of trial.timers) {
    const p = t.isCallpath ? undefined : parseParameterizedName(t.name);
    if (p && p.parameters.has(parameter)) bases.add(p.base);
  }
  if (bases.has(routine)) return routine;
  const lower = routine.toLowerCase();
  for (const match of [(b: string) => b.toLowerCase().startsWith(lower), (b: string) => b.toLowerCase().includes(lower)]) {
    const hits = [...bases].filter(match);
    if (hits.length === 1) return hits[0]!;
    if (hits.length > 1) throw new AnalysisInputError(`routine '${routine}' is ambiguous among TAU_PARAM timers: ${hits.slice(0, 5).map((h) => `'${h}'`).join(", ")}`, trial.source);
  }
  return routine;
}

/** Where a trial's Q comes from in {@link observationsAcrossTrials}. */
export type TrialParameter =
  | { readonly metadata: string }
  | { readonly sourcePattern: RegExp }
  | { readonly ranks: true }
  | { readonly threads: true }
  | ((trial: Trial) => number);

/** Options of {@link observationsAcrossTrials}. */
export interface AcrossTrialsSelection {
  /** How to read Q from each trial. */
  readonly parameter: TrialParameter;
  /** Timer whose value is T (for example ".TAU application" or "MPI_Allreduce()"). */
  readonly timer?: string;
  /** User event whose mean (over its samples) is T, instead of a timer. */
  readonly userEvent?: string;
  /** Metric (default: the trial's default metric, see `defaultMetric`: TIME, another time metric, the cycles, else the first by name). */
  readonly metric?: string;
  /** "inclusive" (default) or "exclusive". */
  readonly kind?: "inclusive" | "exclusive";
  /**
   * One observation per thread ("each"), or one per trial from a view (default "mean"). A user
   * event takes "each", "mean" or one thread only (its other derived views are not kept).
   */
  readonly view?: "each" | ViewChoice;
}

/**
 * One timer (or user event) across a set of trials, with Q read from each trial's metadata, its
 * source path, or its number of ranks or threads: power caps across folders, rank counts across
 * packed profiles, problem sizes across runs.
 * @throws AnalysisInputError when Q cannot be read from a trial, or the timer is missing, or
 *   `kind` is neither inclusive nor exclusive
 */
export function observationsAcrossTrials(trials: readonly Trial[], sel: AcrossTrialsSelection): Observations {
  if (!sel.timer === !sel.userEvent) throw new AnalysisInputError("give exactly one of timer and userEvent");
  valueKindOf(sel.kind);
  const q: number[] = [];
  const t: number[] = [];
  let qLabel = "Q";
  // The timer's full name in the first trial (what a part of a name found), and where it runs on some threads only.
  let timerName: string | undefined;
  // The user event's full name in the first trial, as the timer's.
  let eventName: string | undefined;
  const partial: PartialThreads[] = [];
  for (const trial of trials) {
    const x = trialParameter(trial, sel.parameter);
    const p = sel.parameter;
    // A ccasim run's workload variable (metadata `workload.x`) is named as its scenario names it.
    qLabel = typeof p === "function" ? "Q" : "metadata" in p ? p.metadata.replace(/^workload\./, "") : "sourcePattern" in p ? "Q" : "ranks" in p ? "ranks" : "threads";
    if (sel.userEvent) {
      const e = trial.userEvents[userEventOf(trial, sel.userEvent)]!;
      if (eventName === undefined) eventName = e.name;
      else if (e.name !== eventName)
        throw new AnalysisInputError(`'${sel.userEvent}' is the user event '${eventName}' in ${trials[0]!.source ?? "the first trial"} but '${e.name}' here: give a name that finds the same user event in every trial`, trial.source);
      // A user event's values per thread: every thread, one thread, or the mean over all of them
      // (the count-weighted mean of the threads' means); its other derived views are not kept.
      const view = sel.view ?? "mean";
      if (typeof view === "string" && view !== "each" && view !== "mean") {
        throw new AnalysisInputError(`a user event is fitted per thread (each), on one thread, or on the mean over threads (mean), not on '${view}'`, trial.source);
      }
      const one = view === "each" || view === "mean" ? undefined : threadIndexOf(trial, view);
      const views = view === "each" ? trial.threads.map((_, i) => i) : one !== undefined ? [one] : undefined;
      if (views) {
        for (const th of views) {
          const s = trial.eventSlot(th, e.index);
          if (trial.events.present[s] === 1) {
            q.push(x);
            t.push(trial.events.mean[s]!);
          }
        }
      } else {
        let sum = 0;
        let n = 0;
        for (let th = 0; th < trial.threads.length; th++) {
          const s = trial.eventSlot(th, e.index);
          if (trial.events.present[s] === 1) {
            sum += trial.events.mean[s]! * trial.events.count[s]!;
            n += trial.events.count[s]!;
          }
        }
        if (n > 0) {
          q.push(x);
          t.push(sum / n);
        }
      }
      continue;
    }
    const m = metricOf(trial, sel.metric);
    const ti = timerOf(trial, sel.timer!);
    const name = trial.timers[ti]!.name;
    if (timerName === undefined) timerName = name;
    // The same routine may sit at other source lines in another build: only the routine must match.
    else if (withoutSourceLocation(name) !== withoutSourceLocation(timerName))
      throw new AnalysisInputError(`'${sel.timer}' is the timer '${timerName}' in ${trials[0]!.source ?? "the first trial"} but '${name}' here: give a name that finds the same timer in every trial`, trial.source);
    if ((sel.view ?? "mean") === "mean") {
      const n = trial.timers.length;
      const runs = trial.threads.map((_, i) => i).filter((i) => trial.values.present[i * n + ti] === 1);
      if (runs.length < trial.threads.length) partial.push({ source: trial.source ?? "(trial)", q: x, present: runs.length, threads: trial.threads.length, runsOn: trial.threadLabel(runs[0] ?? 0) });
    }
    const views = sel.view === "each" ? trial.threads.map((_, i) => viewOf(trial, i)) : [viewOf(trial, sel.view ?? "mean")];
    for (const v of views) {
      if (v.present[ti] !== 1) continue;
      q.push(x);
      t.push((sel.kind === "exclusive" ? v.exclusive : v.inclusive)[m]![ti]!);
    }
  }
  if (q.length === 0) throw new AnalysisInputError("no observation in any trial");
  // What T is, when not the default: a timer's metric other than TIME, exclusive values, a view other than the mean.
  const metric = sel.userEvent ? undefined : trials[0]!.metrics[metricOf(trials[0]!, sel.metric)]!;
  const tLabel = `${timerName ?? eventName!}${qualifiers([
    metric !== undefined && metric.toUpperCase() !== "TIME" ? metric : undefined,
    !sel.userEvent && sel.kind === "exclusive" ? "exclusive" : undefined,
    viewLabel(sel.view ?? "mean", "mean"),
  ])}`;
  const quantity: FittedQuantity = sel.userEvent
    ? { name: eventName!, source: "user-event", unit: null, of: null, kind: null, view: viewName(sel.view ?? "mean"), perCall: false }
    : { name: metric!, source: "tau-metric", unit: tauMetricUnit(metric!), of: timerName!, kind: sel.kind ?? "inclusive", view: viewName(sel.view ?? "mean"), perCall: false };
  return { q: Float64Array.from(q), t: Float64Array.from(t), qLabel, tLabel, quantity, ...(partial.length ? { partialThreads: partial } : {}) };
}

/**
 * Q of a trial by the rule `p`.
 * @throws AnalysisInputError when the metadata key is absent or not numeric, or the pattern does not match
 */
export function trialParameter(trial: Trial, p: TrialParameter): number {
  if (typeof p === "function") return p(trial);
  if ("metadata" in p) {
    const v = trial.metadataNumber(p.metadata);
    if (v === undefined) {
      // A value with a unit ("20480 KB") is there but no number: show it, so the user sees why.
      const text = trial.metadataString(p.metadata);
      if (text !== undefined) throw new AnalysisInputError(`metadata '${p.metadata}' is ${JSON.stringify(text)}, not a number`, trial.source);
      // A key of each thread's own, not of the trial: no one value to take.
      const own = trial.threads.flatMap((t, i) => {
        const value = trial.metadataString(p.metadata, i);
        return value === undefined ? [] : [`${t.node},${t.context},${t.thread}: ${JSON.stringify(value)}`];
      });
      if (own.length > 0) throw new AnalysisInputError(`metadata '${p.metadata}' is not the trial's but each thread's own (${own.slice(0, 3).join(", ")}${own.length > 3 ? ", ..." : ""}): it gives no one value of the trial`, trial.source);
      throw new AnalysisInputError(`metadata '${p.metadata}' is missing`, trial.source);
    }
    return v;
  }
  if ("sourcePattern" in p) {
    const m = p.sourcePattern.exec(trial.source ?? "");
    const text = m ? (m[1] ?? m[0]).trim() : "";
    // Number("") is 0: a group that matched nothing is no number (nor is a hexadecimal or binary literal).
    const v = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
    if (!Number.isFinite(v)) throw new AnalysisInputError(`source path does not match ${p.sourcePattern} with a number in its first group`, trial.source ?? "(no source)");
    return v;
  }
  if ("ranks" in p) return new Set(trial.threads.map((t) => t.node)).size;
  return trial.threads.length;
}
