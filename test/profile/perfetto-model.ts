/** A trace event as the tests read it. */
export type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tid: number; id?: number };

/** What Perfetto makes of one flow (see {@link perfettoImport}). */
export interface PerfettoFlow {
  /** The slice its start binds to, or undefined when no slice was on its thread's stack. */
  readonly from: TraceEvent | undefined;
  /** The slice its end binds to, or undefined when none was on its thread's stack. */
  readonly to: TraceEvent | undefined;
  /** Its end was read before its start (`flow_end_without_start`): no arrow. */
  readonly dropped: boolean;
  /**
   * The arrow Perfetto's flow table keeps, `[out, in]`: from the slice that starts first (its
   * flow tracker orders the two slices by their start, not by the flow events' times); undefined
   * when dropped or unbound.
   */
  readonly arrow: [TraceEvent, TraceEvent] | undefined;
}

/**
 * Perfetto's JSON import of slices and flows (v1, `ph: "s"` and `ph: "f"`), reduced to what
 * decides them (src/trace_processor: the sorter's TimestampedEvent::SlowOperatorLess,
 * SliceTracker::MaybeCloseStack and GetTopmostSliceOnTrack, FlowTracker::Begin and End):
 * - events are read in order of nanosecond time; at one time the slices with a length first
 *   (the longest first), then the others (instants, flow events) in file order;
 * - per thread a stack of slices: a slice (or thread instant) read pops the slices that end
 *   before it (or at its start, unless both are instants), then is pushed;
 * - a flow event binds to the slice on top of its thread's stack as the last slice read left
 *   it, ended or not (a flow event pops nothing);
 * - a flow's end read before its start is dropped (and so is one whose start bound no slice).
 * Returns what each flow id became.
 */
export function perfettoImport(events: readonly TraceEvent[]): Map<number, PerfettoFlow> {
  const ns = (us: number): number => Math.round(us * 1000);
  const order = events
    .map((e, index) => ({ e, index, slice: e.ph === "X" && ns(e.dur!) > 0 }))
    .filter(({ e }) => e.ph === "X" || e.ph === "i" || e.ph === "s" || e.ph === "f")
    .sort((a, b) => ns(a.e.ts) - ns(b.e.ts) || (a.slice === b.slice ? 0 : a.slice ? -1 : 1) || (a.slice ? ns(b.e.dur!) - ns(a.e.dur!) : 0) || a.index - b.index);
  const stacks = new Map<number, { e: TraceEvent; end: number; length: number }[]>();
  const started = new Map<number, TraceEvent>();
  const flows = new Map<number, PerfettoFlow>();
  const startNs = (e: TraceEvent): number => ns(e.ts);
  for (const { e } of order) {
    const stack = stacks.get(e.tid) ?? [];
    stacks.set(e.tid, stack);
    const t = ns(e.ts);
    if (e.ph === "X" || e.ph === "i") {
      const length = ns(e.dur ?? 0);
      const ended = (s: { end: number; length: number }): boolean => s.end < t || (s.end === t && !(s.length === 0 && length === 0));
      while (stack.length > 0 && ended(stack[stack.length - 1]!)) stack.pop();
      stack.push({ e, end: t + length, length });
      continue;
    }
    const top = stack[stack.length - 1]?.e;
    if (e.ph === "s") {
      if (top !== undefined) started.set(e.id!, top);
      const read = flows.get(e.id!);
      flows.set(e.id!, read === undefined ? { from: top, to: undefined, dropped: false, arrow: undefined } : { ...read, from: top });
      continue;
    }
    const from = started.get(e.id!);
    const dropped = from === undefined;
    const arrow: [TraceEvent, TraceEvent] | undefined = dropped || top === undefined ? undefined : startNs(from) > startNs(top) ? [top, from] : [from, top];
    flows.set(e.id!, { from: flows.get(e.id!)?.from, to: top, dropped, arrow });
  }
  return flows;
}

/**
 * Per flow id, the names of the slices Perfetto binds its start and end to (see
 * {@link perfettoImport}): `"(none)"` for no slice, `"(dropped)"` for an end read before its start.
 */
export function perfettoFlowBindings(events: readonly TraceEvent[]): Map<number, [string, string]> {
  const bindings = new Map<number, [string, string]>();
  for (const [id, f] of perfettoImport(events)) bindings.set(id, [f.from?.name ?? "(none)", f.dropped ? "(dropped)" : (f.to?.name ?? "(none)")]);
  return bindings;
}

/** How many flows Perfetto drops, their end read before their start (its `flow_end_without_start`). */
export function droppedFlows(events: readonly TraceEvent[]): number {
  let n = 0;
  for (const f of perfettoImport(events).values()) if (f.dropped) n++;
  return n;
}

/** The last slice or instant before flow event `e` in the file: the call a flow event is written after. */
export function callBefore<T extends { ph: string }>(events: readonly T[], e: T): T {
  let i = events.indexOf(e) - 1;
  while (i >= 0 && (events[i]!.ph === "s" || events[i]!.ph === "f")) i--;
  return events[i]!;
}
