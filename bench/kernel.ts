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

/**
 * The same model on a bare binary heap of typed arrays with no kernel around it (no handles, no
 * cancellation, no handlers): the floor any kernel pays, measured in the same run.
 */
function pholdBareHeap(pending: number, events: number): number {
  const rng = new Simulation({ seed: 1 }).random("phold");
  const cap = pending + 1;
  const T = new Float64Array(cap);
  const O = new Float64Array(cap);
  const S = new Int32Array(cap);
  let n = 0;
  let seq = 0;
  const push = (t: number, o: number, s: number): void => {
    let i = n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (T[p] < t || (T[p] === t && O[p] < o)) break;
      T[i] = T[p];
      O[i] = O[p];
      S[i] = S[p];
      i = p;
    }
    T[i] = t;
    O[i] = o;
    S[i] = s;
  };
  const popInto = (): number => {
    const now = T[0];
    const m = --n;
    if (m > 0) {
      const t = T[m];
      const o = O[m];
      const s = S[m];
      let i = 0;
      const half = m >> 1;
      while (i < half) {
        let c = 2 * i + 1;
        if (c + 1 < m && (T[c + 1] < T[c] || (T[c + 1] === T[c] && O[c + 1] < O[c]))) c++;
        if (t < T[c] || (t === T[c] && o < O[c])) break;
        T[i] = T[c];
        O[i] = O[c];
        S[i] = S[c];
        i = c;
      }
      T[i] = t;
      O[i] = o;
      S[i] = s;
    }
    return now;
  };
  for (let i = 0; i < pending; i++) push(rng.exponential(1), seq++, i);
  const t0 = process.hrtime.bigint();
  for (let e = 0; e < events; e++) {
    const now = popInto();
    push(now + 0.1 + rng.exponential(1), seq++, (rng.next() * pending) | 0);
  }
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
      pholdBareHeap(1000, 2e5);
      const bare = events / best(() => pholdBareHeap(pending, events), repeats);
      const heap = events / best(() => pholdCallbacks("heap", pending, events), repeats);
      const ref = events / best(() => pholdCallbacks("reference", pending, events), repeats);
      const gen = events / best(() => pholdProcesses(pending, events), repeats);
      // Below ~1e5 events the heap delta drowns in allocator noise: measure storage at 1e5 or more.
      const bytesHeap = bytesPerPending("heap", Math.max(pending, 1e5));
      const bytesRef = bytesPerPending("reference", Math.max(pending, 1e5));
      rows.push([
        pending.toExponential(0),
        `${formatRate(heap)}/s`,
        `${formatRate(gen)}/s`,
        `${formatRate(ref)}/s`,
        `${(heap / ref).toFixed(2)}x`,
        `${formatRate(bare)}/s`,
        `${((100 * heap) / bare).toFixed(0)}%`,
        Number.isNaN(bytesHeap) ? "n/a (run with --expose-gc)" : bytesHeap.toFixed(1),
        Number.isNaN(bytesRef) ? "n/a" : bytesRef.toFixed(1),
      ]);
    }
    printTable(
      ["pending", "callback kernel", "generator processes", "js-sdsl reference", "kernel/reference", "bare heap", "kernel/bare", "bytes/pending (kernel)", "bytes/pending (reference)"],
      rows,
    );
  },
};
