/**
 * The JSON Schema of the keys of a scenario's `machine.network` section that hold maps, for the
 * schema `ccasim schema` prints: `params` (the inter-node model's parameters, by the chosen
 * `model`), `intraNode` and `load` (`{model, params}`, the parameters by the chosen model) and
 * `collectives` (`{algorithms, params}`). Built from the model registries, their parameter
 * documentation and the keys the network layer checks against, so it accepts what the loader does.
 *
 * @packageDocumentation
 */
import type { ParamDoc } from "../engine/index.js";
import {
  AUTO_ALGORITHM,
  COLLECTIVE_SPEC_KEYS,
  COLLECTIVES,
  DEFAULT_INTRA_MODEL,
  DEFAULT_LOAD_MODEL,
  DEFAULT_MODEL,
  LINK_KEYS,
  backgroundLoadModels,
  collectiveAlgorithms,
  collectiveParams,
  pointToPointModels,
} from "../machine/index.js";
import { paramsJson, type Json } from "./params-json-schema.js";

/** A registry of models, each with its documented parameters. */
interface ModelRegistry {
  names(): string[];
  all(): { readonly name: string; readonly params: readonly ParamDoc[] }[];
}

/** A map, or null (written as an empty YAML key), which the network layer takes for no section. */
const MAP_OR_NULL = ["object", "null"];

/**
 * `paramsJson(params)` as the keys and values of a map that may also be null: its shape without
 * its type (so that null passes), to combine with a property declared a map or null.
 */
function paramsShape(params: readonly ParamDoc[], everyOptional: boolean): Json {
  const { type: _, ...shape } = paramsJson(params, everyOptional);
  return shape;
}

/**
 * One branch per model of `registry`: where the map's `model` names it (or names none, for
 * `fallback`, the model then chosen), its `params` are that model's parameters and no other.
 * `everyOptional(model)`: whether each may be left out (a preset or a default path gives them).
 */
function paramsByModel(registry: ModelRegistry, fallback: string, everyOptional: (model: string) => boolean): Json[] {
  return registry.all().map((m) => ({
    if: { properties: { model: { const: m.name } }, ...(m.name === fallback ? {} : { required: ["model"] }) },
    then: { properties: { params: paramsShape(m.params, everyOptional(m.name)) } },
  }));
}

/** A `{model, params}` section (`intraNode`, `load`) of the models of `registry`. */
function linkJson(doc: string, registry: ModelRegistry, fallback: string, everyOptional: (model: string) => boolean): Json {
  const properties: Record<(typeof LINK_KEYS)[number], Json> = {
    model: { description: `The model (default ${fallback}).`, enum: registry.names(), default: fallback },
    params: { description: "The model's parameters (quantities with units).", type: MAP_OR_NULL },
  };
  return { description: doc, type: MAP_OR_NULL, properties, additionalProperties: false, allOf: paramsByModel(registry, fallback, everyOptional) };
}

/** The `collectives` section: forced algorithms by collective, and the selection's parameters. */
function collectivesJson(): Json {
  const algorithms = Object.fromEntries(
    COLLECTIVES.map((c) => [c, { description: `The ${c} algorithm, or ${AUTO_ALGORITHM} (selected by message size and ranks, as MPICH does).`, enum: [AUTO_ALGORITHM, ...collectiveAlgorithms[c].names()] }]),
  );
  const properties: Record<(typeof COLLECTIVE_SPEC_KEYS)[number], Json> = {
    algorithms: { description: `Algorithm by collective (default ${AUTO_ALGORITHM}).`, type: MAP_OR_NULL, properties: algorithms, additionalProperties: false },
    params: { description: "Thresholds and costs of the selection (MPICH's defaults).", type: MAP_OR_NULL, ...paramsShape(collectiveParams, false) },
  };
  return { description: "Collective algorithms and cost models by operation.", type: MAP_OR_NULL, properties, additionalProperties: false };
}

/**
 * The network section's map-valued keys, and the branches (`allOf`) that give its `params` the
 * parameters of its `model`.
 */
export function networkMapsJson(): { properties: Record<string, Json>; allOf: Json[] } {
  return {
    properties: {
      params: { description: "Parameters of the inter-node model, overriding what the preset gives (quantities with units).", type: MAP_OR_NULL },
      // The default path's parameters fill what a Hockney intra-node path leaves out; another model takes all of its own.
      intraNode: linkJson(`Intra-node (shared-memory) path: {model, params}; default ${DEFAULT_INTRA_MODEL} with alpha 1us and 1GB/s.`, pointToPointModels, DEFAULT_INTRA_MODEL, (m) => m === DEFAULT_INTRA_MODEL),
      load: linkJson(`Background load on the network: {model, params} (default ${DEFAULT_LOAD_MODEL}).`, backgroundLoadModels, DEFAULT_LOAD_MODEL, () => false),
      collectives: collectivesJson(),
    },
    // The preset (named, or the machine's interconnect) gives what an inter-node model's params leave out.
    allOf: paramsByModel(pointToPointModels, DEFAULT_MODEL, () => true),
  };
}
