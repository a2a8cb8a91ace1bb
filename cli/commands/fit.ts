import { extname } from "node:path";
import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import { readExtrap, readTrial } from "../../profile/index.js";
import {
  fitFamilies,
  fitModels,
  isFormulaVariable,
  observationsAcrossTrials,
  observationsFromExtrap,
  observationsFromParameterTimers,
  observationsFromRecordInputs,
  type FitReport,
  type TrialParameter,
} from "../../analysis/index.js";
import { formatNumber, formatTable, list, numberOption, positiveIntegerOption, textAssignments, threadOption, toJson } from "./analysis-io.js";

const HELP = `ccasim fit: fit performance models T(Q) to measurements and print them as formulas and as
mathjs cost expressions a scenario can use

Usage:
  ccasim fit <records.csv|records.jsonl|run-dir>... --parameter <name> [--component C] [--method M]
             [--where name=value]... [--value V]
  ccasim fit <trial> --param-timer <routine> --parameter <name>
  ccasim fit <trial> <trial>... --timer <name> --q <rule>
  ccasim fit <trial> <trial>... --user-event <name> --q <rule>
  ccasim fit <extrap.txt|.json|.jsonl> [--callpath P] [--metric M]

Inputs:
  records        per-invocation records (CSV or JSON Lines, or a trial directory holding
                 records.csv/records.jsonl), pooled over all inputs: Q is the record parameter
                 --parameter, T is --value: wallTime (default), computeTime, mpiTime or a counter
                 name, or their columns in the record files (wall_time [us], counter:NAME [count])
                 or the study database (wall_time). Records are chosen with
                   --component C, --method M   only records of this component, of this method
                   --where name=value          only records whose parameter has this value, as
                                               text or number (repeatable), e.g. --where mode=strided
                 Records of several component methods are pooled into one fit, with a warning.
  TAU_PARAM      timers named '<routine> [ <param> = <value> ]': Q is the value, T the per-call
                 inclusive time (one observation per thread)
  trials         one timer (or the mean of a user event, --user-event) across several trials
                 (TAU profile directories, run folders or .ppk files); a timer or user event is found
                 by its full name or a unique part of it ('(top)' is the top-level timer); Q comes
                 from --q:
                   metadata:<key>   a numeric metadata attribute
                   path:<regex>     the first number group of the regex applied to the trial's path
                   ranks | threads  the number of ranks or threads
  Extra-P        text, JSON or JSON Lines inputs with one parameter: every callpath and metric is
                 fitted (or only --callpath/--metric). A .jsonl file is read as records when
                 --parameter is given, else as Extra-P JSON Lines.

Model search (the mean of T at each Q, and separately its standard deviation):
  --family <spec>     family to search (repeatable): ${fitFamilies.names().join(", ")}.
                      Options after a colon: polynomial:degree=2, polynomial:maxDegree=4,
                      pmnf:negative=true, segmented:inner=linear. Default: constant, polynomial,
                      power-law, pmnf (Extra-P's normal form over its 42 exponent pairs).
  --criterion <c>     loo-smape (default; leave-one-out SMAPE as Extra-P) or adjusted-r2
  --weighted          weight the mean fit by count / sd^2 at each Q
  --no-sd             do not fit the standard deviation
  --variable <name>   variable name in formulas and expressions (default: the parameter's name for
                      records, TAU_PARAM timers and Extra-P inputs when it is an identifier
                      mathjs gives no meaning, such as size or p; else Q, as for trials)
  --predict <Q>       also print the prediction and 95 % prediction interval at Q (repeatable)
  --top <n>           candidates to list (default 5)
  --metric <name>     metric of trial inputs (default TIME); --view mean|max|each|<n,c,t>
                      (a user event: each, mean or a thread)
  --exclusive         use exclusive instead of inclusive values of trial inputs
  --json              print the reports as JSON

Least squares uses Householder QR on column-scaled design matrices; leave-one-out errors are exact
(via leverages). A two-segment model is always tried, and a change point is flagged when the
exponent (or slope) changes materially and significantly.

Examples:
  ccasim run scenarios/shock-neuronic.yaml
  ccasim fit out/shock-neuronic --component StatesConstructor --parameter Q --where mode=strided
  ccasim fit ../shared/data/tau/powercap/cap*_wrapped_lu8 --timer '.TAU application' --q 'path:cap(\\d+)'
  ccasim fit ../shared/data/tau/ppk/gromacs-scaling/*.ppk --timer 'int main' --q ranks`;

const OPTIONS = {
  parameter: { type: "string" },
  component: { type: "string" },
  method: { type: "string" },
  where: { type: "string", multiple: true },
  value: { type: "string" },
  "param-timer": { type: "string" },
  timer: { type: "string" },
  "user-event": { type: "string" },
  q: { type: "string" },
  callpath: { type: "string" },
  metric: { type: "string" },
  view: { type: "string" },
  exclusive: { type: "boolean" },
  family: { type: "string", multiple: true },
  criterion: { type: "string" },
  weighted: { type: "boolean" },
  "no-sd": { type: "boolean" },
  variable: { type: "string" },
  predict: { type: "string", multiple: true },
  top: { type: "string" },
  json: { type: "boolean" },
} as const;

interface Labeled {
  readonly title: string;
  readonly report: FitReport;
}

function parseQRule(raw: string): TrialParameter {
  if (raw === "ranks") return { ranks: true };
  if (raw === "threads") return { threads: true };
  if (raw.startsWith("metadata:")) return { metadata: raw.slice("metadata:".length) };
  if (raw.startsWith("path:")) {
    try {
      return { sourcePattern: new RegExp(raw.slice("path:".length)) };
    } catch (e) {
      throw new UsageError(`--q path: bad regular expression: ${(e as Error).message}`, "fit");
    }
  }
  throw new UsageError(`--q expects metadata:<key>, path:<regex>, ranks or threads, got '${raw}'`, "fit");
}

function run(ctx: CommandContext): number {
  const { values: v, positionals } = parseCommandArgs("fit", ctx.argv, OPTIONS);
  if (positionals.length === 0) throw new UsageError("give at least one input (see 'ccasim fit --help')", "fit");
  const criterion = v.criterion === undefined ? undefined : String(v.criterion);
  if (criterion !== undefined && criterion !== "loo-smape" && criterion !== "adjusted-r2") throw new UsageError(`--criterion expects loo-smape or adjusted-r2, got '${criterion}'`, "fit");
  const families = list(v.family);
  const variable = v.variable === undefined ? undefined : String(v.variable);
  if (variable !== undefined && !isFormulaVariable(variable)) throw new UsageError(`--variable '${variable}' cannot name a variable in an expression (an identifier that is not a mathjs constant or function, such as Q, p or size)`, "fit");
  const fitOptions = {
    families: families.length > 0 ? families : undefined,
    criterion: criterion as "loo-smape" | "adjusted-r2" | undefined,
    weightByScatter: v.weighted === true,
    fitStdDev: v["no-sd"] === true ? false : undefined,
    variable,
  };
  const kind = v.exclusive === true ? "exclusive" : "inclusive";
  const metric = v.metric === undefined ? undefined : String(v.metric);
  const view = threadOption("fit", "view", v.view, ["each", "mean", "max", "min", "total", "stddev"] as const);
  const predictAt = list(v.predict).map((s) => numberOption("fit", "predict", s)!);
  const top = positiveIntegerOption("fit", "top", v.top, 5)!;
  const reports: Labeled[] = [];
  const first = positionals[0]!;
  const ext = extname(first).toLowerCase();
  const isExtrap = (ext === ".txt" || ext === ".json" || (ext === ".jsonl" && v.parameter === undefined)) && v.timer === undefined && v["user-event"] === undefined;
  const where = textAssignments("fit", "where", v.where);
  // Why refuse rather than ignore: a filter that silently does nothing fits data the user excluded.
  if (Object.keys(where).length > 0 && (v.timer !== undefined || v["user-event"] !== undefined || v["param-timer"] !== undefined || isExtrap)) {
    throw new UsageError("--where selects records; it does not apply to --timer, --user-event, --param-timer or Extra-P inputs", "fit");
  }

  if (v.timer !== undefined || v["user-event"] !== undefined) {
    if (v.q === undefined) throw new UsageError(`--${v.timer !== undefined ? "timer" : "user-event"} needs --q (how to read Q from each trial)`, "fit");
    if (v.timer !== undefined && v["user-event"] !== undefined) throw new UsageError("give --timer or --user-event, not both", "fit");
    const trials = positionals.map((p) => readTrial(p, { records: false }));
    const obs = observationsAcrossTrials(trials, {
      parameter: parseQRule(String(v.q)),
      timer: v.timer === undefined ? undefined : String(v.timer),
      userEvent: v["user-event"] === undefined ? undefined : String(v["user-event"]),
      metric,
      kind,
      view,
    });
    reports.push({ title: `${obs.tLabel} vs ${obs.qLabel} (${trials.length} trials)`, report: fitModels(obs, fitOptions) });
  } else if (v["param-timer"] !== undefined) {
    if (v.parameter === undefined) throw new UsageError("--param-timer needs --parameter", "fit");
    for (const p of positionals) {
      const obs = observationsFromParameterTimers(readTrial(p, { records: false }), { routine: String(v["param-timer"]), parameter: String(v.parameter), metric, kind, view });
      reports.push({ title: `${obs.tLabel} vs ${obs.qLabel} (${p})`, report: fitModels(obs, { ...fitOptions, variable: variable ?? String(v.parameter) }) });
    }
  } else if (isExtrap) {
    for (const p of positionals) {
      const sets = observationsFromExtrap(readExtrap(p), { callpath: v.callpath === undefined ? undefined : String(v.callpath), metric, source: p });
      for (const obs of sets) reports.push({ title: `${obs.tLabel} vs ${obs.qLabel} (${p})`, report: fitModels(obs, { ...fitOptions, variable: variable ?? obs.qLabel }) });
    }
  } else {
    if (v.parameter === undefined) throw new UsageError("say what Q is: --parameter (records, TAU_PARAM), --timer with --q (trials), or give an Extra-P file", "fit");
    // Records of every input are pooled into one data set (runs at different Q).
    const obs = observationsFromRecordInputs(positionals, {
      parameter: String(v.parameter),
      value: v.value === undefined ? undefined : String(v.value),
      component: v.component === undefined ? undefined : String(v.component),
      method: v.method === undefined ? undefined : String(v.method),
      where,
    });
    if (obs.sources.length > 1) {
      ctx.err(`warning: pooling the records of ${obs.sources.length} component methods (${obs.sources.join(", ")}) into one fit; choose one with --component and --method\n`);
    }
    const inputs = positionals.length === 1 ? positionals[0]! : `${positionals.length} inputs`;
    reports.push({ title: `${obs.tLabel} vs ${obs.qLabel} (${inputs})`, report: fitModels(obs, { ...fitOptions, variable: variable ?? String(v.parameter) }) });
  }

  if (v.json === true) {
    ctx.out(
      toJson(
        reports.map(({ title, report }) => ({
          title,
          range: report.range,
          criterion: report.criterion,
          weighted: report.weighted,
          points: Array.from(report.points.q, (q, i) => ({ q, mean: report.points.mean[i], sd: report.points.sd[i], count: report.points.count[i] })),
          mean: report.mean,
          stdDev: report.stdDev,
          noScatter: report.noScatter,
          changePoint: report.changePoint && { ...report.changePoint, model: report.changePoint.model },
          candidates: report.candidates.slice(0, top),
          predictions: predictAt.map((q) => ({ q, value: report.mean.predict(q), interval: report.mean.predictionInterval(q), extrapolated: !report.mean.supports(q) })),
        })),
      ) + "\n",
    );
    return 0;
  }
  for (const { title, report } of reports) ctx.out(formatReport(title, report, predictAt, top, v["no-sd"] !== true) + "\n");
  return 0;
}

/** The text of one report; `sd` false leaves out the standard deviation line (--no-sd). */
function formatReport(title: string, r: FitReport, predictAt: number[], top: number, sd: boolean): string {
  const m = r.mean;
  const q = m.quality;
  const lines = [
    `== ${title}`,
    `data: ${r.points.q.length} distinct ${r.variable} in [${formatNumber(r.range.min)}, ${formatNumber(r.range.max)}], ${Array.from(r.points.count).reduce((a, b) => a + b, 0)} observations${r.weighted ? ", mean fit weighted by scatter" : ""}`,
    `mean:       ${m.formula}`,
    `expression: ${m.expression}`,
    `            family ${m.family}; LOO SMAPE ${formatNumber(q.looSmape)} %, SMAPE ${formatNumber(q.smape)} %, adj. R² ${formatNumber(q.adjustedR2)}, RSS ${formatNumber(q.rss)}`,
    `            coefficients ± standard error: ${m.coefficients.map((c) => `${formatNumber(c.value)} ± ${formatNumber(c.stdError)}`).join(", ")}`,
  ];
  if (r.stdDev) lines.push(`sd:         ${r.stdDev.formula}`, `expression: ${r.stdDev.expression}`);
  else if (r.noScatter && sd) lines.push(`sd:         0 (repeated ${r.variable} values give the same T, up to rounding)`);
  if (r.changePoint) {
    const c = r.changePoint;
    const what = c.kind === "power-law" ? "exponent" : "slope";
    lines.push(`change point: ${c.significant ? "" : "none significant; best candidate "}at ${r.variable} = ${formatNumber(c.at)}, ${what} ${formatNumber(c.before)} before, ${formatNumber(c.after)} after`);
  }
  for (const x of predictAt) {
    const iv = m.predictionInterval(x);
    lines.push(`predict Q = ${formatNumber(x)}: ${formatNumber(m.predict(x))} (95 % interval ${formatNumber(iv.low)} .. ${formatNumber(iv.high)})${m.supports(x) ? "" : " — extrapolated beyond the data"}`);
  }
  lines.push(
    "",
    formatTable(
      ["rank", "family", "model", "LOO SMAPE %", "adj. R²"],
      r.candidates.slice(0, top).map((c, i) => [String(i + 1), c.family, c.formula, c.quality.looSmape, c.quality.adjustedR2]),
    ),
  );
  return lines.join("\n");
}

/** `ccasim fit`: model fitting on records, TAU_PARAM timers, trials across a parameter, or Extra-P inputs. */
export const fitCommand: Command = {
  name: "fit",
  help: HELP,
  run,
};

