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
    let measured = Infinity;
    let unmeasured = Infinity;
    let invocations = 0;
    let records = 0;
    for (let rep = 0; rep < 2; rep++) {
      const u = executeScenario(scenario, { measure: false });
      unmeasured = Math.min(unmeasured, u.timing.wallSeconds);
      const m = executeScenario(scenario);
      measured = Math.min(measured, m.timing.wallSeconds);
      invocations = m.result.invocations;
      records = m.result.mastermind?.count ?? 0;
    }
    rows.push(["unmeasured", (unmeasured).toFixed(2), `${formatRate(invocations / unmeasured)}/s`, "1.00x"]);
    rows.push(["measured + proxies", measured.toFixed(2), `${formatRate(invocations / measured)}/s`, `${(measured / unmeasured).toFixed(2)}x`]);
    console.log(`${nodes * 2} ranks x ${iterations} iterations: ${invocations.toLocaleString("en-US")} invocations, ${records.toLocaleString("en-US")} proxy records`);
    printTable(["run", "wall s", "invocations/s", "time vs unmeasured"], rows);
    console.log(`measurement overhead: ${((measured / unmeasured - 1) * 100).toFixed(1)}% (target < 30%)`);
  },
};
