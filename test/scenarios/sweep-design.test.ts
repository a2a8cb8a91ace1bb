import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ScenarioErrors } from "../../scenarios/lang/index.js";
import { executeScenario, loadScenarioText } from "../../scenarios/index.js";
import { scenarioErrorsOf } from "./fixtures.js";
import { canonicalPoint, invalidPoints, loadSweep, loadSweepText, pointId, pointRunCommand, pointSeed, pointTask, runPointTask, sweepPointOverrides, type Sweep } from "../../scenarios/sweep/index.js";

const KM = "scenarios/known-models.yaml";
const sweepOf = (body: string): Sweep => loadSweepText(`scenario: ${KM}\n${body}`, "study.sweep.yaml");
const values = (sw: Sweep, key: string) => [...new Set(sw.points.map((p) => p.values[key]))];

const errorOf = (body: string): ScenarioErrors => scenarioErrorsOf(() => sweepOf(body));

describe("sweep designs", () => {
  it("crosses list axes with the last axis varying fastest and replications innermost", () => {
    const sw = sweepOf("replications: 2\naxes:\n  workload.x: [1, 2]\n  assembly.components.A.params.implementation: [A1, A2]\n");
    expect(sw.points).toHaveLength(8);
    expect(sw.points.map((p) => [p.values["workload.x"], p.values["assembly.components.A.params.implementation"], p.replication])).toEqual([
      [1, "A1", 0], [1, "A1", 1], [1, "A2", 0], [1, "A2", 1], [2, "A1", 0], [2, "A1", 1], [2, "A2", 0], [2, "A2", 1],
    ]);
    expect(sw.points.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("expands arithmetic, factor and log ranges, in base units when the bounds carry units", () => {
    const sw = sweepOf(
      "axes:\n  workload.x: { from: 0.5, to: 2, step: 0.5 }\n  machine.l2.size: { from: 128KiB, to: 1MiB, factor: 2 }\n  workload.iterations: { from: 10, to: 1000, points: 3, log: true }\n",
    );
    expect(values(sw, "workload.x")).toEqual([0.5, 1, 1.5, 2]);
    expect(values(sw, "machine.l2.size")).toEqual([131072, 262144, 524288, 1048576]);
    expect(values(sw, "workload.iterations")).toEqual([10, 100, 1000]);
    expect(sw.points).toHaveLength(4 * 4 * 3);
  });

  it("rounds a range to whole values with integer: true, dropping repeats", () => {
    const sw = sweepOf("axes:\n  workload.x: { from: 1000, to: 1000000, points: 10, log: true, integer: true }\n  workload.iterations: { from: 1, to: 3, step: 0.4, integer: true }\n");
    expect(values(sw, "workload.x")).toEqual([1000, 2154, 4642, 10000, 21544, 46416, 100000, 215443, 464159, 1000000]);
    // 1, 1.4, 1.8, 2.2, 2.6, 3 round to 1, 1, 2, 2, 3, 3.
    expect(values(sw, "workload.iterations")).toEqual([1, 2, 3]);
    expect(values(sweepOf("axes:\n  workload.x: { from: 1000, to: 1000000, points: 4, log: true }\n"), "workload.x")).toEqual([1000, 10000, 100000, 1000000]);
    expect(values(sweepOf("axes:\n  workload.x: { from: 1000, to: 1000000, points: 10, log: true }\n"), "workload.x")[1]).toBeCloseTo(2154.43469, 4);
    expect(errorOf("axes:\n  machine.network.params.alpha: { from: 1ms, to: 5ms, step: 1ms, integer: true }\n").message).toMatch(
      /:3:66: axes\["machine\.network\.params\.alpha"\]\.integer: integer applies to counts and sizes in bytes, not to 1000us/,
    );
  });

  it("keeps the unit of non-byte quantities as the base unit", () => {
    const sw = sweepOf("axes:\n  machine.clock: { from: 1GHz, to: 2GHz, step: 0.5GHz }\n");
    expect(values(sw, "machine.clock")).toEqual(["1000000000Hz", "1500000000Hz", "2000000000Hz"]);
  });

  it("keeps the point ids and seeds of existing studies (a database resumes point for point)", () => {
    // Values pinned from a study written before: any change to how points are written or hashed
    // would make --resume refuse such a database and rerun its points with other seeds. (Studies
    // written before common seeds were the default have per-point seeds.)
    const sw = loadSweepText(
      `scenario: ${KM}\nseed: 5\nseeds: per-point\naxes:\n  machine.clock: { from: 1GHz, to: 2GHz, step: 0.5GHz }\n  machine.network.params.bandwidth: { from: 100MB/s, to: 1600MB/s, factor: 4 }\n`,
      "study.sweep.yaml",
    );
    expect(sw.points.slice(0, 3).map((p) => [p.id, p.seed])).toEqual([
      ["36b23128c479e33e", 501040714],
      ["9297dbf65134be17", 580486661],
      ["e3da572f5c9a3cd6", 490677263],
    ]);
  });

  it("advances zipped lists together", () => {
    const sw = sweepOf("zip:\n  - { workload.x: [1, 2, 3], workload.iterations: [30, 20, 10] }\n");
    expect(sw.points.map((p) => [p.values["workload.x"], p.values["workload.iterations"]])).toEqual([[1, 30], [2, 20], [3, 10]]);
  });

  it("draws the random design from the study seed: same seed, same samples; another seed, others", () => {
    const body = (seed: number) => `seed: ${seed}\nrandom:\n  n: 6\n  axes:\n    workload.x: { uniform: [1, 5] }\n    workload.iterations: { loguniform: [10, 1000], integer: true }\n    assembly.components.A.params.implementation: { choice: [A1, A2] }\n`;
    const a = sweepOf(body(5));
    expect(a.points).toHaveLength(6);
    expect(sweepOf(body(5)).points).toEqual(a.points);
    expect(sweepOf(body(6)).points.map((p) => p.values)).not.toEqual(a.points.map((p) => p.values));
    for (const p of a.points) {
      expect(p.values["workload.x"]).toBeGreaterThanOrEqual(1);
      expect(p.values["workload.x"]).toBeLessThan(5);
      expect(Number.isInteger(p.values["workload.iterations"])).toBe(true);
      expect(["A1", "A2"]).toContain(p.values["assembly.components.A.params.implementation"]);
    }
  });

  it("with per-point seeds, gives every point a seed that depends only on the study seed and the point", () => {
    const a = sweepOf("seed: 9\nseeds: per-point\naxes:\n  workload.x: [1, 2, 3]\n");
    const b = sweepOf("seed: 9\nseeds: per-point\naxes:\n  workload.x: [3, 1]\n");
    const seedOf = (sw: Sweep, x: number) => sw.points.find((p) => p.values["workload.x"] === x)!.seed;
    expect(seedOf(b, 3)).toBe(seedOf(a, 3));
    expect(seedOf(b, 1)).toBe(seedOf(a, 1));
    expect(new Set(a.points.map((p) => p.seed)).size).toBe(3);
    expect(sweepOf("seed: 10\nseeds: per-point\naxes:\n  workload.x: [1, 2, 3]\n").points[0].seed).not.toBe(a.points[0].seed);
  });

  it("by default gives every point of a replication the same seed (common random numbers), another per replication and study seed", () => {
    const a = sweepOf("seed: 9\nreplications: 2\naxes:\n  workload.x: [1, 2, 3]\n");
    const byReplication = (sw: Sweep, r: number) => new Set(sw.points.filter((p) => p.replication === r).map((p) => p.seed));
    expect(a.config.seeds).toBe("common");
    expect(byReplication(a, 0).size).toBe(1);
    expect(byReplication(a, 1).size).toBe(1);
    expect([...byReplication(a, 1)][0]).not.toBe([...byReplication(a, 0)][0]);
    expect(sweepOf("seed: 10\naxes:\n  workload.x: [1, 2, 3]\n").points[0].seed).not.toBe(a.points[0].seed);
    // Points ids do not depend on how seeds are given; the study (its hash) does.
    const perPoint = sweepOf("seed: 9\nreplications: 2\nseeds: per-point\naxes:\n  workload.x: [1, 2, 3]\n");
    expect(perPoint.points.map((p) => p.id)).toEqual(a.points.map((p) => p.id));
    expect(perPoint.studyHash).not.toBe(a.studyHash);
  });

  it("names where each swept or fixed key stands in the sweep file, by its section", () => {
    const sw = sweepOf("zip:\n  - { workload.x: [1, 2] }\nrandom:\n  n: 2\n  axes:\n    workload.iterations: { uniform: [1, 9], integer: true }\nset:\n  assembly.components.A.params.implementation: A2\n");
    expect(sw.keySources["workload.x"]).toBe("zip[0] key 'workload.x' (study.sweep.yaml:3:7)");
    expect(sw.keySources["workload.iterations"]).toMatch(/^random\.axes key 'workload\.iterations' \(.*:7:5\)$/);
    expect(sw.keySources["assembly.components.A.params.implementation"]).toMatch(/^set key 'assembly\.components\.A\.params\.implementation' \(.*:9:3\)$/);
  });

  it("refuses a seed among the swept or fixed keys, which the point's seed would override", () => {
    for (const body of ["set:\n  seed: 7\n", "axes:\n  seed: [1, 2]\n"]) {
      expect(() => sweepOf(body)).toThrow(/a point's seed comes from the sweep.*`seed:`.*`seeds:`/);
    }
  });

  it("hashes points canonically: key order does not matter, values and replication do", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 }))), fc.nat(3), (vals, rep) => {
        const reversed = Object.fromEntries(Object.entries(vals).reverse());
        expect(canonicalPoint(reversed, rep)).toBe(canonicalPoint(vals, rep));
        expect(pointId(reversed, rep)).toBe(pointId(vals, rep));
        expect(pointSeed(1, reversed, rep)).toBe(pointSeed(1, vals, rep));
        expect(pointId(vals, rep + 1)).not.toBe(pointId(vals, rep));
        const s = pointSeed(1, vals, rep);
        expect(Number.isInteger(s) && s >= 0 && s < 2 ** 31).toBe(true);
      }),
    );
  });

  it("sweeps a cost function with parameters, its key written as the file writes it, as --set does", () => {
    const sw = loadSweepText('scenario: scenarios/prophet-sample.yaml\naxes:\n  program.functions.FSA2(pid): ["idiv(32, pid + 1)", "64"]\nset:\n  program.functions.FA4(P): "2 * P"\n', "f.sweep.yaml");
    expect(sw.points.map((p) => p.values["program.functions.FSA2(pid)"])).toEqual(["idiv(32, pid + 1)", "64"]);
    expect(invalidPoints(sw)).toEqual([]);
    const times = sw.points.map((p) => executeScenario(loadScenarioText(sw.loadText, sw.scenarioFile, { set: sweepPointOverrides(sw, p), seed: p.seed })).summary.simulatedTime);
    // The all-reduce leaves with the slowest process: 32 us of local work before it, then 64.
    expect(times[1]! - times[0]!).toBeCloseTo(32, 9);
    expect(pointRunCommand(sw, sw.points[1])).toContain("--set 'program.functions.FSA2(pid)=\"64\"'");
    // A key that is none says what a key is, in words.
    expect(() => loadSweepText("scenario: scenarios/prophet-sample.yaml\naxes:\n  1machine: [1, 2]\n", "k.sweep.yaml")).toThrow(
      "k.sweep.yaml:3:3: axes.1machine: key '1machine' is not a scenario key as --set reads it: names of letters, digits, _ and - separated by dots, each with any [i] indices (a cost function's with its parameters in parentheses), the first starting with a letter or _ (machine.l2.size, assembly.connections[0], program.functions.F(a, b))",
    );
    // A space is no part of a name (outside a cost function's parameters).
    expect(() => loadSweepText('scenario: scenarios/prophet-sample.yaml\naxes:\n  "workload. x": [1, 2]\n', "k.sweep.yaml")).toThrow(/axes\["workload\. x"\]: key 'workload\. x' is not a scenario key/);
  });

  it("spans 4 L2 sizes x 10 array sizes in the kernel example sweep (enough distinct Q for a change point), and its points record Q", () => {
    const sw = loadSweep("scenarios/kernel-l2.sweep.yaml");
    expect(values(sw, "machine.l2.size")).toEqual([262144, 524288, 1048576, 2097152]);
    expect(values(sw, "workload.Q")).toEqual([1000, 2154, 4642, 10000, 21544, 46416, 100000, 215443, 464159, 1000000]);
    expect(sw.points).toHaveLength(40);
    const rows = runPointTask(pointTask(sw, sw.points[5]));
    expect(rows.tables.error).toBeUndefined();
    const q = rows.tables.record_parameter[4] as Float64Array;
    expect(q.length).toBe(800); // 200 iterations x 2 kernels x 2 ranks, one parameter each
    expect(new Set(q)).toEqual(new Set([sw.points[5].values["workload.Q"]]));
  });

  it("says, for a point refused for a fraction where a whole number belongs, which axis gave it and how to round it", () => {
    const sw = loadSweepText("scenario: scenarios/kernel-l2.yaml\naxes:\n  workload.Q: { from: 1000, to: 100000, points: 4, log: true }\n", "q.sweep.yaml");
    const rows = runPointTask(pointTask(sw, sw.points[1]));
    // (The text columns are dictionary-coded.)
    const message = String((rows.tables.error as unknown as { dict: string[] }[])[2].dict[0]);
    expect(message).toContain("assembly.components.DerivX.params.elements: expected an integer >= 0, got 4641.58883361");
    expect(message).toContain(
      "\nthe sweep gives this point workload.Q=4641.58883361 (axes key 'workload.Q' (q.sweep.yaml:3:3)): give it whole numbers there (a range or a random axis rounds its values with 'integer: true')",
    );
    // A whole value fails for other reasons without the hint.
    expect(runPointTask(pointTask(sw, sw.points[0])).tables.error).toBeUndefined();
  });

  it("gives the same hint when validating the sweep, for a point that does not load with a fraction", () => {
    const sw = loadSweepText("scenario: scenarios/kernel-l2.yaml\naxes:\n  machine.l2.size: { from: 256KiB, to: 512KiB, factor: 1.3 }\n", "c.sweep.yaml");
    const invalid = invalidPoints(sw);
    expect(invalid.map((b) => b.point.index)).toEqual([1, 2]); // 340787.2 and 443023.36 bytes
    expect(invalid[0].error).toBeInstanceOf(ScenarioErrors);
    expect(invalid[0].error.message).toContain("got 340787.2 (not a whole number of bytes)");
    expect(invalid[0].error.message).toContain(
      "\nthe sweep gives this point machine.l2.size=340787.2 (axes key 'machine.l2.size' (c.sweep.yaml:3:3)): give it whole numbers there (a range or a random axis rounds its values with 'integer: true')",
    );
  });

  it("prints the ccasim run command that re-runs a point with its overrides and seed", () => {
    const sw = loadSweep("test/scenarios/sweeps/small.sweep.yaml");
    const p = sw.points[3];
    const cmd = pointRunCommand(sw, p);
    expect(cmd).toContain("known-models.yaml");
    expect(cmd).toContain("--set workload.iterations=5");
    expect(cmd).toContain(`--set assembly.components.A.params.implementation=${p.values["assembly.components.A.params.implementation"]}`);
    expect(cmd).toContain(`--seed ${p.seed}`);
  });

  it("changes the study hash when the scenario, the points or the seed change", () => {
    const a = sweepOf("axes:\n  workload.x: [1, 2]\n");
    expect(sweepOf("axes:\n  workload.x: [1, 2]\n").studyHash).toBe(a.studyHash);
    expect(sweepOf("axes:\n  workload.x: [1, 3]\n").studyHash).not.toBe(a.studyHash);
    expect(sweepOf("seed: 2\naxes:\n  workload.x: [1, 2]\n").studyHash).not.toBe(a.studyHash);
  });
});

describe("sweep file errors", () => {
  it("names file, line and key of a schema error", () => {
    const e = errorOf("replications: 0\n");
    expect(e.message).toMatch(/study\.sweep\.yaml:2:\d+: replications: /);
  });

  it("rejects zipped lists of different lengths at the offending key", () => {
    const e = errorOf("zip:\n  - workload.x: [1, 2]\n    workload.iterations: [5]\n");
    expect(e.errors[0].line).toBe(4);
    expect(e.errors[0].path).toBe(`zip[0]["workload.iterations"]`);
    expect(e.message).toContain("one length");
  });

  it("rejects a list value that repeats another, as written or as the same quantity, at the repeat", () => {
    const e = errorOf("axes:\n  workload.x: [1, 2, 1]\n");
    expect(e.errors[0].path).toBe(`axes["workload.x"][2]`);
    expect(e.errors[0].line).toBe(3);
    expect(e.message).toContain("1 repeats item 0 (1): both would be the same run; for repeated runs set 'replications:'");
    expect(errorOf("axes:\n  machine.l2.size: [256KiB, 512KiB, 524288]\n").message).toMatch(/:3:37: axes\["machine\.l2\.size"\]\[2\]: 524288 repeats item 1 \(512KiB\)/);
    expect(errorOf("axes:\n  workload.x: [1e3, 1000]\n").message).toContain("1000 repeats item 0");
    expect(values(sweepOf("axes:\n  assembly.components.A.params.implementation: [A1, A2]\n"), "assembly.components.A.params.implementation")).toEqual(["A1", "A2"]);
  });

  it("rejects a zipped row that repeats another, and reports it with the other keys' problems", () => {
    const e = errorOf("zip:\n  - { workload.x: [1, 1, 2], workload.iterations: [5, 5, 5] }\naxes:\n  workload.y: [1]\n");
    expect(e.errors.map((x) => x.path)).toEqual([`zip[0]["workload.x"][1]`, `axes["workload.y"]`]);
    expect(e.message).toContain("zipped row 1 (1, 5) repeats row 0");
    expect(sweepOf("zip:\n  - { workload.x: [1, 1], workload.iterations: [5, 6] }\n").points).toHaveLength(2);
  });

  it("rejects a random design whose draws repeat a point, at its n", () => {
    const e = errorOf("random:\n  n: 12\n  axes:\n    workload.iterations: { uniform: [1, 3], integer: true }\n");
    expect(e.errors[0].path).toBe("random.n");
    expect(e.errors[0].line).toBe(3);
    expect(e.message).toMatch(/(\d+) of the 12 draws repeat an earlier one/);
    expect(Number(/(\d+) of the 12/.exec(e.message)![1])).toBeGreaterThanOrEqual(9);
  });

  it("names a sweep file given as the scenario for what it is, at the scenario key", () => {
    let e: unknown;
    try {
      loadSweepText("scenario: sweeps/small.sweep.yaml\naxes:\n  workload.x: [1, 2]\n", "test/scenarios/outer.sweep.yaml");
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(ScenarioErrors);
    const err = (e as ScenarioErrors).errors[0];
    expect([err.path, err.line]).toEqual(["scenario", 1]);
    expect(err.message).toContain("the scenario 'sweeps/small.sweep.yaml': this is a sweep file (it has 'scenario', 'axes', 'replications'), not a scenario: run it with 'ccasim sweep ");
    expect(err.message).not.toMatch(/workload variable/);
  });

  it("rejects a key swept twice", () => {
    const e = errorOf("axes:\n  workload.x: [1]\nzip:\n  - { workload.x: [2] }\n");
    expect(e.message).toContain("swept twice");
    expect(e.errors[0].line).toBe(5);
  });

  it("rejects a range without step, factor or points, and unreadable bounds", () => {
    expect(errorOf("axes:\n  workload.x: { from: 1, to: 3 }\n").message).toContain("needs 'step'");
    const e = errorOf("axes:\n  workload.x: { from: 1, to: 3pints, step: 1 }\n");
    expect(e.errors[0].path).toBe(`axes["workload.x"].to`);
    expect(e.errors[0].line).toBe(3);
  });

  it("reports every axis's and key's problem at once", () => {
    const e = errorOf("axes:\n  workload.x: { from: 1, to: 3pints, step: 1 }\n  workload.iterations: { from: 1, to: 3 }\n  workload.zz: [1]\n");
    expect(e.errors.map((x) => [x.path, x.line])).toEqual([
      [`axes["workload.x"].to`, 3],
      [`axes["workload.iterations"]`, 4],
      [`axes["workload.zz"]`, 5],
    ]);
  });

  it("rejects a decimal unit on the bounds of a cache size, whose generated values would be taken as bytes", () => {
    const e = errorOf("axes:\n  machine.l2.size: { from: 256KB, to: 1MiB, factor: 2 }\n");
    expect(e.errors[0].path).toBe(`axes["machine.l2.size"].from`);
    expect(e.message).toContain('got "256KB" (KB is 1000 bytes, and this size counts in powers of two: write 256KiB)');
    // Other sizes keep decimal units.
    expect(values(sweepOf("axes:\n  machine.memory.size: { from: 1KB, to: 4KB, factor: 2 }\n"), "machine.memory.size")).toEqual([1000, 2000, 4000]);
  });

  it("rejects a decimal unit on a listed cache size at the item, as on a range's bounds, before any point loads", () => {
    const e = errorOf("axes:\n  machine.l2.size: [256KiB, 512KB]\n  workload.x: [1, 2]\n");
    expect(e.errors[0].path).toBe(`axes["machine.l2.size"][1]`);
    expect([e.errors[0].line, e.errors[0].column]).toEqual([3, 29]);
    expect(e.message).toContain('got "512KB" (KB is 1000 bytes, and this size counts in powers of two: write 512KiB)');
    expect(values(sweepOf("axes:\n  machine.l2.size: [256KiB, 524288]\n"), "machine.l2.size")).toEqual(["256KiB", 524288]);
    expect(errorOf("zip:\n  - { machine.l2.size: [1MB, 2MiB], workload.x: [1, 2] }\n").errors[0].path).toBe(`zip[0]["machine.l2.size"][0]`);
    expect(values(sweepOf("axes:\n  machine.memory.size: [1GB, 2GiB]\n"), "machine.memory.size")).toEqual(["1GB", "2GiB"]);
  });

  it("rejects a factor range that would be empty because 'to' is below 'from'", () => {
    const e = errorOf("axes:\n  machine.l2.size: { from: 1MiB, to: 256KiB, factor: 2 }\n");
    expect(e.errors[0].path).toBe(`axes["machine.l2.size"].to`);
    expect(e.message).toContain("'to' is smaller than 'from'");
    expect(values(sweepOf("axes:\n  machine.l2.size: { from: 256KiB, to: 256KiB, factor: 2 }\n"), "machine.l2.size")).toEqual([262144]);
  });

  it("names the scenario file that cannot be read", () => {
    const e = (() => {
      try {
        loadSweepText("scenario: nowhere.yaml\n", "test/x.sweep.yaml");
      } catch (err) {
        return err as ScenarioErrors;
      }
      throw new Error("expected an error");
    })();
    expect(e.isInputError).toBe(true);
    expect(e.message).toContain("nowhere.yaml");
    expect(e.errors[0].line).toBe(1);
  });
});
