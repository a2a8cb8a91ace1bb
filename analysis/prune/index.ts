/**
 * Call-graph pruning (paper 002's alpha/beta algorithm) on call trees built from TAU callpaths
 * (full or truncated), flat profiles or the simulator's call graph.
 *
 * @packageDocumentation
 */
export {
  callTreeFromTimers,
  splitCallpath,
  ALL_ROOTS,
  type CallNode,
  type TimerValue,
  type CallTreeShape,
  type BuiltCallTree,
  type CallTreeOptions,
} from "./call-tree.js";
export { aggregateCallTrees, type TreeAggregate, type AggregateOptions } from "./aggregate.js";
export { parameterBase, componentName, type NestedParameters } from "./parameter-timers.js";
export {
  pruneCallGraph,
  pruneAcross,
  type PruneOptions,
  type PruneReason,
  type PruneResult,
  type PrunedNode,
  type KeptNode,
  type PruneAcrossResult,
} from "./prune.js";
export { callTreeFromTrial, callTreesPerThread, timerValues, type TrialTreeOptions, type TrialCallTree, type PerThreadTrees } from "./from-trial.js";
export { routinesInGroups, foldRoutines } from "./fold-groups.js";
