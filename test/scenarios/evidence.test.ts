import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Mastermind } from "../../components/index.js";
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

  it("gives each bin's scatter at a fixed size, not the spread its sizes add, and the scatter's trend over sizes", () => {
    // Sizes 1000 .. 1500 share a bin (4 per decade). At each size the calls scatter by ±d, d
    // falling as the size grows, while the mean time (0.1 Q) spreads the bin's times far more.
    const sizes = [1000, 1100, 1200, 1300, 1400, 1500];
    const rs = sizes.flatMap((q, i) => [-1, 1].map((sign) => rec("K", { Q: q }, 0.1 * q + sign * (6 - i))));
    const k = computeEvidence(trial(), rs).scaling.find((s) => s.component === "K")!;
    expect(k.bins).toHaveLength(1);
    const scatter = Math.sqrt(sizes.reduce((sum, _, i) => sum + 2 * (6 - i) ** 2, 0) / rs.length);
    expect(k.bins[0].scatter).toBeCloseTo(scatter, 9);
    expect(k.bins[0].time.std).toBeGreaterThan(3 * scatter);
    // The scatter at each size falls as the size grows: the trend says so.
    expect(k.points.map((p) => p.std)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(k.stdTrend).toBe(-1);
    const text = formatEvidence(computeEvidence(trial(), rs));
    expect(text).toContain("mean us  std at Q us");
    expect(text).toContain(`\n  1000-1778               12        125         ${scatter.toFixed(2)}\n`);
    expect(text).toContain("rank correlation of scatter with size -1.00");
  });

  it("gives the scatter of long calls to the microsecond: deviations, not sums of squares, which lose it against the mean", () => {
    // Calls of about 1e9 us (17 minutes) that differ by 0..3 us, at one size and mode each.
    const rs = [0, 1, 2, 3].map((d) => rec("K", { Q: 5000, mode: "sequential" }, 1e9 + d));
    const k = computeEvidence(trial(), rs).scaling.find((s) => s.component === "K")!;
    expect(k.points[0]!.std).toBeCloseTo(Math.sqrt(1.25), 9);
    expect(k.bins[0]!.time.std).toBeCloseTo(Math.sqrt(1.25), 9);
    expect(k.bins[0]!.scatter).toBeCloseTo(Math.sqrt(1.25), 9);
    expect(k.bins[0]!.modes.sequential!.std).toBeCloseTo(Math.sqrt(1.25), 9);
  });

  it("bins sizes of 0 (an empty patch) and fractions below 1 by what they are, not with the sizes from 1 to 1.78", () => {
    const rs = [rec("K", { Q: 0, mode: "sequential" }, 0), rec("K", { Q: 0.5, mode: "sequential" }, 1), rec("K", { Q: 1.2, mode: "sequential" }, 2), rec("K", { Q: 1000, mode: "sequential" }, 30)];
    const k = computeEvidence(trial(), rs).scaling.find((s) => s.component === "K")!;
    expect(k.bins.map((b) => [b.lo, b.time.count, b.meanSize])).toEqual([[0, 1, 0], [10 ** -0.5, 1, 0.5], [1, 1, 1.2], [1000, 1, 1000]]);
    expect(k.bins[0].hi).toBe(0);
    expect(k.bins.every((b) => b.lo <= b.meanSize && (b.meanSize < b.hi || b.hi === 0))).toBe(true);
    const text = formatEvidence(computeEvidence(trial(), rs));
    expect(text).toMatch(/\n {2}0 {24}1 /);
    expect(text).toContain("  0.3162-0.5623");
    const negative = computeEvidence(trial(), [rec("K", { Q: -5 }, 1), rec("K", { Q: 0 }, 1)]).scaling[0].bins;
    expect(negative.map((b) => [b.lo, b.hi, b.time.count])).toEqual([[-5, 0, 2]]);
    expect(formatEvidence(computeEvidence(trial(), [rec("K", { Q: -5 }, 1), rec("K", { Q: 0 }, 1)]))).toContain("  -5.000 to 0");
  });

  it("prints size trends only over three or more sizes", () => {
    // Two sizes above: no fit is printed, only why.
    expect(formatEvidence(e)).toContain("  2 distinct Q: too few for a trend (fits need 3 or more)");
    expect(formatEvidence(e)).not.toMatch(/R²/);
    const three = computeEvidence(trial(), [...records, rec("K", { Q: 1000, mode: "sequential" }, 100), rec("K", { Q: 1000, mode: "strided" }, 150)]);
    expect(formatEvidence(three)).toMatch(/mean \(modes averaged\) = .* \(R² \d\.\d{3}, 3 sizes\)/);
    expect(formatEvidence(three)).not.toContain("too few for a trend");
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

  it("keeps the record groups with the largest total time when a parameter differs from call to call", () => {
    // Iteration i: its wall time is 10 + (i mod 7); the totals order the groups.
    const many = Array.from({ length: 40 }, (_, i) => rec("M", { i }, 10 + (i % 7), i % 3));
    const wall = (i: number) => 10 + (i % 7);
    const all = computeEvidence(trial(), many);
    expect(all.groups).toHaveLength(40);
    expect(all.groupsOmitted).toBe(0);
    const few = computeEvidence(trial(), many, { maxGroups: 5 });
    expect(few.groupsOmitted).toBe(35);
    // The five largest (wall 16: i = 6, 13, 20, 27, 34), in the order of their groups' JSON keys as text.
    expect(few.groups.map((g) => g.parameters.i)).toEqual([13, 20, 27, 34, 6]);
    expect(few.groups.map((g) => g.wall.mean)).toEqual([13, 20, 27, 34, 6].map(wall));
    expect(few.groups).toEqual(all.groups.filter((g) => [6, 13, 20, 27, 34].includes(g.parameters.i as number)));
    // The text shows the largest groups and says how many more there are.
    const text = formatEvidence(few, 3);
    expect(text.match(/^ {2}M::compute\(\) i=/gm)).toHaveLength(3);
    expect(text).toMatch(/\.\.\. and 37 more groups \(5 in evidence\.json\)/);
    expect(formatEvidence(all)).toMatch(/\.\.\. and 28 more groups/);
    const none = computeEvidence(trial(), many, { maxGroups: 0 });
    expect([none.groups.length, none.groupsOmitted]).toEqual([0, 40]);
    expect(formatEvidence(none)).toMatch(/\.\.\. and 40 more groups \(0 in evidence\.json\)/);
    expect(() => computeEvidence(trial(), many, { maxGroups: 2.5 })).toThrow(RangeError);
    // A method whose groups are all small keeps its largest one.
    const small = [...many, ...[0, 1, 2].map((i) => ({ ...rec("S", { i }, 1 + i), method: "tiny" }))];
    const mixed = computeEvidence(trial(), small, { maxGroups: 5 });
    expect(mixed.groups.map((g) => `${g.component}.${g.method} ${g.parameters.i}`)).toEqual(["M.compute 13", "M.compute 20", "M.compute 27", "M.compute 34", "S.tiny 2"]);
    expect(mixed.groupsOmitted).toBe(38);
    expect(() => formatEvidence(all, -2)).toThrow(RangeError);
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

  it("takes times that vary only by rounding for times that do not vary: no slope, R² 0", () => {
    // 3.3 us at every size: the means (sums of 3 to 45 records, divided) differ in their last bit,
    // which gave a slope of 4.08e-19, R² -0.090 and a power law of R² 0.141.
    const sizes = [10, 20, 40, 80, 160, 320, 640];
    const records = sizes.flatMap((q, i) => Array.from({ length: 3 + 7 * i }, () => rec("K", { Q: q }, 3.3)));
    const e = computeEvidence(trial(), records);
    const s = e.scaling[0]!;
    expect(new Set(s.points.map((p) => p.mean)).size).toBeGreaterThan(1);
    expect([s.linear.slope, s.linear.r2, s.powerLaw.slope, s.powerLaw.r2]).toEqual([0, 0, 0, 0]);
    expect(s.linear.intercept).toBeCloseTo(3.3, 12);
    expect(formatEvidence(e)).toContain("mean (modes averaged) = 3.300 + 0 Q us (R² 0.000, 7 sizes); = exp(0.000 log Q + 1.194) (R² 0.000)");
    // A line through values that do vary keeps its fit, however small they are.
    expect(linearFit([1, 2, 3], [1e-300, 2e-300, 3e-300]).r2).toBeCloseTo(1, 12);
    expect(linearFit([1, 2, 3], [1e9, 1e9 + 1, 1e9 + 2]).slope).toBeCloseTo(1, 6);
  });

  it("groups records by the JSON text of their sorted parameter names and values (property)", () => {
    // Values JSON writes alike (NaN, infinities: null; -0: 0) fall in one group; 3 and "3" do not.
    const value = fc.constantFrom(0, -0, 3, "3", NaN, Infinity, -Infinity, "x", "", 1.5);
    const r = fc.record({
      component: fc.constantFrom("A", "B"),
      port: fc.constantFrom("p", "q"),
      method: fc.constantFrom("m", "n"),
      rank: fc.nat(3),
      parameters: fc.dictionary(fc.constantFrom("level", "epoch", "mode"), value, { maxKeys: 3 }),
      wall: fc.integer({ min: 0, max: 50 }),
      mpi: fc.integer({ min: 0, max: 5 }),
    });
    fc.assert(
      fc.property(fc.array(r, { maxLength: 40 }), (xs) => {
        const records = xs.map((x) => ({ ...rec(x.component, x.parameters, x.wall, x.rank, x.mpi), port: x.port, method: x.method }));
        const key = (x: InvocationRecord) => JSON.stringify(Object.keys(x.parameters).sort().map((n) => [n, x.parameters[n]]));
        const method = (x: InvocationRecord) => `${x.component}\u0000${x.method}`;
        const expected: string[] = [];
        for (const m of [...new Set(records.map(method))].sort())
          for (const k of [...new Set(records.filter((x) => method(x) === m).map(key))].sort()) {
            const rs = records.filter((x) => method(x) === m && key(x) === k);
            const walls = rs.map((x) => x.wallTime).sort((a, b) => a - b);
            const ranks = [...new Set(rs.map((x) => x.rank))].sort((a, b) => a - b);
            expected.push(JSON.stringify([rs[0].component, rs[0].method, k, rs.length, walls[0], walls[walls.length - 1], ranks]));
          }
        const e = computeEvidence(trial(), records);
        expect(e.scaling).toEqual([]);
        const found = e.groups.map((g) => JSON.stringify([g.component, g.method, key({ parameters: g.parameters } as InvocationRecord), g.count, g.wall.min, g.wall.max, g.byRank.map((x) => x.rank)]));
        expect(found).toEqual(expected);
      }),
      { numRuns: 200, seed: 5 },
    );
  });

  it("is the same from a Mastermind as from its record objects (property)", () => {
    const q = fc.oneof(fc.constantFrom(1, 10, 100, 1000, 1e5), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(NaN, "big"));
    const call = fc.record({
      site: fc.nat(3),
      rank: fc.nat(3),
      start: fc.integer({ min: 0, max: 1000 }),
      wall: fc.double({ min: 0, max: 1e4, noNaN: true }),
      q,
      mode: fc.constantFrom("sequential", "strided", "", 4),
      level: fc.constantFrom(0, 1, "2"),
    });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 40 }), (calls) => {
        const mm = new Mastermind([]);
        const sites = [mm.site("K", "p", "compute", ["Q", "mode"]), mm.site("K", "q", "compute", ["mode", "Q"]), mm.site("M", "p", "ghost", ["level"]), mm.site("M", "p", "ghost", [])];
        for (const c of calls) {
          const t = mm.begin(c.rank, sites[c.site], Float64Array.of(c.start), 0);
          if (c.site < 2) {
            mm.param(t, c.site === 0 ? 0 : 1, c.q);
            mm.param(t, c.site === 0 ? 1 : 0, c.mode);
          } else if (c.site === 2) mm.param(t, 0, c.level);
          mm.end(t, Float64Array.of(c.start + c.wall), c.wall / 3);
        }
        expect(JSON.stringify(computeEvidence(trial(), mm))).toBe(JSON.stringify(computeEvidence(trial(), mm.records)));
      }),
      { numRuns: 150, seed: 6 },
    );
  });
});
