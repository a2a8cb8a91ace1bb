/**
 * Helpers shared by the subcommands (the analysis ones above all: `fit`, `prune`, `select`,
 * `power`): plain-text tables, number formatting, and small option parsers with usage errors.
 */
import { parseThreadName, withoutSourceLocation, type ThreadId } from "../../profile/index.js";
import { columnWidths } from "../../profile/internal.js";
import { isStudyDatabase } from "../../profile/study/index.js";
import { EXTRAP_MIN_POINTS, fractionText, SD_DEPARTURE_LIMIT, type FitWarning, type PartialThreads, type SelectionCriterion } from "../../analysis/index.js";
import { commandUsageError, UsageError } from "../command.js";

/**
 * Renders rows as an aligned text table; numbers are right-aligned and written by
 * {@link formatTableNumber} (an integer whole, a fraction never rounded to look like one).
 */
export function formatTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === "number" ? formatTableNumber(c) : c)));
  const width = columnWidths(headers.map((h) => h.length), cells);
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === "number"));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (numeric[i] ? c.padStart(width[i]!) : c.padEnd(width[i]!))).join("  ").trimEnd();
  return [line(headers), line(width.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

/** A directory path inside a timer name (`file:/home/u/src/pushe2.F95`), up to its last `/`. */
const DIRECTORY = /(?<=[\s:=<{]|^)\/(?:[^/\s<>{}\]]+\/)+/g;

/** A sampled program counter's timer (`[SAMPLE] f [{file} {line}]`, `[UNWIND] ...`): its line is its identity. */
const SAMPLE_TIMER = /^\[(?:SAMPLE|UNWIND)\] /;

/**
 * A timer name shortened to at most `width` characters for a table, in steps taken only while it
 * is too long: directory paths cut to `…/` (`[{…/H5Shyper.c} {8673}]`, `file:…/pushe2.F95`), then
 * TAU's source location dropped (`[{wrf.f90} {4,1}-{32,15}]`) but from a `[SAMPLE]` or `[UNWIND]`
 * timer (samples of one routine differ by their line alone), then the middle replaced by `…` (the
 * start names the routine, the end holds a sample's line, a TAU_PARAM value or an OpenMP
 * location). Width 0 keeps names whole.
 */
export function shortTimerName(name: string, width: number): string {
  if (width <= 0 || name.length <= width) return name;
  let s = name.replace(DIRECTORY, "…/");
  if (s.length > width && !SAMPLE_TIMER.test(s)) s = withoutSourceLocation(s);
  if (s.length <= width) return s;
  const head = Math.ceil((width - 1) * 0.6);
  return `${s.slice(0, head)}…${s.slice(s.length - (width - 1 - head))}`.replace(/……/g, "…");
}

/**
 * The model-selection criterion of `--criterion` (`fit`, `sweep fit`), undefined when not given.
 * @throws UsageError for another value
 */
export function criterionOption(command: string, value: unknown): SelectionCriterion | undefined {
  if (value === undefined) return undefined;
  const c = String(value);
  if (c !== "loo-smape" && c !== "adjusted-r2") throw commandUsageError(command, `--criterion expects loo-smape or adjusted-r2, got '${c}'`);
  return c;
}

/**
 * A fit warning in three parts, so that warnings of one kind for several fits share one line: what
 * is wrong (`headline`), the figures of one fit (`detail`) and what it means or what to do
 * (`advice`). `variable` names Q.
 */
function fitWarningParts(w: FitWarning, variable: string): { headline: string; detail: string; advice: string } {
  switch (w.kind) {
    case "zero-means":
      return {
        headline: `some distinct ${variable} have a mean of 0`,
        detail: `${w.zeroMeans} of ${w.distinct}`,
        advice:
          `LOO SMAPE scores any non-zero prediction at a 0 as 200 %, so every candidate scores high there and the ranking says little (the winner may go below 0); ` +
          `try --criterion adjusted-r2 with --family segmented, which can choose a hinge that is 0 below its change point`,
      };
    case "few-points":
      return {
        headline: `fewer than ${EXTRAP_MIN_POINTS} distinct ${variable}, which Extra-P's modeler asks for`,
        detail: `${w.distinct}`,
        advice: "it fits all the same, as Extra-P does, and a model of two coefficients has few points left over to be told from the others",
      };
    case "negative":
      return {
        headline: "the model of the mean goes below 0 inside the data, where T cannot be negative",
        detail: `${formatNumber(w.value)} at ${variable} = ${formatNumber(w.at)}`,
        advice: "it does not describe T there",
      };
    case "partial-threads": {
      const runs = [...w.trials].sort((a, b) => a.q - b.q).map((x) => `${x.present} of ${x.threads} at ${variable} = ${formatNumber(x.q)}`);
      return {
        headline: "the timer runs on only some threads, and T is its mean over all of them",
        detail: `it runs on ${runs.length > 6 ? `${runs.slice(0, 6).join(", ")}, ...` : runs.join(", ")}`,
        advice: `that mean scales with the share of threads that run it as well as with the work; --view max, or a thread that runs it (${oneThreadAdvice(w.trials)}), fits its time where it runs`,
      };
    }
    case "sd-departs": {
      const d = w.departure;
      const side = d.value > d.observed ? `above the largest observed sd (${formatNumber(d.observed)})` : `below the smallest observed sd (${formatNumber(d.observed)})`;
      return {
        headline: `every model of the standard deviation leaves the observed sds by more than ×${SD_DEPARTURE_LIMIT} inside the data`,
        detail: `the one printed gives ${formatNumber(d.value)} at ${variable} = ${formatNumber(d.at)}, ×${formatNumber(d.factor)} ${side}`,
        advice: "do not trust its sd",
      };
    }
  }
}

/** `--view n,c,t` when one thread runs the timer in every trial, else how to find one. */
function oneThreadAdvice(trials: readonly PartialThreads[]): string {
  const first = trials[0]?.runsOn;
  return first !== undefined && trials.every((t) => t.runsOn === first) ? `--view ${first} in every trial here` : "ccasim profile show lists the threads of each trial";
}

/**
 * The text of a fit's warning (`ccasim fit` and `ccasim sweep fit`), `variable` naming Q.
 */
export function fitWarningText(w: FitWarning, variable: string): string {
  const { headline, detail, advice } = fitWarningParts(w, variable);
  if (w.kind === "zero-means") return `${detail} distinct ${variable} have a mean of 0; ${advice}`;
  if (w.kind === "negative") return `the model of the mean goes below 0 inside the data (${detail}), where T cannot be negative: ${advice}`;
  if (w.kind === "few-points") return `only ${detail} distinct ${variable}, fewer than the ${EXTRAP_MIN_POINTS} Extra-P's modeler asks for: ${advice}`;
  return `${headline}; ${detail}: ${advice}`;
}

/**
 * Warnings of several fits (one per value of a swept parameter), one line per kind listing the
 * values it applies to with each one's figures: `warning: <scope>: <what> at <byLabel> = v1
 * (figures), v2 (figures); <advice>`, in the order the kinds first appear.
 */
export function groupedFitWarningLines(warnings: readonly { readonly by: number | string; readonly warning: FitWarning }[], scope: string, byLabel: string, variable: string): string[] {
  const kinds = new Map<FitWarning["kind"], { by: number | string; warning: FitWarning }[]>();
  for (const x of warnings) {
    const list = kinds.get(x.warning.kind);
    if (list) list.push(x);
    else kinds.set(x.warning.kind, [x]);
  }
  return [...kinds.values()].map((list) => {
    const { headline, advice } = fitWarningParts(list[0]!.warning, variable);
    const values = list.map((x) => `${x.by} (${fitWarningParts(x.warning, variable).detail})`).join(", ");
    return `warning: ${scope}: ${headline} at ${byLabel} = ${values}; ${advice}\n`;
  });
}

/**
 * The warning (`ccasim fit`, `ccasim sweep fit`) that one fit pools the records of several
 * component methods, `sources` (`Component.method`); `each` names the groups, " at each value of P".
 */
export function pooledComponentMethodsWarning(sources: readonly string[], each = ""): string {
  return `warning: pooling the records of ${sources.length} component methods (${sources.join(", ")}) into one fit${each}; choose one with --component and --method\n`;
}

/**
 * The warning (`ccasim fit`, `ccasim sweep fit`) that one fit pools records differing in record
 * parameters `names` at the same Q (`qLabel`); `each` names the groups, " at each value of P".
 */
export function pooledRecordParametersWarning(names: readonly string[], qLabel: string, each = ""): string {
  return `warning: one fit${each} pools records that differ in ${names.join(", ")} at the same ${qLabel} (a sequential and a strided mode, say); fit one at a time with --where ${names[0]!}=<value>\n`;
}

/** Four significant digits, exponent form outside [1e-3, 1e7); "-" for NaN. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "-" : String(v);
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e7) return String(Number(v.toPrecision(4)));
  return v.toExponential(3).replace("e+", "e");
}

/**
 * A table cell's number: an integer (below 1e15) with all its digits (53511, not 5.351e4); a
 * fraction with at least 4 significant digits and always a decimal point, so that rounding never
 * makes it read as an integer (53511.75 is 53511.8, 0.5 stays 0.5, 1234.96 is 1235.0); exponent
 * form below 1e-3 and from 1e15, "-" for NaN.
 */
export function formatTableNumber(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "-" : String(v);
  const a = Math.abs(v);
  if (Number.isInteger(v) && a < 1e15) return String(v);
  // The reports' rule (analysis' fractionText), with the text tables' precision.
  return fractionText(v, { digits: 4, exponentBelow: 1e-3 });
}

/**
 * Adjusted R² with enough decimals that 1 − adj. R² keeps 3 significant digits (0.9999812, not 1)
 * and that neighbouring values which differ print differently (at most 12 decimals), so an
 * adjusted-R² ranking can be checked by eye; one decimal count for the whole column.
 */
export function formatAdjustedR2(values: readonly number[]): string[] {
  let d = 4;
  for (const x of values) if (Number.isFinite(x) && x > 0.9 && x < 1) d = Math.max(d, Math.min(12, 2 - Math.floor(Math.log10(1 - x))));
  const text = (x: number, digits: number): string => (Number.isFinite(x) ? String(Number(x.toFixed(digits))) : "-");
  const clash = (digits: number): boolean => values.some((x, i) => i > 0 && Math.abs(x - values[i - 1]!) > 1e-12 && text(x, digits) === text(values[i - 1]!, digits));
  while (d < 12 && clash(d)) d++;
  return values.map((x) => text(x, d));
}

/**
 * Parses a number option.
 * @throws UsageError naming the option
 */
export function numberOption(command: string, name: string, raw: unknown, dflt?: number): number | undefined {
  if (raw === undefined) return dflt;
  const v = Number(raw);
  if (typeof raw !== "string" || raw.trim() === "" || !Number.isFinite(v)) throw new UsageError(`--${name} expects a number, got '${String(raw)}'`, command);
  return v;
}

/**
 * Parses a thread option (`--thread`, `--view`): one of `kinds` (derived views such as `mean`, or
 * `each`), or one thread as TAU names it, `n`, `n,c` or `n,c,t` (node, context, thread; missing
 * parts 0), as `ccasim profile show --thread` reads it. Why by name and not by position: a trial's
 * threads need not be numbered 0..n-1 (a rank with several threads, or ranks left out).
 * @param command - as for {@link positiveIntegerOption}
 * @throws UsageError naming the option, the value and what it accepts
 */
export function threadOption<K extends string>(command: string, name: string, raw: unknown, kinds: readonly K[]): K | ThreadId | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  if ((kinds as readonly string[]).includes(text)) return text as K;
  const id = parseThreadName(text);
  if (id !== undefined) return id;
  throw commandUsageError(command, `--${name} expects ${kinds.join(", ")} or a thread n[,c[,t]] (parts left out are 0), got '${String(raw)}'`);
}

/** How the tables label a thread choice: the view's name, or `thread n,c,t`. */
export function threadChoiceLabel(choice: string | ThreadId): string {
  return typeof choice === "string" ? choice : `thread ${choice.node},${choice.context},${choice.thread}`;
}

/**
 * Parses a count option (`--top`, `--rows`, `--jobs` ...): a positive integer. Why not
 * {@link numberOption}: 0, a fraction or a negative count would print empty or truncated tables.
 * @param command - the command as typed after `ccasim` (`fit`, `profile show`); words after the
 *   first prefix the message, as in `parseCommandArgs`'s errors
 * @throws UsageError naming the option and the value given
 */
export function positiveIntegerOption(command: string, name: string, raw: unknown, dflt?: number): number | undefined {
  if (raw === undefined) return dflt;
  const text = String(raw).trim();
  if (typeof raw === "string" && /^\d+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text))) return Number(text);
  throw commandUsageError(command, `--${name} expects a positive integer, got '${String(raw)}'`);
}

/**
 * Parses `name=value` assignments (`--input x=1.5`), repeated or comma-separated.
 * @throws UsageError for a malformed assignment or a name given twice
 */
export function assignments(command: string, option: string, raw: unknown): Record<string, number> {
  return numberAssignments(command, option, raw).values;
}

/**
 * {@link assignments} with the text of each value as typed (`1e5`, `0x10`), for echoing it.
 * @throws UsageError for a malformed assignment or a name given twice
 */
export function numberAssignments(command: string, option: string, raw: unknown): { readonly values: Record<string, number>; readonly texts: Record<string, string> } {
  const values: Record<string, number> = {};
  const texts: Record<string, string> = {};
  for (const item of list(raw).flatMap((s) => s.split(","))) {
    if (item.trim() === "") continue;
    const [name, text] = assignment(item) ?? [];
    const v = text === undefined || text === "" || /\s/.test(text) ? NaN : Number(text);
    if (name === undefined || !Number.isFinite(v)) throw new UsageError(`--${option} expects name=number, got '${item}'`, command);
    // The last value would win silently (one run has one value of each input).
    if (Object.prototype.hasOwnProperty.call(values, name)) throw new UsageError(`--${option} gives '${name}' twice (${name}=${texts[name]}, ${name}=${text}): give each name once`, command);
    values[name] = v;
    texts[name] = text!;
  }
  return { values, texts };
}

/**
 * `--snapshot`, which snapshot of each thread of a TAU XML profile is read: an integer is an index
 * (0 the first, -1 the last), `name:<text>` a name that could be read as one (`name:100`), anything
 * else a name (the reader checks it, and refuses the option for a profile of another format).
 */
export function snapshotOption(value: unknown): number | string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (text.startsWith("name:")) return text.slice(5);
  return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : text;
}

/**
 * Parses repeated `name=value` assignments whose values are text (`--where mode=strided`); a
 * value may hold commas and further '=' signs.
 * @throws UsageError for a malformed assignment, an empty value or a name given twice
 */
export function textAssignments(command: string, option: string, raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list(raw)) {
    const [name, text] = assignment(item) ?? [];
    if (name === undefined || text === undefined || text === "") throw new UsageError(`--${option} expects name=value, got '${item}'`, command);
    // The last value would win silently (a record has one value of each name: not "either").
    if (Object.prototype.hasOwnProperty.call(out, name)) throw new UsageError(`--${option} gives '${name}' twice (${name}=${out[name]}, ${name}=${text}): give each name once`, command);
    out[name] = text;
  }
  return out;
}

/** The name and the trimmed value of `name=value` (names as in expressions: x, machine.l2.size). */
function assignment(item: string): [string, string] | undefined {
  const m = /^\s*([A-Za-z_][\w.]*)\s*=(.*)$/.exec(item);
  return m ? [m[1]!, m[2]!.trim()] : undefined;
}

/** The list form of a repeatable string option. */
export function list(raw: unknown): string[] {
  return raw === undefined ? [] : (Array.isArray(raw) ? raw : [raw]).map(String);
}

/** JSON with NaN and infinities written as null, two-space indented. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v), 2);
}

/**
 * Refuses a study database among a profile command's inputs, saying which command reads it.
 * @param instead - what to run instead, e.g. "'ccasim sweep fit <study.db> --parameter Q'"
 * @throws UsageError for the first input that is a study database
 */
export function refuseStudyDatabase(command: string, inputs: readonly string[], instead: string): void {
  const db = inputs.find(isStudyDatabase);
  if (db !== undefined) throw commandUsageError(command, `${db} is a study database ('ccasim sweep' wrote it): use ${instead}`);
}

/** `n` and the noun, plural but for one ("1 rank", "4 ranks"). */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A threaded program model's processes and threads per process, as run and validate print them ("1 process x 2 threads"). */
export function processThreadsText(processes: number, threads: number): string {
  return `${processes} process${processes === 1 ? "" : "es"} x ${plural(threads, "thread")}`;
}

/**
 * `--fold-group`'s TAU group names, separated by commas (`MPI`, `MPI,OpenMP`); none when the
 * option is absent.
 * @throws UsageError when it is given without a name
 */
export function foldGroupsOption(command: string, raw: unknown): string[] {
  if (raw === undefined) return [];
  const groups = String(raw).split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (groups.length === 0) throw new UsageError("--fold-group needs a TAU group name (MPI, say), or several separated by commas", command);
  return groups;
}
