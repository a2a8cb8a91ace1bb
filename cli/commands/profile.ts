import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import {
  CONVERT_TARGETS,
  DERIVED_KINDS,
  TABLE_SORT_KEYS,
  convertProfile,
  OutputExistsError,
  ProfileError,
  defaultMetric,
  formatProfileTable,
  formatUserEventTable,
  profileTable,
  userEventTable,
  readTrial,
  resolveView,
  type ConvertTarget,
  type ProfileTable,
  type TableSortKey,
  type Trial,
} from "../../profile/index.js";
import { positiveIntegerOption } from "./analysis-io.js";

const HELP = `ccasim profile: look at and convert measurement data (TAU profiles, ParaProf .ppk, records, Extra-P)

Usage:
  ccasim profile show <dir|profile.N.C.T|file.ppk> [options]
  ccasim profile convert <input>... <output> [options]

show: the profile is a TAU profile directory, a folder 'ccasim run' wrote (its profile/ is read),
a profile.N.C.T file or a ParaProf .ppk file. It prints a pprof-style table (like Table 1 of the Mastermind paper): %Time (inclusive as a
percentage of the top-level timer), exclusive, inclusive, #Call, #Subrs, inclusive per call, name.
Times are shown as pprof does (msec, or min:sec.msec); counters as counts. A view with user events
(atomic events: message sizes, memory) is followed by pprof's USER EVENTS table: samples, maximum,
minimum, mean and standard deviation of each, by name.
  --thread <which>     mean (default), max, min, total, stddev, all (every thread), or a thread
                       n | n,c,t. Mean and stddev divide by all threads, as ParaProf's defaults.
  --metric <name>      metric to show (default TIME; else another time metric, the cycles, or
                       the first by name)
  --sort <key>         inclusive (default), exclusive, calls, subrs, percall, name
  --top <n>            show only the first n rows of each table
  --callpaths          include callpath timers (A => B) as well as flat timers
  --no-user-events     leave out the user-event tables
  --json               print the table(s) as JSON (values in microseconds for time metrics; user
                       events under userEventTables)
  --warnings           list every load-time warning (by default only their number is printed)

convert: writes the input in another format. The output format comes from --to or the output
name: .csv records, .jsonl records (Extra-P JSON Lines when the input is Extra-P), .txt Extra-P
text, .json Extra-P JSON, any other name a TAU profile directory (.ppk, .cubex, .cube, .xml and .gz
are refused: those formats are not written). The output may not be an input, a folder holding
one, or the profile folder or records a run folder given as input holds, and its folder must be
writable: both are checked before anything is read.
  --to <format>        ${CONVERT_TARGETS.join(", ")}
  --point <k=v,...>    parameter values of each input, once per input in order (trials to Extra-P)
  --metric <name>      metric to export to Extra-P (repeatable; default all)
  --callpaths          export callpath timers to Extra-P instead of flat timers
  --overwrite          replace an existing output directory
  --exact-time         keep fractional microseconds in TAU output (TAU itself writes integers)

Examples:
  ccasim profile show ../shared/data/tau/hatchet-cpi-mpi --thread 0 --sort exclusive
  ccasim profile show mpas.ppk --metric PAPI_FP_INS --top 10 --json
  ccasim profile convert mpas.ppk mpas-text --overwrite
  ccasim profile convert run-p4 run-p8 run-p16 model.json --point p=4 --point p=8 --point p=16`;

function runShow(ctx: CommandContext, argv: readonly string[]): number {
  const { values, positionals } = parseCommandArgs("profile show", argv, {
    thread: { type: "string" },
    metric: { type: "string" },
    sort: { type: "string" },
    top: { type: "string" },
    callpaths: { type: "boolean" },
    json: { type: "boolean" },
    "no-user-events": { type: "boolean" },
    warnings: { type: "boolean" },
  });
  if (positionals.length !== 1) throw new UsageError("show: expected one profile (a TAU profile directory, a run folder, a profile.N.C.T file or a .ppk file)", "profile");
  const sort = (values.sort as string | undefined) ?? "inclusive";
  if (!(TABLE_SORT_KEYS as readonly string[]).includes(sort)) throw new UsageError(`show: --sort must be one of ${TABLE_SORT_KEYS.join(", ")}`, "profile");
  const top = positiveIntegerOption("profile show", "top", values.top);
  const trial = readTrial(positionals[0], { records: false });
  const which = (values.thread as string | undefined) ?? "mean";
  const metric = (values.metric as string | undefined) ?? defaultMetric(trial);
  trial.metricIndex(metric);
  const views = which === "all" ? trial.threads.map((_, i) => trial.threadLabel(i)) : [which];
  const tables: ProfileTable[] = views.map((w) =>
    profileTable(trial, resolveView(trial, w), { metric, sort: sort as TableSortKey, top, callpaths: values.callpaths === true }),
  );
  const events = values["no-user-events"] === true || trial.userEvents.length === 0 ? [] : views.map((w) => userEventTable(trial, w, { top }));
  if (values.json) {
    ctx.out(JSON.stringify({ source: positionals[0], ...summary(trial), tables, userEventTables: events, warnings: trial.warnings.map((w) => w.message) }, null, 2) + "\n");
  } else {
    ctx.out(`${positionals[0]}: ${trial.threads.length} thread(s), ${trial.metrics.length} metric(s) [${trial.metrics.join(", ")}], ${trial.timers.length} timers, ${trial.userEvents.length} user events\n`);
    tables.forEach((t, i) => {
      ctx.out("\n" + formatProfileTable(t));
      if (events[i] !== undefined && events[i].rows.length > 0) ctx.out("\n" + formatUserEventTable(events[i]));
    });
  }
  if (trial.warnings.length > 0) {
    if (values.warnings) for (const w of trial.warnings) ctx.err(`warning: ${w.message}\n`);
    else ctx.err(`${trial.warnings.length} load-time warning(s) (inconsistent values); list them with --warnings\n`);
  }
  return 0;
}

function summary(trial: Trial): Record<string, unknown> {
  return { threads: trial.threads.length, metrics: trial.metrics, timers: trial.timers.length, userEvents: trial.userEvents.length, derivedViews: DERIVED_KINDS };
}

function runConvert(ctx: CommandContext, argv: readonly string[]): number {
  const { values, positionals } = parseCommandArgs("profile convert", argv, {
    to: { type: "string" },
    point: { type: "string", multiple: true },
    metric: { type: "string", multiple: true },
    callpaths: { type: "boolean" },
    overwrite: { type: "boolean" },
    "exact-time": { type: "boolean" },
  });
  if (positionals.length < 2) throw new UsageError("convert: expected <input>... <output>", "profile");
  const to = values.to as string | undefined;
  if (to !== undefined && !(CONVERT_TARGETS as readonly string[]).includes(to)) throw new UsageError(`convert: --to must be one of ${CONVERT_TARGETS.join(", ")}`, "profile");
  const points = (values.point as string[] | undefined)?.map(parsePoint);
  const inputs = positionals.slice(0, -1);
  const output = positionals[positionals.length - 1];
  let r: ReturnType<typeof convertProfile>;
  try {
    r = convertProfile(inputs, output, {
      to: to as ConvertTarget | undefined,
      points,
      metrics: values.metric as string[] | undefined,
      callpaths: values.callpaths === true,
      tau: { overwrite: values.overwrite === true, integerTime: values["exact-time"] !== true },
    });
  } catch (e) {
    if (e instanceof OutputExistsError) throw new ProfileError(`'${e.path}' exists and is not empty; give --overwrite to replace it`);
    throw e;
  }
  ctx.out(`wrote ${output} (${r.to}) from ${inputs.length} ${r.from} input(s)\n`);
  if (r.warnings > 0) ctx.err(`${r.warnings} load-time warning(s) in the input; see 'ccasim profile show --warnings'\n`);
  return 0;
}

function parsePoint(s: string): Record<string, number> {
  const point: Record<string, number> = {};
  for (const part of s.split(",")) {
    const m = /^\s*([^=\s]+)\s*=\s*(\S+)\s*$/.exec(part);
    const v = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(v)) throw new UsageError(`convert: --point expects name=number[,name=number], got '${s}'`, "profile");
    point[m[1]] = v;
  }
  return point;
}

/** `ccasim profile`: show a profile as a pprof-style table, or convert between formats. */
export const profileCommand: Command = {
  name: "profile",
  help: HELP,
  run(ctx) {
    const [sub, ...rest] = ctx.argv;
    if (sub === "show") return runShow(ctx, rest);
    if (sub === "convert") return runConvert(ctx, rest);
    throw new UsageError(sub === undefined ? "expected a subcommand, show or convert (see 'ccasim profile --help')" : `unknown subcommand '${sub}'; expected show or convert`, "profile");
  },
};
