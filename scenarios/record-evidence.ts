/**
 * The record half of a run's evidence (see `evidence.ts`): per proxied method, how its time scales
 * with a size parameter by mode, or, without a size, statistics per combination of parameter
 * values. Records are read as a {@link RecordTable}, row by row, so a run's millions of records
 * need no object each.
 */
import { recordAt, recordTable, type RecordSource, type RecordTable } from "../profile/index.js";
import { nameSlots } from "../profile/internal.js";
import { largestFirst, linearFit, median, spearman, stats, type LinearFit, type Stats } from "./evidence-stats.js";

/** One array-size bin of a size-scaling analysis. Times in microseconds. */
export interface SizeBin {
  /**
   * Bin bounds (doubles): [lo, hi), `binsPerDecade` to a decade of sizes above 0. Sizes of 0 and
   * below (an empty patch) have a bin of their own, [lo, 0] with `lo` its smallest size, first.
   */
  readonly lo: number;
  readonly hi: number;
  /** Mean size of the records in the bin. */
  readonly meanSize: number;
  /** All records of the bin (their standard deviation mixes the spread of the bin's sizes in). */
  readonly time: Stats;
  /**
   * Standard deviation of the bin's records about the mean time of their own size, the sizes
   * pooled (divided by the bin's count): the scatter at a fixed size, the papers' sigma (Eq. 2),
   * which `time.std` overstates by the spread of the sizes within the bin.
   */
  readonly scatter: number;
  /** Per mode. */
  readonly modes: Readonly<Record<string, Stats>>;
  /** Mean time of each non-baseline mode over the baseline's (absent when either is missing). */
  readonly ratios: Readonly<Record<string, number>>;
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
  /** Spearman rank correlation of size with the standard deviation at that size, over the points with at least two records (scatter growing with size when > 0). */
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

/**
 * Running sums of a sample (one pass, no arrays): the sum for the mean, and the squared deviations
 * from the running mean (Welford) for the spread. Why not a sum of squares: its difference with
 * n mean^2 cancels catastrophically for long calls (1e9 us that differ by 1 us gave a spread of 0).
 */
class Acc {
  n = 0;
  sum = 0;
  private runningMean = 0;
  private squaredDeviations = 0;
  add(x: number): void {
    this.n++;
    this.sum += x;
    const d = x - this.runningMean;
    this.runningMean += d / this.n;
    this.squaredDeviations += d * (x - this.runningMean);
  }
  stats(): Stats {
    if (this.n === 0) return { count: 0, mean: 0, std: 0 };
    return { count: this.n, mean: this.sum / this.n, std: Math.sqrt(this.squaredDeviations / this.n) };
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

/** The size bin of the sizes 0 and below (see {@link SizeBin}). */
const NON_POSITIVE_BIN = -Infinity;

/** How the records of a run are summarised (see {@link EvidenceOptions}, which sets each). @internal */
export interface RecordEvidenceSettings {
  readonly sizeParameter: string;
  readonly modeParameter: string;
  readonly baselineMode: string | undefined;
  readonly binsPerDecade: number;
  /** Most record groups summarised: those with the largest total wall time. */
  readonly maxGroups: number;
}

/**
 * Size scaling of each method whose records carry a finite numeric size parameter, and record
 * groups of every other method; methods in order of `component` then `method`. Of the groups, the
 * `maxGroups` are summarised: the largest (by total wall time) of each method, then the largest of
 * the others; `groupsOmitted` counts the rest.
 * @internal
 */
export function recordEvidence(source: RecordSource, settings: RecordEvidenceSettings): { scaling: SizeScaling[]; groups: RecordGroup[]; groupsOmitted: number } {
  const t = recordTable(source);
  const methods = new Map<string, number>();
  const methodOf = Int32Array.from(t.kinds, (k) => {
    const key = `${k.component}\u0000${k.method}`;
    return methods.get(key) ?? methods.set(key, methods.size).get(key)!;
  });
  // Per kind, the index of its size and mode parameters (-1: none).
  const sizeAt = Int32Array.from(t.kinds, (k) => k.parameterNames.lastIndexOf(settings.sizeParameter));
  const modeAt = Int32Array.from(t.kinds, (k) => k.parameterNames.lastIndexOf(settings.modeParameter));
  const rowsOf = rowsByMethod(t, methodOf, methods.size);
  const scaling: SizeScaling[] = [];
  const members: number[][] = [];
  const methodOfGroup: number[] = [];
  for (const [, m] of [...methods].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const rows = rowsOf[m];
    if (rows.length === 0) continue;
    const sized = rows.filter((i) => {
      const k = sizeAt[t.kind(i)];
      const q = k < 0 ? undefined : t.parameter(i, k);
      return typeof q === "number" && Number.isFinite(q);
    });
    if (sized.length > 0) scaling.push(sizeScaling(t, sized, sizeAt, modeAt, settings));
    else
      for (const rs of groupMembers(t, rows)) {
        members.push(rs);
        methodOfGroup.push(m);
      }
  }
  const kept = largestGroups(t, members, methodOfGroup, settings.maxGroups);
  return { scaling, groups: kept.map((rs) => groupStats(t, rs)), groupsOmitted: members.length - kept.length };
}

/**
 * `max` groups (record rows), in their given order: first the largest group (by total wall time;
 * ties: the earlier) of each method while room is left, so that no method vanishes, then the
 * largest of the others. Why a bound: a parameter that differs from call to call (an iteration or
 * a time) makes a group of every record, and a summary of each would outgrow the run's other
 * outputs.
 */
function largestGroups(t: RecordTable, groups: number[][], methodOf: readonly number[], max: number): number[][] {
  if (groups.length <= max) return groups;
  const total = Float64Array.from(groups, (rs) => {
    let sum = 0;
    for (const i of rs) sum += t.wallTime(i);
    return sum;
  });
  const order = largestFirst(total);
  const keep = new Uint8Array(groups.length);
  const seen = new Set<number>();
  let kept = 0;
  for (const g of order) {
    if (kept === max) break;
    if (seen.has(methodOf[g])) continue;
    seen.add(methodOf[g]);
    keep[g] = 1;
    kept++;
  }
  for (const g of order) {
    if (kept === max) break;
    if (keep[g] === 0) {
      keep[g] = 1;
      kept++;
    }
  }
  return groups.filter((_, g) => keep[g] === 1);
}

/** The rows of each method, in record order (two passes: count, then fill). */
function rowsByMethod(t: RecordTable, methodOf: Int32Array, methods: number): Int32Array[] {
  const n = t.count;
  const counts = new Int32Array(methods);
  for (let i = 0; i < n; i++) counts[methodOf[t.kind(i)]]++;
  const rows = Array.from(counts, (c) => new Int32Array(c));
  const fill = new Int32Array(methods);
  for (let i = 0; i < n; i++) {
    const m = methodOf[t.kind(i)];
    rows[m][fill[m]++] = i;
  }
  return rows;
}

/** Adds one record to the group `key` of `map`. */
function addTo(map: Map<number, ModeAcc>, key: number, modes: number, q: number, wallTime: number, mode: number | undefined): void {
  let acc = map.get(key);
  if (!acc) map.set(key, (acc = new ModeAcc(modes)));
  acc.all.add(wallTime);
  acc.size.add(q);
  if (mode !== undefined) acc.byMode[mode].add(wallTime);
}

/** The size scaling of one method's `rows` (those with a size); `sizeAt` and `modeAt` give per kind the index of its size and mode parameters (-1: none). */
function sizeScaling(t: RecordTable, rows: Int32Array, sizeAt: Int32Array, modeAt: Int32Array, settings: RecordEvidenceSettings): SizeScaling {
  const { sizeParameter: sizeParam, binsPerDecade } = settings;
  const modeOf = (i: number): string => {
    const k = modeAt[t.kind(i)];
    return String((k < 0 ? undefined : t.parameter(i, k)) ?? "");
  };
  const seen = new Set<string>();
  for (const i of rows) seen.add(modeOf(i));
  const modes = [...seen].filter((m) => m !== "").sort();
  const modeIndex = new Map(modes.map((m, i) => [m, i]));
  const baseline = settings.baselineMode !== undefined && modes.includes(settings.baselineMode) ? settings.baselineMode : modes[0];
  // One pass over the records (why: a 256-rank run has over a million of them).
  const byBin = new Map<number, ModeAcc>();
  const bySize = new Map<number, ModeAcc>();
  // Sizes of 0 and below have no logarithm: their bin sorts before every other.
  const binOf = (q: number): number => (q > 0 ? Math.floor(Math.log10(q) * binsPerDecade) : NON_POSITIVE_BIN);
  for (const i of rows) {
    const q = t.parameter(i, sizeAt[t.kind(i)]) as number;
    const b = binOf(q);
    const m = modeIndex.get(modeOf(i));
    const wallTime = t.wallTime(i);
    addTo(byBin, b, modes.length, q, wallTime, m);
    addTo(bySize, q, modes.length, q, wallTime, m);
  }
  let smallest = Infinity;
  for (const q of bySize.keys()) if (q < smallest) smallest = q;
  // Squared deviations from each size's own mean, summed per bin: the scatter at a fixed size.
  const within = new Map<number, number>();
  for (const [q, acc] of bySize) {
    const x = acc.all.stats();
    within.set(binOf(q), (within.get(binOf(q)) ?? 0) + x.count * x.std * x.std);
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
      const scatter = Math.sqrt((within.get(b) ?? 0) / acc.all.n);
      const [lo, hi] = b === NON_POSITIVE_BIN ? [smallest, 0] : [10 ** (b / binsPerDecade), 10 ** ((b + 1) / binsPerDecade)];
      return { lo, hi, meanSize: acc.size.stats().mean, time: acc.all.stats(), scatter, modes: per, ratios };
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
  const first = t.kinds[t.kind(rows[0])];
  return {
    component: first.component,
    method: first.method,
    parameter: sizeParam,
    records: rows.length,
    modes,
    baseline,
    bins,
    points,
    linear: linearFit(points.map((p) => p.size), points.map((p) => p.mean)),
    powerLaw: linearFit(positive.map((p) => Math.log(p.size)), positive.map((p) => Math.log(p.mean))),
    stdLinear: linearFit(spread.map((p) => p.size), spread.map((p) => p.std)),
    stdTrend: spearman(spread.map((p) => p.size), spread.map((p) => p.std)),
  };
}

/** A trie node of parameter values: records whose values lead to the same node form a group. */
class ValueNode {
  readonly next = new Map<number | string | null, ValueNode>();
  group = -1;
}

/**
 * A parameter value as the group key sees it: every non-finite number (and undefined) is `null`,
 * and -0 is 0 (as it is for a Map); so two records group together when the JSON texts of their
 * parameter values are equal.
 */
function keyValue(v: number | string | undefined): number | string | null {
  return typeof v === "number" ? (v - v === 0 ? v : null) : v === undefined ? null : v;
}

/** The groups of one method's records, as rows, in the order of the JSON keys that name them. */
function groupMembers(t: RecordTable, rows: Int32Array): number[][] {
  // Per kind: its parameter names sorted (each once, holding its last value) and where they are.
  // Kinds with the same names share the root of their values' trie, so the groups are those of
  // the records' sorted (name, value) lists, as the JSON key that names each group says.
  const roots = new Map<string, ValueNode>();
  const layout = t.kinds.map((k) => {
    const last = nameSlots(k.parameterNames);
    const names = [...last.keys()].sort();
    const signature = JSON.stringify(names);
    const root = roots.get(signature) ?? roots.set(signature, new ValueNode()).get(signature)!;
    return { names, at: Int32Array.from(names, (name) => last.get(name)!), root };
  });
  const members: number[][] = [];
  for (const i of rows) {
    const l = layout[t.kind(i)];
    let node = l.root;
    for (let j = 0; j < l.at.length; j++) {
      const v = keyValue(t.parameter(i, l.at[j]));
      let next = node.next.get(v);
      if (!next) node.next.set(v, (next = new ValueNode()));
      node = next;
    }
    if (node.group < 0) node.group = members.push([]) - 1;
    members[node.group].push(i);
  }
  const keyed = members.map((rs) => {
    const l = layout[t.kind(rs[0])];
    return { rs, key: JSON.stringify(l.names.map((name, j) => [name, t.parameter(rs[0], l.at[j])])) };
  });
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(({ rs }) => rs);
}

/** Statistics of one group of records (rows). */
function groupStats(t: RecordTable, rs: readonly number[]): RecordGroup {
  // Float64Array sorts numerically without a comparator call per pair.
  const wall = rowValues(rs, (i) => t.wallTime(i)).sort();
  const perRank = new Map<number, number[]>();
  for (const i of rs) {
    const rank = t.rank(i);
    (perRank.get(rank) ?? perRank.set(rank, []).get(rank)!).push(t.wallTime(i));
  }
  const byRank = [...perRank.keys()]
    .sort((a, b) => a - b)
    .map((rank) => {
      const xs = Float64Array.from(perRank.get(rank)!).sort();
      return { rank, median: median(xs), ...stats(xs) };
    });
  const first = recordAt(t, rs[0]);
  return {
    component: first.component,
    method: first.method,
    parameters: first.parameters,
    count: rs.length,
    wall: { ...stats(wall), median: median(wall), min: wall[0], max: wall[wall.length - 1] },
    mpi: stats(rowValues(rs, (i) => t.mpiTime(i))),
    byRank,
  };
}

/** `get` of each row, in order. Why a loop: `Float64Array.from` with a map function took twice as long on a million rows. */
function rowValues(rows: readonly number[], get: (i: number) => number): Float64Array {
  const out = new Float64Array(rows.length);
  for (let j = 0; j < rows.length; j++) out[j] = get(rows[j]);
  return out;
}
