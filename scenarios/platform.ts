import type { MpiCallObserver, MpiWorldHandle, Platform } from "../components/index.js";
import { CounterId, IDLE_STALL_COUNTERS, MpiWorld, WholeCycleCounts, createKernelCost, type CounterName, type KernelCost } from "../machine/index.js";
import type { MachineSetup } from "./machine-setup.js";

/**
 * Counters that advance with time at the clock rate (busy-waiting in MPI counts cycles too): the
 * only counters a program model, whose actions cost time only, can measure besides TIME.
 */
export const CYCLE_COUNTERS: readonly string[] = ["CPU_CYCLES", "PAPI_TOT_CYC"];

/**
 * The platform a run executes on: the node model prices compute kernels (time and counters), the
 * MPI world moves messages over the interconnect. Counters are whole counts, as a PMU's: each
 * kernel's cycle counters are made whole with the fractions carried to the rank's next kernel
 * (see `WholeCycleCounts`). Cycles and stall cycles also advance at the clock rate outside
 * kernels (see `IDLE_STALL_COUNTERS`: a rank blocked in MPI or in a plain cost retires nothing),
 * so cycles stay within 2 of time x clock and stalls = cycles - issue-limited cycles holds in
 * every timer, MPI calls included.
 */
export function buildPlatform(setup: MachineSetup): Platform {
  const cluster = setup.cluster;
  const node0 = cluster.nodeModels[0];
  const counterNames = node0.counterNames;
  const ids = Int32Array.from(counterNames.map((n) => CounterId[n as CounterName]));
  const mhz = setup.config.clock / 1e6;
  const idleCounters: Record<string, number> = {};
  for (const n of [...CYCLE_COUNTERS, ...IDLE_STALL_COUNTERS]) if ((counterNames as readonly string[]).includes(n)) idleCounters[n] = mhz;
  const cost: KernelCost = createKernelCost();
  const whole = new WholeCycleCounts(cluster.ranks, counterNames);
  const rankToNode = cluster.rankToNode;
  return {
    ranks: cluster.ranks,
    counterNames,
    timeDerivedCounters: {},
    idleCounters,
    kernel(rank, spec, counters, rng) {
      cluster.nodeModels[rankToNode[rank]].kernelCost(spec, rng, cost);
      const c = cost.counters;
      whole.round(rank, c);
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
          ...(observer.messageSent !== undefined &&
            observer.messageReceived !== undefined && {
              messageSent: (source: number, dest: number, bytes: number) => observer.messageSent!(source, dest, bytes),
              messageReceived: (token: number, dest: number) => observer.messageReceived!(token, dest),
            }),
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
