import type { ComponentType } from "../../component.js";
import { STATES_PORT } from "./ports.js";
import { checkKeys } from "../../documented-params.js";
import { kernelFor, workDoc, workParam, type ElementWork } from "./params.js";
import { prepareSweep } from "./sweep.js";

/**
 * Calibrated per-element work of the states constructor (not measured): several passes over the
 * field, its output and a temporary (primitive variables, slopes, limiters, characteristic
 * projection). On `xeon-2.8ghz-512k` this gives about 0.1 us per double while the arrays fit the
 * 512 kB L2 and a strided/sequential ratio near 4 once they overflow it, so the mode-averaged
 * time follows paper 000's T = exp(1.19 log Q - 3.68) us over Q = 1e3 .. 1.5e5.
 */
export const STATES_WORK: ElementWork = { loads: 9, stores: 2, flops: 14, otherInstructions: 10, arrays: 3, passes: 7, fmaFraction: 0 };

const KEYS = ["work"];

/**
 * StatesConstructor (paper 000 section 5): left and right states of a patch field along one
 * direction, invoked once per direction per patch: `sequential` mode for X-derivatives,
 * `strided` mode (stride = the patch row length) for Y-derivatives. No message passing.
 */
export const statesConstructorComponent: ComponentType<ElementWork> = {
  name: "StatesConstructor",
  summary: "left/right states of a patch, sequential (X) or strided (Y) sweeps priced by the node model",
  params: [{ name: "work", type: "map", doc: workDoc(STATES_WORK, "paper 000 Eq. 1 and Figure 3 on xeon-2.8ghz-512k"), optional: true }],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "StatesConstructor");
    return workParam(env, p.work, "work", STATES_WORK);
  },
  ports() {
    return { provides: { states: STATES_PORT }, uses: {} };
  },
  create(ctx, work) {
    const kernel = kernelFor(work);
    const who = `${ctx.instance}.compute`;
    return {
      provides: {
        states: {
          *compute(args) {
            const q = prepareSweep(kernel, args, "field", who);
            if (q > 0) yield ctx.compute(kernel);
            return q;
          },
        },
      },
    };
  },
};
