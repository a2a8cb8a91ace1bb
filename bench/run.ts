import type { Benchmark } from "./registry.js";
import { analysisBenchmark } from "./analysis.js";
import { cacheBenchmark } from "./cache.js";
import { expressionBenchmark } from "./expression.js";
import { kernelBenchmark } from "./kernel.js";
import { networkBenchmark } from "./network.js";
import { profileBenchmark } from "./profile.js";
import { programBenchmark } from "./program.js";
import { runBenchmark } from "./run-scenario.js";
import { shockBenchmark } from "./shock.js";
import { sweepBenchmark } from "./sweep.js";

/** Every benchmark; add one by writing `bench/<name>.ts` and listing it here. */
const benchmarks: readonly Benchmark[] = [kernelBenchmark, runBenchmark, expressionBenchmark, networkBenchmark, cacheBenchmark, profileBenchmark, analysisBenchmark, programBenchmark, shockBenchmark, sweepBenchmark];

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const chosen = name === undefined || name === "all" ? benchmarks : benchmarks.filter((b) => b.name === name);
  if (chosen.length === 0) {
    console.error(`unknown benchmark '${name}'. Available: ${benchmarks.map((b) => b.name).join(", ")}, all`);
    process.exitCode = 2;
    return;
  }
  for (const b of chosen) {
    console.log(`\n== ${b.name}: ${b.summary}`);
    await b.run(rest);
  }
}

await main(process.argv.slice(2));
