import { Simulation, type QueueChoice } from "../engine/index.js";
import { formatRate, printTable, type Benchmark } from "./registry.js";

/**
 * PHOLD-style hold model: `pending` events circulate; each event, when fired, schedules its
 * successor at `now + 0.1 + Exp(1)` on a random one of the logical processes. The number of
 * pending events stays constant, so the event list is measured at that size.
 */
function pholdCallbacks(queue: QueueChoice, pending: number, events: number): number {
  const sim = new Simulation({ seed: 1, queue });
  sim.reserve(pending);
  const rng = sim.random("phold");
  let left = events;
  const lps = pending;
  const handler = (_lp: number): void => {
    sim.schedule(0.1 + rng.exponential(1), handler, (rng.next() * lps) | 0);
    if (--left === 0) sim.stop();
  };
  for (let i = 0; i < pending; i++) sim.schedule(rng.exponential(1), handler, i);
  const t0 = process.hrtime.bigint();
  sim.run();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** The same model with one generator process per pending event. */
function pholdProcesses(pending: number, events: number): number {
  const sim = new Simulation({ seed: 1 });
  sim.reserve(pending);
  const rng = sim.random("phold");
  let left = events;
  function* lp() {
    for (;;) {
      yield sim.timeout(0.1 + rng.exponential(1));
      if (--left === 0) sim.stop();
    }
  }
  for (let i = 0; i < pending; i++) sim.process(lp(), { daemon: true });
  sim.run({ until: 1e-9 }); // start every process (not timed)
  const t0 = process.hrtime.bigint();
  sim.run();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Bytes of heap and array buffers per pending event, measured after filling the list. */
function bytesPerPending(queue: QueueChoice, pending: number): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return NaN;
  const handler = (): void => undefined;
  gc();
  const before = process.memoryUsage();
  const sim = new Simulation({ seed: 1, queue });
  sim.reserve(pending);
  for (let i = 0; i < pending; i++) sim.schedule(i * 1e-3, handler);
  gc();
  const after = process.memoryUsage();
  const bytes = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
  if (sim.pending !== pending) throw new Error("lost events");
  return bytes / pending;
}

function best(fn: () => number, repeats: number): number {
  let b = Infinity;
  for (let i = 0; i < repeats; i++) b = Math.min(b, fn());
  return b;
}

export const kernelBenchmark: Benchmark = {
  name: "kernel",
  summary: "PHOLD hold model: events/s of the callback kernel, generator processes and the js-sdsl reference",
  run(args) {
    const quick = args.includes("--quick");
    const sizes = quick ? [1e3, 1e5] : [1e3, 1e5, 1e6];
    const rows: (string | number)[][] = [];
    for (const pending of sizes) {
      const events = quick ? 1e6 : pending >= 1e6 ? 4e6 : 5e6;
      const repeats = pending >= 1e6 ? 2 : 3;
      // Warm the JIT on a small run first.
      pholdCallbacks("heap", 1000, 2e5);
      pholdCallbacks("reference", 1000, 2e5);
      pholdProcesses(1000, 2e5);
      const heap = events / best(() => pholdCallbacks("heap", pending, events), repeats);
      const ref = events / best(() => pholdCallbacks("reference", pending, events), repeats);
      const gen = events / best(() => pholdProcesses(pending, events), repeats);
      const bytesHeap = bytesPerPending("heap", pending);
      const bytesRef = bytesPerPending("reference", pending);
      rows.push([
        pending.toExponential(0),
        `${formatRate(heap)}/s`,
        `${formatRate(gen)}/s`,
        `${formatRate(ref)}/s`,
        `${(heap / ref).toFixed(2)}x`,
        Number.isNaN(bytesHeap) ? "n/a (run with --expose-gc)" : bytesHeap.toFixed(1),
        Number.isNaN(bytesRef) ? "n/a" : bytesRef.toFixed(1),
      ]);
    }
    printTable(
      ["pending", "callback kernel", "generator processes", "js-sdsl reference", "kernel/reference", "bytes/pending (kernel)", "bytes/pending (reference)"],
      rows,
    );
  },
};
