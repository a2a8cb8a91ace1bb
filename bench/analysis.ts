import { RandomStream } from "../engine/random.js";
import { fitModels, groupByQ, selectImplementations, prepareAssembly, type Assembly, type CallSite } from "../analysis/index.js";
import { printTable, timeBest, type Benchmark } from "./registry.js";

/**
 * Analysis speed: fitting 10^5 per-invocation records with the full model search (groups by Q
 * first), and exact selection over 20 components x 3 implementations (3^20 assemblies) by dynamic
 * programming. Baselines in the same run: a plain pass summing the records (the least any fit
 * must do), and evaluating the cost of one assembly.
 */
function records(n: number, distinctQ: number): { q: Float64Array; t: Float64Array } {
  const rng = new RandomStream(1, "bench/analysis");
  const q = new Float64Array(n);
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    q[i] = 1000 * (1 + (i % distinctQ));
    t[i] = Math.exp(1.19 * Math.log(q[i]!) - 3.68) * (1 + 0.2 * (rng.next() - 0.5));
  }
  return { q, t };
}

function chainAssembly(n: number, k: number): Assembly {
  let site: CallSite | undefined;
  for (let i = n - 1; i >= 0; i--) site = { component: `C${i}`, calls: 2, children: site ? [site] : [] };
  return {
    components: Array.from({ length: n }, (_, i) => ({
      name: `C${i}`,
      implementations: Array.from({ length: k }, (_, j) => ({ name: `C${i}.${j}`, mean: `${1 + ((i * 7 + j * 3) % 5)}*x^${(j + i) % 3}` })),
    })),
    callGraph: site!,
    interactions: Array.from({ length: n - 1 }, (_, i) => ({
      caller: `C${i}`,
      callee: `C${i + 1}`,
      costs: [{ callerImpl: `C${i}.0`, calleeImpl: `C${i + 1}.1`, cost: 3 }],
    })),
  };
}

/** `npm run bench -- analysis`: model search on 10^5 records and exact 3^20 selection. */
export const analysisBenchmark: Benchmark = {
  name: "analysis",
  summary: "fit 10^5 records with model search; exact selection over 3^20 assemblies",
  run() {
    const rows: (string | number)[][] = [];
    for (const distinct of [50, 1000]) {
      const { q, t } = records(100_000, distinct);
      let sink = 0;
      const base = timeBest(() => {
        for (let i = 0; i < t.length; i++) sink += t[i]! * q[i]!;
      }, 5);
      const group = timeBest(() => void groupByQ(q, t), 5);
      const fit = timeBest(() => void fitModels({ q, t }), 3);
      if (sink === 42) console.log("");
      rows.push([`fit 1e5 records, ${distinct} distinct Q (full search)`, (fit * 1e3).toFixed(1), (fit / base).toFixed(0)]);
      rows.push([`  of which groupByQ`, (group * 1e3).toFixed(1), (group / base).toFixed(0)]);
      rows.push([`  baseline: one pass over the records`, (base * 1e3).toFixed(3), "1"]);
    }
    const asm = prepareAssembly(chainAssembly(20, 3));
    const one = timeBest(() => void selectImplementations(prepareAssembly(chainAssembly(1, 1)), { x: 2 }), 5);
    const sel = timeBest(() => void selectImplementations(asm, { x: 2 }), 5);
    rows.push(["select 20 x 3 (3^20 assemblies) exactly", (sel * 1e3).toFixed(2), (sel / one).toFixed(1)]);
    rows.push(["  baseline: select 1 component x 1", (one * 1e3).toFixed(3), "1"]);
    printTable(["task", "ms (best)", "ratio to baseline"], rows);
  },
};
