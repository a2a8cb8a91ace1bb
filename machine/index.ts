/**
 * The machine layer: nodes, caches, counters, presets (and the interconnect and MPI).
 *
 * @packageDocumentation
 */
export * from "./node/index.js";
