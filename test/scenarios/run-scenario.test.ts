import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { executeScenario, loadScenario, loadScenarioText, runScenario, writeRunOutputs } from "../../scenarios/index.js";
import { summaryFileName } from "../../scenarios/run-summary.js";
import { fitModels, observationsAcrossTrials } from "../../analysis/index.js";
import { MIXED_SCENARIO, readTree, tempDir } from "./fixtures.js";

const KNOWN = "scenarios/known-models.yaml";

describe("running scenarios", () => {
  it.each([0.5, 1.5, 2, 3, 7])("known-models at x=%s: every record's time equals its cost expression", (x) => {
    for (const [a, b] of [
      ["A1", "B1"],
      ["A2", "B2"],
    ]) {
      const s = loadScenario(KNOWN, {
        set: [`workload.x=${x}`, "workload.iterations=3", `assembly.components.A.params.implementation=${a}`, `assembly.components.B.params.implementation=${b}`],
      });
      const art = executeScenario(s);
      const models: Record<string, (x: number) => number> = { A1: (v) => 2 * v, A2: (v) => v * v, B1: (v) => v ** 3, B2: (v) => 2 * v * v };
      const recs = art.result.mastermind!.records;
      expect(recs.length).toBe(4 * 3 * 2);
      for (const r of recs) {
        const own = r.component === "A" ? models[a](x) + 0.01 * x : models[b](x) + 0.02 * x;
        expect(r.wallTime).toBeCloseTo(own, 9);
        expect(r.parameters.x).toBe(x);
      }
    }
  });

  it("writes profiles whose callpath values add up: parent inclusive = exclusive + children inclusive", () => {
    const art = executeScenario(loadScenarioText(MIXED_SCENARIO, "mixed.yaml"));
    const t = art.trial!;
    const byPath = new Map(t.timers.filter((x) => x.isCallpath).map((x) => [x.path.join(" => "), x.index]));
    for (let th = 0; th < t.threads.length; th++)
      for (const timer of t.timers.filter((x) => x.isCallpath)) {
        const children = t.timers.filter((c) => c.isCallpath && c.path.length === timer.path.length + 1 && c.path.slice(0, -1).join(" => ") === timer.path.join(" => "));
        for (let m = 0; m < t.metrics.length; m++) {
          const sum = children.reduce((acc, c) => acc + t.inclusive(m, th, c.index), 0);
          expect(t.inclusive(m, th, timer.index)).toBeCloseTo(t.exclusive(m, th, timer.index) + sum, 3);
        }
      }
    // MPI calls are nested under the component method that made them.
    expect(byPath.has(".TAU application => Driver::go() => Halo::exchange() => MPI_Waitsome()")).toBe(true);
  });

  it("gives byte-identical output folders for the same scenario and seed, timing.json aside", () => {
    const a = tempDir();
    const b = tempDir();
    const s = loadScenarioText(MIXED_SCENARIO, "mixed.yaml");
    writeRunOutputs(executeScenario(s), join(a, "out"));
    writeRunOutputs(executeScenario(loadScenarioText(MIXED_SCENARIO, "mixed.yaml")), join(b, "out"));
    const ta = readTree(join(a, "out"));
    const tb = readTree(join(b, "out"));
    expect([...ta.keys()]).toEqual([...tb.keys()]);
    expect(ta.size).toBeGreaterThan(10);
    for (const [k, v] of ta) if (k !== "timing.json") expect(v.equals(tb.get(k)!), k).toBe(true);
  });

  it("gives the same summary whether the scenario's path is spelt relative or absolute (it keeps the file's name)", () => {
    const a = tempDir();
    const b = tempDir();
    runScenario("scenarios/known-models.yaml", { out: join(a, "out"), set: ["workload.iterations=2"] });
    runScenario(join(process.cwd(), "scenarios/known-models.yaml"), { out: join(b, "out"), set: ["workload.iterations=2"] });
    const summary = readFileSync(join(a, "out", "summary.json"), "utf8");
    expect(JSON.parse(summary).file).toBe("known-models.yaml");
    expect(readFileSync(join(b, "out", "summary.json"), "utf8")).toBe(summary);
  });

  it("names a sweep's inline scenario by the sweep file's name, however its path was given", () => {
    expect(summaryFileName("test/scenarios/sweeps/cost-law.sweep.yaml (inline scenario)")).toBe("cost-law.sweep.yaml (inline scenario)");
    expect(summaryFileName(join(process.cwd(), "test/scenarios/sweeps/cost-law.sweep.yaml (inline scenario)"))).toBe("cost-law.sweep.yaml (inline scenario)");
    expect(summaryFileName("inline.yaml")).toBe("inline.yaml");
  });

  it("writes times as simulated in the TAU profile, fractions of a microsecond kept", () => {
    const dir = tempDir();
    const file = join(dir, "ns.yaml");
    writeFileSync(file, "name: ns\nseed: 1\nmachine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }\nmetrics: [TIME]\nprogram:\n  costUnit: ns\n  main:\n    - { action: Tiny, cost: 400 }\n    - { action: Small, cost: 1700 }\n");
    const r = runScenario(file, { out: join(dir, "out") });
    const text = readFileSync(join(r.outDir, "profile", "profile.0.0.0"), "utf8");
    expect(text).toContain('"Tiny" 1 0 0.4 0.4 0 GROUP="main"');
    const small = /"Small" 1 0 (\S+) (\S+) 0 GROUP="main"/.exec(text)!;
    expect([Number(small[1]), Number(small[2])].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([1.7, 1.7]);
  });

  it("with another seed changes only what noise touches", () => {
    const one = executeScenario(loadScenarioText(MIXED_SCENARIO, "mixed.yaml"));
    const two = executeScenario(loadScenarioText(MIXED_SCENARIO, "mixed.yaml", { seed: 99 }));
    const times = (art: typeof one, comp: string) => art.result.mastermind!.records.filter((r) => r.component === comp).map((r) => r.wallTime);
    // Equal up to rounding: a wall time is the difference of two clock readings, which noise
    // elsewhere shifts (a double at 1e6 us has steps of 1e-10 us).
    const model = times(one, "Model");
    expect(times(two, "Model")).toHaveLength(model.length);
    times(two, "Model").forEach((t, i) => expect(t).toBeCloseTo(model[i], 6));
    expect(times(two, "Stencil")).not.toEqual(times(one, "Stencil"));
  });

  it("is non-intrusive: removing the proxies changes no simulated time", () => {
    const withProxies = executeScenario(loadScenarioText(MIXED_SCENARIO, "mixed.yaml"));
    const without = executeScenario(loadScenarioText(MIXED_SCENARIO, "mixed.yaml", { set: ["assembly.proxies=[]"] }));
    expect(without.result.simulatedTime).toBe(withProxies.result.simulatedTime);
    expect(without.result.mastermind!.records).toHaveLength(0);
    const unmeasured = executeScenario(loadScenarioText(MIXED_SCENARIO, "mixed.yaml"), { measure: false });
    expect(unmeasured.result.simulatedTime).toBe(withProxies.result.simulatedTime);
  });

  it("writes what ran into the profile's metadata: the machine, and every workload variable as workload.<name>", () => {
    const art = executeScenario(loadScenario("scenarios/known-models.yaml", { set: ["workload.x=2.5", "workload.iterations=3"] }));
    const trial = art.trial!;
    expect([trial.metadataString("workload.x"), trial.metadataString("workload.iterations")]).toEqual(["2.5", "3"]);
    expect([trial.metadataString("Machine preset"), trial.metadataString("CPU MHz"), trial.metadataString("ccasim seed")]).toEqual(["xeon-2.8ghz-512k", "2800", "1"]);
    // The preset's overrides and the network as the scenario gives them: the machine that ran.
    const swept = executeScenario(loadScenario("scenarios/known-models.yaml", { set: ["machine.l2.size=1MiB", "machine.memory.bandwidth=4GB/s", "machine.network.eagerLimit=16KiB"] })).trial!;
    expect(["machine.l2.size", "machine.memory.bandwidth", "machine.network.eagerLimit", "machine.placement"].map((k) => swept.metadataString(k))).toEqual(["1MiB", "4GB/s", "16KiB", "block"]);
    expect(trial.metadataString("machine.l2.size")).toBeUndefined();
    // Runs at several x, fitted across trials by the metadata: A::run() is 3 x (2x + 0.01x) per rank.
    const runs = [1, 2, 4].map((x) => executeScenario(loadScenario("scenarios/known-models.yaml", { set: [`workload.x=${x}`, "workload.iterations=3"] })).trial!);
    const obs = observationsAcrossTrials(runs, { timer: "A::run()", parameter: { metadata: "workload.x" } });
    expect(obs.qLabel).toBe("x");
    expect(fitModels(obs, { variable: obs.qLabel }).mean.expression).toBe("6.03*x");
    // A program model too, with its threads.
    const program = executeScenario(loadScenario("scenarios/program-elements.yaml", { set: ["workload.N=64"] })).trial!;
    expect(program.metadataString("workload.N")).toBe("64");
    expect(program.metadataString("Threads per process")).toMatch(/^[1-9]\d*$/);
  });

  it("runScenario writes the documented files", () => {
    const dir = tempDir();
    const file = join(dir, "mixed.yaml");
    writeFileSync(file, MIXED_SCENARIO);
    const r = runScenario(file, { out: join(dir, "out") });
    for (const f of ["summary.json", "timing.json", "records.csv", "records.jsonl", "callgraph.json", "profile/MULTI__TIME/profile.0.0.0", "profile/MULTI__PAPI_L2_TCM/profile.3.0.0"])
      expect(existsSync(join(r.outDir, f)), f).toBe(true);
    // Without measurement: the summary and timing, and no empty record files.
    const bare = runScenario(file, { out: join(dir, "bare"), measure: false });
    expect(readdirSync(bare.outDir).sort()).toEqual(["summary.json", "timing.json"]);
  });

  it("says in a program model's resolved scenario that it writes no records or call graph, as it writes none", () => {
    const dir = tempDir();
    const file = join(dir, "p.yaml");
    writeFileSync(file, "name: p\nseed: 1\nmachine: { preset: pentium3-xeon-700, nodes: 1, processesPerNode: 1 }\nmetrics: [TIME]\nprogram:\n  main:\n    - { action: A, cost: 5 }\n");
    const r = runScenario(file, { out: join(dir, "out") });
    expect(readdirSync(r.outDir).sort()).toEqual(["profile", "summary.json", "timing.json"]);
    const resolved = JSON.parse(readFileSync(join(r.outDir, "summary.json"), "utf8")).resolved;
    expect(resolved.outputs).toEqual({ profile: true, records: [], callgraph: false, trace: false });
  });
});
