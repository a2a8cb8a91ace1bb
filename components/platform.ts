import type { RandomStream, Simulation } from "../engine/index.js";
import type { NetworkTraffic } from "../machine/index.js";
import type { KernelSpec } from "./component.js";

/**
 * Observes MPI calls so the measurement can time each as a TAU timer (`MPI_Send()` ...) and the
 * Mastermind can attribute MPI time to the invocation that made it.
 */
export interface MpiCallObserver {
  /** A rank entered an MPI call named as TAU names it (`MPI_Waitsome()`). */
  enter(rank: number, call: string): void;
  /** The rank left that call. */
  exit(rank: number, call: string): void;
  /**
   * Rank `source` sends a message of the program to rank `dest` now; returns a number >= 0 that
   * {@link messageReceived} gets back for it. Optional, with `messageReceived`.
   */
  messageSent?(source: number, dest: number, bytes: number): number;
  /** The receive of message `token` completes on rank `dest` now. */
  messageReceived?(token: number, dest: number): void;
}

/**
 * What a run needs from the machine layer: the node model for compute kernels, the counters it
 * produces, and the MPI world. Implemented by the scenario layer on top of `machine/`.
 */
export interface Platform {
  /** Number of ranks (MPI processes). */
  readonly ranks: number;
  /** Counters the node model accumulates per rank (names as PAPI/libpfm spell them). */
  readonly counterNames: readonly string[];
  /**
   * Counters that advance with time whatever the rank does (cycle counters: busy-waiting in MPI
   * counts cycles too), as name -> counts per microsecond (the clock rate in MHz); read as
   * {@link wholeCounts} of the time so far.
   */
  readonly timeDerivedCounters: Readonly<Record<string, number>>;
  /**
   * Counters of {@link counterNames} that also advance while the rank runs no kernel (blocked in
   * MPI, in a plain `delay`), as name -> counts per microsecond of that time: the cycle and
   * stall-cycle counters, since a rank that retires no instruction stalls every cycle. Read as
   * the kernels' counts plus {@link wholeCounts} of the time outside kernels. Absent: none.
   */
  readonly idleCounters?: Readonly<Record<string, number>>;
  /**
   * Cost of a compute kernel on `rank`: returns its duration (microseconds) and adds its counter
   * increments to `counters` (indexed like `counterNames`), whole counts as a PMU reports them.
   */
  kernel(rank: number, spec: KernelSpec, counters: Float64Array, rng: RandomStream): number;
  /**
   * Counter increments for `microseconds` of plain computation that is not a described kernel
   * (dummy components with a cost expression). May leave `counters` unchanged.
   */
  plainCompute?(rank: number, microseconds: number, counters: Float64Array): void;
  /**
   * Creates the MPI world on `sim` (one communicator per rank) reporting calls to `observer`.
   * Absent when the platform has no network (single-rank runs).
   */
  createMpi?(sim: Simulation, observer: MpiCallObserver): MpiWorldHandle;
}

/**
 * The reading of a counter that advances at `rate` counts per microsecond (a cycle counter at the
 * clock rate in MHz) after `microseconds`: the whole counts, as a PMU reports them. Rounded down,
 * a reading never runs ahead of time and never goes back, so every interval's count is whole and
 * not negative.
 */
export function wholeCounts(microseconds: number, rate: number): number {
  return Math.floor(microseconds * rate);
}

/** The MPI world as the runtime sees it. */
export interface MpiWorldHandle {
  /** The communicator components of `rank` use (`ctx.mpi`). */
  comm(rank: number): unknown;
  /** Called after the run: messages sent but never received, as readable lines (empty when clean). */
  unreceived?(): string[];
  /** Called after the run: messages and bytes the network carried, per path. */
  traffic?(): NetworkTraffic;
  /**
   * Runs the simulation to the end (instead of the kernel's own run) so a deadlock is reported
   * in MPI terms: each blocked rank, its call, and the peer and tag it waits for.
   */
  run?(): void;
}

/**
 * A platform with no node model and no network, for assemblies built in code and tests: a kernel
 * costs one cycle per `opsPerCycle` instructions, `(loads + stores + flops + otherInstructions) *
 * elements * passes / (opsPerCycle * clockMHz)` microseconds, and counts them in `PAPI_TOT_INS`
 * (flops in `PAPI_FP_OPS`; `PAPI_TOT_CYC` derives from the time). Components that need MPI (a halo
 * exchange) refuse it: run those through a scenario's machine.
 * @param clockMHz - clock in MHz (default 1000)
 * @param opsPerCycle - instructions per cycle (default 1)
 * @throws RangeError unless ranks is an integer >= 1 and the clock and rate finite numbers > 0
 */
export function simplePlatform(ranks: number, clockMHz = 1000, opsPerCycle = 1): Platform {
  // why: 0 ranks would run nothing, and a clock or rate of 0 or below would cost kernels an
  // infinite or negative time, refused far from here
  if (!(Number.isInteger(ranks) && ranks >= 1)) throw new RangeError(`simplePlatform: ranks must be an integer >= 1, got ${ranks}`);
  if (!(Number.isFinite(clockMHz) && clockMHz > 0)) throw new RangeError(`simplePlatform: clockMHz must be a finite number > 0, got ${clockMHz}`);
  if (!(Number.isFinite(opsPerCycle) && opsPerCycle > 0)) throw new RangeError(`simplePlatform: opsPerCycle must be a finite number > 0, got ${opsPerCycle}`);
  return {
    ranks,
    counterNames: ["PAPI_TOT_INS", "PAPI_FP_OPS"],
    timeDerivedCounters: { PAPI_TOT_CYC: clockMHz },
    kernel(_rank, k, counters) {
      const passes = k.passes ?? 1;
      const ins = (k.loads + k.stores + k.flops + k.otherInstructions) * k.elements * passes;
      // Whole counts, as the contract asks (a kernel may do 2.5 flops per element).
      counters[0] += Math.round(ins);
      counters[1] += Math.round(k.flops * k.elements * passes);
      return ins / (opsPerCycle * clockMHz);
    },
  };
}
