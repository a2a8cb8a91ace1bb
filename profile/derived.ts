/**
 * Per-thread and derived (across-thread) views of a trial's timer values, as ParaProf's
 * "mean", "total", "min", "max" and "std. dev." threads.
 */
import { ProfileModelError } from "./errors.js";
import type { Trial } from "./model.js";
import { populationStddev } from "./spread.js";

/** Statistics across threads, as ParaProf's derived threads. */
export type DerivedKind = "mean" | "min" | "max" | "total" | "stddev";

/** Every {@link DerivedKind}. */
export const DERIVED_KINDS: readonly DerivedKind[] = ["mean", "min", "max", "total", "stddev"];

/**
 * One row of values per timer: a real thread or a derived one. Arrays are indexed by timer
 * (`exclusive[metric][timer]`).
 */
export interface ProfileView {
  /** `"n,c,t"` for a thread, or the derived kind (`"mean"`). */
  readonly label: string;
  /** 1 when the timer exists in this view (for derived views: on at least one thread). */
  readonly present: Uint8Array;
  readonly calls: Float64Array;
  readonly subroutines: Float64Array;
  readonly exclusive: readonly Float64Array[];
  readonly inclusive: readonly Float64Array[];
}

/** Options of {@link derivedView}. */
export interface DerivedOptions {
  /**
   * When true (the default, as ParaProf's default `meanIncludeNulls`), mean and stddev divide by
   * the number of all threads, counting a thread without the timer as zero. When false they divide
   * by the number of threads that recorded the timer. Min and max always consider only the threads
   * that recorded the timer (0 when none did), and total is the plain sum.
   */
  readonly includeMissing?: boolean;
}

/** The values of one thread, as views into the trial's arrays (no copy). */
export function threadView(trial: Trial, thread: number): ProfileView {
  if (!(thread >= 0 && thread < trial.threads.length)) throw new ProfileModelError(`no thread ${thread}; the trial has ${trial.threads.length}`);
  const n = trial.timers.length;
  const a = thread * n;
  const b = a + n;
  const v = trial.values;
  return {
    label: trial.threadLabel(thread),
    present: v.present.subarray(a, b),
    calls: v.calls.subarray(a, b),
    subroutines: v.subroutines.subarray(a, b),
    exclusive: v.exclusive.map((x) => x.subarray(a, b)),
    inclusive: v.inclusive.map((x) => x.subarray(a, b)),
  };
}

/**
 * A derived thread: mean, min, max, total or standard deviation across threads, for calls,
 * subroutines and every metric's exclusive and inclusive values. Standard deviation is the
 * population form, `sqrt(sum((x - mean)^2)/n)`, ParaProf's definition (which ParaProf computes
 * as `sqrt(|sum(x^2)/n - mean^2|)`, a form that cancels for long timers).
 */
export function derivedView(trial: Trial, kind: DerivedKind, options: DerivedOptions = {}): ProfileView {
  const includeMissing = options.includeMissing ?? true;
  const nT = trial.timers.length;
  const nTh = trial.threads.length;
  const v = trial.values;
  const count = threadsWith(v.present, nTh, nT);
  const present = new Uint8Array(nT);
  for (let t = 0; t < nT; t++) present[t] = count[t] > 0 ? 1 : 0;
  const reduce = (src: Float64Array): Float64Array => reduceThreads(src, v.present, count, nTh, kind, includeMissing);
  return {
    label: kind,
    present,
    calls: reduce(v.calls),
    subroutines: reduce(v.subroutines),
    exclusive: v.exclusive.map(reduce),
    inclusive: v.inclusive.map(reduce),
  };
}

/**
 * One statistic across threads of every item of a thread-major table (`src[thread * items +
 * item]`, items that a thread has marked in `present`): the `kind` of {@link derivedView}, with
 * its {@link DerivedOptions.includeMissing} (min and max over the threads that have the item, 0
 * when none does). Why apart: TAU XML profiles store the same statistics of every field of the
 * user events (`xml-write.ts`), field by field.
 */
export function acrossThreads(src: Float64Array, present: Uint8Array, nTh: number, items: number, kind: DerivedKind, includeMissing: boolean): Float64Array {
  return reduceThreads(src, present, threadsWith(present, nTh, items), nTh, kind, includeMissing);
}

/** Per item, how many of the `nTh` threads have it in a thread-major `present` table. */
function threadsWith(present: Uint8Array, nTh: number, items: number): Float64Array {
  const count = new Float64Array(items);
  for (let th = 0; th < nTh; th++) {
    const base = th * items;
    for (let t = 0; t < items; t++) if (present[base + t] === 1) count[t]++;
  }
  return count;
}

/** {@link acrossThreads} given the threads that have each item (`count`, from {@link threadsWith}). */
function reduceThreads(src: Float64Array, present: Uint8Array, count: Float64Array, nTh: number, kind: DerivedKind, includeMissing: boolean): Float64Array {
  const items = count.length;
  const out = new Float64Array(items);
  if (kind === "min" || kind === "max") {
    out.fill(kind === "min" ? Infinity : -Infinity);
    for (let th = 0; th < nTh; th++) {
      const base = th * items;
      for (let t = 0; t < items; t++) {
        if (present[base + t] === 0) continue;
        const x = src[base + t];
        if (kind === "min" ? x < out[t] : x > out[t]) out[t] = x;
      }
    }
    for (let t = 0; t < items; t++) if (count[t] === 0) out[t] = 0;
    return out;
  }
  for (let th = 0; th < nTh; th++) {
    const base = th * items;
    for (let t = 0; t < items; t++) out[t] += src[base + t];
  }
  if (kind === "total") return out;
  const divisor = (t: number): number => (includeMissing ? nTh : count[t]);
  for (let t = 0; t < items; t++) out[t] = divisor(t) > 0 ? out[t] / divisor(t) : 0;
  if (kind === "mean") return out;
  // Deviations from the mean, summed in a second pass (corrected for the rounding of the mean,
  // so that equal values give 0). Why not sum(x²)/n − mean²: it cancels for long timers
  // (threads of 1e10 us that differ by 0..3 us gave 0, equal values 1.41). The formula is
  // populationStddev's (spread.ts), taken for every item at once in one pass over the
  // thread-major table: why not call it, it would gather each item's values into an array.
  const squares = new Float64Array(items);
  const deviations = new Float64Array(items);
  for (let th = 0; th < nTh; th++) {
    const base = th * items;
    for (let t = 0; t < items; t++) {
      // A thread without the item counts as 0 when included, else not at all.
      if (present[base + t] === 0 && !includeMissing) continue;
      const d = (present[base + t] === 0 ? 0 : src[base + t]) - out[t];
      deviations[t] += d;
      squares[t] += d * d;
    }
  }
  for (let t = 0; t < items; t++) {
    const n = divisor(t);
    out[t] = n > 1 ? Math.sqrt(Math.max(0, squares[t] - (deviations[t] * deviations[t]) / n) / n) : 0;
  }
  return out;
}

/** Per-event statistics of one thread or a derived thread, indexed by user event. */
export interface UserEventView {
  readonly label: string;
  readonly present: Uint8Array;
  readonly count: Float64Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  readonly mean: Float64Array;
  readonly sumSquares: Float64Array;
}

/** The user-event statistics of one thread (views into the trial's arrays). */
export function threadEventView(trial: Trial, thread: number): UserEventView {
  if (!(thread >= 0 && thread < trial.threads.length)) throw new ProfileModelError(`no thread ${thread}; the trial has ${trial.threads.length}`);
  const n = trial.userEvents.length;
  const a = thread * n;
  const b = a + n;
  const e = trial.events;
  return {
    label: trial.threadLabel(thread),
    present: e.present.subarray(a, b),
    count: e.count.subarray(a, b),
    min: e.min.subarray(a, b),
    max: e.max.subarray(a, b),
    mean: e.mean.subarray(a, b),
    sumSquares: e.sumSquares.subarray(a, b),
  };
}

/**
 * User-event statistics across threads. `total`: counts and sums of squares add, min/max combine,
 * mean is the sample-weighted mean. `mean`: every field of the total divided by the number of
 * threads (all threads, or those with the event when `includeMissing` is false), except min/max
 * and mean which stay those of the total. `min`/`max`: per-field minimum/maximum over the threads
 * that have the event. `stddev`: population standard deviation across threads of each field.
 * In every view the event's minimum and maximum values come only from threads with samples (a
 * thread that has the event with 0 samples, as `.ppk` files list them, holds 0 there as a
 * placeholder, not a measured value); 0 when no thread has a sample.
 */
export function derivedEventView(trial: Trial, kind: DerivedKind, options: DerivedOptions = {}): UserEventView {
  const includeMissing = options.includeMissing ?? true;
  const nE = trial.userEvents.length;
  const nTh = trial.threads.length;
  const e = trial.events;
  const fields = ["count", "min", "max", "mean", "sumSquares"] as const;
  const out = Object.fromEntries(fields.map((f) => [f, new Float64Array(nE)])) as Record<(typeof fields)[number], Float64Array>;
  const present = new Uint8Array(nE);
  for (let u = 0; u < nE; u++) {
    let n = 0;
    let cnt = 0;
    let mn = Infinity;
    let mx = -Infinity;
    let wsum = 0;
    let ss = 0;
    const acc = Object.fromEntries(fields.map((f) => [f, { values: [] as number[], lo: Infinity, hi: -Infinity }])) as Record<(typeof fields)[number], { values: number[]; lo: number; hi: number }>;
    for (let th = 0; th < nTh; th++) {
      const s = th * nE + u;
      if (e.present[s] === 0) continue;
      n++;
      cnt += e.count[s];
      // A thread without samples has no minimum or maximum (its 0s are placeholders).
      const sampled = e.count[s] > 0;
      if (sampled) {
        mn = Math.min(mn, e.min[s]);
        mx = Math.max(mx, e.max[s]);
      }
      wsum += e.mean[s] * e.count[s];
      ss += e.sumSquares[s];
      for (const f of fields) {
        const x = e[f][s];
        const a = acc[f];
        a.values.push(x);
        if ((f === "min" || f === "max") && !sampled) continue;
        if (x < a.lo) a.lo = x;
        if (x > a.hi) a.hi = x;
      }
    }
    if (mn === Infinity) mn = mx = 0;
    present[u] = n > 0 ? 1 : 0;
    if (n === 0) continue;
    const totalMean = cnt !== 0 ? wsum / cnt : 0;
    const div = includeMissing ? nTh : n;
    for (const f of fields) {
      const a = acc[f];
      let val: number;
      switch (kind) {
        case "total":
          val = f === "count" ? cnt : f === "min" ? mn : f === "max" ? mx : f === "mean" ? totalMean : ss;
          break;
        case "mean":
          val = f === "count" ? cnt / div : f === "min" ? mn : f === "max" ? mx : f === "mean" ? totalMean : ss / div;
          break;
        case "min":
          val = a.lo === Infinity ? 0 : a.lo;
          break;
        case "max":
          val = a.hi === -Infinity ? 0 : a.hi;
          break;
        case "stddev":
          val = populationStddev(a.values, div);
          break;
      }
      out[f][u] = val;
    }
  }
  return { label: kind, present, ...out };
}
