import { componentTypes } from "../registry.js";
import { driverComponent } from "./driver.js";
import { dummyComponent } from "./dummy.js";
import { shockComponents } from "./shock/index.js";

export { driverComponent, GO_PORT } from "./driver.js";
export { dummyComponent } from "./dummy.js";
export * from "./shock/index.js";
export { prepareCalls, makeCalls, usesPorts, type PreparedCall } from "./calls.js";

/** Registers the built-in component library (idempotent). */
export function registerComponentLibrary(): void {
  for (const t of [driverComponent, dummyComponent, ...shockComponents]) if (!componentTypes.has(t.name)) componentTypes.register(t);
}

registerComponentLibrary();
