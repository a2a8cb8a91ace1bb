/**
 * ccasim's public face: everything the `ccasim` command does is reachable by importing these
 * modules.
 *
 * @packageDocumentation
 */
export * from "./engine/index.js";
export * from "./profile/index.js";
export * from "./machine/index.js";
export * from "./analysis/index.js";
export * from "./profile/study/index.js";
export * from "./scenarios/sweep/index.js";
export * from "./analysis/report/index.js";
export * from "./analysis/study/index.js";
