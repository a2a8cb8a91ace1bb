/**
 * The text report of `ccasim prune`: per call tree, a summary of what the core covers, the kept
 * tree indented by depth and the pruned subtrees largest first, with long timer names shortened.
 */
import type { BuiltCallTree, CallNode, MetricUsed, PruneResult } from "../../analysis/index.js";
import { formatNumber, formatTable, formatTableNumber, shortTimerName } from "./analysis-io.js";

/** A pruned call tree and what it was built from. */
export interface PrunedTree {
  /** Input (and thread) it comes from. */
  readonly label: string;
  /** How its call tree was built. */
  readonly built: BuiltCallTree;
  /** The metric of its values. */
  readonly metric: MetricUsed;
  /** The pruning. */
  readonly result: PruneResult;
}

/** How much of each table to print. */
export interface ReportLayout {
  /** Rows per table. */
  readonly rows: number;
  /** Widest name column, indentation included (0: names whole). */
  readonly nameWidth: number;
}

/** Kept nodes below this share of the root are counted in the summary line. */
const SMALL_SHARE = 0.01;
/** Share of the name width the pruned table's 'under' column gets. */
const UNDER_WIDTH = 2 / 3;
/** Narrowest a name gets, however deep its row is indented. */
const MIN_NAME = 20;

/** Explains the values of a flat profile's tree, which are not inclusive values below the top (printed once). */
export const FLAT_NOTE =
  "flat profile: who calls whom is not recorded, so each timer is a leaf under its thread's top timer holding its\n" +
  "exclusive time (inclusive times of nested timers overlap); 'judged' (what alpha, beta and '% of root' use) is\n" +
  "that exclusive time, and the top timer's inclusive time; 'inclusive' is what the profile records.";

/** The report lines of one pruned tree. */
export function treeReport(t: PrunedTree, layout: ReportLayout): string[] {
  const r = t.result;
  const pct = (v: number): number => (r.total > 0 ? (100 * v) / r.total : 0);
  const name = (n: string, indent = 0, width = layout.nameWidth): string => `${" ".repeat(indent)}${shortTimerName(n, width > 0 ? Math.max(MIN_NAME, width - indent) : 0)}`;
  const more = (n: number): string[] => (n > layout.rows ? [`(${n - layout.rows} more; --rows or --json to see them)`] : []);
  const out = [`== ${t.label} (${t.built.shape}): root '${name(r.core.name)}' ${formatTableNumber(r.total)} (${t.metric.name}, ${t.metric.unit})${r.folded > 0 ? ` (${formatTableNumber(r.folded)} folded into parents)` : ""}`];
  out.push(...coverage(r, t.metric), ...parameterNote(t.built));
  const flat = t.built.shape === "flat";
  const kept = largestFirst(r.core).slice(0, layout.rows).map(({ node, depth }) => {
    const row: (string | number)[] = [name(node.name, 2 * depth), node.inclusive];
    if (flat) row.push(node.recordedInclusive ?? node.inclusive);
    return [...row, pct(node.inclusive)];
  });
  out.push(formatTable(["kept (largest first under each parent)", ...(flat ? ["judged", "inclusive"] : ["inclusive"]), "% of root"], kept), ...more(r.kept.length));
  if (r.pruned.length > 0) {
    const biggest = [...r.pruned].sort((a, b) => b.inclusive - a.inclusive).slice(0, layout.rows);
    const rows = biggest.map((p) => [name(p.name), name(p.parent, 0, Math.round(layout.nameWidth * UNDER_WIDTH)), p.reason, p.inclusive, 100 * p.share, p.below]);
    out.push("", formatTable(["pruned (subtree root, largest first)", "under", "rule", flat ? "judged" : "inclusive", "% of root", "below"], rows), ...more(r.pruned.length));
  }
  return out;
}

/** The lines saying what share of the root the core keeps, and how much of it is tiny next to the root. */
function coverage(r: PruneResult, metric: MetricUsed): string[] {
  const small = r.kept.filter((k) => k.depth > 0 && k.inclusive < SMALL_SHARE * r.total).length;
  let line = `core tree: ${r.kept.length} node${r.kept.length === 1 ? "" : "s"} covering ${formatNumber(100 * r.keptShare)} % of the root's ${metric.isTime ? "time" : metric.name}`;
  if (r.minShare > 0) line += `; --min-share ${r.minShare} pruned ${r.pruned.filter((p) => p.reason === "min-share").length} more`;
  if (small === 0) return [line];
  return [
    `${line}; ${small} of them below ${100 * SMALL_SHARE} % of the root each`,
    `  (alpha and beta judge a node against its parent and its siblings, not the root${r.minShare > 0 ? ")" : `; --min-share ${SMALL_SHARE} prunes them)`}`,
  ];
}

/** A note on the TAU_PARAM timers placed under their base timers, if any. */
function parameterNote(b: BuiltCallTree): string[] {
  const { nested, dropped } = b.parameterTimers;
  if (nested + dropped === 0) return [];
  const parts = [nested > 0 ? `${nested} placed under their base timer (they split its time by parameter value)` : "", dropped > 0 ? `${dropped} left out (they repeat their parent's time)` : ""];
  return [`parameter-profiled timers (TAU_PARAM): ${parts.filter((p) => p !== "").join("; ")}`];
}

/** The nodes of a core tree depth first, the larger of two siblings first. */
function largestFirst(core: CallNode): { node: CallNode; depth: number }[] {
  const out: { node: CallNode; depth: number }[] = [];
  const walk = (node: CallNode, depth: number): void => {
    out.push({ node, depth });
    for (const c of [...node.children].sort((a, b) => b.inclusive - a.inclusive)) walk(c, depth + 1);
  };
  walk(core, 0);
  return out;
}
