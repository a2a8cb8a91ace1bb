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
 *   MPI time per combination of parameter values (Figure 6: ghost updates per level and epoch).
 *
 * @packageDocumentation
 */
import { derivedView, defaultMetric, type InvocationRecord, type Trial } from "../profile/index.js";

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
}

/** Mean, standard deviation (population) and count of a sample. */
export interface Stats {
  readonly count: number;
  readonly mean: number;
  readonly std: number;
}

/** One array-size bin of a size-scaling analysis. Times in microseconds. */
export interface SizeBin {
  /** Bin bounds (doubles): [lo, hi). */
  readonly lo: number;
  readonly hi: number;
  /** Mean size of the records in the bin. */
  readonly meanSize: number;
  /** All records of the bin. */
  readonly time: Stats;
  /** Per mode. */
  readonly modes: Readonly<Record<string, Stats>>;
  /** Mean time of each non-baseline mode over the baseline's (absent when either is missing). */
  readonly ratios: Readonly<Record<string, number>>;
}

/** A least-squares fit `y = intercept + slope x` with its coefficient of determination. */
export interface LinearFit {
  readonly intercept: number;
  readonly slope: number;
  readonly r2: number;
  readonly points: number;
}

/** Mode-averaged statistics of one distinct size. */
export interface SizePoint {
  readonly size: number;
  readonly count: number;
  /** Mean over modes of each mode's mean time (the papers' "average of sequential and strided"). */
  readonly mean: number;
  /** Standard deviation of all the size's records (modes pooled). */
  readonly std: number;
}

/** How one proxied method's time depends on its array size. */
export interface SizeScaling {
  readonly component: string;
  readonly method: string;
  readonly parameter: string;
  readonly records: number;
  /** Modes seen (sorted), and the baseline of the ratios. */
  readonly modes: readonly string[];
  readonly baseline: string | undefined;
  readonly bins: readonly SizeBin[];
  /** Mode-averaged mean time vs size, over distinct sizes. */
  readonly points: readonly SizePoint[];
  /** T = intercept + slope Q over the points. */
  readonly linear: LinearFit;
  /** log T = intercept + slope log Q over the points (T = exp(slope log Q + intercept), as Eq. 1). */
  readonly powerLaw: LinearFit;
  /** sigma = intercept + slope Q over the points with at least two records. */
  readonly stdLinear: LinearFit;
  /** Spearman rank correlation of bin size with bin standard deviation (scatter growing with size when > 0). */
  readonly stdTrend: number;
}

/** Statistics of the records of one method with one combination of parameter values. */
export interface RecordGroup {
  readonly component: string;
  readonly method: string;
  readonly parameters: Readonly<Record<string, number | string>>;
  readonly count: number;
  readonly wall: Stats & { readonly median: number; readonly min: number; readonly max: number };
  readonly mpi: Stats;
  /** Per rank: the wall-time median and statistics (clusters show per processor, as in Figure 6). */
  readonly byRank: ReadonlyArray<Stats & { readonly rank: number; readonly median: number }>;
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
  readonly groups: readonly RecordGroup[];
}

function stats(xs: readonly number[]): Stats {
  const n = xs.length;
  if (n === 0) return { count: 0, mean: 0, std: 0 };
  let s = 0;
  for (const x of xs) s += x;
  const mean = s / n;
  let v = 0;
  for (const x of xs) v += (x - mean) * (x - mean);
  return { count: n, mean, std: Math.sqrt(v / n) };
}

/**
 * Ordinary least squares `y = a + b x`.
 * @returns the fit; r2 is 0 when y does not vary and NaN-free for fewer than two points (slope 0)
 */
export function linearFit(xs: readonly number[], ys: readonly number[]): LinearFit {
  const n = xs.length;
  if (n === 0) return { intercept: 0, slope: 0, r2: 0, points: 0 };
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i];
    sy += ys[i];
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i] - mx) * (xs[i] - mx);
    sxy += (xs[i] - mx) * (ys[i] - my);
    syy += (ys[i] - my) * (ys[i] - my);
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  const intercept = my - slope * mx;
  let sse = 0;
  for (let i = 0; i < n; i++) {
    const e = ys[i] - intercept - slope * xs[i];
    sse += e * e;
  }
  return { intercept, slope, r2: syy > 0 ? 1 - sse / syy : 0, points: n };
}

function ranks(xs: readonly number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b] || a - b);
  const r = new Array<number>(xs.length);
  for (let k = 0; k < order.length; ) {
    let j = k;
    while (j + 1 < order.length && xs[order[j + 1]] === xs[order[k]]) j++;
    for (let t = k; t <= j; t++) r[order[t]] = (k + j) / 2;
    k = j + 1;
  }
  return r;
}

/** Spearman's rank correlation (0 for fewer than three points). */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length < 3) return 0;
  const fit = linearFit(ranks(xs), ranks(ys));
  const sign = Math.sign(fit.slope);
  return sign * Math.sqrt(Math.max(0, fit.r2));
}

function methodKey(r: InvocationRecord): string {
  return `${r.component}\u0000${r.method}`;
}

/** Running sums of a sample (one pass, no arrays). */
class Acc {
  n = 0;
  sum = 0;
  sumSq = 0;
  add(x: number): void {
    this.n++;
    this.sum += x;
    this.sumSq += x * x;
  }
  stats(): Stats {
    if (this.n === 0) return { count: 0, mean: 0, std: 0 };
    const mean = this.sum / this.n;
    return { count: this.n, mean, std: Math.sqrt(Math.max(0, this.sumSq / this.n - mean * mean)) };
  }
}

/** Sums per group: all records, per mode, and the size sum. */
class ModeAcc {
  readonly all = new Acc();
  readonly size = new Acc();
  readonly byMode: Acc[];
  constructor(modes: number) {
    this.byMode = Array.from({ length: modes }, () => new Acc());
  }
}

function sizeScaling(records: readonly InvocationRecord[], sizeParam: string, modeParam: string, baselineMode: string | undefined, binsPerDecade: number): SizeScaling {
  const modes = [...new Set(records.map((r) => String(r.parameters[modeParam] ?? "")))].filter((m) => m !== "").sort();
  const modeIndex = new Map(modes.map((m, i) => [m, i]));
  const baseline = baselineMode !== undefined && modes.includes(baselineMode) ? baselineMode : modes[0];
  // One pass over the records (why: a 256-rank run has over a million of them).
  const byBin = new Map<number, ModeAcc>();
  const bySize = new Map<number, ModeAcc>();
  for (const r of records) {
    const q = Number(r.parameters[sizeParam]);
    const b = Math.floor(Math.log10(Math.max(q, 1)) * binsPerDecade);
    const m = modeIndex.get(String(r.parameters[modeParam] ?? ""));
    for (const [map, key] of [
      [byBin, b],
      [bySize, q],
    ] as const) {
      let acc = map.get(key);
      if (!acc) map.set(key, (acc = new ModeAcc(modes.length)));
      acc.all.add(r.wallTime);
      acc.size.add(q);
      if (m !== undefined) acc.byMode[m].add(r.wallTime);
    }
  }
  const bins: SizeBin[] = [...byBin.keys()]
    .sort((a, b) => a - b)
    .map((b) => {
      const acc = byBin.get(b)!;
      const per: Record<string, Stats> = {};
      modes.forEach((m, i) => {
        if (acc.byMode[i].n > 0) per[m] = acc.byMode[i].stats();
      });
      const ratios: Record<string, number> = {};
      if (baseline !== undefined && per[baseline])
        for (const m of modes) if (m !== baseline && per[m] && per[baseline].mean > 0) ratios[m] = per[m].mean / per[baseline].mean;
      return { lo: 10 ** (b / binsPerDecade), hi: 10 ** ((b + 1) / binsPerDecade), meanSize: acc.size.stats().mean, time: acc.all.stats(), modes: per, ratios };
    });
  const points: SizePoint[] = [...bySize.keys()]
    .sort((a, b) => a - b)
    .map((q) => {
      const acc = bySize.get(q)!;
      const present = acc.byMode.filter((x) => x.n > 0).map((x) => x.stats());
      const means = present.length > 0 ? present : [acc.all.stats()];
      return { size: q, count: acc.all.n, mean: means.reduce((s, x) => s + x.mean, 0) / means.length, std: acc.all.stats().std };
    });
  const positive = points.filter((p) => p.size > 0 && p.mean > 0);
  const spread = points.filter((p) => p.count >= 2);
  const first = records[0];
  return {
    component: first.component,
    method: first.method,
    parameter: sizeParam,
    records: records.length,
    modes,
    baseline,
    bins,
    points,
    linear: linearFit(points.map((p) => p.size), points.map((p) => p.mean)),
    powerLaw: linearFit(positive.map((p) => Math.log(p.size)), positive.map((p) => Math.log(p.mean))),
    stdLinear: linearFit(spread.map((p) => p.size), spread.map((p) => p.std)),
    stdTrend: spearman(bins.map((b) => b.meanSize), bins.map((b) => b.time.std)),
  };
}

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function groupStats(records: readonly InvocationRecord[]): RecordGroup[] {
  const groups = new Map<string, InvocationRecord[]>();
  for (const r of records) {
    const names = Object.keys(r.parameters).sort();
    const key = JSON.stringify(names.map((n) => [n, r.parameters[n]]));
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(r);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, rs]) => {
      const wall = rs.map((r) => r.wallTime).sort((a, b) => a - b);
      const perRank = new Map<number, number[]>();
      for (const r of rs) (perRank.get(r.rank) ?? perRank.set(r.rank, []).get(r.rank)!).push(r.wallTime);
      const byRank = [...perRank.keys()]
        .sort((a, b) => a - b)
        .map((rank) => {
          const xs = perRank.get(rank)!.sort((a, b) => a - b);
          return { rank, median: median(xs), ...stats(xs) };
        });
      return {
        component: rs[0].component,
        method: rs[0].method,
        parameters: rs[0].parameters,
        count: rs.length,
        wall: { ...stats(wall), median: median(wall), min: wall[0], max: wall[wall.length - 1] },
        mpi: stats(rs.map((r) => r.mpiTime)),
        byRank,
      };
    });
}

/**
 * Computes the evidence of a measured run from its profile (mean over ranks of `metric`, default
 * TIME) and its proxy records.
 */
export function computeEvidence(trial: Trial, records: readonly InvocationRecord[], options: EvidenceOptions = {}): Evidence {
  const sizeParam = options.sizeParameter ?? "Q";
  const modeParam = options.modeParameter ?? "mode";
  const binsPerDecade = options.binsPerDecade ?? 4;
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
  const byMethod = new Map<string, InvocationRecord[]>();
  for (const r of records) (byMethod.get(methodKey(r)) ?? byMethod.set(methodKey(r), []).get(methodKey(r))!).push(r);
  const scaling: SizeScaling[] = [];
  const groups: RecordGroup[] = [];
  for (const key of [...byMethod.keys()].sort()) {
    const rs = byMethod.get(key)!;
    const sized = rs.filter((r) => typeof r.parameters[sizeParam] === "number" && Number.isFinite(r.parameters[sizeParam] as number));
    if (sized.length > 0) scaling.push(sizeScaling(sized, sizeParam, modeParam, options.baselineMode ?? "sequential", binsPerDecade));
    else groups.push(...groupStats(rs));
  }
  return {
    ccasim: "evidence",
    metric,
    total,
    costCentres,
    mpiPercent: mpi.reduce((s, x) => s + x.percent, 0),
    mpi,
    scaling,
    groups,
  };
}

const f0 = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
const g = (x: number) => (x === 0 ? "0" : Math.abs(x) >= 1e5 || Math.abs(x) < 1e-2 ? x.toExponential(3) : x.toPrecision(4));

/** Renders evidence as text: cost centres, MPI share, size scaling tables with fits, record groups. */
export function formatEvidence(e: Evidence): string {
  const out: string[] = [];
  out.push(`Cost centres (exclusive ${e.metric}, mean over ranks; total ${f0(e.total / 1e3)} ms):`);
  for (const c of e.costCentres) out.push(`  ${c.percent.toFixed(1).padStart(5)}%  ${f0(c.exclusive / 1e3).padStart(10)} ms  ${String(Math.round(c.calls)).padStart(7)} calls  ${c.name}`);
  out.push(`Message passing: ${e.mpiPercent.toFixed(1)}% of the total`);
  for (const x of e.mpi.slice(0, 4))
    out.push(`  ${x.percent.toFixed(1).padStart(5)}%  ${x.name}${x.callers.length ? "  called from " + x.callers.slice(0, 3).map((c) => `${c.caller} (${c.percent.toFixed(1)}%)`).join(", ") : ""}`);
  for (const s of e.scaling) {
    out.push("");
    out.push(`${s.component}::${s.method}() — ${s.records} records, time vs ${s.parameter}${s.modes.length ? ` by ${s.modes.join("/")}` : ""}:`);
    const others = s.modes.filter((x) => x !== s.baseline);
    const head = [`  ${s.parameter} bin`.padEnd(22), "n".padStart(5), "mean us".padStart(10), "std us".padStart(9), ...s.modes.map((x) => `${x} us`.padStart(14)), ...others.map((x) => `${x}/${s.baseline}`.padStart(20))];
    out.push(head.join(" "));
    for (const b of s.bins) {
      const row = [
        `  ${g(b.lo)}-${g(b.hi)}`.padEnd(22),
        String(b.time.count).padStart(5),
        f0(b.time.mean).padStart(10),
        f0(b.time.std).padStart(9),
        ...s.modes.map((x) => (b.modes[x] ? f0(b.modes[x].mean) : "-").padStart(14)),
        ...others.map((x) => (b.ratios[x] !== undefined ? b.ratios[x].toFixed(2) : "-").padStart(20)),
      ];
      out.push(row.join(" "));
    }
    out.push(
      `  mean (modes averaged) = ${g(s.linear.intercept)} + ${g(s.linear.slope)} ${s.parameter} us (R² ${s.linear.r2.toFixed(3)}, ${s.linear.points} sizes); ` +
        `= exp(${s.powerLaw.slope.toFixed(3)} log ${s.parameter} ${s.powerLaw.intercept < 0 ? "-" : "+"} ${Math.abs(s.powerLaw.intercept).toFixed(3)}) (R² ${s.powerLaw.r2.toFixed(3)})`,
    );
    out.push(`  std = ${g(s.stdLinear.intercept)} + ${g(s.stdLinear.slope)} ${s.parameter} us (R² ${s.stdLinear.r2.toFixed(3)}); rank correlation of scatter with size ${s.stdTrend.toFixed(2)}`);
  }
  if (e.groups.length) {
    out.push("");
    out.push("Records by parameter values (wall time, us):");
    for (const gr of e.groups) {
      const ps = Object.entries(gr.parameters).map(([k, v]) => `${k}=${v}`).join(" ");
      out.push(
        `  ${`${gr.component}::${gr.method}() ${ps}`.padEnd(46)} n ${String(gr.count).padStart(5)}  median ${f0(gr.wall.median).padStart(8)}  mean ${f0(gr.wall.mean).padStart(8)}  std ${f0(gr.wall.std).padStart(8)}  mpi ${f0(gr.mpi.mean).padStart(8)}` +
          (gr.byRank.length <= 4 ? `  medians by rank ${gr.byRank.map((x) => f0(x.median)).join(" / ")}` : ""),
      );
    }
  }
  return out.join("\n");
}
