/**
 * The machine: nodes, caches, counters and presets (node model), the interconnect and MPI.
 *
 * @packageDocumentation
 */
export * from "./node/index.js";
export * from "./network/index.js";
export * from "./mpi/index.js";
