/**
 * The interconnect: point-to-point cost models (Hockney, LogGP) registered by name, interconnect
 * presets with their sources, per-node NIC contention, the shared-memory path and background load.
 * Times in microseconds, sizes in bytes, bandwidths in bytes/second.
 *
 * @packageDocumentation
 */
export { type LinkCost, type PointToPointModel, HockneyCost, LogGPCost, pointToPointModels } from "./cost-model.js";
export { type InterconnectPreset, interconnectPresets, presetParams, deriveLogGP, presetModelParams } from "./presets.js";
export { type BackgroundLoad, type BackgroundLoadModel, backgroundLoadModels, PiecewiseLoad, NO_LOAD } from "./load.js";
export {
  type NetworkSpec,
  type LinkSpec,
  type LoadSpec,
  type ResolvedNetwork,
  NetworkConfigError,
  resolveNetwork,
  networkParams,
  DEFAULT_INTRA_NODE,
  DEFAULT_EAGER_LIMIT,
  DEFAULT_PRESET,
  DEFAULT_MODEL,
  DEFAULT_INTRA_MODEL,
  DEFAULT_LOAD_MODEL,
  LINK_KEYS,
} from "./config.js";
export { Interconnect, INTER_NODE, INTRA_NODE, type NetworkTraffic } from "./interconnect.js";
