/**
 * Counter-based performance metrics and power model (paper 004): GlobalStalls, %FLPStalls,
 * FLPIneffD, FLPIneffI, the memory-stall model, remote access ratio; power per component and in
 * total, energy and FLOP/J; named constant sets per architecture.
 *
 * @packageDocumentation
 */
export {
  powerConstantSets,
  parsePowerConstantSet,
  loadPowerConstantFile,
  type PowerConstantSet,
  type PowerComponent,
  type MemoryLatencies,
  type CounterNames,
} from "./constants.js";
export {
  counterMetrics,
  estimatePower,
  cycleBasis,
  type CounterValues,
  type CounterContext,
  type CycleBasis,
  type PerformanceMetrics,
  type ComponentPower,
  type PowerEstimate,
} from "./models.js";
export { estimateTrialPower, cpuMHzOf, type TrialPowerOptions, type EventPower, type TrialPower } from "./from-trial.js";
export { processorMismatch, processorMismatchFact, trialProcessors } from "./processor.js";
export { rankInefficiencies, type InefficiencyOptions, type InefficientEvent } from "./inefficiency.js";
