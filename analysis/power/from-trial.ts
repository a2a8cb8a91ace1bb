/**
 * Power, energy, FLOP/J and the counter metrics of paper 004 for every event (timer) of a trial,
 * per thread or on a derived thread, from inclusive or exclusive values.
 *
 * @packageDocumentation
 */
import type { ProfileView, Trial } from "../../profile/index.js";
import { AnalysisInputError } from "../errors.js";
import { threadIndexOf, valueKindOf, viewOf, type ViewChoice } from "../trial-access.js";
import type { PowerConstantSet } from "./constants.js";
import { checkClock, counterMetrics, cycleBasis, estimatePower, type PerformanceMetrics, type PowerEstimate } from "./models.js";
import { processorMismatch } from "./processor.js";

/** Options of {@link estimateTrialPower}. */
export interface TrialPowerOptions {
  /** "inclusive" (default) or "exclusive" values. */
  readonly kind?: "inclusive" | "exclusive";
  /**
   * Views: "each" thread, or a derived view ("mean" by default). With "total" the power is the sum
   * of the threads' powers (paper 004: total power across processing elements), and the energy
   * the sum of their energies; the time is summed over the threads. With "max" each event's row is
   * the estimate of the thread whose power is the largest (named in {@link EventPower.thread}), not
   * the model applied to each counter's maximum, which may come from different threads.
   */
  readonly view?: "each" | ViewChoice;
  /** Flat timers only (default true: callpath timers repeat flat values). */
  readonly flatOnly?: boolean;
  /** CPU clock (MHz) when the metadata has no "CPU MHz". */
  readonly cpuMHz?: number;
}

/** Power of one event on one view. */
export interface EventPower {
  /** View label ("0,0,0" or "mean"). */
  readonly view: string;
  /** On the "max" view, the thread whose estimate the row is ("0,0,3"). */
  readonly thread?: string;
  /** Timer name. */
  readonly event: string;
  /** Power estimate. */
  readonly power: PowerEstimate;
  /** Counter metrics of paper 004. */
  readonly metrics: PerformanceMetrics;
  /**
   * The event's inclusive time on this view, microseconds (NaN when unavailable), whichever of
   * inclusive or exclusive values the estimate uses: paper 004's Table 3 asks for events whose
   * inclusive time is more than half of the total.
   */
  readonly inclusiveTimeUs: number;
}

/** Result of {@link estimateTrialPower}. */
export interface TrialPower {
  /** One row per (view, event), in thread then timer order. */
  readonly events: readonly EventPower[];
  /**
   * Power-model components left out (with the reason), over the rows that spent cycles; one left
   * out of some rows only says in how many and names the first few (`<view>` in parentheses after
   * each event).
   */
  readonly omittedComponents: readonly string[];
  /**
   * Counter metrics that could not be computed, and energy or FLOP/J where a row has no time or no
   * FLOP counter, over all rows (named as {@link omittedComponents}).
   */
  readonly missingMetrics: readonly string[];
  /** Whether some row has at least one component of the power model (else every estimate is the idle power alone). */
  readonly anyComponent: boolean;
  /** Why the constant set does not describe the trial's processor (see `processorMismatch`); undefined when it does or nothing says. */
  readonly processorMismatch: string | undefined;
  /** Rows whose estimate exceeds the set's MaxPower (see `PowerEstimate.aboveMaxPower`), as `<event> (<view>)`. */
  readonly aboveMaxPower: readonly string[];
  /**
   * Rows that spent no cycles, as `<event> (<view>)`: no time of their own (with exclusive values,
   * a routine that only calls others; a call too short to count), so no power to estimate. Their
   * omitted components and metrics are not in {@link omittedComponents} nor {@link missingMetrics}:
   * they make no other estimate a lower bound.
   */
  readonly noCycles: readonly string[];
  /**
   * Rows with cycles but no retired instruction, as `<event> (<view>)`: their core power is 0 and,
   * with no cache access either, their estimate is the idle power (in a simulated run, time
   * blocked in MPI or outside kernels: a blocked rank's cycles are all stall cycles). They have
   * %FLPStalls 0 and no FLPIneffI, and {@link rankInefficiencies} leaves them out of its averages.
   */
  readonly noInstructions: readonly string[];
  /**
   * Rows whose memory-stall estimate exceeds their cycles (`memoryStallRatio` above 1), as
   * `<event> (<view>)`: the model charges every reference its full latency, one after another.
   */
  readonly memoryStallsAboveCycles: readonly string[];
  /** How cycles and time were obtained (first row's basis, e.g. "PAPI_TOT_CYC / CPU MHz"). */
  readonly basis: { readonly cyclesFrom: string; readonly timeFrom: string };
  /** CPU clock used, MHz (undefined when unknown): the first view's. */
  readonly cpuMHz: number | undefined;
  /** Lowest and highest CPU clock (MHz) over the views (threads' own clocks differ with `each`); undefined when unknown. */
  readonly cpuMHzRange: readonly [number, number] | undefined;
  /**
   * Whether some row derived its cycles from its time, or its time from its cycles, with the CPU
   * clock. False when every row measured both (the clock then changes nothing).
   */
  readonly clockUsed: boolean;
  /**
   * The clock the measurements give, MHz: cycles over time of the row with the most cycles among
   * those that measured both; undefined when none did.
   */
  readonly measuredMHz: number | undefined;
  /** Constant set used. */
  readonly constants: string;
}

/**
 * Estimates power per event of a trial. The CPU clock comes from the metadata attribute
 * "CPU MHz" (per thread when it differs) unless given.
 * @throws AnalysisInputError when `options.cpuMHz` is given and is not a number above 0, or
 *   `options.kind` is neither inclusive nor exclusive
 */
export function estimateTrialPower(trial: Trial, set: PowerConstantSet, options: TrialPowerOptions = {}): TrialPower {
  // A clock of 0, below 0 or NaN would replace the metadata's and leave every time and energy NaN.
  checkClock(options.cpuMHz);
  const kind = valueKindOf(options.kind);
  const choice = options.view ?? "mean";
  const viewIds: ViewChoice[] = choice === "each" ? trial.threads.map((_, i) => i) : [choice];
  const timers = trial.timers.filter((t) => !(options.flatOnly ?? true) || !t.isCallpath);
  const events: EventPower[] = [];
  // What was left out, and for which events: a component without a cycle count in one
  // zero-cycle event (an MPI call, say) is not missing from the others.
  const omitted = new Map<string, string[]>();
  const missing = new Map<string, string[]>();
  const above: string[] = [];
  const noInstructions: string[] = [];
  const noCycles: string[] = [];
  const memoryAbove: string[] = [];
  let mhzUsed: number | undefined;
  let mhzLow = Infinity;
  let mhzHigh = -Infinity;
  for (const id of viewIds) {
    // The thread's index once: its view and its clock both need it.
    const thread = threadIndexOf(trial, id);
    const v = viewOf(trial, thread ?? id);
    const cpuMHz = options.cpuMHz ?? cpuMHzOf(trial, thread);
    mhzUsed ??= cpuMHz;
    if (cpuMHz !== undefined) {
      mhzLow = Math.min(mhzLow, cpuMHz);
      mhzHigh = Math.max(mhzHigh, cpuMHz);
    }
    for (const t of timers) {
      if (v.present[t.index] !== 1) continue;
      const event = `${t.name} (${v.label})`;
      // An estimate that cannot be made names its event.
      const named = <T>(estimate: () => T): T => {
        try {
          return estimate();
        } catch (e) {
          if (e instanceof AnalysisInputError) throw new AnalysisInputError(`${event}: ${e.message}`);
          throw e;
        }
      };
      // On the max view, the event's values are those of its peak thread, with that thread's clock.
      const peak = choice === "max" ? named(() => peakPowerThread(trial, set, kind, t.index, options.cpuMHz)) : undefined;
      const tv = peak === undefined ? v : viewOf(trial, peak);
      const mhz = peak === undefined ? cpuMHz : (options.cpuMHz ?? cpuMHzOf(trial, peak));
      if (peak !== undefined && mhz !== undefined) {
        mhzLow = Math.min(mhzLow, mhz);
        mhzHigh = Math.max(mhzHigh, mhz);
      }
      const values = eventValues(trial, tv, kind, t.index);
      const power = named(() => (choice === "total" ? totalPower(trial, set, kind, t.index, values, options.cpuMHz) : estimatePower(values, set, { cpuMHz: mhz })));
      const metrics = counterMetrics(values, set, { cpuMHz: mhz });
      let inclusiveTimeUs = power.basis.timeUs;
      if (kind === "exclusive") inclusiveTimeUs = cycleBasis(eventValues(trial, tv, "inclusive", t.index), set, { cpuMHz: mhz }).timeUs;
      if (power.basis.cycles === 0) noCycles.push(event);
      else {
        for (const o of power.omitted) listFor(omitted, `${o.component}: ${o.reason}`).push(event);
        for (const m of metrics.missing) listFor(missing, m).push(event);
        // Energy and FLOP/J are the power model's: their "-" in a table needs its reason too.
        if (!Number.isFinite(power.joules)) listFor(missing, `energy and FLOP/J (need a time metric, ${set.counters.time.join("|")}, or the cycles with a CPU clock: --cpu-mhz or "CPU MHz" metadata)`).push(event);
        else if (!Number.isFinite(power.flops)) listFor(missing, `FLOP/J (needs ${set.counters.flops.join("|")})`).push(event);
      }
      if (power.aboveMaxPower) above.push(event);
      if (metrics.retiredInstructions === 0 && power.basis.cycles > 0) noInstructions.push(event);
      if (metrics.memoryStallsAboveCycles) memoryAbove.push(event);
      events.push({ view: v.label, event: t.name, ...(peak === undefined ? {} : { thread: tv.label }), power, metrics, inclusiveTimeUs });
    }
  }
  const b = events[0]?.power.basis;
  const derived = (e: EventPower): boolean => e.power.basis.fromClock;
  let widest: EventPower | undefined;
  for (const e of events) if (!derived(e) && e.power.basis.cycles > 0 && e.power.basis.timeUs > 0 && (widest === undefined || e.power.basis.cycles > widest.power.basis.cycles)) widest = e;
  return {
    events,
    omittedComponents: forWhich(omitted, events.length - noCycles.length),
    missingMetrics: forWhich(missing, events.length - noCycles.length),
    aboveMaxPower: above,
    noCycles,
    noInstructions,
    memoryStallsAboveCycles: memoryAbove,
    anyComponent: events.some((e) => e.power.components.length > 0),
    processorMismatch: processorMismatch(trial, set),
    basis: { cyclesFrom: b?.cyclesFrom ?? "unavailable", timeFrom: b?.timeFrom ?? "unavailable" },
    cpuMHz: mhzUsed,
    cpuMHzRange: mhzLow <= mhzHigh ? [mhzLow, mhzHigh] : undefined,
    clockUsed: events.some(derived),
    measuredMHz: widest === undefined ? undefined : widest.power.basis.cycles / widest.power.basis.timeUs,
    constants: set.name,
  };
}

/** Every metric's inclusive or exclusive value of `timer` on view `v`, by metric name. */
function eventValues(trial: Trial, v: ProfileView, kind: "inclusive" | "exclusive", timer: number): Record<string, number> {
  const src = kind === "exclusive" ? v.exclusive : v.inclusive;
  const values: Record<string, number> = {};
  trial.metrics.forEach((m, i) => (values[m] = src[i]![timer]!));
  return values;
}

/**
 * The thread whose estimated power of `timer` is the largest (the first of equals; a thread
 * without the event, or whose estimate is not a number, counts only when no other has one).
 */
function peakPowerThread(trial: Trial, set: PowerConstantSet, kind: "inclusive" | "exclusive", timer: number, cpuMHz: number | undefined): number | undefined {
  let best: number | undefined;
  let bestWatts = -Infinity;
  for (let i = 0; i < trial.threads.length; i++) {
    const v = viewOf(trial, i);
    if (v.present[timer] !== 1) continue;
    const watts = estimatePower(eventValues(trial, v, kind, timer), set, { cpuMHz: cpuMHz ?? cpuMHzOf(trial, i) }).watts;
    if (best === undefined || watts > bestWatts) {
      best = i;
      if (!Number.isNaN(watts)) bestWatts = watts;
    }
  }
  return best;
}

/**
 * The power of an event over all threads (the total view), as paper 004 sums it: the total power
 * across processing elements is the sum of each one's power, so each thread's estimate (its own
 * access rates, its own clock) is summed: watts, idle watts, each component's watts and access
 * rate, energy (each thread's power times its own time) and FLOPs. The time and cycles are the
 * total view's (summed over the threads), so energy is not watts × time. Threads without the
 * event add nothing. Above MaxPower when some thread's estimate is.
 */
function totalPower(trial: Trial, set: PowerConstantSet, kind: "inclusive" | "exclusive", timer: number, totalValues: Readonly<Record<string, number>>, cpuMHz: number | undefined): PowerEstimate {
  const each: PowerEstimate[] = [];
  for (let i = 0; i < trial.threads.length; i++) {
    const v = viewOf(trial, i);
    if (v.present[timer] !== 1) continue;
    each.push(estimatePower(eventValues(trial, v, kind, timer), set, { cpuMHz: cpuMHz ?? cpuMHzOf(trial, i) }));
  }
  const basis = estimatePower(totalValues, set, { cpuMHz: cpuMHz ?? cpuMHzOf(trial) }).basis;
  const sum = (f: (e: PowerEstimate) => number): number => each.reduce((a, e) => a + f(e), 0);
  const components = new Map<string, { component: string; counter: string; accessRate: number; watts: number }>();
  for (const e of each) {
    for (const c of e.components) {
      const x = components.get(c.component);
      if (x === undefined) components.set(c.component, { ...c });
      else {
        x.accessRate += c.accessRate;
        x.watts += c.watts;
      }
    }
  }
  const omitted = new Map<string, { component: string; reason: string }>();
  for (const e of each) for (const o of e.omitted) if (!omitted.has(o.component)) omitted.set(o.component, o);
  const watts = sum((e) => e.watts);
  const joules = sum((e) => e.joules);
  const flops = sum((e) => e.flops);
  return {
    watts,
    idleWatts: sum((e) => e.idleWatts),
    components: [...components.values()],
    omitted: [...omitted.values()],
    complete: omitted.size === 0,
    aboveMaxPower: each.some((e) => e.aboveMaxPower),
    joules,
    flops,
    flopsFrom: each[0]?.flopsFrom ?? "unavailable",
    flopsPerJoule: joules > 0 ? flops / joules : NaN,
    basis,
    constants: set.name,
  };
}

/** The list kept for `key` in `map`, made empty on first use. */
function listFor(map: Map<string, string[]>, key: string): string[] {
  let list = map.get(key);
  if (list === undefined) map.set(key, (list = []));
  return list;
}

/** Each entry as it stands when it holds for all `total` events, else with how many and the first few. */
function forWhich(map: Map<string, string[]>, total: number): string[] {
  return [...map].map(([what, events]) => (events.length === total ? what : `${what}, in ${events.length} of ${total} events: ${events.slice(0, 3).join(", ")}${events.length > 3 ? ", ..." : ""}`));
}

/**
 * The CPU clock (MHz) from the metadata attribute "CPU MHz": the thread's own value; for a thread
 * without one, the mean over the threads of its node, else over all threads; for a derived view
 * (no thread), the trial-wide value, else the mean over all threads. Undefined when absent. A
 * value of 0 or below counts as absent (some systems report 0 where they do not know the clock).
 */
export function cpuMHzOf(trial: Trial, thread?: number): number | undefined {
  const clock = (i?: number): number | undefined => {
    const v = i === undefined ? trial.metadataNumber("CPU MHz") : trial.metadataNumber("CPU MHz", i);
    return v !== undefined && v > 0 ? v : undefined;
  };
  const own = clock(thread);
  if (own !== undefined) return own;
  const mean = (ids: number[]): number | undefined => {
    const v = ids.map((i) => clock(i)).filter((x): x is number => x !== undefined);
    return v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : undefined;
  };
  const all = trial.threads.map((_, i) => i);
  if (thread !== undefined) {
    const node = trial.threads[thread]!.node;
    const same = mean(all.filter((i) => trial.threads[i]!.node === node));
    if (same !== undefined) return same;
  }
  return mean(all);
}
