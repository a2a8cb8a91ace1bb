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
export * from "./components/index.js";
export * from "./scenarios/index.js";
// Both the component framework and implementation selection prepare an "assembly"; the framework's
// keeps the plain name, selection's is re-exported under a qualified one.
export { prepareAssembly, type PreparedAssembly } from "./components/index.js";
export { prepareAssembly as prepareSelectionAssembly, type PreparedAssembly as PreparedSelectionAssembly } from "./analysis/index.js";
export * from "./profile/study/index.js";
export * from "./scenarios/sweep/index.js";
export * from "./analysis/report/index.js";
export * from "./analysis/study/index.js";
