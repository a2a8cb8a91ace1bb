/**
 * The component framework: CCA-style components with provides and uses ports, assemblies wired
 * from scenarios, generated proxies, the Mastermind, the TAU-like measurement component, and the
 * component library.
 *
 * @packageDocumentation
 */
export * from "./ports.js";
export * from "./component.js";
export { componentTypes } from "./registry.js";
export { withDeclaredDefaults } from "./documented-params.js";
export * from "./assembly.js";
export * from "./platform.js";
export * from "./mastermind.js";
export * from "./timed-call.js";
export * from "./bound-method.js";
export * from "./measurement/index.js";
export * from "./runtime.js";
export * from "./library/index.js";
export * from "./to-trial.js";
export * from "./callgraph.js";
