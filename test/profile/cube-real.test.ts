import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectTrialFormat, measurementFileKind, readTrial, type Trial } from "../../index.js";
import { CUBE } from "./data.js";

const TIME_P4 = join(CUBE, "time.p4.n2000.x1.r0");
const CALL_TREE = join(CUBE, "call_tree_test");

/** The call path (region names, root first) of every cnode id of a .cubex, read with `tar` and regular expressions, not the reader under test. */
function cnodePaths(cubex: string): Map<number, string[]> {
  const anchor = execFileSync("tar", ["-xOf", cubex, "anchor.xml"]).toString("utf8");
  const decode = (s: string) => s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e]!);
  const regions = new Map<number, string>();
  for (const m of anchor.matchAll(/<region id="(\d+)"[^>]*>\s*<name>([^<]*)<\/name>/g)) regions.set(Number(m[1]), decode(m[2]));
  const paths = new Map<number, string[]>();
  const stack: string[] = [];
  for (const m of anchor.matchAll(/<cnode id="(\d+)" calleeId="(\d+)"\s*(\/?)>|<\/cnode>/g)) {
    if (m[1] === undefined) {
      stack.pop();
      continue;
    }
    stack.push(regions.get(Number(m[2]))!);
    paths.set(Number(m[1]), [...stack]);
    if (m[3] === "/") stack.pop();
  }
  return paths;
}

/** A CSV of pycubexr's test data: per row (cnode id, thread id), the named columns. */
function csvRows(path: string): { cnode: number; thread: number; values: Map<string, number> }[] {
  const [header, ...lines] = readFileSync(path, "utf8").trim().split("\n");
  const names = header.split(",").map((x) => x.trim());
  return lines.map((l) => {
    const f = l.split(",").map(Number);
    return { cnode: f[0], thread: f[1], values: new Map(names.map((n, i) => [n, f[i]])) };
  });
}

/** The timer of a cnode's path: the flat timer for a root, else the callpath timer. */
function timerOf(t: Trial, path: string[]): number {
  return (path.length === 1 ? t.timer(path[0]) : t.findCallpath(path)!).index;
}

/** Relative difference, against the 6 significant digits the CSV files print. */
function close(ours: number, theirs: number): boolean {
  return Math.abs(ours - theirs) <= 5e-6 * Math.max(Math.abs(theirs), 1e-9) + 1e-9;
}

describe("real CUBE4 profiles (Score-P .cubex)", () => {
  it("are recognised by name and by content", () => {
    expect(detectTrialFormat(join(TIME_P4, "profile.cubex"))).toBe("cube");
    expect(measurementFileKind(join(CALL_TREE, "call_tree_test.cubex"))).toBe("a CUBE4 profile (.cubex)");
  });

  for (const [dir, file, metrics] of [
    [TIME_P4, "profile.cubex", ["time", "bytes_sent", "bytes_received"]],
    [CALL_TREE, "call_tree_test.cubex", ["time"]],
  ] as const) {
    it(`gives ${dir.split("/").pop()}'s calls and exclusive and inclusive values of every call node and thread as CubeLib's export does`, () => {
      const cubex = join(dir, file);
      const t = readTrial(cubex);
      const paths = cnodePaths(cubex);
      // Every call path here is one call node (none shares its regions' sequence with another).
      expect(new Set([...paths.values()].map((p) => p.join(" => "))).size).toBe(paths.size);
      let compared = 0;
      for (const [form, csv] of [["exclusive", "excl.csv"], ["inclusive", "incl.csv"]] as const) {
        for (const row of csvRows(join(dir, csv))) {
          const th = t.threadIndex(row.cnode === -1 ? 0 : row.thread);
          const timer = timerOf(t, paths.get(row.cnode)!);
          if (form === "exclusive") expect(t.calls(th, timer), `calls of cnode ${row.cnode} thread ${row.thread}`).toBe(row.values.get("visits"));
          for (const m of metrics) {
            const metric = t.metricIndex(m === "time" ? "TIME" : m);
            // TIME in microseconds, as TAU profiles hold it; the CSV has seconds.
            const theirs = row.values.get(m)! * (m === "time" ? 1e6 : 1);
            const ours = form === "exclusive" ? t.exclusive(metric, th, timer) : t.inclusive(metric, th, timer);
            expect(close(ours, theirs), `${form} ${m} of cnode ${row.cnode} (${paths.get(row.cnode)!.join(" => ")}) thread ${row.thread}: ${ours} vs ${theirs}`).toBe(true);
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(30);
    });
  }

  it("reads time.p4's four MPI ranks as threads 0..3 with their location metadata, and says which metrics it leaves out", () => {
    const t = readTrial(join(TIME_P4, "profile.cubex"));
    expect(t.threads.map((x) => `${x.node},${x.context},${x.thread}`)).toEqual(["0,0,0", "1,0,0", "2,0,0", "3,0,0"]);
    expect(t.metrics).toEqual(["TIME", "bytes_sent", "bytes_received"].concat(t.metrics.slice(3)));
    expect(t.metadata.get("Creator")).toBe("Score-P 9.0-dev");
    expect(t.metadata.get("CUBE metrics not read")).toBe("min_time (MINDOUBLE), max_time (MAXDOUBLE)");
    expect(t.threadMetadata[1].get("CUBE location group")).toBe("MPI Rank 1");
    expect(t.threadMetadata[1].get("CUBE system tree")).toBe("machine Linux / node mpsd0027");
    expect(t.timer("MPI_Init").groups).toEqual(["MPI"]);
    expect(t.warnings).toEqual([]);
  });

  it("reads kripke's hardware counters as metrics (counts), and its 8 ranks", () => {
    const t = readTrial(join(CUBE, "kripke.p8.d2.g32.r1", "profile.cubex"));
    expect(t.threads.length).toBe(8);
    expect(t.metrics).toEqual(expect.arrayContaining(["TIME", "PAPI_TOT_INS", "PAPI_FP_OPS"]));
    const solve = t.timer("Solve").index;
    const ins = t.metricIndex("PAPI_TOT_INS");
    for (let th = 0; th < 8; th++) {
      expect(t.inclusive(ins, th, solve)).toBeGreaterThan(t.exclusive(ins, th, solve));
      expect(Number.isInteger(t.inclusive(ins, th, solve))).toBe(true);
    }
  });

  it("reads CubeLib's example of every data type: each value column is the location of that id, an unsigned count's exclusive value is never negative", () => {
    // pycubexr's values of this file (its test_only_files), but for two things: pycubexr gives the
    // columns to the locations in the order the system tree lists them (0, 2, 1, 3), where CubeLib
    // writes a row in location id order; and it reads no metric in seconds as microseconds.
    const t = readTrial(join(CUBE, "cube-values_example", "cube-values_example.cubex"));
    expect(t.metrics).toEqual(["INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32", "INT64", "UINT64", "DOUBLE"]);
    expect(t.metadata.get("CUBE metrics not read")).toBe("MINDOUBLE (MINDOUBLE), MAXDOUBLE (MAXDOUBLE), RATE (RATE), TAU_ATOMIC (TAU_ATOMIC), HISTOGRAM5 (HISTOGRAM(5)), NDOUBLES10 (NDOUBLES(10)), SCALE_FUNC3 (SCALE_FUNC), COMPLEX (COMPLEX), TAU_ATOMIC2 (TAU_ATOMIC)");
    const main = t.timer("main").index;
    const foo = t.findCallpath(["main", "foo"])!.index;
    // Location id i (thread i of process i % 2) holds column i: main's inclusive value i + 1.
    for (const [id, node] of [[0, 0], [1, 1], [2, 0], [3, 1]]) {
      const th = t.threadIndex(node, 0, id);
      expect(t.threadMetadata[th].get("CUBE location")).toBe(`Thread ${id}`);
      for (const m of ["INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32", "INT64", "UINT64"]) {
        const mi = t.metricIndex(m);
        // Every metric's unit is seconds: microseconds here.
        expect([t.inclusive(mi, th, main), t.inclusive(mi, th, foo)]).toEqual([(id + 1) * 1e6, (id + 5) * 1e6]);
        // main's children hold more than main: signed, a negative exclusive value; unsigned, 0.
        expect(t.exclusive(mi, th, main)).toBe(m.startsWith("U") ? 0 : -(13 + id) * 1e6);
      }
      expect(t.inclusive(t.metricIndex("DOUBLE"), th, main)).toBeCloseTo(1.1 * (id + 1) * 1e6, 6);
    }
  });
});
