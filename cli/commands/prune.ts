import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import { readTrial } from "../../profile/index.js";
import { callTreeFromTrial, callTreesPerThread, pruneAcross, type BuiltCallTree, type MetricUsed, type PruneResult } from "../../analysis/index.js";
import { foldGroupsOption, numberOption, positiveIntegerOption, shortTimerName, snapshotOption, threadOption, toJson, refuseStudyDatabase } from "./analysis-io.js";
import { FLAT_NOTE, treeReport, type PrunedTree } from "./prune-report.js";

const HELP = `ccasim prune: find the core components of a call graph with the alpha/beta pruning of paper 002

Usage:
  ccasim prune <trial>... [options]

For each kept node (depth first from the root), its children are all pruned when their inclusive
values add up to less than alpha of the node's; otherwise each child whose inclusive value is below
beta times the mean of its siblings is pruned. A pruned child is pruned with its whole subtree:
every component is either core or pruned, and 'pruned everywhere' counts the pruned subtrees'
roots and everything below them (the pruned table lists the roots, 'below' the nodes under each).
Several trials (or --per-rank)
are pruned separately and a component is core when it is significant in any of them. The core
components are the kept nodes but TAU's root timer '.TAU application' (the whole measured
program, not a component: paper 002's core is "A and B (along with the Driver)") and a synthetic
'(all roots)'; the kept tree below the summary still starts at the root.

Both rules are relative (to the parent, to the siblings), as the paper wants: a node far below 1 %
of the root survives when it is an only child that holds most of its parent's time, or when all
its siblings are as small. The summary line says how many kept nodes are below 1 % of the root;
--min-share (not in the paper, off by default) prunes them as well.

Inputs are TAU profile directories, folders 'ccasim run' wrote (their profile/ is read),
profile.N.C.T files, ParaProf .ppk files, TAU XML profiles or CUBE4 .cubex files: full callpaths, TAU's default depth-2 callpaths
(expanded from the roots, callees scaled by the share of their routine's time spent in each
context) or flat profiles. A flat profile does not record who calls whom: every timer becomes a
leaf under its thread's top timer holding its exclusive time (inclusive times of nested timers
overlap), and its tables head that value 'judged', next to the recorded inclusive time.
The mean, max and total views combine the threads' call trees node by node; threads with
different top timers meet under a synthetic '(all roots)' root. Parameter-profiled timers
(TAU_PARAM, 'f [ <n> = <v> ]') go under their base timer 'f', whose time they split.

Options:
  --alpha <a>          children-share threshold, in [0, 1] (default 0.1, the paper's; 0: never
                       prune by alpha)
  --beta <b>           sibling-share threshold, 0 or more (default 0.1, the paper's; 0: never
                       prune by beta). Up to 1 the largest child always stays; above 1 only
                       children above beta x the mean of their siblings stay, and evenly split
                       siblings are all pruned; an only child is never pruned by beta
  --min-share <s>      also prune nodes below this share of the root, e.g. 0.01 (default 0: off;
                       not in the paper)
  --metric <name>      metric (default TIME; else another time metric, the cycles, or the
                       first by name, as profile show, with a warning when it is not a time).
                       The output names the metric and its unit (usec for time, else counts)
  --view <v>           mean (default), max, total, or a thread n[,c[,t]] (node, context, thread,
                       by commas or dots; parts left out are 0: 3,1 is 3,1,0)
  --per-rank           prune every thread separately and unite the cores (not with --view)
  --fold               fold pruned time into the kept parent's exclusive time
  --fold-group <g,...> fold the timers of these TAU groups (MPI, say) into their callers before
                       pruning: their time counts as the caller's own, and they are neither core
                       nor pruned (paper 002 prunes components; an MPI routine is not one)
  --rows <n>           rows per table and names in the core list (default 40)
  --name-width <n>     widest name column, indentation included (default 60; the pruned table's
                       'under' column gets two thirds): longer timer names lose directory paths,
                       then their source location (a [SAMPLE] keeps its line), then their
                       middle; 0 keeps names whole (as --json does)
  --json               print the result as JSON (full names and callpaths; not with --rows or
                       --name-width)
  --snapshot <n|name>  of TAU XML inputs, the snapshot of each thread to prune: an index (0 the
                       first, -1 the last, the default) or a name (name:100 for a name that is a
                       number), as 'ccasim profile show --snapshot'

Examples:
  ccasim prune ../shared/data/tau/hatchet-cpi-mpi
  ccasim prune ../shared/data/tau/ppk/wrf-callpath.ppk --view max --beta 0.2
  ccasim prune ../shared/data/tau/ppk/wrf-callpath.ppk --min-share 0.01
  ccasim prune out/shock-neuronic --fold-group MPI            # components only`;

const OPTIONS = {
  alpha: { type: "string" },
  beta: { type: "string" },
  "min-share": { type: "string" },
  metric: { type: "string" },
  view: { type: "string" },
  "per-rank": { type: "boolean" },
  fold: { type: "boolean" },
  "fold-group": { type: "string" },
  rows: { type: "string" },
  "name-width": { type: "string" },
  json: { type: "boolean" },
  snapshot: { type: "string" },
} as const;

function run(ctx: CommandContext): number {
  const { values: v, positionals } = parseCommandArgs("prune", ctx.argv, OPTIONS);
  if (positionals.length === 0) throw new UsageError("give at least one trial (see 'ccasim prune --help')", "prune");
  refuseStudyDatabase("prune", positionals, "'ccasim query' or 'ccasim report' on it, or prune a point's run folder");
  // Why refuse rather than ignore: an option that does nothing leaves the user believing it did.
  if (v.json === true) for (const o of ["rows", "name-width"]) if (v[o] !== undefined) throw new UsageError(`--${o} shapes the tables; --json prints every node with full names`, "prune");
  if (v["per-rank"] === true && v.view !== undefined) throw new UsageError("--view combines the threads into one call tree; --per-rank prunes each thread's own: give one of them", "prune");
  const alpha = numberOption("prune", "alpha", v.alpha, 0.1)!;
  const beta = numberOption("prune", "beta", v.beta, 0.1)!;
  const minShare = numberOption("prune", "min-share", v["min-share"], 0)!;
  // Checked here too, to name the options as typed (the library names its fields).
  for (const [name, x] of [["alpha", alpha], ["min-share", minShare]] as const) if (!(x >= 0 && x <= 1)) throw new UsageError(`--${name} must be in [0, 1], got ${x}`, "prune");
  if (!(beta >= 0 && Number.isFinite(beta))) throw new UsageError(`--beta must be 0 or more, got ${beta}`, "prune");
  const rows = positiveIntegerOption("prune", "rows", v.rows, 40)!;
  // 0 keeps names whole; a positive width shortens the longer ones.
  const nameWidth = v["name-width"] === "0" ? 0 : positiveIntegerOption("prune", "name-width", v["name-width"], 60)!;
  const metric = v.metric === undefined ? undefined : String(v.metric);
  const view = threadOption("prune", "view", v.view, ["mean", "max", "total"] as const) ?? "mean";
  const foldGroups = foldGroupsOption("prune", v["fold-group"]);
  const trees: { label: string; built: BuiltCallTree; metric: MetricUsed }[] = [];
  for (const p of positionals) {
    const trial = readTrial(p, { records: false, snapshot: snapshotOption(v.snapshot) });
    if (v["per-rank"] !== true) {
      const built = callTreeFromTrial(trial, { metric, view, foldGroups });
      warnFallback(ctx, p, built.metric);
      trees.push({ label: p, built, metric: built.metric });
      continue;
    }
    const perThread = callTreesPerThread(trial, { metric, foldGroups });
    warnFallback(ctx, p, perThread.metric);
    if (perThread.empty.length > 0) {
      ctx.err(`warning: ${p}: ${perThread.empty.length} thread(s) recorded no timers and are left out (${perThread.empty.map((th) => trial.threadLabel(th)).join(", ")})\n`);
    }
    const several = trial.threads.length > 1;
    for (const { thread, built } of perThread.trees) trees.push({ label: several ? `${p} [thread ${trial.threadLabel(thread)}]` : p, built, metric: perThread.metric });
  }
  const result = pruneAcross(
    trees.map((t) => t.built.root),
    { alpha, beta, minShare, fold: v.fold === true },
  );
  const metrics = [...new Map(trees.map((t) => [t.metric.name, t.metric])).values()];
  if (v.json === true) {
    ctx.out(
      toJson({
        metrics,
        alpha,
        beta,
        minShare,
        foldGroups,
        coreComponents: result.coreNames,
        prunedComponents: result.prunedNames,
        trees: result.results.map((r, i) => ({
          input: trees[i]!.label,
          metric: trees[i]!.metric.name,
          unit: trees[i]!.metric.unit,
          shape: trees[i]!.built.shape,
          parameterTimers: trees[i]!.built.parameterTimers,
          ...summary(r),
        })),
      }) + "\n",
    );
    return 0;
  }
  const metricText = `metric${metrics.length > 1 ? "s" : ""} ${metrics.map((m) => `${m.name} (${m.unit})`).join(", ")}`;
  const thresholds = `alpha ${alpha}, beta ${beta}${minShare > 0 ? `, min share ${minShare}` : ""}${foldGroups.length > 0 ? `; group${foldGroups.length > 1 ? "s" : ""} ${foldGroups.join(", ")} folded into callers` : ""}`;
  const names = result.coreNames.slice(0, rows).map((n) => shortTimerName(n, nameWidth));
  if (result.coreNames.length > rows) names.push(`... (${result.coreNames.length - rows} more)`);
  const out: string[] = [];
  out.push(`core components (significant in any of ${trees.length} call tree${trees.length > 1 ? "s" : ""}, ${metricText}, ${thresholds}): ${result.coreNames.length}`);
  out.push(...listLines(names, LIST_WIDTH));
  if (result.prunedNames.length > 0) {
    const subtrees = result.results.reduce((s, r) => s + r.pruned.length, 0);
    out.push(`pruned everywhere: ${result.prunedNames.length} component${result.prunedNames.length === 1 ? "" : "s"} (the roots of ${subtrees} pruned subtree${subtrees === 1 ? "" : "s"} and everything below them)`);
  }
  if (trees.some((t) => t.built.shape === "flat")) out.push("", FLAT_NOTE);
  result.results.forEach((r, i) => {
    const tree: PrunedTree = { ...trees[i]!, result: r };
    out.push("", ...treeReport(tree, { rows, nameWidth }));
  });
  ctx.out(out.join("\n") + "\n");
  return 0;
}

/** Warns once per input when the metric is a counter the default fell back to, not a time. */
function warnFallback(ctx: CommandContext, input: string, m: MetricUsed): void {
  if (m.fallback) ctx.err(`warning: ${input}: no time metric; pruning by ${m.name} (${m.unit}) instead (choose one with --metric)\n`);
}

/** Width of the lines that list the core components. */
const LIST_WIDTH = 100;

/** Names joined by ", " on lines indented by two spaces, broken between names near `width`. */
function listLines(names: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const [i, n] of names.entries()) {
    const item = i < names.length - 1 ? `${n},` : n;
    if (line !== "" && 2 + line.length + 1 + item.length > width) {
      lines.push(`  ${line}`);
      line = item;
    } else line = line === "" ? item : `${line} ${item}`;
  }
  return line === "" ? [] : [...lines, `  ${line}`];
}

function summary(r: PruneResult): Record<string, unknown> {
  return { root: r.core.name, total: r.total, keptShare: r.keptShare, folded: r.folded, coreComponents: r.coreNames, prunedComponents: r.prunedNames, kept: r.kept, pruned: r.pruned };
}

/** `ccasim prune`: alpha/beta call-graph pruning. */
export const pruneCommand: Command = {
  name: "prune",
  help: HELP,
  run,
};
