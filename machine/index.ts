/**
 * The machine: cluster, nodes, caches and counters (node model), the interconnect and MPI.
 *
 * @packageDocumentation
 */
export * from "./network/index.js";
export * from "./mpi/index.js";
