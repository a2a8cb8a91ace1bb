import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluate } from "mathjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fitAcrossSweep } from "../../analysis/study/index.js";
import { StudyStore, studyObservations } from "../../profile/study/index.js";
import { costLawStudy, withModes } from "./cost-law-study.js";
import { main } from "../../cli/main.js";
import { loadSweep, runSweep } from "../../scenarios/sweep/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-fit-across-"));
let db = "";
/** The same study with the record parameter named x instead of Q. */
let dbX = "";
/** The same study with two calls per iteration, records of mode a (cost c x^1.5) and b (twice that). */
let dbModes = "";
/** The same study with a second component, Kernel2 (cost 2 c x^1.5), whose records also have mode a. */
let dbTwo = "";
beforeAll(async () => {
  db = await costLawStudy(dir, "cost-law");
  dbX = await costLawStudy(dir, "cost-law-x", (text) => text.replace("parameters: { Q: argument x }", "parameters: { x: argument x }"));
  dbModes = await costLawStudy(dir, "cost-law-modes", withModes);
  dbTwo = await costLawStudy(dir, "cost-law-two", (text) =>
    text
      .replace("calls: [{ port: k, args: { x: x } }]", `calls: [{ port: k, args: { x: x } }, { port: k2, args: { x: x, mode: "'a'" } }]`)
      .replace('        params: { cost: "c * x^1.5" }', '        params: { cost: "c * x^1.5" }\n      Kernel2:\n        type: dummy\n        params: { args: [x, mode], cost: "2 * c * x^1.5" }')
      .replace("      - Driver.k -> Kernel.work", "      - Driver.k -> Kernel.work\n      - Driver.k2 -> Kernel2.work")
      .replace("        parameters: { Q: argument x }", "        parameters: { Q: argument x }\n      - port: Kernel2.work\n        parameters: { Q: argument x, mode: argument mode }"),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function observations(by?: string, value?: string) {
  const store = await StudyStore.open(db, { readOnly: true });
  try {
    return await studyObservations(store, { parameter: "Q", component: "Kernel", by, value });
  } finally {
    store.close();
  }
}

describe("fits across a sweep", () => {
  it("extracts (Q, T) per value of the swept parameter from the study", async () => {
    const obs = await observations("workload.c");
    expect(obs.groups.map((g) => g.by)).toEqual([1, 2, 3, 4]);
    expect(obs.q.length).toBe(6 * 4 * 3);
    for (const g of obs.groups) {
      expect(new Set(g.q)).toEqual(new Set([1, 2, 4, 8, 16, 32]));
      for (let i = 0; i < g.q.length; i++) expect(g.t[i]).toBeCloseTo(g.by * g.q[i] ** 1.5, 6);
    }
  });

  it("recovers T(Q, c) = c * Q^1.5 as a formula in both variables", async () => {
    const obs = await observations("workload.c");
    const fit = fitAcrossSweep(obs.groups, { byVariable: "c" });
    // Exact data: c·Q^(3/2) (PMNF, linear in c) ties with the power law exp(1.5·log(Q) + log c) and ranks first.
    expect(fit.shape.logResponse).toBe(false);
    expect(fit.shape.label).toContain("Q^(3/2)");
    expect(fit.perValue.map((v) => v.model.coefficients[1].value)).toEqual([1, 2, 3, 4].map((x) => expect.closeTo(x, 6)));
    expect(fit.smape!).toBeLessThan(0.01);
    for (const [q, c] of [[5, 2.5], [20, 1.5], [3, 3.5]]) expect(fit.predict!(q, c) / (c * q ** 1.5)).toBeCloseTo(1, 3);
    expect(fit.expression).toMatch(/\(1\*c\)\*Q\^\(3\/2\)/);
  });

  it("fits a cache transition whose change point moves with the cache size: Q0 as a function of it", () => {
    // T = 0.1 us per element while Q doubles of 8 bytes fit an L2 of P KiB, 0.4 beyond (the strided
    // penalty of paper 000's Figure 3), with a little scatter: the transition sits at Q = 128 P.
    const groups = [256, 512, 1024, 2048].map((P) => {
      const q = Array.from({ length: 24 }, (_, k) => Math.round(1000 * 1.35 ** k));
      return { by: P, q: Float64Array.from(q), t: Float64Array.from(q, (Q, k) => Q * ((Q * 8) / 1024 > P ? 0.4 : 0.1) * (1 + 0.01 * Math.sin(k))) };
    });
    const r = fitAcrossSweep(groups, { byVariable: "L2" });
    expect(r.shape.family).toBe("segmented");
    // Each value's own change point: the last Q at or below 128 P.
    for (const v of r.perValue) {
      const q0 = v.model.changePoint!;
      expect(q0, String(v.by)).toBeLessThanOrEqual(128 * v.by);
      expect(q0 * 1.35, String(v.by)).toBeGreaterThan(128 * v.by);
    }
    // Q0 grows in proportion to the cache (halving the cache halves the transition).
    expect(r.changePoint!.predict(2048) / r.changePoint!.predict(1024)).toBeGreaterThan(1.7);
    expect(r.changePoint!.predict(1024) / r.changePoint!.predict(512)).toBeGreaterThan(1.7);
    expect(r.formula).toMatch(/\[Q > min\(\d+, max\(\d+, .*L2\)\)\]/);
    // The combined model puts the jump between the caches' transitions.
    expect(r.predict!(50000, 1024) / r.predict!(50000, 256)).toBeLessThan(0.3);
    expect(r.smape!).toBeLessThan(5);
  });

  it("leaves values without a transition in their range out of Q0(P), and writes the expression predict evaluates", () => {
    // L2 = 4 and 8 KiB overflow below the smallest Q, 16 MiB never: their change points mean nothing.
    const groups = [4, 8, 256, 512, 1024, 2048, 16384].map((P) => {
      const q = Array.from({ length: 24 }, (_, k) => Math.round(1000 * 1.35 ** k));
      return { by: P, q: Float64Array.from(q), t: Float64Array.from(q, (Q, k) => Q * ((Q * 8) / 1024 > P ? 0.4 : 0.1) * (1 + 0.01 * Math.sin(k))) };
    });
    const r = fitAcrossSweep(groups, { byVariable: "L2" });
    expect(r.changePointValues).toEqual([256, 512, 1024, 2048]);
    expect(r.smape!).toBeLessThan(5);
    // Inside and outside the sweep, the printed expression and predict agree (Q0 held within the observed Q).
    for (const [q, p] of [[1000, 2], [900000, 2048], [5000, 65536], [50000, 700]]) {
      expect(Number(evaluate(r.expression!, { Q: q, L2: p })), `${q}, ${p}`).toBeCloseTo(r.predict!(q, p), 6);
    }
  });

  it("warns, per value, of means of 0 under LOO SMAPE and of models below 0 where T cannot be, and takes --criterion", () => {
    // A counter: 0 while the arrays fit the cache (Q ≤ 128 P), then growing with Q.
    const groups = [256, 512, 1024].map((P) => {
      const q = Array.from({ length: 16 }, (_, k) => Math.round(1000 * 1.5 ** k));
      return { by: P, q: Float64Array.from(q), t: Float64Array.from(q, (Q, k) => (Q > 128 * P ? (Q - 128 * P) * 0.05 * (1 + 0.01 * Math.sin(k)) : 0)) };
    });
    const loo = fitAcrossSweep(groups, { byVariable: "L2" });
    for (const v of loo.perValue) expect(v.warnings.map((w) => w.kind), String(v.by)).toContain("zero-means");
    for (const v of loo.perValue)
      for (const w of v.warnings) if (w.kind === "negative") expect(v.model.predict(w.at)).toBeLessThan(0);
    const r2 = fitAcrossSweep(groups, { byVariable: "L2", criterion: "adjusted-r2" });
    for (const v of r2.perValue) expect(v.warnings.filter((w) => w.kind === "zero-means")).toEqual([]);
  });

  it("rejects a study with fewer than 3 distinct Q in every group", () => {
    expect(() => fitAcrossSweep([{ by: 1, q: [1, 1, 2], t: [1, 1, 2] }])).toThrow("no value of the swept parameter P has observations at 3 or more distinct values of Q (at most 2)");
    // The names are the caller's: the record parameter and the swept parameter's variable.
    expect(() => fitAcrossSweep([{ by: 1, q: [4, 4], t: [1, 1] }], { variable: "x", byVariable: "L2" })).toThrow("no value of the swept parameter L2 has observations at 3 or more distinct values of x (at most 1)");
    expect(() => fitAcrossSweep([{ by: 1, q: [4, 4], t: [1, 1] }], { variable: "x", byVariable: "L2", byName: "machine.l2.size" })).toThrow(
      "no value of the swept parameter machine.l2.size (L2) has observations at 3 or more distinct values of x (at most 1)",
    );
  });

  it("names the swept parameters when --by names none of them", async () => {
    await expect(observations("machine.l2.size")).rejects.toThrow(/swept: workload.c, workload.x/);
  });

  it("takes the record table's and the record files' column names as the value", async () => {
    const wall = await observations(undefined, "wallTime");
    for (const alias of ["wall_time", "wall_time [us]"]) {
      const o = await observations(undefined, alias);
      expect([...o.t], alias).toEqual([...wall.t]);
      expect(o.tLabel).toBe("wallTime of Kernel");
    }
    expect([...(await observations(undefined, "compute_time")).t]).toEqual([...(await observations(undefined, "computeTime")).t]);
    await expect(observations(undefined, "wall_tim")).rejects.toThrow(/a record has no value 'wall_tim' \(did you mean 'wall_time'\?\); values: wallTime \(wall_time \[us\]\), computeTime/);
  });

  it("says in ccasim sweep fit which values Q0(P) leaves out, and why", async () => {
    // A cache transition at Q = 128 P (as above) for P = 256, 512 and 1024; P = 4 overflows below the smallest Q.
    const xs = Array.from({ length: 24 }, (_, k) => Math.round(1000 * 1.35 ** k));
    const study = await costLawStudy(dir, "cost-law-left-out", (text) =>
      text
        .replace("workload.x: [1, 2, 4, 8, 16, 32]", `workload.x: [${xs.join(", ")}]`)
        .replace("workload.c: [1, 2, 3, 4]", "workload.c: [4, 256, 512, 1024]")
        .replace("iterations: 3", "iterations: 1")
        .replace('params: { cost: "c * x^1.5" }', 'params: { cost: "x * (x * 8 / 1024 > c ? 0.4 : 0.1)" }'),
    );
    let out = "";
    const code = await main(["sweep", "fit", study, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c"], { out: (s) => (out += s), err: () => {} });
    expect(code).toBe(0);
    expect(out).toContain("fitted on the values whose data change within their range: 256, 512, 1024;");
    expect(out).toContain(
      "  left out: workload.c = 4, whose own best fit has no change within the observed Q: no change point is significant: their data do not change, change too little, or change between the two smallest or the two largest Q, where no change point can be placed; " +
        "their rows above force the common shape's change point on them (read their LOO SMAPE), and T(Q, P) extrapolates to them\n",
    );
  });

  it("says that a value of more than 5000 distinct Q is left out because no change point is searched there, not for too few Q", async () => {
    // One point per c, 5001 calls: ten Q a decade apart in thirds for c = 256, 512 and 1024; for c = 2048 a Q
    // per call, 5001 distinct ones, with its transition at 44000 in their midst.
    const study = await costLawStudy(dir, "cost-law-many-q", (text) =>
      text
        .replace("workload.x: [1, 2, 4, 8, 16, 32]", "workload.x: [1]")
        .replace("workload.c: [1, 2, 3, 4]", "workload.c: [256, 512, 1024, 2048]")
        .replace("iterations: 3", "iterations: 5001")
        .replace("calls: [{ port: k, args: { x: x } }]", 'calls: [{ port: k, args: { x: "c == 2048 ? round(1000 * 1000^(i / 5000)) : round(1000 * 1000^(mod(i, 10) / 9))" } }]')
        .replace('params: { cost: "c * x^1.5" }', 'params: { cost: "x * (x > 21.5 * c ? 0.4 : 0.1)" }'),
    );
    let out = "";
    const code = await main(["sweep", "fit", study, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c"], { out: (s) => (out += s), err: () => {} });
    expect(code).toBe(0);
    expect(out).toContain("fitted on the values whose data change within their range: 256, 512, 1024;");
    expect(out).toContain(
      "  left out: workload.c = 2048, whose own best fit has no change within the observed Q: no change point is searched with fewer than 5 or more than 5000 distinct Q (as 'ccasim fit' searches); " +
        "their rows above force the common shape's change point on them (read their LOO SMAPE), and T(Q, P) extrapolates to them\n",
    );
  });

  it("tells a value whose change is lost in its scatter from one whose data do not change", async () => {
    // Ten Q, three a decade, five calls each (r = 0..4). Transitions at Q = 21.5 c for c = 256, 512
    // and 1024; c = 4 overflows below the smallest Q; c = 2048 jumps ×1.6 past Q = 30000 with a
    // scatter of ±50 % there, which a single power law fits better than a step.
    const xs = Array.from({ length: 10 }, (_, k) => Math.round(1000 * 1000 ** (k / 9)));
    const k = "round(3 * log10(x / 1000))";
    const study = await costLawStudy(dir, "cost-law-outranked", (text) =>
      text
        .replace("workload.x: [1, 2, 4, 8, 16, 32]", `workload.x: [${xs.join(", ")}]`)
        .replace("workload.c: [1, 2, 3, 4]", "workload.c: [4, 256, 512, 1024, 2048]")
        .replace("iterations: 3", "iterations: 5")
        .replace("calls: [{ port: k, args: { x: x } }]", "calls: [{ port: k, args: { x: x, r: i } }]")
        .replace(
          'params: { cost: "c * x^1.5" }',
          `params: { args: [x, r], cost: "c == 2048 ? x * 0.1 * (x > 30000 ? 1.6 * (1 + 0.5 * sin(7 * ${k} + 3 * r)) : 1 + 0.01 * sin(${k} + r)) : x * (x > 21.5 * c ? 0.4 : 0.1) * (1 + 0.01 * sin(${k} + r))" }`,
        ),
    );
    const store = await StudyStore.open(study, { readOnly: true });
    let fit;
    try {
      fit = fitAcrossSweep((await studyObservations(store, { parameter: "Q", component: "Kernel", by: "workload.c" })).groups, { byVariable: "P" });
    } finally {
      store.close();
    }
    expect(fit.perValue.map((v) => [v.by, v.ownChange])).toEqual([
      [4, "not-significant"],
      [256, "chosen"],
      [512, "chosen"],
      [1024, "chosen"],
      [2048, "outranked"],
    ]);
    let out = "";
    const code = await main(["sweep", "fit", study, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c"], { out: (s) => (out += s), err: () => {} });
    expect(code).toBe(0);
    expect(out).toContain(
      "  left out: workload.c = 4, 2048, whose own best fit has no change within the observed Q: 4: no change point is significant: their data do not change, change too little, or change between the two smallest or the two largest Q, where no change point can be placed; " +
        "2048: a change point is significant, but a single-segment model ranks above it (a change small against the scatter of their observations); " +
        "their rows above force the common shape's change point on them (read their LOO SMAPE), and T(Q, P) extrapolates to them\n",
    );
  });

  it("names the swept parameters a fit pools at the same Q, and warns of them in ccasim sweep fit", async () => {
    expect((await observations()).pooled).toEqual(["workload.c"]);
    expect((await observations("workload.c")).pooled).toEqual([]);
    let err = "";
    const code = await main(["sweep", "fit", db, "--parameter", "Q", "--component", "Kernel"], { out: () => {}, err: (s) => (err += s) });
    expect(code).toBe(0);
    expect(err).toContain("warning: one fit pools points that differ in workload.c at the same Q");
    err = "";
    await main(["sweep", "fit", db, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c"], { out: () => {}, err: (s) => (err += s) });
    expect(err).toBe("");
  });

  it("names the component methods a fit pools, and warns of them in ccasim sweep fit as ccasim fit does", async () => {
    const store = await StudyStore.open(dbTwo, { readOnly: true });
    try {
      const sources = async (sel: Parameters<typeof studyObservations>[1]) => (await studyObservations(store, sel)).sources;
      expect(await sources({ parameter: "Q" })).toEqual(["Kernel.run", "Kernel2.run"]);
      expect(await sources({ parameter: "Q", component: "Kernel2" })).toEqual(["Kernel2.run"]);
      // Only Kernel2's records have a mode: --where leaves them alone.
      expect(await sources({ parameter: "Q", where: { mode: "a" } })).toEqual(["Kernel2.run"]);
    } finally {
      store.close();
    }
    const warning = "warning: pooling the records of 2 component methods (Kernel.run, Kernel2.run) into one fit";
    const sweepFit = async (...argv: string[]) => {
      let err = "";
      const code = await main(["sweep", "fit", dbTwo, "--parameter", "Q", ...argv], { out: () => {}, err: (s) => (err += s) });
      return { code, err };
    };
    expect(await sweepFit("--by", "workload.c")).toEqual({ code: 0, err: `${warning} at each value of workload.c; choose one with --component and --method\n` });
    expect((await sweepFit()).err).toContain(`${warning}; choose one with --component and --method\n`);
    expect(await sweepFit("--by", "workload.c", "--component", "Kernel")).toEqual({ code: 0, err: "" });
    expect(await sweepFit("--by", "workload.c", "--where", "mode=a")).toEqual({ code: 0, err: "" });
    expect(await sweepFit("--by", "workload.c", "--method", "run")).toEqual({ code: 0, err: `${warning} at each value of workload.c; choose one with --component and --method\n` });
  });

  it("names the record parameters a fit pools at the same Q, and --where keeps one value", async () => {
    const store = await StudyStore.open(dbModes, { readOnly: true });
    try {
      const all = await studyObservations(store, { parameter: "Q", component: "Kernel", by: "workload.c" });
      expect(all.pooledRecordParameters).toEqual(["mode"]);
      const b = await studyObservations(store, { parameter: "Q", component: "Kernel", by: "workload.c", where: { mode: "b" } });
      expect(b.pooledRecordParameters).toEqual([]);
      expect(b.q.length).toBe(all.q.length / 2);
      expect(b.tLabel).toBe("wallTime of Kernel (mode=b)");
      for (const g of b.groups) for (let i = 0; i < g.q.length; i++) expect(g.t[i]).toBeCloseTo(2 * g.by * g.q[i] ** 1.5, 6);
      await expect(studyObservations(store, { parameter: "Q", component: "Kernel", where: { mode: "c" } })).rejects.toThrow("no record matches component=Kernel port=* method=* mode=c");
      // A name neither swept nor recorded: the nearest of either kind, a swept key by its last part.
      await expect(studyObservations(store, { parameter: "Q", component: "Kernel", where: { mdoe: "b" } })).rejects.toThrow(/no swept or record parameter 'mdoe' \(did you mean 'mode'\?\) \(swept: workload\.c, workload\.x; record parameters: Q, mode\)/);
      await expect(studyObservations(store, { parameter: "Q", component: "Kernel", where: { c: "1" } })).rejects.toThrow(/no swept or record parameter 'c' \(did you mean 'workload\.c'\?\)/);
    } finally {
      store.close();
    }
    let err = "";
    let out = "";
    await main(["sweep", "fit", dbModes, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c"], { out: () => {}, err: (s) => (err += s) });
    expect(err).toBe("warning: one fit at each value of workload.c pools records that differ in mode at the same Q (a sequential and a strided mode, say); fit one at a time with --where mode=<value>\n");
    err = "";
    const code = await main(["sweep", "fit", dbModes, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c", "--by-variable", "c", "--where", "mode=a"], { out: (s) => (out += s), err: (s) => (err += s) });
    expect([code, err]).toEqual([0, ""]);
    expect(out).toMatch(/SMAPE over all observations 0\.00 %/);
  });

  it("names the parameters the records have when a record lacks the one asked for", async () => {
    const store = await StudyStore.open(db, { readOnly: true });
    try {
      await expect(studyObservations(store, { parameter: "q", component: "Kernel" })).rejects.toThrow(/a record of Kernel\.run has no parameter 'q' \(did you mean 'Q'\?\); record parameters: Q$/);
    } finally {
      store.close();
    }
  });

  it("says when no coefficient follows P although the values' own fits differ", () => {
    // T = k Q with k = 1, 7, 1 at three values of P: no trend in P is significant.
    const q = Float64Array.from([1000, 2000, 4000, 8000, 16000, 32000]);
    const groups = (ks: readonly number[]) => ks.map((k, i) => ({ by: [8, 24, 96][i]!, q, t: Float64Array.from(q, (x) => k * x) }));
    expect(fitAcrossSweep(groups([1, 7, 1]), { byVariable: "ES" }).constantInP).toBe(true);
    // A trend (k = 1, 2, 3), or values that barely differ, give no warning.
    expect(fitAcrossSweep(groups([1, 2, 3]), { byVariable: "ES" }).constantInP).toBe(false);
    expect(fitAcrossSweep(groups([1, 1.05, 1.02]), { byVariable: "ES" }).constantInP).toBe(false);
  });

  /**
   * A strided kernel's time on a coarse grid of Q (10 points, three a decade, as a sweep's log
   * range gives them): 0.1 us per element while its arrays fit the cache of P KiB, `beyond(P)`
   * past its transition at Q = knees[P].
   */
  const transitions = (knees: Readonly<Record<number, number>>, beyond: (p: number) => number = () => 0.4) => {
    const q = Array.from({ length: 10 }, (_, k) => Math.round(1000 * 1000 ** (k / 9)));
    return Object.entries(knees).map(([p, knee]) => ({ by: Number(p), q: Float64Array.from(q), t: Float64Array.from(q, (x, k) => x * (x > knee ? beyond(Number(p)) : 0.1) * (1 + 0.01 * Math.sin(k))) }));
  };
  /** A strided penalty that grows with the cache: 0.3 us per element at 128 KiB, 0.6 at 1024. */
  const growing = (p: number) => 0.1 * Math.log2(p / 16);

  it("says when T(Q, P) is constant in P although the values' own fits differ in mid-range, not at the largest Q", () => {
    // Every value is out of cache at the largest Q, so their fits agree there and differ ×4 at
    // Q = 10000 and 21544, where some values are in cache and others not.
    const r = fitAcrossSweep(transitions({ 128: 5000, 256: 11000, 512: 22000, 1024: 22000 }), { byVariable: "L2" });
    expect(r.changePoint!.family).toBe("constant");
    expect(r.coefficients!.map((c) => c.family)).toEqual(["constant", "constant", "constant"]);
    expect(r.constantInP).toBe(true);
    expect(r.spread!.ratio).toBeCloseTo(4, 1);
    expect([10000, 21544]).toContain(r.spread!.at);
  });

  it("compares the fits of the values T(Q, P) is fitted on: a value Q0(P) leaves out changes neither the spread nor where it is", () => {
    // 2048 overflows below the smallest Q (0.4 us per element everywhere), which T(Q, P) extrapolates to.
    const four = fitAcrossSweep(transitions({ 128: 5000, 256: 11000, 512: 22000, 1024: 22000 }), { byVariable: "L2" });
    const five = fitAcrossSweep(transitions({ 128: 5000, 256: 11000, 512: 22000, 1024: 22000, 2048: 500 }), { byVariable: "L2" });
    expect(five.perValue.find((v) => v.by === 2048)!.ownChange).toBe("not-significant");
    expect(five.changePointValues).toEqual([128, 256, 512, 1024]);
    expect(five.constantInP).toBe(true);
    expect(five.spread).toEqual(four.spread);
  });

  it("says when Q0(P) is constant although the values' own change points differ", () => {
    // Three transitions moving with the cache and a fourth that breaks the trend: no trend of Q0 in
    // P is significant, and T(Q, P) would put the transition at one Q for every value, at none of theirs.
    // The jump past the transition grows with P, so T(Q, P) does follow P, but not its change point.
    const moving = fitAcrossSweep(transitions({ 128: 5000, 256: 11000, 512: 22000, 1024: 5000 }, growing), { byVariable: "L2" });
    expect(moving.perValue.map((v) => v.model.changePoint)).toEqual([4642, 10000, 21544, 4642]);
    expect(moving.changePoint!.family).toBe("constant");
    expect(moving.constantInP).toBe(false);
    expect(moving.changePointConstantInP).toBe(true);
    // A trend of Q0 in P, or change points that all agree, give no warning.
    expect(fitAcrossSweep(transitions({ 128: 5000, 256: 11000, 512: 22000, 1024: 50000 }, growing), { byVariable: "L2" }).changePointConstantInP).toBe(false);
    expect(fitAcrossSweep(transitions({ 128: 11000, 256: 11000, 512: 11000 }, growing), { byVariable: "L2" }).changePointConstantInP).toBeFalsy();
  });

  it("prints in ccasim sweep fit that Q0(P), or all of T(Q, P), came out constant, with the values' own change points or where their fits differ", async () => {
    const xs = Array.from({ length: 10 }, (_, k) => Math.round(1000 * 1000 ** (k / 9)));
    // Transitions where the 3 doubles of each element overflow c KiB, c = 1024 taken as 128 (a cache the kernel
    // cannot use beyond 128 KiB), and past them `beyond` us per element.
    // c = 2048 is taken as 1 KiB, which every Q overflows: a value without a transition of its own.
    const fit = async (name: string, beyond: string, cs = [128, 256, 512, 1024]) => {
      const study = await costLawStudy(dir, name, (text) =>
        text
          .replace("workload.x: [1, 2, 4, 8, 16, 32]", `workload.x: [${xs.join(", ")}]`)
          .replace("workload.c: [1, 2, 3, 4]", `workload.c: [${cs.join(", ")}]`)
          .replace("iterations: 3", "iterations: 1")
          .replace('params: { cost: "c * x^1.5" }', `params: { cost: "x * (x * 8 * 3 / 1024 > (c == 1024 ? 128 : c == 2048 ? 1 : c) ? ${beyond} : 0.1)" }`),
      );
      let out = "";
      let err = "";
      const code = await main(["sweep", "fit", study, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c", "--by-variable", "L2"], { out: (s) => (out += s), err: (s) => (err += s) });
      expect(code, err).toBe(0);
      return { out, err };
    };
    const growing = await fit("cost-law-q0-constant", "0.1 * log2(c / 16)");
    expect(growing.out).toMatch(/ {2}Q0\(L2\) = \d+ {3}\(/);
    expect(growing.err).toBe(
      "warning: Q0(L2) came out constant over 4 values of workload.c (no trend in L2 is significant), though their own change points range from 4642 to 21544 " +
        "(128: 4642, 256: 10000, 512: 21544, 1024: 4642): T(Q, L2) puts the change at the same Q for every value; read the change points per value (more values of workload.c may show a trend)\n",
    );
    const same = await fit("cost-law-all-constant", "0.4");
    expect(same.err).toMatch(
      /^warning: no coefficient of T\(Q, L2\) depends on L2, nor does its change point Q0: each came out constant over 4 values of workload.c, though their own fits differ by up to ×4(\.\d+)? \(at Q = (10000|21544)\); read the fits per value \(more values of workload.c may show a trend\)\n$/,
    );
    // A value left out of Q0(P) and the coefficients is left out of the count and of where the fits differ.
    const leftOut = await fit("cost-law-all-constant-left-out", "0.4", [128, 256, 512, 1024, 2048]);
    expect(leftOut.out).toContain("fitted on the values whose data change within their range: 128, 256, 512, 1024;");
    expect(leftOut.err.replace(/\n$/, "")).toBe(same.err.replace(/\n$/, ""));
  });

  it("refuses a text axis as --by, naming its values and --where", async () => {
    const dbTag = await costLawStudy(dir, "cost-law-tag", (text) =>
      text
        .replace("  workload.x: [1, 2, 4, 8, 16, 32]\n  workload.c: [1, 2, 3, 4]", '  workload.x: [1, 2, 4]\n  workload.tag: ["a", "b"]')
        .replace("workload: { x: 1, c: 1, iterations: 3 }", 'workload: { x: 1, c: 1, iterations: 3, tag: "a" }'),
    );
    const store = await StudyStore.open(dbTag, { readOnly: true });
    try {
      await expect(studyObservations(store, { parameter: "Q", component: "Kernel", by: "workload.tag" })).rejects.toThrow(
        "swept parameter 'workload.tag' is not numeric (it takes a, b): fit one value at a time with --where workload.tag=<value>",
      );
    } finally {
      store.close();
    }
  });

  it("refuses a --by-variable mathjs defines, saying so", async () => {
    let err = "";
    const code = await main(["sweep", "fit", db, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c", "--by-variable", "E"], { out: () => {}, err: (s) => (err += s) });
    expect(code).toBe(2);
    expect(err).toContain("--by-variable 'E' cannot name a variable in an expression (an identifier that is not a mathjs constant or function, such as P or L2): mathjs defines 'E'");
  });

  it("prints T(Q, P) with ccasim sweep fit", async () => {
    let out = "";
    const code = await main(["sweep", "fit", db, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c", "--by-variable", "c"], { out: (s) => (out += s), err: () => {} });
    expect(code).toBe(0);
    expect(out).toMatch(/T\(Q, c\) = .*\(1·c\)·Q\^\(3\/2\)/);
    expect(out).toMatch(/SMAPE over all observations 0\.00 %/);
  });

  it("reads fit's model-selection options, refuses those it cannot honour, and names its own help", async () => {
    const run = async (...argv: string[]) => {
      let out = "";
      let err = "";
      const code = await main(["sweep", "fit", db, "--parameter", "Q", "--component", "Kernel", "--by", "workload.c", ...argv], { out: (s) => (out += s), err: (s) => (err += s) });
      return { code, out, err };
    };
    const r2 = await run("--criterion", "adjusted-r2", "--family", "pmnf");
    expect(r2.code, r2.err).toBe(0);
    expect(r2.out).toMatch(/LOO SMAPE %  adj\. R²/);
    expect(r2.out).toMatch(/T\(Q, P\) = .*Q\^\(3\/2\)/);
    const weighted = await run("--weighted");
    expect(weighted.code).toBe(2);
    expect(weighted.err).toContain("--weighted is an option of 'ccasim fit' that sweep fit does not read");
    const typo = await run("--critrion", "adjusted-r2");
    expect(typo.code).toBe(2);
    expect(typo.err).toBe("ccasim sweep fit: unknown option '--critrion' (did you mean '--criterion'?); see 'ccasim sweep fit --help'\n");
    expect((await run("--criterion", "r2")).err).toContain("--criterion expects loo-smape or adjusted-r2, got 'r2'");
  });

  it("names Q in the printed formulas and expressions as the records name it", async () => {
    const run = async (...argv: string[]) => {
      let out = "";
      let err = "";
      const code = await main(["sweep", "fit", dbX, "--parameter", "x", "--component", "Kernel", ...argv], { out: (s) => (out += s), err: (s) => (err += s) });
      return { code, out, err };
    };
    const pooled = await run();
    expect(pooled.code).toBe(0);
    expect(pooled.out).toMatch(/^T\(x\) = .*x/m);
    expect(pooled.out).toMatch(/^expression: .*\bx\b/m);
    expect(pooled.out).not.toMatch(/\bQ\b/);
    const byC = await run("--by", "workload.c", "--by-variable", "c");
    expect(byC.code).toBe(0);
    expect(byC.out).toMatch(/T\(x, c\) = .*\(1·c\)·x\^\(3\/2\)/);
    expect(byC.out).toMatch(/expression: .*\*x\^\(3\/2\)/);
    expect(byC.out).not.toMatch(/\bQ\b/);
    const clash = await run("--by", "workload.c", "--by-variable", "x");
    expect(clash.code).toBe(2);
    expect(clash.err).toContain("would both be 'x' in the formulas");
  });

  it("names the components, ports and methods the study has when the selection matches none", async () => {
    let err = "";
    const code = await main(["sweep", "fit", dbX, "--parameter", "x", "--component", "Kernal", "--method", "nope"], { out: () => {}, err: (s) => (err += s) });
    expect(code).toBe(2);
    expect(err).toMatch(/no record matches component=Kernal port=\* method=nope; no component 'Kernal' \(did you mean 'Kernel'\?\) among .*Kernel.*; no method 'nope' among /);
  });
});

describe("sweep fit --where on a swept parameter", () => {
  const bwDir = mkdtempSync(join(tmpdir(), "ccasim-fit-where-swept-"));
  let bwDb = "";
  beforeAll(async () => {
    // The cost law swept over x and a network bandwidth given with units; the cost does not depend on it.
    bwDb = await costLawStudy(bwDir, "bw", (text) =>
      text
        .replace("  workload.c: [1, 2, 3, 4]", '  machine.network.params.bandwidth: ["1600MB/s", "3200MB/s"]')
        .replace("machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }", "machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1, network: { model: hockney, params: { alpha: 30us, bandwidth: 100MB/s } } }"),
    );
  });
  afterAll(() => rmSync(bwDir, { recursive: true, force: true }));
  const fit = async (...argv: string[]) => {
    let out = "";
    let err = "";
    const code = await main(["sweep", "fit", bwDb, "--parameter", "Q", "--component", "Kernel", ...argv], { out: (s) => (out += s), err: (s) => (err += s) });
    return { code, out, err };
  };

  it("keeps the points of one value, in the sweep file's units or as a number", async () => {
    const pooled = await fit("--json");
    expect(pooled.err).toContain("pools points that differ in machine.network.params.bandwidth");
    expect(pooled.err).toContain("--where machine.network.params.bandwidth=<value>");
    const all = JSON.parse(pooled.out).groups[0].q.length;
    for (const value of ["1600MB/s", "1.6GB/s", "1600000000"]) {
      const one = await fit("--where", `machine.network.params.bandwidth=${value}`, "--json");
      expect(one.code, one.err).toBe(0);
      expect(one.err).toBe("");
      expect(JSON.parse(one.out).groups[0].q.length).toBe(all / 2);
    }
  });

  it("names the values a swept parameter takes when none matches, as 'ccasim sweep fit'", async () => {
    const r = await fit("--where", "machine.network.params.bandwidth=100MB/s");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ccasim sweep fit: no record matches .*swept parameter machine\.network\.params\.bandwidth takes 1600MB\/s \(1600000000\), 3200MB\/s \(3200000000\)/);
  });
});

describe("sweep fit on a study without records", () => {
  const noneDir = mkdtempSync(join(tmpdir(), "ccasim-fit-no-records-"));
  afterAll(() => rmSync(noneDir, { recursive: true, force: true }));
  const fit = async (db: string) => {
    let err = "";
    const code = await main(["sweep", "fit", db, "--parameter", "S"], { out: () => {}, err: (s) => (err += s) });
    return { code, err };
  };

  it("says a program model's study stores no invocation records, and why", async () => {
    const sweep = join(noneDir, "program.sweep.yaml");
    writeFileSync(
      sweep,
      [
        "axes:",
        "  workload.S: [8, 64]",
        "scenario:",
        "  name: program",
        "  machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 2 }",
        "  workload: { S: 8 }",
        "  program:",
        "    main:",
        "      - action: Work",
        "        cost: S",
        "  outputs: { profile: true, records: [], callgraph: false }",
        "",
      ].join("\n"),
    );
    const db = join(noneDir, "program.db");
    await runSweep(loadSweep(sweep), { db, jobs: 1 });
    const r = await fit(db);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "ccasim sweep fit: the study stores no invocation records, which a fit reads (one per proxied call, with its parameters and times): its scenario is a program model, whose runs write no per-invocation records (they come from an assembly's proxies); its profiles are in the timer and timer_value tables\n",
    );
  });

  it("says an assembly's study without proxies stores no invocation records", async () => {
    const db = await costLawStudy(noneDir, "no-proxies", (text) => text.replace(/    proxies:\n.*\n.*\n/, ""));
    const r = await fit(db);
    expect(r.code).toBe(2);
    expect(r.err).toContain("the study stores no invocation records, which a fit reads (one per proxied call, with its parameters and times): its assembly proxies no port");
    expect(r.err).not.toContain("no record matches");
  });
});
