import type { ComponentType } from "../../component.js";
import type { ParamDoc } from "../../../engine/index.js";
import { FLUX_PORT } from "./ports.js";
import { checkKeys } from "../../documented-params.js";
import { kernelsFor, loopParamDocs, loopsParam, numberParam, type LoopWork } from "./params.js";
import { prepareSweep } from "./sweep.js";

/**
 * Calibrated (not measured) loops of the Godunov flux over a patch, without the solver's
 * iterations: the exact Riemann solve (first: the iterations run in it; the left and right
 * primitive states in, the star pressure and velocity out: 4 arrays), the primitive left and
 * right states (2 passes over 3 arrays), sampling the self-similar solution and forming the flux
 * (2 passes over 5 arrays) and in-place fix-ups of the flux (2 passes over 1 array).
 *
 * The temporaries make the Y-sweep memory-bound once they overflow the L2: on `xeon-2.8ghz-512k`
 * the strided/sequential ratio is about 1 while the arrays fit the 512 kB L2 and climbs in steps
 * from Q of about 1.3e4 to 3.4 for arrays several times the L2, the "similar phenomena" of papers 000 and 001
 * for GodunovFlux. In cache it costs about 0.14 us per double, as EFMFlux does; past the L2 the
 * mode-averaged mean doubles, so a line fitted over Q = 1e3 .. 1.5e5 (without noise) is
 * -866 + 0.307 Q us: paper 000's T_Godunov = -963 + 0.315 Q, whose negative intercept is that
 * growth. Its sigma = -526 + 0.152 Q (Eq. 2) comes from the two modes and the iteration count's
 * scatter; in shock-neuronic.yaml's records it is about -1300 + 0.19 Q us.
 */
export const GODUNOV_WORK: LoopWork = [
  { loads: 8, stores: 2, flops: 16, otherInstructions: 8, arrays: 4, passes: 1, fmaFraction: 0.3 },
  { loads: 8, stores: 2, flops: 16, otherInstructions: 8, arrays: 3, passes: 2, fmaFraction: 0.3 },
  { loads: 8, stores: 2, flops: 16, otherInstructions: 8, arrays: 5, passes: 2, fmaFraction: 0.3 },
  { loads: 4, stores: 1, flops: 6, otherInstructions: 3, arrays: 1, passes: 2, fmaFraction: 0.3 },
];

/** Calibrated (not measured) work per element of one iteration of the exact Riemann solver. */
export const GODUNOV_ITERATION = { loads: 6, stores: 1, flops: 30, otherInstructions: 18 };

/** Calibrated mean number of solver iterations per element (a Newton solve for the star pressure converges in a few). */
export const GODUNOV_ITERATIONS = 3;

/** Calibrated coefficient of variation of the iteration count between invocations. */
export const GODUNOV_ITERATION_CV = 0.6;

/** Prepared GodunovFlux parameters. */
export interface GodunovPrepared {
  readonly loops: LoopWork;
  readonly iteration: { readonly loads: number; readonly stores: number; readonly flops: number; readonly otherInstructions: number };
  readonly meanIterations: number;
  readonly iterationCv: number;
}

const KEYS = ["loops", "work", "iteration", "iterations", "iterationCv"];
/** The keys of `iteration`, as {@link godunovFluxComponent} reads them (each a number >= 0; those left out keep {@link GODUNOV_ITERATION}'s). */
const ITERATION_FIELDS: readonly ParamDoc[] = [
  { name: "loads", type: "number", min: 0, doc: "Loads per element and solver iteration.", optional: true },
  { name: "stores", type: "number", min: 0, doc: "Stores per element and solver iteration.", optional: true },
  { name: "flops", type: "number", min: 0, doc: "Floating-point operations per element and solver iteration.", optional: true },
  { name: "otherInstructions", type: "number", min: 0, doc: "Other instructions per element and solver iteration.", optional: true },
];
const ITER_KEYS = ITERATION_FIELDS.map((f) => f.name);

/**
 * GodunovFlux (paper 000 section 5, paper 001 section 5.2): Godunov's method with an exact
 * Riemann solver, an internal iterative solve per element. Each invocation draws its iteration
 * count (per element, averaged over the array) from a seeded lognormal with mean `iterations` and
 * coefficient of variation `iterationCv`; the iterations add `iteration` work per element to the
 * first loop. Its temporaries make the strided sweep much costlier than the sequential one once
 * they overflow the cache, so it costs more than EFMFlux for large arrays and its spread grows
 * with Q. Defaults are calibrated to paper 000's T = -963 + 0.315 Q us and sigma = -526 + 0.152 Q
 * us (see {@link GODUNOV_WORK}).
 */
export const godunovFluxComponent: ComponentType<GodunovPrepared> = {
  name: "GodunovFlux",
  summary: "Godunov flux with an iterative Riemann solve per element: seeded iteration count per invocation",
  params: [
    ...loopParamDocs(
      GODUNOV_WORK,
      "paper 000 Eq. 1-2 (T_Godunov = -963 + 0.315 Q us, sigma = -526 + 0.152 Q us) and paper 001's strided penalty on xeon-2.8ghz-512k: " +
        "the first loop is the Riemann solve, which takes the iterations; the strided/sequential ratio climbs from 1 to 3.4 as the loops' arrays overflow the L2, " +
        "and a line through the mode-averaged means over Q = 1e3 .. 1.5e5 is -866 + 0.307 Q us",
    ),
    { name: "iteration", type: "map", fields: ITERATION_FIELDS, doc: `Work per element of one solver iteration {loads, stores, flops, otherInstructions}, added to the first loop; default ${JSON.stringify(GODUNOV_ITERATION)} (calibrated).`, optional: true },
    { name: "iterations", type: "number", doc: "Mean solver iterations per element (calibrated).", default: GODUNOV_ITERATIONS, min: 0 },
    { name: "iterationCv", type: "number", doc: "Coefficient of variation of the iteration count between invocations (calibrated to paper 000 Eq. 2).", default: GODUNOV_ITERATION_CV, min: 0 },
  ],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "GodunovFlux");
    const loops = loopsParam(env, p.loops, p.work, GODUNOV_WORK);
    const iteration: Record<string, number> = { ...GODUNOV_ITERATION };
    if (p.iteration !== undefined) {
      if (typeof p.iteration !== "object" || p.iteration === null || Array.isArray(p.iteration)) env.error("iteration", `must be a map with keys ${ITER_KEYS.join(", ")}`);
      const it = p.iteration as Record<string, unknown>;
      checkKeys(env, it, ITER_KEYS, "an iteration description", "iteration.");
      for (const f of ITERATION_FIELDS) if (it[f.name] !== undefined) iteration[f.name] = numberParam(env, it[f.name], `iteration.${f.name}`, { min: f.min });
    }
    return {
      loops,
      iteration: iteration as GodunovPrepared["iteration"],
      meanIterations: numberParam(env, p.iterations, "iterations", { min: 0, fallback: GODUNOV_ITERATIONS }),
      iterationCv: numberParam(env, p.iterationCv, "iterationCv", { min: 0, fallback: GODUNOV_ITERATION_CV }),
    };
  },
  ports() {
    return { provides: { flux: FLUX_PORT }, uses: {} };
  },
  create(ctx, g) {
    const kernels = kernelsFor(g.loops);
    const solve = kernels[0];
    const base = g.loops[0];
    const rng = ctx.random("iterations");
    const who = `${ctx.instance}.compute`;
    return {
      provides: {
        flux: {
          *compute(args) {
            const q = prepareSweep(kernels, args, "states", who);
            const n = rng.lognormalMeanCv(g.meanIterations, g.iterationCv);
            solve.loads = base.loads + n * g.iteration.loads;
            solve.stores = base.stores + n * g.iteration.stores;
            solve.flops = base.flops + n * g.iteration.flops;
            solve.otherInstructions = base.otherInstructions + n * g.iteration.otherInstructions;
            if (q > 0) yield ctx.computeAll(kernels);
            return n;
          },
        },
      },
    };
  },
};
