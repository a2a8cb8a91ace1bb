import { parseCommandArgs, UsageError, type CommandContext } from "../command.js";
import { DERIVED_KINDS, diffProfiles, diffUserEvents, formatProfileDiff, formatUserEventDiff, isTimeMetric, parseThreadName, PROFILE_DIFF_SORT_KEYS, ProfileModelError, PROFILE_TIME_UNITS, readTrial, type ProfileDiffSortKey, type ProfileTimeUnit } from "../../profile/index.js";
import { positiveIntegerOption, snapshotOption } from "./analysis-io.js";

/** The `diff` part of `ccasim profile --help`. */
export const PROFILE_DIFF_HELP = `diff: two profiles side by side, timers matched by name: the base's and the other's exclusive
and inclusive values, the change of each (other minus base, and in percent of the base), the
calls of each; a timer only one of them has is 'new' or 'gone'. The heading gives each profile's
number of threads and the change of the top-level inclusive value (the whole run: what show's
%Time divides by, so in the mean, total and max views the mean, total and max of the threads' own
top-level timers, which differ between an MPI rank's main thread and its OpenMP threads). Either
profile is anything show reads: two runs, two sweep points' run folders, a simulated run and a
measured profile.
  --thread <which>     the view of both: mean (default), max, min, total, stddev, or a thread
                       n[,c[,t]] both have
  --other-thread <w>   another view of the other (as --thread): two threads of one profile,
                       diff P P --thread 0 --other-thread 3, or a rank against the mean
  --metric <name>      metric to compare (default the base's TIME, else as show); both must have it
                       (when the other lacks the default, the message lists those both have)
  --sort <key>         exclusive (default: the largest change of exclusive value first),
                       inclusive, calls, name
  --top <n>            show only the first n rows
  --unit <u>           time columns in ms (default) or us, three decimals each (the microsecond
                       or the nanosecond), so that the decimal points line up;
                       counts (counters, calls) are whole, a mean's fraction kept below 100000
  --callpaths          include callpath timers (A => B) as well as flat timers
  --tree               the callpaths as a call tree: each under its caller, indented, named by
                       its routine, depth first from the top-level timers, siblings by their
                       change of inclusive value (or --sort's key; --top counts the tree's first
                       lines); a flat profile has none
  --json               the diff as JSON: per timer its base and other rows (null where it is
                       missing) and the changes; each profile's top-level value (baseTotal,
                       otherTotal) and threads (baseThreads, otherThreads); with --tree each
                       row's depth and routine, in the tree's order; values in microseconds
                       for time metrics
  --snapshot <n|name>  of TAU XML profiles, the snapshot of each thread to compare (as show's)
  --no-user-events     leave out the user events (atomic events: message sizes, memory), which
                       follow the timers when either view has any: matched by name, in name
                       order, each profile's samples, mean and maximum, the change of the mean
                       (absolute and in percent of the base); in the JSON under userEvents (rows
                       with base and other null where missing, meanChange null unless both
                       have the event); --top and --sort order the timers only`;

/** `ccasim profile diff <base> <other>`. */
export function runDiff(ctx: CommandContext, argv: readonly string[]): number {
  const { values, positionals } = parseCommandArgs("profile diff", argv, {
    thread: { type: "string" },
    "other-thread": { type: "string" },
    metric: { type: "string" },
    sort: { type: "string" },
    top: { type: "string" },
    unit: { type: "string" },
    callpaths: { type: "boolean" },
    tree: { type: "boolean" },
    json: { type: "boolean" },
    snapshot: { type: "string" },
    "no-user-events": { type: "boolean" },
  });
  if (positionals.length !== 2) throw new UsageError(`diff: expected two profiles, the base and the other, got ${positionals.length}`, "profile");
  const sort = values.sort as string | undefined;
  if (sort !== undefined && !(PROFILE_DIFF_SORT_KEYS as readonly string[]).includes(sort)) throw new UsageError(`diff: --sort must be one of ${PROFILE_DIFF_SORT_KEYS.join(", ")}, got '${sort}'`, "profile");
  const unit = (values.unit as string | undefined) ?? "ms";
  if (!(PROFILE_TIME_UNITS as readonly string[]).includes(unit)) throw new UsageError(`diff: --unit must be ${PROFILE_TIME_UNITS.join(" or ")}, got '${unit}'`, "profile");
  // Why refuse rather than ignore: --json writes every value in full, in microseconds.
  if (values.json === true && values.unit !== undefined) throw new UsageError("diff: --unit shapes the table; --json writes microseconds", "profile");
  const view = (values.thread as string | undefined) ?? "mean";
  const otherView = (values["other-thread"] as string | undefined) ?? view;
  for (const w of [view, otherView]) {
    if (!(DERIVED_KINDS as readonly string[]).includes(w) && parseThreadName(w) === undefined) {
      throw new UsageError(`diff: unknown thread '${w}'; use a thread n[,c[,t]] (parts left out are 0) or one of ${DERIVED_KINDS.join(", ")}`, "profile");
    }
  }
  const top = positiveIntegerOption("profile diff", "top", values.top);
  const snapshot = snapshotOption(values.snapshot);
  const [basePath, otherPath] = positionals as [string, string];
  const base = readTrial(basePath, { records: false, snapshot });
  const other = readTrial(otherPath, { records: false, snapshot });
  const diff = asDiffError(() => diffProfiles(base, other, { metric: values.metric as string | undefined, view, otherView, callpaths: values.callpaths === true, tree: values.tree === true, sort: sort as ProfileDiffSortKey | undefined, top, baseLabel: basePath, otherLabel: otherPath }));
  if (values.unit !== undefined && !isTimeMetric(diff.metric)) throw new UsageError(`diff: --unit shapes time columns; metric '${diff.metric}' is a counter, shown as counts`, "profile");
  const events = values["no-user-events"] === true ? undefined : asDiffError(() => diffUserEvents(base, other, view, otherView));
  if (values.json === true) {
    const userEvents = events === undefined ? undefined : { ...events, rows: events.rows.map((r) => ({ ...r, base: r.base ?? null, other: r.other ?? null })) };
    ctx.out(JSON.stringify({ base: basePath, other: otherPath, ...diff, rows: diff.rows.map((r) => ({ ...r, base: r.base ?? null, other: r.other ?? null })), userEvents }, null, 2) + "\n");
  } else {
    const eventTable = events === undefined ? "" : formatUserEventDiff(events);
    ctx.out(formatProfileDiff(diff, { unit: unit as ProfileTimeUnit, baseLabel: basePath, otherLabel: otherPath }) + (eventTable === "" ? "" : "\n" + eventTable));
  }
  return 0;
}

/** `fn()`, a ProfileModelError of it (a metric or thread a profile lacks) said as diff's, like its other messages. */
function asDiffError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ProfileModelError) throw new ProfileModelError(`diff: ${e.message}`);
    throw e;
  }
}
