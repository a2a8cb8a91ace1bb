import { baseUnitOf, parseQuantity, unitInWorkloadValue, type KeyPath } from "../lang/index.js";
import type { Dimension } from "../../engine/params.js";
import { RandomStream } from "../../engine/random.js";
import type { AxisSpec, AxisValue, Distribution, SweepConfig } from "./sweep-schema.js";
import { decimalValue } from "../../profile/internal.js";
import { MACHINE_PARAMS } from "../../machine/index.js";
import { axisValueText, canonicalValue } from "./points.js";

/** One factor of the design: named keys and the rows of values they take together. */
export interface Factor {
  readonly keys: readonly string[];
  readonly rows: readonly (readonly AxisValue[])[];
}

/** Reports a located problem of the sweep file and never returns. */
export type SweepFail = (path: KeyPath, message: string) => never;

const DIMENSIONS: readonly Dimension[] = ["bytes", "time", "frequency", "bandwidth", "power", "count", "ratio"];

/** A bound read as a number in base units, with the dimension its unit names (undefined for a bare number). */
interface Bound {
  readonly value: number;
  readonly dimension?: Dimension;
}

function readBound(v: number | string, path: KeyPath, fail: SweepFail): Bound {
  const bound = quantityOf(v) ?? fail(path, `cannot read '${v}' as a number or a quantity with a unit (for example 128KiB, 2.8GHz, 30us)`);
  // A generated value is a bare number of bytes, which the scenario takes as written: a decimal
  // prefix on a size that counts in powers of two (a cache's) is refused here, as in the scenario.
  if (bound.dimension === "bytes" && typeof v === "string" && binaryAxis(path)) {
    try {
      parseQuantity(v.trim(), "bytes", undefined, { binaryUnits: true });
    } catch (e) {
      fail(path, (e as Error).message);
    }
  }
  return bound;
}

/**
 * Refuses a range's or a distribution's bound with a unit on a `workload.*` key, at the bound,
 * saying what to write: expressions read a workload variable as a plain number, and the values
 * would drop the unit (a size's bytes) or keep a base unit no expression reads (`1000us`). (A
 * value an axis lists is set as written, as `--set` sets it: its point's load refuses a quantity
 * an expression reads, with the same advice.)
 * @throws via `fail`
 */
function checkWorkloadBound(v: unknown, path: KeyPath, fail: SweepFail): void {
  if (!path.some((k) => typeof k === "string" && k.startsWith("workload."))) return;
  const advice = unitInWorkloadValue(v);
  if (advice !== undefined) fail(path, advice);
}

/** Whether a sweep key path names a machine parameter whose sizes count in powers of two (`axes`, `machine.l2.size`, ...). */
function binaryAxis(path: KeyPath): boolean {
  const key = path.find((k): k is string => typeof k === "string" && k.startsWith("machine."));
  return key !== undefined && MACHINE_PARAMS.some((p) => p.binaryUnits === true && p.name === key.slice("machine.".length));
}

/** A number, or a text holding a plain number or a quantity with a unit, read in base units; else undefined. */
function quantityOf(v: number | string): Bound | undefined {
  if (typeof v === "number") return { value: v };
  const text = v.trim();
  const plain = decimalValue(text);
  if (plain === plain) return { value: plain };
  for (const d of DIMENSIONS) {
    try {
      return { value: parseQuantity(text, d, undefined, { allowNegative: true }), dimension: d };
    } catch {
      /* not this dimension: try the next */
    }
  }
  return undefined;
}

/**
 * An axis value as a number in base units (`1MiB` -> 1048576, `2.5GHz` -> 2.5e9, `100ns` -> 0.1
 * microseconds), as the study stores it beside the text; null for text that is no quantity (a
 * mode, an implementation name). A boolean reads as 1 or 0.
 */
export function axisNumber(v: AxisValue): number | null {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "object") return null;
  const q = quantityOf(v);
  return q !== undefined && Number.isFinite(q.value) ? q.value : null;
}

/** Renders a generated number: bare for bytes/count/ratio, with the base unit otherwise. */
function generated(value: number, dimension: Dimension | undefined): AxisValue {
  const n = Number(value.toPrecision(12)); // why: strip float noise (0.1+0.2) so canonical points and seeds are stable
  if (!dimension || dimension === "bytes" || dimension === "count" || dimension === "ratio") return n;
  return `${n}${baseUnitOf(dimension)}`;
}

function sameDimension(a: Bound, b: Bound, path: KeyPath, fail: SweepFail): Dimension | undefined {
  if (a.dimension && b.dimension && a.dimension !== b.dimension) fail(path, `the bounds are of different kinds (${a.dimension} and ${b.dimension})`);
  return a.dimension ?? b.dimension;
}

/**
 * Expands one axis into its values (lists as given; ranges to numbers in base units; with
 * `integer: true`, a range's values rounded to integers, repeats dropped).
 * @throws via `fail` for an empty, endless or ill-formed range
 */
export function expandAxis(spec: AxisSpec, path: KeyPath, fail: SweepFail): AxisValue[] {
  if (Array.isArray(spec)) {
    const values = [...(spec as AxisValue[])];
    checkListedSizes(values, path, fail);
    const earlier = earlierRepeats(values.map((v) => [v]));
    earlier.forEach((j, i) => {
      if (j >= 0) fail([...path, i], `${axisValueText(values[i])} repeats item ${j} (${axisValueText(values[j])}): both would be the same run; for repeated runs set 'replications:'`);
    });
    return values;
  }
  const values = rangeValues(spec, path, fail);
  if ((spec as { integer?: unknown }).integer !== true) return values;
  // Why: an element count, a rank count or a size in bytes takes whole values; a log range's
  // 2154.43469 would be rounded where it is used while its records kept the fraction.
  const rounded: AxisValue[] = [];
  for (const v of values) {
    if (typeof v !== "number") fail([...path, "integer"], `integer applies to counts and sizes in bytes, not to ${String(v)}`);
    const n = Math.round(v as number);
    if (!rounded.includes(n)) rounded.push(n);
  }
  return rounded;
}

/** Refuses a decimal prefix on a listed size that counts in powers of two, as {@link readBound} does a range's bound. */
function checkListedSizes(values: readonly AxisValue[], path: KeyPath, fail: SweepFail): void {
  values.forEach((v, i) => void (typeof v === "string" && quantityOf(v)?.dimension === "bytes" && readBound(v, [...path, i], fail)));
}

/**
 * For each row, the index of the first earlier row that sets its keys alike, or -1. Values are
 * alike when equal, or quantities equal in base units (`512KiB`, `524288` and `0.5MiB`; `1e3` and
 * `1000`; `2us` and `2000ns`) of one dimension or a bare number, which a key reads in its base
 * unit. Rows are grouped by the text of their values in base units first, and compared only
 * within a group. Why: comparing every pair took seconds for a random design of 20 000 draws.
 */
function earlierRepeats(rows: readonly (readonly AxisValue[])[]): number[] {
  const read = rows.map((row) => row.map(readAxisValue));
  const groups = new Map<string, number[]>();
  return read.map((row, i) => {
    const key = row.map((v) => v.key).join("\u0000");
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, [i]);
      return -1;
    }
    const j = group.find((g) => read[g]!.every((v, c) => v.dimension === row[c]!.dimension || v.dimension === undefined || row[c]!.dimension === undefined));
    if (j !== undefined) return j;
    group.push(i);
    return -1;
  });
}

/** An axis value as {@link earlierRepeats} compares it: a text of its value in base units, and its dimension. */
function readAxisValue(v: AxisValue): { key: string; dimension?: string } {
  if (typeof v === "boolean") return { key: `b${v}` };
  // A list or map: alike when equal item for item (maps in any key order).
  if (typeof v === "object") return { key: `j${JSON.stringify(canonicalValue(v))}` };
  const q = quantityOf(v);
  return q === undefined ? { key: `t${String(v)}` } : { key: `q${q.value}`, dimension: q.dimension };
}

/** The values of a range axis (numbers in base units). */
function rangeValues(spec: AxisSpec, path: KeyPath, fail: SweepFail): AxisValue[] {
  const r = spec as unknown as Record<string, unknown>;
  for (const end of ["from", "to", "step"]) checkWorkloadBound(r[end], [...path, end], fail);
  const from = readBound(r.from as number | string, [...path, "from"], fail);
  const to = readBound(r.to as number | string, [...path, "to"], fail);
  const dim = sameDimension(from, to, path, fail);
  const out: AxisValue[] = [];
  const limit = 1_000_000;
  if ("step" in r) {
    const step = readBound(r.step as number | string, [...path, "step"], fail);
    if (!(step.value > 0)) fail([...path, "step"], "the step must be positive");
    if (to.value < from.value) fail([...path, "to"], "'to' is smaller than 'from'");
    const n = Math.floor((to.value - from.value) / step.value + 1e-9) + 1;
    if (n > limit) fail(path, `the range has ${n} values (at most ${limit})`);
    for (let i = 0; i < n; i++) out.push(generated(from.value + i * step.value, dim));
    return out;
  }
  if (!(from.value > 0 && to.value > 0)) fail(path, "a geometric range needs positive bounds");
  if (r.factor !== undefined) {
    const f = r.factor as number;
    if (!(f > 1)) fail([...path, "factor"], "the factor must be greater than 1");
    // why the tolerance: the loop below takes a 'to' within float noise of a product as reached
    if (to.value * (1 + 1e-9) < from.value) fail([...path, "to"], "'to' is smaller than 'from': a range with a factor grows from 'from' to 'to'");
    for (let v = from.value; v <= to.value * (1 + 1e-9); v *= f) {
      out.push(generated(v, dim));
      if (out.length > limit) fail(path, `the range has more than ${limit} values`);
    }
    return out;
  }
  if (r.points !== undefined) {
    if (r.log !== true) fail(path, "a range with 'points' needs 'log: true' (or use 'step' for an arithmetic range)");
    const n = r.points as number;
    const a = Math.log(from.value);
    const b = Math.log(to.value);
    for (let i = 0; i < n; i++) out.push(generated(i === n - 1 ? to.value : Math.exp(a + ((b - a) * i) / (n - 1)), dim));
    return out;
  }
  return fail(path, "a range needs 'step', 'factor', or 'points' with 'log: true'");
}

/** Draws one value of a distribution from a seeded stream. */
function draw(d: Distribution, rng: RandomStream, path: KeyPath, fail: SweepFail): AxisValue {
  if ("choice" in d) return d.choice[Math.min(d.choice.length - 1, Math.floor(rng.next() * d.choice.length))];
  const log = "loguniform" in d;
  const [lo, hi] = (log ? d.loguniform : d.uniform) as readonly [number | string, number | string];
  [lo, hi].forEach((v, i) => checkWorkloadBound(v, [...path, log ? "loguniform" : "uniform", i], fail));
  const a = readBound(lo, [...path, log ? "loguniform" : "uniform", 0], fail);
  const b = readBound(hi, [...path, log ? "loguniform" : "uniform", 1], fail);
  const dim = sameDimension(a, b, path, fail);
  if (!(b.value >= a.value)) fail(path, "the upper bound is smaller than the lower bound");
  if (log && !(a.value > 0)) fail(path, "a log-uniform distribution needs positive bounds");
  const u = rng.next();
  let v = log ? Math.exp(Math.log(a.value) + u * (Math.log(b.value) - Math.log(a.value))) : a.value + u * (b.value - a.value);
  if (d.integer) v = Math.min(Math.floor(b.value), Math.max(Math.ceil(a.value), Math.round(v)));
  return generated(v, dim);
}

/**
 * The factors of a sweep: one per full-factorial axis, one per zip group, one for the random
 * design (its samples drawn from a stream seeded by the study seed, so they are the same every time).
 * @param attempt - runs each axis's expansion and each zip group's checks (a caller that reports
 *   every axis's problem at once collects what it throws)
 * @throws via `fail` when a key appears twice, zipped lists differ in length, a list repeats a
 *   value (a zip group or the random design a row), or a range is ill-formed
 */
export function sweepFactors(config: SweepConfig, fail: SweepFail, attempt: (check: () => void) => void = (check) => check()): Factor[] {
  const seen = new Map<string, string>();
  const claim = (key: string, where: KeyPath, what: string) => {
    const before = seen.get(key);
    if (before) fail(where, `'${key}' is swept twice (also in ${before})`);
    seen.set(key, what);
  };
  const factors: Factor[] = [];
  for (const [key, spec] of Object.entries(config.axes)) {
    claim(key, ["axes", key], "axes");
    attempt(() => void factors.push({ keys: [key], rows: expandAxis(spec, ["axes", key], fail).map((v) => [v]) }));
  }
  config.zip.forEach((group, g) => attempt(() => {
    const keys = Object.keys(group);
    if (keys.length === 0) fail(["zip", g], "a zip group needs at least one key");
    const n = group[keys[0]].length;
    for (const k of keys) {
      claim(k, ["zip", g, k], `zip[${g}]`);
      if (group[k].length !== n) fail(["zip", g, k], `zipped lists must have one length: '${keys[0]}' has ${n} values, '${k}' has ${group[k].length}`);
      checkListedSizes(group[k], ["zip", g, k], fail);
    }
    const rows = Array.from({ length: n }, (_, i) => keys.map((k) => group[k][i]));
    earlierRepeats(rows).forEach((j, i) => {
      if (j >= 0) fail(["zip", g, keys[0], i], `zipped row ${i} (${rows[i].map(axisValueText).join(", ")}) repeats row ${j}: both would be the same run; for repeated runs set 'replications:'`);
    });
    factors.push({ keys, rows });
  }));
  if (config.random) {
    const keys = Object.keys(config.random.axes);
    for (const k of keys) claim(k, ["random", "axes", k], "random");
    const rng = new RandomStream(config.seed, "sweep random design");
    const rows: AxisValue[][] = [];
    for (let i = 0; i < config.random.n; i++) rows.push(keys.map((k) => draw(config.random!.axes[k], rng, ["random", "axes", k], fail)));
    const repeats = earlierRepeats(rows).filter((j) => j >= 0).length;
    if (repeats > 0)
      fail(
        ["random", "n"],
        `${repeats} of the ${rows.length} draws repeat an earlier one (whole numbers or choices over few values), and a repeat would be the same run: lower n, widen the distributions, or set 'replications:' for repeated runs`,
      );
    factors.push({ keys, rows });
  }
  for (const k of Object.keys(config.set)) if (seen.has(k)) fail(["set", k], `'${k}' is both fixed in 'set' and swept in ${seen.get(k)}`);
  return factors;
}
