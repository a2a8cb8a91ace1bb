import type { ComponentType } from "../../component.js";
import type { Patch } from "./hierarchy.js";
import { ADVANCE_PORT, GHOST_PORT, INVISCID_PORT, MESH_PORT } from "./ports.js";
import { checkKeys } from "../../documented-params.js";
import { kernelFor, numberParam, WORK_MAP, workParam, type ElementWork } from "./params.js";

/** Calibrated (not measured) work of one Runge-Kutta stage update, per double. */
export const RK2_UPDATE: ElementWork = { loads: 3, stores: 1, flops: 4, otherInstructions: 3, arrays: 3, passes: 1, fmaFraction: 0.5 };

/** What AMRMesh's `patches(level)` returns. */
interface LevelPatches {
  readonly epoch: number;
  readonly levels: number;
  readonly variables: number;
  readonly patches: readonly Patch[];
}

interface Rk2Prepared {
  readonly stages: number;
  readonly substeps: number;
  readonly update: ElementWork;
}

const KEYS = ["stages", "substeps", "update"];

/**
 * RK2 (paper 000 section 5): orchestrates the recursive processing of the hierarchy. Advancing a
 * level runs `stages` Runge-Kutta stages, each a ghost-cell update of the level, coarse-fine
 * interpolation (finer levels), the inviscid fluxes of every local patch and the stage update;
 * then the next finer level is advanced `substeps` times (the refinement factor) and averaged
 * back. For three levels one coarse step processes L0, L1, L2, L2, L1, L2, L2.
 */
export const rk2Component: ComponentType<Rk2Prepared> = {
  name: "RK2",
  summary: "recursive level sequence (L0, L1, L2, L2, L1, L2, L2): ghost update, fluxes per patch, stage update",
  params: [
    { name: "stages", type: "integer", doc: "Runge-Kutta stages per level step (2 for RK2).", default: 2, min: 1 },
    { name: "substeps", type: "integer", doc: "Steps of a finer level per step of its parent (the refinement factor).", default: 2, min: 1 },
    { name: "update", ...WORK_MAP, doc: `Per-double work of a stage update; default ${JSON.stringify(RK2_UPDATE)} (calibrated).`, optional: true },
  ],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "RK2");
    return {
      stages: numberParam(env, p.stages, "stages", { min: 1, integer: true, fallback: 2 }),
      substeps: numberParam(env, p.substeps, "substeps", { min: 1, integer: true, fallback: 2 }),
      update: workParam(env, p.update, "update", RK2_UPDATE),
    };
  },
  ports() {
    return { provides: { advance: ADVANCE_PORT }, uses: { mesh: MESH_PORT, ghost: GHOST_PORT, inviscid: INVISCID_PORT } };
  },
  create(ctx, d) {
    const mesh = ctx.uses("mesh");
    const ghost = ctx.uses("ghost");
    const inviscid = ctx.uses("inviscid");
    const update = kernelFor(d.update);

    // The level sequence of one step of `level`, flattened once per level count: entry l >= 0
    // advances level l by one of its steps, entry -1 - l restricts level l onto l - 1.
    // Why flat: a recursive generator would add a resume frame per level to every event below it.
    const plans = new Map<string, Int32Array>();
    const planOf = (level: number, levels: number): Int32Array => {
      const key = `${level}/${levels}`;
      let plan = plans.get(key);
      if (plan) return plan;
      const ops: number[] = [];
      const walk = (l: number): void => {
        ops.push(l);
        if (l + 1 < levels) {
          for (let k = 0; k < d.substeps; k++) walk(l + 1);
          ops.push(-1 - (l + 1));
        }
      };
      walk(level);
      plans.set(key, (plan = Int32Array.from(ops)));
      return plan;
    };
    return {
      provides: {
        advance: {
          *advance(args) {
            const top = Number(args.level ?? 0);
            const first = (yield* mesh.call("patches", { level: top })) as LevelPatches;
            const plan = planOf(top, first.levels);
            for (let i = 0; i < plan.length; i++) {
              const level = plan[i];
              if (level < 0) {
                yield* mesh.call("restrict", { level: -1 - level });
                continue;
              }
              for (let s = 0; s < d.stages; s++) {
                const got = (yield* mesh.call("patches", { level })) as LevelPatches;
                yield* ghost.call("ghostUpdate", { level, epoch: got.epoch });
                if (level > 0) yield* mesh.call("prolong", { level });
                for (const p of got.patches) {
                  yield* inviscid.call("compute", { field: p.field, result: p.field });
                  update.elements = p.doubles;
                  yield ctx.compute(update);
                }
              }
            }
            return top;
          },
        },
      },
    };
  },
};
