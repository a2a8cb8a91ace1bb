/**
 * Helpers that `profile/` shares with the layers above it (components, scenarios, analysis) but
 * that are not part of the package's public face: the root `index.ts` re-exports
 * `profile/index.ts`, not this module.
 *
 * @packageDocumentation
 */
export { grown } from "./grown.js";
export { detached, SharedNames } from "./shared-names.js";
export { nameSlots } from "./record-table.js";
export { decimalValue } from "./decimal-text.js";
export { nearestName, didYouMean, quotedNames } from "./nearest-name.js";
export { recordValueSpellings } from "./record-columns.js";
export { DERIVED_KINDS } from "./derived.js";
export { compareText } from "./compare-text.js";
export { columnWidths } from "./table.js";
