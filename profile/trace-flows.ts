/**
 * Where the flow events of a trace (`trace.json`, see `chrome-trace.ts`) are written and at which
 * times, so that Perfetto's JSON importer draws every message as an arrow between the call that
 * sent it and the call its receive completed in.
 *
 * What decides it, in Perfetto's importer (src/trace_processor): it reads events in order of
 * nanosecond time, at one time the complete events with a length first (the longest first), then
 * the others (instants, flow events) in file order; a flow event binds to the slice on top of its
 * thread's stack as the last slice read left it (a slice read pops those that ended before it; a
 * flow event pops nothing, so a slice that has ended stays on top until the next one is read);
 * and a flow's end read before its start is dropped (`flow_end_without_start`).
 *
 * Hence a flow's start is written right after its sending call, at the call's start; its end
 * right after its receiving call C, at the send time if C had begun by then (a receiver that
 * was already waiting: a late sender) and else at C's start, so that it is read after the start.
 * That time binds the end to C as long as it is before C's end and before the next slice of C's
 * thread begins (C's first child, if any): from then on a slice inside C (or after it) is on top.
 *
 * @packageDocumentation
 */
import type { TraceIntervals } from "./chrome-trace.js";
import { nanoseconds } from "./trace-time.js";

/** The flow events of a trace: after which interval each is written, and the time of each end. */
export interface FlowPlacement {
  /**
   * Per interval (its index in the {@link TraceIntervals}), the flow events written right after
   * it, in order, each `2 * k + end` for flow `k` (`end` 0 for its start, 1 for its end).
   */
  readonly after: Map<number, number[]>;
  /** Flow events of no call (same coding), written last at their own times. */
  readonly unbound: number[];
  /** Per flow, the time of its end event in nanoseconds (NaN for one written at its own time). */
  readonly endNs: Float64Array;
}

/**
 * Places every received flow of `iv` (see the module's description). The start of flow `k` is
 * written after the interval of its sending call, at that interval's start. Its end goes after
 * the interval `C` of its receiving call, at the first of these that binds it to `C` in
 * Perfetto's reading: the send time, else the time of the flow's start event (its sending call's
 * start), either not before `C`'s start and 1 ns later when it is the start event's time and that
 * event is written after the end; when neither binds (a child of `C` began before the end could
 * be read after the start), at the send time, written after the last interval of the thread
 * begun by then (a call inside `C`), which Perfetto then binds it to. Every end is read after its
 * start, and the events of a thread stay in order of time.
 * @param iv - the run's intervals and flows
 * @param order - `iv.timelineOrder()`: the order in which the intervals are written
 */
export function placeFlows(iv: TraceIntervals, order: Int32Array): FlowPlacement {
  const n = order.length;
  const position = new Int32Array(iv.count);
  for (let p = 0; p < n; p++) position[order[p]] = p;
  // The interval of each call a flow is bound to (-1 until found; a call never closed has none).
  const intervalOf = new Map<number, number>();
  for (let k = 0; k < iv.flowCount; k++) for (const call of iv.flowCalls(k)) if (call >= 0) intervalOf.set(call, -1);
  for (let i = 0; i < iv.count; i++) if (intervalOf.has(iv.call(i))) intervalOf.set(iv.call(i), i);
  const after = new Map<number, number[]>();
  const unbound: number[] = [];
  const endNs = new Float64Array(iv.flowCount).fill(NaN);
  const put = (interval: number, e: number): void => {
    const list = after.get(interval);
    if (list === undefined) after.set(interval, [e]);
    else list.push(e);
  };
  for (let k = 0; k < iv.flowCount; k++) {
    const [, sent, to] = iv.flow(k);
    if (to < 0) continue;
    const [fromCall, toCall] = iv.flowCalls(k);
    const sender = fromCall < 0 ? -1 : intervalOf.get(fromCall)! < 0 ? -2 : intervalOf.get(fromCall)!;
    const receiver = toCall < 0 ? -1 : intervalOf.get(toCall)! < 0 ? -2 : intervalOf.get(toCall)!;
    // A call never closed has no interval: its flow events are not written.
    if (sender === -1) unbound.push(2 * k);
    else if (sender >= 0) put(sender, 2 * k);
    if (receiver === -1) unbound.push(2 * k + 1);
    if (receiver < 0) continue;
    // The start's event: its time and where it is written (last when of no call).
    const startNs = sender >= 0 ? nanoseconds(iv.start(sender)) : nanoseconds(sent);
    const startAt = sender >= 0 ? position[sender] : n;
    // Read after the start: later, or at its time and written after it (a start and an end
    // written after one interval are written in flow order, the start first).
    const readAfterStart = (t: number, at: number): boolean => t > startNs || (t === startNs && startAt <= at);
    const atOrAfterStart = (t: number, at: number): number => (readAfterStart(t, at) ? t : t + 1);
    const [t, at] = endPlacement(iv, order, position[receiver], nanoseconds(sent), startNs, atOrAfterStart);
    put(order[at], 2 * k + 1);
    endNs[k] = t;
  }
  return { after, unbound, endNs };
}

/**
 * The time (ns) and the position (in `order`) of the interval after which the end of a flow
 * received in the interval at position `c` is written; see {@link placeFlows}.
 * `atOrAfterStart(t, at)` gives `t`, or `t + 1` when an end at `t` written after position `at`
 * would be read before the flow's start.
 */
function endPlacement(iv: TraceIntervals, order: Int32Array, c: number, sentNs: number, startNs: number, atOrAfterStart: (t: number, at: number) => number): [number, number] {
  const call = order[c];
  const thread = iv.thread(call);
  const callStart = nanoseconds(iv.start(call));
  const callEnd = nanoseconds(iv.stop(call));
  const sameThread = (p: number): boolean => p < order.length && iv.thread(order[p]) === thread;
  // The next interval written on the thread: read before an end at its start if it has a length.
  const next = sameThread(c + 1) ? order[c + 1] : -1;
  const nextStart = next >= 0 ? nanoseconds(iv.start(next)) : Infinity;
  const nextHasLength = next >= 0 && nanoseconds(iv.stop(next)) > nextStart;
  // An end written right after the call at `t` binds to it: read after it, before the next.
  const binds = (t: number): boolean => t >= callStart && (t < callEnd || t === callStart) && (t < nextStart || (t === nextStart && !nextHasLength));
  for (const wanted of [Math.max(callStart, sentNs), Math.max(callStart, startNs)]) {
    const t = atOrAfterStart(wanted, c);
    if (binds(t)) return [t, c];
  }
  // No time binds it to the call: at the send time, after the last interval begun by then on
  // the thread (inside the call: one of its children).
  const lastBegunBy = (t: number): number => {
    let p = c;
    while (sameThread(p + 1) && nanoseconds(iv.start(order[p + 1])) <= t) p++;
    return p;
  };
  const wanted = Math.max(callStart, sentNs);
  let at = lastBegunBy(wanted);
  const t = atOrAfterStart(wanted, at);
  if (t !== wanted) at = lastBegunBy(t);
  return [t, at];
}
