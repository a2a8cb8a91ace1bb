/**
 * Scenarios: the scenario file format (schema, loader, validator with located errors, overrides),
 * machine and platform setup, and running a scenario to its outputs.
 *
 * @packageDocumentation
 */
export * from "./lang/index.js";
export * from "./scenario-schema.js";
export { scenarioJsonSchema, sweepJsonSchema } from "./scenario-json-schema.js";
export * from "./machine-setup.js";
export * from "./platform.js";
export * from "./load.js";
export { prepareWorkloadAssembly, type WorkloadValues } from "./workload-assembly.js";
export * from "./run.js";
export type { RunSummary, RunSummaryBase, AssemblyRunSummary, ProgramRunSummary } from "./run-summary.js";
export * from "./evidence.js";
export * from "./program/index.js";
export { writeDirectoryAtomically } from "./atomic-dir.js";
export * from "./output-folder.js";
