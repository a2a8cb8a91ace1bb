import type { ComponentType } from "../../component.js";
import { isArrayArg } from "../../ports.js";
import { FLUX_PORT, INVISCID_PORT, STATES_PORT } from "./ports.js";
import { checkKeys } from "../../documented-params.js";
import { ScenarioValueError } from "../scenario-value-error.js";

const KEYS: string[] = [];

/**
 * InviscidFlux (paper 000 Figure 8): the hyperbolic fluxes of one patch. Per call it asks the
 * states constructor and the flux implementation for the X direction (sequential sweeps) and
 * then the Y direction (strided sweeps), so the two modes alternate as the numerical algorithm
 * dictates. Which flux implementation runs (EFMFlux or GodunovFlux) is the connection of its
 * `flux` uses port.
 */
export const inviscidFluxComponent: ComponentType<null> = {
  name: "InviscidFlux",
  summary: "per patch: states and fluxes in X (sequential) then Y (strided)",
  params: [],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "InviscidFlux");
    return null;
  },
  ports() {
    return { provides: { inviscid: INVISCID_PORT }, uses: { states: STATES_PORT, flux: FLUX_PORT } };
  },
  create(ctx) {
    const states = ctx.uses("states");
    const flux = ctx.uses("flux");
    return {
      provides: {
        inviscid: {
          *compute(args) {
            const field = args.field;
            if (!isArrayArg(field)) throw new ScenarioValueError(`${ctx.instance}.compute: argument 'field' must be an array descriptor`);
            // The states and flux arrays have the field's size and layout.
            yield* states.call("compute", { field, result: field, mode: "sequential" });
            yield* flux.call("compute", { states: field, result: field, mode: "sequential" });
            yield* states.call("compute", { field, result: field, mode: "strided" });
            yield* flux.call("compute", { states: field, result: field, mode: "strided" });
            return field.length;
          },
        },
      },
    };
  },
};
