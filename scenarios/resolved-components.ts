/**
 * The component instances of a scenario as its run used them: each parameter the scenario leaves
 * out, with the type's documented default. `summary.json` records them, so that a reader (and
 * `ccasim fit`'s check that pooled runs set their components up alike) sees one value for a
 * setting whether a scenario wrote the default out or left it to the type.
 *
 * @packageDocumentation
 */
import { componentTypes } from "../components/index.js";
import type { ComponentSection } from "./scenario-schema.js";

/**
 * `components` with every documented default of each instance's type filled in where its
 * parameters leave the key out (a type the registry lacks keeps its parameters as written).
 */
export function componentsWithDefaults(components: Readonly<Record<string, ComponentSection>>): Record<string, ComponentSection> {
  const out: Record<string, ComponentSection> = {};
  for (const [name, instance] of Object.entries(components)) {
    const docs = componentTypes.has(instance.type) ? (componentTypes.get(instance.type).params ?? []) : [];
    const params: Record<string, unknown> = { ...instance.params };
    for (const doc of docs) if (!(doc.name in params) && doc.default !== undefined) params[doc.name] = doc.default;
    out[name] = { ...instance, params };
  }
  return out;
}
