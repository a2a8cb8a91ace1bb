/**
 * The component instances of a scenario as its run used them: each parameter the scenario leaves
 * out that its type declares a default for (`ParamDoc.default`), with that default. `summary.json`
 * records them, so that a reader (and `ccasim fit`'s check that pooled runs set their components
 * up alike) sees one value for such a setting whether a scenario wrote the default out or left it
 * to the type. (Defaults a type only describes in words, such as the shock components' calibrated
 * loops, are not filled in.)
 *
 * @packageDocumentation
 */
import { componentTypes, withDeclaredDefaults } from "../components/index.js";
import type { ComponentSection } from "./scenario-schema.js";

/**
 * `components` with every declared default of each instance's type filled in where its
 * parameters leave the key out (a type the registry lacks keeps its parameters as written).
 */
export function componentsWithDefaults(components: Readonly<Record<string, ComponentSection>>): Record<string, ComponentSection> {
  const out: Record<string, ComponentSection> = {};
  for (const [name, instance] of Object.entries(components)) {
    const docs = componentTypes.has(instance.type) ? (componentTypes.get(instance.type).params ?? []) : [];
    out[name] = { ...instance, params: withDeclaredDefaults(instance.params, docs) };
  }
  return out;
}
