import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as ccasim from "ccasim";
import { runCli } from "./cli/run-cli.js";

const EXTRAP_TEXT = "../shared/data/extrap/tests_data_text_one_parameter_2.txt";

// What a researcher importing "ccasim" does instead of running the command, one capability each.
describe("the library does what the command does", () => {
  it("fits an Extra-P experiment per callpath and metric, as ccasim fit does", async () => {
    const sets = ccasim.observationsFromExtrap(ccasim.readExtrap(EXTRAP_TEXT));
    const cli = JSON.parse((await runCli(["fit", EXTRAP_TEXT, "--json"])).out) as { title: string; rule: string; mean: { formula: string } }[];
    expect(sets.map((s) => `${s.tLabel} vs ${s.qLabel} (${EXTRAP_TEXT})`)).toEqual(cli.map((r) => r.title));
    const main = sets[0]!;
    expect([main.callpath, main.metric, main.qLabel, main.q.length]).toEqual(["main", "time", "x", 25]);
    // Extra-P inputs are fitted in Extra-P's search space by Extra-P's rule, as the command does by
    // default: naming the families or not.
    expect(cli[0]!.rule).toBe("extra-p");
    for (const options of [{ variable: main.qLabel, families: ccasim.EXTRAP_FAMILIES }, { variable: main.qLabel }]) {
      const report = ccasim.fitModels(main, options);
      expect(report.rule).toBe("extra-p");
      expect(report.mean.formula).toBe(cli[0]!.mean.formula);
    }
  });

  it("refuses an Extra-P selection that matches nothing, naming the source", () => {
    const exp = ccasim.readExtrap(EXTRAP_TEXT);
    expect(() => ccasim.observationsFromExtrap(exp, { metric: "energy", source: "x.txt" })).toThrow(ccasim.AnalysisInputError);
    expect(() => ccasim.observationsFromExtrap(exp, { metric: "energy", source: "x.txt" })).toThrow("x.txt: no metric 'energy'; metrics: 'time'");
    expect(() => ccasim.observationsFromExtrap({ parameters: ["p", "n"], measurements: [] })).toThrow("2 parameters (p, n)");
  });
});

describe("running one sweep point from the library", () => {
  it("writes the point's run folder, equal to ccasim run with the point's overrides and seed", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-point-"));
    const sweep = ccasim.loadSweep("scenarios/kernel-l2.sweep.yaml");
    const point = sweep.points[3]!;
    const art = ccasim.runSweepPoint(sweep, point, { out: join(dir, "point") });
    expect(art.outDir).toBe(join(dir, "point"));
    const alone = ccasim.runScenario(sweep.scenarioFile, { set: ccasim.sweepPointOverrides(sweep, point), seed: point.seed, out: join(dir, "run") });
    expect(readFileSync(join(art.outDir, "summary.json"), "utf8")).toBe(readFileSync(join(alone.outDir, "summary.json"), "utf8"));
    expect(ccasim.sweepPointFolder(sweep, point)).toBe(join("out", sweep.name, "point-3"));
    writeFileSync(join(dir, "mine.txt"), "not a run folder");
    expect(() => ccasim.runSweepPoint(sweep, point, { out: dir })).toThrow(ccasim.OutputFolderError);
  });
});

describe("reading an assembly file for selection", () => {
  it("refuses an assembly whose cost model does not compile, naming the file", () => {
    const file = join(mkdtempSync(join(tmpdir(), "ccasim-asm-")), "bad.yaml");
    writeFileSync(file, 'components:\n  - name: Flux\n    implementations:\n      - { name: EFM, mean: "exp(1.03*log(Q) - " }\ncallGraph: { component: Flux, calls: 100 }\n');
    expect(() => ccasim.readAssemblyFile(file)).toThrow(ccasim.AnalysisInputError);
    expect(() => ccasim.readAssemblyFile(file)).toThrow(`${file}:4:28: key 'components[0].implementations[0].mean': cannot parse cost expression`);
    writeFileSync(file, "components:\n  - name: Flux\n    implementations: [{ name: EFM, mean: Q }]\ncallGraph: { component: Fluxx, calls: 100 }\n");
    expect(() => ccasim.readAssemblyFile(file)).toThrow(new RegExp(`^${file}:4:25: .*Fluxx`));
    expect(ccasim.readAssemblyFile("scenarios/flux.assembly.yaml").components.map((c) => c.name)).toEqual(["Flux"]);
  });
});

describe("a component assembly built in code", () => {
  const config: ccasim.AssemblyConfig = {
    instances: [
      { name: "Driver", type: "driver", params: { iterations: "iterations", calls: [{ port: "a", args: { x: "x" } }] } },
      { name: "A", type: "dummy", params: { cost: "2*x" } },
    ],
    connections: [{ user: "Driver", usesPort: "a", provider: "A", providesPort: "work" }],
    proxies: [{ component: "A", port: "work", parameters: { x: "argument x" } }],
  };

  it("is prepared with the scenario language's expressions and runs on a platform", () => {
    const workload = { x: 3, iterations: 10, mode: "fast" };
    const prepared = ccasim.prepareWorkloadAssembly(config, workload);
    const result = ccasim.runAssembly(prepared, ccasim.simplePlatform(2), { seed: 1, workload, metrics: ["TIME"] });
    // 10 iterations of A at 2x = 6 us each, on each of 2 ranks.
    expect([result.simulatedTime, result.invocations, result.mastermind?.count]).toEqual([60, 22, 20]);
  });

  it("runs on a modelled machine given as a scenario's machine section", () => {
    const workload = { x: 3, iterations: 10 };
    const setup = ccasim.machineSetupOf({ preset: "xeon-2.8ghz-512k", nodes: 2, processesPerNode: 2, l2: { size: "256KiB" }, network: { preset: "gigabit-ethernet" } });
    expect([setup.cluster.ranks, setup.config.l2!.size]).toEqual([4, 262144]);
    const result = ccasim.runAssembly(ccasim.prepareWorkloadAssembly(config, workload), ccasim.buildPlatform(setup), { seed: 1, workload, metrics: ["TIME", "PAPI_TOT_CYC"] });
    // 10 iterations of A at 2x = 6 us each, on each of 4 ranks; cycles at the Xeon's 2.8 GHz (2800 per us).
    expect([result.simulatedTime, result.invocations]).toEqual([60, 44]);
    const trial = ccasim.runToTrial(result);
    expect(trial.metrics).toEqual(["TIME", "PAPI_TOT_CYC"]);
    const a = trial.timer("A::run()").index;
    const v = ccasim.threadView(trial, 0);
    expect(v.inclusive[1]![a]! / v.inclusive[0]![a]!).toBeCloseTo(2800, 6);
    expect(() => ccasim.machineSetupOf({ preset: "xeon-2.8ghz-512k", l2: { sze: 1 } })).toThrow(/machine\.l2\.sze: unknown machine parameter \(did you mean 'l2\.size'\?\)/);
    expect(() => ccasim.machineSetupOf({ preset: "xeon-2.8ghz-512k", nodes: 0 })).toThrow(ccasim.ScenarioErrors);
  });

  it("names the offending key in a ScenarioErrors, as a scenario file's errors do", () => {
    const bad = { ...config, instances: [config.instances[0]!, { name: "A", type: "dummy", params: { cost: "2*y" } }] };
    expect(() => ccasim.prepareWorkloadAssembly(bad, { x: 3, iterations: 10 })).toThrow(ccasim.ScenarioErrors);
    expect(() => ccasim.prepareWorkloadAssembly(bad, { x: 3, iterations: 10 })).toThrow(/assembly\.components\.A\.params\.cost: .*'y'/);
    expect(() => ccasim.prepareWorkloadAssembly(config, { x: "three", iterations: 10 })).toThrow(/workload\.x: /);
  });
});

describe("a run's summary in memory", () => {
  it("is typed as summary.json holds it: simulated time in microseconds, ranks, records", () => {
    const art = ccasim.executeScenario(ccasim.loadScenario("scenarios/known-models.yaml", { set: ["workload.iterations=5"] }));
    // Typed fields, no casts: tsc --noEmit checks this file too.
    const summary: ccasim.AssemblyRunSummary = art.summary as ccasim.AssemblyRunSummary;
    const simulated: number = art.summary.simulatedTime;
    expect([simulated, art.summary.simulatedTimeUnit, summary.ranks, summary.records]).toEqual([art.result.simulatedTime, "us", 4, 4 * 5 * 2]);
    expect("kind" in art.summary).toBe(false);
  });
});

describe("a Slurm job array of a sweep from the library", () => {
  it("fills the defaults its options document: the shard folder beside the study, this build's command", () => {
    const sweep = ccasim.loadSweep("scenarios/kernel-l2.sweep.yaml");
    const script = ccasim.slurmArrayScript(sweep, { db: "out/k.db", tasks: 2 });
    expect(ccasim.slurmShardFolder("out/k.db")).toBe("out/k-shards");
    expect(ccasim.slurmShardFolder("/tmp/x/sl.db")).toBe("/tmp/x/sl-shards");
    expect(ccasim.slurmShardFolder("out/k.duckdb")).toBe("out/k-shards");
    expect(ccasim.slurmShardFolder("out/k.DB")).toBe("out/k-shards");
    expect(ccasim.slurmShardFolder("out/k")).toBe("out/k-shards");
    expect(script).toContain(`--db '${resolve("out/k-shards")}'/shard-`);
    expect(script).toContain(`exec node '${resolve("dist/cli/main.js")}' sweep `);
    expect(script).not.toContain("undefined");
  });
});

describe("the README's library section", () => {
  it("names only functions and classes the package exports", () => {
    const text = readFileSync("README.md", "utf8");
    const section = text.slice(text.indexOf("## Library use"), text.indexOf("## Layout"));
    const names = [...section.matchAll(/`([A-Za-z]+)(?:\(|`|\.)/g)].map((m) => m[1]!).filter((n) => !["ccasim", "run", "validate", "schema", "presets", "profile", "convert", "diff", "fit", "prune", "select", "power", "sweep", "query", "report", "mergeShard", "query", "exportQuery", "isInputError"].includes(n));
    expect(names.length).toBeGreaterThan(30);
    const m = ccasim as Record<string, unknown>;
    expect(names.filter((n) => m[n] === undefined)).toEqual([]);
  });
});

describe("a sweep run from the library", () => {
  it("creates its study database's folder, as a run creates its output folder", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "ccasim-study-")), "out", "nested", "k.db");
    const summary = await ccasim.runSweep(ccasim.loadSweep("scenarios/kernel-l2.sweep.yaml"), { db, only: [0, 1] });
    expect([summary.ran, summary.failed]).toEqual([2, 0]);
    const store = await ccasim.StudyStore.open(db, { readOnly: true });
    try {
      expect((await store.query("SELECT count(*) AS n FROM point")).rows).toEqual([[2]]);
    } finally {
      store.close();
    }
  });
});
