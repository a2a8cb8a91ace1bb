import { Simulation } from "../engine/index.js";
import { ANY_SOURCE, MpiWorld, ghostExchange, haloPlan, type BlockDecomposition } from "../machine/index.js";
import { formatRate, printTable, type Benchmark } from "./registry.js";

function gc(): void {
  // Twice: the first pass may only promote what the second frees.
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
}

function heapBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function placement(ranks: number, perNode: number) {
  return { nodes: Math.ceil(ranks / perNode), rankToNode: Int32Array.from({ length: ranks }, (_, r) => Math.floor(r / perNode)) };
}

interface Outcome {
  messages: number;
  /** Wall-clock seconds of the run. */
  seconds: number;
  /** CPU seconds of this process during the run (less disturbed by other builders on the machine). */
  cpuSeconds: number;
  events: number;
  simulatedUs: number;
}

function timed(sim: Simulation, world: MpiWorld): Outcome {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  world.run();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  world.finalize();
  return { messages: world.messages, seconds, cpuSeconds: (c.user + c.system) / 1e6, events: sim.eventsProcessed, simulatedUs: sim.now };
}

/** Each rank: `iters` times (compute 50 us, allreduce of 8 bytes, every 4th iteration a 64 KiB allreduce). */
function allreduceLoop(ranks: number, iters: number, fastPaths = true): Outcome {
  const sim = new Simulation({ seed: 1 });
  const world = new MpiWorld(sim, { placement: placement(ranks, 4), network: { preset: "infiniband-4x" }, fastPaths });
  world.launch(function* (c) {
    for (let i = 0; i < iters; i++) {
      yield sim.timeout(50);
      yield* c.allreduce(i % 4 === 3 ? 65536 : 8);
    }
  });
  return timed(sim, world);
}

/** Each rank of a 64 x 64 periodic grid: `iters` ghost exchanges (width 2, 2 x 2 patches of 32^2 cells, 40 B/cell). */
function haloLoop(side: number, iters: number, fastPaths = true): Outcome {
  const ranks = side * side;
  const sim = new Simulation({ seed: 1 });
  const world = new MpiWorld(sim, { placement: placement(ranks, 4), network: { preset: "myrinet-2000" }, fastPaths });
  const d: BlockDecomposition = { ranks: [side, side], patches: [2 * side, 2 * side], patchCells: [32, 32], ghostWidth: 2, bytesPerCell: 40, periodic: true };
  world.launch(function* (c) {
    const plan = haloPlan(d, c.rank, 0);
    for (let i = 0; i < iters; i++) {
      yield sim.timeout(100);
      yield* ghostExchange(c, plan);
    }
  });
  return timed(sim, world);
}

/** Baseline: kernel events/s of generator processes that only wait on timeouts (the floor of any process-based model). */
function kernelBaseline(processes: number, rounds: number): Rate {
  const sim = new Simulation({ seed: 1 });
  for (let i = 0; i < processes; i++)
    sim.process(
      (function* () {
        for (let k = 0; k < rounds; k++) yield sim.timeout(1 + (i % 7));
      })(),
    );
  return measure(() => sim.run(), () => sim.eventsProcessed);
}

/** A rate per wall second and per CPU second of this process. */
interface Rate {
  wall: number;
  cpu: number;
}

function measure(run: () => void, count: () => number): Rate {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  run();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return { wall: count() / wall, cpu: count() / ((c.user + c.system) / 1e6) };
}

/** Baseline: kernel events/s of bare callbacks, each rescheduling itself, with `pending` events in the list. */
function heapBaseline(pending: number, events: number): Rate {
  const sim = new Simulation({ seed: 1 });
  let x = 12345;
  let fired = 0;
  // A cheap LCG spreads the delays so the heap does real sifting.
  const h = (): void => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    if (++fired < events) sim.schedule(1 + (x % 1000) / 100, h);
  };
  for (let i = 0; i < pending; i++) sim.schedule(i % 10, h);
  return measure(() => sim.run(), () => sim.eventsProcessed);
}

/** Bytes per rank of an MPI world with every communicator created, after a run has finished: measured heap and the world's own count. */
function bytesPerRank(ranks: number): [number, number] {
  gc();
  const before = heapBytes();
  const sim = new Simulation({ seed: 1 });
  const world = new MpiWorld(sim, { placement: placement(ranks, 4), network: { preset: "infiniband-4x" } });
  world.launch(function* (c) {
    yield* c.allreduce(8);
  });
  world.run();
  gc();
  const after = heapBytes();
  if (world.size !== ranks) throw new Error("world lost ranks");
  return [(after - before) / ranks, world.stateBytes() / ranks];
}

/** Bytes per rank with every rank's process alive and blocked in a receive (world, communicators, processes, posted receives). */
function bytesPerBlockedRank(ranks: number): number {
  gc();
  const before = heapBytes();
  const sim = new Simulation({ seed: 1 });
  const world = new MpiWorld(sim, { placement: placement(ranks, 4), network: { preset: "infiniband-4x" } });
  world.launch(function* (c) {
    yield* c.recv(ANY_SOURCE, 0);
  });
  const res = sim.run({ onDeadlock: "report" });
  gc();
  const after = heapBytes();
  if (res.blocked.length !== ranks) throw new Error("expected every rank blocked");
  return (after - before) / ranks;
}

export const networkBenchmark: Benchmark = {
  name: "network",
  summary: "MPI layer: simulated messages per wall second (allreduce loop on 1024/16384 ranks, halo exchange on 4096) and bytes per rank",
  run(args) {
    const quick = args.includes("--quick");
    // --generic also runs each workload with the generator forms (fastPaths: false), the reference the fast paths must match.
    const generic = args.includes("--generic");
    // Baselines in the same run, measured right before each workload: the machine is shared, so
    // only ratios are comparable between runs; CPU-time ratios suffer least from time slicing.
    const rows: (string | number)[][] = [];
    // Each workload: a smaller run of the same code first (so the timed runs measure optimised
    // code, not the JIT's first pass over it), then `repeats` timed runs, the best reported.
    const repeats = quick ? 1 : 2;
    const cases: [string, (fast: boolean) => Outcome, (fast: boolean) => void][] = [
      ["allreduce loop, 1024 ranks", (f) => allreduceLoop(1024, quick ? 20 : 100, f), (f) => void allreduceLoop(256, 20, f)],
      ["allreduce loop, 16384 ranks", (f) => allreduceLoop(16384, quick ? 3 : 12, f), (f) => void allreduceLoop(1024, 10, f)],
      ["halo exchange, 4096 ranks", (f) => haloLoop(64, quick ? 5 : 20, f), (f) => void haloLoop(16, 10, f)],
    ];
    let baseCpu = 0;
    let heapCpu = 0;
    for (const [name, fn, warm] of cases) {
      for (const fast of generic ? [true, false] : [true]) {
        warm(fast);
        const base = kernelBaseline(4096, quick ? 50 : 150);
        const heap = heapBaseline(32768, quick ? 5e5 : 2e6);
        baseCpu = Math.max(baseCpu, base.cpu);
        heapCpu = Math.max(heapCpu, heap.cpu);
        let o = fn(fast);
        for (let k = 1; k < repeats; k++) {
          gc();
          const again = fn(fast);
          if (again.seconds < o.seconds) o = again;
        }
        const cpuRate = o.messages / o.cpuSeconds;
        rows.push([
          fast ? name : `${name} (generator forms)`,
          o.messages.toExponential(2),
          (o.events / o.messages).toFixed(2),
          o.seconds.toFixed(2),
          `${formatRate(o.messages / o.seconds)}/s`,
          `${formatRate(cpuRate)}/s`,
          `${(cpuRate / base.cpu).toFixed(2)}`,
          `${(cpuRate / heap.cpu).toFixed(2)}`,
          (o.simulatedUs / 1e3).toFixed(1),
        ]);
      }
    }
    printTable(["workload", "messages", "events/msg", "wall s", "messages/wall s", "messages/CPU s", "ratio to kernel events/CPU s", "ratio to heap events/CPU s", "simulated ms"], rows);
    console.log(
      `baselines (best of those measured before each workload, per CPU second): generator-process kernel events = ${formatRate(baseCpu)}/s; ` +
        `bare heap events at 32768 pending = ${formatRate(heapCpu)}/s`,
    );
    console.log(`timed runs per workload: ${repeats}, the fastest reported, each after a smaller warm-up run of the same workload`);
    console.log("target: 1 M messages/s; on an idle machine where the kernel runs 1.9 M generator events/s that is a ratio of about 0.53");
    const gcOk = typeof (globalThis as { gc?: unknown }).gc === "function";
    // Large worlds only: below ~10^4 ranks the per-rank figure drowns in heap noise of a few MB.
    for (const ranks of quick ? [16384] : [16384, 65536]) {
      const [heap, own] = bytesPerRank(ranks);
      const blocked = bytesPerBlockedRank(ranks);
      const na = "n/a (run with --expose-gc)";
      console.log(
        `memory, ${ranks} ranks: at rest (world + communicators, processes finished) heap ${gcOk ? heap.toFixed(0) : na} B/rank, MPI state ${own.toFixed(0)} B/rank; ` +
          `every rank's process alive and blocked in MPI_Recv: heap ${gcOk ? blocked.toFixed(0) : na} B/rank`,
      );
    }
  },
};
