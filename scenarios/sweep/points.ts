import { createHash } from "node:crypto";
import { parse as parseYaml } from "yaml";
import type { AxisValue, SeedMode } from "./sweep-schema.js";
import type { Factor } from "./design.js";

/** One run of a sweep: a combination of axis values and a replication, with its derived seed. */
export interface SweepPoint {
  /** 0-based position in the sweep's enumeration order (`--point K`). */
  readonly index: number;
  /** Stable id: a hash of the canonical point and replication (16 hex digits). */
  readonly id: string;
  /** Axis values by scenario key path, keys sorted. */
  readonly values: Readonly<Record<string, AxisValue>>;
  /** 0-based replication number. */
  readonly replication: number;
  /** Scenario seed of this point, derived from the study seed, the point and the replication (0 <= seed < 2^31). */
  readonly seed: number;
}

/** The canonical text of a point: sorted `[key, value]` pairs and the replication, as JSON (maps with their keys sorted). */
export function canonicalPoint(values: Readonly<Record<string, AxisValue>>, replication: number): string {
  const pairs = Object.keys(values)
    .sort()
    .map((k) => [k, canonicalValue(values[k])]);
  return JSON.stringify({ point: pairs, replication });
}

/**
 * A value with the keys of every map in it sorted (a number, text or true/false as it is): two
 * maps written in other orders set a key alike, and are one point.
 */
export function canonicalValue(v: AxisValue): AxisValue {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) return (v as readonly AxisValue[]).map(canonicalValue);
  const map = v as Readonly<Record<string, AxisValue>>;
  return Object.fromEntries(
    Object.keys(map)
      .sort()
      .map((k) => [k, canonicalValue(map[k])]),
  );
}

/**
 * A value as the study stores it (the `value` column of `parameter`) and commands print it: a
 * number, text or true/false as written; a list or map as compact JSON, maps with sorted keys
 * (`["TIME","PAPI_L2_TCM"]`), which is YAML too (`--set metrics=["TIME","PAPI_L2_TCM"]` reads it).
 */
export function axisValueText(v: AxisValue): string {
  return typeof v === "object" && v !== null ? JSON.stringify(canonicalValue(v)) : String(v);
}

/** The stable id of a point (the first 16 hex digits of the SHA-256 of its canonical text). */
export function pointId(values: Readonly<Record<string, AxisValue>>, replication: number): string {
  return createHash("sha256").update(canonicalPoint(values, replication)).digest("hex").slice(0, 16);
}

/**
 * The seed of a point: 31 bits of SHA-256(study seed, canonical point). The same point of the same
 * study always gets the same seed, whatever the order or the machine that runs it. With no values
 * it is the seed every point of replication `replication` shares under common random numbers.
 */
export function pointSeed(studySeed: number, values: Readonly<Record<string, AxisValue>>, replication: number): number {
  const h = createHash("sha256").update(`${studySeed}\u0000${canonicalPoint(values, replication)}`).digest();
  return h.readUInt32BE(0) & 0x7fffffff;
}

/**
 * Enumerates the full-factorial product of the factors (the last factor varies fastest), each
 * combination repeated `replications` times (replication innermost). With `seeds` `common`, the
 * points of a replication share one seed (`pointSeed` of no values); with `per-point`, each point
 * has its own.
 */
export function enumeratePoints(factors: readonly Factor[], replications: number, studySeed: number, seeds: SeedMode): SweepPoint[] {
  const common = Array.from({ length: replications }, (_, r) => pointSeed(studySeed, {}, r));
  const points: SweepPoint[] = [];
  const sizes = factors.map((f) => f.rows.length);
  const total = sizes.reduce((a, b) => a * b, 1);
  const pick = new Array<number>(factors.length).fill(0);
  for (let c = 0; c < total; c++) {
    let rest = c;
    for (let f = factors.length - 1; f >= 0; f--) {
      pick[f] = rest % sizes[f];
      rest = Math.floor(rest / sizes[f]);
    }
    const unsorted: Record<string, AxisValue> = {};
    factors.forEach((f, i) => f.keys.forEach((k, j) => (unsorted[k] = f.rows[pick[i]][j])));
    const values: Record<string, AxisValue> = {};
    for (const k of Object.keys(unsorted).sort()) values[k] = unsorted[k];
    for (let r = 0; r < replications; r++) {
      points.push({ index: points.length, id: pointId(values, r), values, replication: r, seed: seeds === "common" ? common[r] : pointSeed(studySeed, values, r) });
    }
  }
  return points;
}

/** `--set` texts of a point (fixed overrides first, then the axis values). */
export function pointOverrides(fixed: Readonly<Record<string, AxisValue>>, point: SweepPoint): string[] {
  return pointOverrideEntries(fixed, point).map(([k, text]) => `${k}=${text}`);
}

/** The key and the `--set` value text of each override of a point, in {@link pointOverrides}' order. */
export function pointOverrideEntries(fixed: Readonly<Record<string, AxisValue>>, point: SweepPoint): [string, string][] {
  // why: a string that YAML would read as something else ("true", "12") is quoted so it stays a string
  const text = (v: AxisValue) => (typeof v === "string" && safeYaml(v) === v ? v : JSON.stringify(canonicalValue(v)));
  return [...Object.entries(fixed), ...Object.entries(point.values)].map(([k, v]) => [k, text(v)]);
}

function safeYaml(v: string): unknown {
  try {
    return parseYaml(v);
  } catch {
    return undefined;
  }
}
