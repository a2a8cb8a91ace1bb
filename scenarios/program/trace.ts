/**
 * Element begin/end of every process thread, written as a Chrome/Perfetto trace-event file
 * (`trace.json`): open it in `chrome://tracing` or https://ui.perfetto.dev. Each element is one
 * complete event (`ph: "X"`) with `pid` = node and `tid` = process thread (uid); timestamps and
 * durations are microseconds, as the format expects.
 *
 * @packageDocumentation
 */
import { TEXT_PIECE_CHARS } from "../../profile/index.js";
import { grown } from "../../profile/internal.js";
import type { ProgramModel } from "./model.js";

/** Collects element intervals in typed arrays (no allocation per element once grown). */
export class TraceRecorder {
  private stack: Float64Array;
  private readonly depth: Int32Array;
  private uid = new Int32Array(1024);
  private element = new Int32Array(1024);
  private start = new Float64Array(1024);
  private stop = new Float64Array(1024);
  /** Intervals recorded. */
  count = 0;

  /**
   * @param threads - process threads (uids)
   * @param maxDepth - deepest nesting of elements expected (recursive activities grow it)
   */
  constructor(private readonly threads: number, private maxDepth: number) {
    this.stack = new Float64Array(threads * maxDepth);
    this.depth = new Int32Array(threads);
  }

  /** Thread `uid` enters an element at `time` (us). */
  begin(uid: number, time: number): void {
    if (this.depth[uid] === this.maxDepth) this.deepen();
    this.stack[uid * this.maxDepth + this.depth[uid]++] = time;
  }

  /** Doubles the nesting every thread's stack holds, keeping what each holds. */
  private deepen(): void {
    const depth = this.maxDepth * 2;
    const stack = new Float64Array(this.threads * depth);
    for (let u = 0; u < this.threads; u++) stack.set(this.stack.subarray(u * this.maxDepth, u * this.maxDepth + this.depth[u]), u * depth);
    this.stack = stack;
    this.maxDepth = depth;
  }

  /** Thread `uid` leaves `element` at `time` (us). */
  end(uid: number, element: number, time: number): void {
    const t0 = this.stack[uid * this.maxDepth + --this.depth[uid]];
    if (this.count === this.uid.length) this.grow();
    const i = this.count++;
    this.uid[i] = uid;
    this.element[i] = element;
    this.start[i] = t0;
    this.stop[i] = time;
  }

  private grow(): void {
    const n = this.uid.length * 2;
    this.uid = grown(this.uid, n);
    this.element = grown(this.element, n);
    this.start = grown(this.start, n);
    this.stop = grown(this.stop, n);
  }

  /** The intervals, in the order they ended: `[uid, element, start, end]`. */
  intervals(): Array<[number, number, number, number]> {
    const out: Array<[number, number, number, number]> = [];
    for (let i = 0; i < this.count; i++) out.push([this.uid[i], this.element[i], this.start[i], this.stop[i]]);
    return out;
  }

  /**
   * The Chrome trace-event JSON object: process and thread names as metadata events, then one
   * `X` event per element interval sorted by thread and start time. Builds every event at once;
   * {@link ChromeTrace.writeTo} writes the same text without holding it.
   */
  toChromeTrace(model: ProgramModel, name: string): ChromeTraceObject {
    return new ChromeTrace(this, model, name).toJSON();
  }

  /** The trace events of {@link toChromeTrace}, one at a time. */
  *chromeEvents(model: ProgramModel): Generator<object> {
    for (let node = 0; node < model.nodes; node++) {
      yield { name: "process_name", ph: "M", pid: node, tid: 0, args: { name: `node ${node}` } };
      yield { name: "process_sort_index", ph: "M", pid: node, tid: 0, args: { sort_index: node } };
    }
    for (let pid = 0; pid < model.processes; pid++) {
      for (let tid = 0; tid < model.threads; tid++) {
        const uid = pid * model.threads + tid;
        const label = model.threads > 1 ? `process ${pid} thread ${tid}` : `process ${pid}`;
        yield { name: "thread_name", ph: "M", pid: model.processToNode[pid], tid: uid, args: { name: label } };
        yield { name: "thread_sort_index", ph: "M", pid: model.processToNode[pid], tid: uid, args: { sort_index: uid } };
      }
    }
    const order = Array.from({ length: this.count }, (_, i) => i).sort((a, b) => this.uid[a] - this.uid[b] || this.start[a] - this.start[b] || this.stop[b] - this.stop[a] || a - b);
    for (const i of order) {
      const el = model.elements[this.element[i]];
      const uid = this.uid[i];
      const pid = Math.floor(uid / model.threads);
      yield {
        name: el.name,
        cat: el.diagram,
        ph: "X",
        ts: this.start[i],
        dur: this.stop[i] - this.start[i],
        pid: model.processToNode[pid],
        tid: uid,
        args: { kind: el.kind, process: pid, thread: uid % model.threads },
      };
    }
  }
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
export class ChromeTrace {
  /**
   * @param recorder - the run's element intervals
   * @param model - the program model the intervals refer to
   * @param scenario - scenario name (recorded in `otherData`)
   */
  constructor(
    private readonly recorder: TraceRecorder,
    private readonly model: ProgramModel,
    readonly scenario: string,
  ) {}

  /** Every trace event, built on each read (the instance keeps none: see {@link writeTo}). */
  get traceEvents(): object[] {
    return [...this.recorder.chromeEvents(this.model)];
  }

  /** The whole trace as one object. */
  toJSON(): ChromeTraceObject {
    return { traceEvents: this.traceEvents, displayTimeUnit: "ms", otherData: this.otherData() };
  }

  /** Hands the text of `JSON.stringify(this)` to `write` in pieces of about 64 Ki characters. */
  writeTo(write: (text: string) => void): void {
    let piece = '{"traceEvents":[';
    let first = true;
    for (const e of this.recorder.chromeEvents(this.model)) {
      piece += (first ? "" : ",") + JSON.stringify(e);
      first = false;
      if (piece.length >= TEXT_PIECE_CHARS) {
        write(piece);
        piece = "";
      }
    }
    write(piece + '],"displayTimeUnit":"ms","otherData":' + JSON.stringify(this.otherData()) + "}");
  }

  private otherData(): object {
    return { ccasim: "program model trace", scenario: this.scenario };
  }
}
