import { componentTypes } from "../registry.js";
import { driverComponent } from "./driver.js";
import { dummyComponent } from "./dummy.js";
import { haloExchangeComponent } from "./halo-exchange.js";
import { kernelComponent } from "./kernel.js";
import { shockComponents } from "./shock/index.js";

export { driverComponent, GO_PORT } from "./driver.js";
export { ScenarioValueError } from "./scenario-value-error.js";
export { dummyComponent } from "./dummy.js";
export { kernelComponent } from "./kernel.js";
export { haloExchangeComponent, HALO_PORT, squareGrid } from "./halo-exchange.js";
export * from "./shock/index.js";
export { prepareCalls, makeCalls, CallTargets, usesPorts, RANK_NAMES, type PreparedCall } from "./calls.js";

/** Registers the built-in component library (idempotent). */
export function registerComponentLibrary(): void {
  for (const t of [driverComponent, dummyComponent, kernelComponent, haloExchangeComponent, ...shockComponents])
    if (!componentTypes.has(t.name)) componentTypes.register(t);
}

registerComponentLibrary();
