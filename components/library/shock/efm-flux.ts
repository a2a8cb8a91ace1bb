import type { ComponentType } from "../../component.js";
import { FLUX_PORT } from "./ports.js";
import { checkKeys } from "../../documented-params.js";
import { kernelFor, workDoc, workParam, type ElementWork } from "./params.js";
import { prepareSweep } from "./sweep.js";

/**
 * Calibrated per-element work of the EFM flux (not measured): one compute-heavy pass over the
 * states and the flux array (error functions and exponentials of the equilibrium flux). On
 * `xeon-2.8ghz-512k` it gives about 0.16 us per double with a mild strided penalty, paper 000's
 * T = -8.13 + 0.16 Q us.
 */
export const EFM_WORK: ElementWork = { loads: 36, stores: 9, flops: 237, otherInstructions: 54, arrays: 2, passes: 1, fmaFraction: 0.3 };

const KEYS = ["work"];

/**
 * EFMFlux (paper 000 section 5): the Equilibrium Flux Method, the cheaper of the two
 * interchangeable flux implementations: fixed work per element, sequential (X) or strided (Y).
 */
export const efmFluxComponent: ComponentType<ElementWork> = {
  name: "EFMFlux",
  summary: "equilibrium flux method: fixed work per element, sequential (X) or strided (Y) sweeps",
  params: [{ name: "work", type: "map", doc: workDoc(EFM_WORK, "paper 000 Eq. 1 (T_EFM) on xeon-2.8ghz-512k"), optional: true }],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "EFMFlux");
    return workParam(env, p.work, "work", EFM_WORK);
  },
  ports() {
    return { provides: { flux: FLUX_PORT }, uses: {} };
  },
  create(ctx, work) {
    const kernel = kernelFor(work);
    const who = `${ctx.instance}.compute`;
    return {
      provides: {
        flux: {
          *compute(args) {
            const q = prepareSweep(kernel, args, "states", who);
            if (q > 0) yield ctx.compute(kernel);
            return q;
          },
        },
      },
    };
  },
};
