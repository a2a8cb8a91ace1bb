import { componentTypes } from "../../components/index.js";
import { formatParams } from "../../engine/index.js";
import { defaultMetric, derivedView, formatProfileTable, profileTable } from "../../profile/index.js";
import { formatEvidence, runScenario, type WrittenRun } from "../../scenarios/index.js";
import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import { plural, positiveIntegerOption, processThreadsText } from "./analysis-io.js";

export const runCommand: Command = {
  name: "run",
  help: `Usage: ccasim run <scenario.yaml> [--out DIR] [--overwrite] [--seed N] [--set key=value ...] [--top N]
                  [--quiet] [--no-evidence] [--no-measure]

Runs a scenario: one copy of the component assembly per simulated MPI rank, proxies and
measurement as the scenario asks. Writes into DIR (default: the scenario's outputs.dir, else
out/<scenario name>; relative to the working directory), atomically:
  profile/          TAU profile: profile.N.C.T, or MULTI__<metric>/profile.N.C.T per metric when
                    there are several (pprof and paraprof read it; Hatchet after 'ccasim profile
                    convert', which writes whole microseconds)
  records.csv       one row per proxied invocation (parameters, wall/MPI/compute time, counter deltas)
  records.jsonl     the same as JSON Lines
  callgraph.json    caller/callee component methods with calls and inclusive/exclusive time
  evidence.json     cost centres and MPI share, time vs array size by mode (ratios, fits), record groups
  summary.json      seed, resolved scenario, simulated time, events, network messages and bytes (deterministic)
  timing.json       wall time and events per second (the only file that varies between runs)
  trace.json        Chrome/Perfetto timeline, with outputs.trace: true: every timer call per rank
                    (an assembly's component methods and MPI calls, messages as flows; a
                    program model's elements)
(records, callgraph and evidence are an assembly's: a program model writes profile/, summary,
timing and trace, and refuses outputs.records or outputs.callgraph) and prints a pprof-style summary of the mean profile and the evidence: top cost centres with
the share of message passing, per proxied method the time by array size (parameter Q) and mode
with the ratio of each mode to \`sequential\`, linear and power-law fits of the mean, and
statistics of records grouped by their other parameters (the 12 groups with the most total time;
evidence.json keeps 100: the largest group of each method, then the largest of the others).

Output folder: the run replaces DIR whole, so DIR must be absent, an empty folder, or a folder an
earlier run wrote (summary.json and timing.json, and nothing but the files above and the
report.html of 'ccasim report', whose deletion the run notes on stderr); anything else (your files, a file at DIR) is refused before the
simulation starts unless --overwrite is given. The working directory and its ancestors, the
scenario file and a folder holding it are never replaced, even with --overwrite. DIR's parent
must exist or be creatable, and be writable: checked before the simulation starts too.
Interrupted (Ctrl-C, kill), during the simulation or while writing, the run stops at once and
ends by the signal (a shell reports 130 for SIGINT, 143 for SIGTERM); DIR is left as it was. A
signal while writing (as a kill -9) leaves the temporary folder .<DIR>.tmp-<pid>-<n> beside DIR,
which the next run writing DIR removes.

Options:
  --out DIR            output folder (replaces the scenario's outputs.dir)
  --overwrite          replace DIR whatever it holds but an input (see Output folder)
  --seed N             replace the scenario's seed, read as the file's 'seed: N' is: an integer
                       (7), or a text (abc) as a seed may be; a number that is not an integer
                       (1.5) is refused, as it is in the file
  --set key=value      override any scenario key before validation (repeatable), e.g.
                       --set workload.x=1.5  --set machine.l2.size=256KiB
                       --set assembly.components.A.params.implementation=A2
  --top N              rows of the summary table, a positive integer (default 12)
  --quiet              print only the output folder (and warnings, on stderr)
  --no-evidence        do not print the evidence section (evidence.json is written all the same);
                       refused for a program model, whose run prints none
  --no-measure         run without the measurement component and proxies: no profile, records,
                       call graph or trace, only summary.json and timing.json. The simulated time is the
                       same (measurement and proxy overhead are not modelled); the simulator runs
                       faster, for long runs whose profile is not needed (--top and
                       --no-evidence, which shape the profile table and evidence, are refused)

Component types:
${componentTypes
  .all()
  .map((t) => `  ${t.name}: ${t.summary}\n${formatParams(t.params, "      ")}`)
  .join("\n")}

Exit codes: 0 success (messages left unreceived are warnings, printed and listed in summary.json),
1 failure (a deadlock), 2 invalid scenario, arguments or output folder, 130/143 (as a shell reports
a process ended by SIGINT/SIGTERM) interrupted.`,
  run(ctx) {
    const { values, positionals } = parseCommandArgs("run", ctx.argv, {
      out: { type: "string" },
      overwrite: { type: "boolean" },
      seed: { type: "string" },
      set: { type: "string", multiple: true },
      top: { type: "string" },
      quiet: { type: "boolean" },
      "no-measure": { type: "boolean" },
      "no-evidence": { type: "boolean" },
    });
    if (positionals.length !== 1) throw new UsageError("give exactly one scenario file (see 'ccasim run --help')", "run");
    const top = positiveIntegerOption("run", "top", values.top, 12)!;
    // Options that shape the printed report, which --quiet does not print: refused, not ignored.
    for (const name of ["top", "no-evidence"] as const)
      if (values.quiet === true && values[name] !== undefined) throw new UsageError(`--${name} shapes the printed report, which --quiet does not print: give one of them`, "run");
    // Nor with --no-measure: without a profile the report is its first line, no table nor evidence.
    for (const name of ["top", "no-evidence"] as const)
      if (values["no-measure"] === true && values[name] !== undefined)
        throw new UsageError(`--${name} shapes the profile table and evidence a run prints, which --no-measure leaves out (it measures nothing): give one of them`, "run");
    // --seed V is the file's `seed: V`, read as YAML alike (7 an integer, abc a text, 1.5 refused), after every --set.
    const seed = values.seed === undefined ? [] : [{ text: `seed=${String(values.seed)}`, source: `--seed ${String(values.seed)}` }];
    let lastDraw = 0;
    // runScenario checks the output folder before the simulation, not after minutes of it.
    const art = runScenario(positionals[0], {
      set: [...((values.set as string[] | undefined) ?? []), ...seed],
      out: values.out as string | undefined,
      overwrite: values.overwrite === true,
      measure: !values["no-measure"],
      // A program model's run has no evidence section for --no-evidence to leave out.
      onLoaded: (s) => {
        if (s.program && values["no-evidence"] === true) throw new UsageError("--no-evidence leaves out the evidence section, which a program model's run does not print (it has no proxy records): leave it out", "run");
      },
      onProgress: ctx.interactive
        ? (now, events) => {
            const t = Date.now();
            if (t - lastDraw < 200) return;
            lastDraw = t;
            ctx.err(`\r  simulated ${(now / 1e6).toFixed(3)} s, ${events.toLocaleString("en-US")} events`);
          }
        : undefined,
    });
    if (ctx.interactive && lastDraw > 0) ctx.err("\r\x1b[K");
    const { scenario, outDir } = art;
    for (const w of scenario.warnings) ctx.err(`warning: ${w}\n`);
    noteDeleted(ctx, art);
    const r = art.result;
    // The run's warnings go to stderr with --quiet too: it quiets the report, not the problems.
    const runWarnings = (): void => {
      for (const w of r.warnings.slice(0, 5)) ctx.err(`warning: ${w}\n`);
      if (r.warnings.length > 5) ctx.err(`warning: ${r.warnings.length - 5} more lines of warnings in summary.json\n`);
      for (const u of r.unreceived.slice(0, 5)) ctx.err(`warning: unreceived ${u}\n`);
    };
    if (values.quiet) {
      runWarnings();
      ctx.out(outDir + "\n");
      return 0;
    }
    // A threaded program model's "ranks" are its process threads: say both.
    const s = art.summary;
    const who = "kind" in s && s.threadsPerProcess > 1 ? processThreadsText(s.processes, s.threadsPerProcess) : plural(r.ranks, "rank");
    const over = "kind" in s && s.threadsPerProcess > 1 ? `${r.ranks} process threads` : plural(r.ranks, "rank");
    ctx.out(
      `${scenario.config.name}: ${who}, simulated ${(r.simulatedTime / 1e6).toFixed(6)} s in ${art.timing.wallSeconds.toFixed(2)} s wall ` +
        `(${Math.round(art.timing.eventsPerSecond).toLocaleString("en-US")} events/s, ${counted(r.invocations, "invocation")}, ` +
        `${counted(r.mastermind?.count ?? 0, "record")})\n`,
    );
    if (art.trial) {
      const table = profileTable(art.trial, derivedView(art.trial, "mean"), { metric: defaultMetric(art.trial), top });
      ctx.out(`\nMean profile over ${over} (top timers by inclusive ${table.metric}):\n${formatProfileTable(table)}\n`);
    }
    if (art.evidence && !values["no-evidence"]) ctx.out(`\nEvidence (from the profile and the proxy records):\n${formatEvidence(art.evidence)}\n`);
    runWarnings();
    ctx.out(`\nwrote ${outDir}\n`);
    return 0;
  },
};

/**
 * Says on stderr (one line) which files of the replaced run folder a run deleted though ccasim
 * wrote them there after the earlier run (its report.html), and how to write them again.
 */
export function noteDeleted(ctx: CommandContext, run: WrittenRun): void {
  if (run.deleted.length === 0) return;
  ctx.err(`note: replacing ${run.outDir} deleted ${run.deleted.join(", ")}, which 'ccasim report' wrote there after the earlier run; 'ccasim report ${run.outDir}' writes it again\n`);
}

/** `n` with thousands separators and the noun, plural but for one ("1 invocation", "1,200 invocations"). */
function counted(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
