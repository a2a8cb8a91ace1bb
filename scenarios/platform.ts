import type { MpiCallObserver, MpiWorldHandle, Platform } from "../components/index.js";
import { CounterId, IDLE_STALL_COUNTERS, MpiWorld, createKernelCost, type CounterName, type KernelCost } from "../machine/index.js";
import type { MachineSetup } from "./machine-setup.js";

/**
 * Counters that advance with time at the clock rate (busy-waiting in MPI counts cycles too): the
 * only counters a program model, whose actions cost time only, can measure besides TIME.
 */
export const CYCLE_COUNTERS: readonly string[] = ["CPU_CYCLES", "PAPI_TOT_CYC"];

/**
 * The platform a run executes on: the node model prices compute kernels (time and counters), the
 * MPI world moves messages over the interconnect. Cycle counters are derived from time
 * (cycles = time x clock) so they stay consistent with TIME in every timer; stall cycles advance
 * at the clock rate outside kernels (see `IDLE_STALL_COUNTERS`), so stalls = cycles - issue-limited
 * cycles holds in every timer too, MPI calls included.
 */
export function buildPlatform(setup: MachineSetup): Platform {
  const cluster = setup.cluster;
  const node0 = cluster.nodeModels[0];
  const counterNames = node0.counterNames.filter((n) => !CYCLE_COUNTERS.includes(n));
  const ids = Int32Array.from(counterNames.map((n) => CounterId[n as CounterName]));
  const mhz = setup.config.clock / 1e6;
  const timeDerived: Record<string, number> = {};
  for (const n of CYCLE_COUNTERS) if ((node0.counterNames as readonly string[]).includes(n)) timeDerived[n] = mhz;
  const idleCounters: Record<string, number> = {};
  for (const n of IDLE_STALL_COUNTERS) if (counterNames.includes(n)) idleCounters[n] = mhz;
  const cost: KernelCost = createKernelCost();
  const rankToNode = cluster.rankToNode;
  return {
    ranks: cluster.ranks,
    counterNames,
    timeDerivedCounters: timeDerived,
    idleCounters,
    kernel(rank, spec, counters, rng) {
      cluster.nodeModels[rankToNode[rank]].kernelCost(spec, rng, cost);
      const c = cost.counters;
      for (let i = 0; i < ids.length; i++) counters[i] += c[ids[i]];
      return cost.duration;
    },
    createMpi(sim, observer: MpiCallObserver): MpiWorldHandle {
      const world = new MpiWorld(sim, {
        placement: { nodes: cluster.nodes, rankToNode },
        network: setup.network,
        collectives: setup.collectives,
        observer: {
          enter: (rank, call) => observer.enter(rank, call),
          exit: (rank, call) => observer.exit(rank, call),
        },
      });
      return {
        comm: (rank) => world.comm(rank),
        run: () => world.run(),
        traffic: () => world.net.traffic(),
        unreceived: () =>
          world.leftovers().unreceived.map((u) => `message from rank ${u.source} to rank ${u.dest} (tag ${u.tag}, ${u.bytes} bytes, ${u.comm}): ${u.state}`),
      };
    },
  };
}
