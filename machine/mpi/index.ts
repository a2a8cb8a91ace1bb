/**
 * MPI for simulated ranks: a world built from a rank placement and a network description,
 * per-rank communicators with generator-based blocking calls, collectives built from
 * point-to-point messages, ghost-cell exchange, observer hooks, and deadlock/mismatch reports.
 *
 * @packageDocumentation
 */
export { ANY_SOURCE, ANY_TAG, REQUEST_NULL, TAG_UB, MPI_CALLS, type MpiCallName } from "./constants.js";
export { type MpiObserver, MpiCallTotals, combineObservers } from "./observer.js";
export {
  MpiDeadlockError,
  MpiUnreceivedMessagesError,
  MpiUsageError,
  placeSends,
  type BlockedRank,
  type PendingRequest,
  type UnreceivedMessage,
  type UnmatchedReceive,
} from "./errors.js";
export { MpiWorld, RankWait, type Placement, type MpiWorldOptions, type ExchangeProgram, type ExchangeStep } from "./world.js";
export { Comm, Group, type Status, type MpiCall } from "./comm.js";
export { type BlockDecomposition, type HaloPlan, type GhostExchangeStats, DecompositionError, faceNeighbours, type FaceNeighbour, haloPlan, ghostExchange, GHOST_TAG_SPAN } from "./ghost.js";
export * from "./collectives/index.js";
