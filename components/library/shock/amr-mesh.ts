import type { ComponentContext, ComponentType, PrepareEnv } from "../../component.js";
import type { ParamValueDoc, Simulation } from "../../../engine/index.js";
import type { Comm, KernelSpec } from "../../../machine/index.js";
import { buildHierarchy, DOUBLE, type Balancer, type Front, type Hierarchy, type LevelSizes, type MeshSpec, type RankPlan } from "./hierarchy.js";
import { GHOST_PORT, MESH_PORT } from "./ports.js";
import { checkKeys } from "../../documented-params.js";
import { kernelFor, numberParam, rangeParam, workloadNumber, type ElementWork, type WorkloadNumber } from "./params.js";
import { ScenarioValueError } from "../scenario-value-error.js";

/** Prepared AMRMesh parameters (the mesh description; workload-dependent numbers resolved per run). */
export interface AmrMeshPrepared {
  readonly width: number;
  readonly height: number;
  readonly levels: number;
  readonly variables: WorkloadNumber;
  readonly haloWidth: WorkloadNumber;
  readonly patchSizes: readonly LevelSizes[];
  readonly bands: readonly number[];
  readonly fronts: readonly Front[];
  readonly balancer: Balancer;
}

/** Calibrated (not measured) work of the mesh's own kernels, per double. */
const COPY: ElementWork = { loads: 1, stores: 1, flops: 0, otherInstructions: 1, arrays: 2, passes: 1, fmaFraction: 0 };
const PROLONG: ElementWork = { loads: 6, stores: 1, flops: 8, otherInstructions: 6, arrays: 2, passes: 1, fmaFraction: 0 };
const RESTRICT: ElementWork = { loads: 2, stores: 1, flops: 2, otherInstructions: 2, arrays: 2, passes: 1, fmaFraction: 0 };
const FLAG: ElementWork = { loads: 6, stores: 1, flops: 10, otherInstructions: 8, arrays: 2, passes: 1, fmaFraction: 0 };

const KEYS = ["domain", "levels", "variables", "haloWidth", "patchSizes", "bands", "fronts", "balancer"];
/** An extent range of a patch size, [min, max] in cells (as {@link rangeParam} reads it). */
const RANGE: ParamValueDoc = { type: "list", items: { type: "integer", min: 1 }, minItems: 2, maxItems: 2 };

/** What each item of `patchSizes` is (as {@link readSizes} reads it). */
const PATCH_SIZE_ITEM: ParamValueDoc = {
  type: "map",
  fields: [
    { name: "width", ...RANGE, doc: "[min, max] width of the level's patches, in its cells." },
    { name: "height", ...RANGE, doc: "[min, max] height of the level's patches, in its cells." },
  ],
};

const PATCH_SIZE_KEYS = (PATCH_SIZE_ITEM.fields ?? []).map((f) => f.name);

/** What each item of `fronts` is (as {@link readFronts} reads it; x at most the domain's width, checked there). */
const FRONT_ITEM: ParamValueDoc = {
  type: "map",
  fields: [
    { name: "name", type: "string", doc: "The front's name (default front<i>).", optional: true },
    { name: "x", type: "number", min: 0, doc: "Position at step 0, in level-0 cells from the left boundary (at most the domain's width)." },
    { name: "speed", type: "number", doc: "Level-0 cells per coarse step.", default: 0 },
    { name: "amplitude", type: "number", min: 0, doc: "Amplitude of the front's perturbation along y, in level-0 cells (0: planar).", default: 0 },
    { name: "waves", type: "number", min: 0, doc: "Perturbation wavelengths over the domain's height.", default: 1 },
  ],
};

const FRONT_KEYS = (FRONT_ITEM.fields ?? []).map((f) => f.name);

// Every rank builds the same hierarchy: build it once per simulation and share it
// (why: a 256-rank run would otherwise tile and plan the same levels 256 times).
const shared = new WeakMap<Simulation, Map<AmrMeshPrepared, Hierarchy[]>>();

function hierarchyOf(ctx: ComponentContext, d: AmrMeshPrepared, spec: MeshSpec, epoch: number, step: number): Hierarchy {
  let bySpec = shared.get(ctx.sim);
  if (!bySpec) shared.set(ctx.sim, (bySpec = new Map()));
  let list = bySpec.get(d);
  if (!list) bySpec.set(d, (list = []));
  if (!list[epoch]) {
    if (epoch > 0 && !list[epoch - 1]) throw new Error(`${ctx.instance}: hierarchy ${epoch - 1} was never built`);
    list[epoch] = buildHierarchy(spec, ctx.size, ctx.sim.seed, epoch, step, epoch > 0 ? list[epoch - 1] : undefined);
  } else if (list[epoch].step !== step) throw new Error(`${ctx.instance}: rank ${ctx.rank} regrids at step ${step}, another rank did at step ${list[epoch].step}`);
  return list[epoch];
}

/** What a list parameter holds, for a message: `2 entries`, or the value when it is no list. */
function listed(raw: unknown): string {
  return Array.isArray(raw) ? `${raw.length} ${raw.length === 1 ? "entry" : "entries"}` : JSON.stringify(raw);
}

function readSizes(env: PrepareEnv, raw: unknown, levels: number): LevelSizes[] {
  if (!Array.isArray(raw) || raw.length !== levels) return env.error("patchSizes", `must list ${levels} entries (one per level of levels: ${levels}) of {width: [min, max], height: [min, max]}, got ${listed(raw)}`);
  return raw.map((e, l) => {
    if (typeof e !== "object" || e === null || Array.isArray(e)) return env.error(`patchSizes[${l}]`, "must be {width: [min, max], height: [min, max]}");
    checkKeys(env, e as Record<string, unknown>, PATCH_SIZE_KEYS, "a patch size", `patchSizes[${l}].`);
    const r = e as Record<string, unknown>;
    return { width: rangeParam(env, r.width, `patchSizes[${l}].width`), height: rangeParam(env, r.height, `patchSizes[${l}].height`) };
  });
}

function readFronts(env: PrepareEnv, raw: unknown, width: number): Front[] {
  if (!Array.isArray(raw) || raw.length === 0) return env.error("fronts", "must list at least one front {name, x, speed, amplitude?, waves?}");
  return raw.map((e, i) => {
    const where = `fronts[${i}]`;
    if (typeof e !== "object" || e === null || Array.isArray(e)) return env.error(where, "must be {name, x, speed, amplitude?, waves?}");
    const f = e as Record<string, unknown>;
    checkKeys(env, f, FRONT_KEYS, "a front", `${where}.`);
    // A number or an empty value would be replaced by the default name without a word.
    if (f.name !== undefined && typeof f.name !== "string") env.error(`${where}.name`, `must be text (a name such as shock), got ${JSON.stringify(f.name)}`);
    return {
      name: f.name ?? `front${i}`,
      x: numberParam(env, f.x, `${where}.x`, { min: 0, max: width }),
      speed: numberParam(env, f.speed, `${where}.speed`, { fallback: 0 }),
      amplitude: numberParam(env, f.amplitude, `${where}.amplitude`, { min: 0, fallback: 0 }),
      waves: numberParam(env, f.waves, `${where}.waves`, { min: 0, fallback: 1 }),
    };
  });
}

/**
 * AMRMesh (paper 000 section 5): the structured AMR patch hierarchy. Level 0 covers the domain;
 * each finer level (refinement factor 2) covers bands around the moving fronts (the shock and the
 * interface); every level is tiled into patches of any size and aspect ratio, drawn from the
 * level's size ranges, and dealt out to ranks by a load balancer (cells per rank, along a
 * space-filling curve by default).
 *
 * - `ghostUpdate(level, epoch)`: halo exchange of a level: one message per pair of abutting
 *   patches on different ranks, of the true halo size (overlap cells x variables x 8 bytes),
 *   posted as MPI_Irecv/MPI_Isend and completed with MPI_Waitsome; halos between patches of the
 *   same rank are memory copies.
 * - `regrid(step)`: flags cells, re-tiles the whole hierarchy around the fronts' new positions
 *   (a new domain decomposition), re-balances, and migrates patch data to the new owners with
 *   MPI_Irecv/MPI_Isend/MPI_Waitsome.
 * - `patches(level)`, `prolong(level)`, `restrict(level)`: the patches of this rank, coarse-fine
 *   interpolation and fine-to-coarse averaging (local computation).
 *
 * The tiling is drawn from the scenario seed, so every rank agrees on the global hierarchy.
 */
export const amrMeshComponent: ComponentType<AmrMeshPrepared> = {
  name: "AMRMesh",
  summary: "patch hierarchy: levels, moving refined bands, load balancing, ghost updates (MPI_Waitsome), regridding",
  params: [
    { name: "domain", type: "list", items: { type: "integer", min: 1 }, minItems: 2, maxItems: 2, doc: "[width, height] of the domain in level-0 cells.", default: [480, 160] },
    { name: "levels", type: "integer", doc: "Number of levels (refinement factor 2 between levels).", default: 3, min: 1, max: 8 },
    { name: "variables", type: "expression", doc: "Doubles per cell (state variables, interleaved per cell); may use workload variables.", default: 5 },
    { name: "haloWidth", type: "expression", doc: "Ghost-cell halo width in cells; may use workload variables.", default: 2 },
    { name: "patchSizes", type: "list", items: PATCH_SIZE_ITEM, doc: "Per level: {width: [min, max], height: [min, max]} in that level's cells; extents are drawn log-uniformly." },
    { name: "bands", type: "list", items: { type: "number", min: 0 }, doc: "Per refined level: half-width of the band refined around each front, in level-0 cells (levels - 1 of them; required unless levels is 1).", optional: true },
    { name: "fronts", type: "list", items: FRONT_ITEM, minItems: 1, doc: "Moving fronts the refinement follows: list of {name, x, speed, amplitude, waves} in level-0 cells and cells per coarse step." },
    {
      name: "balancer",
      type: "enum",
      values: ["sfc", "greedy", "composite"],
      doc:
        "Load balancer: `sfc` cuts each level's Morton-ordered patches into runs of equal cells (locality, granularity-limited balance); " +
        "`greedy` deals each level's largest patches first to the least-loaded rank; `composite` (GrACE-style) gives each rank whole columns " +
        "of the hierarchy: level-0 patches with the finer patches over them, balanced by total work, not level by level.",
      default: "sfc",
    },
  ],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "AMRMesh");
    const domain = p.domain ?? [480, 160];
    if (!Array.isArray(domain) || domain.length !== 2) env.error("domain", `must be [width, height] in level-0 cells, got ${JSON.stringify(domain)}`);
    const width = numberParam(env, (domain as unknown[])[0], "domain[0]", { min: 1, integer: true });
    const height = numberParam(env, (domain as unknown[])[1], "domain[1]", { min: 1, integer: true });
    const levels = numberParam(env, p.levels, "levels", { min: 1, max: 8, integer: true, fallback: 3 });
    const bandsRaw = p.bands ?? [];
    if (!Array.isArray(bandsRaw) || bandsRaw.length !== levels - 1) env.error("bands", `must list ${levels - 1} half-widths (one per refined level of levels: ${levels}), got ${listed(bandsRaw)}`);
    const bands = (bandsRaw as unknown[]).map((b, i) => numberParam(env, b, `bands[${i}]`, { min: 0 }));
    return {
      width,
      height,
      levels,
      variables: workloadNumber(env, p.variables, "variables", 5, { min: 1, integer: true }),
      haloWidth: workloadNumber(env, p.haloWidth, "haloWidth", 2, { min: 1, integer: true }),
      patchSizes: readSizes(env, p.patchSizes, levels),
      bands,
      fronts: readFronts(env, p.fronts, width),
      balancer: p.balancer === undefined ? "sfc" : p.balancer === "sfc" || p.balancer === "greedy" || p.balancer === "composite" ? p.balancer : env.error("balancer", `must be sfc, greedy or composite, got ${JSON.stringify(p.balancer)}`),
    };
  },
  ports() {
    return { provides: { mesh: MESH_PORT, ghost: GHOST_PORT }, uses: {} };
  },
  create(ctx, d) {
    const spec: MeshSpec = {
      width: d.width,
      height: d.height,
      levels: d.levels,
      variables: d.variables(ctx.workloadNumbers, ctx.instance),
      haloWidth: d.haloWidth(ctx.workloadNumbers, ctx.instance),
      patchSizes: d.patchSizes,
      bands: d.bands,
      fronts: d.fronts,
      balancer: d.balancer,
    };
    const comm = ctx.mpi as Comm | undefined;
    const rank = ctx.rank;
    let current: Hierarchy | undefined;
    const hierarchy = (): Hierarchy => (current ??= hierarchyOf(ctx, d, spec, 0, 0));
    const copy = kernelFor(COPY);
    const prolongK = kernelFor(PROLONG);
    const restrictK = kernelFor(RESTRICT);
    const flagK = kernelFor(FLAG);

    function* run(kernel: KernelSpec, doubles: number) {
      if (doubles <= 0) return;
      kernel.elements = Math.round(doubles);
      yield ctx.compute(kernel);
    }

    /** Posts every receive, then every send, then completes them with MPI_Waitsome. */
    function* exchange(plan: RankPlan) {
      yield* run(copy, plan.localCopyBytes / DOUBLE);
      const n = plan.recv.length + plan.send.length;
      if (n === 0 || !comm) return 0;
      const reqs: number[] = new Array(n);
      let k = 0;
      for (const m of plan.recv) reqs[k++] = comm.irecv(m.peer, m.tag, m.bytes);
      for (const m of plan.send) reqs[k++] = yield* comm.isend(m.peer, m.tag, m.bytes);
      let left = n;
      let calls = 0;
      while (left > 0) {
        const done = yield* comm.waitsome(reqs);
        left -= done.length;
        calls++;
      }
      return calls;
    }

    function level(l: unknown, who: string): number {
      const v = Number(l);
      if (!Number.isInteger(v) || v < 0 || v >= spec.levels) throw new ScenarioValueError(`${ctx.instance}.${who}: level ${String(l)} is outside [0, ${spec.levels})`);
      return v;
    }

    return {
      provides: {
        mesh: {
          *patches(args) {
            const h = hierarchy();
            return { epoch: h.epoch, levels: spec.levels, variables: spec.variables, patches: h.levels[level(args.level, "patches")].local[rank] };
          },
          *prolong(args) {
            const l = level(args.level, "prolong");
            if (l === 0) return 0;
            for (const p of hierarchy().levels[l].local[rank]) yield* run(prolongK, p.boundaryGhostCells * spec.variables);
            return l;
          },
          *restrict(args) {
            const l = level(args.level, "restrict");
            if (l === 0) return 0;
            for (const p of hierarchy().levels[l].local[rank]) yield* run(restrictK, p.doubles);
            return l;
          },
          *regrid(args) {
            const step = Number(args.step);
            const old = hierarchy();
            // Flag cells for refinement on every patch of this rank.
            for (const lv of old.levels) for (const p of lv.local[rank]) yield* run(flagK, p.doubles);
            current = hierarchyOf(ctx, d, spec, old.epoch + 1, step);
            return yield* exchange(current.migration[rank]);
          },
        },
        ghost: {
          *ghostUpdate(args) {
            const l = level(args.level, "ghostUpdate");
            const h = hierarchy();
            if (args.epoch !== undefined && Number(args.epoch) !== h.epoch)
              throw new Error(`${ctx.instance}.ghostUpdate: called for hierarchy ${String(args.epoch)}, the mesh is at ${h.epoch}`);
            return yield* exchange(h.levels[l].ghost[rank]);
          },
        },
      },
    };
  },
};
