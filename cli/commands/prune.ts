import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import { readTrial } from "../../profile/index.js";
import { callTreeFromTrial, callTreesPerThread, pruneAcross, type PruneResult, type CallTreeShape } from "../../analysis/index.js";
import { formatNumber, formatTable, numberOption, positiveIntegerOption, threadOption, toJson } from "./analysis-io.js";

const HELP = `ccasim prune: find the core components of a call graph with the alpha/beta pruning of paper 002

Usage:
  ccasim prune <trial>... [options]

For each kept node (depth first from the root), its children are all pruned when their inclusive
values add up to less than alpha of the node's; otherwise each child whose inclusive value is below
beta times the mean of its siblings is pruned (with its subtree). Several trials (or --per-rank)
are pruned separately and a component is core when it is significant in any of them.

Inputs are TAU profile directories, folders 'ccasim run' wrote (their profile/ is read),
profile.N.C.T files or ParaProf .ppk files: full callpaths,
TAU's default depth-2 callpaths (expanded from the roots, callees scaled by the share of their
routine's time spent in each context) or flat profiles (every timer's exclusive time under the
top-level timer).

Options:
  --alpha <a>        children-share threshold (default 0.1)
  --beta <b>         sibling-share threshold (default 0.1)
  --metric <name>    metric (default TIME, else the first)
  --view <v>         mean (default), max, total, or a thread n | n,c,t (as profile show)
  --per-rank         prune every thread separately and unite the cores
  --fold             fold pruned time into the kept parent's exclusive time
  --rows <n>         rows per table and names in the core list (default 40)
  --json             print the result as JSON

Examples:
  ccasim prune ../shared/data/tau/hatchet-cpi-mpi
  ccasim prune ../shared/data/tau/ppk/wrf-callpath.ppk --view max --beta 0.2`;

const OPTIONS = {
  alpha: { type: "string" },
  beta: { type: "string" },
  metric: { type: "string" },
  view: { type: "string" },
  "per-rank": { type: "boolean" },
  fold: { type: "boolean" },
  rows: { type: "string" },
  json: { type: "boolean" },
} as const;

function run(ctx: CommandContext): number {
  const { values: v, positionals } = parseCommandArgs("prune", ctx.argv, OPTIONS);
  if (positionals.length === 0) throw new UsageError("give at least one trial (see 'ccasim prune --help')", "prune");
  const alpha = numberOption("prune", "alpha", v.alpha, 0.1)!;
  const beta = numberOption("prune", "beta", v.beta, 0.1)!;
  const rows = positiveIntegerOption("prune", "rows", v.rows, 40)!;
  const metric = v.metric === undefined ? undefined : String(v.metric);
  const view = threadOption("prune", "view", v.view, ["mean", "max", "total"] as const) ?? "mean";
  const trees: { label: string; shape: CallTreeShape; root: ReturnType<typeof callTreeFromTrial>["root"] }[] = [];
  for (const p of positionals) {
    const trial = readTrial(p, { records: false });
    if (v["per-rank"] !== true) {
      const built = callTreeFromTrial(trial, { metric, view });
      trees.push({ label: p, shape: built.shape, root: built.root });
      continue;
    }
    const perThread = callTreesPerThread(trial, { metric });
    if (perThread.empty.length > 0) {
      ctx.err(`warning: ${p}: ${perThread.empty.length} thread(s) recorded no timers and are left out (${perThread.empty.map((th) => trial.threadLabel(th)).join(", ")})\n`);
    }
    const several = trial.threads.length > 1;
    for (const { thread, built } of perThread.trees) trees.push({ label: several ? `${p} [thread ${trial.threadLabel(thread)}]` : p, shape: built.shape, root: built.root });
  }
  const result = pruneAcross(
    trees.map((t) => t.root),
    { alpha, beta, fold: v.fold === true },
  );
  if (v.json === true) {
    ctx.out(
      toJson({
        alpha,
        beta,
        coreComponents: result.coreNames,
        prunedComponents: result.prunedNames,
        trees: result.results.map((r, i) => ({ input: trees[i]!.label, shape: trees[i]!.shape, ...summary(r) })),
      }) + "\n",
    );
    return 0;
  }
  const more = (n: number): string[] => (n > rows ? [`(${n - rows} more; --rows or --json to see them)`] : []);
  const out: string[] = [];
  out.push(`core components (significant in any of ${trees.length} call tree${trees.length > 1 ? "s" : ""}, alpha ${alpha}, beta ${beta}): ${result.coreNames.length}`);
  out.push(`  ${result.coreNames.slice(0, rows).join(", ")}${result.coreNames.length > rows ? `, ... (${result.coreNames.length - rows} more)` : ""}`);
  if (result.prunedNames.length > 0) out.push(`pruned everywhere: ${result.prunedNames.length} components`);
  result.results.forEach((r, i) => {
    out.push("", `== ${trees[i]!.label} (${trees[i]!.shape}): root '${r.core.name}' ${formatNumber(r.total)}, kept ${formatNumber(100 * r.keptShare)} %${r.folded > 0 ? ` (${formatNumber(r.folded)} folded into parents)` : ""}`);
    out.push(formatTable(["kept", "inclusive", "% of root"], r.kept.slice(0, rows).map((k) => [`${"  ".repeat(k.depth)}${k.name}`, k.inclusive, r.total > 0 ? (100 * k.inclusive) / r.total : 0])), ...more(r.kept.length));
    if (r.pruned.length > 0) {
      out.push("");
      const biggest = [...r.pruned].sort((a, b) => b.inclusive - a.inclusive);
      out.push(formatTable(["pruned (subtree root, largest first)", "rule", "inclusive", "% of root"], biggest.slice(0, rows).map((p) => [p.path, p.reason, p.inclusive, 100 * p.share])), ...more(r.pruned.length));
    }
  });
  ctx.out(out.join("\n") + "\n");
  return 0;
}

function summary(r: PruneResult): Record<string, unknown> {
  return { root: r.core.name, total: r.total, keptShare: r.keptShare, folded: r.folded, coreComponents: r.coreNames, kept: r.kept, pruned: r.pruned };
}

/** `ccasim prune`: alpha/beta call-graph pruning. */
export const pruneCommand: Command = {
  name: "prune",
  help: HELP,
  run,
};
