import type { InvocationRecord } from "../../profile/index.js";
import { detached, SharedNames } from "../../profile/internal.js";

/** A record flattened for charts: its group, Q, mode, level, and times in microseconds. */
export interface RecordPoint {
  readonly routine: string;
  readonly q: number;
  readonly mode: string;
  readonly level?: number;
  readonly wallTime: number;
  readonly mpiTime: number;
  readonly computeTime: number;
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

/** Records whose parameters {@link recordRoles} looks at: the first this many. */
const ROLE_SAMPLE = 5000;

/** Chooses which record parameters play the roles Q, mode and level, from the first {@link ROLE_SAMPLE} records. */
export function recordRoles(records: readonly InvocationRecord[]): RecordRoles {
  const numeric = new Set<string>();
  const text = new Set<string>();
  for (const r of records.slice(0, ROLE_SAMPLE)) {
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
  return digestRecords(records, roles).points;
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
  return digestRecords(records, { level: levelName }).levelPoints;
}

/** What a run report keeps of its records (see {@link RecordDigester}). */
export interface RecordDigest {
  /** Records seen. */
  readonly count: number;
  /** The parameters read as Q, mode and level. */
  readonly roles: RecordRoles;
  /** The records with a numeric Q ({@link recordPoints}). */
  readonly points: RecordPoint[];
  /** The records with a numeric level ({@link levelPoints}; the level parameter is `roles.level`, else "level"). */
  readonly levelPoints: LevelPoint[];
}

/**
 * Turns records, handed over one at a time, into the points a run report charts, keeping none of
 * the records: a run's millions of records can be streamed from their file
 * (`forEachRecord`) in the memory of their points. The first {@link ROLE_SAMPLE} records wait
 * until they decide the roles (unless given), as {@link recordRoles} would from an array; then
 * every record becomes its points. Routine and mode names are shared by the points that have
 * them.
 */
export class RecordDigester {
  private count = 0;
  private roles: RecordRoles | undefined;
  private readonly pending: InvocationRecord[] = [];
  private readonly points: RecordPoint[] = [];
  private readonly levels: LevelPoint[] = [];
  /** Invocations so far per routine, level and rank (the level points' numbering). */
  private readonly invocations = new Map<string, number>();
  /** Routine names by component, then method. */
  private readonly routines = new Map<string, Map<string, string>>();
  private readonly modes = new SharedNames();

  /** @param roles - the roles, when known beforehand (else chosen from the first records) */
  constructor(roles?: RecordRoles) {
    this.roles = roles;
  }

  /** Takes one record (in file order: the level points are numbered in it). */
  add(record: InvocationRecord): void {
    this.count++;
    if (this.roles === undefined) {
      this.pending.push(record);
      if (this.pending.length >= ROLE_SAMPLE) this.decideRoles();
      return;
    }
    this.flatten(record, this.roles);
  }

  /** The digest of every record added. */
  finish(): RecordDigest {
    if (this.roles === undefined) this.decideRoles();
    return { count: this.count, roles: this.roles!, points: this.points, levelPoints: this.levels };
  }

  private decideRoles(): void {
    const roles = recordRoles(this.pending);
    this.roles = roles;
    for (const r of this.pending) this.flatten(r, roles);
    this.pending.length = 0;
  }

  private flatten(r: InvocationRecord, roles: RecordRoles): void {
    const q = roles.q === undefined ? undefined : r.parameters[roles.q];
    const lv = r.parameters[roles.level ?? "level"];
    const hasQ = typeof q === "number" && q > 0;
    if (!hasQ && typeof lv !== "number") return;
    const routine = this.routine(r.component, r.method);
    if (hasQ) {
      this.points.push({
        routine,
        q,
        mode: roles.mode ? this.modes.get(String(r.parameters[roles.mode] ?? "")) : "",
        level: roles.level !== undefined && typeof lv === "number" ? lv : undefined,
        wallTime: r.wallTime,
        mpiTime: r.mpiTime,
        computeTime: r.computeTime,
      });
    }
    if (typeof lv === "number") {
      const key = `${routine}\u0000${lv}\u0000${r.rank}`;
      const n = this.invocations.get(key) ?? 0;
      this.invocations.set(key, n + 1);
      this.levels.push({ routine, level: lv, invocation: n, rank: r.rank, wallTime: r.wallTime, mpiTime: r.mpiTime });
    }
  }

  private routine(component: string, method: string): string {
    let byMethod = this.routines.get(component);
    if (byMethod === undefined) this.routines.set(detached(component), (byMethod = new Map()));
    let name = byMethod.get(method);
    if (name === undefined) byMethod.set(detached(method), (name = detached(`${component}.${method}`)));
    return name;
  }
}

/** {@link RecordDigester} over an array or any other sequence of records. */
export function digestRecords(records: Iterable<InvocationRecord>, roles?: RecordRoles): RecordDigest {
  const d = new RecordDigester(roles);
  for (const r of records) d.add(r);
  return d.finish();
}

/**
 * Keeps at most `max` points, evenly spaced in a fixed order (deterministic), so a page of a large
 * run stays small: of `n > max` points, the `floor(i * n / max)`-th for `i < max`.
 */
export function thin<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  const out: T[] = [];
  // (i * n) / max, not i * (n / max): the product of integers is exact, so the floor is the
  // integer one (a rounded step can land a hair below an integer and keep the row before it).
  for (let i = 0; i < max; i++) out.push(points[Math.floor((i * points.length) / max)]);
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

