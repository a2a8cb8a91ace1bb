import fc from "fast-check";
import { isTimeMetric, TrialBuilder, type InvocationRecord, type Trial } from "../../index.js";

/** Awkward but representable names: quotes, unicode, brackets, arrows, padding (no line breaks, no `GROUP="`). */
export const awkwardName = fc
  .oneof(
    fc.string({ minLength: 0, maxLength: 12 }),
    fc.constantFrom(".TAU application", ".TAU application => MPI_Init()", "MPI_Init()  ", 'say "hi"', "a => b", "  => x", "f [ <size> = <100> ]", "ünïcødé ∑", "x : y", "<tag>&amp;", "\t tab", "[SAMPLE] f"),
  )
  .filter((s) => !/[\r\n\u0000]/.test(s) && !s.includes('GROUP="'));

/** A record's component, port or method: awkward but not blank. */
const recordName = awkwardName.filter((s) => s.trim() !== "");
const groupName = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== "" && !/[\r\n"|\u0000]/.test(s));
const xmlText = fc.string({ maxLength: 10 }).filter((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s));
const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 });
/** A duration (a record's wall or MPI time), which the records readers refuse below 0. */
const duration = fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e300 });

/** A random trial: metrics (TIME gets integer values), threads, timers, user events, metadata and records. */
export const arbitraryTrial: fc.Arbitrary<Trial> = fc
  .record({
    metrics: fc.uniqueArray(fc.oneof(fc.constant("TIME"), fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/[\r\n\u0000-\u001f]/.test(s) && s.trim() === s && s !== "")), { minLength: 1, maxLength: 3 }),
    threads: fc.uniqueArray(fc.tuple(fc.nat(5), fc.nat(1), fc.nat(2)), { minLength: 1, maxLength: 4, selector: (t) => t.join(".") }),
    timers: fc.array(fc.tuple(awkwardName, fc.array(groupName, { maxLength: 2 })), { minLength: 1, maxLength: 6 }),
    events: fc.array(awkwardName, { maxLength: 3 }),
    metadata: fc.array(fc.tuple(xmlText.filter((k) => k !== "Metric Name"), xmlText), { maxLength: 3 }),
    seedValues: fc.array(fc.tuple(fc.nat(1000), fc.nat(1000), finite, finite, fc.boolean()), { minLength: 64, maxLength: 64 }),
    records: fc.array(
      fc.record({
        // (The records readers refuse a blank name.)
        component: recordName,
        port: recordName,
        method: recordName,
        rank: fc.nat(8),
        parameters: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.oneof(finite, fc.string({ minLength: 1, maxLength: 5 }).filter((s) => !/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(s) && !/[\r\u0000]/.test(s)))),
        start: finite,
        wallTime: duration,
        mpiTime: duration,
        computeTime: finite,
        counters: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), finite),
      }),
      { maxLength: 3 },
    ),
  })
  .map((s) => {
    const b = new TrialBuilder({ metrics: s.metrics });
    const threads = s.threads.map(([n, c, t]) => b.addThread(n, c, t));
    const timers = s.timers.map(([name, groups]) => b.timer(name, groups));
    const events = s.events.map((e) => b.userEvent(e));
    let k = 0;
    const next = () => s.seedValues[k++ % s.seedValues.length];
    for (const th of threads) {
      for (const t of new Set(timers)) {
        const [calls, subrs, x, y, skip] = next();
        if (skip && th > 0) continue;
        const ex = s.metrics.map((m, i) => (isTimeMetric(m) ? Math.round(Math.abs(x) % 1e9) + i : x / (i + 1)));
        const inc = s.metrics.map((m, i) => (isTimeMetric(m) ? Math.round(Math.abs(y) % 1e9) : y + i));
        b.setValues(th, t, { calls, subroutines: subrs, exclusive: ex, inclusive: inc });
      }
      for (const e of new Set(events)) {
        const [count, , x, y] = next();
        b.setEventTotals(th, e, { count, min: Math.min(x, y), max: Math.max(x, y), mean: (x + y) / 2, sumSquares: Math.abs(x) });
      }
      for (const [key, value] of s.metadata) b.setThreadMetadata(th, key, value);
    }
    for (const r of s.records) b.addRecord(r as InvocationRecord);
    return b.build({ checkInvariants: false });
  });

/** Asserts two trials hold the same data (timers matched by name, metrics by name, metadata per thread merged, and records unless `records: false`). Returns a message for the first difference, or undefined. */
export function trialDifference(a: Trial, b: Trial, options: { readonly records?: boolean } = {}): string | undefined {
  if (JSON.stringify(a.threads) !== JSON.stringify(b.threads)) return `threads ${JSON.stringify(a.threads)} vs ${JSON.stringify(b.threads)}`;
  if ([...a.metrics].sort().join("\n") !== [...b.metrics].sort().join("\n")) return `metrics ${a.metrics} vs ${b.metrics}`;
  if (a.timers.length !== b.timers.length) return `timer count ${a.timers.length} vs ${b.timers.length}`;
  for (const ta of a.timers) {
    const tb = b.findTimer(ta.name);
    if (!tb) return `timer '${ta.name}' missing`;
    if (tb.name !== ta.name || ta.groups.join("|") !== tb.groups.join("|")) return `timer '${ta.name}' groups ${ta.groups} vs ${tb.groups}`;
    for (let th = 0; th < a.threads.length; th++) {
      if (a.has(th, ta.index) !== b.has(th, tb.index)) return `presence of '${ta.name}' on ${th}`;
      if (a.calls(th, ta.index) !== b.calls(th, tb.index) || a.subroutines(th, ta.index) !== b.subroutines(th, tb.index)) return `calls of '${ta.name}' on ${th}`;
      for (let m = 0; m < a.metrics.length; m++) {
        const mb = b.metricIndex(a.metrics[m]);
        if (a.exclusive(m, th, ta.index) !== b.exclusive(mb, th, tb.index)) return `exclusive of '${ta.name}' ${a.metrics[m]} on ${th}: ${a.exclusive(m, th, ta.index)} vs ${b.exclusive(mb, th, tb.index)}`;
        if (a.inclusive(m, th, ta.index) !== b.inclusive(mb, th, tb.index)) return `inclusive of '${ta.name}' ${a.metrics[m]} on ${th}`;
      }
    }
  }
  if (a.userEvents.length !== b.userEvents.length) return `user event count ${a.userEvents.length} vs ${b.userEvents.length}`;
  for (const ua of a.userEvents) {
    const ub = b.findUserEvent(ua.name);
    if (!ub) return `user event '${ua.name}' missing`;
    for (let th = 0; th < a.threads.length; th++) {
      for (const f of ["present", "count", "min", "max", "mean", "sumSquares"] as const) {
        if (a.events[f][a.eventSlot(th, ua.index)] !== b.events[f][b.eventSlot(th, ub.index)]) return `user event '${ua.name}' ${f} on ${th}`;
      }
    }
  }
  for (let th = 0; th < a.threads.length; th++) {
    const ma = JSON.stringify([...a.threadMetadataMerged(th)].sort());
    const mb = JSON.stringify([...b.threadMetadataMerged(th)].sort());
    if (ma !== mb) return `metadata of thread ${th}: ${ma} vs ${mb}`;
  }
  const norm = (rs: readonly InvocationRecord[]) => JSON.stringify(rs.map((r) => ({ ...r, parameters: sortKeys(r.parameters), counters: sortKeys(r.counters) })));
  if (options.records !== false && norm(a.records) !== norm(b.records)) return `records ${JSON.stringify(a.records)} vs ${JSON.stringify(b.records)}`;
  return undefined;
}

function sortKeys<T>(o: Readonly<Record<string, T>>): [string, T][] {
  return Object.entries(o).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
}
