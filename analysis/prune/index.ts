/**
 * Call-graph pruning (paper 002's alpha/beta algorithm) on call trees built from TAU callpaths
 * (full or truncated), flat profiles or the simulator's call graph.
 *
 * @packageDocumentation
 */
export {
  callTreeFromTimers,
  aggregateCallTrees,
  splitCallpath,
  type CallNode,
  type TimerValue,
  type CallTreeShape,
  type BuiltCallTree,
  type CallTreeOptions,
  type TreeAggregate,
} from "./call-tree.js";
export { pruneCallGraph, pruneAcross, type PruneOptions, type PruneResult, type PrunedNode, type KeptNode, type PruneAcrossResult } from "./prune.js";
export { callTreeFromTrial, callTreesPerThread, timerValues, type TrialTreeOptions, type PerThreadTrees } from "./from-trial.js";
