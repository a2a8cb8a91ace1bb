import type { ComponentType } from "../../component.js";
import { FLUX_PORT } from "./ports.js";
import { checkKeys } from "../../documented-params.js";
import { kernelFor, numberParam, workDoc, workParam, type ElementWork } from "./params.js";
import { prepareSweep } from "./sweep.js";

/** Calibrated (not measured) work per element outside the Riemann solve: states in, flux out. */
export const GODUNOV_WORK: ElementWork = { loads: 45, stores: 12, flops: 120, otherInstructions: 60, arrays: 2, passes: 1, fmaFraction: 0.3 };

/** Calibrated (not measured) work per element of one iteration of the exact Riemann solver. */
export const GODUNOV_ITERATION = { loads: 6, stores: 1, flops: 30, otherInstructions: 18 };

/** Prepared GodunovFlux parameters. */
export interface GodunovPrepared {
  readonly work: ElementWork;
  readonly iteration: { readonly loads: number; readonly stores: number; readonly flops: number; readonly otherInstructions: number };
  readonly meanIterations: number;
  readonly iterationCv: number;
}

const KEYS = ["work", "iteration", "iterations", "iterationCv"];
const ITER_KEYS = ["loads", "stores", "flops", "otherInstructions"];

/**
 * GodunovFlux (paper 000 section 5, paper 001 section 5.2): Godunov's method with an exact
 * Riemann solver, an internal iterative solve per element. Each invocation draws its iteration
 * count (per element, averaged over the array) from a seeded lognormal with mean `iterations` and
 * coefficient of variation `iterationCv`, so it costs more than EFMFlux and its spread grows with Q.
 * Defaults are calibrated to paper 000's T = -963 + 0.315 Q us and sigma = -526 + 0.152 Q us.
 */
export const godunovFluxComponent: ComponentType<GodunovPrepared> = {
  name: "GodunovFlux",
  summary: "Godunov flux with an iterative Riemann solve per element: seeded iteration count per invocation",
  params: [
    { name: "work", type: "map", doc: workDoc(GODUNOV_WORK, "paper 000 Eq. 1 (T_Godunov) on xeon-2.8ghz-512k"), optional: true },
    { name: "iteration", type: "map", doc: `Work per element of one solver iteration {loads, stores, flops, otherInstructions}; default ${JSON.stringify(GODUNOV_ITERATION)} (calibrated).`, optional: true },
    { name: "iterations", type: "number", doc: "Mean solver iterations per element (calibrated).", default: 10, min: 0 },
    { name: "iterationCv", type: "number", doc: "Coefficient of variation of the iteration count between invocations (calibrated to paper 000 Eq. 2).", default: 0.6, min: 0 },
  ],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "GodunovFlux");
    const work = workParam(env, p.work, "work", GODUNOV_WORK);
    const iteration: Record<string, number> = { ...GODUNOV_ITERATION };
    if (p.iteration !== undefined) {
      if (typeof p.iteration !== "object" || p.iteration === null || Array.isArray(p.iteration)) env.error("iteration", `must be a map with keys ${ITER_KEYS.join(", ")}`);
      const it = p.iteration as Record<string, unknown>;
      checkKeys(env, it, ITER_KEYS, "an iteration description", "iteration.");
      for (const k of ITER_KEYS) if (it[k] !== undefined) iteration[k] = numberParam(env, it[k], `iteration.${k}`, { min: 0 });
    }
    return {
      work,
      iteration: iteration as GodunovPrepared["iteration"],
      meanIterations: numberParam(env, p.iterations, "iterations", { min: 0, fallback: 10 }),
      iterationCv: numberParam(env, p.iterationCv, "iterationCv", { min: 0, fallback: 0.6 }),
    };
  },
  ports() {
    return { provides: { flux: FLUX_PORT }, uses: {} };
  },
  create(ctx, g) {
    const kernel = kernelFor(g.work);
    const rng = ctx.random("iterations");
    const who = `${ctx.instance}.compute`;
    return {
      provides: {
        flux: {
          *compute(args) {
            const q = prepareSweep(kernel, args, "states", who);
            const n = rng.lognormalMeanCv(g.meanIterations, g.iterationCv);
            kernel.loads = g.work.loads + n * g.iteration.loads;
            kernel.stores = g.work.stores + n * g.iteration.stores;
            kernel.flops = g.work.flops + n * g.iteration.flops;
            kernel.otherInstructions = g.work.otherInstructions + n * g.iteration.otherInstructions;
            if (q > 0) yield ctx.compute(kernel);
            return n;
          },
        },
      },
    };
  },
};
