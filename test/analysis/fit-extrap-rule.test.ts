import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXTRAP_FAMILIES, fitModels, observationsFromExtrap, AnalysisInputError } from "../../analysis/index.js";
import { readExtrap } from "../../profile/index.js";
import { runCli as run } from "../cli/run-cli.js";

/** One Extra-P text input: parameter p at 4..64, one repetition per point. */
function extrapText(region: string, values: readonly number[]): string {
  return ["PARAMETER p", "POINTS (4) (8) (16) (32) (64)", "", `REGION ${region}`, "METRIC time", ...values.map((v) => `DATA ${v}`), ""].join("\n");
}

/** A PMNF term whose t statistic (3.118) is below the 95 % threshold (3.182): Extra-P does not test significance. */
const INSIGNIFICANT = [101.315, 99.869, 98.808, 102.811, 105.284];
/** No hypothesis's LOO SMAPE beats the constant's SMAPE on all points (2.982 %): Extra-P keeps the constant. */
const CONSTANT = [102.399, 100.706, 104.115, 102.029, 112.144];

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ccasim-extrap-rule-"));
  writeFileSync(join(dir, "insignificant.txt"), extrapText("insignificant", INSIGNIFICANT));
  writeFileSync(join(dir, "constant.txt"), extrapText("constant", CONSTANT));
  writeFileSync(join(dir, "exact.txt"), extrapText("exact", [5, 5, 5, 5, 5]));
  writeFileSync(join(dir, "four.txt"), ["PARAMETER p", "POINTS (4) (8) (16) (32)", "", "REGION four", ...[4.1, 8.2, 15.9, 32.3].map((v) => `DATA ${v}`), ""].join("\n"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fitExtrap = (file: string, rule: "extra-p" | "significance") => fitModels(observationsFromExtrap(readExtrap(join(dir, file)))[0]!, { families: EXTRAP_FAMILIES, variable: "p", rule });

describe("Extra-P's selection rule", () => {
  it("keeps a hypothesis whose term is not significant, as Extra-P has no significance test", () => {
    const r = fitExtrap("insignificant.txt", "extra-p");
    expect(r.rule).toBe("extra-p");
    expect(r.mean.formula).toBe("99.8 + 0.00671·p^(3/4)·log2(p)^2");
    expect(r.mean.coefficients[0]!.value).toBeCloseTo(99.83, 2);
    expect(r.mean.coefficients[1]!.value).toBeCloseTo(0.00671, 5);
    expect(r.mean.quality.looSmape).toBeCloseTo(1.198, 3);
    expect(r.screening.insignificant).toBe(0);
    // ccasim's own rule rejects it (t = 3.118 < 3.182) and picks another.
    const own = fitExtrap("insignificant.txt", "significance");
    expect(own.rule).toBe("significance");
    expect(own.mean.formula).toBe("100 + 0.005·p^(5/4)·log2(p)");
    expect(own.mean.quality.looSmape).toBeCloseTo(1.443, 3);
  });

  it("keeps the constant unless a hypothesis's LOO SMAPE is below the constant's SMAPE on all points", () => {
    const r = fitExtrap("constant.txt", "extra-p");
    expect(r.mean.family).toBe("constant");
    expect(r.mean.coefficients[0]!.value).toBeCloseTo(104.2786, 4);
    // Extra-P's rule searches its hypotheses only: no change point is searched or reported.
    expect(r.changePoint).toBeUndefined();
    expect(r.mean.quality.smape).toBeCloseTo(2.982, 3);
    // The best hypothesis predicts worse out of sample than the constant fits in sample.
    expect(r.candidates[1]!.formula).toBe("102 + 3.08e-4·p^(5/2)");
    expect(r.candidates[1]!.quality.looSmape).toBeCloseTo(3.236, 3);
    expect(r.candidates[1]!.quality.looSmape).toBeGreaterThan(r.mean.quality.smape);
    expect(fitExtrap("constant.txt", "significance").mean.formula).toBe("102 + 3.08e-4·p^(5/2)");
  });

  it("rejects a hypothesis whose term contributes under 0.05 % of the value at every point", () => {
    const q = [4, 8, 16, 32, 64];
    // A trend of 10·log2(p) on 10^6: at most 6e-5 of the value.
    const t = q.map((p, i) => 1e6 + 10 * Math.log2(p) + [0.3, -0.2, 0.1, -0.4, 0.2][i]!);
    const r = fitModels({ q, t }, { families: EXTRAP_FAMILIES, rule: "extra-p" });
    expect(r.mean.family).toBe("constant");
    expect(r.screening.negligible).toBe(r.screening.fitted - 1);
  });

  it("refuses the adjusted-R² criterion and scatter weights, which Extra-P has not", () => {
    const d = { q: [4, 8, 16, 32, 64], t: INSIGNIFICANT };
    expect(() => fitModels(d, { rule: "extra-p", families: EXTRAP_FAMILIES, criterion: "adjusted-r2" })).toThrow(AnalysisInputError);
    expect(() => fitModels(d, { rule: "extra-p", families: EXTRAP_FAMILIES, weightByScatter: true })).toThrow(/unweighted/);
  });

  it("is the default of Extra-P observations in the library, as in ccasim fit", () => {
    const obs = observationsFromExtrap(readExtrap(join(dir, "insignificant.txt")))[0]!;
    expect(obs.fitDefaults).toEqual({ families: EXTRAP_FAMILIES, rule: "extra-p" });
    for (const options of [{}, { families: EXTRAP_FAMILIES }, { families: ["constant", "pmnf"] }]) {
      const r = fitModels(obs, { variable: "p", ...options });
      expect(r.rule).toBe("extra-p");
      expect(r.mean.formula).toBe("99.8 + 0.00671·p^(3/4)·log2(p)^2");
      expect(r.changePoint).toBeUndefined();
    }
    // Other families, another criterion or scatter weights: ccasim's rule, as the command's.
    expect(fitModels(obs, { families: ["constant", "pmnf", "power-law"] }).rule).toBe("significance");
    expect(fitModels(obs, { criterion: "adjusted-r2" }).rule).toBe("significance");
    expect(fitModels(obs, { weightByScatter: true }).rule).toBe("significance");
    expect(fitModels(obs, { rule: "significance" }).rule).toBe("significance");
    // The same numbers without their source: ccasim's rule over its own families.
    expect(fitModels({ q: obs.q, t: obs.t }).rule).toBe("significance");
  });

  it("refuses families other than constant and pmnf, whose models it cannot score", () => {
    const d = { q: [4, 8, 16, 32, 64], t: INSIGNIFICANT };
    for (const family of ["power-law", "polynomial", "segmented"]) {
      expect(() => fitModels(d, { rule: "extra-p", families: ["constant", family] })).toThrow(AnalysisInputError);
      expect(() => fitModels(d, { rule: "extra-p", families: ["constant", family] })).toThrow(`it cannot rank '${family}'`);
    }
    // Without families it searches Extra-P's, whatever the input (the rule ranks no others).
    const own = fitModels(d, { rule: "extra-p" });
    expect(own.rule).toBe("extra-p");
    expect(own.mean.formula).toBe(fitModels(d, { rule: "extra-p", families: EXTRAP_FAMILIES }).mean.formula);
    expect(fitModels(d, { rule: "extra-p", families: ["pmnf:negative=true", "constant"] }).rule).toBe("extra-p");
  });

  it("is what ccasim fit uses for Extra-P inputs with the defaults, and says so", async () => {
    const a = await run(["fit", join(dir, "insignificant.txt")]);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toContain("\nselection:  Extra-P's rule: the constant model (its SMAPE on all points, 1.91 %) is kept unless a hypothesis has a lower LOO SMAPE;");
    expect(a.out).toContain("\nmean:       99.8 + 0.00671·p^(3/4)·log2(p)^2\n");
    expect(a.out).toMatch(/family pmnf; LOO SMAPE 1\.198 %/);
    const b = await run(["fit", join(dir, "constant.txt"), "--json"]);
    const j = JSON.parse(b.out)[0];
    expect(j.rule).toBe("extra-p");
    expect(j.mean.family).toBe("constant");
    expect(j.mean.formula).toBe("104");
    // --family (or --criterion adjusted-r2, --weighted) switches to ccasim's rule.
    const own = await run(["fit", join(dir, "constant.txt"), "--family", "constant", "--family", "pmnf"]);
    expect(own.out).not.toContain("selection:");
    expect(own.out).toContain("\nmean:       102 + 3.08e-4·p^(5/2)\n");
  });

  it("fits the PMNF's polynomial terms when a parameter value is 0, as Extra-P does", () => {
    // Extra-P 4.2.5 (Default modeler) on this input: 3.0383333333333313 + 1.9311666666666674 * p^(1),
    // LOO SMAPE 3.0086377285937838, LOO RSS 0.1283316043083895, AR2 0.9954173821225423.
    // Log terms are left out (a value below 1), the terms p^(i/j) are 0 at p = 0.
    const text = ["PARAMETER p", "POINTS (0) (1) (2) (3) (4)", "", "REGION halo", "METRIC time", "DATA 2.94 2.93", "DATA 5.05 5.04", "DATA 7.02 7.16 6.94", "DATA 8.74", "DATA 10.84 10.51 10.88", ""].join("\n");
    writeFileSync(join(dir, "zero.txt"), text);
    const r = fitModels(observationsFromExtrap(readExtrap(join(dir, "zero.txt")))[0]!, { variable: "p" });
    expect(r.rule).toBe("extra-p");
    expect(r.mean.label).toBe("c0 + c1·Q");
    expect(r.mean.coefficients[0]!.value).toBeCloseTo(3.0383333333333313, 10);
    expect(r.mean.coefficients[1]!.value).toBeCloseTo(1.9311666666666674, 10);
    expect(r.mean.quality.looSmape).toBeCloseTo(3.0086377285937838, 10);
    expect(r.mean.quality.looRss).toBeCloseTo(0.1283316043083895, 10);
    expect(r.mean.quality.looAdjustedR2).toBeCloseTo(0.9954173821225423, 10);
    // Every hypothesis without a log term is fitted: 19 exponents and the constant.
    expect(r.screening.fitted).toBe(20);
  });

  it("does not give a constant model's leave-one-out figures as what Extra-P reports", async () => {
    // Extra-P 4.2.5 reports the constant of constant.txt with RSS 83.24834920000008 (on all
    // points: it is not cross-validated) and AR2 1.0 (every constant's).
    const r = await run(["fit", join(dir, "constant.txt")]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain("as Extra-P reports them");
    expect(r.out).toContain("\n            leave-one-out: adj. R² -0.5625, RSS 130.1 (Extra-P reports a constant model's RSS on all points, 83.25, and adj. R² 1)\n");
    // A hypothesis's are those Extra-P reports.
    const h = await run(["fit", join(dir, "insignificant.txt")]);
    expect(h.out).toMatch(/\n {12}leave-one-out \(as Extra-P reports them\): adj\. R² [-0-9.]+, RSS [0-9.]+\n/);
  });

  it("fits data that are one value with the constant, exactly (Extra-P's mean), nothing left over", async () => {
    const r = fitExtrap("exact.txt", "extra-p");
    expect(r.mean.expression).toBe("5");
    expect([r.mean.coefficients[0]!.value, r.mean.coefficients[0]!.stdError, r.mean.quality.rss, r.mean.quality.smape, r.mean.quality.looSmape]).toEqual([5, 0, 0, 0, 0]);
  });

  it("warns, as Extra-P's modeler does, of fewer than 5 distinct values of the parameter, and fits all the same", async () => {
    const r = await run(["fit", join(dir, "four.txt")]);
    expect(r.code, r.err).toBe(0);
    // A file without a METRIC line: the metric '' (as Extra-P names it), the title the callpath alone.
    expect(r.out).toContain("== four vs p (");
    expect(r.err).toContain("only 4 distinct p, fewer than the 5 Extra-P's modeler asks for: it fits all the same, as Extra-P does");
    expect(r.out).toMatch(/\nmean: {7}\S/);
    expect((await run(["fit", join(dir, "constant.txt")])).err).not.toContain("distinct p, fewer than");
    // ccasim's own rule has its significance test for few points instead.
    expect((await run(["fit", join(dir, "four.txt"), "--rule", "significance"])).err).not.toContain("Extra-P's modeler asks for");
  });

  it("still gives Extra-P's model of its documentation example", async () => {
    const r = await run(["fit", "../shared/data/extrap/docs_examples_input.txt"]);
    expect(r.out).toContain("\nmean:       2.82 + 0.483·p^(5/4)·log2(p)\n");
  });
});
