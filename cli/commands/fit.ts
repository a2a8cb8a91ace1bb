import { extname } from "node:path";
import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import { inputReadKey, readExtrap, readTrial, runFileAdvice } from "../../profile/index.js";
import {
  AnalysisInputError,
  changePointText,
  differingComponentSettings,
  EXTRAP_FAMILIES,
  EXTRAP_MIN_TERM_CONTRIBUTION,
  extrapScore,
  fitFamilies,
  fitModels,
  fitWarnings,
  type FitWarning,
  isFormulaVariable,
  observationsAcrossTrials,
  observationsFromExtrap,
  observationsFromParameterTimers,
  observationsFromRecordInputs,
  parseFamilySpec,
  scoresTie,
  predictAt,
  SD_DEPARTURE_LIMIT,
  studentTQuantile,
  type FitReport,
  type FittedModel,
  type FittedQuantity,
  type Observations,
  type Screening,
  type TrialParameter,
} from "../../analysis/index.js";
import { criterionOption, fitWarningText, pooledComponentMethodsWarning, pooledRecordParametersWarning, formatAdjustedR2, formatNumber, formatTable, list, numberOption, positiveIntegerOption, refuseStudyDatabase, snapshotOption, textAssignments, threadOption, toJson } from "./analysis-io.js";

const HELP = `ccasim fit: fit performance models T(Q) to measurements and print them as formulas and as
mathjs cost expressions a scenario can use

Usage:
  ccasim fit <records.csv|records.jsonl|run-dir>... --parameter <name> [--component C] [--port P]
             [--method M] [--where name=value]... [--value V]
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
                   --component C, --port P, --method M
                                               only records of this component, of this provides
                                               port, of this method
                   --where name=value          only records whose parameter has this value, as
                                               text or number (repeatable), e.g. --where mode=strided
                 Records of several component methods are pooled into one fit, with a warning;
                 without --component or --method, those of component methods none of whose
                 records has the parameter are left out, with a warning naming them.
  TAU_PARAM      timers named '<routine> [ <param> = <value> ]': Q is the value, T the per-call
                 inclusive time (one observation per thread)
  trials         one timer (or the mean of a user event, --user-event) across several trials
                 (TAU profile directories, run folders, .ppk, TAU XML or .cubex files); a timer or user event is found
                 by its full name or a unique part of it ('(top)' is the top-level timer); Q comes
                 from --q:
                   metadata:<key>   a numeric metadata attribute (a ccasim run writes every
                                    workload variable as workload.<name>: metadata:workload.x)
                   path:<regex>     the first number group of the regex applied to the trial's path
                   ranks | threads  the number of ranks or threads
  Extra-P        text, JSON or JSON Lines inputs with one parameter (multi-parameter models are
                 not supported): every callpath and metric is fitted (or only --callpath/--metric;
                 a callpath is found by its full name or a unique part of it, as --timer). A
                 .jsonl file is read as records when --parameter is given, else as Extra-P JSON
                 Lines. Fitted with the defaults, they are fitted as Extra-P does (below).

Model search (the mean of T at each Q, and separately its standard deviation):
  --family <spec>     family to search (repeatable): ${fitFamilies.names().join(", ")}.
                      Options after a colon: polynomial:degree=2, polynomial:maxDegree=4,
                      pmnf:negative=true, segmented:inner=linear. Default: constant, polynomial,
                      power-law, pmnf (Extra-P's normal form over its 42 exponent pairs); for
                      Extra-P inputs constant and pmnf, Extra-P's own search space, chosen by
                      Extra-P's rule (the output says so; see "Extra-P inputs" below). Two
                      candidates that fit equally well (an exact fit) rank the one linear in its
                      coefficients first.
  --criterion <c>     loo-smape (default; leave-one-out SMAPE as Extra-P) or adjusted-r2 (printed
                      with enough decimals to tell the candidates apart). SMAPE scores any
                      non-zero prediction at a mean of 0 as 200 %: when some Q have a mean of 0
                      (a counter below a cache knee), a warning suggests adjusted-r2 with
                      --family segmented, which can choose a hinge that is 0 below its change
                      point
  --weighted          weight the mean fit by count / sd^2 at each Q
  --no-sd             do not fit the standard deviation
  --variable <name>   variable name in formulas, expressions and the title (default: the
                      parameter's name for records and TAU_PARAM timers, the --q rule's for trials
                      (ranks, threads, the metadata key), the Extra-P parameter's, when it is an
                      identifier mathjs gives no meaning, such as size or p; else Q)
  --predict <Q>       also print at Q (repeatable) the mean model's value; the 95 % interval of
                      the mean (the model is fitted to the mean T at each Q: this is where a new
                      mean of as many observations falls, not a single one); the sd; and, when
                      the sd is fitted, the 95 % range of one observation (one invocation, one
                      repetition): value ± sqrt((t1·se)² + (t2·sd)²), se the mean's standard
                      error, t1 and t2 the Student quantiles of the mean fit's and the
                      repetitions' degrees of freedom; for a model on log T (power law,
                      segmented on log T) the same on log T, exp(log value ± sqrt((t1·se_log)² +
                      (t2·sd/value)²)), positive and asymmetric as its interval of the mean.
                      Either way it holds the interval of the mean (JSON: interval,
                      singleObservationRange). For a time or count (no observation below 0) a
                      linear model's value or end below 0 is printed as 0, with the model's own
                      number
  --top <n>           candidates to list (default 5)
  --metric <name>     metric of trial inputs (default TIME; else another time metric, the
                      cycles, or the first by name, as profile show); of Extra-P inputs, the one
                      metric to fit (default every metric)
  --view <v>          which threads of trial inputs: each, mean, max, min, total, stddev or a
                      thread n[,c[,t]] (node, context, thread, by commas or dots; parts left out
                      are 0: 3,1 is 3,1,0) (default: mean across trials, each for TAU_PARAM
                      timers; a user event: each, mean or a thread); the title names a view,
                      metric or --exclusive that is not the default
  --exclusive         use exclusive instead of inclusive values of trial inputs
  --snapshot <n|name> of TAU XML trial inputs, the snapshot of each thread to read: an index (0
                      the first, -1 the last, the default) or a name (name:100 for a name that
                      is a number), as 'ccasim profile show --snapshot'
  --json              print the reports as JSON; 'quantity' says what T is: name (wallTime, a
                      counter, a TAU metric, an Extra-P metric), source, unit (us, count, or
                      null when the input does not say), of (component method, timer, callpath),
                      kind (inclusive/exclusive), view (each, mean, max, ..., thread n,c,t) and
                      perCall

Options read by some kinds of input only (--component, --port, --method, --where, --value for records;
--q for trials; --param-timer; --callpath for Extra-P; --view, --exclusive, --snapshot for profiles; --metric
for profiles and Extra-P) are refused with the others rather than ignored. A study database ('ccasim sweep') is
fitted with 'ccasim sweep fit'.

How the mean's model is chosen: a hypothesis of p coefficients is fitted when there are at least
p + 1 distinct Q, and is a candidate when its defining term (the leading power, the PMNF term, the
exponent) is significantly different from 0 (95 %, Student's t); the candidates are ranked by the
criterion. The 'candidates' line counts those rejected and names those not fitted for lack of
points. Least squares uses Householder QR on column-scaled design matrices; leave-one-out errors
are exact (via leverages). The quality line gives SMAPE, adj. R² and RSS of the fit to all points
(in-sample) and, on the next line, adj. R² and RSS of the leave-one-out predictions (what Extra-P
reports with cross-validation on, but for a constant model: Extra-P gives its RSS on all points
and adj. R² 1); JSON: adjustedR2, rss and looAdjustedR2, looRss.

Extra-P inputs, with the defaults (no --family, --criterion loo-smape, no --weighted), are fitted
as Extra-P's default single-parameter modeler (Basic, cross-validation on) fits them: the families
constant and pmnf; the constant model (the mean), scored by its SMAPE on all points, is the model
unless a PMNF hypothesis has a strictly lower leave-one-out SMAPE (the lowest wins, the first
tried on a tie); no significance test, but a hypothesis is rejected when its term's coefficient
is 0 or the term contributes under 0.05 % of the mean at every point; in each leave-one-out fit a
constant coefficient under 0.05 % of the smallest value is set to 0, as Extra-P does. The
'selection' line says so, and the table adds the score each model is ranked by (JSON: rule
"extra-p"). With --family, --criterion adjusted-r2 or --weighted they are fitted by ccasim's rule
above. No change-point model joins their candidates unless --family names segmented; the
standard deviation is fitted as for other inputs.

Change point: with 5 to 5000 distinct Q a two-segment model is fitted too (power laws, or lines
when some Q or T is not positive) with a change point searched among the data's Q, in three
shapes: the exponent or slope changes there (continuously), T jumps past it with the same
exponent (a cache overflowing between two sizes), or both; the shape of least LOO SMAPE is kept.
When the change is material (an exponent change of 0.1, a slope change or a jump of 10 %),
significant (95 %) and fits better than every single-segment candidate, the change point is
reported and its model competes with the other candidates (unless --family leaves out
segmented), with honest penalties: its LOO SMAPE re-chooses the change point without each
left-out point, and adj. R² counts the change point as a parameter. It wins only when it predicts
better; the 'change point' line says where it ranks. With --family segmented the same search
gives a candidate per shape (segmented:change=hinge|step|both picks one) whenever its change
passes the 95 % test.

Standard deviation: the sample sd at each Q with repetitions is fitted as a function of Q (paper
000's Equation 2) and is never negative: a shape is a candidate only if it cannot go below 0 (a
power law, or non-negative coefficients), if its defining term is significant against both the
scatter of the sds and their own sampling error (normal theory, from the number of observations at
each Q: the sd of two observations scatters by 0.6 σ), and if it has no more parameters
than some candidate of the mean (a second moment is estimated less precisely than the mean). The
constant (the mean of the sds) is always a candidate; so are two-segment shapes when the mean's
change point is searched and --family is not given (sds often rise where a cache overflows). A
candidate is then rejected if, somewhere inside the observed Q, it goes above twice the largest
sd observed or below half the smallest: LOO SMAPE weighs every Q alike in relative terms, so a
power law through sds spanning 500x can follow the many small ones and miss the large ones by 5x.
When every candidate does, the best is kept with a warning.

Warnings (on stderr, in the JSON as 'warnings'): means of 0 under LOO SMAPE (see --criterion); a
model of the mean that goes below 0 inside the data, for a time or count; a standard deviation
that no model describes (above); across trials, a timer that only some threads run while T is
its mean over all threads (the default view), which then falls as threads are added. On stderr only: records that differ at the same Q in another
parameter (a sequential and a strided mode: --where mode=strided fits one), as 'ccasim sweep fit'
says it; records of several component methods pooled, or left out for lacking the parameter.

Examples:
  ccasim run scenarios/shock-neuronic.yaml
  ccasim fit out/shock-neuronic --component StatesConstructor --parameter Q --where mode=strided
  ccasim fit ../shared/data/tau/powercap/cap*_wrapped_lu8 --timer '.TAU application' --q 'path:cap(\\d+)'
  ccasim fit ../shared/data/tau/ppk/gromacs-scaling/*.ppk --timer 'int main' --q ranks
  ccasim fit ../shared/data/extrap/docs_examples_input.txt --predict 128`;

const OPTIONS = {
  parameter: { type: "string" },
  component: { type: "string" },
  port: { type: "string" },
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
  snapshot: { type: "string" },
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
  /** What T is, field by field (JSON `quantity`). */
  readonly quantity?: FittedQuantity;
  readonly report: FitReport;
  /** What the user should be told before trusting it (stderr, JSON `warnings`). */
  readonly warnings: readonly FitWarning[];
  /** True when the families searched are Extra-P's by default (an Extra-P input without --family). */
  readonly extrapFamilies?: boolean;
}

/** The line saying how Extra-P's rule chose the model (an Extra-P input fitted with the defaults). */
function extrapRuleLine(r: FitReport): string {
  const constant = r.candidates.find((c) => c.hypothesis.terms.length === 1);
  const score = constant ? ` (its SMAPE on all points, ${formatNumber(constant.quality.smape)} %)` : "";
  return `selection:  Extra-P's rule: the constant model${score} is kept unless a hypothesis has a lower LOO SMAPE; a hypothesis with a term contributing under ${EXTRAP_MIN_TERM_CONTRIBUTION * 100} % of the value at every point is rejected; no significance test`;
}

/** The line saying that an Extra-P input is fitted in Extra-P's search space. */
const EXTRAP_FAMILIES_NOTE = `families:   ${EXTRAP_FAMILIES.join(", ")} (Extra-P's search space, the default for Extra-P inputs; --family widens it)`;

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
  // An input named twice would count its observations twice (a shell glob and a path, say), and so
  // would a folder given with the records file or profile folder it is read from.
  const readsRecords = v.timer === undefined && v["user-event"] === undefined && v["param-timer"] === undefined;
  const seen = new Map<string, string>();
  for (const p of positionals) {
    const key = inputReadKey(p, readsRecords);
    const first = seen.get(key);
    if (first !== undefined) throw new UsageError(`the input '${p}' is given twice${first !== p ? ` (as '${first}' too)` : ""}: its observations would count twice`, "fit");
    seen.set(key, p);
  }
  refuseStudyDatabase("fit", positionals, "'ccasim sweep fit <study.db> --parameter Q' (see 'ccasim sweep fit --help')");
  const criterion = criterionOption("fit", v.criterion);
  const families = list(v.family);
  // A misspelt family is named before the inputs are read, which might not be fitted at all.
  for (const f of families) parseFamilySpec(f);
  const variable = v.variable === undefined ? undefined : String(v.variable);
  if (variable !== undefined && !isFormulaVariable(variable)) throw new UsageError(`--variable '${variable}' cannot name a variable in an expression (an identifier that is not a mathjs constant or function, such as Q, p or size)`, "fit");
  const fitOptions = {
    families: families.length > 0 ? families : undefined,
    criterion,
    weightByScatter: v.weighted === true,
    fitStdDev: v["no-sd"] === true ? false : undefined,
    variable,
  };
  const kind = v.exclusive === true ? "exclusive" : "inclusive";
  const snapshot = snapshotOption(v.snapshot);
  const metric = v.metric === undefined ? undefined : String(v.metric);
  const view = threadOption("fit", "view", v.view, ["each", "mean", "max", "min", "total", "stddev"] as const);
  // Each Q with its text as typed, which the prediction line echoes (1e5, not 100000).
  const predictQs = list(v.predict).map((s) => ({ q: numberOption("fit", "predict", s)!, text: s.trim() }));
  const top = positiveIntegerOption("fit", "top", v.top, 5)!;
  const reports: Labeled[] = [];
  // The formulas name Q after what it is (--variable, else the parameter, the --q rule or the
  // Extra-P parameter, when an expression can use the name); the title uses the same name.
  const fitOne = (obs: Observations, source: string): Labeled => {
    // Inputs with a fit of their own (Extra-P's families and rule) get it from fitModels; --family
    // asks for ccasim's rule, even when it names the input's own families.
    const report = fitModels(obs, { ...fitOptions, variable: variable ?? obs.qLabel, ...(fitOptions.families !== undefined ? { rule: "significance" as const } : {}) });
    const q = report.variable === obs.qLabel ? obs.qLabel : `${report.variable} (${obs.qLabel})`;
    return { title: `${obs.tLabel} vs ${q} (${source})`, report, warnings: fitWarnings(report, obs), ...(obs.quantity ? { quantity: obs.quantity } : {}), ...(fitOptions.families === undefined && obs.fitDefaults !== undefined ? { extrapFamilies: true } : {}) };
  };
  const first = positionals[0]!;
  // A run's summary or call graph is JSON, as Extra-P input is: say what it is instead.
  for (const p of positionals) {
    const advice = runFileAdvice(p);
    if (advice !== undefined) throw new AnalysisInputError(`not a profile, records or Extra-P input: it is ${advice}`, p);
  }
  const ext = extname(first).toLowerCase();
  const isExtrap = (ext === ".txt" || ext === ".json" || (ext === ".jsonl" && v.parameter === undefined)) && v.timer === undefined && v["user-event"] === undefined;
  const where = textAssignments("fit", "where", v.where);
  const mode: InputMode = v.timer !== undefined || v["user-event"] !== undefined ? "trials" : v["param-timer"] !== undefined ? "param-timer" : isExtrap ? "extrap" : "records";
  refuseIgnoredOptions(v, mode);

  if (v.timer !== undefined || v["user-event"] !== undefined) {
    if (v.q === undefined) throw new UsageError(`--${v.timer !== undefined ? "timer" : "user-event"} needs --q (how to read Q from each trial)`, "fit");
    if (v.timer !== undefined && v["user-event"] !== undefined) throw new UsageError("give --timer or --user-event, not both", "fit");
    const trials = positionals.map((p) => readTrial(p, { records: false, snapshot }));
    const obs = observationsAcrossTrials(trials, {
      parameter: parseQRule(String(v.q)),
      timer: v.timer === undefined ? undefined : String(v.timer),
      userEvent: v["user-event"] === undefined ? undefined : String(v["user-event"]),
      metric,
      kind,
      view,
    });
    reports.push(fitOne(obs, `${trials.length} trials`));
  } else if (v["param-timer"] !== undefined) {
    if (v.parameter === undefined) throw new UsageError("--param-timer needs --parameter", "fit");
    for (const p of positionals) {
      reports.push(fitOne(observationsFromParameterTimers(readTrial(p, { records: false, snapshot }), { routine: String(v["param-timer"]), parameter: String(v.parameter), metric, kind, view }), p));
    }
  } else if (isExtrap) {
    for (const p of positionals) {
      const sets = observationsFromExtrap(readExtrap(p), { callpath: v.callpath === undefined ? undefined : String(v.callpath), metric, source: p });
      for (const obs of sets) reports.push(fitOne(obs, p));
    }
  } else {
    if (v.parameter === undefined) throw new UsageError("say what Q is: --parameter (records, TAU_PARAM), --timer with --q (trials), or give an Extra-P file", "fit");
    // Records of every input are pooled into one data set (runs at different Q).
    const obs = observationsFromRecordInputs(positionals, {
      parameter: String(v.parameter),
      value: v.value === undefined ? undefined : String(v.value),
      component: v.component === undefined ? undefined : String(v.component),
      port: v.port === undefined ? undefined : String(v.port),
      method: v.method === undefined ? undefined : String(v.method),
      where,
    });
    if (obs.skipped.length > 0) {
      ctx.err(`warning: left out the records of ${obs.skipped.length} component method${obs.skipped.length === 1 ? "" : "s"} without a parameter '${String(v.parameter)}': ${obs.skipped.map((x) => `${x.routine} (has ${x.parameters.join(", ") || "none"})`).join(", ")}\n`);
    }
    if (obs.sources.length > 1) ctx.err(pooledComponentMethodsWarning(obs.sources));
    if (obs.pooledRecordParameters.length > 0) ctx.err(pooledRecordParametersWarning(obs.pooledRecordParameters, obs.qLabel));
    // Runs that set the fitted components up differently (an implementation, a cost). Said unless
    // the records already told (the pooled-parameters warning above, for a column of that name)
    // or --where keeps one value of such a column: a column alone need not tell the runs apart
    // (runs at other Q never share a Q).
    const components = [...new Set(obs.sources.map((s) => s.slice(0, s.lastIndexOf("."))))];
    for (const d of differingComponentSettings(positionals, components)) {
      if (obs.pooledRecordParameters.includes(d.key) || Object.prototype.hasOwnProperty.call(where, d.key)) continue;
      const shown = d.values.slice(0, 3).map((x) => `${x.value} in ${x.input}`);
      ctx.err(`warning: the runs pooled into one fit set ${d.component}'s ${d.key} differently (${shown.join(", ")}${d.values.length > 3 ? `, and ${d.values.length - 3} more` : ""}): one fit blends them; fit the runs of each setting apart (or keep one with --where, where the records carry the setting)\n`);
    }
    reports.push(fitOne(obs, positionals.length === 1 ? positionals[0]! : `${positionals.length} inputs`));
  }

  for (const { title, report } of reports) refuseUndefinedPredictions(title, report, predictQs);
  for (const { title, report, warnings } of reports) for (const w of warnings) ctx.err(`warning: ${title}: ${fitWarningText(w, report.variable)}\n`);
  if (v.json === true) {
    ctx.out(
      toJson(
        reports.map(({ title, report, warnings, extrapFamilies, quantity }) => ({
          title,
          quantity: quantity ?? null,
          ...(extrapFamilies === true ? { families: EXTRAP_FAMILIES, familiesNote: "Extra-P's search space, the default for Extra-P inputs" } : {}),
          variable: report.variable,
          range: report.range,
          criterion: report.criterion,
          rule: report.rule,
          weighted: report.weighted,
          nonNegative: report.nonNegative,
          points: Array.from(report.points.q, (q, i) => ({ q, mean: report.points.mean[i], sd: report.points.sd[i], count: report.points.count[i] })),
          mean: report.mean,
          screening: report.screening,
          stdDev: report.stdDev,
          stdDevScreening: report.stdDevScreening,
          stdDevDeparture: report.stdDevDeparture,
          warnings,
          noScatter: report.noScatter,
          zeroMeans: report.zeroMeans,
          changePoint: report.changePoint && { ...report.changePoint, model: report.changePoint.model, rank: rankOf(report, report.changePoint.model) },
          candidates: report.candidates.slice(0, top),
          predictions: predictQs.map(({ q }) => predictAt(report, q)),
        })),
      ) + "\n",
    );
    return 0;
  }
  for (const { title, report, extrapFamilies } of reports) ctx.out(formatReport(title, report, predictQs, top, v["no-sd"] !== true, extrapFamilies === true, observationName(mode, view)) + "\n");
  return 0;
}

/**
 * Refuses a --predict value where the chosen model has no finite value or interval: Q of 0 or
 * below in a model that takes log Q (a power law, a logarithmic term).
 * @throws UsageError naming the value, the fit and its model
 */
function refuseUndefinedPredictions(title: string, report: FitReport, predictQs: readonly { readonly q: number; readonly text: string }[]): void {
  for (const { q, text } of predictQs) {
    const p = predictAt(report, q);
    if ([p.value, p.interval.low, p.interval.high].every(Number.isFinite)) continue;
    const v = report.variable;
    const why = q <= 0 ? ` (it takes log(${v}), defined for ${v} > 0)` : "";
    throw new UsageError(`--predict ${text}: the model of ${title}, ${report.mean.formula}, has no value at ${v} = ${text}${why}`, "fit");
  }
}

/** What the inputs are, by the options given: each reads its own options. */
type InputMode = "trials" | "param-timer" | "extrap" | "records";

/** How the help names each input mode in a refusal. */
const MODE_TEXT: Record<InputMode, string> = {
  trials: "a timer or user event across trials (--timer, --user-event)",
  "param-timer": "TAU_PARAM timers (--param-timer)",
  extrap: "Extra-P inputs",
  records: "records",
};

/** The options only some input modes read, and the modes that read them. */
const MODE_OPTIONS: Record<string, readonly InputMode[]> = {
  parameter: ["param-timer", "records"],
  component: ["records"],
  port: ["records"],
  method: ["records"],
  where: ["records"],
  value: ["records"],
  "param-timer": ["param-timer"],
  q: ["trials"],
  callpath: ["extrap"],
  metric: ["trials", "param-timer", "extrap"],
  view: ["trials", "param-timer"],
  exclusive: ["trials", "param-timer"],
  snapshot: ["trials", "param-timer"],
};

/**
 * Refuses an option the input mode does not read. Why refuse rather than ignore: an option that
 * silently does nothing (a filter, a Q) fits data other than the data the user asked for.
 * @throws UsageError naming the option and the mode
 */
function refuseIgnoredOptions(v: Record<string, unknown>, mode: InputMode): void {
  // A user event's values are its mean per thread: no metric, nothing inclusive or exclusive.
  if (v["user-event"] !== undefined) for (const o of ["metric", "exclusive"]) if (v[o] !== undefined) throw new UsageError(`--${o} does not apply to a user event (its value is the mean of its samples on each thread)`, "fit");
  for (const [option, modes] of Object.entries(MODE_OPTIONS)) {
    if (v[option] === undefined || modes.includes(mode)) continue;
    if (option === "q" && mode !== "trials") throw new UsageError("--q says how to read Q from each trial; it needs --timer or --user-event", "fit");
    throw new UsageError(`--${option} does not apply to ${MODE_TEXT[mode]}: it applies to ${modes.map((m) => MODE_TEXT[m]).join(" and ")}`, "fit");
  }
}

/** 1-based rank of a model among the report's candidates, or null when it is not one. */
function rankOf(r: FitReport, m: FittedModel): number | null {
  const i = r.candidates.indexOf(m);
  return i < 0 ? null : i + 1;
}

/**
 * The leave-one-out line of the mean model. Extra-P reports a hypothesis's leave-one-out RSS and
 * adj. R², but a constant model's RSS on all points and adj. R² 1 (it cross-validates no constant).
 */
function looLine(m: FittedModel): string {
  const q = m.quality;
  const loo = `adj. R² ${formatAdjustedR2([q.looAdjustedR2])[0]}, RSS ${formatNumber(q.looRss)}`;
  if (m.hypothesis.terms.length > 1) return `            leave-one-out (as Extra-P reports them): ${loo}`;
  return `            leave-one-out: ${loo} (Extra-P reports a constant model's RSS on all points, ${formatNumber(q.rss)}, and adj. R² 1)`;
}

/** The text of one report; `sd` false leaves out the standard deviation line (--no-sd). */
function formatReport(title: string, r: FitReport, predictQs: readonly { readonly q: number; readonly text: string }[], top: number, sd: boolean, extrapFamilies: boolean, observation: string): string {
  const m = r.mean;
  const q = m.quality;
  const v = r.variable;
  const lines = [
    `== ${title}`,
    ...(extrapFamilies ? [EXTRAP_FAMILIES_NOTE] : []),
    ...(r.rule === "extra-p" ? [extrapRuleLine(r)] : []),
    `data: ${r.points.q.length} distinct ${v} in [${formatNumber(r.range.min)}, ${formatNumber(r.range.max)}], ${Array.from(r.points.count).reduce((a, b) => a + b, 0)} observations${r.weighted ? ", mean fit weighted by scatter" : ""}`,
    `mean:       ${m.formula}`,
    `expression: ${m.expression}`,
    `            family ${m.family}; LOO SMAPE ${formatNumber(q.looSmape)} %, SMAPE ${formatNumber(q.smape)} %, adj. R² (in-sample) ${formatAdjustedR2([q.adjustedR2])[0]}, RSS (in-sample) ${formatNumber(q.rss)}`,
    looLine(m),
    `            coefficients ± standard error: ${coefficientsText(m)}`,
    ...screeningLines("candidates: ", r.screening, r, false),
  ];
  if (r.stdDev) {
    lines.push(`sd:         ${r.stdDev.formula}`, `expression: ${r.stdDev.expression}`);
    lines.push(...screeningLines("sd candidates: ", r.stdDevScreening!, r, true));
  } else if (r.noScatter && sd) lines.push(`sd:         0 (repeated ${v} values give the same T, up to rounding)`);
  if (r.changePoint) {
    const c = r.changePoint;
    const what = c.kind === "power-law" ? "exponent" : "slope";
    const jump = c.jump === undefined ? "" : c.kind === "power-law" ? `, jumping ×${formatNumber(c.jump)} past it` : `, jumping by ${formatNumber(c.jump)} past it`;
    const slopes = c.change === "step" ? `${what} ${formatNumber(c.before)} on both sides` : `${what} ${formatNumber(c.before)} before, ${formatNumber(c.after)} after`;
    // As the model's formula writes it: rounded, a change at 13325 would read 13330.
    const at = `at ${v} = ${changePointText(c.at)}, ${slopes}${jump}`;
    if (!c.significant) lines.push(`change point: none significant; best candidate ${at}`);
    else {
      // Where the two-segment model ranks, against the best single-segment candidate.
      const single = r.candidates.find((x) => x.family !== "segmented");
      const pair = single ? [c.model, single] : [c.model];
      const loo = r.criterion === "loo-smape";
      const scores = loo ? pair.map((x) => `${formatNumber(x.quality.looSmape)} %`) : formatAdjustedR2(pair.map((x) => x.quality.adjustedR2));
      const against = single ? ` against ${scores[1]} for the best single-segment model` : "";
      const rank = rankOf(r, c.model);
      const ranks = rank === null ? "is not ranked (its shape is not among the --family choices)" : `ranks ${rank}`;
      lines.push(`change point: ${at}; the two-segment model ${ranks} (${loo ? "LOO SMAPE" : "adj. R²"} ${scores[0]}${against})`);
    }
  }
  for (const { q, text } of predictQs) lines.push(predictionLine(r, q, text, observation));
  const shown = r.candidates.slice(0, top);
  const adj = formatAdjustedR2(shown.map((c) => c.quality.adjustedR2));
  // Under Extra-P's rule the ranking score is the constant's SMAPE and the others' LOO SMAPE.
  const extrap = r.rule === "extra-p";
  lines.push(
    "",
    formatTable(
      ["rank", "family", "model", "LOO SMAPE %", ...(extrap ? ["Extra-P score %"] : []), "adj. R² (in-sample)"],
      // Right-aligned as the numbers are: the column is text, to keep its decimals.
      shown.map((c, i) => [String(i + 1), c.family, c.formula, c.quality.looSmape, ...(extrap ? [extrapScore(c)] : []), adj[i]!.padStart(Math.max("adj. R² (in-sample)".length, ...adj.map((a) => a.length)))]),
    ),
  );
  const tie = tiedOutOfOrder(shown, r.criterion, extrap);
  if (tie !== undefined) lines.push(tie);
  return lines.join("\n");
}

/**
 * A note under the candidates table when ranks that tie on LOO SMAPE (a difference below the
 * ranking's 1e-6 %, rounding noise, as between exact fits of noise-free data) are listed out of
 * the order of their printed SMAPE, saying why: otherwise a reader sees a smaller SMAPE ranked
 * below a larger one. Undefined when there is none (or another criterion ranks them). @internal
 */
export function tiedOutOfOrder(shown: readonly FittedModel[], criterion: string, extrap: boolean): string | undefined {
  if (criterion !== "loo-smape" || extrap) return undefined;
  let last = 0;
  for (let i = 1; i < shown.length; i++) {
    const [a, b] = [shown[i - 1]!.quality.looSmape, shown[i]!.quality.looSmape];
    if (!scoresTie(a, b, "loo-smape")) break;
    if (b < a) last = i;
  }
  if (last === 0) return undefined;
  return `(ranks 1 to ${last + 1} tie on LOO SMAPE, within 1e-6 % (rounding noise): linear in the coefficients first, then higher adj. R², then fewer parameters)`;
}

/** What one observation is, in the range of a single observation: by input mode and, for profiles, the view. */
function observationName(mode: InputMode, view: unknown): string {
  if (mode === "records") return "one invocation";
  if (mode === "extrap") return "one repetition";
  const each = view === "each" || (view === undefined && mode === "param-timer");
  if (each) return "one thread's value";
  return mode === "trials" ? "one trial's value" : "one observation";
}

/**
 * One `--predict` line at `x` (`asked`, its text as typed): the value, the interval of the mean,
 * the sd and the range of a single observation (`observation` names one), clipped at 0 for times
 * and counts, saying so.
 */
function predictionLine(r: FitReport, x: number, asked: string, observation: string): string {
  const p = predictAt(r, x);
  // why: the value asked for is echoed as typed (30315, not 30320; 1e5, not 100000); only the
  // predictions are rounded
  const c = p.clipped;
  // The whole interval below 0: the model does not describe T there, whatever 0 .. 0 would say.
  if (c !== undefined && c.high < 0) {
    return `predict ${r.variable} = ${asked}: the model gives ${formatNumber(c.value)} (95 % interval of the mean ${formatNumber(c.low)} .. ${formatNumber(c.high)}), below 0 where T cannot be: it does not apply here${p.extrapolated ? " (extrapolated beyond the data)" : ""}`;
  }
  const clips = c ? [c.value < 0 ? `value clipped at 0 from ${formatNumber(c.value)}` : "", c.low < 0 ? `low end clipped at 0 from ${formatNumber(c.low)}` : ""].filter((x) => x !== "") : [];
  const clipped = clips.length > 0 ? `; ${clips.join(", ")}, as T cannot be negative` : "";
  const sd = p.stdDev !== undefined ? `, sd ${formatNumber(p.stdDev)}` : "";
  const s = p.singleObservationRange;
  const sClip = c?.singleObservationRange !== undefined && c.singleObservationRange.low < 0 ? `, low end clipped at 0 from ${formatNumber(c.singleObservationRange.low)}` : "";
  const single = s !== undefined ? `; 95 % range of ${observation} ${formatNumber(s.low)} .. ${formatNumber(s.high)}${sClip}` : "";
  return `predict ${r.variable} = ${asked}: ${formatNumber(p.value)} (95 % interval of the mean ${formatNumber(p.interval.low)} .. ${formatNumber(p.interval.high)}${clipped})${sd}${single}${p.extrapolated ? " — extrapolated beyond the data" : ""}`;
}

/**
 * Each coefficient with its standard error, named by the term it multiplies (`1: 2.09 ± 0.1, x:
 * 2.01 ± 0.02`); one that is rounding noise of an exact fit is said to be left out of the formula.
 */
function coefficientsText(m: FittedModel): string {
  return m.coefficients.map((c, j) => `${m.termText(j)}: ${formatNumber(c.value)} ± ${formatNumber(c.stdError)}${m.isRoundingNoise(j) ? " (rounding noise, not in the formula)" : ""}`).join(", ");
}

/**
 * What became of the hypotheses: how many of those fitted are candidates, why the others are not,
 * and which were not fitted for lack of points.
 */
function screeningLines(prefix: string, s: Screening, r: FitReport, sd: boolean): string[] {
  const v = r.variable;
  const admitted = s.fitted - s.insignificant - (s.negligible ?? 0) - s.negative - (s.departing ?? 0);
  const why: string[] = [];
  if (s.insignificant > 0) {
    // With few points the test is strict: say how strict for a 2-parameter model.
    const n = sd ? r.stdDevCandidates[0]!.quality.n : r.points.q.length;
    const strict = n - 2 >= 1 && n - 2 <= 3 ? `; with ${n} distinct ${v} a 2-parameter model keeps ${n - 2} degree${n - 2 === 1 ? "" : "s"} of freedom, so its term must exceed ${formatNumber(studentTQuantile(0.975, n - 2))} standard errors` : "";
    why.push(`${s.insignificant} rejected as not significantly different from 0 (95 %${sd ? ", against the scatter and the sds' own sampling error" : ""}${strict})`);
  }
  if (s.negligible !== undefined && s.negligible > 0) why.push(`${s.negligible} rejected as having a term that contributes under ${EXTRAP_MIN_TERM_CONTRIBUTION * 100} % of the value at every point (Extra-P's test)`);
  if (s.negative > 0) why.push(`${s.negative} rejected as able to go below 0`);
  if (s.departing !== undefined && s.departing > 0) why.push(`${s.departing} rejected as leaving the observed sds by more than ×${SD_DEPARTURE_LIMIT} inside the data`);
  if (s.tooComplex > 0) why.push(`${s.tooComplex} not fitted: more parameters than any candidate of the mean (${Math.max(...r.candidates.map((c) => c.quality.parameters))})`);
  const lines = [`${prefix}${admitted} of ${s.fitted} fitted hypotheses${why.length > 0 ? `; ${why.join("; ")}` : ""}`];
  if (s.tooFewPoints.length > 0) {
    const skipped = s.tooFewPoints.map((h) => `${h.family} ${h.label.replace(/\bQ\b/g, v)} (needs ${h.needs})`).join(", ");
    lines.push(`${" ".repeat(prefix.length)}not fitted for lack of points (a model of p coefficients needs p + 1 distinct ${v}): ${skipped}`);
  }
  return lines;
}

/** `ccasim fit`: model fitting on records, TAU_PARAM timers, trials across a parameter, or Extra-P inputs. */
export const fitCommand: Command = {
  name: "fit",
  help: HELP,
  run,
};

