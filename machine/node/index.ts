/**
 * The SMP node model: processors, nodes and clusters; compute kernels; the cache hierarchy with
 * the analytical stride-dependent miss model and the trace-driven reference cache; hardware
 * counters; noise; machine presets.
 *
 * @packageDocumentation
 */
export { type MachineConfig, type CacheLevelConfig, type TlbConfig, type MemoryConfig, type PrefetchConfig, type NoiseConfig, type CounterConfig, type MissModelChoice, type LevelKey, LEVEL_KEYS, presentLevels } from "./config.js";
export { MachineInputError } from "./errors.js";
export { MACHINE_PARAMS, machineConfigErrors, machineConfigWarnings, machineParam, validateMachine, type MachineConfigWarning } from "./params.js";
export { type KernelSpec, type AccessPattern, validateKernel, checkKernelValues, squarePatchStride, arrayBase, arraySpan, ARRAY_ALIGNMENT, ARRAY_SKEW } from "./kernel.js";
export { type CacheGeometry, cacheGeometry, levelGeometry, tlbGeometry } from "./geometry.js";
export { levelMissesPerPass, overloadFraction, setsCovered, PATTERN_SEQUENTIAL, PATTERN_STRIDED, PATTERN_RANDOM } from "./stride-miss-model.js";
export { SetAssociativeCache, ReferenceHierarchy } from "./reference-cache.js";
export {
  COUNTER_NAMES,
  COUNTER_COUNT,
  CounterId,
  IDLE_STALL_COUNTERS,
  ITANIUM2_NATIVE_EVENTS,
  counterNatives,
  describePmuDemand,
  pmuDemand,
  presetMapOf,
  supportedCounters,
  counterLevel,
  type CounterName,
  type PmuDemand,
  type PresetMap,
} from "./counters.js";
export { NodeModel, createKernelCost, type KernelCost, type NodeModelOptions } from "./node-model.js";
export { WholeCycleCounts } from "./whole-cycles.js";
export { Cluster, placeRanks, type ClusterLayout, type PlacementPolicy } from "./cluster.js";
export { machinePresets, definePreset, presetParameters, type MachinePreset, type ParamSource, type PresetParameter } from "./preset.js";
export { resolveMachine, resolveMachineChecked, type MachineOverrides } from "./resolve.js";
export { poisson, osJitter, memoryCv } from "./noise.js";
export { xeonPreset, itanium2Preset } from "../presets/index.js";
