import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { studentTQuantile } from "../analysis/index.js";
import { executeScenario, loadScenario, type LoadedScenario } from "../scenarios/index.js";
import { formatRate, printTable, type Benchmark } from "./registry.js";

const CHILD_FLAG = "--child=";

/** The scenario of the benchmark: known-models on `nodes` x 2 ranks for `iterations` iterations. */
function benchScenario(nodes: number, iterations: number): LoadedScenario {
  return loadScenario("scenarios/known-models.yaml", { set: [`machine.nodes=${nodes}`, "machine.processesPerNode=2", `workload.iterations=${iterations}`] });
}

/** Warms up the JIT on a small run of the same mode only. */
function warmUp(measure: boolean): void {
  executeScenario(loadScenario("scenarios/known-models.yaml", { set: ["workload.iterations=50"] }), { measure });
}

/**
 * One mode in a process of its own (`--child=on|off,<nodes>,<iterations>`): prints the run's wall
 * seconds. In one process the two modes share the JIT's type feedback, which makes each a little
 * slower than it would be alone; separate processes show each mode as `ccasim run` would run it.
 */
function runChild(spec: string): void {
  const [mode, nodes, iterations] = spec.split(",");
  const measure = mode === "on";
  warmUp(measure);
  (globalThis as { gc?: () => void }).gc?.();
  console.log(JSON.stringify({ wallSeconds: executeScenario(benchScenario(Number(nodes), Number(iterations)), { measure }).timing.wallSeconds }));
}

/** Wall seconds of one mode run in a fresh process (see {@link runChild}). */
function isolated(measure: boolean, nodes: number, iterations: number): number {
  const script = fileURLToPath(new URL("./run.js", import.meta.url));
  const out = execFileSync(process.execPath, ["--expose-gc", script, "run", `${CHILD_FLAG}${measure ? "on" : "off"},${nodes},${iterations}`], { encoding: "utf8" });
  const line = out.trim().split("\n").pop() ?? "";
  return (JSON.parse(line) as { wallSeconds: number }).wallSeconds;
}

/**
 * The known-models assembly (paper 002) on 1024 ranks x 1000 iterations: simulated component
 * invocations per second of wall time, measured and unmeasured in the same run, and the cost of
 * proxies plus measurement relative to the unmeasured run.
 */
export const runBenchmark: Benchmark = {
  name: "run",
  summary: "known-models assembly, 1024 ranks x 1000 iterations: invocations/s and measurement overhead",
  run(args) {
    const child = args.find((a) => a.startsWith(CHILD_FLAG));
    if (child !== undefined) return runChild(child.slice(CHILD_FLAG.length));
    const quick = args.includes("--quick");
    const nodes = quick ? 64 : 512;
    const iterations = quick ? 100 : 1000;
    const scenario = benchScenario(nodes, iterations);
    warmUp(true);
    warmUp(false);
    const rows: (string | number)[][] = [];
    const measured: number[] = [];
    const unmeasured: number[] = [];
    let invocations = 0;
    let records = 0;
    // Interleaved repetitions, each after a full collection: a run must not pay for the garbage
    // the previous one left (the measured run leaves millions of records behind).
    const gc = (globalThis as { gc?: () => void }).gc;
    const reps = quick ? 2 : 3;
    for (let rep = 0; rep < reps; rep++) {
      gc?.();
      unmeasured.push(executeScenario(scenario, { measure: false }).timing.wallSeconds);
      gc?.();
      const m = executeScenario(scenario);
      measured.push(m.timing.wallSeconds);
      invocations = m.result.invocations;
      records = m.result.mastermind?.count ?? 0;
    }
    const best = (xs: number[]) => Math.min(...xs);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const u = best(unmeasured);
    const m = best(measured);
    rows.push(["unmeasured", u.toFixed(2), median(unmeasured).toFixed(2), `${formatRate(invocations / u)}/s`, "1.00x", "1.00x"]);
    rows.push(["measured + proxies", m.toFixed(2), median(measured).toFixed(2), `${formatRate(invocations / m)}/s`, `${(m / u).toFixed(2)}x`, `${(median(measured) / median(unmeasured)).toFixed(2)}x`]);
    console.log(`${nodes * 2} ranks x ${iterations} iterations: ${invocations.toLocaleString("en-US")} invocations, ${records.toLocaleString("en-US")} proxy records; ${reps} interleaved repetitions in this process`);
    printTable(["run", "best wall s", "median wall s", "invocations/s (best)", "time vs unmeasured (best)", "(median)"], rows);
    console.log(
      `in one process, both modes share the JIT's type feedback (not how ccasim run runs a scenario): ` +
        `measured + proxies took ${((m / u - 1) * 100).toFixed(1)}% more than the best unmeasured run`,
    );
    // The same comparison with every run in a process of its own, modes alternating.
    // More repetitions than in-process: runs of either mode spread by about 10% from process to
    // process, so single comparisons scatter; the mean of the pairs comes with its confidence interval.
    const aloneReps = quick ? 2 : 8;
    const alone = { on: [] as number[], off: [] as number[] };
    for (let rep = 0; rep < aloneReps; rep++) {
      alone.off.push(isolated(false, nodes, iterations));
      alone.on.push(isolated(true, nodes, iterations));
    }
    const ua = best(alone.off);
    const ma = best(alone.on);
    console.log(`\neach run in its own process (${aloneReps} repetitions per mode, alternating):`);
    printTable(
      ["run", "best wall s", "median wall s", "time vs unmeasured (best)", "(median)"],
      [
        ["unmeasured", ua.toFixed(2), median(alone.off).toFixed(2), "1.00x", "1.00x"],
        ["measured + proxies", ma.toFixed(2), median(alone.on).toFixed(2), `${(ma / ua).toFixed(2)}x`, `${(median(alone.on) / median(alone.off)).toFixed(2)}x`],
      ],
    );
    const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
    console.log(`wall s per run: unmeasured ${list(alone.off)}; measured ${list(alone.on)}`);
    // Each measured run against the unmeasured run just before it: drifts of the machine's speed
    // that last a pair or longer cancel out.
    const paired = alone.on.map((on, k) => on / alone.off[k]);
    console.log(`measured / unmeasured, pair by pair: ${paired.map((r) => r.toFixed(2)).join(" ")}`);
    const [mean, low, high] = meanInterval(paired);
    const pct = (x: number) => `${((x - 1) * 100).toFixed(1)}%`;
    console.log(
      `measurement overhead, separate processes: ${pct(mean)} by the mean of the pairs (95% confidence interval ` +
        `${pct(low)} to ${pct(high)}, Student's t over ${paired.length} pairs; target < 30%); ` +
        `${pct(ma / ua)} best to best, ${pct(median(alone.on) / median(alone.off))} median to median, ${pct(median(paired))} median of the pairs`,
    );
  },
};

/** Mean of `xs` and the bounds of its two-sided 95% confidence interval (Student's t; NaN bounds for fewer than 2 values). */
function meanInterval(xs: readonly number[]): [number, number, number] {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return [mean, Number.NaN, Number.NaN];
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  const half = studentTQuantile(0.975, n - 1) * Math.sqrt(variance / n);
  return [mean, mean - half, mean + half];
}
