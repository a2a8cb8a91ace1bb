import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RandomStream } from "../../engine/random.js";
import { fitHypothesis, fitModels, predictAt, observationsFromRecordInputs } from "../../analysis/index.js";
import { groupedFitWarningLines } from "../../cli/commands/analysis-io.js";
import { runCli as run } from "../cli/run-cli.js";

const EXTRAP_DOCS = "../shared/data/extrap/docs_examples_input.txt";
const HEADER = "component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q";

/** Runs `test` on a records.csv of these rows (after `header`) in a temporary folder. */
async function withRecords(rows: readonly string[], test: (file: string) => unknown, header = HEADER): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-fields-"));
  try {
    const file = join(dir, "records.csv");
    writeFileSync(file, [header, ...rows].join("\n") + "\n");
    await test(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("fit quality: in-sample and leave-one-out", () => {
  it("labels RSS and adjusted R² as in-sample and gives the leave-one-out ones Extra-P reports", async () => {
    const r = await run(["fit", EXTRAP_DOCS, "--json"]);
    const j = JSON.parse(r.out)[0];
    const means: number[] = j.points.map((p: { mean: number }) => p.mean);
    const qs: number[] = j.points.map((p: { q: number }) => p.q);
    const report = fitModels({ q: qs, t: means }, { families: ["constant", "pmnf"], rule: "extra-p" });
    // Leave-one-out by refitting without each point.
    let looRss = 0;
    qs.forEach((q, i) => {
      const m = fitHypothesis(report.mean.hypothesis, qs.filter((_, k) => k !== i), means.filter((_, k) => k !== i))!;
      looRss += (m.predict(q) - means[i]!) ** 2;
    });
    expect(j.mean.looRss / looRss).toBeCloseTo(1, 9);
    const tss = means.reduce((s, v) => s + (v - means.reduce((a, b) => a + b) / means.length) ** 2, 0);
    expect(j.mean.looAdjustedR2).toBeCloseTo(1 - ((looRss / tss) * (qs.length - 1)) / (qs.length - 2), 9);
    expect(j.mean.looRss).toBeGreaterThan(j.mean.rss);
    const text = await run(["fit", EXTRAP_DOCS]);
    expect(text.out).toMatch(/adj\. R² \(in-sample\) 0\.99995\d*, RSS \(in-sample\) 6\.612\n +leave-one-out \(as Extra-P reports them\): adj\. R² 0\.99955\d*, RSS 61\.84\n/);
  });
});

describe("fit --predict: the interval of the mean and the range of one observation", () => {
  it("covers about 95 % of single observations with the single-observation range, far fewer with the mean's interval", () => {
    const rng = new RandomStream(5, "predict-range");
    const qs = Array.from({ length: 12 }, (_, i) => 1000 * (i + 1));
    const mean = (q: number): number => 2 * q;
    const q: number[] = [];
    const t: number[] = [];
    for (const x of qs) for (let k = 0; k < 40; k++) {
      q.push(x);
      t.push(rng.normal(mean(x), 300));
    }
    const report = fitModels({ q, t }, { families: ["polynomial:degree=1"] });
    let inRange = 0;
    let inMean = 0;
    const n = 4000;
    for (let k = 0; k < n; k++) {
      const x = qs[k % qs.length]!;
      const p = predictAt(report, x);
      const y = rng.normal(mean(x), 300);
      if (y >= p.singleObservationRange!.low && y <= p.singleObservationRange!.high) inRange++;
      if (y >= p.interval.low && y <= p.interval.high) inMean++;
    }
    expect(inRange / n).toBeGreaterThan(0.93);
    expect(inRange / n).toBeLessThan(0.99);
    expect(inMean / n).toBeLessThan(0.5);
  });

  it("holds the interval of the mean even when the mean rests on few Q (3 sizes: 1 degree of freedom)", async () => {
    const j = JSON.parse((await run(["fit", "../shared/data/tau/edge-cases/examples/wrap", "--param-timer", "__wrap_dgemm", "--parameter", "size", "--predict", "100000", "--json"])).out)[0];
    const p = j.predictions[0];
    expect(p.clipped.singleObservationRange.low).toBeLessThan(p.clipped.low);
    expect(p.singleObservationRange.high).toBeGreaterThan(p.interval.high);
  });

  it("builds a log-space model's range on log T: positive, holding the interval of the mean inside the data and far beyond it", () => {
    // A power law whose means scatter about it (a per-Q bias of ~20 %) while the repetitions at
    // each Q scatter by 1 %: a wide, asymmetric interval of the mean and a small sd.
    const rng = new RandomStream(11, "log-range");
    const q: number[] = [];
    const t: number[] = [];
    for (let i = 0; i < 8; i++) {
      const x = 100 * 2 ** i;
      const mean = 0.001 * x ** 1.2 * Math.exp(rng.normal(0, 0.2));
      for (let k = 0; k < 30; k++) {
        q.push(x);
        t.push(mean * (1 + rng.normal(0, 0.01)));
      }
    }
    const report = fitModels({ q, t }, { families: ["power-law"] });
    expect(report.mean.hypothesis.logResponse).toBe(true);
    for (const x of [1, 3000, 1e9]) {
      const p = predictAt(report, x);
      const r = p.singleObservationRange!;
      expect(p.clipped).toBeUndefined();
      expect(r.low).toBeGreaterThan(0);
      expect(r.low).toBeLessThanOrEqual(p.interval.low);
      expect(r.high).toBeGreaterThanOrEqual(p.interval.high);
      expect(p.stdDev! / p.value).toBeLessThan(0.05);
    }
    // Far from the data the interval of the mean is strongly asymmetric: a range symmetric about
    // the value, value ± √((t₁·value·se_log)² + (t₂·sd)²), would fall short of its high end.
    const far = predictAt(report, 1e9);
    const { stdError } = report.mean.predictionStandardError(1e9);
    expect(far.interval.high - far.value).toBeGreaterThan(2 * (far.value - far.interval.low));
    expect(far.value + 1.1 * 2.5 * stdError).toBeLessThan(far.interval.high);
  });

  it("names the interval of the mean and the range of one invocation, in text and JSON", async () => {
    const rng = new RandomStream(9, "records");
    const rows = Array.from({ length: 600 }, (_, i) => {
      const x = 1000 * (1 + (i % 10));
      const y = Math.max(1, rng.normal(3 * x, 0.2 * 3 * x));
      return `K,k,run,0,${i},${y},0,${y},${x}`;
    });
    await withRecords(rows, async (file) => {
      const r = await run(["fit", file, "--parameter", "Q", "--family", "polynomial:degree=1", "--predict", "5000"]);
      expect(r.out).toMatch(/\npredict Q = 5000: [\d.]+ \(95 % interval of the mean [\d.]+ \.\. [\d.]+\), sd [\d.]+; 95 % range of one invocation [\d.]+ \.\. [\d.]+\n/);
      const p = JSON.parse((await run(["fit", file, "--parameter", "Q", "--family", "polynomial:degree=1", "--predict", "5000", "--json"])).out)[0].predictions[0];
      expect(p.level).toBe(0.95);
      expect(p.singleObservationRange.high - p.singleObservationRange.low).toBeGreaterThan(5 * (p.interval.high - p.interval.low));
      // About value ± 1.96·sd: the sd dominates.
      expect((p.singleObservationRange.high - p.value) / p.stdDev).toBeGreaterThan(1.95);
      expect((p.singleObservationRange.high - p.value) / p.stdDev).toBeLessThan(2.1);
    });
  });
});

describe("fit --json says what was fitted", () => {
  it("names the quantity, its unit, of what, and the view", async () => {
    const extrap = JSON.parse((await run(["fit", EXTRAP_DOCS, "--json"])).out)[0];
    expect(extrap.quantity).toEqual({ name: "time", source: "extrap-metric", unit: null, of: "example", kind: null, view: null, perCall: false });
    const ppk = [2, 4, 8, 16, 32].map((n) => `../shared/data/tau/ppk/gromacs-scaling/${n}.ppk`);
    const trials = JSON.parse((await run(["fit", ...ppk, "--timer", "int main", "--q", "ranks", "--view", "max", "--exclusive", "--json"])).out)[0];
    expect(trials.quantity).toEqual({ name: "TIME", source: "tau-metric", unit: "us", of: "int main(int, char **) C [{mdrun.c} {56,1}-{516,1}]", kind: "exclusive", view: "max", perCall: false });
    // The title names the timer the part of its name found.
    expect(trials.title).toBe("int main(int, char **) C [{mdrun.c} {56,1}-{516,1}] (exclusive, max over threads) vs ranks (5 trials)");
    const wrap = JSON.parse((await run(["fit", "../shared/data/tau/edge-cases/examples/wrap", "--param-timer", "__wrap_dgemm", "--parameter", "size", "--json"])).out)[0];
    // TAU_PARAM timers too: the routine the part of its name found, in full.
    expect(wrap.quantity).toMatchObject({ source: "tau-metric", unit: "us", of: "int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]", kind: "inclusive", view: "each", perCall: true });
    expect(wrap.title).toBe("TIME per call of int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] vs size (../shared/data/tau/edge-cases/examples/wrap)");
  });

  it("names a record value's unit and component method", async () => {
    const rows = [1, 2, 4, 8].map((q, i) => `K,k,run,0,${i},${q},0,${q},${q},${10 * q}`);
    await withRecords(
      rows,
      (file) => {
        expect(observationsFromRecordInputs([file], { parameter: "Q" }).quantity).toEqual({ name: "wallTime", source: "record", unit: "us", of: "K.run", kind: null, view: null, perCall: false });
        expect(observationsFromRecordInputs([file], { parameter: "Q", value: "PAPI_FP_OPS" }).quantity).toMatchObject({ name: "PAPI_FP_OPS", unit: "count" });
      },
      `${HEADER},counter:PAPI_FP_OPS [count]`,
    );
  });
});

describe("fit input selection by name", () => {
  it("suggests the nearest component or method name for one no record has", async () => {
    const rows = [1, 2, 4, 8].flatMap((q, i) => [`StatesConstructor,s,compute,0,${i},${q},0,${q},${q}`, `EFMFlux,f,compute,0,${i},${q},0,${q},${q}`]);
    await withRecords(rows, async (file) => {
      const r = await run(["fit", file, "--parameter", "Q", "--component", "StatesConstructer"]);
      expect(r.code).toBe(2);
      expect(r.err).toContain("no component 'StatesConstructer' (did you mean 'StatesConstructor'?) among EFMFlux, StatesConstructor");
      const m = await run(["fit", file, "--parameter", "Q", "--component", "EFMFlux", "--method", "comput"]);
      expect(m.err).toContain("no method 'comput' (did you mean 'compute'?) among compute");
    });
  });

  it("finds an Extra-P callpath by a unique part of its name, with the timers' ambiguity error", async () => {
    const file = "../shared/data/extrap/tests_data_text_one_parameter_2.txt";
    const part = await run(["fit", file, "--callpath", "test1"]);
    expect(part.code, part.err).toBe(0);
    expect(part.out).toContain("== side->test1 / time vs x (");
    const ambiguous = await run(["fit", file, "--callpath", "comp1"]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain("callpath name 'comp1' is ambiguous: 'main->merge->comp1', 'main->sort->comp1', 'side->sort->comp1'");
    // A full name is taken as it is, even when it is part of others.
    expect((await run(["fit", file, "--callpath", "main"])).out).toContain("== main / time vs x (");
  });
});

describe("sweep fit warnings", () => {
  it("groups the warnings of the swept values by kind, one line each listing the values", () => {
    const lines = groupedFitWarningLines(
      [
        { by: 262144, warning: { kind: "zero-means", zeroMeans: 23, distinct: 135 } },
        { by: 262144, warning: { kind: "negative", at: 3840, value: -3236 } },
        { by: 524288, warning: { kind: "zero-means", zeroMeans: 68, distinct: 135 } },
        { by: 524288, warning: { kind: "negative", at: 3840, value: -6040 } },
      ],
      "T(Q)",
      "machine.l2.size",
      "Q",
    );
    expect(lines).toEqual([
      "warning: T(Q): some distinct Q have a mean of 0 at machine.l2.size = 262144 (23 of 135), 524288 (68 of 135); LOO SMAPE scores any non-zero prediction at a 0 as 200 %, so every candidate scores high there and the ranking says little (the winner may go below 0); try --criterion adjusted-r2 with --family segmented, which can choose a hinge that is 0 below its change point\n",
      "warning: T(Q): the model of the mean goes below 0 inside the data, where T cannot be negative at machine.l2.size = 262144 (-3236 at Q = 3840), 524288 (-6040 at Q = 3840); it does not describe T there\n",
    ]);
  });
});
