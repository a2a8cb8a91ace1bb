import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  readTrial,
  readExtrap,
  fitModels,
  observationsAcrossTrials,
  observationsFromParameterTimers,
  callTreeFromTrial,
  pruneCallGraph,
  pruneAcross,
  estimateTrialPower,
  powerConstantSets,
} from "../../index.js";

const DATA = "../shared/data";

describe("power-cap trials: time versus cap per application", () => {
  const fitApp = (code: string) => {
    const dirs = readdirSync(join(DATA, "tau/powercap")).filter((d) => new RegExp(`^cap\\d+_wrapped_${code}8$`).test(d));
    const trials = dirs.map((d) => readTrial(join(DATA, "tau/powercap", d)));
    const obs = observationsAcrossTrials(trials, { parameter: { sourcePattern: /cap(\d+)_/ }, timer: ".TAU application" });
    return { n: trials.length, report: fitModels(obs) };
  };

  it("shows LULESH improving with the cap up to 100 W and no further", () => {
    const { n, report } = fitApp("lu");
    expect(n).toBe(14);
    expect(report.range).toEqual({ min: 50, max: 115 });
    const c = report.changePoint!;
    expect(c.significant).toBe(true);
    expect(c.at).toBe(100);
    expect(c.before).toBeLessThan(-0.5); // T ∝ cap^-0.61 below 100 W
    expect(Math.abs(c.after)).toBeLessThan(0.25); // flat above
    expect(report.mean.predict(50) / 1e6).toBeCloseTo(188, -1); // about 188 s at 50 W
  });

  it("finds no change point for CoMD and AMG2013, which barely react to the cap", () => {
    for (const app of ["co", "am"]) {
      const { report } = fitApp(app);
      expect(report.changePoint!.significant).toBe(false);
      const spread = Math.max(...report.points.mean) / Math.min(...report.points.mean);
      expect(spread).toBeLessThan(1.05);
    }
  });
});

describe("GROMACS strong scaling (packed profiles, 2 to 256 ranks)", () => {
  it("fits a scaling model and flags the change past 128 ranks, where the two-segment model predicts best", () => {
    const dir = join(DATA, "tau/ppk/gromacs-scaling");
    const trials = readdirSync(dir).filter((f) => f.endsWith(".ppk")).map((f) => readTrial(join(dir, f)));
    const obs = observationsAcrossTrials(trials, { parameter: { ranks: true }, timer: "int main" });
    expect([obs.qLabel, obs.tLabel]).toEqual(["ranks", "int main(int, char **) C [{mdrun.c} {56,1}-{516,1}]"]);
    expect(obs.partialThreads).toBeUndefined();
    const r = fitModels(obs);
    expect([...r.points.q]).toEqual([2, 4, 8, 16, 32, 64, 128, 256]);
    // The change point's model competes, cross-validated, and beats the single power law.
    expect(r.mean).toBe(r.changePoint!.model);
    expect(r.mean.family).toBe("segmented");
    expect(r.mean.changePoint).toBe(128);
    const powerLaw = r.candidates.find((c) => c.family === "power-law")!;
    expect(r.candidates.indexOf(powerLaw)).toBe(1);
    expect(powerLaw.coefficients[1]!.value).toBeLessThan(-0.5);
    expect(r.mean.quality.looSmape).toBeLessThan(powerLaw.quality.looSmape);
    expect(r.changePoint!.significant).toBe(true);
    expect(r.changePoint!.at).toBe(128);
    expect(r.changePoint!.before).toBeLessThan(-0.6);
    expect(r.changePoint!.after).toBeGreaterThan(-0.1);
  });
});

describe("XGC packed profiles: power, energy and FLOP/J per event", () => {
  const itanium = powerConstantSets.get("itanium2-madison");

  it("derives time from cycles and CPU MHz, and reports the missing cache counters", () => {
    const trial = readTrial(join(DATA, "tau/ppk/xgc-nosamples.ppk"));
    const r = estimateTrialPower(trial, itanium, { kind: "exclusive" });
    expect(r.basis).toEqual({ cyclesFrom: "PAPI_TOT_CYC", timeFrom: "PAPI_TOT_CYC / CPU MHz" });
    expect(r.cpuMHz).toBeGreaterThan(2600);
    expect(r.cpuMHz).toBeLessThan(2700);
    expect(r.cpuMHzRange).toEqual([r.cpuMHz, r.cpuMHz]);
    const each = estimateTrialPower(trial, itanium, { view: "each" });
    expect(each.cpuMHzRange![0]).toBeLessThan(each.cpuMHzRange![1]);
    expect(r.omittedComponents.map((s) => s.split(":")[0])).toEqual(["L1", "L2", "L3"]);
    expect(r.missingMetrics.some((m) => m.startsWith("GlobalStalls"))).toBe(true);
    expect(r.events.length).toBe(42);
    for (const e of r.events) {
      expect(e.power.watts).toBeGreaterThan(itanium.idlePower);
      expect(e.power.watts).toBeLessThan(itanium.idlePower + 0.0459 * 122 * 4.1); // core IPC <= 4
      expect(e.power.components.map((c) => c.counter)).toEqual(["PAPI_TOT_INS"]);
    }
    const main = r.events.find((e) => e.event.startsWith("XGC2"))!;
    expect(main.power.joules).toBeGreaterThan(0);
    expect(main.power.flopsFrom).toBe("PAPI_FP_INS");
    expect(main.power.flopsPerJoule).toBeGreaterThan(1e6);
    expect(main.power.joules).toBeCloseTo(main.power.watts * main.power.basis.timeUs * 1e-6, 6);
  });

  it("uses TIME and CPU MHz for cycles when the profile has no cycle counter", () => {
    const trial = readTrial(join(DATA, "tau/ppk/xgc.ppk"));
    const r = estimateTrialPower(trial, itanium, { view: "mean" });
    expect(trial.metrics).toContain("TIME");
    expect(r.basis.timeFrom).toBe("TIME");
    expect(r.events.some((e) => Number.isFinite(e.power.flopsPerJoule) && e.power.flopsPerJoule > 0)).toBe(true);
  });
});

describe("Hatchet callpath profile (pi on 4 MPI ranks): pruning", () => {
  it("keeps the application, MPI_Init, MPI_Finalize and MPI_File_open", () => {
    const trial = readTrial(join(DATA, "tau/hatchet-cpi-mpi"));
    const built = callTreeFromTrial(trial);
    expect(built.shape).toBe("full-callpaths");
    const r = pruneCallGraph(built.root);
    expect(r.coreNames).toEqual(["MPI_Init()", "MPI_Finalize()", "MPI_File_open()"]);
    expect(r.pruned.map((p) => p.name)).toContain("MPI_Bcast()");
    expect(r.pruned.every((p) => p.share < 0.02)).toBe(true);
    expect(r.keptShare).toBeGreaterThan(0.96);
    expect(r.keptShare).toBeLessThan(0.98);
  });

  it("finds MPI_Info_create significant on ranks 1-3 but not on rank 0, so the union of ranks keeps it", () => {
    const trial = readTrial(join(DATA, "tau/hatchet-cpi-mpi"));
    const perRank = trial.threads.map((_, th) => callTreeFromTrial(trial, { view: th }).root);
    const across = pruneAcross(perRank);
    expect(across.results.map((r) => r.coreNames.includes("MPI_Info_create()"))).toEqual([false, true, true, true]);
    expect(across.coreNames).toEqual(["MPI_Init()", "MPI_Finalize()", "MPI_File_open()", "MPI_Info_create()"]);
    const max = pruneCallGraph(callTreeFromTrial(trial, { view: "max" }).root);
    expect(new Set(max.coreNames)).toEqual(new Set(across.coreNames));
  });

  it("expands WRF's depth-2 callpaths into a tree", () => {
    const built = callTreeFromTrial(readTrial(join(DATA, "tau/ppk/wrf-callpath.ppk")));
    expect(built.shape).toBe("truncated-callpaths");
    const r = pruneCallGraph(built.root);
    expect(r.core.name.startsWith("WRF")).toBe(true);
    expect(r.coreNames.some((n) => n.startsWith("SOLVE_EM"))).toBe(true);
    expect(r.keptShare).toBeGreaterThan(0.9);
  });
});

describe("other inputs", () => {
  it("fits Extra-P's documentation example to about p^1.5", () => {
    const exp = readExtrap(join(DATA, "extrap/docs_examples_input.txt"));
    const m = exp.measurements;
    const r = fitModels({ q: m.flatMap((x) => x.values.map(() => x.point[0]!)), t: m.flatMap((x) => x.values) }, { variable: "p" });
    expect(r.mean.family).toBe("power-law");
    expect(r.mean.coefficients[1]!.value).toBeCloseTo(1.5, 1);
    expect(r.mean.expression).toMatch(/^exp\(1\.50\d*\*log\(p\)/);
  });

  it("reads TAU_PARAM timers as observations", () => {
    const trial = readTrial(join(DATA, "tau/edge-cases/examples/wrap"));
    const obs = observationsFromParameterTimers(trial, { routine: "__wrap_dgemm", parameter: "size" });
    expect(new Set(obs.q)).toEqual(new Set([100, 10000, 100000]));
    expect(obs.q.length).toBe(obs.t.length);
    expect(obs.t.every((t) => t > 0)).toBe(true);
  });
});
