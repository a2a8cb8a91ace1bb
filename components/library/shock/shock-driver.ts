import type { ComponentType } from "../../component.js";
import type { Comm } from "../../../machine/index.js";
import { GO_PORT } from "../driver.js";
import { ADVANCE_PORT, MESH_PORT } from "./ports.js";
import { checkKeys } from "../../documented-params.js";
import { workloadNumber, type WorkloadNumber } from "./params.js";

interface ShockDriverPrepared {
  readonly steps: WorkloadNumber;
  readonly regridInterval: WorkloadNumber;
}

const KEYS = ["steps", "regridInterval"];

/**
 * ShockDriver (paper 000 Figure 8): orchestrates the simulation. Each coarse step agrees on the
 * time step size (an 8-byte MPI_Allreduce of the CFL limit), then advances the hierarchy from
 * level 0; every `regridInterval` steps (from step `regridInterval` on) it first asks the mesh
 * to regrid, which moves the refined bands with the fronts and re-balances.
 */
export const shockDriverComponent: ComponentType<ShockDriverPrepared> = {
  name: "ShockDriver",
  summary: "time-step loop: CFL reduction, regrid every regridInterval steps, advance level 0",
  params: [
    { name: "steps", type: "expression", doc: "Coarse time steps (may use workload variables).", default: 10 },
    { name: "regridInterval", type: "expression", doc: "Coarse steps between regrids; 0 never regrids (may use workload variables).", default: 5 },
  ],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "ShockDriver");
    return {
      steps: workloadNumber(env, p.steps, "steps", 10, { min: 0, integer: true }),
      regridInterval: workloadNumber(env, p.regridInterval, "regridInterval", 5, { min: 0, integer: true }),
    };
  },
  ports() {
    return { provides: { go: GO_PORT }, uses: { advance: ADVANCE_PORT, mesh: MESH_PORT } };
  },
  create(ctx, d) {
    const steps = d.steps(ctx.workloadNumbers, ctx.instance);
    const interval = d.regridInterval(ctx.workloadNumbers, ctx.instance);
    const advance = ctx.uses("advance");
    const mesh = ctx.uses("mesh");
    const comm = ctx.mpi as Comm | undefined;
    return {
      provides: {
        go: {
          *go() {
            for (let step = 0; step < steps; step++) {
              if (interval > 0 && step > 0 && step % interval === 0) yield* mesh.call("regrid", { step });
              if (comm) yield* comm.allreduce(8);
              yield* advance.call("advance", { level: 0 });
            }
            return steps;
          },
        },
      },
    };
  },
};
