/**
 * Element begin/end of every process thread, written as a Chrome/Perfetto trace-event file
 * (`trace.json`, see `profile/chrome-trace.ts`). Each element is one complete event (an instant
 * when it takes no time) with `pid` = node and `tid` = process thread (uid); each message between
 * processes is a flow between the elements of their threads 0, which carry their MPI calls.
 *
 * @packageDocumentation
 */
import { ChromeTraceFile, TraceIntervals, type ChromeTraceLayout, type ChromeTraceObject, type TraceLane } from "../../profile/index.js";
import type { ProgramModel } from "./model.js";

export type { ChromeTraceObject };

/** Collects element intervals of every process thread, nested (no allocation per element once grown). */
export class TraceRecorder extends TraceIntervals {
  /** Thread `uid` enters an element at `time` (us). */
  begin(uid: number, time: number): void {
    this.open(uid, time);
  }

  /** Thread `uid` leaves `element` at `time` (us). */
  end(uid: number, element: number, time: number): void {
    this.close(uid, element, time);
  }

  /**
   * The Chrome trace-event JSON object: process and thread names as metadata events, then one
   * `X` event per element interval sorted by thread and start time. Builds every event at once;
   * {@link ChromeTrace.writeTo} writes the same text without holding it.
   */
  toChromeTrace(model: ProgramModel, name: string): ChromeTraceObject {
    return new ChromeTrace(this, model, name).toJSON();
  }
}

/** Nodes as processes, process threads as threads, elements by name with their diagram as category. */
function programLayout(model: ProgramModel): ChromeTraceLayout {
  const processes: TraceLane[] = Array.from({ length: model.nodes }, (_, node) => ({ pid: node, tid: 0, name: `node ${node}` }));
  const threads: TraceLane[] = [];
  for (let pid = 0; pid < model.processes; pid++) {
    for (let tid = 0; tid < model.threads; tid++) {
      const uid = pid * model.threads + tid;
      threads.push({ pid: model.processToNode[pid], tid: uid, name: model.threads > 1 ? `process ${pid} thread ${tid}` : `process ${pid}` });
    }
  }
  return {
    processes,
    threads,
    event(uid, element) {
      const el = model.elements[element];
      const pid = Math.floor(uid / model.threads);
      return { name: el.name, cat: el.diagram, pid: model.processToNode[pid], tid: uid, args: { kind: el.kind, process: pid, thread: uid % model.threads } };
    },
    lane: (uid) => ({ pid: model.processToNode[Math.floor(uid / model.threads)], tid: uid }),
  };
}

/** The trace of one program-model run (see `ChromeTraceFile`). */
export class ChromeTrace extends ChromeTraceFile {
  /**
   * @param recorder - the run's element intervals
   * @param model - the program model the intervals refer to
   * @param scenario - scenario name (recorded in `otherData`)
   */
  constructor(recorder: TraceRecorder, model: ProgramModel, readonly scenario: string) {
    super(recorder, programLayout(model), { ccasim: "program model trace", scenario });
  }
}
