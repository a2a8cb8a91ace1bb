import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSweep, runSweep } from "../../scenarios/sweep/index.js";

/** The cost-law sweep: a dummy Kernel costing c * x^1.5 us, swept over x (the records' Q) and c. */
export const COST_LAW_SWEEP = "test/scenarios/sweeps/cost-law.sweep.yaml";

/**
 * Runs the cost-law sweep with `edit` applied to its text, written as `<name>.sweep.yaml` in
 * `folder`, into `<name>.db` there; returns the database's path.
 */
export async function costLawStudy(folder: string, name: string, edit: (text: string) => string = (t) => t): Promise<string> {
  const sweep = join(folder, `${name}.sweep.yaml`);
  writeFileSync(sweep, edit(readFileSync(COST_LAW_SWEEP, "utf8")));
  const db = join(folder, `${name}.db`);
  await runSweep(loadSweep(sweep), { db, jobs: 1 });
  return db;
}

/** Two calls per iteration: records of mode a (cost c x^1.5) and b (twice that). */
export function withModes(text: string): string {
  return text
    .replace("calls: [{ port: k, args: { x: x } }]", `calls: [{ port: k, args: { x: x, mode: "'a'", f: 1 } }, { port: k, args: { x: x, mode: "'b'", f: 2 } }]`)
    .replace('params: { cost: "c * x^1.5" }', 'params: { args: [x, mode, f], cost: "f * c * x^1.5" }')
    .replace("parameters: { Q: argument x }", "parameters: { Q: argument x, mode: argument mode }");
}
