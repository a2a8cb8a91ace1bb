import { Registry } from "../engine/index.js";
import type { ComponentType } from "./component.js";

/** Every component type, by the name scenarios use in `type:`. */
export const componentTypes = new Registry<ComponentType>("component type");
