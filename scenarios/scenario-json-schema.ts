/**
 * The JSON Schema of scenario files that `ccasim schema` prints for editors: the scenario schema
 * of {@link scenarioSchema}, plus what its owners check after the first pass, so that an editor
 * completes and checks it too: the machine presets and every node parameter a `machine:` section
 * may override (nested, as `l2: { size: 512KiB }`: dotted keys such as `l2.size` are for `--set`
 * and sweeps, not files),
 * the interconnect presets and network models, and each component type's parameters.
 *
 * The loader does not read this schema: it is built from the same registries and parameter
 * documentation the loader checks against, so it describes what the loader accepts.
 *
 * @packageDocumentation
 */
import { componentTypes, RANK_NAMES } from "../components/index.js";
import { COUNTER_NAMES, LEVEL_KEYS, MACHINE_PARAMS, interconnectPresets, machinePresets, networkParams, pointToPointModels } from "../machine/index.js";
import { toJsonSchema } from "./lang/index.js";
import { networkMapsJson } from "./network-json-schema.js";
import { paramsJson, type Json } from "./params-json-schema.js";
import { typedSweepValues } from "./sweep-json-values.js";
import { CYCLE_COUNTERS } from "./platform.js";
import { SYSTEM_SLOTS } from "./program/model.js";
import { scenarioSchema } from "./scenario-schema.js";
import { sweepSchema } from "./sweep/sweep-schema.js";


/** The node parameters a `machine:` section may override, nested by group; cache levels may be null (removed). */
function machineOverrides(): Json {
  const nested = paramsJson(MACHINE_PARAMS, true) as { properties: Record<string, Json> };
  const properties: Record<string, Json> = { ...nested.properties };
  for (const level of LEVEL_KEYS) {
    const group = properties[level];
    if (group !== undefined) properties[level] = { description: `${group.description ?? `The ${level} cache level`}; null removes it.`, anyOf: [group, { type: "null" }] };
  }
  return properties;
}

function objectAt(schema: Json, path: readonly string[]): Json {
  let cur = schema;
  for (const key of path) {
    const next = (cur.properties as Record<string, Json> | undefined)?.[key];
    if (next === undefined) throw new Error(`scenario schema has no '${path.join(".")}'`);
    cur = next;
  }
  return cur;
}

/**
 * The JSON Schema (draft 2020-12) of scenario files, for editors: {@link scenarioSchema} with the
 * machine, network and component parameters filled in from their registries.
 */
export function scenarioJsonSchema(): object {
  const schema = toJsonSchema(scenarioSchema(), { title: "ccasim scenario", id: "https://ccasim.invalid/scenario.schema.json" }) as Json;
  const machine = objectAt(schema, ["machine"]);
  const own = machine.properties as Record<string, Json>;
  own.preset = { ...own.preset, enum: machinePresets.names() };
  machine.properties = { ...own, ...machineOverrides() };
  // Node parameters are overridden nested (`l2: { size: 512KiB }`); dotted keys are for --set and sweeps.
  machine.additionalProperties = false;
  // The network's scalar keys as the network layer documents them, its presets and models from
  // their registries, and the structured keys whose contents their models document.
  const network = own.network;
  const scalar = (paramsJson(networkParams, true) as { properties: Record<string, Json> }).properties;
  const maps = networkMapsJson();
  network.properties = {
    ...scalar,
    preset: { ...scalar.preset, enum: interconnectPresets.names() },
    model: { ...scalar.model, enum: pointToPointModels.names() },
    ...maps.properties,
  };
  network.additionalProperties = false;
  network.allOf = maps.allOf;

  const component = (objectAt(schema, ["assembly", "components"]).additionalProperties ?? {}) as Json;
  const componentProps = component.properties as Record<string, Json>;
  componentProps.type = { ...componentProps.type, enum: componentTypes.names() };
  component.allOf = componentTypes.all().map((t) => ({
    if: { properties: { type: { const: t.name } }, required: ["type"] },
    then: { properties: { params: { description: t.summary, ...paramsJson(t.params, false) } } },
  }));
  crossKeyChecks(schema);
  return schema;
}

/**
 * The JSON Schema (draft 2020-12) of sweep files, for editors: {@link sweepSchema}, whose inline
 * `scenario` is checked against {@link scenarioJsonSchema}. The scenario schema sits in `$defs`
 * beside its own definitions, so that its `#/$defs/...` references resolve unchanged.
 */
export function sweepJsonSchema(): object {
  const schema = toJsonSchema(sweepSchema(), { title: "ccasim sweep", id: "https://ccasim.invalid/sweep.schema.json" }) as Json;
  const { $schema: _s, $id: _i, title: _t, $defs, ...scenario } = scenarioJsonSchema() as Json;
  const property = objectAt(schema, ["scenario"]);
  property.anyOf = [{ type: "string", description: "scenario file, relative to the sweep file" }, { $ref: "#/$defs/scenario" }];
  schema.$defs = { ...(schema.$defs as Json | undefined), ...($defs as Json | undefined), scenario };
  typeSweepValues(schema, typedSweepValues(schema, "#/$defs/scenario"));
  return schema;
}

/**
 * Gives the keys of `typed` (regular expressions of sweep keys) their value schemas wherever a
 * sweep gives a key values: `set:` one, an axis or a zip group a list of them, a random axis a
 * `choice:` of them (a range or a uniform distribution yields numbers, which such a key refuses).
 */
function typeSweepValues(schema: Json, typed: Record<string, Json>): void {
  const list = (value: Json): Json => ({ type: "array", items: value, minItems: 1 });
  const pattern = (record: Json, of: (value: Json) => Json): void => {
    record.patternProperties = Object.fromEntries(Object.entries(typed).map(([key, value]) => [key, of(value)]));
  };
  pattern(objectAt(schema, ["set"]), (v) => v);
  pattern(objectAt(schema, ["axes"]), list);
  pattern((objectAt(schema, ["zip"]) as { items: Json }).items, list);
  pattern(objectAt(schema, ["random", "axes"]), (v) => ({ type: "object", properties: { choice: list(v) }, required: ["choice"], additionalProperties: false }));
}

/**
 * What the loader checks across keys, stated in the schema: TIME first and once, then counters a
 * node model records (a program model: cycle counters only); an `assembly` or a `program`, not both;
 * no workload variable named as expressions name the rank or process; a `for` loop with `count`
 * or `to`, not both forms. Checks that need the preset's values (a size that is a multiple of
 * line x assoc, processes per node) stay the loader's.
 */
function crossKeyChecks(schema: Json): void {
  const metrics = objectAt(schema, ["metrics"]);
  metrics.items = { type: "string", enum: ["TIME", ...COUNTER_NAMES] };
  metrics.prefixItems = [{ const: "TIME", description: "TIME comes first." }];
  metrics.uniqueItems = true;
  const reserved = (names: readonly string[]) => ({ workload: { propertyNames: { not: { enum: [...names] } } } });
  schema.oneOf = [{ required: ["assembly"] }, { required: ["program"] }];
  schema.if = { required: ["program"] };
  schema.then = { properties: { ...reserved(SYSTEM_SLOTS), metrics: { items: { enum: ["TIME", ...CYCLE_COUNTERS] } } } };
  schema.else = { properties: reserved(RANK_NAMES) };
  const elements = ((schema.$defs as Record<string, Json> | undefined)?.programElement?.anyOf ?? []) as Json[];
  const loop = elements.find((e) => (e.properties as Record<string, Json> | undefined)?.for !== undefined);
  if (loop === undefined) throw new Error("scenario schema has no program `for` element");
  loop.anyOf = [{ required: ["count"] }, { required: ["to"] }];
  loop.dependentSchemas = { count: { not: { anyOf: [{ required: ["from"] }, { required: ["to"] }, { required: ["step"] }] } } };
}
