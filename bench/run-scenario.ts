import { executeScenario, loadScenario } from "../scenarios/index.js";
import { formatRate, printTable, type Benchmark } from "./registry.js";

/**
 * The known-models assembly (paper 002) on 1024 ranks x 1000 iterations: simulated component
 * invocations per second of wall time, measured and unmeasured in the same run, and the cost of
 * proxies plus measurement relative to the unmeasured run.
 */
export const runBenchmark: Benchmark = {
  name: "run",
  summary: "known-models assembly, 1024 ranks x 1000 iterations: invocations/s and measurement overhead",
  run(args) {
    const quick = args.includes("--quick");
    const nodes = quick ? 64 : 512;
    const iterations = quick ? 100 : 1000;
    const set = [`machine.nodes=${nodes}`, "machine.processesPerNode=2", `workload.iterations=${iterations}`];
    const scenario = loadScenario("scenarios/known-models.yaml", { set });
    // Warm up the JIT on a small run.
    executeScenario(loadScenario("scenarios/known-models.yaml", { set: ["workload.iterations=50"] }));
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
    console.log(`${nodes * 2} ranks x ${iterations} iterations: ${invocations.toLocaleString("en-US")} invocations, ${records.toLocaleString("en-US")} proxy records; ${reps} interleaved repetitions`);
    printTable(["run", "best wall s", "median wall s", "invocations/s (best)", "time vs unmeasured (best)", "(median)"], rows);
    console.log(`measurement overhead: ${((m / u - 1) * 100).toFixed(1)}% of the best unmeasured time (target < 30%)`);
  },
};
