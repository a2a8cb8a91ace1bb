/**
 * Parameter sweeps: sweep files (axes, ranges, zipped axes, random designs, replications), point
 * seeds derived from the study seed, running points in worker threads into a study database,
 * resuming, slices for job arrays and Slurm scripts.
 *
 * @packageDocumentation
 */
export { sweepSchema, type SweepConfig, type AxisSpec, type AxisValue, type StructuredValue, type StepRange, type LogRange, type Distribution } from "./sweep-schema.js";
export { axisNumber, expandAxis, sweepFactors, type Factor, type SweepFail } from "./design.js";
export { canonicalPoint, canonicalValue, axisValueText, pointId, pointSeed, enumeratePoints, pointOverrides, type SweepPoint } from "./points.js";
export { loadSweep, loadSweepText, sweepInputs, sweepPointOverrides, pointRunCommand, failedPointsCommand, type Sweep } from "./load-sweep.js";
export { runPoint, runPointTask, type PointTask } from "./execute-point.js";
export { runSweep, parseSlice, slicePoints, pointTask, workerScript, type Slice, type SweepProgress, type SweepRunOptions, type SweepRunSummary } from "./runner.js";
export { runSweepPoint, sweepPointFolder, type SweepPointRunOptions } from "./run-point-folder.js";
export { slurmArrayScript, slurmShardFolder, type SlurmOptions } from "./slurm.js";
export { invalidPoints, noPointLoads, isSweepText, type InvalidPoint, type InvalidPointsOptions } from "./validate-sweep.js";
