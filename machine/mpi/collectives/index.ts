/**
 * Collective algorithms built from point-to-point messages, registered by name per collective,
 * and their MPICH-style selection.
 *
 * @packageDocumentation
 */
export { type CollectiveName, type CollectiveAlgorithm, COLLECTIVES, collectiveAlgorithms, registerCollective } from "./algorithm.js";
export { type CollectiveSpec, AUTO_ALGORITHM, COLLECTIVE_SPEC_KEYS, collectiveParams, CollectiveConfigError, ResolvedCollectives, resolveCollectives } from "./config.js";
export { disseminationBarrier, disseminationBarrierProgram } from "./barrier.js";
export { binomialBcast, scatterRingAllgatherBcast, scatterRecursiveDoublingBcast } from "./bcast.js";
export { binomialReduce, reduceScatterGatherReduce } from "./reduce.js";
export { recursiveDoublingAllreduce, recursiveDoublingAllreduceProgram, rabenseifnerAllreduce, rabenseifnerAllreduceProgram, ringAllreduce } from "./allreduce.js";
export { ringAllgather, recursiveDoublingAllgather, bruckAllgather } from "./allgather.js";
export { bruckAlltoall, scatteredAlltoall, pairwiseAlltoall } from "./alltoall.js";
