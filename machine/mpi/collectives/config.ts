import { nearestName, type ParamDoc } from "../../../engine/index.js";
import { validateParams } from "../../network/config.js";
import { COLLECTIVES, collectiveAlgorithms, isPow2, pof2, type CollectiveAlgorithm, type CollectiveName } from "./algorithm.js";
import "./barrier.js";
import "./bcast.js";
import "./reduce.js";
import "./allreduce.js";
import "./allgather.js";
import "./alltoall.js";

/**
 * Parameters of collective selection. Thresholds are MPICH 3.x defaults (the `MPIR_CVAR_*`
 * control variables in `src/mpi/coll/*.c`).
 */
export const collectiveParams: readonly ParamDoc[] = [
  { name: "bcastShortMsg", type: "quantity", dimension: "bytes", doc: "Bcast: below this size, or below bcastMinProcs ranks, use the binomial tree (MPIR_CVAR_BCAST_SHORT_MSG_SIZE).", default: 12288, min: 0 },
  { name: "bcastLongMsg", type: "quantity", dimension: "bytes", doc: "Bcast: from this size on, scatter + ring allgather; between short and long, scatter + recursive doubling on power-of-two p (MPIR_CVAR_BCAST_LONG_MSG_SIZE).", default: 524288, min: 0 },
  { name: "bcastMinProcs", type: "integer", doc: "Bcast: fewer ranks than this always use the binomial tree (MPIR_CVAR_BCAST_MIN_PROCS).", default: 8, min: 0 },
  { name: "allreduceShortMsg", type: "quantity", dimension: "bytes", doc: "Allreduce: up to this size (or fewer elements than the largest power of two <= p), recursive doubling; above, Rabenseifner (MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE).", default: 2048, min: 0 },
  { name: "reduceShortMsg", type: "quantity", dimension: "bytes", doc: "Reduce: up to this size (or fewer elements than the largest power of two <= p), binomial tree; above, Rabenseifner's reduce-scatter + gather (MPIR_CVAR_REDUCE_SHORT_MSG_SIZE).", default: 2048, min: 0 },
  { name: "allgatherShortMsg", type: "quantity", dimension: "bytes", doc: "Allgather: total size (n*p) below which Bruck is used on non-power-of-two p (MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE).", default: 81920, min: 0 },
  { name: "allgatherLongMsg", type: "quantity", dimension: "bytes", doc: "Allgather: total size below which recursive doubling is used on power-of-two p; otherwise ring (MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE).", default: 524288, min: 0 },
  { name: "alltoallShortMsg", type: "quantity", dimension: "bytes", doc: "Alltoall: up to this size per pair and at least 8 ranks, Bruck (MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE).", default: 256, min: 0 },
  { name: "alltoallMediumMsg", type: "quantity", dimension: "bytes", doc: "Alltoall: up to this size per pair, scattered isend/irecv; above, pairwise exchange (MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE).", default: 32768, min: 0 },
  { name: "alltoallThrottle", type: "integer", doc: "Alltoall scattered: pairs posted at a time (MPIR_CVAR_ALLTOALL_THROTTLE).", default: 32, min: 1 },
  { name: "reduceCostPerByte", type: "quantity", dimension: "time", doc: "gamma: time to combine one byte in a reduction (us/byte); 0.001 us/byte = 1 ns/byte, about one double-precision add per 8 bytes at 1 GFlop/s (an assumption).", default: 0.001, min: 0 },
  { name: "elementBytes", type: "quantity", dimension: "bytes", doc: "Size of one reduction element (chunk boundaries in Rabenseifner and ring fall on whole elements).", default: 8, min: 1 },
];

/**
 * How a scenario chooses collective algorithms: `"auto"` (default) selects like MPICH by message
 * size and process count; a name forces that algorithm.
 *
 * ```ts
 * { algorithms: { allreduce: "ring", bcast: "auto" }, params: { reduceCostPerByte: 0.0005 } }
 * ```
 */
export interface CollectiveSpec {
  /** Per collective: `"auto"` or a registered algorithm name. */
  readonly algorithms?: Partial<Record<CollectiveName, string>>;
  /** Thresholds and costs; see {@link collectiveParams}. */
  readonly params?: Readonly<Record<string, number>>;
}

/** The algorithm name of {@link CollectiveSpec.algorithms} that selects by message size and process count, as MPICH does. */
export const AUTO_ALGORITHM = "auto";

/** The keys of a {@link CollectiveSpec}. */
export const COLLECTIVE_SPEC_KEYS = ["algorithms", "params"] as const;

/**
 * A collective configuration that cannot be used; `key` is the dotted path of the offending entry
 * below `collectives` (empty for the section itself).
 */
export class CollectiveConfigError extends Error {
  readonly isInputError = true;
  /** @param problem - what is wrong with the key, without it (the message names it first) */
  constructor(readonly key: string, readonly problem: string) {
    super(`${key ? `collectives.${key}` : "collectives"}: ${problem}`);
    this.name = "CollectiveConfigError";
  }
}

/** Resolved collective configuration; {@link choose} picks the algorithm of one call. */
export class ResolvedCollectives {
  readonly reduceCostPerByte: number;
  readonly elementBytes: number;
  readonly alltoallThrottle: number;
  private readonly forced = new Map<CollectiveName, CollectiveAlgorithm>();
  private readonly byName = new Map<string, CollectiveAlgorithm>();

  constructor(readonly params: Readonly<Record<string, number>>, forced: Partial<Record<CollectiveName, string>>) {
    this.reduceCostPerByte = params.reduceCostPerByte;
    this.elementBytes = params.elementBytes;
    this.alltoallThrottle = params.alltoallThrottle;
    for (const [coll, name] of Object.entries(forced) as [CollectiveName, string][]) {
      if (!COLLECTIVES.includes(coll)) {
        const near = nearestName(coll, COLLECTIVES);
        throw new CollectiveConfigError(`algorithms.${coll}`, `unknown collective${near ? ` (did you mean '${near}'?)` : ""}; known: ${COLLECTIVES.join(", ")}`);
      }
      if (typeof name !== "string") throw new CollectiveConfigError(`algorithms.${coll}`, `must be an algorithm name or auto, got ${JSON.stringify(name)}`);
      if (name === AUTO_ALGORITHM) continue;
      try {
        this.forced.set(coll, collectiveAlgorithms[coll].get(name));
      } catch (e) {
        throw new CollectiveConfigError(`algorithms.${coll}`, (e as Error).message);
      }
    }
  }

  /**
   * The algorithm for `collective` on `p` ranks with message size `bytes`.
   * @throws CollectiveConfigError when a forced algorithm cannot run on p ranks
   */
  choose(collective: CollectiveName, p: number, bytes: number): CollectiveAlgorithm {
    const f = this.forced.get(collective);
    if (f !== undefined) {
      if (f.supports !== undefined && !f.supports(p)) throw unsupported(collective, f, p);
      return f;
    }
    return this.get(collective, this.autoName(collective, p, bytes));
  }

  /**
   * Checks that every forced algorithm can run on a communicator of `p` ranks (a run's world), so
   * that a choice that cannot is refused before the run rather than at the collective's first call.
   * @throws CollectiveConfigError naming the first forced algorithm that cannot
   */
  checkRanks(p: number): void {
    for (const [collective, f] of this.forced) if (f.supports !== undefined && !f.supports(p)) throw unsupported(collective, f, p);
  }

  /** The name MPICH's selection logic gives for this call. */
  autoName(collective: CollectiveName, p: number, bytes: number): string {
    const q = this.params;
    switch (collective) {
      case "barrier":
        return "dissemination";
      case "bcast":
        if (bytes < q.bcastShortMsg || p < q.bcastMinProcs) return "binomial";
        if (bytes < q.bcastLongMsg && isPow2(p)) return "scatter_recursive_doubling_allgather";
        return "scatter_ring_allgather";
      case "reduce":
        return bytes <= q.reduceShortMsg || Math.floor(bytes / this.elementBytes) < pof2(p) ? "binomial" : "reduce_scatter_gather";
      case "allreduce":
        return bytes <= q.allreduceShortMsg || Math.floor(bytes / this.elementBytes) < pof2(p) ? "recursive_doubling" : "rabenseifner";
      case "allgather": {
        const total = bytes * p;
        if (total < q.allgatherLongMsg && isPow2(p)) return "recursive_doubling";
        if (total < q.allgatherShortMsg) return "bruck";
        return "ring";
      }
      case "alltoall":
        if (bytes <= q.alltoallShortMsg && p >= 8) return "bruck";
        if (bytes <= q.alltoallMediumMsg) return "scattered";
        return "pairwise";
    }
  }

  private get(collective: CollectiveName, name: string): CollectiveAlgorithm {
    const key = `${collective}:${name}`;
    let a = this.byName.get(key);
    if (a === undefined) this.byName.set(key, (a = collectiveAlgorithms[collective].get(name)));
    return a;
  }
}

function unsupported(collective: CollectiveName, f: CollectiveAlgorithm, p: number): CollectiveConfigError {
  const needs = f.requires ? ` (it needs ${f.requires})` : "";
  return new CollectiveConfigError(`algorithms.${collective}`, `algorithm '${f.name}' cannot run on ${p} ranks${needs}; auto chooses one that can`);
}

/**
 * Validates a {@link CollectiveSpec} and fills defaults.
 * @throws CollectiveConfigError naming the offending key
 */
export function resolveCollectives(spec: CollectiveSpec | null = {}): ResolvedCollectives {
  spec ??= {};
  // A value that is not a map (`collectives: ring`, `params: 5`) would be read by index or ignored.
  if (typeof spec !== "object" || Array.isArray(spec)) throw new CollectiveConfigError("", `must be a map { algorithms, params }, got ${JSON.stringify(spec)}`);
  for (const [k, what] of [["algorithms", "collective to algorithm name (e.g. { allreduce: ring })"], ["params", "parameters (e.g. { allreduceShortMsg: 4KiB })"]] as const) {
    const v = spec[k];
    if (v !== undefined && v !== null && (typeof v !== "object" || Array.isArray(v))) throw new CollectiveConfigError(k, `must be a map of ${what}, got ${JSON.stringify(v)}`);
  }
  const known: readonly string[] = COLLECTIVE_SPEC_KEYS;
  for (const k of Object.keys(spec)) if (!known.includes(k)) throw new CollectiveConfigError(k, `unknown key; known: ${known.join(", ")}`);
  let params: Record<string, number>;
  try {
    params = validateParams("params", collectiveParams, spec.params);
  } catch (e) {
    throw new CollectiveConfigError(((e as { key?: string }).key ?? "params").replace(/^network\./, ""), (e as Error).message.replace(/^network\.[^:]*: /, ""));
  }
  return new ResolvedCollectives(params, spec.algorithms ?? {});
}
