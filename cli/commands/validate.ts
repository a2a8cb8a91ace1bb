import { readFileSync } from "node:fs";
import { executeScenario, loadScenario } from "../../scenarios/index.js";
import { invalidPoints, isSweepText, loadSweep } from "../../scenarios/sweep/index.js";
import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import { plural, processThreadsText } from "./analysis-io.js";

/** Points whose errors `ccasim validate` prints for a sweep (the count covers them all). */
const SHOWN_POINTS = 5;

export const validateCommand: Command = {
  name: "validate",
  help: `Usage: ccasim validate <scenario.yaml> [--set key=value ...] [--run]
       ccasim validate <sweep.yaml> [--run]

Reads and checks a scenario the way 'ccasim run' does (YAML syntax, keys and types, units,
presets and overrides, component parameters and cost expressions, port connections, proxies,
metrics) and reports every problem with its file, line, column and key. Writes nothing.
Warnings (a component connected to nothing; with --run, a kernel whose arrays exceed a process's
share of machine.memory.size) are printed on stderr and do not make the scenario invalid.

A sweep file (one with a scenario:, axes:, zip: or random: section) is checked as 'ccasim sweep'
reads it, then the scenario of every point with the point's overrides, as the sweep loads it: the
points whose scenario does not load are listed with their overrides and why, points that fail
alike once (the first ${SHOWN_POINTS} errors, and how many more).

Some problems show only while a scenario runs: a value an expression gives for one call (a cost
that evaluates negative, an argument that is not a number, a kernel the node model refuses), a
peer that does not fit the ranks, a deadlock. --run finds them too: it runs the scenario (every
point of a sweep), measuring and writing nothing. (A halo exchange's rank grid, and its extents
that the workload alone decides, are checked without it.)

Options:
  --set <key=value>   override a value, as 'ccasim run' does (repeatable; scenarios only)
  --run               also run the scenario, or every point of a sweep, without writing

Exit codes: 0 valid, 2 invalid (for a scenario, 1 for a deadlock found by --run; a sweep lists
its deadlocked points among those that fail, and exits 2).`,
  run(ctx) {
    const { values, positionals } = parseCommandArgs("validate", ctx.argv, { set: { type: "string", multiple: true }, run: { type: "boolean" } });
    if (positionals.length !== 1) throw new UsageError("give exactly one scenario or sweep file", "validate");
    const file = positionals[0]!;
    const set = (values.set as string[] | undefined) ?? [];
    if (isSweepText(readable(file), file)) {
      if (set.length > 0) throw new UsageError("--set does not apply to a sweep file; fix a value for every point in its set: section", "validate");
      return validateSweep(ctx, file, values.run === true);
    }
    const s = loadScenario(file, { set });
    for (const w of s.warnings) ctx.err(`warning: ${w}\n`);
    const c = s.config;
    // Run, measuring nothing: an error it finds is thrown as 'ccasim run' would report it.
    const ran = values.run === true ? executeScenario(s, { measure: false }).result : undefined;
    // A run's warnings begin with the program model's own (found at load); without a run, print those.
    for (const w of ran?.warnings ?? s.program?.warnings ?? []) ctx.err(`warning: ${w}\n`);
    // As 'ccasim run' prints them: a message no receive took is likely a mistake in the model.
    const unreceived = ran?.unreceived ?? [];
    for (const u of unreceived.slice(0, 5)) ctx.err(`warning: unreceived ${u}\n`);
    if (unreceived.length > 5) ctx.err(`warning: ${unreceived.length - 5} more unreceived messages\n`);
    // As 'ccasim run' counts them: a threaded program model's processes and their threads.
    const threads = s.program?.threads ?? 1;
    const ranks = s.machine.cluster.ranks;
    const who = threads > 1 ? processThreadsText(ranks, threads) : plural(ranks, "rank");
    ctx.out(
      `${s.file}: valid — scenario '${c.name}', ${who} on ${plural(s.machine.cluster.nodes, `${s.machine.presetName} node`)}, ` +
        `${s.assembly ? plural(s.assembly.instances.length, "component") : "program model"}, metrics ${c.metrics.join(", ")}` +
        `${ran === undefined ? "" : `; ran: simulated ${(ran.simulatedTime / 1e6).toFixed(6)} s, ${ran.events} events`}\n`,
    );
    return 0;
  },
};

/** The text of `file`, or "" when it cannot be read (the scenario loader then says why). */
function readable(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function validateSweep(ctx: CommandContext, file: string, run: boolean): number {
  const sweep = loadSweep(file);
  const invalid = invalidPoints(sweep, { run });
  const what = `sweep '${sweep.name}', ${plural(sweep.points.length, "point")} over ${sweep.axes.join(", ") || "no axis"} (scenario ${sweep.scenarioFile})`;
  if (invalid.length === 0) {
    ctx.out(`${file}: valid — ${what}${run ? "; every point ran" : ""}\n`);
    return 0;
  }
  ctx.err(`${file}: ${invalid.length} of the ${what} would fail${run ? " (loaded and run)" : ""}:\n`);
  // Points that fail with the same message (a misspelt axis key fails them all) are listed once.
  const byMessage = new Map<string, typeof invalid>();
  for (const bad of invalid) {
    const same = byMessage.get(bad.error.message);
    if (same) same.push(bad);
    else byMessage.set(bad.error.message, [bad]);
  }
  const groups = [...byMessage];
  for (const [message, points] of groups.slice(0, SHOWN_POINTS)) {
    const first = points[0]!;
    if (points.length === 1) ctx.err(`  point ${first.point.index} (${first.overrides.join(" ")}):\n`);
    else {
      const indices = points.slice(0, 10).map((b) => b.point.index).join(", ");
      ctx.err(`  ${points.length} points (${indices}${points.length > 10 ? `, ... and ${points.length - 10} more` : ""}), like point ${first.point.index} (${first.overrides.join(" ")}):\n`);
    }
    for (const line of message.split("\n")) ctx.err(`    ${line}\n`);
  }
  if (groups.length > SHOWN_POINTS) ctx.err(`  ... and ${groups.length - SHOWN_POINTS} more errors\n`);
  return 2;
}
