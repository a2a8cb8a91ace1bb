/**
 * Implementation selection over component assemblies: exact optimum (dynamic programming or
 * exhaustive search), the pruned-core heuristic of paper 002 with its optimality gap, crossover
 * points, risk-aware costs (mean + k·sd) and quality-of-service constraints.
 *
 * @packageDocumentation
 */
export { compileCost, type CostModel, type CompiledCost, type Inputs, type PredictingModel } from "./cost-model.js";
export { knownModelsAssembly, uncalledComponents, type Assembly, type ComponentSpec, type ImplementationSpec, type CallSite, type InteractionSpec } from "./assembly.js";
export { AssemblyKeyError, AssemblyCostError, riskCostText, type QosConstraint, type Exclusion, type CostOptions } from "./cost-tables.js";
export {
  selectImplementations,
  prepareAssembly,
  assemblyCost,
  type SelectOptions,
  type SelectionResult,
  type OptimalSelection,
  type HeuristicSelection,
  type ComponentCosts,
  type Assignment,
  type PreparedAssembly,
} from "./select.js";
export { findCrossovers, type CrossoverOptions, type CrossoverResult, type Crossover, type SelectionInterval } from "./crossovers.js";
export { parseAssembly, readAssemblyFile, readLocatedAssemblyFile, type LocatedAssembly, type AssemblyKeyLocator } from "./assembly-file.js";
export {
  componentCallTree,
  componentOfTimer,
  coreComponentsFromTimers,
  coreComponentsOfTrial,
  coreTimersOfTrial,
  implementationNames,
  unmatchedComponentTimers,
  type CoreComponentsOptions,
  type ImplementationNames,
} from "./core-components.js";
