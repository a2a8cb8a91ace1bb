/**
 * The JSON Schema of an object of documented parameters, to nest in the schemas `ccasim schema`
 * prints (a component type's `params`, a network model's, the node parameters a machine overrides).
 *
 * @packageDocumentation
 */
import type { ParamDoc } from "../engine/index.js";
import { s, toJsonSchema } from "./lang/index.js";

/** A JSON Schema (a part of one). */
export type Json = Record<string, unknown>;

/**
 * The JSON Schema (without its `$schema` header, to nest in another) of an object of `params`,
 * each optional when `everyOptional`, else unless its owner requires it (no default, not optional).
 */
export function paramsJson(params: readonly ParamDoc[], everyOptional: boolean): Json {
  const { $schema: _, ...body } = toJsonSchema(s.fromParams(everyOptional ? params.map((p) => ({ ...p, default: undefined, optional: true })) : params)) as Json;
  return body;
}
