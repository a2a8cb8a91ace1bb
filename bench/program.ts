import { Simulation } from "../engine/index.js";
import { loadScenario } from "../scenarios/index.js";
import { compiledProgramOf, runProgram, type ProgramEvaluator } from "../scenarios/program/index.js";
import { printTable, type Benchmark } from "./registry.js";

/** Wall seconds of every run (sorted), after `warm` unmeasured warm-up runs. */
function sample(file: string, set: string[], evaluator: ProgramEvaluator, measure: boolean, runs: number, warm: number): { times: number[]; cpu: number[]; simulated: number; processes: number; events: number } {
  const sc = loadScenario(file, { set });
  const model = sc.program!;
  compiledProgramOf(model); // the transformation is not part of T_e
  const net = { network: sc.machine.network, collectives: sc.machine.collectives };
  let last = runProgram(model, net, { seed: 1, measure, evaluator });
  for (let i = 1; i < warm; i++) last = runProgram(model, net, { seed: 1, measure, evaluator });
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    last = runProgram(model, net, { seed: 1, measure, evaluator });
    times.push(last.wallSeconds);
    cpu.push(last.cpuSeconds);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { times, cpu, simulated: last.simulatedTime, processes: model.processes, events: last.events };
}

/** Baseline: events per CPU second of bare generator processes that only wait (the kernel's own speed, now). */
function kernelRate(processes: number, steps: number): number {
  const sim = new Simulation({ seed: 1 });
  for (let p = 0; p < processes; p++)
    sim.process(
      (function* () {
        for (let i = 0; i < steps; i++) yield sim.timeout(1 + ((p * 7 + i) % 5));
      })(),
    );
  const c0 = process.cpuUsage();
  sim.run();
  const c = process.cpuUsage(c0);
  return sim.eventsProcessed / ((c.user + c.system) / 1e6);
}

const ms = (s: number) => `${(s * 1e3).toFixed(2)} ms`;

export const programBenchmark: Benchmark = {
  name: "program",
  summary: "program models: T_e of LAPW0 (paper 003 Table 5.1) and of a 4096-process version, compiled vs the tree interpreter",
  run(args) {
    const quick = args.includes("--quick");
    const runs = quick ? 10 : 40;
    const rows: (string | number)[][] = [];
    let lastCpu = 1;
    const cases: Array<{ label: string; set: string[]; tm?: number; runs: number }> = [
      { label: "LAPW0 NAT=32 N1P4", set: ["workload.NAT=32", "machine.nodes=1"], tm: 264, runs },
      { label: "LAPW0 NAT=32 N8P32", set: ["workload.NAT=32", "machine.nodes=8"], tm: 113, runs },
      { label: "LAPW0 NAT=64 N8P32", set: ["workload.NAT=64", "machine.nodes=8"], tm: 164, runs },
      { label: "LAPW0 NAT=8192 N1024P4096", set: ["workload.NAT=8192", "machine.nodes=1024"], runs: quick ? 2 : 5 },
    ];
    for (const c of cases) {
      const compiled = sample("scenarios/lapw0.yaml", c.set, "compiled", false, c.runs, 3);
      const measured = sample("scenarios/lapw0.yaml", c.set, "compiled", true, c.runs, 3);
      const interp = sample("scenarios/lapw0.yaml", c.set, "interpreter", false, Math.max(2, Math.floor(c.runs / 4)), 2);
      const med = (t: number[]) => t[Math.floor(t.length / 2)];
      lastCpu = compiled.cpu[0];
      rows.push([
        c.label,
        compiled.processes,
        (compiled.simulated / 1e6).toFixed(1),
        ms(compiled.times[0]),
        ms(med(compiled.times)),
        ms(compiled.cpu[0]),
        ms(measured.times[0]),
        ms(interp.times[0]),
        `${(interp.times[0] / compiled.times[0]).toFixed(1)}x`,
        c.tm === undefined ? "" : Math.round(c.tm / compiled.cpu[0]).toLocaleString("en-US"),
        compiled.events,
      ]);
    }
    kernelRate(1000, 50);
    const base = Math.max(kernelRate(4096, 100), kernelRate(4096, 100));
    const big = rows[rows.length - 1];
    printTable(
      ["model", "processes", "T_s [s]", "wall best", "wall median", "T_e (CPU) best", "wall measured", "interpreter", "interp/compiled", "T_m/T_e", "events"],
      rows,
    );
    console.log(`\nBaseline measured now: bare generator processes run ${(base / 1e6).toFixed(2)} M events per CPU second;`);
    console.log(`the 4096-process LAPW0 evaluation (MPI collectives included) runs ${(Number(big[big.length - 1]) / 1e6 / lastCpu).toFixed(2)} M events per CPU second.`);
    console.log("\nT_e: CPU time of one evaluation (runtime set-up + simulation, without measurement), warm, best of the runs; wall");
    console.log("times beside it (best and median: the median shows how busy the machine is). 'wall measured': with TAU timers.");
    console.log("interp/compiled: the tree interpreter against the compiled closures on the same model, best wall times.");
    console.log("T_m: Table 5.1's measured time. Paper 003 reports T_e = 0.01-0.09 s (C++, UltraSPARC-IIe 650 MHz).");
  },
};
