import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { callpathTree, derivedEventView, derivedView, detectTrialFormat, readTrial, type DerivedKind, type Trial } from "../../index.js";
import { TAU_XML } from "./data.js";

const CORRELATION = join(TAU_XML, "metadata-correlation.xml");
const BREAKDOWN = join(TAU_XML, "class-breakdown.xml.gz");

/** The text of a fixture, decompressed. */
function textOf(path: string): string {
  const raw = readFileSync(path);
  return (raw[0] === 0x1f ? gunzipSync(raw) : raw).toString("utf8");
}

/** Element text as XML has it: CDATA verbatim, the five entities decoded. */
function xmlText(s: string): string {
  const cdata = /^<!\[CDATA\[([^]*)\]\]>$/.exec(s);
  if (cdata) return cdata[1];
  return s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e]!);
}

/** The names of the ids of a definitions block's `<tag id="N"><name>...</name>` entries, normalized as ParaProf does. */
function definedNames(block: string, tag: string): Map<number, string> {
  const names = new Map<number, string>();
  for (const m of block.matchAll(new RegExp(`<${tag} id="(\\d+)"><name>([^]*?)</name>`, "g"))) names.set(Number(m[1]), xmlText(m[2]).replace(/\s+/g, " ").trim());
  return names;
}

/** The unified (`thread="*"`) definitions of a merged file. */
function unifiedDefinitions(text: string): string {
  return /<definitions thread="\*">([^]*?)<\/definitions>/.exec(text)![1];
}

/**
 * TAU's own derived profiles of a merged file, read with regular expressions (not the reader under
 * test): per entity (`total`, `mean_all`, ...), per event name, the `[calls, subrs, excl, incl]`
 * row of each id of that name (TAU may define several ids of one name, e.g. one per thread).
 */
function tauDerived(text: string): Map<string, Map<string, number[][]>> {
  const names = definedNames(unifiedDefinitions(text), "event");
  const out = new Map<string, Map<string, number[][]>>();
  // (TAU names the min and max blocks `<min_no_null_derivedprofile>` and `<max_no_null_derivedprofile>`.)
  for (const m of text.matchAll(/<\w*derivedprofile derivedentity="([^"]+)">\s*<derivedinterval_data metrics="0 ">([^<]*)<\/derivedinterval_data>/g)) {
    const rows = new Map<string, number[][]>();
    for (const line of m[2].split("\n")) {
      const f = line.trim().split(/\s+/).map(Number);
      if (f.length !== 5) continue;
      const name = names.get(f[0])!;
      rows.set(name, [...(rows.get(name) ?? []), f.slice(1)]);
    }
    out.set(m[1], rows);
  }
  return out;
}

/** Our derived view of `kind` as TAU's rows: per timer name, `[calls, subrs, excl, incl]` of metric 0. */
function ourDerived(t: Trial, kind: DerivedKind, includeMissing: boolean): Map<string, number[]> {
  const v = derivedView(t, kind, { includeMissing });
  const out = new Map<string, number[]>();
  for (const timer of t.timers) if (v.present[timer.index]) out.set(timer.name, [v.calls[timer.index], v.subroutines[timer.index], v.exclusive[0][timer.index], v.inclusive[0][timer.index]]);
  return out;
}

/**
 * The largest relative difference between TAU's and our rows, and how many names were compared:
 * every name of one id; with `additive` (totals, and means over all threads, which share one
 * divisor), also names of several ids, whose rows the reader adds up, against the sum of TAU's.
 */
function largestDifference(tau: Map<string, number[][]>, ours: Map<string, number[]>, additive: boolean): { worst: number; compared: number } {
  expect([...ours.keys()].sort()).toEqual([...tau.keys()].sort());
  let worst = 0;
  let compared = 0;
  for (const [name, rows] of tau) {
    if (rows.length > 1 && !additive) continue;
    const a = rows.reduce((sum, r) => sum.map((x, k) => x + r[k]), [0, 0, 0, 0]);
    const b = ours.get(name)!;
    for (let k = 0; k < 4; k++) {
      // TAU's `*_no_null` extremes leave zeros out, and are -1 where every value is 0 (where some
      // thread's value is 0 and another's is not they would differ from ours: no such timer here).
      if (a[k] === -1 && b[k] === 0) continue;
      worst = Math.max(worst, Math.abs(a[k] - b[k]) / Math.max(1, Math.abs(a[k])));
    }
    compared++;
  }
  return { worst, compared };
}

/** TAU's derived entities and the views that compute the same: kind and whether threads without the timer count. */
const ENTITIES: [string, DerivedKind, boolean][] = [
  ["total", "total", true],
  ["mean_all", "mean", true],
  ["mean_no_null", "mean", false],
  ["min_no_null", "min", false],
  ["max_no_null", "max", false],
  ["stddev_all", "stddev", true],
  ["stddev_no_null", "stddev", false],
];

describe("real TAU XML profiles (merged tauprofile.xml)", () => {
  it("are recognised by their content, compressed or not", () => {
    expect(detectTrialFormat(CORRELATION)).toBe("xml");
    expect(detectTrialFormat(BREAKDOWN)).toBe("xml");
  });

  it("reads metadata-correlation.xml: 8 ranks, TIME, user events with contexts, rank 0's metadata for all", () => {
    const t = readTrial(CORRELATION);
    expect(t.threads.map((x) => `${x.node},${x.context},${x.thread}`)).toEqual(["0,0,0", "1,0,0", "2,0,0", "3,0,0", "4,0,0", "5,0,0", "6,0,0", "7,0,0"]);
    expect(t.metrics).toEqual(["TIME"]);
    expect(t.timers.length).toBe(79);
    const r3 = t.threadIndex(3);
    const wait = t.timer("MPI_Wait()");
    // Rank 3's row, as the file has it: `37 163090 0 4637184 4637184` (the PerfExplorer example's CSV lists the same 4637184).
    expect([t.calls(r3, wait.index), t.subroutines(r3, wait.index), t.exclusive(0, r3, wait.index), t.inclusive(0, r3, wait.index)]).toEqual([163090, 0, 4637184, 4637184]);
    const ctx = t.findUserEvent("MPI-IO Bytes Read : initialize => MPI_File_read_all()")!;
    expect(ctx.context).toEqual(["initialize", "MPI_File_read_all()"]);
    expect(t.metadata.get("CPU Type")).toBeDefined();
    expect(t.warnings).toEqual([]);
  });

  it("gives, for every timer, TAU's own total, mean, min, max and standard deviation stored in the file", () => {
    for (const file of [CORRELATION, BREAKDOWN]) {
      const t = readTrial(file);
      const tau = tauDerived(textOf(file));
      expect([...tau.keys()].sort()).toEqual(ENTITIES.map((e) => e[0]).sort());
      for (const [entity, kind, includeMissing] of ENTITIES) {
        // Sums, means and extremes to TAU's 16 printed digits; TAU's deviations come from sums of
        // squares, which cancel: within 1e-6 of the value.
        const tolerance = kind === "stddev" ? 1e-6 : 1e-12;
        const { worst, compared } = largestDifference(tau.get(entity)!, ourDerived(t, kind, includeMissing), kind === "total" || (kind === "mean" && includeMissing));
        expect(worst, `${file} ${entity}`).toBeLessThan(tolerance);
        expect(compared, `${file} ${entity}`).toBeGreaterThan(70);
      }
    }
  });

  it("gives TAU's per-column maximum of every user event over the ranks that have it", () => {
    const text = textOf(CORRELATION);
    const names = definedNames(unifiedDefinitions(text), "userevent");
    // Two ids share a name here (TAU's flat "MPI-IO Bytes Read" of two call sites): the reader adds them up.
    const shared = new Set([...names.values()].filter((n, i, all) => all.indexOf(n) !== i));
    expect(shared).toEqual(new Set(["MPI-IO Bytes Read", "MPI-IO Read Bandwidth (MB/s)"]));
    const t = readTrial(CORRELATION);
    // (TAU's `min_no_null` leaves zero values out: ranks whose 62 reads moved 0 bytes do not count
    // there, where our minimum view is 0. Its maximum is the same either way.)
    for (const kind of ["max"] as const) {
      const block = new RegExp(`<${kind}_no_null_derivedprofile derivedentity="${kind}_no_null">[^]*?<derivedatomic_data>([^<]*)</derivedatomic_data>`).exec(text)![1];
      const v = derivedEventView(t, kind);
      let compared = 0;
      for (const line of block.split("\n")) {
        const f = line.trim().split(/\s+/).map(Number);
        if (f.length !== 6 || shared.has(names.get(f[0])!)) continue;
        const e = t.findUserEvent(names.get(f[0])!)!;
        // TAU's columns: samples max min mean sumsqr.
        const ours = [v.count[e.index], v.max[e.index], v.min[e.index], v.mean[e.index], v.sumSquares[e.index]];
        for (let k = 0; k < 5; k++) {
          if (f[k + 1] === -1 && ours[k] === 0) continue;
          expect(Math.abs(ours[k] - f[k + 1]), `${kind} ${names.get(f[0])} column ${k + 1}`).toBeLessThanOrEqual(1e-12 * Math.abs(f[k + 1]));
        }
        compared++;
      }
      expect(compared).toBe(t.userEvents.length - shared.size);
    }
  });

  it("adds up the rows of two user events of one name, where ParaProf keeps the last", () => {
    const t = readTrial(CORRELATION);
    const e = t.findUserEvent("MPI-IO Bytes Read")!;
    const s = t.eventSlot(t.threadIndex(0), e.index);
    // Rank 0's rows: `0 2 262144 262144 262144 137438953472` and `1 62 920640 320 130668.3225806452 4299739063504`.
    expect([t.events.count[s], t.events.max[s], t.events.min[s], t.events.sumSquares[s]]).toEqual([64, 920640, 320, 137438953472 + 4299739063504]);
    expect(t.events.mean[s]).toBeCloseTo((2 * 262144 + 62 * 130668.3225806452) / 64, 6);
    // The same samples as its context events (one per call site).
    const contexts = t.userEvents.filter((u) => u.name.startsWith("MPI-IO Bytes Read : ")).map((u) => t.events.count[t.eventSlot(t.threadIndex(0), u.index)]);
    expect(contexts.reduce((a, b) => a + b, 0)).toBe(64);
  });

  it("reads class-breakdown.xml.gz: 12 OpenMP threads, callpaths, names in CDATA sections", () => {
    const t = readTrial(BREAKDOWN);
    expect(t.threads.length).toBe(12);
    expect(new Set(t.threads.map((x) => x.node))).toEqual(new Set([0]));
    expect(t.threads.map((x) => x.thread)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // A name holding '<' and '&' is written in a CDATA section and read verbatim.
    const merge = t.timers.find((x) => x.name.startsWith("OpenMP_PARALLEL_REGION: merge_remainders(std::map<int, MergedStack*"));
    expect(merge).toBeDefined();
    const tree = callpathTree(t);
    expect(tree.roots.map((r) => r.name)).toContain(".TAU application");
  });
});
