/** A trace event as the tests read it. */
export type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tid: number; id?: number };

/**
 * Where Perfetto binds each flow (its JSON importer: trace_sorter, slice_tracker, flow_tracker),
 * reduced to what decides it: events in order of nanosecond time, at one time the slices with a
 * length first (the longest first), then the others in file order; per thread a stack of open
 * slices, a slice with a length closed by an event at or after its end, one of none only by a
 * later time; a flow event binds to the slice on top of its thread's stack. Returns, per flow id,
 * the names its start and end bind to.
 */
export function perfettoFlowBindings(events: readonly TraceEvent[]): Map<number, [string, string]> {
  const ns = (us: number): number => Math.round(us * 1000);
  const order = events
    .map((e, index) => ({ e, index, slice: e.ph === "X" && ns(e.dur!) > 0 }))
    .filter(({ e }) => e.ph === "X" || e.ph === "i" || e.ph === "s" || e.ph === "f")
    .sort((a, b) => ns(a.e.ts) - ns(b.e.ts) || (a.slice === b.slice ? 0 : a.slice ? -1 : 1) || (a.slice ? ns(b.e.dur!) - ns(a.e.dur!) : 0) || a.index - b.index);
  const stacks = new Map<number, { name: string; end: number; length: number }[]>();
  const bindings = new Map<number, [string, string]>();
  for (const { e } of order) {
    const stack = stacks.get(e.tid) ?? [];
    stacks.set(e.tid, stack);
    const t = ns(e.ts);
    while (stack.length > 0 && (stack[stack.length - 1]!.length > 0 ? stack[stack.length - 1]!.end <= t : stack[stack.length - 1]!.end < t)) stack.pop();
    if (e.ph === "X" || e.ph === "i") stack.push({ name: e.name, end: t + ns(e.dur ?? 0), length: ns(e.dur ?? 0) });
    else {
      const b = bindings.get(e.id!) ?? ["", ""];
      b[e.ph === "s" ? 0 : 1] = stack[stack.length - 1]?.name ?? "(none)";
      bindings.set(e.id!, b);
    }
  }
  return bindings;
}

/** The last slice or instant before flow event `e` in the file: the call a flow event is written after. */
export function callBefore<T extends { ph: string }>(events: readonly T[], e: T): T {
  let i = events.indexOf(e) - 1;
  while (i >= 0 && (events[i]!.ph === "s" || events[i]!.ph === "f")) i--;
  return events[i]!;
}
