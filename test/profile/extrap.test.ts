import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  extrapFromTrials,
  formatExtrapJson,
  formatExtrapJsonLines,
  formatExtrapText,
  parseExtrapJson,
  parseExtrapJsonLines,
  parseExtrapText,
  ProfileFormatError,
  readExtrap,
  readTrial,
  TrialBuilder,
  writeExtrap,
  writeTauProfile,
  type ExtrapExperiment,
} from "../../index.js";
import { main } from "../../cli/main.js";
import { DATA } from "./data.js";

const EX = join(DATA, "extrap");
const scratch = mkdtempSync(join(tmpdir(), "ccasim-extrap-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("Extra-P inputs", () => {
  it("reads the documentation's text example", () => {
    const e = readExtrap(join(EX, "docs_examples_input.txt"));
    expect(e.parameters).toEqual(["p"]);
    expect(e.measurements.length).toBe(5);
    expect(e.measurements[0]).toEqual({ callpath: "example", metric: "time", point: [4], values: [8.31, 8.02, 8.14] });
    expect(e.measurements[4].point).toEqual([64]);
    expect(e.measurements[4].values).toEqual([528.86, 522.44, 531.78]);
  });

  it("refuses a binary file as one, naming a packed profile's reader", () => {
    const ppk = join(DATA, "tau", "ppk", "xgc-nosamples.ppk");
    expect(() => readExtrap(ppk)).toThrow(new ProfileFormatError(ppk, undefined, "not an Extra-P input but a binary file (gzip: a profile, .ppk, .cubex or TAU XML, is read with readTrial)"));
  });

  it("reads a text file with one POINTS line per point and callpaths", () => {
    const e = readExtrap(join(EX, "tests_data_text_one_parameter_2.txt"));
    expect(e.parameters).toEqual(["x"]);
    const paths = [...new Set(e.measurements.map((m) => m.callpath))];
    expect(paths.slice(0, 4)).toEqual(["main", "main->merge", "main->merge->comp1", "main->merge->comp2"]);
    const m = e.measurements.find((x) => x.callpath === "main->sort" && x.point[0] === 60)!;
    expect(m.values.length).toBe(5);
    expect(m.values[0]).toBe(725.3886983183301);
  });

  it("reads JSON and JSON Lines examples", () => {
    const j = readExtrap(join(EX, "tests_data_json_new_input1.json"));
    expect(j.parameters).toEqual(["x"]);
    expect(j.measurements.map((m) => [m.callpath, m.metric, m.point[0], m.values.length])).toEqual([
      ["sweep", "time", 4, 5],
      ["sweep", "time", 8, 5],
      ["sweep", "time", 16, 5],
      ["sweep", "time", 32, 5],
      ["sweep", "time", 64, 5],
    ]);
    const l = readExtrap(join(EX, "tests_data_jsonlines_extended2.jsonl"));
    expect(l.parameters).toEqual(["x", "y"]);
    expect(l.measurements.length).toBe(9);
    expect(l.measurements[5]).toEqual({ callpath: "test", metric: "metr", point: [2, 3], values: [7, 7, 7, 7, 7] });
  });

  it("refuses a point given twice for one callpath and metric of the new JSON, as Extra-P does", () => {
    const doc = JSON.parse(readFileSync(join(EX, "tests_data_json_new_input1.json"), "utf8")) as { measurements: Record<string, Record<string, { point: number[]; values: number[] }[]>> };
    const [callpath, metrics] = Object.entries(doc.measurements)[0]!;
    const [metric, list] = Object.entries(metrics)[0]!;
    expect(() => parseExtrapJson(JSON.stringify(doc), "in.json")).not.toThrow();
    list.push({ point: [...list[0]!.point], values: [1] });
    expect(() => parseExtrapJson(JSON.stringify(doc), "in.json")).toThrow(
      `in.json: measurements['${callpath}']['${metric}'][${list.length - 1}].point [${list[0]!.point.join(", ")}] is measurements['${callpath}']['${metric}'][0].point again: Extra-P refuses a point given twice (give its repetitions as the values of one entry)`,
    );
  });

  it("reads Extra-P's older id-based JSON", () => {
    const old = {
      callpaths: [{ id: 1, name: "main" }],
      coordinates: [
        { id: 1, parameter_value_pairs: [{ parameter_id: 7, parameter_value: 2 }] },
        { id: 2, parameter_value_pairs: [{ parameter_id: 7, parameter_value: 4 }] },
      ],
      measurements: [
        { callpath_id: 1, coordinate_id: 1, id: 1, metric_id: 1, value: 1.5 },
        { callpath_id: 1, coordinate_id: 1, id: 2, metric_id: 1, value: 1.7 },
        { callpath_id: 1, coordinate_id: 2, id: 3, metric_id: 1, value: 3 },
      ],
      metrics: [{ id: 1, name: "time" }],
      parameters: [{ id: 7, name: "p" }],
    };
    expect(parseExtrapJson(JSON.stringify(old))).toEqual({
      parameters: ["p"],
      measurements: [
        { callpath: "main", metric: "time", point: [2], values: [1.5, 1.7] },
        { callpath: "main", metric: "time", point: [4], values: [3] },
      ],
    });
  });

  const arbitraryExperiment: fc.Arbitrary<ExtrapExperiment> = fc
    .record({
      parameters: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,4}$/), { minLength: 1, maxLength: 3 }),
      points: fc.uniqueArray(fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 5, selector: (p) => p.join(",") }),
      regions: fc.uniqueArray(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_:()<> ]{0,8}[A-Za-z0-9_)]$/), { minLength: 1, maxLength: 3 }).filter((rs) => rs.every((r) => !r.includes("  "))),
      metrics: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z_]{0,5}$/), { minLength: 1, maxLength: 2 }),
      values: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), { minLength: 1, maxLength: 4 }),
    })
    .map((s) => ({
      parameters: s.parameters,
      measurements: s.metrics.flatMap((metric) =>
        s.regions.flatMap((r) => s.points.map((p, i) => ({ callpath: r, metric, point: p.slice(0, s.parameters.length), values: s.values.map((v) => v + i) }))),
      ),
    }))
    .filter((e) => new Set(e.measurements.map((m) => JSON.stringify([m.callpath, m.metric, m.point]))).size === e.measurements.length);

  it("round-trips random experiments through text, JSON and JSON Lines", () => {
    fc.assert(
      fc.property(arbitraryExperiment, (e) => {
        // Measurement order is not meaningful (JSON groups by callpath, text by metric).
        const sorted = (x: ExtrapExperiment) => ({ ...x, measurements: [...x.measurements].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) });
        expect(sorted(parseExtrapText(formatExtrapText(e)))).toEqual(sorted(e));
        expect(sorted(parseExtrapJson(formatExtrapJson(e)))).toEqual(sorted(e));
        expect(parseExtrapJsonLines(formatExtrapJsonLines(e))).toEqual(e);
      }),
      { numRuns: 100, seed: 42 },
    );
  });

  it("refuses names Extra-P's text reader would change", () => {
    const e = { parameters: ["p"], measurements: [{ callpath: "a  b", metric: "t", point: [1], values: [1] }] };
    expect(() => formatExtrapText(e)).toThrow(/repeated spaces/);
    expect(parseExtrapJson(formatExtrapJson(e))).toEqual(e);
  });

  it("refuses more than four parameters in the text format, which Extra-P's text reader refuses, and writes them as JSON", () => {
    const names = ["a", "b", "c", "d", "e"];
    const e: ExtrapExperiment = { parameters: names, measurements: [{ callpath: "main", metric: "time", point: [1, 2, 3, 4, 5], values: [1] }] };
    expect(() => formatExtrapText(e)).toThrow(/5 parameters.*at most 4.*JSON/);
    expect(parseExtrapJson(formatExtrapJson(e))).toEqual(e);
    const four: ExtrapExperiment = { parameters: names.slice(0, 4), measurements: [{ callpath: "main", metric: "time", point: [1, 2, 3, 4], values: [1] }] };
    expect(formatExtrapText(four).split("\n").slice(0, 2)).toEqual(["PARAMETER a b c d", "POINTS (1 2 3 4)"]);
  });

  it("writes files by extension and reads them back", () => {
    const e = readExtrap(join(EX, "docs_examples_input.txt"));
    for (const ext of ["txt", "json", "jsonl"]) {
      const p = join(scratch, `e.${ext}`);
      writeExtrap(e, p);
      expect(readExtrap(p)).toEqual(e);
    }
    expect(readFileSync(join(scratch, "e.txt"), "utf8").split("\n").slice(0, 2)).toEqual(["PARAMETER p", "POINTS (4) (8) (16) (32) (64)"]);
  });

  it("exports trials measured at several points, one repetition per trial", () => {
    const trial = (scale: number) => {
      const b = new TrialBuilder({ metrics: ["TIME"] });
      for (let r = 0; r < 2; r++) b.addThread(r);
      const t = b.timer("solve");
      b.setValues(0, t, { calls: 1, exclusive: scale, inclusive: scale });
      b.setValues(1, t, { calls: 1, exclusive: 3 * scale, inclusive: 3 * scale });
      return b.build();
    };
    const e = extrapFromTrials([
      { point: { p: 4 }, trial: trial(10) },
      { point: { p: 4 }, trial: trial(12) },
      { point: { p: 8 }, trial: trial(20) },
    ]);
    expect(e).toEqual({
      parameters: ["p"],
      measurements: [
        { callpath: "solve", metric: "TIME", point: [4], values: [20, 24] },
        { callpath: "solve", metric: "TIME", point: [8], values: [40] },
      ],
      filled: [],
      truncated: [],
      arrowNames: [],
    });
  });

  it("writes every thread's value as a repetition with the statistic 'threads' (0 where a thread never called the timer), the total with 'total'", () => {
    const trial = (scale: number) => {
      const b = new TrialBuilder({ metrics: ["TIME"] });
      for (let r = 0; r < 3; r++) b.addThread(r);
      const t = b.timer("solve");
      b.setValues(0, t, { calls: 1, exclusive: scale, inclusive: scale });
      b.setValues(2, t, { calls: 1, exclusive: 3 * scale, inclusive: 3 * scale });
      return b.build();
    };
    const entries = [
      { point: { p: 4 }, trial: trial(10) },
      { point: { p: 4 }, trial: trial(12) },
      { point: { p: 8 }, trial: trial(20) },
    ];
    expect(extrapFromTrials(entries, { statistic: "threads" }).measurements).toEqual([
      { callpath: "solve", metric: "TIME", point: [4], values: [10, 0, 30, 12, 0, 36] },
      { callpath: "solve", metric: "TIME", point: [8], values: [20, 0, 60] },
    ]);
    expect(extrapFromTrials(entries, { statistic: "total" }).measurements.map((m) => m.values)).toEqual([[40, 48], [80]]);
    // On real runs: the mean of a point's repetitions is the mean statistic's value.
    const G = join(DATA, "tau", "ppk", "gromacs-scaling");
    const runs = [2, 4, 8].map((p) => ({ point: { p }, trial: readTrial(join(G, `${p}.ppk`)) }));
    const mean = extrapFromTrials(runs).measurements;
    const each = extrapFromTrials(runs, { statistic: "threads" }).measurements;
    expect(each.map((m) => m.values.length)).toEqual(mean.map((m) => m.point[0]!));
    each.forEach((m, i) => expect(m.values.reduce((a, b) => a + b, 0) / m.values.length).toBeCloseTo(mean[i]!.values[0]!, 6));
  });

  it("exports the call tree's root by its name with the callpaths, as Extra-P names a Cube tree's nodes", () => {
    const trial = (scale: number) => {
      const b = new TrialBuilder({ metrics: ["TIME"] });
      b.addThread(0);
      const root = b.timer(".TAU application");
      const f = b.timer("f");
      const rf = b.callpath([".TAU application", "f"]);
      b.setValues(0, root, { calls: 1, exclusive: scale, inclusive: 3 * scale });
      b.setValues(0, f, { calls: 1, exclusive: 2 * scale, inclusive: 2 * scale });
      b.setValues(0, rf, { calls: 1, exclusive: 2 * scale, inclusive: 2 * scale });
      return b.build();
    };
    const e = extrapFromTrials([1, 2].map((p) => ({ point: { p }, trial: trial(10 * p) })), { callpaths: true });
    expect(e.measurements.map((m) => [m.callpath, m.point[0], m.values[0]])).toEqual([
      [".TAU application", 1, 30],
      [".TAU application->f", 1, 20],
      [".TAU application", 2, 60],
      [".TAU application->f", 2, 40],
    ]);
    expect(extrapFromTrials([{ point: { p: 1 }, trial: trial(10) }]).measurements.map((m) => m.callpath)).toEqual([".TAU application", "f"]);
  });

  it("names the routines whose names hold '->', Extra-P's separator, and refuses two timers that would share an Extra-P name", () => {
    const trial = (names: string[], callpaths: string[][] = []) => {
      const b = new TrialBuilder({ metrics: ["TIME"] });
      b.addThread(0);
      for (const n of names) b.setValues(0, b.timer(n), { calls: 1, exclusive: 1, inclusive: 1 });
      for (const c of callpaths) b.setValues(0, b.callpath(c), { calls: 1, exclusive: 1, inclusive: 1 });
      return b.build();
    };
    const e = extrapFromTrials([{ point: { p: 1 }, trial: trial(["main", "Ptr::operator->"]) }]);
    expect(e.arrowNames).toEqual(["Ptr::operator->"]);
    expect(extrapFromTrials([{ point: { p: 1 }, trial: trial(["main", "f"]) }]).arrowNames).toEqual([]);
    // A root routine named 'a->b' and the callpath a => b: the second took the first one's values.
    const clash = trial(["a", "b", "a->b", "c"], [["a", "b"], ["a->b", "c"]]);
    expect(() => extrapFromTrials([{ point: { p: 1 }, trial: clash }], { callpaths: true })).toThrow(/timers '.*' and '.*' would both be 'a->b' in Extra-P, whose call-path separator is '->'/);
  });

  it("notes on stderr the routines Extra-P will split at their '->' when profile convert writes an experiment", async () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.addThread(0);
    for (const n of ["main", "Ptr::operator->"]) b.setValues(0, b.timer(n), { calls: 1, exclusive: 1, inclusive: 1 });
    const dir = join(scratch, "arrow-profile");
    writeTauProfile(b.build(), dir);
    let err = "";
    const code = await main(["profile", "convert", dir, join(scratch, "arrow.json"), "--point", "p=1"], { out: () => {}, err: (s) => (err += s) });
    expect(code).toBe(0);
    expect(err).toBe("note: 1 timer name holds '->', Extra-P's call-path separator, and Extra-P shows it as a callpath of its pieces: 'Ptr::operator->'\n");
  });

  it("refuses to export the call tree of a flat profile, which has none (it wrote an experiment without points)", () => {
    const flat = (n: number) => ({ point: { p: n }, trial: readTrial(join(DATA, "tau", "ppk", "gromacs-scaling", `${n}.ppk`)) });
    expect(() => extrapFromTrials([flat(2), flat(4)], { callpaths: true })).toThrow(/gromacs-scaling\/2\.ppk records no callpaths .*a flat profile/);
    // One flat trial among trials with callpaths is refused too: its zeros would read as routines never called.
    const withCallpaths = { point: { p: 8 }, trial: readTrial(join(DATA, "tau", "hatchet-cpi-mpi")) };
    expect(() => extrapFromTrials([withCallpaths, flat(4)], { callpaths: true })).toThrow(/4\.ppk records no callpaths/);
    expect(extrapFromTrials([withCallpaths], { callpaths: true }).measurements.length).toBeGreaterThan(0);
  });

  it("says which trials' callpaths are depth-limited, whose A->B pairs Extra-P shows as separate roots", async () => {
    const wrf = join(DATA, "tau", "ppk", "wrf-callpath.ppk");
    const hatchet = join(DATA, "tau", "hatchet-cpi-mpi");
    const at = (path: string, p: number) => ({ point: { p }, trial: readTrial(path) });
    expect(extrapFromTrials([at(wrf, 1), at(wrf, 2)], { callpaths: true }).truncated).toEqual([wrf, wrf]);
    // Full callpaths (hatchet's, from .TAU application) and flat timers are not depth-limited.
    expect(extrapFromTrials([at(hatchet, 1), at(hatchet, 2)], { callpaths: true }).truncated).toEqual([]);
    expect(extrapFromTrials([at(wrf, 1), at(wrf, 2)]).truncated).toEqual([]);
    let err = "";
    const code = await main(["profile", "convert", wrf, wrf, join(scratch, "wrf.json"), "--callpaths", "--point", "p=1", "--point", "p=2"], { out: () => {}, err: (s) => (err += s) });
    expect(code).toBe(0);
    expect(err).toContain("are depth-limited (TAU_CALLPATH_DEPTH;");
  });

  it("writes 0 where a trial never called a timer, so every callpath has every point (GROMACS 2..32 ranks)", () => {
    const ns = [2, 4, 8, 16, 32];
    const e = extrapFromTrials(ns.map((n) => ({ point: { p: n }, trial: readTrial(join(DATA, "tau", "ppk", "gromacs-scaling", `${n}.ppk`)) })));
    const alltoall = e.measurements.filter((m) => m.callpath === "MPI_Alltoall()" && m.metric === "TIME");
    expect(alltoall.map((m) => m.point[0]).sort((a, b) => a - b)).toEqual(ns);
    // Every (callpath, metric) has a measurement at each of the 5 points, as Extra-P requires.
    const per = new Map<string, number>();
    for (const m of e.measurements) per.set(`${m.callpath}\u0000${m.metric}`, (per.get(`${m.callpath}\u0000${m.metric}`) ?? 0) + 1);
    expect(new Set(per.values())).toEqual(new Set([5]));
    const filled = e.filled.find((f) => f.callpath === "MPI_Alltoall()")!;
    expect(filled.metrics).toEqual(["TIME"]);
    for (const pt of filled.points) expect(alltoall.find((m) => m.point[0] === pt[0])!.values).toEqual([0]);
    expect(alltoall.filter((m) => m.values[0] === 0).length).toBe(filled.points.length);
    expect(filled.points.length).toBe(2);
    // All three formats write it and read it back whole.
    for (const text of [formatExtrapJson(e), formatExtrapJsonLines(e), formatExtrapText(e)]) expect(text.length).toBeGreaterThan(0);
    expect(parseExtrapJson(formatExtrapJson(e)).measurements.length).toBe(e.measurements.length);
    expect(parseExtrapJsonLines(formatExtrapJsonLines(e)).measurements.length).toBe(e.measurements.length);
    expect(parseExtrapText(formatExtrapText(e)).measurements.length).toBe(e.measurements.length);
  });

  it("refuses to write an experiment where a callpath lacks a point, in every format", () => {
    const gap: ExtrapExperiment = {
      parameters: ["p"],
      measurements: [
        { callpath: "a", metric: "TIME", point: [1], values: [1] },
        { callpath: "a", metric: "TIME", point: [2], values: [2] },
        { callpath: "b", metric: "TIME", point: [2], values: [3] },
      ],
    };
    for (const f of [formatExtrapJson, formatExtrapJsonLines, formatExtrapText]) {
      expect(() => f(gap)).toThrow(/callpath 'b' metric 'TIME' has measurements at 1 of the experiment's 2 points \(none at \(p=1\)\)/);
    }
  });

  it("names file and line of malformed text input", () => {
    const bad = "PARAMETER p\nPOINTS (1) (2)\nREGION r\nDATA 1 2\nDATA 1 x\n";
    expect(() => parseExtrapText(bad, "in.txt")).toThrow(ProfileFormatError);
    expect(() => parseExtrapText(bad, "in.txt")).toThrow(/in\.txt:5: expected finite numbers/);
    expect(() => parseExtrapText("PARAMETER p\nPOINTS (1)\nREGION r\nDATA 1\nDATA 2\n", "in.txt")).toThrow(/in\.txt:5: more DATA lines than the 1 POINTS/);
    expect(() => parseExtrapText("PARAMETER p q\nPOINTS (1)\n", "in.txt")).toThrow(/in\.txt:2: a point needs 2 coordinate/);
  });

  it("refuses JSON and JSON Lines with no measurement, or with a callpath lacking a point, as Extra-P does, naming the file", () => {
    // Extra-P's validate_experiment refuses both; a fit of the short callpath failed without naming file or callpath.
    const gap = "callpath 'b' metric 'time' has measurements at 1 of the experiment's 3 points (none at (x=2) (x=4)); Extra-P needs every callpath measured at every point";
    const lines = [1, 2, 4].map((x) => JSON.stringify({ params: { x }, metric: "time", callpath: x === 1 ? "b" : "a", value: [x] }));
    const more = [1, 4].map((x) => JSON.stringify({ params: { x }, metric: "time", callpath: "a", value: [x] }));
    expect(() => parseExtrapJsonLines([...lines, ...more].join("\n"), "in.jsonl")).toThrow(new ProfileFormatError("in.jsonl", undefined, gap));
    const json = { parameters: ["x"], measurements: { a: { time: [1, 2, 4].map((x) => ({ point: [x], values: [x] })) }, b: { time: [{ point: [1], values: [1] }] } } };
    expect(() => parseExtrapJson(JSON.stringify(json), "in.json")).toThrow(new ProfileFormatError("in.json", undefined, gap));
    for (const measurements of [{}, { a: {} }, { a: { time: [] } }]) {
      expect(() => parseExtrapJson(JSON.stringify({ parameters: ["x"], measurements }), "in.json")).toThrow(new ProfileFormatError("in.json", undefined, "no measurements"));
    }
    expect(() => parseExtrapJson(JSON.stringify({ callpaths: [], coordinates: [], measurements: [], metrics: [], parameters: [{ id: 1, name: "x" }] }), "in.json")).toThrow(new ProfileFormatError("in.json", undefined, "no measurements"));
  });

  it("refuses a point listed twice in POINTS, as Extra-P does, at its line (its two DATA lines were pooled)", () => {
    const twice = "PARAMETER p\nPOINTS (1) (2)\nPOINTS (2) (3)\nREGION a\nDATA 1\nDATA 2\nDATA 2.5\nDATA 3\n";
    expect(() => parseExtrapText(twice, "in.txt")).toThrow(new ProfileFormatError("in.txt", 3, "point (2) is listed twice in POINTS, which Extra-P refuses: list each point once and put all its repetitions on its DATA line"));
    expect(() => parseExtrapText("PARAMETER p q\nPOINTS (1 2) (1 3) (1 2)\n", "in.txt")).toThrow(/^in\.txt:2: point \(1 2\) is listed twice in POINTS/);
    expect(parseExtrapText("PARAMETER p q\nPOINTS (1 2) (2 1)\nREGION a\nDATA 1\nDATA 2\n", "in.txt").measurements).toHaveLength(2);
  });

  it("refuses a REGION measured twice for one METRIC, as Extra-P does, at the second block's line (the two blocks were pooled)", async () => {
    // Extra-P's text reader appends the second block's measurements, and validate_experiment
    // refuses a region with more measurements than POINTS. A real input with its block given twice:
    const real = readFileSync(join(EX, "docs_examples_input.txt"), "utf8");
    const block = real.slice(real.indexOf("REGION example"));
    const twice = join(scratch, "region-twice.txt");
    writeFileSync(twice, `${real}\n\n${block}\n`);
    const second = real.split("\n").length + 2;
    const detail = `REGION 'example', METRIC 'time' is given a second time (its first block starts at line 4), which Extra-P refuses (the region's measurements outnumber the 5 POINTS): give each region one block per metric, with all repetitions of a point on its DATA line`;
    expect(() => readExtrap(twice)).toThrow(new ProfileFormatError(twice, second, detail));
    let err = "";
    let out = "";
    const code = await main(["fit", twice], { out: (s) => (out += s), err: (s) => (err += s) });
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain(`${twice}:${second}: ${detail}`);
    // A block repeated under a METRIC line alone, and one without METRIC at all, are refused too.
    const byMetric = "PARAMETER p\nPOINTS (1) (2)\nREGION a\nMETRIC m\nDATA 1\nDATA 2\nMETRIC n\nDATA 1\nDATA 2\nMETRIC m\nDATA 3\nDATA 4\n";
    expect(() => parseExtrapText(byMetric, "in.txt")).toThrow(new ProfileFormatError("in.txt", 10, "REGION 'a', METRIC 'm' is given a second time (its first block starts at line 3), which Extra-P refuses (the region's measurements outnumber the 2 POINTS): give each region one block per metric, with all repetitions of a point on its DATA line"));
    expect(() => parseExtrapText("PARAMETER p\nPOINTS (1)\nREGION a\nDATA 1\nREGION b\nDATA 1\nREGION a\nDATA 2\n", "in.txt")).toThrow(/^in\.txt:7: REGION 'a' is given a second time \(its first block starts at line 3\)/);
    // A REGION line without DATA is replaced by the next: the blocks are placed at the REGION lines that name 'a'.
    expect(() => parseExtrapText("PARAMETER p\nPOINTS (1)\nREGION x\nREGION a\nDATA 1\nREGION y\nREGION a\nDATA 2\n", "in.txt")).toThrow(/^in\.txt:7: REGION 'a' is given a second time \(its first block starts at line 4\)/);
    // The same region under another metric, and a REGION line without DATA, are no repetition.
    expect(parseExtrapText("PARAMETER p\nPOINTS (1)\nMETRIC m\nREGION a\nDATA 1\nMETRIC n\nREGION a\nDATA 2\nREGION a\n", "in.txt").measurements).toHaveLength(2);
  });

  it("refuses a text block with fewer DATA lines than POINTS, at its last DATA line", () => {
    // The missing line could be any point's: reading the lines as the first points would misplace them.
    const short = "PARAMETER p\nPOINTS (1) (2) (3)\nMETRIC time\nREGION a\nDATA 1\nDATA 2\nDATA 3\nREGION b\nDATA 1\nDATA 2\nREGION c\nDATA 1\nDATA 2\nDATA 3\n";
    expect(() => parseExtrapText(short, "in.txt")).toThrow(new ProfileFormatError("in.txt", 10, "2 DATA line(s) for the 3 POINTS of REGION 'b', METRIC 'time': write one DATA line per point, in POINTS order"));
    // The last block is checked at the end of the file, and a block of another metric when the metric changes.
    expect(() => parseExtrapText("PARAMETER p\nPOINTS (1) (2)\nREGION a\nDATA 1\n", "in.txt")).toThrow(/^in\.txt:4: 1 DATA line\(s\) for the 2 POINTS of REGION 'a': /);
    expect(() => parseExtrapText("PARAMETER p\nPOINTS (1) (2)\nREGION a\nMETRIC m\nDATA 1\nMETRIC n\nDATA 1\nDATA 2\n", "in.txt")).toThrow(/^in\.txt:5: 1 DATA line\(s\) for the 2 POINTS of REGION 'a', METRIC 'm': /);
    expect(parseExtrapText("PARAMETER p\nPOINTS (1) (2)\nREGION a\nMETRIC m\nDATA 1\nDATA 2\nMETRIC n\nDATA 1\nDATA 2\n", "in.txt").measurements).toHaveLength(4);
    expect(() => parseExtrapJsonLines('{"params":{"x":1},"value":1}\n{"params":{},"value":2}\n', "in.jsonl")).toThrow(/in\.jsonl:2: params\.x/);
  });
});

describe("ccasim profile convert --statistic", () => {
  it("writes each thread as a repetition, and is refused where it does not apply or names no statistic", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-statistic-"));
    try {
      const G = join(DATA, "tau", "ppk", "gromacs-scaling");
      let err = "";
      const run = (args: string[]) => main(args, { out: () => undefined, err: (s) => (err += s) });
      const out = join(dir, "gro.txt");
      expect(await run(["profile", "convert", join(G, "2.ppk"), join(G, "4.ppk"), out, "--point", "p=2", "--point", "p=4", "--statistic", "threads"])).toBe(0);
      expect(readExtrap(out).measurements.filter((m) => m.point[0] === 4).every((m) => m.values.length === 4)).toBe(true);
      err = "";
      expect(await run(["profile", "convert", join(G, "2.ppk"), join(dir, "x.ppk"), "--statistic", "threads"])).toBe(2);
      expect(err).toContain("the statistic (--statistic) applies only to trials converted to Extra-P, not to trial input written as ppk");
      err = "";
      expect(await run(["profile", "convert", join(G, "2.ppk"), out, "--point", "p=2", "--statistic", "median"])).toBe(2);
      expect(err).toContain("--statistic must be one of mean, min, max, total, stddev, threads, got 'median'");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
