/**
 * The measurement data model: a {@link Trial} is one measured (or simulated) run, laid out the way
 * TAU's PerfDMF sees it: metadata, metrics, threads (node, context, thread), timers with groups
 * and callpaths, per thread x timer x metric values, user events and per-invocation records.
 *
 * Values are stored data-oriented: one `Float64Array` per quantity (and per metric for exclusive
 * and inclusive), indexed by `slot = thread * timers.length + timer`. A thread need not have every
 * timer: `present[slot]` is 1 when the thread recorded the timer (ParaProf's "function profile
 * exists"), 0 otherwise (its values are then 0).
 *
 * Units: values of the metric `TIME` (and any metric whose name contains `TIME`) are microseconds;
 * hardware counters are raw counts. Record times are microseconds.
 */
import { ProfileModelError, type ProfileWarning } from "./errors.js";
import { canonicalTimerName, parseUserEventName } from "./names.js";
import { didYouMean } from "./nearest-name.js";
import { recordList, recordTable, type RecordSource, type RecordTable } from "./record-table.js";

/** A thread of execution, identified as TAU does by node (rank), context and thread numbers. */
export interface ThreadId {
  /** Node (MPI rank). */
  readonly node: number;
  /** Context within the node (almost always 0). */
  readonly context: number;
  /** Thread within the context. */
  readonly thread: number;
}

/** A timer (TAU "function"): a flat routine or a callpath `A => B => C`. */
export interface Timer {
  /** Position in {@link Trial.timers}. */
  readonly index: number;
  /** Canonical name (normalized as ParaProf shows it; callpaths joined with `" => "`). */
  readonly name: string;
  /** Group names, e.g. `["TAU_CALLPATH", "MPI"]`, in the order first seen. */
  readonly groups: readonly string[];
  /** Callpath elements: `["A","B","C"]` for `A => B => C`, `[name]` for a flat timer. */
  readonly path: readonly string[];
  /** True when `path.length > 1`. */
  readonly isCallpath: boolean;
  /**
   * The name exactly as the source spelt it (TAU pads names and callpath arrows with spaces),
   * when that differs from {@link name}; writers of TAU profiles write this spelling back.
   */
  readonly spelling?: string;
  /**
   * The group list exactly as a TAU profile wrote it (`TAU_PARAM | TAU_USER`), when that differs
   * from `groups.join("|")`; writers of TAU profiles write it back.
   */
  readonly groupText?: string;
}

/** A user event (TAU "atomic event"): a named quantity sampled at points of the program. */
export interface UserEvent {
  /** Position in {@link Trial.userEvents}. */
  readonly index: number;
  /** Canonical full name, including the context for context events. */
  readonly name: string;
  /** Name without the context (`"Message size for reduce"`). */
  readonly baseName: string;
  /** Callpath of a context event (`event : A => B` gives `["A","B"]`), else undefined. */
  readonly context: readonly string[] | undefined;
  /** The name exactly as the source spelt it, when that differs from {@link name}. */
  readonly spelling?: string;
}

/**
 * One proxied invocation of a component port method, as the Mastermind records it. All times are
 * microseconds; counters are raw counts accumulated during the invocation.
 */
export interface InvocationRecord {
  /** Component instance name. */
  readonly component: string;
  /** Provides-port name. */
  readonly port: string;
  /** Method name. */
  readonly method: string;
  /** MPI rank that made the call. */
  readonly rank: number;
  /** Parameters that drive the cost (array sizes, strides, ...), by name. */
  readonly parameters: Readonly<Record<string, number | string>>;
  /** Start time (microseconds since the start of the run). */
  readonly start: number;
  /** Wall-clock duration (microseconds). */
  readonly wallTime: number;
  /** Time spent in MPI during the call (microseconds). */
  readonly mpiTime: number;
  /** Time spent computing (microseconds). */
  readonly computeTime: number;
  /** Hardware-counter deltas during the call, by counter name (counts). */
  readonly counters: Readonly<Record<string, number>>;
}

/** Per thread x timer values. `exclusive[m]`/`inclusive[m]` hold metric `m`. */
export interface TimerValues {
  /** 1 when the thread recorded the timer. Indexed by slot. */
  readonly present: Uint8Array;
  /** Number of calls. Indexed by slot. */
  readonly calls: Float64Array;
  /** Number of subroutine (child timer) calls. Indexed by slot. */
  readonly subroutines: Float64Array;
  /** Exclusive value per metric, indexed by slot. */
  readonly exclusive: readonly Float64Array[];
  /** Inclusive value per metric, indexed by slot. */
  readonly inclusive: readonly Float64Array[];
}

/**
 * Per thread x user-event statistics, indexed by `thread * userEvents.length + event`.
 * `sumSquares` is the sum of squared samples (TAU's `sumsqr`).
 */
export interface UserEventValues {
  readonly present: Uint8Array;
  readonly count: Float64Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  readonly mean: Float64Array;
  readonly sumSquares: Float64Array;
}

/** Everything a {@link Trial} is made of; see {@link TrialBuilder} for the usual way to make one. */
export interface TrialData {
  readonly metadata: ReadonlyMap<string, string>;
  /** Per-thread metadata (attributes that differ between threads), one map per thread. */
  readonly threadMetadata: readonly ReadonlyMap<string, string>[];
  /** See {@link Trial.inheritedMetadata}; default: none. */
  readonly inheritedMetadata?: readonly ReadonlyMap<string, number>[];
  readonly metrics: readonly string[];
  readonly threads: readonly ThreadId[];
  readonly timers: readonly Timer[];
  readonly userEvents: readonly UserEvent[];
  readonly values: TimerValues;
  readonly events: UserEventValues;
  /** The records, as objects or as a table (kept as given, not copied). */
  readonly records: RecordSource;
  readonly warnings?: readonly ProfileWarning[];
  /** Where the trial was read from, for messages. */
  readonly source?: string;
}

/**
 * One measured or simulated run. Immutable once built (the typed arrays are exposed for speed;
 * do not write into them).
 *
 * Threads are sorted by (node, context, thread); timers and user events keep the order in which
 * they were first seen.
 */
export class Trial {
  /** Trial-wide metadata: attributes equal on every thread (`"Metric Name"` excluded). */
  readonly metadata: ReadonlyMap<string, string>;
  /** Per-thread metadata, indexed like {@link threads}. */
  readonly threadMetadata: readonly ReadonlyMap<string, string>[];
  /**
   * Per thread, the keys of its {@link threadMetadata} that its file left out and that it took
   * from another thread, with that thread's index: TAU text profiles write the attributes every
   * thread shares into `profile.0.0.0` only, which makes them every thread's default. Empty maps
   * for formats that store each thread's metadata whole (`.ppk`).
   */
  readonly inheritedMetadata: readonly ReadonlyMap<string, number>[];
  /** Metric names, e.g. `["TIME", "PAPI_FP_INS"]`. */
  readonly metrics: readonly string[];
  readonly threads: readonly ThreadId[];
  readonly timers: readonly Timer[];
  readonly userEvents: readonly UserEvent[];
  /** Per thread x timer values. */
  readonly values: TimerValues;
  /** Per thread x user-event statistics. */
  readonly events: UserEventValues;
  /**
   * Per-invocation records (empty for real TAU data), as objects. Records given as a table become
   * objects on first read; {@link recordTable} reads them without.
   */
  declare readonly records: readonly InvocationRecord[];
  /** Inconsistencies found when the trial was built or read. */
  readonly warnings: readonly ProfileWarning[];
  /** File or directory the trial came from, if any. */
  readonly source: string | undefined;

  private readonly timerByName: Map<string, number>;
  private readonly eventByName: Map<string, number>;
  private readonly threadByKey: Map<string, number>;
  readonly #records: RecordSource;
  #recordTable: RecordTable | undefined;

  /** @throws ProfileModelError when array sizes do not match the numbers of threads, timers, metrics and events. */
  constructor(data: TrialData) {
    this.metadata = data.metadata;
    this.threadMetadata = data.threadMetadata;
    this.inheritedMetadata = data.inheritedMetadata ?? data.threadMetadata.map(() => new Map<string, number>());
    this.metrics = data.metrics;
    this.threads = data.threads;
    this.timers = data.timers;
    this.userEvents = data.userEvents;
    this.values = data.values;
    this.events = data.events;
    const records = data.records;
    this.#records = records;
    let list: readonly InvocationRecord[] | undefined;
    // An own enumerable accessor, not a prototype getter: `{ ...trial }` (a trial used as TrialData)
    // must still carry the records, and objects are made only when someone reads them.
    Object.defineProperty(this, "records", { enumerable: true, get: () => (list ??= recordList(records)) });
    this.warnings = data.warnings ?? [];
    this.source = data.source;
    const slots = this.threads.length * this.timers.length;
    const v = this.values;
    if (
      v.present.length !== slots ||
      v.calls.length !== slots ||
      v.subroutines.length !== slots ||
      v.exclusive.length !== this.metrics.length ||
      v.inclusive.length !== this.metrics.length ||
      v.exclusive.some((a) => a.length !== slots) ||
      v.inclusive.some((a) => a.length !== slots)
    ) {
      throw new ProfileModelError(`timer value arrays do not match ${this.threads.length} threads x ${this.timers.length} timers x ${this.metrics.length} metrics`);
    }
    const eslots = this.threads.length * this.userEvents.length;
    const e = this.events;
    if ([e.present, e.count, e.min, e.max, e.mean, e.sumSquares].some((a) => a.length !== eslots)) {
      throw new ProfileModelError(`user-event arrays do not match ${this.threads.length} threads x ${this.userEvents.length} events`);
    }
    if (this.threadMetadata.length !== this.threads.length || this.inheritedMetadata.length !== this.threads.length) {
      throw new ProfileModelError(`${this.threadMetadata.length} thread metadata maps and ${this.inheritedMetadata.length} inherited-key maps for ${this.threads.length} threads`);
    }
    this.timerByName = new Map(this.timers.map((t) => [t.name, t.index]));
    this.eventByName = new Map(this.userEvents.map((u) => [u.name, u.index]));
    this.threadByKey = new Map(this.threads.map((t, i) => [`${t.node}.${t.context}.${t.thread}`, i]));
  }

  /** The per-invocation records as a table (no object per record when they were given as one). */
  get recordTable(): RecordTable {
    return (this.#recordTable ??= recordTable(this.#records));
  }

  /** Index into the value arrays for (thread, timer). No bounds check (hot path). */
  slot(thread: number, timer: number): number {
    return thread * this.timers.length + timer;
  }

  /** True when `thread` recorded `timer`. */
  has(thread: number, timer: number): boolean {
    return this.values.present[thread * this.timers.length + timer] === 1;
  }

  /** Number of calls of `timer` on `thread` (0 when absent). */
  calls(thread: number, timer: number): number {
    return this.values.calls[thread * this.timers.length + timer];
  }

  /** Number of child timer calls of `timer` on `thread`. */
  subroutines(thread: number, timer: number): number {
    return this.values.subroutines[thread * this.timers.length + timer];
  }

  /** Exclusive value of `timer` on `thread` for metric index `metric` (microseconds for TIME). */
  exclusive(metric: number, thread: number, timer: number): number {
    return this.values.exclusive[metric][thread * this.timers.length + timer];
  }

  /** Inclusive value of `timer` on `thread` for metric index `metric` (microseconds for TIME). */
  inclusive(metric: number, thread: number, timer: number): number {
    return this.values.inclusive[metric][thread * this.timers.length + timer];
  }

  /** The timer with this name (any spacing TAU uses is accepted), or undefined. */
  findTimer(name: string): Timer | undefined {
    const i = this.timerByName.get(name) ?? this.timerByName.get(canonicalTimerName(name));
    return i === undefined ? undefined : this.timers[i];
  }

  /**
   * The timer with this name.
   * @throws ProfileModelError when there is none.
   */
  timer(name: string): Timer {
    const t = this.findTimer(name);
    if (!t) throw new ProfileModelError(`no timer named '${name}' in ${this.source ?? "the trial"}`);
    return t;
  }

  /** The callpath timer with exactly this path, or undefined. */
  findCallpath(path: readonly string[]): Timer | undefined {
    return this.findTimer(path.join(" => "));
  }

  /** The user event with this name, or undefined. */
  findUserEvent(name: string): UserEvent | undefined {
    const i = this.eventByName.get(name) ?? this.eventByName.get(parseUserEventFull(name));
    return i === undefined ? undefined : this.userEvents[i];
  }

  /**
   * Index of a metric by name (exact, then case-insensitive).
   * @throws ProfileModelError naming a likely correction and listing the trial's metrics when
   *   there is no such metric.
   */
  metricIndex(name: string): number {
    let i = this.metrics.indexOf(name);
    if (i < 0) i = this.metrics.findIndex((m) => m.toLowerCase() === name.toLowerCase());
    if (i < 0) throw new ProfileModelError(`no metric '${name}'${didYouMean(name, this.metrics)}; the trial has ${this.metrics.join(", ")}`);
    return i;
  }

  /** Index of thread (node, context, thread), or -1. */
  threadIndex(node: number, context = 0, thread = 0): number {
    return this.threadByKey.get(`${node}.${context}.${thread}`) ?? -1;
  }

  /** Slot into the user-event arrays for (thread, event). */
  eventSlot(thread: number, event: number): number {
    return thread * this.userEvents.length + event;
  }

  /**
   * A metadata value: the thread's own value when `thread` is given and has one, else the
   * trial-wide value; undefined when absent.
   */
  metadataString(key: string, thread?: number): string | undefined {
    if (thread !== undefined) {
      const v = this.threadMetadata[thread]?.get(key);
      if (v !== undefined) return v;
    }
    return this.metadata.get(key);
  }

  /** A metadata value parsed as a finite number (`"2301.000"` gives 2301); undefined when absent or not numeric. */
  metadataNumber(key: string, thread?: number): number | undefined {
    const s = this.metadataString(key, thread);
    if (s === undefined || s.trim() === "") return undefined;
    const n = Number(s.trim());
    return Number.isFinite(n) ? n : undefined;
  }

  /** A metadata value read as a boolean (`true/on/yes/1` or `false/off/no/0`); undefined otherwise. */
  metadataBoolean(key: string, thread?: number): boolean | undefined {
    const s = this.metadataString(key, thread)?.trim().toLowerCase();
    if (s === undefined) return undefined;
    if (["true", "on", "yes", "1"].includes(s)) return true;
    if (["false", "off", "no", "0"].includes(s)) return false;
    return undefined;
  }

  /** All metadata of one thread: trial-wide attributes overlaid with the thread's own. */
  threadMetadataMerged(thread: number): Map<string, string> {
    const m = new Map(this.metadata);
    for (const [k, v] of this.threadMetadata[thread] ?? []) m.set(k, v);
    return m;
  }

  /**
   * The metadata `thread`'s own file holds that not every thread shares: its
   * {@link threadMetadata} without the keys it inherited ({@link inheritedMetadata}).
   */
  ownThreadMetadata(thread: number): Map<string, string> {
    const inherited = this.inheritedMetadata[thread];
    return new Map([...(this.threadMetadata[thread] ?? [])].filter(([k]) => !inherited?.has(k)));
  }

  /**
   * Display label of a thread, `"n,c,t"` as ParaProf writes it.
   * @throws ProfileModelError for an index that is no thread's
   */
  threadLabel(thread: number): string {
    const t = this.threads[thread];
    if (t === undefined) throw new ProfileModelError(`no thread at index ${thread}: the trial has ${this.threads.length} (0 to ${this.threads.length - 1})`);
    return `${t.node},${t.context},${t.thread}`;
  }
}

function parseUserEventFull(name: string): string {
  const u = parseUserEventName(name);
  return u.context ? `${u.base} : ${u.context.join(" => ")}` : u.base;
}
