import { faceNeighbours, ghostExchange, haloPlan, type BlockDecomposition, type Comm, type HaloPlan } from "../../machine/index.js";
import { checkKeys } from "../documented-params.js";
import type { ComponentType } from "../component.js";
import type { PortType } from "../ports.js";
import { newScope, RANK_NAMES, scopeLayout } from "./calls.js";
import { workloadConstant } from "./counts.js";
import { ScenarioValueError } from "./scenario-value-error.js";
import { collectProblem, reportProblems } from "./problems.js";

/** A whole-number size: a literal, or an expression of the workload (and rank, size) evaluated per rank. */
type Extent = number | ((scope: ArrayLike<number>) => number);

interface HaloPrepared {
  readonly ranks: readonly number[] | undefined;
  readonly patchCells: readonly Extent[];
  readonly ghostWidth: Extent;
  readonly bytesPerCell: Extent;
  readonly periodic: boolean;
  readonly corners: boolean;
  /** Scope of the expressions: workload numbers, rank, size. */
  readonly scopeNames: readonly string[];
}

/** The port type halo-exchange components provide. */
export const HALO_PORT: PortType = { name: "Halo", methods: [{ name: "exchange", args: [] }] };

const KEYS = ["ranks", "patchCells", "ghostWidth", "bytesPerCell", "periodic", "corners"];

/**
 * A ghost-cell exchange over a 2-D or 3-D block decomposition (one block of `patchCells` cells per
 * rank): each call posts the receives and sends of every halo strip of width `ghostWidth` with
 * its true size and waits with MPI_Waitsome, as a structured-mesh component does every step.
 */
export const haloExchangeComponent: ComponentType<HaloPrepared> = {
  name: "halo-exchange",
  summary: "ghost-cell exchange on a 2-D/3-D block decomposition (isend/irecv, MPI_Waitsome); provides port `halo` (type Halo, method exchange, no arguments)",
  params: [
    { name: "ranks", type: "list", items: { type: "integer", min: 1 }, minItems: 2, maxItems: 3, doc: "Rank grid, e.g. [4, 4]; default: the most square grid of all ranks with as many dimensions as patchCells (2-D for the default patchCells).", optional: true },
    { name: "patchCells", type: "list", items: { type: "expression", doc: "Cells along one dimension: an integer >= 1 or an expression of the workload." }, minItems: 2, maxItems: 3, doc: "Cells per rank along each dimension, e.g. [128, 128] or [N, N] (integers or expressions of the workload).", default: [64, 64] },
    { name: "ghostWidth", type: "expression", doc: "Halo width in cells (an integer >= 1, or an expression of the workload).", default: 2 },
    { name: "bytesPerCell", type: "expression", doc: "Bytes per cell, all state variables (an integer >= 1, or an expression of the workload).", default: 32 },
    { name: "periodic", type: "boolean", doc: "Periodic boundaries.", default: false },
    { name: "corners", type: "boolean", doc: "Exchange edge and corner strips too.", default: true },
  ],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "a halo-exchange component");
    const scopeNames = scopeLayout([], env.workloadNames);
    // Each parameter's problem is reported, not only the first (when the scenario can combine them).
    const problems: unknown[] = [];
    // The values known at load, by key: literals, and expressions of workload values alone.
    const known = new Map<string, number>();
    // A literal is checked here, and so is an expression whose value the workload alone decides
    // (`ccasim validate` reports it); one that reads the rank, when each rank evaluates it (see extentsOf).
    const extent = (key: string, v: unknown): Extent => {
      let out: Extent = 1;
      collectProblem(env, problems, () => {
        if (typeof v === "string") {
          const compiled = env.compile(v, scopeNames, key);
          out = compiled.bind(scopeNames);
          const atLoad = workloadConstant(env, compiled, RANK_NAMES, key);
          if (atLoad === undefined) return;
          const [value, note] = atLoad;
          if (!Number.isInteger(value) || value < 1) env.error(key, `evaluated to ${value}${note}; expected an integer >= 1`);
          known.set(key, value);
        } else if (!Number.isInteger(v) || (v as number) < 1) env.error(key, `must be a positive integer or an expression of the workload, got ${JSON.stringify(v)}`);
        else known.set(key, (out = v as number));
      });
      return out;
    };
    const list = (key: string, v: unknown): unknown[] => {
      if (!Array.isArray(v) || v.length < 2 || v.length > 3) env.error(key, "must be a list of 2 or 3 extents");
      return v as unknown[];
    };
    const patchCells = list("patchCells", p.patchCells ?? [64, 64]).map((v, i) => extent(`patchCells[${i}]`, v));
    // The rank grid is a literal: it must fit the run's ranks, checked here when the scenario's
    // machine gives them (env.ranks), else when the run starts.
    const ranks = p.ranks === undefined ? undefined : (list("ranks", p.ranks) as number[]);
    if (ranks && !ranks.every((r) => Number.isInteger(r) && r > 0)) env.error("ranks", "must be a list of 2 or 3 positive integers");
    if (ranks && ranks.length !== patchCells.length) env.error("ranks", `has ${ranks.length} dimensions but patchCells has ${patchCells.length}`);
    const ghostWidth = extent("ghostWidth", p.ghostWidth ?? 2);
    const width = known.get("ghostWidth");
    if (width !== undefined && problems.length === 0)
      patchCells.forEach((_, i) => {
        const cells = known.get(`patchCells[${i}]`);
        if (cells !== undefined && width > cells) collectProblem(env, problems, () => env.error("ghostWidth", `${width} exceeds the patch extent ${cells} along dimension ${i} (patchCells[${i}])`));
      });
    const bytesPerCell = extent("bytesPerCell", p.bytesPerCell ?? 32);
    // (After the extents: a problem of theirs stops the halo-width check above, the grid's need not.)
    const gridRanks = env.ranks;
    if (ranks && gridRanks !== undefined) collectProblem(env, problems, () => {
      const problem = gridProblem(ranks, gridRanks);
      if (problem !== undefined) env.error("ranks", problem);
    });
    reportProblems(env, problems);
    return {
      ranks,
      patchCells,
      ghostWidth,
      bytesPerCell,
      periodic: p.periodic === true,
      corners: p.corners !== false,
      scopeNames,
    };
  },
  ports() {
    return { provides: { halo: HALO_PORT }, uses: {} };
  },
  create(ctx, d) {
    const comm = ctx.mpi as Comm | undefined;
    if (!comm) throw new ScenarioValueError(`${ctx.instance}: a halo exchange needs an MPI world (a network)`);
    const grid = d.ranks ?? squareGrid(ctx.size, d.patchCells.length);
    // (An assembly prepared without the run's ranks, in code, has its grid checked only here.)
    const problem = gridProblem(grid, ctx.size);
    // Only a grid given can differ (the default one is of the run's ranks): placed at its key.
    if (problem !== undefined) throw new ScenarioValueError(`${ctx.instance}: ranks ${problem}`, "ranks", problem);
    const scope = newScope(d.scopeNames, ctx);
    const own = extentsOf(d, scope, ctx.instance);
    const { patchCells, ghostWidth, bytesPerCell } = own;
    const decomposition: BlockDecomposition = { ranks: grid, patchCells, ghostWidth, bytesPerCell, periodic: d.periodic, corners: d.corners };
    checkNeighbourStrips(d, decomposition, own, scope, ctx.rank, ctx.instance);
    const inst: HaloInstance = { comm, rank: ctx.rank, decomposition, plan: undefined };
    return { provides: { halo: { exchange: () => exchangeHalo(inst) } } };
  },
};

/**
 * Why a rank grid does not fit a run of `size` ranks, or undefined when it does. Every rank of
 * the run owns one block: a grid of another size leaves ranks outside it or names peers that do
 * not exist.
 */
function gridProblem(grid: readonly number[], size: number): string | undefined {
  const gridRanks = grid.reduce((a, b) => a * b, 1);
  return gridRanks === size ? undefined : `[${grid.join(", ")}] is a grid of ${gridRanks} ranks, but the run has ${size} (machine.nodes x machine.processesPerNode)`;
}

/** A block's extents on one rank (cells, cells, bytes). */
interface BlockExtents {
  readonly patchCells: number[];
  readonly ghostWidth: number;
  readonly bytesPerCell: number;
}

/**
 * The block's extents on one rank: literals as given, expressions evaluated in `scope`; each a
 * whole number >= 1, and the halo no wider than the block.
 * @throws ScenarioValueError naming the instance and the key
 */
function extentsOf(d: HaloPrepared, scope: ArrayLike<number>, instance: string): BlockExtents {
  const value = (key: string, e: Extent): number => {
    const v = typeof e === "number" ? e : e(scope);
    const problem = `evaluated to ${v}; expected an integer >= 1`;
    if (!Number.isInteger(v) || v < 1) throw new ScenarioValueError(`${instance}: ${key} ${problem}`, key, problem);
    return v;
  };
  const patchCells = d.patchCells.map((e, i) => value(`patchCells[${i}]`, e));
  const ghostWidth = value("ghostWidth", d.ghostWidth);
  patchCells.forEach((cells, i) => {
    if (ghostWidth > cells) throw new ScenarioValueError(`${instance}: ghostWidth ${ghostWidth} exceeds the patch extent ${cells} along dimension ${i} (patchCells[${i}])`);
  });
  return { patchCells, ghostWidth, bytesPerCell: value("bytesPerCell", d.bytesPerCell) };
}

/**
 * Refuses extents that make a face's strips differ between the two blocks sharing it, when an
 * expression gives them (literals are the same on every rank): each side sends its own face and
 * receives the other's, so across dimension `i` both blocks need the same extents along the other
 * dimensions, the same halo width and the same bytes per cell. A block's extent along a dimension
 * may vary only with its position along that dimension. Why here: the exchange would otherwise
 * fail with a truncated message that names neither the component nor the key.
 * @throws ScenarioValueError naming the instance, the key, both ranks and both values
 */
function checkNeighbourStrips(d: HaloPrepared, decomposition: BlockDecomposition, own: BlockExtents, scope: Float64Array, rank: number, instance: string): void {
  if (typeof d.ghostWidth === "number" && typeof d.bytesPerCell === "number" && d.patchCells.every((e) => typeof e === "number")) return;
  const rankAt = d.scopeNames.indexOf("rank");
  const theirScope = Float64Array.from(scope);
  for (const { peer, dimension } of faceNeighbours(decomposition, rank)) {
    theirScope[rankAt] = peer;
    let theirs: BlockExtents;
    try {
      theirs = extentsOf(d, theirScope, instance);
    } catch (e) {
      // The neighbour's own extents are wrong: its own set-up reports them, as its own.
      if (e instanceof ScenarioValueError) continue;
      throw e;
    }
    const differs = (key: string, mine: number, other: number): void => {
      if (mine === other) return;
      const problem = `is ${mine} on rank ${rank} but ${other} on rank ${peer}, its neighbour across dimension ${dimension}: the strips of the face they share would differ in size (a block's extent along a dimension may vary only with its position along that dimension; the halo width and bytes per cell not at all)`;
      throw new ScenarioValueError(`${instance}: ${key} ${problem}`, key, problem);
    };
    own.patchCells.forEach((cells, j) => {
      if (j !== dimension) differs(`patchCells[${j}]`, cells, theirs.patchCells[j]!);
    });
    differs("ghostWidth", own.ghostWidth, theirs.ghostWidth);
    differs("bytesPerCell", own.bytesPerCell, theirs.bytesPerCell);
  }
}

/** One rank's instance of a halo exchange; the plan is made on first use. */
interface HaloInstance {
  readonly comm: Comm;
  readonly rank: number;
  readonly decomposition: BlockDecomposition;
  plan: HaloPlan | undefined;
}

// One generator function for all instances: see runDummy in dummy.ts.
function* exchangeHalo(inst: HaloInstance) {
  inst.plan ??= haloPlan(inst.decomposition, inst.rank);
  const stats = yield* ghostExchange(inst.comm, inst.plan);
  return stats;
}

/** The most square grid of `n` ranks in `dims` dimensions (largest factors first). */
export function squareGrid(n: number, dims: number): number[] {
  const out: number[] = [];
  let rest = n;
  for (let d = dims; d > 1; d--) {
    let f = Math.round(Math.pow(rest, 1 / d));
    while (f > 1 && rest % f !== 0) f--;
    f = Math.max(1, f);
    out.push(f);
    rest /= f;
  }
  out.push(rest);
  return out.sort((a, b) => b - a);
}
