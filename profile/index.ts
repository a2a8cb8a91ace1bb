/**
 * The profile layer: the measurement data model ({@link Trial}, {@link TrialBuilder}), derived
 * views, and the file formats real tools use.
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./names.js";
export * from "./model.js";
export * from "./builder.js";
export * from "./invariants.js";
export * from "./derived.js";
export * from "./views.js";
