import { ghostExchange, haloPlan, type BlockDecomposition, type Comm, type HaloPlan } from "../../machine/index.js";
import { checkKeys } from "../documented-params.js";
import type { ComponentType } from "../component.js";
import type { PortType } from "../ports.js";
import { ScenarioValueError } from "./scenario-value-error.js";

interface HaloPrepared {
  readonly ranks: readonly number[] | undefined;
  readonly patchCells: readonly number[];
  readonly ghostWidth: number;
  readonly bytesPerCell: number;
  readonly periodic: boolean;
  readonly corners: boolean;
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
    { name: "ranks", type: "list", doc: "Rank grid, e.g. [4, 4]; default: the most square 2-D grid of all ranks.", optional: true },
    { name: "patchCells", type: "list", doc: "Cells per rank along each dimension, e.g. [128, 128].", default: [64, 64] },
    { name: "ghostWidth", type: "integer", doc: "Halo width in cells.", default: 2, min: 1 },
    { name: "bytesPerCell", type: "integer", doc: "Bytes per cell (all state variables).", default: 32, min: 1 },
    { name: "periodic", type: "boolean", doc: "Periodic boundaries.", default: false },
    { name: "corners", type: "boolean", doc: "Exchange edge and corner strips too.", default: true },
  ],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "a halo-exchange component");
    const ints = (key: string, v: unknown): number[] => {
      if (!Array.isArray(v) || v.length < 2 || v.length > 3 || !v.every((x) => Number.isInteger(x) && x > 0))
        env.error(key, "must be a list of 2 or 3 positive integers");
      return v as number[];
    };
    const patchCells = ints("patchCells", p.patchCells ?? [64, 64]);
    const ranks = p.ranks === undefined ? undefined : ints("ranks", p.ranks);
    if (ranks && ranks.length !== patchCells.length) env.error("ranks", `has ${ranks.length} dimensions but patchCells has ${patchCells.length}`);
    const num = (key: string, dflt: number): number => {
      const v = p[key] ?? dflt;
      if (!Number.isInteger(v) || (v as number) < 1) env.error(key, "must be a positive integer");
      return v as number;
    };
    const ghostWidth = num("ghostWidth", 2);
    patchCells.forEach((cells, i) => {
      if (ghostWidth > cells) env.error("ghostWidth", `${ghostWidth} exceeds the patch extent ${cells} along dimension ${i} (patchCells[${i}])`);
    });
    return {
      ranks,
      patchCells,
      ghostWidth,
      bytesPerCell: num("bytesPerCell", 32),
      periodic: p.periodic === true,
      corners: p.corners !== false,
    };
  },
  ports() {
    return { provides: { halo: HALO_PORT }, uses: {} };
  },
  create(ctx, d) {
    const comm = ctx.mpi as Comm | undefined;
    if (!comm) throw new ScenarioValueError(`${ctx.instance}: a halo exchange needs an MPI world (a network)`);
    const grid = d.ranks ?? squareGrid(ctx.size, d.patchCells.length);
    // Every rank of the run owns one block: a grid of another size leaves ranks outside it or names peers that do not exist.
    const gridRanks = grid.reduce((a, b) => a * b, 1);
    if (gridRanks !== ctx.size)
      throw new ScenarioValueError(`${ctx.instance}: ranks [${grid.join(", ")}] is a grid of ${gridRanks} ranks, but the run has ${ctx.size} (machine.nodes x machine.processesPerNode)`);
    const decomposition: BlockDecomposition = {
      ranks: grid,
      patchCells: d.patchCells,
      ghostWidth: d.ghostWidth,
      bytesPerCell: d.bytesPerCell,
      periodic: d.periodic,
      corners: d.corners,
    };
    const inst: HaloInstance = { comm, rank: ctx.rank, decomposition, plan: undefined };
    return { provides: { halo: { exchange: () => exchangeHalo(inst) } } };
  },
};

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
