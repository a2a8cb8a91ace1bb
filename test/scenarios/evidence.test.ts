import { describe, expect, it } from "vitest";
import { TrialBuilder, type InvocationRecord } from "../../profile/index.js";
import { computeEvidence, formatEvidence, linearFit, spearman } from "../../scenarios/index.js";

function rec(component: string, parameters: Record<string, number | string>, wallTime: number, rank = 0, mpiTime = 0): InvocationRecord {
  return { component, port: "p", method: "compute", rank, parameters, start: 0, wallTime, mpiTime, computeTime: wallTime - mpiTime, counters: {} };
}

function trial() {
  const b = new TrialBuilder({ metrics: ["TIME"] });
  const app = b.timer(".TAU application");
  const k = b.timer("K::compute()", ["CCA_COMPONENT"]);
  const w = b.timer("MPI_Waitsome()", ["MPI"]);
  const cp = b.callpath([".TAU application", "M::ghost()", "MPI_Waitsome()"], ["MPI"]);
  const t = b.addThread(0, 0, 0);
  b.setValues(t, app, { calls: 1, subroutines: 2, exclusive: [0], inclusive: [100] });
  b.setValues(t, k, { calls: 4, subroutines: 0, exclusive: [75], inclusive: [75] });
  b.setValues(t, w, { calls: 2, subroutines: 0, exclusive: [25], inclusive: [25] });
  b.setValues(t, cp, { calls: 2, subroutines: 0, exclusive: [25], inclusive: [25] });
  return b.build({ checkInvariants: false });
}

describe("evidence of a run, driven by records and MPI timers", () => {
  const records = [
    rec("K", { Q: 100, mode: "sequential" }, 10),
    rec("K", { Q: 100, mode: "strided" }, 11),
    rec("K", { Q: 100000, mode: "sequential" }, 1000),
    rec("K", { Q: 100000, mode: "strided" }, 4000),
    rec("M", { level: 0 }, 5, 0, 5),
    rec("M", { level: 0 }, 7, 1, 7),
    rec("M", { level: 1 }, 9, 0, 9),
  ];
  const e = computeEvidence(trial(), records);

  it("gives the ratio of each mode to the sequential baseline by size bin", () => {
    const k = e.scaling.find((s) => s.component === "K")!;
    expect(k.baseline).toBe("sequential");
    expect(k.bins.map((b) => b.ratios.strided)).toEqual([1.1, 4]);
    expect(k.points.map((p) => p.mean)).toEqual([10.5, 2500]);
  });

  it("groups records without a size by their parameter values, per rank too", () => {
    expect(e.groups.map((g) => [g.parameters.level, g.count, g.wall.median])).toEqual([
      [0, 2, 6],
      [1, 1, 9],
    ]);
    expect(e.groups[0].byRank.map((r) => [r.rank, r.median])).toEqual([
      [0, 5],
      [1, 7],
    ]);
  });

  it("reports cost centres and the MPI share with its callers", () => {
    expect(e.total).toBe(100);
    expect(e.costCentres[0]).toMatchObject({ name: "K::compute()", percent: 75 });
    expect(e.mpiPercent).toBe(25);
    expect(e.mpi[0].callers).toEqual([{ caller: "M::ghost()", percent: 25 }]);
    expect(formatEvidence(e)).toMatch(/Message passing: 25\.0% of the total/);
  });

  it("fits lines exactly and ranks monotone data perfectly", () => {
    const f = linearFit([1, 2, 3, 4], [3, 5, 7, 9]);
    expect(f.slope).toBeCloseTo(2, 12);
    expect(f.intercept).toBeCloseTo(1, 12);
    expect(f.r2).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [1, 4, 9, 16])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [16, 9, 4, 1])).toBeCloseTo(-1, 12);
  });
});
