/**
 * JSON Schema (draft 2020-12) emission of a {@link Schema}, for editors.
 *
 * @packageDocumentation
 */
import type { Dimension } from "../../engine/params.js";
import type { Schema } from "./schema.js";
import { acceptsBareNumber, describeDimension, formatQuantity, unitsOf } from "./units.js";
import { isPlainObject } from "./validate.js";

type Json = Record<string, unknown>;


/**
 * The regular expression (source) a quantity string must match, for JSON Schema; with
 * `binaryUnits`, a size in powers of two, whose decimal units (`512KB`) are refused.
 */
export function quantityPattern(dimension: Dimension, allowNegative = false, binaryUnits = false): string {
  const num = `${allowNegative ? "[+-]?" : "[+]?"}(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?`;
  const units = unitsOf(dimension, binaryUnits)
    .map((u) => u.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join("|");
  if (units === "") return `^\\s*${num}\\s*$`;
  if (acceptsBareNumber(dimension)) return `^\\s*${num}\\s*(${units})?\\s*$`;
  // Zero needs no unit in any dimension.
  const zero = `[+-]?(0+(\\.0*)?|\\.0+)([eE][+-]?\\d+)?`;
  return `^\\s*(${zero}|${num}\\s*(${units}))\\s*$`;
}

/**
 * JSON Schema (draft 2020-12) of `schema`, for editors: every `doc` becomes `description`,
 * quantities become `oneOf [number, string with a unit pattern]` (the number only where a bare
 * number is accepted, else only 0), defaults are included (quantities written with units), lazy
 * schemas become `$defs` entries.
 */
export function toJsonSchema(schema: Schema, opts: { title?: string; id?: string } = {}): object {
  const defs: Record<string, Json> = {};
  const body = toJson(schema, defs);
  const out: Json = { $schema: "https://json-schema.org/draft/2020-12/schema" };
  if (opts.id !== undefined) out.$id = opts.id;
  if (opts.title !== undefined) out.title = opts.title;
  Object.assign(out, body);
  if (Object.keys(defs).length > 0) out.$defs = Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]]));
  return out;
}

function withDoc(json: Json, doc: string | undefined): Json {
  return doc === undefined ? json : { description: doc, ...json };
}

function toJson(schema: Schema, defs: Record<string, Json>): Json {
  switch (schema.kind) {
    case "object": {
      const properties: Json = {};
      for (const [k, f] of Object.entries(schema.fields)) properties[k] = toJson(f, defs);
      const json: Json = { type: "object", properties };
      if (schema.required.length > 0) json.required = [...schema.required];
      json.additionalProperties = schema.additional ? toJson(schema.additional, defs) : false;
      return withDoc(json, schema.doc);
    }
    case "string":
      return withDoc({ type: "string", ...(schema.pattern !== undefined ? { pattern: schema.pattern } : {}) }, schema.doc);
    case "number": {
      const json: Json = { type: schema.integer ? "integer" : "number" };
      if (schema.min !== undefined) json.minimum = schema.min;
      if (schema.max !== undefined) json.maximum = schema.max;
      return withDoc(json, schema.doc);
    }
    case "boolean":
      return withDoc({ type: "boolean" }, schema.doc);
    case "quantity": {
      const negative = schema.min !== undefined && schema.min < 0;
      const num: Json = acceptsBareNumber(schema.dimension) ? { type: "number" } : { const: 0 };
      if (num.type === "number") {
        const min = schema.min ?? (negative ? undefined : 0);
        if (min !== undefined) num.minimum = min;
        if (schema.max !== undefined) num.maximum = schema.max;
      }
      const text = `${describeDimension(schema.dimension)}${schema.min !== undefined ? `, at least ${formatQuantity(schema.min, schema.dimension)}` : ""}${schema.max !== undefined ? `, at most ${formatQuantity(schema.max, schema.dimension)}` : ""}`;
      return {
        description: schema.doc ? `${schema.doc} (${text})` : text,
        oneOf: [num, { type: "string", pattern: quantityPattern(schema.dimension, negative, schema.binaryUnits === true) }],
      };
    }
    case "enum":
      return withDoc({ enum: [...schema.values] }, schema.doc);
    case "literal":
      return withDoc({ const: schema.value }, schema.doc);
    case "array": {
      const json: Json = { type: "array", items: toJson(schema.item, defs) };
      if (schema.minItems !== undefined) json.minItems = schema.minItems;
      if (schema.maxItems !== undefined) json.maxItems = schema.maxItems;
      if (schema.uniqueItems) json.uniqueItems = true;
      return withDoc(json, schema.doc);
    }
    case "record": {
      const json: Json = { type: "object", additionalProperties: toJson(schema.value, defs) };
      if (schema.keyPattern !== undefined) json.propertyNames = { pattern: schema.keyPattern };
      return withDoc(json, schema.doc);
    }
    case "expression": {
      const text = `a mathjs expression${schema.known ? ` of ${[...schema.known].sort().join(", ") || "constants only"}` : ""}`;
      return { description: schema.doc ? `${schema.doc} (${text})` : text, type: ["string", "number"] };
    }
    case "union":
      return withDoc({ [schema.discriminator !== undefined ? "oneOf" : "anyOf"]: schema.options.map((o) => toJson(o, defs)) }, schema.doc);
    case "optional": {
      const json = { ...toJson(schema.schema, defs) };
      if (schema.defaultValue !== undefined) json.default = jsonDefault(schema.schema, schema.defaultValue);
      return json;
    }
    case "any":
      return withDoc({}, schema.doc);
    case "lazy": {
      if (!(schema.name in defs)) {
        defs[schema.name] = {}; // placeholder first: a recursive schema refers to itself
        defs[schema.name] = toJson(schema.resolve(), defs);
      }
      return withDoc({ $ref: `#/$defs/${schema.name}` }, schema.doc);
    }
    case "refine":
      return toJson(schema.schema, defs);
  }
}

/** A default as a scenario file would write it (quantities with units, recursively). */
function jsonDefault(schema: Schema, value: unknown): unknown {
  switch (schema.kind) {
    case "quantity":
      return typeof value === "number" && !acceptsBareNumber(schema.dimension) ? formatQuantity(value, schema.dimension) : value;
    case "object": {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const f = schema.fields[k] ?? schema.additional;
        out[k] = f ? jsonDefault(f, v) : v;
      }
      return out;
    }
    case "optional":
    case "refine":
      return jsonDefault(schema.schema, value);
    case "lazy":
      return jsonDefault(schema.resolve(), value);
    case "array":
      return Array.isArray(value) ? value.map((v) => jsonDefault(schema.item, v)) : value;
    case "record":
      return isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonDefault(schema.value, v)])) : value;
    default:
      return value;
  }
}
