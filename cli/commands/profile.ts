import { didYouMean } from "../../engine/registry.js";
import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import {
  CONVERT_TARGETS,
  DERIVED_KINDS,
  EXTRAP_STATISTICS,
  type ExtrapStatistic,
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
  resolveThreadIndex,
  parseThreadName,
  formatExtrapPoint,
  isTimeMetric,
  summarizeProfileWarnings,
  type ExtrapFilledCallpath,
  type ConvertTarget,
  type ProfileTable,
  type ProfileTimeUnit,
  PROFILE_TIME_UNITS,
  type TableSortKey,
  type Trial,
  timerCounts,
} from "../../profile/index.js";
import { plural, positiveIntegerOption, snapshotOption } from "./analysis-io.js";
import { PROFILE_DIFF_HELP, runDiff } from "./profile-diff.js";

const HELP = `ccasim profile: look at, compare and convert measurement data (TAU text and XML, ParaProf, CUBE4, records, Extra-P)

Usage:
  ccasim profile show <dir|profile.N.C.T|file.ppk|tauprofile.xml|profile.cubex> [options]
  ccasim profile diff <base> <other> [options]
  ccasim profile convert <input>... <output> [options]

show: the profile is a TAU profile directory, a folder 'ccasim run' wrote (its profile/ is read),
a profile.N.C.T file, a ParaProf .ppk file, or a TAU XML profile: the tauprofile.xml of
TAU_PROFILE_FORMAT=merged, a snapshot.N.C.T file or a folder of them (TAU_PROFILE_FORMAT=snapshot),
Score-P's tau_snapshot output; gzip-compressed or not. Of a thread's snapshots (its values as it
ran) the last is read, as ParaProf shows; a merged file's own mean, total and other derived
profiles are not read (the views below are computed from the threads). Or a CUBE4 profile
(.cubex: Score-P's, Scalasca's): each location a thread (node = MPI rank, thread = its rank),
each call node a callpath timer and part of its region's flat timer, calls its visits, TIME
(seconds become microseconds) and the other stored metrics whose values add up (not min_time,
max_time: the metadata names those left out). It prints a pprof-style table (like Table 1 of the
Mastermind paper): %Time, exclusive, inclusive, #Call, #Subrs, inclusive per call, name. %Time is
the inclusive value as a percentage of the top-level timer's, as pprof computes it: on a thread,
of the thread's largest inclusive value; in the mean, total and max views, of the mean, total and
max of the threads' largest inclusive values. The min view (each row the minimum over the threads
that ran that timer, so a timer only some threads run can exceed the smallest thread's top-level
timer) and the stddev view divide by their own largest inclusive value. No row is above 100.
Times are shown as pprof shows them: msec below 1 s as whole milliseconds, truncated (1.806 ms is
1; below 1 ms three significant digits, 0.603), then sec,msec (2,409) and min:sec.msec; --unit us
shows the microseconds the TAU files hold instead. Counters are shown as counts. A view with user events
(atomic events: message sizes, memory) is followed by pprof's USER EVENTS table: samples, maximum,
minimum, mean and standard deviation of each, by name (a thread's table, as pprof's, leaves out
the events it lists without a sample); in derived views the minimum and maximum
come only from threads with samples. The mean and total views pool the samples of every thread:
the maximum, minimum, mean and standard deviation are those of all the samples (the mean view's
samples column is the count per thread). ParaProf's mean view averages each column over the
threads instead (xgc.ppk's MPI-IO Bytes Read: a maximum of 8.875 there, 852 here).
  --thread <which>     mean (default; a trial of one thread shows that thread), max, min, total,
                       stddev, all (every thread), or a thread n[,c[,t]] (node, context,
                       thread, by commas or dots; parts left out are 0: 3,1 is 3,1,0). Repeat
                       it to show several views in the order given. Mean and stddev divide by
                       all threads, as ParaProf's defaults.
  --metric <name>      metric to show (default TIME; else another time metric, the cycles, or
                       the first by name)
  --sort <key>         inclusive (default), exclusive, calls, subrs, percall, name
  --top <n>            show only the first n rows of each table
  --unit <u>           time columns in ms (default: pprof's, truncated to whole milliseconds from
                       1 ms) or us (microseconds, to 3 decimals: 1806 rather than pprof's 1);
                       refused for a counter metric (counts have no time unit). Columns widen
                       to fit their values.
  --callpaths          include callpath timers (A => B) as well as flat timers
  --no-user-events     leave out the user-event tables
  --metadata           list the trial's metadata (keys and values) instead of the tables: the
                       attributes common to every thread, then each thread's own (those its
                       file holds that not every thread shares), then the keys it takes from
                       another thread's file; with --thread naming a thread, all of that
                       thread's attributes (its own over the common ones). TAU text profiles
                       keep the common attributes in profile.0.0.0, which is every thread's
                       default: a key another file leaves out is taken from there.
  --json               print the table(s) as JSON (values in microseconds for time metrics; user
                       events under userEventTables; metadata under metadata; timers counts the
                       flat timers, callpaths the callpaths)
  --snapshot <n|name>  of a TAU XML profile, the snapshot of each thread to show: an index (0
                       the first, -1 the last, the default) or a name (TAU_PROFILE_SNAPSHOT's;
                       the last of that name; name:100 for a name that is a number). Each
                       snapshot holds the totals so far; a thread's metadata 'TAU snapshot'
                       names the one read when it has several
  --warnings           list every load-time warning (by default one line counts them by kind:
                       inconsistent values, user events listed twice, metric files that differ)

convert: writes the input in another format. The output format comes from --to or the output
name: .csv records, .jsonl records (Extra-P JSON Lines when the input is Extra-P), .txt Extra-P
text, .json Extra-P JSON, .cubex a CUBE4 profile (for Cube's browser: the call tree, calls as
visits, TIME in seconds and counters stored inclusive, as Score-P stores them; not the user
events; a flat profile or depth-limited callpaths, which hold no whole call tree, are refused),
.ppk a ParaProf packed profile (one file of every thread, metric, timer, user event and the
metadata, as ParaProf writes it: for ParaProf, TAUdb and PerfExplorer), .xml a TAU XML profile
(one file, as TAU's merged tauprofile.xml: definitions shared by every thread, then each thread's
metadata and profile; for ParaProf, TAUdb and TAU's XML tools), any other name a TAU profile
directory (.cube and .gz are refused: those formats are not written). A TAU
directory keeps the timer names and group lists byte for byte as the input spelt them. The
output may not be an input, a folder holding one, the profile folder or records a run folder
given as input holds, or a path inside an input folder (it would change the data read), and its
folder must be writable: all checked before anything is read. Interrupted (Ctrl-C, kill),
convert stops at once and ends by the signal (130 / 143 in a shell): the output is left as it
was, and a temporary .<output>.tmp-<pid>-<n> left beside it is removed by the next convert to
that output.
  --to <format>        ${CONVERT_TARGETS.join(", ")}
                       table-csv: the profile as one CSV table, one row per timer per view
                       (every thread n,c,t, then mean, min, max, total, stddev): thread, timer,
                       groups, calls, subroutines, then per metric '<metric> exclusive (usec)'
                       and '<metric> inclusive (usec)' (counters: '(counts)'); cube: as .cubex;
                       tau-xml: as .xml
  --point <k=v,...>    parameter values of each input, once per input in order (trials to
                       Extra-P only). A timer some trials never called is written as 0 at their
                       points (it was called 0 times there; Extra-P needs every callpath at every
                       point), and a note on stderr names those callpaths and points.
  --metric <name>      metric to write (repeatable; default all): trials to Extra-P, to a TAU
                       directory, a .ppk, a .xml, a .cubex or table-csv
  --callpaths          callpath timers: exported to Extra-P instead of flat timers, as the call
                       tree (the root '.TAU application' by its name, then 'A->B' paths; a
                       flat profile, which records none, is refused; a note names trials whose
                       paths are depth-limited, TAU's default 2); added as rows of table-csv
  --overwrite          replace an existing output directory
  --exact-time         keep fractional microseconds in TAU output (TAU itself writes integers)
  --snapshot <n|name>  of TAU XML inputs, the snapshot of each thread to write (as show's)
  --value <v>          trials to Extra-P: each callpath's inclusive values (default) or exclusive
                       ones (what Extra-P models of a CUBE4 profile it reads itself)
  --statistic <s>      trials to Extra-P: what of a trial's threads each point gets: mean
                       (default), total (Extra-P's strong scaling: the sum), min, max, stddev, or
                       threads: every thread's value a repetition (0 where it never called the
                       timer), as Extra-P's Cube reader keeps every process under weak scaling,
                       so that Extra-P sees the spread over threads
Options that the chosen output does not use are refused (exit 2).

${PROFILE_DIFF_HELP}

Examples:
  ccasim profile show ../shared/data/tau/hatchet-cpi-mpi --thread 0 --sort exclusive
  ccasim profile show ../shared/data/tau/ppk/mpas.ppk --metric PAPI_FP_INS --top 10 --json
  ccasim profile show ../shared/data/tau/powercap/cap50_wrapped_am8 --metadata
  ccasim profile diff ../shared/data/tau/powercap/cap50_wrapped_lu8 ../shared/data/tau/powercap/cap115_wrapped_lu8 --top 8
  ccasim profile convert ../shared/data/tau/ppk/mpas.ppk out/mpas-text --overwrite
  ccasim profile convert ../shared/data/tau/ppk/mpas.ppk out/mpas-time --metric TIME
  ccasim profile convert ../shared/data/tau/ppk/mpas.ppk out/mpas.csv --to table-csv
  ccasim run scenarios/known-models.yaml --set workload.x=1 --out out/run-1 --quiet
  ccasim run scenarios/known-models.yaml --set workload.x=2 --out out/run-2 --quiet
  ccasim run scenarios/known-models.yaml --set workload.x=3 --out out/run-3 --quiet
  ccasim profile convert out/run-1 out/run-2 out/run-3 out/model.json --point x=1 --point x=2 --point x=3
  ccasim profile convert out/run-1 out/run-2 out/run-3 out/model.jsonl --to extrap-jsonl --point x=1 --point x=2 --point x=3
  ccasim profile convert out/run-1 out/run-1.cubex`;

function runShow(ctx: CommandContext, argv: readonly string[]): number {
  const { values, positionals } = parseCommandArgs("profile show", argv, {
    thread: { type: "string", multiple: true },
    metric: { type: "string" },
    sort: { type: "string" },
    top: { type: "string" },
    unit: { type: "string" },
    callpaths: { type: "boolean" },
    json: { type: "boolean" },
    metadata: { type: "boolean" },
    "no-user-events": { type: "boolean" },
    warnings: { type: "boolean" },
    snapshot: { type: "string" },
  });
  if (positionals.length !== 1) throw new UsageError("show: expected one profile (a TAU profile directory, a run folder, a profile.N.C.T file, a .ppk file, a TAU XML profile or a .cubex file)", "profile");
  const sort = (values.sort as string | undefined) ?? "inclusive";
  if (!(TABLE_SORT_KEYS as readonly string[]).includes(sort)) throw new UsageError(`show: --sort must be one of ${TABLE_SORT_KEYS.join(", ")}, got '${sort}'`, "profile");
  const top = positiveIntegerOption("profile show", "top", values.top);
  const unit = (values.unit as string | undefined) ?? "ms";
  if (!(PROFILE_TIME_UNITS as readonly string[]).includes(unit)) throw new UsageError(`show: --unit must be ${PROFILE_TIME_UNITS.join(" or ")}, got '${unit}'`, "profile");
  // Why refuse rather than ignore: --json gives microseconds, and --metadata prints no table.
  if (values.unit !== undefined && (values.json === true || values.metadata === true)) throw new UsageError(`show: --unit shapes the table's time columns; ${values.json === true ? "--json gives microseconds" : "--metadata prints no table"}`, "profile");
  const asked = (values.thread as string[] | undefined) ?? [];
  for (const w of asked) {
    if (w !== "all" && !(DERIVED_KINDS as readonly string[]).includes(w) && parseThreadName(w) === undefined) {
      throw new UsageError(`show: unknown thread '${w}'; use a thread n[,c[,t]] (parts left out are 0), all, or one of ${DERIVED_KINDS.join(", ")}`, "profile");
    }
  }
  if (values.metadata === true) {
    // Why refuse rather than ignore: these shape tables --metadata does not print, and a derived
    // view has no metadata of its own (alone, it printed nothing).
    const tableOnly = ["metric", "sort", "top", "callpaths", "no-user-events"].filter((k) => values[k] !== undefined);
    if (tableOnly.length > 0) throw new UsageError(`show: ${tableOnly.map((k) => `--${k}`).join(", ")} shape${tableOnly.length === 1 ? "s" : ""} the tables; --metadata prints no table`, "profile");
    const derived = asked.find((w) => (DERIVED_KINDS as readonly string[]).includes(w));
    if (derived !== undefined) throw new UsageError(`show: --metadata --thread takes threads n[,c[,t]] or all; '${derived}' is a view over the threads, with no metadata of its own (leave --thread out for the attributes common to every thread)`, "profile");
  }
  const trial = readTrial(positionals[0], { records: false, snapshot: snapshotOption(values.snapshot) });
  const metric = trial.metrics[trial.metricIndex((values.metric as string | undefined) ?? defaultMetric(trial))];
  // Why refuse rather than ignore: the user asked for a unit the table cannot show.
  if (values.unit !== undefined && !isTimeMetric(metric)) throw new UsageError(`show: --unit shapes time columns; metric '${metric}' is a counter, shown as counts`, "profile");
  // A single thread (one profile.N.C.T file) is shown as itself, not as the mean of one thread.
  const which = asked.length > 0 ? asked : [trial.threads.length === 1 ? trial.threadLabel(0) : "mean"];
  const views = which.flatMap((w) => (w === "all" ? trial.threads.map((_, i) => trial.threadLabel(i)) : [w]));
  if (values.metadata === true) {
    const threads = asked.length > 0 ? views.filter((w) => !(DERIVED_KINDS as readonly string[]).includes(w)).map((w) => resolveThreadIndex(trial, w)) : undefined;
    if (values.json) ctx.out(JSON.stringify({ source: positionals[0], metadata: metadataJson(trial, threads) }, null, 2) + "\n");
    else ctx.out(formatMetadata(positionals[0], trial, threads));
    return 0;
  }
  const tables: ProfileTable[] = views.map((w) =>
    profileTable(trial, resolveView(trial, w), { metric, sort: sort as TableSortKey, top, callpaths: values.callpaths === true }),
  );
  const events = values["no-user-events"] === true || trial.userEvents.length === 0 ? [] : views.map((w) => userEventTable(trial, w, { top }));
  if (values.json) {
    ctx.out(JSON.stringify({ source: positionals[0], ...summary(trial), metadata: metadataJson(trial), tables, userEventTables: events, warnings: trial.warnings.map((w) => w.message) }, null, 2) + "\n");
  } else {
    ctx.out(`${positionals[0]}: ${trial.threads.length} thread(s), ${trial.metrics.length} metric(s) [${trial.metrics.join(", ")}], ${timerCountText(trial, values.callpaths === true)}, ${trial.userEvents.length} user events\n`);
    tables.forEach((t, i) => {
      ctx.out("\n" + formatProfileTable(t, { unit: unit as ProfileTimeUnit }));
      // A thread that lists events without a sample gets the heading alone, as in pprof.
      if (events[i] !== undefined && events[i].listed > 0) ctx.out("\n" + formatUserEventTable(events[i]));
    });
  }
  if (trial.warnings.length > 0) {
    if (values.warnings) for (const w of trial.warnings) ctx.err(`warning: ${w.message}\n`);
    else ctx.err(`${summarizeProfileWarnings(trial.warnings)}; list them with --warnings\n`);
  }
  return 0;
}

/**
 * Metadata as JSON: the common attributes, each thread's own and the keys each took from another
 * thread's file (`inherited`: key to that thread), or, for `threads`, each one's merged attributes.
 */
function metadataJson(trial: Trial, threads?: readonly number[]): Record<string, unknown> {
  const obj = (m: ReadonlyMap<string, string>): Record<string, string> => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  if (threads !== undefined) return { threads: Object.fromEntries(threads.map((th) => [trial.threadLabel(th), obj(trial.threadMetadataMerged(th))])) };
  const own: Record<string, Record<string, string>> = {};
  const inherited: Record<string, Record<string, string>> = {};
  trial.threads.forEach((_, th) => {
    const m = trial.ownThreadMetadata(th);
    if (m.size > 0) own[trial.threadLabel(th)] = obj(m);
    const from = trial.inheritedMetadata[th];
    if (from.size > 0) inherited[trial.threadLabel(th)] = obj(new Map([...from].map(([k, src]) => [k, trial.threadLabel(src)])));
  });
  return { common: obj(trial.metadata), threads: own, inherited };
}

/** Metadata as text: `key = value` lines under a heading per group. */
function formatMetadata(source: string, trial: Trial, threads?: readonly number[]): string {
  const lines = (m: ReadonlyMap<string, string>): string[] => [...m.keys()].sort().map((k) => `  ${k} = ${m.get(k)!.replace(/\r?\n/g, "\\n")}`);
  const out: string[] = [];
  if (threads !== undefined) {
    for (const th of threads) out.push(`Metadata of thread ${trial.threadLabel(th)}:`, ...lines(trial.threadMetadataMerged(th)), "");
  } else {
    out.push(`${source}: metadata common to all ${trial.threads.length} thread(s):`, ...(trial.metadata.size > 0 ? lines(trial.metadata) : ["  (none)"]), "");
    trial.threads.forEach((_, th) => {
      const own = trial.ownThreadMetadata(th);
      const from = trial.inheritedMetadata[th];
      if (own.size === 0 && from.size === 0) return;
      out.push(`Thread ${trial.threadLabel(th)}'s own:`, ...(own.size > 0 ? lines(own) : ["  (none)"]));
      // The keys its file leaves out, by the thread whose values it takes (TAU text: profile.0.0.0).
      const bySource = new Map<number, string[]>();
      for (const [k, src] of from) bySource.set(src, [...(bySource.get(src) ?? []), k]);
      for (const [src, keys] of bySource) out.push(`  (and from thread ${trial.threadLabel(src)}'s file: ${keys.sort().join(", ")})`);
      out.push("");
    });
  }
  return out.join("\n");
}

function summary(trial: Trial): Record<string, unknown> {
  const { timers, callpaths } = timerCounts(trial);
  return { threads: trial.threads.length, metrics: trial.metrics, timers, callpaths, userEvents: trial.userEvents.length, derivedViews: DERIVED_KINDS };
}

/** `4 timers and 3 callpaths`, saying when the table leaves the callpaths out. */
function timerCountText(trial: Trial, shown: boolean): string {
  const counts = timerCounts(trial);
  const timers = plural(counts.timers, "timer");
  if (counts.callpaths === 0) return timers;
  const paths = plural(counts.callpaths, "callpath");
  return shown ? `${timers} and ${paths}` : `${timers} (and ${paths}, shown with --callpaths)`;
}

/** `--value`: which values of trials go to Extra-P. */
function valueOption(value: unknown): "inclusive" | "exclusive" | undefined {
  if (value === undefined) return undefined;
  if (value !== "inclusive" && value !== "exclusive") throw new UsageError(`convert: --value must be inclusive or exclusive, got '${String(value)}'`, "profile");
  return value;
}

function runConvert(ctx: CommandContext, argv: readonly string[]): number {
  const { values, positionals } = parseCommandArgs("profile convert", argv, {
    to: { type: "string" },
    point: { type: "string", multiple: true },
    metric: { type: "string", multiple: true },
    callpaths: { type: "boolean" },
    overwrite: { type: "boolean" },
    "exact-time": { type: "boolean" },
    snapshot: { type: "string" },
    value: { type: "string" },
    statistic: { type: "string" },
  });
  if (positionals.length < 2) throw new UsageError("convert: expected <input>... <output>", "profile");
  const statistic = values.statistic as string | undefined;
  if (statistic !== undefined && !(EXTRAP_STATISTICS as readonly string[]).includes(statistic)) throw new UsageError(`convert: --statistic must be one of ${EXTRAP_STATISTICS.join(", ")}, got '${statistic}'`, "profile");
  const to = values.to as string | undefined;
  if (to !== undefined && !(CONVERT_TARGETS as readonly string[]).includes(to)) throw new UsageError(`convert: --to must be one of ${CONVERT_TARGETS.join(", ")}, got '${to}'`, "profile");
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
      tau: { overwrite: values.overwrite === true, integerTime: values["exact-time"] === true ? false : undefined },
      snapshot: snapshotOption(values.snapshot),
      value: valueOption(values.value),
      statistic: statistic as ExtrapStatistic | undefined,
    });
  } catch (e) {
    if (e instanceof OutputExistsError) throw new ProfileError(`'${e.path}' exists and is not empty; give --overwrite to replace it`);
    throw e;
  }
  ctx.out(`wrote ${output} (${r.to}) from ${inputs.length} ${r.from} input(s)\n`);
  if (r.extrap !== undefined && r.extrap.filled.length > 0) ctx.err(filledNote(r.extrap.parameters, r.extrap.filled));
  if (r.extrap !== undefined && r.extrap.truncated.length > 0) ctx.err(truncatedNote(r.extrap.truncated));
  if (r.extrap !== undefined && r.extrap.arrowNames.length > 0) ctx.err(arrowNote(r.extrap.arrowNames));
  if (r.warnings.length > 0) ctx.err(`the input has ${summarizeProfileWarnings(r.warnings)}; list them with 'ccasim profile show --warnings'\n`);
  return 0;
}

/** The note on callpaths written as 0 at points whose trial never called them. */
function filledNote(parameters: readonly string[], filled: readonly ExtrapFilledCallpath[]): string {
  const lines = filled.map((f) => `  ${f.callpath} at ${f.points.map((p) => formatExtrapPoint(parameters, p)).join("; ")}`);
  return `note: ${filled.length} callpath(s) that some trials never called are written as 0 at those trials' points (called 0 times there; Extra-P needs every callpath at every point):\n${lines.join("\n")}\n`;
}

/** The note on timer names that Extra-P splits at their `->`. */
function arrowNote(names: readonly string[]): string {
  return `note: ${plural(names.length, "timer name")} ${names.length === 1 ? "holds" : "hold"} '->', Extra-P's call-path separator, and Extra-P shows ${names.length === 1 ? "it" : "each"} as a callpath of its pieces: ${names.map((n) => `'${n}'`).join(", ")}\n`;
}

/** The note on depth-limited callpaths written to Extra-P. */
function truncatedNote(sources: readonly string[]): string {
  const which = sources.length === 1 ? sources[0] : `${plural(sources.length, "trial")} (${sources.join(", ")})`;
  return `note: the callpaths of ${which} are depth-limited (TAU_CALLPATH_DEPTH; TAU's default 2 keeps a routine's caller, not its path from the root): Extra-P shows each 'A->B' under A as a root of its own, not as one call tree\n`;
}

function parsePoint(s: string): Record<string, number> {
  const point: Record<string, number> = {};
  for (const part of s.split(",")) {
    const m = /^\s*([^=\s]+)\s*=\s*(\S+)\s*$/.exec(part);
    const v = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(v)) throw new UsageError(`convert: --point expects name=number[,name=number], got '${s}'`, "profile");
    // The last value would win silently: the point is ambiguous.
    if (Object.prototype.hasOwnProperty.call(point, m[1])) throw new UsageError(`convert: --point '${s}' gives parameter '${m[1]}' twice`, "profile");
    point[m[1]] = v;
  }
  return point;
}

/** `ccasim profile`: show a profile as a pprof-style table, compare two, or convert between formats. */
export const profileCommand: Command = {
  name: "profile",
  help: HELP,
  run(ctx) {
    const [sub, ...rest] = ctx.argv;
    if (sub === "show") return runShow(ctx, rest);
    if (sub === "convert") return runConvert(ctx, rest);
    if (sub === "diff") return runDiff(ctx, rest);
    if (sub === undefined) throw new UsageError("expected a subcommand, show, diff or convert (see 'ccasim profile --help')", "profile");
    throw new UsageError(`unknown subcommand '${sub}'${didYouMean(sub, ["show", "diff", "convert"])}; expected show, diff or convert`, "profile");
  },
};
