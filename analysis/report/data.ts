import type { InvocationRecord } from "../../profile/index.js";

/** A record flattened for charts: its group, Q, mode, level, and times in microseconds. */
export interface RecordPoint {
  readonly routine: string;
  readonly q: number;
  readonly mode: string;
  readonly level?: number;
  readonly wallTime: number;
  readonly mpiTime: number;
  readonly computeTime: number;
  readonly counters: Readonly<Record<string, number>>;
}

/** Names of the parameters the report reads (the papers' shock/AMR proxies: Q, mode, level). */
export interface RecordRoles {
  /** Numeric parameter used as Q ("Q" when present, else the first numeric parameter). */
  readonly q?: string;
  /** String parameter used as the mode ("mode" when present, else the first string parameter). */
  readonly mode?: string;
  /** Numeric parameter used as the AMR level ("level" when present). */
  readonly level?: string;
}

/** Chooses which record parameters play the roles Q, mode and level. */
export function recordRoles(records: readonly InvocationRecord[]): RecordRoles {
  const numeric = new Set<string>();
  const text = new Set<string>();
  for (const r of records.slice(0, 5000)) {
    for (const [k, v] of Object.entries(r.parameters)) {
      if (typeof v === "number") numeric.add(k);
      else text.add(k);
    }
  }
  const q = numeric.has("Q") ? "Q" : [...numeric].find((k) => k !== "level" && k !== "mode");
  const mode = text.has("mode") || numeric.has("mode") ? "mode" : [...text][0];
  const level = numeric.has("level") ? "level" : undefined;
  return { q, mode, level };
}

/** Records with a numeric Q, flattened (records without Q are left out). */
export function recordPoints(records: readonly InvocationRecord[], roles: RecordRoles): RecordPoint[] {
  if (!roles.q) return [];
  const out: RecordPoint[] = [];
  for (const r of records) {
    const q = r.parameters[roles.q];
    if (typeof q !== "number" || !(q > 0)) continue;
    const lv = roles.level ? r.parameters[roles.level] : undefined;
    out.push({
      routine: `${r.component}.${r.method}`,
      q,
      mode: roles.mode ? String(r.parameters[roles.mode] ?? "") : "",
      level: typeof lv === "number" ? lv : undefined,
      wallTime: r.wallTime,
      mpiTime: r.mpiTime,
      computeTime: r.computeTime,
      counters: r.counters,
    });
  }
  return out;
}

/**
 * Keeps at most `max` points, evenly spaced in a fixed order (deterministic), so a page of a large
 * run stays small.
 */
export function thin<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  const out: T[] = [];
  const step = points.length / max;
  for (let i = 0; i < max; i++) out.push(points[Math.floor(i * step)]);
  return out;
}

/** Mean of `value` per key. */
export function meanBy<T>(items: readonly T[], key: (t: T) => string, value: (t: T) => number): Map<string, { n: number; mean: number }> {
  const acc = new Map<string, { n: number; sum: number }>();
  for (const it of items) {
    const k = key(it);
    const a = acc.get(k) ?? { n: 0, sum: 0 };
    a.n++;
    a.sum += value(it);
    acc.set(k, a);
  }
  return new Map([...acc].map(([k, a]) => [k, { n: a.n, mean: a.sum / a.n }]));
}

/** A record of a level-tagged routine (AMR ghost-cell updates): its level and times. */
export interface LevelPoint {
  readonly routine: string;
  readonly level: number;
  /** 0-based invocation number within its routine, level and rank. */
  readonly invocation: number;
  readonly rank: number;
  readonly wallTime: number;
  readonly mpiTime: number;
}

/** Records that carry a numeric `level` parameter, numbered per routine, level and rank. */
export function levelPoints(records: readonly InvocationRecord[], levelName = "level"): LevelPoint[] {
  const seen = new Map<string, number>();
  const out: LevelPoint[] = [];
  for (const r of records) {
    const lv = r.parameters[levelName];
    if (typeof lv !== "number") continue;
    const routine = `${r.component}.${r.method}`;
    const key = `${routine}\u0000${lv}\u0000${r.rank}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    out.push({ routine, level: lv, invocation: n, rank: r.rank, wallTime: r.wallTime, mpiTime: r.mpiTime });
  }
  return out;
}
