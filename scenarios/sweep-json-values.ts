/**
 * The sweep keys whose values the JSON Schema of sweep files types (`set:`, an axis's values, a zip
 * group's, a random `choice:`): a component parameter that holds a list or a map
 * (`assembly.components.Stencil.params.patterns`), and the network's sections of fixed keys
 * (`machine.network.collectives`). Each value is checked against the scenario schema at that key,
 * as the point's load checks it; any other key's value stays a number, text, true or false, or a
 * list or map of anything (its shape is the scenario's at a path the JSON Schema cannot follow).
 *
 * @packageDocumentation
 */
import type { ParamDoc } from "../engine/index.js";
import { componentTypes } from "../components/index.js";
import type { Json } from "./params-json-schema.js";
import { NAME_PATTERN } from "./scenario-schema.js";

/** The network's keys whose values are maps of keys the scenario schema fixes (not by a sibling's value). */
const NETWORK_SECTIONS = ["intraNode", "load", "collectives"] as const;

/** `text` as a JSON Pointer token. */
function pointerToken(text: string): string {
  return text.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The node at JSON Pointer `pointer` (`#/a/b`) of `root`. */
function at(root: Json, pointer: string): unknown {
  let cur: unknown = root;
  for (const token of pointer.slice(2).split("/")) cur = (cur as Record<string, unknown>)[token.replace(/~1/g, "/").replace(/~0/g, "~")];
  return cur;
}

/** `node` without its descriptions and defaults: what it accepts. */
function shapeOf(node: unknown): string {
  return JSON.stringify(node, (k, v: unknown) => (k === "description" || k === "default" ? undefined : v));
}

/** Whether a documented value is a list or a map. */
function structured(p: ParamDoc): boolean {
  return p.type === "list" || p.type === "map";
}

/**
 * The value schema of each typed sweep key, by the regular expression its keys match:
 * references into `root` (the sweep file's schema) at `scenario` (the JSON Pointer of the scenario
 * schema in it). A component parameter is named without its component's type, which the scenario
 * gives: its value is any of the shapes the types with a parameter of that name give it.
 */
export function typedSweepValues(root: Json, scenario: string): Record<string, Json> {
  const out: Record<string, Json> = {};
  const components = `${scenario}/properties/assembly/properties/components/additionalProperties`;
  const branches = at(root, `${components}/allOf`) as { if: { properties: { type: { const: string } } } }[];
  const shapes = new Map<string, string[]>();
  for (const type of componentTypes.all()) {
    const branch = branches.findIndex((b) => b.if.properties.type.const === type.name);
    for (const p of type.params.filter(structured)) {
      const ref = `${components}/allOf/${branch}/then/properties/params/properties/${pointerToken(p.name)}`;
      const refs = shapes.get(p.name) ?? [];
      // Types that give a parameter of this name one shape (the calls of dummy, driver and kernel) give it once.
      if (!refs.some((r) => shapeOf(at(root, r)) === shapeOf(at(root, ref)))) refs.push(ref);
      shapes.set(p.name, refs);
    }
  }
  const component = NAME_PATTERN.replace(/^\^/, "").replace(/\$$/, "");
  for (const [name, refs] of shapes) {
    const description = `Parameter ${name} of the component, as its type takes it.`;
    out[`^assembly\\.components\\.${component}\\.params\\.${escape(name)}$`] = refs.length === 1 ? { description, $ref: refs[0] } : { description, anyOf: refs.map(($ref) => ({ $ref })) };
  }
  // A section of the scenario may be null (no section), but a sweep's value is never null.
  for (const key of NETWORK_SECTIONS) out[`^machine\\.network\\.${escape(key)}$`] = { not: { type: "null" }, $ref: `${scenario}/properties/machine/properties/network/properties/${key}` };
  return out;
}

/** `text` as a regular expression matching it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
