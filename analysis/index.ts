/**
 * The analysis layer: model fitting, call-graph pruning, implementation selection and
 * counter-based power estimation, on real TAU data and on simulated trials alike. Imports only
 * `profile/`.
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export { fractionText, type FractionTextOptions } from "./number-text.js";
export { viewOf, threadIndexOf, metricOf, metricUsed, timerOf, userEventOf, type ViewChoice, type MetricUsed } from "./trial-access.js";
export * from "./fit/index.js";
export * from "./prune/index.js";
export * from "./select/index.js";
export * from "./power/index.js";
