/**
 * Timelines as Chrome/Perfetto trace-event files (`trace.json`): open one in `chrome://tracing`
 * or https://ui.perfetto.dev. A run's intervals (a timer's call, a program element) are kept in
 * typed arrays while the simulation runs ({@link TraceIntervals}); each becomes one complete event
 * (`ph: "X"`), or an instant event (`ph: "i"`, thread scope) when it takes no time, whose name,
 * category, process and thread a {@link ChromeTraceLayout} gives; a message kept with them becomes
 * a flow (`ph: "s"` bound to the call that sent it, `ph: "f"` to the call its receive completed
 * in, placed so that Perfetto reads the end after the start: see `trace-flows.ts`), an arrow
 * between the two threads.
 * Timestamps and durations are microseconds, as the format expects, rounded to whole nanoseconds
 * (as Perfetto reads them).
 *
 * @packageDocumentation
 */
import { TEXT_PIECE_CHARS } from "./atomic-text-file.js";
import { grown } from "./grown.js";
import { placeFlows } from "./trace-flows.js";
import { nanoseconds } from "./trace-time.js";

/**
 * Intervals of a run, each `(thread, id, start, stop, depth)`: a timeline thread (a rank, a
 * process thread), what ran (a timer id, an element index), its start and end in microseconds and
 * how many intervals enclose it. No allocation per interval once the arrays have grown.
 */
export class TraceIntervals {
  private threadOf = new Int32Array(1024);
  private idOf = new Int32Array(1024);
  private startOf = new Float64Array(1024);
  private stopOf = new Float64Array(1024);
  private depthOf = new Int32Array(1024);
  /** Per interval, its call's number from {@link open}, or -1. */
  private callOf = new Float64Array(1024);
  /** Intervals recorded. */
  count = 0;
  /** Per thread, the numbers and starts (us) of its open calls, innermost last (see {@link open}). */
  private readonly openCalls: number[][] = [];
  private readonly openStarts: number[][] = [];
  private calls = 0;
  // Flows (messages): from thread, time and call; to thread, time and call (-1 until received); bytes.
  private flowFrom = new Int32Array(0);
  private flowTo = new Int32Array(0);
  private flowSent = new Float64Array(0);
  private flowReceived = new Float64Array(0);
  private flowFromCall = new Float64Array(0);
  private flowToCall = new Float64Array(0);
  private flowBytes = new Float64Array(0);
  /** Flows recorded. */
  flowCount = 0;

  /**
   * Opens a call on `thread` at `start` (us): it becomes the thread's innermost open call, to
   * which a flow that starts or ends on the thread now is bound, until {@link close} ends it.
   */
  open(thread: number, start: number): void {
    (this.openCalls[thread] ??= []).push(this.calls++);
    (this.openStarts[thread] ??= []).push(start);
  }

  /**
   * Ends the innermost open call of `thread` at `stop` (us) as an interval of `id`, inside the
   * calls still open on the thread.
   */
  close(thread: number, id: number, stop: number): void {
    const calls = this.openCalls[thread]!;
    const call = calls.pop()!;
    this.record(thread, id, this.openStarts[thread]!.pop()!, stop, calls.length, call);
  }

  /**
   * Records that `id` ran on `thread` from `start` to `stop` (us), inside `depth` other intervals,
   * as no call (no flow binds to it): an interval known only when it has ended.
   */
  add(thread: number, id: number, start: number, stop: number, depth: number): void {
    this.record(thread, id, start, stop, depth, -1);
  }

  private record(thread: number, id: number, start: number, stop: number, depth: number, call: number): void {
    if (this.count === this.threadOf.length) this.grow();
    const i = this.count++;
    this.threadOf[i] = thread;
    this.idOf[i] = id;
    this.startOf[i] = start;
    this.stopOf[i] = stop;
    this.depthOf[i] = depth;
    this.callOf[i] = call;
  }

  /** The innermost open call of `thread` (see {@link open}), or -1. */
  private innermost(thread: number): number {
    const open = this.openCalls[thread];
    return open !== undefined && open.length > 0 ? open[open.length - 1]! : -1;
  }

  private grow(): void {
    const n = this.threadOf.length * 2;
    this.threadOf = grown(this.threadOf, n);
    this.idOf = grown(this.idOf, n);
    this.startOf = grown(this.startOf, n);
    this.stopOf = grown(this.stopOf, n);
    this.depthOf = grown(this.depthOf, n);
    this.callOf = grown(this.callOf, n);
  }

  /**
   * Starts a message from thread `from`, sent at `sent` (us), of `bytes` bytes, bound to the
   * thread's innermost open call (the one that sends it); returns its number for {@link endFlow}.
   */
  startFlow(from: number, sent: number, bytes: number): number {
    if (this.flowCount === this.flowFrom.length) {
      const n = Math.max(1024, this.flowFrom.length * 2);
      this.flowFrom = grown(this.flowFrom, n);
      this.flowTo = grown(this.flowTo, n);
      this.flowSent = grown(this.flowSent, n);
      this.flowReceived = grown(this.flowReceived, n);
      this.flowFromCall = grown(this.flowFromCall, n);
      this.flowToCall = grown(this.flowToCall, n);
      this.flowBytes = grown(this.flowBytes, n);
    }
    const k = this.flowCount++;
    this.flowFrom[k] = from;
    this.flowSent[k] = sent;
    this.flowFromCall[k] = this.innermost(from);
    this.flowTo[k] = -1;
    this.flowBytes[k] = bytes;
    return k;
  }

  /**
   * Ends message `k` (from {@link startFlow}) on thread `to`, received at `received` (us), bound
   * to the thread's innermost open call (the one it completes in). A message never ended (never
   * received) is left out of the trace.
   */
  endFlow(k: number, to: number, received: number): void {
    this.flowTo[k] = to;
    this.flowReceived[k] = received;
    this.flowToCall[k] = this.innermost(to);
  }

  /** Flow `k` (in recording order): `[from, sent, to, received, bytes]` (`to` -1 when not received). */
  flow(k: number): [number, number, number, number, number] {
    return [this.flowFrom[k], this.flowSent[k], this.flowTo[k], this.flowReceived[k], this.flowBytes[k]];
  }

  /** The calls flow `k` is bound to, sending and receiving (-1 for none). */
  flowCalls(k: number): [number, number] {
    return [this.flowFromCall[k], this.flowToCall[k]];
  }

  /** The call of interval `i` (see {@link open}), or -1. */
  call(i: number): number {
    return this.callOf[i];
  }

  /** Thread of interval `i` (in recording order). */
  thread(i: number): number {
    return this.threadOf[i];
  }

  /** Id of interval `i`. */
  id(i: number): number {
    return this.idOf[i];
  }

  /** Start of interval `i` (us). */
  start(i: number): number {
    return this.startOf[i];
  }

  /** End of interval `i` (us). */
  stop(i: number): number {
    return this.stopOf[i];
  }

  /** The intervals, in the order they were recorded: `[thread, id, start, end]`. */
  intervals(): Array<[number, number, number, number]> {
    const out: Array<[number, number, number, number]> = [];
    for (let i = 0; i < this.count; i++) out.push([this.threadOf[i], this.idOf[i], this.startOf[i], this.stopOf[i]]);
    return out;
  }

  /**
   * Interval indices by thread, then start, then the longer first, then the outer first, then
   * recording order: an enclosing interval comes before those it encloses, also when they start
   * and end together (a method whose whole time is one MPI call), which is the order trace
   * viewers nest events of equal times in.
   */
  timelineOrder(): Int32Array {
    const order = Int32Array.from({ length: this.count }, (_, i) => i);
    const { threadOf, startOf, stopOf, depthOf } = this;
    return order.sort((a, b) => threadOf[a] - threadOf[b] || startOf[a] - startOf[b] || stopOf[b] - stopOf[a] || depthOf[a] - depthOf[b] || a - b);
  }
}

/** One timeline process or thread and its label, as trace viewers show them. */
export interface TraceLane {
  /** Process id (`pid`). */
  readonly pid: number;
  /** Thread id (`tid`); 0 for a process. */
  readonly tid: number;
  /** Label shown for it. */
  readonly name: string;
}

/** What a trace's processes, threads and intervals are called. */
export interface ChromeTraceLayout {
  /** Processes (each a row group), in the order shown. */
  readonly processes: readonly TraceLane[];
  /** Threads (each a row), in the order shown. */
  readonly threads: readonly TraceLane[];
  /**
   * The fields of the complete event of an interval of `id` on `thread` besides its time: its
   * `name`, `cat` (category), `pid`, `tid` and `args`, written in that order.
   */
  event(thread: number, id: number): { name: string; cat: string; pid: number; tid: number; args: object };
  /** The process and thread ids of a thread's row: where flows start and end. Flows are left out without it. */
  lane?(thread: number): { pid: number; tid: number };
}

/** The Chrome trace-event JSON object (`trace.json`). */
export interface ChromeTraceObject {
  readonly traceEvents: object[];
  readonly displayTimeUnit: string;
  readonly otherData: object;
}

/**
 * The trace of one run, ready to be written: {@link writeTo} streams the JSON text piece by piece,
 * so a trace of millions of intervals needs neither millions of objects at once nor a string
 * longer than JavaScript allows; {@link toJSON} (hence `JSON.stringify`) gives the same text as
 * one plain object (a copy or a `structuredClone` of the instance itself holds no events).
 */
export class ChromeTraceFile {
  /**
   * @param intervals - the run's intervals
   * @param layout - what its processes, threads and intervals are called
   * @param otherData - the file's `otherData` (what made it, the scenario)
   */
  constructor(
    private readonly intervals: TraceIntervals,
    private readonly layout: ChromeTraceLayout,
    private readonly otherData: object,
  ) {}

  /**
   * The events, one at a time: each process's name and sort index, each thread's, then one `X`
   * event per interval in {@link TraceIntervals.timelineOrder} (an `i` event for one of no length),
   * each followed by the start (`s`) and end (`f`) events of the flows placed after it (see
   * {@link placeFlows}), when the layout places flows (those of no call come last, at their own
   * times).
   */
  *events(): Generator<object> {
    for (const p of this.layout.processes) {
      yield { name: "process_name", ph: "M", pid: p.pid, tid: 0, args: { name: p.name } };
      yield { name: "process_sort_index", ph: "M", pid: p.pid, tid: 0, args: { sort_index: p.pid } };
    }
    for (const t of this.layout.threads) {
      yield { name: "thread_name", ph: "M", pid: t.pid, tid: t.tid, args: { name: t.name } };
      yield { name: "thread_sort_index", ph: "M", pid: t.pid, tid: t.tid, args: { sort_index: t.tid } };
    }
    const iv = this.intervals;
    const order = iv.timelineOrder();
    // Where each flow event goes (see trace-flows.ts): a start right after its sending call, at
    // the call's start; an end right after its receiving call, at a time Perfetto reads it
    // after the start and with that call on top of its thread's stack.
    const flows = this.layout.lane === undefined ? undefined : placeFlows(iv, order);
    for (const i of order) {
      const { name, cat, pid, tid, args } = this.layout.event(iv.thread(i), iv.id(i));
      // Whole nanoseconds: Perfetto rounds ts and dur to nanoseconds each on its own, so an
      // interval's end read as round(ts) + round(dur) could pass the start of the next one by 1 ns
      // (or the end of its parent), and the viewer would move it off its thread as overlapping.
      // The length is the difference of the rounded times in nanoseconds (not the rounded
      // difference), so that ts + dur is the rounded end: a slice ends where the next begins.
      const start = nanoseconds(iv.start(i));
      const ts = start / 1000;
      const dur = (nanoseconds(iv.stop(i)) - start) / 1000;
      // A call of no length is an instant: it has no extent to draw.
      if (dur === 0) yield { name, cat, ph: "i", ts, s: "t", pid, tid, args };
      else yield { name, cat, ph: "X", ts, dur, pid, tid, args };
      const after = flows?.after.get(i);
      if (after !== undefined) for (const e of after) yield this.flowEvent(e >> 1, e & 1, e & 1 ? flows!.endNs[e >> 1] / 1000 : ts);
    }
    if (flows !== undefined) for (const e of flows.unbound) yield this.flowEvent(e >> 1, e & 1, undefined);
  }

  /**
   * The start (`end` 0) or end (`end` 1) event of flow `k`, at `ts` (us) or else at its own
   * time. Its end's `bp: "e"` binds it to the enclosing slice, not the next one.
   */
  private flowEvent(k: number, end: number, ts: number | undefined): object {
    const [from, sent, to, received, bytes] = this.intervals.flow(k);
    const at = ts ?? nanoseconds(end === 0 ? sent : received) / 1000;
    const { pid, tid } = this.layout.lane!(end === 0 ? from : to);
    // The times of the send and of the receive's completion, which the events' own need not
    // be, and the size: in the args, for readers of the file.
    const args = { bytes, sent: nanoseconds(sent) / 1000, received: nanoseconds(received) / 1000 };
    return end === 0 ? { name: "message", cat: "flow", ph: "s", id: k, ts: at, pid, tid, args } : { name: "message", cat: "flow", ph: "f", bp: "e", id: k, ts: at, pid, tid, args };
  }

  /** Every trace event, built on each read (the instance keeps none: see {@link writeTo}). */
  get traceEvents(): object[] {
    return [...this.events()];
  }

  /** The whole trace as one object. */
  toJSON(): ChromeTraceObject {
    return { traceEvents: this.traceEvents, displayTimeUnit: "ms", otherData: this.otherData };
  }

  /** Hands the text of `JSON.stringify(this)` to `write` in pieces of about 64 Ki characters. */
  writeTo(write: (text: string) => void): void {
    let piece = '{"traceEvents":[';
    let first = true;
    for (const e of this.events()) {
      piece += (first ? "" : ",") + JSON.stringify(e);
      first = false;
      if (piece.length >= TEXT_PIECE_CHARS) {
        write(piece);
        piece = "";
      }
    }
    write(piece + '],"displayTimeUnit":"ms","otherData":' + JSON.stringify(this.otherData) + "}");
  }
}
