import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli as run } from "./run-cli.js";

describe("ccasim validate-model and program runs", () => {
  it("prints predicted against measured times with errors, T_e and T_m/T_e", async () => {
    const r = await run(["validate-model", "scenarios/lapw0.yaml", "--measured", "scenarios/lapw0-measured.csv", "--repeats", "1"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/configuration\s+calibrated\s+T_s \[s\]\s+T_m \[s\]\s+Error \[%\]/);
    expect(r.out).toMatch(/NAT64-N8P32\s+yes\s+163\.0\s+164\.0\s+0\.6/);
    expect(r.out).toMatch(/mean error 1\.5%, max 3\.7% over 8 configurations/);
    // The table says the coefficients were fitted to these very rows: the errors are a fit.
    expect(r.out).toContain("the model was calibrated on all 8 configurations: these errors measure how well it fits them, not how well it predicts other runs");
  });

  it("counts one configuration as one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-one-"));
    try {
      const table = join(dir, "one.csv");
      writeFileSync(table, "name,workload.NAT,measured\nA,32,264s\n");
      const r = await run(["validate-model", "scenarios/lapw0.yaml", "--measured", table, "--repeats", "1"]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/mean error 1\.1%, max 1\.1% over 1 configuration\n/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prints the report as JSON", async () => {
    const r = await run(["validate-model", "scenarios/lapw0.yaml", "--measured", "scenarios/lapw0-measured.csv", "--repeats", "1", "--json", "--set", "workload.NAT=32"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.rows).toHaveLength(8);
    expect(report.rows[0].evaluationSeconds).toBeGreaterThan(0);
    // Times in the table's unit, seconds, and the report says so: the first row's measured 264 s.
    expect(report.unit).toBe("s");
    expect(report.rows[0].measured).toBe(264);
    // The table's own workload.NAT wins in every row: the --set is said to be replaced.
    expect(report.warnings).toEqual(["--set workload.NAT=32 is replaced by the table's own workload.NAT in every configuration"]);
    expect(r.err).toBe("warning: --set workload.NAT=32 is replaced by the table's own workload.NAT in every configuration\n");
  });

  it("prints a model of short runs in ms, and refuses a measured time of 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-short-"));
    try {
      const model = join(dir, "short.yaml");
      writeFileSync(model, "name: short\nseed: 1\nmachine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }\nmetrics: [TIME]\nworkload: { N: 100 }\nprogram:\n  costUnit: us\n  main:\n    - { action: Work, cost: 30 * N }\n");
      const table = join(dir, "short.csv");
      writeFileSync(table, "name,workload.N,measured\nsmall,100,3.5ms\nlarge,200,5.5ms\n");
      const r = await run(["validate-model", model, "--measured", table, "--repeats", "1"]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/configuration\s+T_s \[ms\]\s+T_m \[ms\]/);
      expect(r.out).toMatch(/small\s+3\.0\s+3\.5\s+14\.3/);
      expect(r.out).not.toMatch(/calibrated/);
      // One row calibrated on: the other's error is given apart, as a prediction.
      writeFileSync(table, "name,workload.N,measured,calibrated\nsmall,100,3.5ms,yes\nlarge,200,5.5ms,\n");
      const held = await run(["validate-model", model, "--measured", table, "--repeats", "1"]);
      expect(held.code, held.err).toBe(0);
      expect(held.out).toContain("the model was calibrated on 1 of them; on the 1 held out: mean error 9.1%, max 9.1%");
      writeFileSync(table, "name,workload.N,measured\nsmall,100,3ms\nnegative,-5,1ms\n");
      const negative = await run(["validate-model", model, "--measured", table, "--repeats", "1"]);
      expect(negative.code).toBe(2);
      // Known at load: refused before any run, naming the row that set the value.
      expect(negative.err).toMatch(/program\.main\[0\]\.cost: the cost "30 \* N" is -150 \(with the workload's N\): a cost must be a finite number >= 0 \(overridden: .*short\.csv:3/);
      writeFileSync(table, "name,workload.N,measured\nsmall,100,0s\n");
      const zero = await run(["validate-model", model, "--measured", table]);
      expect(zero.code).toBe(2);
      expect(zero.err).toContain(`${table}:2: measured: a run time must be positive, got 0s`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("locates a model's run-time error at its element, naming the configuration", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-located-"));
    try {
      const model = join(dir, "pid.yaml");
      // The cost depends on the process: known only when the model runs.
      writeFileSync(model, "name: pid\nseed: 1\nmachine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 2 }\nworkload: { N: 100 }\nprogram:\n  costUnit: us\n  main:\n    - { action: Work, cost: 30 * N - 4000 * pid }\n");
      const table = join(dir, "pid.csv");
      writeFileSync(table, "name,measured\nonly,3ms\n");
      const r = await run(["validate-model", model, "--measured", table, "--repeats", "1"]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/configuration 'only': .*pid\.yaml: 1 error\n/);
      expect(r.err).toMatch(/pid\.yaml:8:7: program\.main\[0\]: cost of 'Work' is -1000 us on process 1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prints the model's own warnings, once, as run does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-warn-"));
    try {
      const model = join(dir, "warn.yaml");
      writeFileSync(model, "name: warn\nseed: 1\nmachine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }\nworkload: { N: 100 }\nprogram:\n  costUnit: us\n  functions:\n    Unused: 5\n  main:\n    - { action: Work, cost: 30 * N }\n");
      const table = join(dir, "warn.csv");
      writeFileSync(table, "name,workload.N,measured\na,100,3ms\nb,200,6ms\n");
      const r = await run(["validate-model", model, "--measured", table, "--repeats", "1"]);
      expect(r.code, r.err).toBe(0);
      const lines = r.err.split("\n").filter((l) => l.includes("Unused"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^warning: .*Unused/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 2 without --measured or with a missing table", async () => {
    expect((await run(["validate-model", "scenarios/lapw0.yaml"])).code).toBe(2);
    const r = await run(["validate-model", "scenarios/lapw0.yaml", "--measured", "nope.csv"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/nope\.csv: cannot read the table/);
    const repeats = await run(["validate-model", "scenarios/lapw0.yaml", "--measured", "scenarios/lapw0-measured.csv", "--repeats", "0"]);
    expect(repeats.code).toBe(2);
    expect(repeats.err).toBe("ccasim validate-model: --repeats expects a positive integer, got '0'\n");
  });

  it("runs a program scenario and writes profile, trace, summary and timing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-prog-"));
    try {
      const r = await run(["run", "scenarios/prophet-sample.yaml", "--out", join(dir, "o"), "--quiet"]);
      expect(r.code).toBe(0);
      const summary = JSON.parse(readFileSync(join(dir, "o", "summary.json"), "utf8"));
      expect(summary.simulatedTime).toBeCloseTo(314.90354, 4);
      const trace = JSON.parse(readFileSync(join(dir, "o", "trace.json"), "utf8"));
      expect(trace.traceEvents.filter((e: { ph: string }) => e.ph === "X")).toHaveLength(10);
      const timing = JSON.parse(readFileSync(join(dir, "o", "timing.json"), "utf8"));
      expect(timing.wallSeconds).toBeGreaterThan(0);
      expect(readFileSync(join(dir, "o", "profile", "profile.1.0.0"), "utf8")).toMatch(/"SA2" 1 1 /);
      // A threaded model is counted in processes and threads, not "ranks".
      const threaded = await run(["run", "scenarios/program-elements.yaml", "--out", join(dir, "t")]);
      expect(threaded.out).toMatch(/^program-elements: 4 processes x 2 threads, simulated /);
      expect(threaded.out).toContain("\nMean profile over 8 process threads (top timers");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
