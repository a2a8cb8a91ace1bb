/**
 * {@link TrialBuilder}: the one way to assemble a {@link Trial}, used by every reader and by the
 * simulator's measurement component.
 */
import { ProfileModelError, type ProfileWarning, type ProfileWarningKind } from "./errors.js";
import { checkInvariants } from "./invariants.js";
import { Trial, type InvocationRecord, type ThreadId, type Timer, type UserEvent } from "./model.js";
import { canonicalTimerName, parseCallpath, parseUserEventName } from "./names.js";
import { isRecordArray, recordAt, type RecordSource, type RecordTable } from "./record-table.js";
import { grown } from "./grown.js";

/**
 * Values of one thread x timer. `exclusive`/`inclusive` give one value per metric (an array
 * indexed by metric), or a single number when the trial has exactly one metric. Omitted fields
 * are left unchanged (set) or add nothing (add).
 */
export interface TimerValueInput {
  readonly calls?: number;
  readonly subroutines?: number;
  readonly exclusive?: number | ArrayLike<number>;
  readonly inclusive?: number | ArrayLike<number>;
}

/** Summary statistics of a user event on one thread (TAU's `numevents max min mean sumsqr`). */
export interface UserEventTotals {
  /** Number of samples. */
  readonly count: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  /** Sum of squared samples. */
  readonly sumSquares: number;
}

/** Options of {@link TrialBuilder.build}. */
export interface TrialBuildOptions {
  /** Check inclusive >= exclusive, children within parents and flat = sum of callpaths (default true). */
  readonly checkInvariants?: boolean;
  /**
   * Kinds of invariant warning the reader already checked line by line, naming file and line (the
   * TAU text reader: exclusive above inclusive): the invariant check does not repeat them.
   */
  readonly checkedByReader?: readonly ProfileWarningKind[];
  /** Move thread metadata attributes equal on every thread into the trial metadata (default true). */
  readonly hoistCommonMetadata?: boolean;
}

/** Growable per-thread rows of timer values. @internal */
class ThreadRows {
  present: Uint8Array;
  calls: Float64Array;
  subroutines: Float64Array;
  exclusive: Float64Array[];
  inclusive: Float64Array[];
  constructor(capacity: number, metrics: number) {
    this.present = new Uint8Array(capacity);
    this.calls = new Float64Array(capacity);
    this.subroutines = new Float64Array(capacity);
    this.exclusive = Array.from({ length: metrics }, () => new Float64Array(capacity));
    this.inclusive = Array.from({ length: metrics }, () => new Float64Array(capacity));
  }
  get capacity(): number {
    return this.calls.length;
  }
  grow(capacity: number): void {
    const g = (a: Float64Array): Float64Array => grown(a, capacity);
    this.present = grown(this.present, capacity);
    this.calls = g(this.calls);
    this.subroutines = g(this.subroutines);
    this.exclusive = this.exclusive.map(g);
    this.inclusive = this.inclusive.map(g);
  }
}

/** Growable per-thread rows of user-event statistics. @internal */
class EventRows {
  present: Uint8Array = new Uint8Array(0);
  count: Float64Array = new Float64Array(0);
  min: Float64Array = new Float64Array(0);
  max: Float64Array = new Float64Array(0);
  mean: Float64Array = new Float64Array(0);
  sumSquares: Float64Array = new Float64Array(0);
  ensure(n: number): void {
    if (n <= this.count.length) return;
    const cap = Math.max(n, this.count.length * 2, 8);
    const g = (a: Float64Array): Float64Array => grown(a, cap);
    this.present = grown(this.present, cap);
    this.count = g(this.count);
    this.min = g(this.min);
    this.max = g(this.max);
    this.mean = g(this.mean);
    this.sumSquares = g(this.sumSquares);
  }
}

interface TimerEntry {
  name: string;
  groups: string[];
  path: string[];
  /** The first spelling given, when it differs from `name`. */
  spelling?: string;
  /** The first raw group text given, when it differs from `groups.join("|")` at that time. */
  groupText?: string;
}

/**
 * Assembles a {@link Trial} step by step: metrics, threads, timers (get-or-create by name), values,
 * user events, records, metadata; then {@link build}.
 *
 * Indices returned by {@link addThread}, {@link timer} and {@link userEvent} are builder indices;
 * the built trial keeps timer and event order but sorts threads by (node, context, thread).
 *
 * @example
 * const b = new TrialBuilder({ metrics: ["TIME"] });
 * const t0 = b.addThread(0);
 * const main = b.timer(".TAU application", ["TAU_DEFAULT"]);
 * b.addValues(t0, main, { calls: 1, exclusive: 10, inclusive: 100 });
 * const trial = b.build();
 */
export class TrialBuilder {
  private readonly metricNames: string[] = [];
  private readonly threadIds: ThreadId[] = [];
  private readonly threadKeys = new Map<string, number>();
  private readonly rows: ThreadRows[] = [];
  private readonly eventRows: EventRows[] = [];
  private readonly timerEntries: TimerEntry[] = [];
  private readonly timerKeys = new Map<string, number>();
  private readonly eventNames: string[] = [];
  private readonly eventKeys = new Map<string, number>();
  /** First spelling of an event, when it differs from its canonical name. */
  private readonly eventSpellings = new Map<number, string>();
  private readonly trialMetadata = new Map<string, string>();
  private readonly perThreadMetadata: Map<string, string>[] = [];
  /** Per thread, the keys {@link inheritThreadMetadata} gave it, with the thread they came from. */
  private readonly perThreadInherited: Map<string, number>[] = [];
  private readonly recordList: InvocationRecord[] = [];
  /** Records given as a table, kept as they are while they are the trial's only records. */
  private recordRows: RecordTable | undefined;
  private readonly warningList: ProfileWarning[] = [];
  private source: string | undefined;

  /** @param options.metrics metric names to add up front; options.source file or directory name for messages. */
  constructor(options: { metrics?: readonly string[]; source?: string } = {}) {
    for (const m of options.metrics ?? []) this.addMetric(m);
    this.source = options.source;
  }

  /** Number of metrics so far. */
  get metricCount(): number {
    return this.metricNames.length;
  }
  /** Number of threads so far. */
  get threadCount(): number {
    return this.threadIds.length;
  }
  /** Number of timers so far. */
  get timerCount(): number {
    return this.timerEntries.length;
  }
  /** Number of user events so far. */
  get userEventCount(): number {
    return this.eventNames.length;
  }

  /** Sets the file or directory name used in messages and recorded as {@link Trial.source}. */
  setSource(source: string): this {
    this.source = source;
    return this;
  }

  /** Adds a metric (or returns the index of an existing one with this name). */
  addMetric(name: string): number {
    const i = this.metricNames.indexOf(name);
    if (i >= 0) return i;
    if (name.length === 0) throw new ProfileModelError("a metric name must not be empty");
    this.metricNames.push(name);
    for (const r of this.rows) {
      r.exclusive.push(new Float64Array(r.capacity));
      r.inclusive.push(new Float64Array(r.capacity));
    }
    return this.metricNames.length - 1;
  }

  /** Index of a metric by name, or -1. */
  metricIndex(name: string): number {
    return this.metricNames.indexOf(name);
  }

  /**
   * Adds thread (node, context, thread), or returns the index of the existing one.
   * @throws ProfileModelError for negative or non-integer numbers.
   */
  addThread(node: number, context = 0, thread = 0): number {
    const key = `${node}.${context}.${thread}`;
    const found = this.threadKeys.get(key);
    if (found !== undefined) return found;
    for (const v of [node, context, thread]) {
      if (!Number.isInteger(v) || v < 0) throw new ProfileModelError(`thread numbers must be non-negative integers, got ${node},${context},${thread}`);
    }
    const i = this.threadIds.length;
    this.threadIds.push({ node, context, thread });
    this.threadKeys.set(key, i);
    this.rows.push(new ThreadRows(Math.max(8, this.timerEntries.length), this.metricNames.length));
    this.eventRows.push(new EventRows());
    this.perThreadMetadata.push(new Map());
    this.perThreadInherited.push(new Map());
    return i;
  }

  /** Index of thread (node, context, thread), or -1. */
  threadIndex(node: number, context = 0, thread = 0): number {
    return this.threadKeys.get(`${node}.${context}.${thread}`) ?? -1;
  }

  /**
   * Gets or creates the timer with this name (flat, or a callpath `A => B`), adding `groups` to
   * its groups. The name is normalized as ParaProf does (see `normalizeName`); the first spelling
   * given is kept as the timer's `spelling` when it differs, so that a TAU profile written back
   * holds the same bytes. `groupText` is the group list as a file wrote it (`TAU_PARAM | TAU_USER`),
   * kept likewise when this call creates the timer.
   */
  timer(name: string, groups: readonly string[] = [], groupText?: string): number {
    const key = canonicalTimerName(name);
    let i = this.timerKeys.get(key);
    if (i === undefined) {
      i = this.timerEntries.length;
      const entry: TimerEntry = { name: key, groups: [], path: parseCallpath(key) };
      if (name !== key) entry.spelling = name;
      this.timerEntries.push(entry);
      this.timerKeys.set(key, i);
      if (groups.length > 0) this.addGroups(i, groups);
      if (groupText !== undefined && groupText !== entry.groups.join("|")) entry.groupText = groupText;
      return i;
    }
    if (groups.length > 0) this.addGroups(i, groups);
    return i;
  }

  /** Gets or creates the callpath timer for `path` (`["A","B"]` is `A => B`). */
  callpath(path: readonly string[], groups: readonly string[] = []): number {
    if (path.length === 0) throw new ProfileModelError("a callpath needs at least one element");
    return this.timer(path.join(" => "), groups);
  }

  /** Index of an existing timer by name, or -1. */
  findTimer(name: string): number {
    return this.timerKeys.get(canonicalTimerName(name)) ?? -1;
  }

  /** Name, groups and path of a timer created so far. */
  timerInfo(timer: number): { readonly name: string; readonly groups: readonly string[]; readonly path: readonly string[] } {
    const e = this.timerEntries[timer];
    if (!e) throw new ProfileModelError(`no timer ${timer}`);
    return e;
  }

  /** Adds groups to a timer (duplicates and empty names are ignored). */
  addGroups(timer: number, groups: readonly string[]): void {
    const e = this.timerEntries[timer];
    if (!e) throw new ProfileModelError(`no timer ${timer}`);
    for (const g0 of groups) {
      const g = g0.trim();
      if (g.length > 0 && !e.groups.includes(g)) {
        e.groups.push(g);
        // The groups no longer match the text they were read from.
        e.groupText = undefined;
      }
    }
  }

  /** Gets or creates the user event with this name (context events: `"event : A => B"`); the first spelling is kept as its `spelling` when it differs. */
  userEvent(name: string): number {
    const key = canonicalEventName(name);
    let i = this.eventKeys.get(key);
    if (i === undefined) {
      i = this.eventNames.length;
      this.eventNames.push(key);
      this.eventKeys.set(key, i);
      if (name !== key) this.eventSpellings.set(i, name);
    }
    return i;
  }

  /** Sets a trial-wide metadata attribute. */
  setMetadata(key: string, value: string): this {
    this.trialMetadata.set(key, value);
    return this;
  }

  /** Sets a metadata attribute of one thread. */
  setThreadMetadata(thread: number, key: string, value: string): this {
    this.checkThread(thread);
    this.perThreadMetadata[thread].set(key, value);
    this.perThreadInherited[thread].delete(key);
    return this;
  }

  /**
   * Makes `thread`'s metadata the defaults of every other thread: each attribute of `thread` that
   * another thread lacks is set there to `thread`'s value; attributes a thread has keep its own
   * value. TAU writes the common metadata only into `profile.0.0.0` and into the other files only
   * what differs, and ParaProf reads it this way. The trial records which keys a thread inherited
   * ({@link Trial.inheritedMetadata}).
   */
  inheritThreadMetadata(thread: number): this {
    this.checkThread(thread);
    const from = this.perThreadMetadata[thread];
    this.perThreadMetadata.forEach((m, th) => {
      if (m === from) return;
      for (const [k, v] of from) {
        if (m.has(k)) continue;
        m.set(k, v);
        this.perThreadInherited[th].set(k, thread);
      }
    });
    return this;
  }

  /**
   * Marks `timer` as recorded on `thread` and returns its row. Grows rows by doubling so that
   * adding many timers costs amortized O(1).
   */
  private row(thread: number, timer: number): ThreadRows {
    const r = this.rows[thread];
    if (r === undefined) throw new ProfileModelError(`no thread ${thread} (add it with addThread)`);
    if (timer < 0 || timer >= this.timerEntries.length || !Number.isInteger(timer)) throw new ProfileModelError(`no timer ${timer}`);
    if (timer >= r.capacity) r.grow(Math.max(timer + 1, r.capacity * 2));
    r.present[timer] = 1;
    return r;
  }

  /** Marks `timer` as recorded on `thread` without changing its values. */
  touch(thread: number, timer: number): void {
    this.row(thread, timer);
  }

  /** Calls recorded so far for `timer` on `thread` (0 when absent). */
  callsOf(thread: number, timer: number): number {
    const r = this.rows[thread];
    return r !== undefined && timer >= 0 && timer < r.capacity ? r.calls[timer] : 0;
  }

  /** Adds calls and subroutine calls. @throws ProfileModelError for non-finite numbers. */
  addCalls(thread: number, timer: number, calls: number, subroutines = 0): void {
    finite(calls, "calls");
    finite(subroutines, "subroutines");
    const r = this.row(thread, timer);
    r.calls[timer] += calls;
    r.subroutines[timer] += subroutines;
  }

  /** Adds exclusive and inclusive values of one metric (microseconds for TIME). */
  addTime(thread: number, timer: number, metric: number, exclusive: number, inclusive: number): void {
    finite(exclusive, "exclusive");
    finite(inclusive, "inclusive");
    this.checkMetric(metric);
    const r = this.row(thread, timer);
    r.exclusive[metric][timer] += exclusive;
    r.inclusive[metric][timer] += inclusive;
  }

  /** Adds values (calls, subroutines, exclusive and inclusive per metric) to what is there. */
  addValues(thread: number, timer: number, v: TimerValueInput): void {
    this.apply(thread, timer, v, true);
  }

  /** Replaces the given values (fields left out keep their value). */
  setValues(thread: number, timer: number, v: TimerValueInput): void {
    this.apply(thread, timer, v, false);
  }

  private apply(thread: number, timer: number, v: TimerValueInput, add: boolean): void {
    const r = this.row(thread, timer);
    if (v.calls !== undefined) r.calls[timer] = (add ? r.calls[timer] : 0) + finite(v.calls, "calls");
    if (v.subroutines !== undefined) r.subroutines[timer] = (add ? r.subroutines[timer] : 0) + finite(v.subroutines, "subroutines");
    if (v.exclusive !== undefined) this.applyMetricValues(r.exclusive, timer, v.exclusive, add, "exclusive");
    if (v.inclusive !== undefined) this.applyMetricValues(r.inclusive, timer, v.inclusive, add, "inclusive");
  }

  private applyMetricValues(target: Float64Array[], timer: number, v: number | ArrayLike<number>, add: boolean, what: string): void {
    if (typeof v === "number") {
      if (this.metricNames.length !== 1) throw new ProfileModelError(`${what} given as one number but the trial has ${this.metricNames.length} metrics; pass one value per metric`);
      target[0][timer] = (add ? target[0][timer] : 0) + finite(v, what);
      return;
    }
    if (v.length > this.metricNames.length) throw new ProfileModelError(`${v.length} ${what} values for ${this.metricNames.length} metrics`);
    for (let m = 0; m < v.length; m++) target[m][timer] = (add ? target[m][timer] : 0) + finite(v[m], what);
  }

  /**
   * Adds values for a call path the way TAU records a timer with callpath profiling: to the flat
   * timer of the path's last element (groups `groups`) and, when the path has two or more elements,
   * to the root-anchored callpath timer `A => B => C` (groups `TAU_CALLPATH` plus `groups`).
   * Writing both forms is what pprof, ParaProf and Hatchet expect.
   *
   * For a recursive path (the routine already appears earlier on it), pass
   * `{ flatInclusive: false }` so the flat inclusive value counts only the outermost call, as TAU does.
   * @returns the flat timer and the callpath timer (-1 for a one-element path).
   */
  addCallpathValues(
    thread: number,
    path: readonly string[],
    v: TimerValueInput,
    groups: readonly string[] = [],
    options: { readonly flatInclusive?: boolean } = {},
  ): { flat: number; callpath: number } {
    if (path.length === 0) throw new ProfileModelError("a callpath needs at least one element");
    const flat = this.timer(path[path.length - 1], groups);
    const callpath = path.length > 1 ? this.callpath(path, ["TAU_CALLPATH", ...groups]) : -1;
    this.addCallpathValuesAt(thread, flat, callpath, v, options);
    return { flat, callpath };
  }

  /**
   * {@link addCallpathValues} to timers already resolved: the flat timer `flat` and the callpath
   * timer `callpath` (-1 for none). For a reader that adds one call path's values on many
   * threads: resolving its timers once, not on every thread (a lookup normalizes the name).
   */
  addCallpathValuesAt(thread: number, flat: number, callpath: number, v: TimerValueInput, options: { readonly flatInclusive?: boolean } = {}): void {
    this.addValues(thread, flat, options.flatInclusive === false ? { ...v, inclusive: undefined } : v);
    if (options.flatInclusive === false) this.touch(thread, flat);
    if (callpath >= 0) this.addValues(thread, callpath, v);
  }

  /** Records one sample of a user event on a thread (updates count, min, max, mean, sum of squares). */
  addEventSample(thread: number, event: number, value: number): void {
    finite(value, "user event sample");
    this.addEventTotals(thread, event, { count: 1, min: value, max: value, mean: value, sumSquares: value * value });
  }

  /**
   * Merges totals into a thread's user event, as ParaProf combines duplicate lines: counts and
   * sums of squares add, min/max combine, the mean is the count-weighted mean.
   */
  addEventTotals(thread: number, event: number, t: UserEventTotals): void {
    const e = this.eventRow(thread, event);
    if (e.present[event] === 0) {
      this.setEventTotals(thread, event, t);
      return;
    }
    checkTotals(t);
    const n = e.count[event] + t.count;
    e.mean[event] = n !== 0 ? (e.mean[event] * e.count[event] + t.mean * t.count) / n : 0;
    e.count[event] = n;
    e.min[event] = Math.min(e.min[event], t.min);
    e.max[event] = Math.max(e.max[event], t.max);
    e.sumSquares[event] += t.sumSquares;
  }

  /** Replaces a thread's statistics of a user event. */
  setEventTotals(thread: number, event: number, t: UserEventTotals): void {
    checkTotals(t);
    const e = this.eventRow(thread, event);
    e.present[event] = 1;
    e.count[event] = t.count;
    e.min[event] = t.min;
    e.max[event] = t.max;
    e.mean[event] = t.mean;
    e.sumSquares[event] = t.sumSquares;
  }

  private eventRow(thread: number, event: number): EventRows {
    const e = this.eventRows[thread];
    if (e === undefined) throw new ProfileModelError(`no thread ${thread} (add it with addThread)`);
    if (event < 0 || event >= this.eventNames.length || !Number.isInteger(event)) throw new ProfileModelError(`no user event ${event}`);
    e.ensure(event + 1);
    return e;
  }

  /** Appends a per-invocation record. @throws ProfileModelError for non-finite times. */
  addRecord(record: InvocationRecord): void {
    finiteTimes(record.rank, record.start, record.wallTime, record.mpiTime, record.computeTime);
    this.unpackRecordRows();
    this.recordList.push(record);
  }

  /**
   * Appends records. A table that brings the trial's first records is kept as it is, not copied
   * (the trial then makes no object per record unless asked for them): give one that no longer
   * grows.
   * @throws ProfileModelError for non-finite times (nothing is added then)
   */
  addRecords(source: RecordSource): void {
    if (isRecordArray(source)) {
      for (const r of source) finiteTimes(r.rank, r.start, r.wallTime, r.mpiTime, r.computeTime);
      this.unpackRecordRows();
      for (const r of source) this.recordList.push(r);
      return;
    }
    const t = source;
    for (let i = 0; i < t.count; i++) finiteTimes(t.rank(i), t.start(i), t.wallTime(i), t.mpiTime(i), t.computeTime(i));
    if (this.recordList.length === 0 && this.recordRows === undefined) this.recordRows = t;
    else {
      this.unpackRecordRows();
      for (let i = 0; i < t.count; i++) this.recordList.push(recordAt(t, i));
    }
  }

  /** Turns records kept as a table into objects, before others are appended. */
  private unpackRecordRows(): void {
    const t = this.recordRows;
    if (t === undefined) return;
    this.recordRows = undefined;
    for (let i = 0; i < t.count; i++) this.recordList.push(recordAt(t, i));
  }

  /** Adds a warning to the built trial (readers report format oddities this way). */
  warn(warning: ProfileWarning): void {
    this.warningList.push(warning);
  }

  /**
   * Packs everything into an immutable {@link Trial}: threads sorted by (node, context, thread),
   * dense value arrays, and (by default) invariant warnings.
   */
  build(options: TrialBuildOptions = {}): Trial {
    const nT = this.timerEntries.length;
    const nE = this.eventNames.length;
    const nM = this.metricNames.length;
    const order = this.threadIds.map((_, i) => i);
    order.sort((a, b) => cmpThread(this.threadIds[a], this.threadIds[b]));
    const nTh = order.length;
    const slots = nTh * nT;
    const present = new Uint8Array(slots);
    const calls = new Float64Array(slots);
    const subroutines = new Float64Array(slots);
    const exclusive = Array.from({ length: nM }, () => new Float64Array(slots));
    const inclusive = Array.from({ length: nM }, () => new Float64Array(slots));
    const eslots = nTh * nE;
    const ev = {
      present: new Uint8Array(eslots),
      count: new Float64Array(eslots),
      min: new Float64Array(eslots),
      max: new Float64Array(eslots),
      mean: new Float64Array(eslots),
      sumSquares: new Float64Array(eslots),
    };
    for (let k = 0; k < nTh; k++) {
      const r = this.rows[order[k]];
      const n = Math.min(nT, r.capacity);
      const base = k * nT;
      present.set(r.present.subarray(0, n), base);
      calls.set(r.calls.subarray(0, n), base);
      subroutines.set(r.subroutines.subarray(0, n), base);
      for (let m = 0; m < nM; m++) {
        exclusive[m].set(r.exclusive[m].subarray(0, n), base);
        inclusive[m].set(r.inclusive[m].subarray(0, n), base);
      }
      const e = this.eventRows[order[k]];
      const ne = Math.min(nE, e.count.length);
      const eb = k * nE;
      ev.present.set(e.present.subarray(0, ne), eb);
      ev.count.set(e.count.subarray(0, ne), eb);
      ev.min.set(e.min.subarray(0, ne), eb);
      ev.max.set(e.max.subarray(0, ne), eb);
      ev.mean.set(e.mean.subarray(0, ne), eb);
      ev.sumSquares.set(e.sumSquares.subarray(0, ne), eb);
    }
    const timers: Timer[] = this.timerEntries.map((e, index) => ({
      index,
      name: e.name,
      groups: [...e.groups],
      path: [...e.path],
      isCallpath: e.path.length > 1,
      ...(e.spelling !== undefined ? { spelling: e.spelling } : {}),
      ...(e.groupText !== undefined ? { groupText: e.groupText } : {}),
    }));
    const userEvents: UserEvent[] = this.eventNames.map((name, index) => {
      const u = parseUserEventName(name);
      const spelling = this.eventSpellings.get(index);
      return { index, name, baseName: u.base, context: u.context, ...(spelling !== undefined ? { spelling } : {}) };
    });
    const metadata = new Map(this.trialMetadata);
    const threadMetadata = order.map((i) => new Map(this.perThreadMetadata[i]));
    if (options.hoistCommonMetadata ?? true) hoistCommon(metadata, threadMetadata);
    // Source threads renumbered in the trial's order; keys hoisted into the common metadata dropped.
    const position = new Map(order.map((i, k) => [i, k]));
    const inheritedMetadata = order.map((i, k) => new Map([...this.perThreadInherited[i]].filter(([key]) => threadMetadata[k].has(key)).map(([key, from]) => [key, position.get(from)!])));
    const data = {
      metadata,
      threadMetadata,
      inheritedMetadata,
      metrics: [...this.metricNames],
      threads: order.map((i) => this.threadIds[i]),
      timers,
      userEvents,
      values: { present, calls, subroutines, exclusive, inclusive },
      events: ev,
      records: this.recordRows ?? [...this.recordList],
      warnings: [...this.warningList],
      source: this.source,
    };
    const trial = new Trial(data);
    if (options.checkInvariants ?? true) {
      const found = checkInvariants(trial, { skip: options.checkedByReader });
      if (found.length > 0) return new Trial({ ...data, warnings: [...data.warnings, ...found] });
    }
    return trial;
  }

  private checkThread(thread: number): void {
    if (this.rows[thread] === undefined) throw new ProfileModelError(`no thread ${thread} (add it with addThread)`);
  }

  private checkMetric(metric: number): void {
    if (!(metric >= 0 && metric < this.metricNames.length && Number.isInteger(metric))) throw new ProfileModelError(`no metric ${metric}`);
  }
}

function finite(v: number, what: string): number {
  if (!Number.isFinite(v)) throw new ProfileModelError(`${what} must be a finite number, got ${v}`);
  return v;
}

/** Checks that a record's rank and times (microseconds) are finite, in field order (the first that is not is reported). */
function finiteTimes(rank: number, start: number, wallTime: number, mpiTime: number, computeTime: number): void {
  finite(rank, "record rank");
  finite(start, "record start");
  finite(wallTime, "record wallTime");
  finite(mpiTime, "record mpiTime");
  finite(computeTime, "record computeTime");
}

function checkTotals(t: UserEventTotals): void {
  finite(t.count, "user event count");
  finite(t.min, "user event min");
  finite(t.max, "user event max");
  finite(t.mean, "user event mean");
  finite(t.sumSquares, "user event sum of squares");
}

function cmpThread(a: ThreadId, b: ThreadId): number {
  return a.node - b.node || a.context - b.context || a.thread - b.thread;
}

function canonicalEventName(name: string): string {
  const u = parseUserEventName(name);
  return u.context ? `${u.base} : ${u.context.join(" => ")}` : u.base;
}

/** Moves attributes present with the same value on every thread into the trial-wide map. */
function hoistCommon(trial: Map<string, string>, threads: Map<string, string>[]): void {
  if (threads.length === 0) return;
  for (const [k, v] of threads[0]) {
    if (threads.every((m) => m.get(k) === v)) {
      trial.set(k, v);
      for (const m of threads) m.delete(k);
    }
  }
}
