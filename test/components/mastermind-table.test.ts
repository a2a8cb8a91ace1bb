import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Mastermind } from "../../components/index.js";
import { formatRecordsCsv, formatRecordsJsonl, parseRecordsCsv, parseRecordsJsonl, recordAt, recordColumns, recordList, TrialBuilder, type InvocationRecord } from "../../profile/index.js";
import { recordRows, type Column, type DictColumn } from "../../profile/study/index.js";

/** Metric values as the runtime passes them: TIME first, then the counters. */
const at = (time: number, ...counters: number[]) => Float64Array.from([time, ...counters]);

const name = fc.constantFrom("Q", "mode", "x", "a,b", 'say "hi"', " padded", "ü");
// (Finite numbers and non-blank names: the record writers refuse the others, which a run never makes.)
const value = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 5 }), fc.constantFrom("", "line\nbreak", "strided", -0));
const site = fc.record({ component: fc.constantFrom("A", "B,c", " x "), port: fc.constantFrom("work", "p"), method: fc.constantFrom("run", 'm"'), params: fc.array(name, { maxLength: 4 }) });
const call = fc.record({
  site: fc.nat(),
  rank: fc.nat(16),
  start: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
  wall: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e6 }),
  mpiBefore: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e6 }),
  mpi: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e6 }),
  counter: fc.double({ noNaN: true, noDefaultInfinity: true }),
  values: fc.array(value, { minLength: 4, maxLength: 4 }),
});

/** A Mastermind holding `calls` of `sites`, with one counter stored and one recomputed from TIME. */
type Site = typeof site extends fc.Arbitrary<infer T> ? T : never;
type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

function filled(sites: readonly Site[], calls: readonly Call[]): Mastermind {
  const mm = new Mastermind(["L2_MISSES", "PAPI_TOT_CYC"], [undefined, 2800]);
  const ids = sites.map((s) => mm.site(s.component, s.port, s.method, s.params));
  for (const c of calls) {
    const s = c.site % sites.length;
    const t = mm.begin(c.rank, ids[s], at(c.start, 0, c.start * 2800), c.mpiBefore);
    sites[s].params.forEach((_, k) => mm.param(t, k, c.values[k]));
    mm.end(t, at(c.start + c.wall, c.counter, (c.start + c.wall) * 2800), c.mpiBefore + c.mpi);
  }
  return mm;
}

describe("the Mastermind as a record table", () => {
  it("reads every row as the record object it makes, and writes the same files from either (property)", () => {
    fc.assert(
      fc.property(fc.array(site, { minLength: 1, maxLength: 4 }), fc.array(call, { maxLength: 30 }), (sites, calls) => {
        const mm = filled(sites, calls);
        const objects = mm.records;
        expect(recordList(mm)).toEqual(objects);
        for (let i = 0; i < mm.count; i++) expect(recordAt(mm, i)).toEqual(objects[i]);
        expect(recordColumns(mm)).toEqual(recordColumns(objects));
        expect(formatRecordsCsv(mm)).toBe(formatRecordsCsv(objects));
        expect(formatRecordsJsonl(mm)).toBe(formatRecordsJsonl(objects));
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it("gives the study's record tables the rows of its record objects, keys in their objects' order (property)", () => {
    fc.assert(
      fc.property(fc.array(site, { minLength: 1, maxLength: 4 }), fc.array(call, { maxLength: 30 }), (sites, calls) => {
        const mm = filled(sites, calls);
        const objects = mm.records;
        const rows = recordRows(mm);
        expect(plain(rows.record)).toEqual(plain(recordRowsOf(objects)));
        const [, pIndex, pName, pValue, pNumeric] = plain(rows.record_parameter);
        const params = objects.flatMap((r, i) => Object.keys(r.parameters).map((k) => [i, k, String(r.parameters[k]), r.parameters[k]] as const));
        expect(pIndex).toEqual(params.map((p) => p[0]));
        expect(pName).toEqual(params.map((p) => p[1]));
        expect(pValue).toEqual(params.map((p) => p[2]));
        expect(pNumeric).toEqual(params.map((p) => (typeof p[3] === "number" && Number.isFinite(p[3]) ? p[3] : null)));
        const counters = objects.flatMap((r, i) => Object.keys(r.counters).map((k) => [i, k, r.counters[k]]));
        expect(plain(rows.record_counter).slice(1)).toEqual([counters.map((c) => c[0]), counters.map((c) => c[1]), counters.map((c) => c[2])]);
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it("keeps a parameter named __proto__ as a key of the record's object, and through its files", () => {
    const mm = new Mastermind([]);
    const id = mm.site("A", "work", "run", ["Q", "__proto__"]);
    const token = mm.begin(0, id, at(1), 0);
    mm.param(token, 0, 8);
    mm.param(token, 1, "strided");
    mm.end(token, at(3), 0);
    const [record] = mm.records;
    expect(Object.keys(record.parameters)).toEqual(["Q", "__proto__"]);
    expect(Object.getPrototypeOf(record.parameters)).toBe(Object.prototype);
    expect(record.parameters["__proto__"]).toBe("strided");
    for (const text of [formatRecordsCsv(mm), formatRecordsJsonl(mm)]) {
      const [back] = text.startsWith("{") ? parseRecordsJsonl(text) : parseRecordsCsv(text);
      expect(Object.keys(back.parameters)).toEqual(["Q", "__proto__"]);
      expect(back.parameters["__proto__"]).toBe("strided");
    }
  });

  it("lists a site as a kind with the Mastermind's counters, and a site without records adds no column", () => {
    const mm = new Mastermind(["CYC"]);
    const used = mm.site("A", "work", "run", ["x"]);
    mm.site("B", "work", "run", ["never"]);
    mm.end(mm.begin(2, used, at(1, 10), 0), at(4, 19), 0);
    expect(mm.kinds).toEqual([
      { component: "A", port: "work", method: "run", parameterNames: ["x"], counterNames: ["CYC"] },
      { component: "B", port: "work", method: "run", parameterNames: ["never"], counterNames: ["CYC"] },
    ]);
    expect([mm.kind(0), mm.rank(0), mm.start(0), mm.wallTime(0), mm.mpiTime(0), mm.computeTime(0), mm.counter(0, 0)]).toEqual([0, 2, 1, 3, 0, 3, 9]);
    expect(recordColumns(mm)).not.toContain("param:never");
  });

  it("is kept as a trial's record table, whose record objects the trial makes when asked", () => {
    const mm = filled([{ component: "A", port: "p", method: "run", params: ["Q", "mode"] }], [
      { site: 0, rank: 1, start: 0, wall: 5, mpiBefore: 0, mpi: 1, counter: 7, values: [64, "strided", 0, 0] },
      { site: 0, rank: 0, start: 5, wall: 2, mpiBefore: 1, mpi: 0, counter: 3, values: [128, "sequential", 0, 0] },
    ]);
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.addThread(0);
    b.addRecords(mm);
    const trial = b.build();
    expect(trial.recordTable).toBe(mm);
    expect(trial.records).toEqual(mm.records);
  });
});

/** The record table's columns for `records`, taken field by field from the objects. */
function recordRowsOf(records: readonly InvocationRecord[]): Column[] {
  const f = (get: (r: InvocationRecord) => number) => Float64Array.from(records, get);
  const s = (get: (r: InvocationRecord) => string): DictColumn => {
    const dict = [...new Set(records.map(get))];
    return { dict, codes: Int32Array.from(records, (r) => dict.indexOf(get(r))) };
  };
  return [[], f((_r) => records.indexOf(_r)), s((r) => r.component), s((r) => r.port), s((r) => r.method), f((r) => r.rank), f((r) => r.start), f((r) => r.wallTime), f((r) => r.mpiTime), f((r) => r.computeTime)];
}

/** Columns as plain arrays: dictionary columns decoded, nullable ones with null where marked. */
function plain(columns: readonly Column[]): unknown[][] {
  return columns.map((c) => {
    if (Array.isArray(c)) return c;
    if (c instanceof Float64Array) return [...c];
    if ("dict" in c) return [...c.codes].map((k) => c.dict[k]);
    return [...c.values].map((v, i) => (c.nulls[i] ? null : v));
  });
}
