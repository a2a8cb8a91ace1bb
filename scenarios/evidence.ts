/**
 * The evidence section of a run: what the papers read off their measurements, computed from a
 * run's profile and proxy records alone. Nothing here knows about a particular application; it
 * is driven by record parameters (a size parameter `Q`, a `mode` parameter) and by MPI timers.
 *
 * - **Cost centres**: the top timers by exclusive time (mean over ranks) with their share of the
 *   total, and the share of every MPI timer with the callers it was called from (Table 1 of
 *   paper 000).
 * - **Size scaling**, per proxied method whose records carry the size parameter: by array-size
 *   bin, the mean time of each mode and their ratio to the baseline mode (Figure 3), and over
 *   distinct sizes the mode-averaged mean time with linear and power-law fits and the standard
 *   deviation's trend (Figures 4 and 5, Eq. 1 and 2).
 * - **Groups**, per proxied method whose records carry no size parameter: statistics of wall and
 *   MPI time per combination of parameter values (Figure 6: ghost updates per level and epoch),
 *   for at most `maxGroups` of them: the largest of each method, then the largest of the rest.
 *
 * @packageDocumentation
 */
import { derivedView, defaultMetric, type RecordSource, type Trial } from "../profile/index.js";
import { largestFirst } from "./evidence-stats.js";
import { recordEvidence, type RecordGroup, type SizeScaling } from "./record-evidence.js";

export { linearFit, spearman, type LinearFit, type Stats } from "./evidence-stats.js";
export type { RecordGroup, SizeBin, SizePoint, SizeScaling } from "./record-evidence.js";

/** Options of {@link computeEvidence}. */
export interface EvidenceOptions {
  /** Record parameter holding the array size (default `Q`). */
  readonly sizeParameter?: string;
  /** Record parameter holding the access mode (default `mode`). */
  readonly modeParameter?: string;
  /** Mode the others are compared with (default `sequential`; else the first mode by name). */
  readonly baselineMode?: string;
  /** Size bins per decade (default 4). */
  readonly binsPerDecade?: number;
  /** Rows of the cost-centre table (default 10). */
  readonly top?: number;
  /**
   * Most record groups summarised (default 100): with more, the largest (by total wall time) of
   * each method, then the largest of the others. A parameter that differs from call to call (an iteration, a time) makes a group of
   * every record; {@link Evidence.groupsOmitted} counts the groups left out.
   */
  readonly maxGroups?: number;
}

/** One row of the cost-centre table (mean over ranks, microseconds). */
export interface CostCentre {
  readonly name: string;
  readonly exclusive: number;
  readonly inclusive: number;
  readonly calls: number;
  /** Exclusive time over the total (percent). */
  readonly percent: number;
}

/** An MPI timer's share and where it was called from. */
export interface MpiShare {
  readonly name: string;
  readonly exclusive: number;
  readonly percent: number;
  /** Immediate callers (from callpaths) with their share of the total (percent), largest first. */
  readonly callers: ReadonlyArray<{ readonly caller: string; readonly percent: number }>;
}

/** Everything {@link computeEvidence} finds. Deterministic for deterministic inputs. */
export interface Evidence {
  readonly ccasim: "evidence";
  readonly metric: string;
  /** Mean over ranks of the application's inclusive time (microseconds). */
  readonly total: number;
  readonly costCentres: readonly CostCentre[];
  /** Share of all MPI timers' exclusive time in the total (percent). */
  readonly mpiPercent: number;
  readonly mpi: readonly MpiShare[];
  readonly scaling: readonly SizeScaling[];
  /** Record groups of the methods without a size parameter: by method (component, then method name), then by the JSON text of their parameter values. */
  readonly groups: readonly RecordGroup[];
  /** Record groups not in {@link groups} (beyond {@link EvidenceOptions.maxGroups}). */
  readonly groupsOmitted: number;
}

/**
 * Computes the evidence of a measured run from its profile (mean over ranks of `metric`, default
 * TIME) and its proxy records (objects or a table, such as the run's Mastermind).
 */
export function computeEvidence(trial: Trial, records: RecordSource, options: EvidenceOptions = {}): Evidence {
  const metric = defaultMetric(trial);
  const m = trial.metricIndex(metric);
  const view = derivedView(trial, "mean");
  const flat = trial.timers.filter((t) => !t.isCallpath && view.present[t.index] === 1);
  let total = 0;
  for (const t of flat) total = Math.max(total, view.inclusive[m][t.index]);
  const pct = (x: number) => (total > 0 ? (100 * x) / total : 0);
  const costCentres = flat
    .map((t) => ({ name: t.name, exclusive: view.exclusive[m][t.index], inclusive: view.inclusive[m][t.index], calls: view.calls[t.index], percent: pct(view.exclusive[m][t.index]) }))
    .sort((a, b) => b.exclusive - a.exclusive || (a.name < b.name ? -1 : 1))
    .slice(0, options.top ?? 10);
  const mpiTimers = flat.filter((t) => t.groups.includes("MPI") || /^MPI_/.test(t.name));
  const mpi: MpiShare[] = mpiTimers
    .map((t) => {
      const callers = new Map<string, number>();
      for (const c of trial.timers) {
        if (!c.isCallpath || c.path[c.path.length - 1] !== t.name || view.present[c.index] !== 1) continue;
        const caller = c.path[c.path.length - 2];
        callers.set(caller, (callers.get(caller) ?? 0) + view.exclusive[m][c.index]);
      }
      return {
        name: t.name,
        exclusive: view.exclusive[m][t.index],
        percent: pct(view.exclusive[m][t.index]),
        callers: [...callers.entries()].map(([caller, x]) => ({ caller, percent: pct(x) })).sort((a, b) => b.percent - a.percent || (a.caller < b.caller ? -1 : 1)),
      };
    })
    .sort((a, b) => b.exclusive - a.exclusive || (a.name < b.name ? -1 : 1));
  const maxGroups = options.maxGroups ?? 100;
  if (!(Number.isInteger(maxGroups) && maxGroups >= 0)) throw new RangeError(`maxGroups must be a whole number of groups, 0 or more; got ${maxGroups}`);
  const { scaling, groups, groupsOmitted } = recordEvidence(records, {
    sizeParameter: options.sizeParameter ?? "Q",
    modeParameter: options.modeParameter ?? "mode",
    baselineMode: options.baselineMode ?? "sequential",
    binsPerDecade: options.binsPerDecade ?? 4,
    maxGroups,
  });
  return {
    ccasim: "evidence",
    metric,
    total,
    costCentres,
    mpiPercent: mpi.reduce((s, x) => s + x.percent, 0),
    mpi,
    scaling,
    groups,
    groupsOmitted,
  };
}

const f0 = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
const g = (x: number) => (x === 0 ? "0" : Math.abs(x) >= 1e5 || Math.abs(x) < 1e-2 ? x.toExponential(3) : x.toPrecision(4));

/**
 * Renders evidence as text: cost centres, MPI share, size scaling tables with fits, and the
 * record groups, at most `groups` of them (default 12: those with the largest total wall time).
 */
export function formatEvidence(e: Evidence, groups = 12): string {
  if (!(Number.isInteger(groups) && groups >= 0)) throw new RangeError(`groups must be a whole number of groups, 0 or more; got ${groups}`);
  const out: string[] = [];
  out.push(`Cost centres (exclusive ${e.metric}, mean over ranks; total ${f0(e.total / 1e3)} ms):`);
  for (const c of e.costCentres) out.push(`  ${c.percent.toFixed(1).padStart(5)}%  ${f0(c.exclusive / 1e3).padStart(10)} ms  ${String(Math.round(c.calls)).padStart(7)} ${Math.round(c.calls) === 1 ? "call " : "calls"}  ${c.name}`);
  out.push(`Message passing: ${e.mpiPercent.toFixed(1)}% of the total`);
  for (const x of e.mpi.slice(0, 4))
    out.push(`  ${x.percent.toFixed(1).padStart(5)}%  ${x.name}${x.callers.length ? "  called from " + x.callers.slice(0, 3).map((c) => `${c.caller} (${c.percent.toFixed(1)}%)`).join(", ") : ""}`);
  for (const s of e.scaling) {
    out.push("");
    out.push(`${s.component}::${s.method}() — ${s.records} records, time vs ${s.parameter}${s.modes.length ? ` by ${s.modes.join("/")}` : ""}:`);
    const others = s.modes.filter((x) => x !== s.baseline);
    // The standard deviation at a fixed size (the bin's sizes pooled), not of the whole bin, whose sizes spread its times.
    const head = [`  ${s.parameter} bin`.padEnd(22), "n".padStart(5), "mean us".padStart(10), `std at ${s.parameter} us`.padStart(12), ...s.modes.map((x) => `${x} us`.padStart(14)), ...others.map((x) => `${x}/${s.baseline}`.padStart(20))];
    out.push(head.join(" "));
    for (const b of s.bins) {
      const row = [
        // (The bin of sizes 0 and below ends at 0: "0", or "-5 to 0".)
        `  ${b.hi === 0 ? (b.lo === 0 ? "0" : `${g(b.lo)} to 0`) : `${g(b.lo)}-${g(b.hi)}`}`.padEnd(22),
        String(b.time.count).padStart(5),
        f0(b.time.mean).padStart(10),
        f0(b.scatter).padStart(Math.max(12, `std at ${s.parameter} us`.length)),
        ...s.modes.map((x) => (b.modes[x] ? f0(b.modes[x].mean) : "-").padStart(14)),
        ...others.map((x) => (b.ratios[x] !== undefined ? b.ratios[x].toFixed(2) : "-").padStart(20)),
      ];
      out.push(row.join(" "));
    }
    // A trend needs sizes to run over: with fewer than three a line fits exactly or not at all.
    if (s.linear.points < MIN_TREND_SIZES) {
      out.push(`  ${s.linear.points} distinct ${s.parameter}: too few for a trend (fits need ${MIN_TREND_SIZES} or more)`);
      continue;
    }
    out.push(
      `  mean (modes averaged) = ${g(s.linear.intercept)} + ${g(s.linear.slope)} ${s.parameter} us (R² ${s.linear.r2.toFixed(3)}, ${s.linear.points} sizes); ` +
        `= exp(${s.powerLaw.slope.toFixed(3)} log ${s.parameter} ${s.powerLaw.intercept < 0 ? "-" : "+"} ${Math.abs(s.powerLaw.intercept).toFixed(3)}) (R² ${s.powerLaw.r2.toFixed(3)})`,
    );
    out.push(`  std = ${g(s.stdLinear.intercept)} + ${g(s.stdLinear.slope)} ${s.parameter} us (R² ${s.stdLinear.r2.toFixed(3)}); rank correlation of scatter with size ${s.stdTrend.toFixed(2)}`);
  }
  if (e.groups.length + e.groupsOmitted > 0) {
    out.push("");
    out.push("Records by parameter values (wall time, us):");
    const shown = largestTotals(e.groups, groups);
    for (const gr of shown) {
      const ps = Object.entries(gr.parameters).map(([k, v]) => `${k}=${v}`).join(" ");
      out.push(
        `  ${`${gr.component}::${gr.method}() ${ps}`.padEnd(46)} n ${String(gr.count).padStart(5)}  median ${f0(gr.wall.median).padStart(8)}  mean ${f0(gr.wall.mean).padStart(8)}  std ${f0(gr.wall.std).padStart(8)}  mpi ${f0(gr.mpi.mean).padStart(8)}` +
          (gr.byRank.length <= 4 ? `  medians by rank ${gr.byRank.map((x) => f0(x.median)).join(" / ")}` : ""),
      );
    }
    const more = e.groups.length - shown.length + e.groupsOmitted;
    if (more > 0) out.push(`  ... and ${more} more group${more === 1 ? "" : "s"} (${e.groups.length} in evidence.json)`);
  }
  return out.join("\n");
}

/** Fewest distinct sizes for which the summary prints the size trends (fits). */
const MIN_TREND_SIZES = 3;

/** The `n` groups with the largest total wall time (count x mean), in their given order. */
function largestTotals(groups: readonly RecordGroup[], n: number): RecordGroup[] {
  if (groups.length <= n) return [...groups];
  const keep = new Set(largestFirst(groups.map((g) => g.count * g.wall.mean)).slice(0, n));
  return groups.filter((_, k) => keep.has(k));
}
