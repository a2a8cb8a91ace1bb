import { Simulation, type RandomStream, type Yieldable } from "../engine/index.js";
import { MpiDeadlockError, type NetworkTraffic } from "../machine/index.js";
import type { PreparedAssembly } from "./assembly.js";
import type { ComponentContext, ComponentInstance, KernelSpec, MethodImpl, PortHandle } from "./component.js";
import { Mastermind } from "./mastermind.js";
import { APPLICATION_TIMER, COMPONENT_GROUP, MPI_GROUP, Measurement, type MetricReader } from "./measurement/index.js";
import { wholeCounts, type MpiWorldHandle, type Platform } from "./platform.js";
import type { CallArgs, PortType } from "./ports.js";
import { BoundMethod, CallCounter, CallTiming, MethodSite, type ProxySite } from "./bound-method.js";

/** Options of one run of an assembly. */
export interface AssemblyRunOptions {
  /** Scenario seed: every random stream derives from it. */
  readonly seed: string | number;
  /** Metrics to measure: `TIME` plus counter names. Default `["TIME"]`. */
  readonly metrics?: readonly string[];
  /** Workload parameters (numbers and strings), visible to components and expressions. */
  readonly workload?: Readonly<Record<string, number | string>>;
  /**
   * `true` (default): timers, callpaths, user events and proxy records. `false`: the same
   * simulation with measurement and proxies switched off (the baseline for overhead figures).
   */
  readonly measure?: boolean;
  /**
   * Keep every timer call as an interval (`measurement.trace` of the result, for a timeline);
   * default false. Without measurement there are no timers, hence no trace.
   */
  readonly trace?: boolean;
  /** Called every `progressEvery` events with the simulated time and events so far. */
  readonly onProgress?: (now: number, events: number) => void;
  readonly progressEvery?: number;
}

/** What a run produces. */
export interface AssemblyRunResult {
  readonly simulatedTime: number;
  readonly events: number;
  readonly ranks: number;
  /** Measurement data (undefined when `measure: false`). */
  readonly measurement?: Measurement;
  /** Proxy records (undefined when `measure: false`). */
  readonly mastermind?: Mastermind;
  /** Final counter values per rank, indexed like `platform.counterNames`. */
  readonly counters: readonly Float64Array[];
  /** Messages sent but never received, reported by the MPI layer. */
  readonly unreceived: readonly string[];
  /** Messages and bytes the network carried, per path (none without MPI). */
  readonly traffic: NetworkTraffic;
  /** Timer overlap warnings. */
  readonly warnings: readonly string[];
  /** Component invocations made (calls through ports). */
  readonly invocations: number;
}

/** Thrown when a metric is neither TIME nor a counter of the platform. */
export class UnknownMetricError extends Error {
  readonly isInputError = true;
  constructor(readonly metric: string, known: readonly string[]) {
    super(`unknown metric '${metric}': this machine records TIME, ${known.join(", ")}`);
    this.name = "UnknownMetricError";
  }
}

/**
 * Runs a prepared assembly on a platform: one copy of the assembly per rank (SCMD), each rank a
 * simulated process calling the entry point; port calls go through generated proxies where the
 * scenario asks, and are timed by the measurement component.
 * @throws DeadlockError (from the engine or MPI layer) when ranks block forever
 */
export function runAssembly(assembly: PreparedAssembly, platform: Platform, options: AssemblyRunOptions): AssemblyRunResult {
  const sim = new Simulation({ seed: options.seed });
  const nRanks = platform.ranks;
  const measure = options.measure ?? true;
  const metrics = options.metrics ?? ["TIME"];
  const workload = options.workload ?? {};
  const workloadNumbers: Record<string, number> = {};
  for (const [k, v] of Object.entries(workload)) if (typeof v === "number") workloadNumbers[k] = v;

  const counterIndex = new Map(platform.counterNames.map((n, i) => [n, i]));
  const counters = Array.from({ length: nRanks }, () => new Float64Array(platform.counterNames.length));
  /** Microseconds each rank has spent in kernels (see `idleCounters`). */
  const kernelTime = new Float64Array(nRanks);
  /** Microseconds each rank has spent outside kernels, as last read: the readings never go back. */
  const idleTime = new Float64Array(nRanks);
  // Metric k reads: TIME (-1), a counter index (>= 0) or a time-derived rate (factor per microsecond).
  // A counter that also advances outside kernels (a stall counter) adds its rate times that time.
  const metricSource: number[] = [];
  const metricRate: number[] = [];
  const idleRates = platform.idleCounters ?? {};
  for (const m of metrics) {
    if (m === "TIME") {
      metricSource.push(-1);
      metricRate.push(1);
    } else if (counterIndex.has(m)) {
      metricSource.push(counterIndex.get(m)!);
      metricRate.push(idleRates[m] ?? 0);
    } else if (m in platform.timeDerivedCounters) {
      metricSource.push(-1);
      metricRate.push(platform.timeDerivedCounters[m]);
    } else throw new UnknownMetricError(m, [...platform.counterNames, ...Object.keys(platform.timeDerivedCounters)]);
  }
  const nm = metrics.length;
  // Every metric a multiple of time (TIME alone, or a platform's time-derived cycles): no counter to read.
  const timeOnly = metricSource.every((src) => src < 0);
  // Metric 0 is TIME (the measurement requires it first); the others are whole counts.
  const readMetrics: MetricReader = timeOnly
    ? (_rank, out) => {
        const now = sim.now;
        out[0] = now;
        for (let k = 1; k < nm; k++) out[k] = wholeCounts(now, metricRate[k]);
      }
    : (rank, out) => {
        const c = counters[rank];
        const now = sim.now;
        // Time so far outside kernels (a kernel's duration counts from its call; no metric of
        // its rank is read before the kernel has ended). Why the maximum: across a kernel, now
        // and kernelTime grow by its duration, and their difference can come out a rounding
        // error below the last one, which a whole count turns into a count taken back.
        let idle = now - kernelTime[rank];
        if (idle < idleTime[rank]) idle = idleTime[rank];
        idleTime[rank] = idle;
        out[0] = now;
        for (let k = 1; k < nm; k++) {
          const src = metricSource[k];
          out[k] = src >= 0 ? c[src] + wholeCounts(idle, metricRate[k]) : wholeCounts(now, metricRate[k]);
        }
      };
  const meas = measure ? new Measurement(metrics, nRanks, readMetrics, { trace: options.trace }) : undefined;
  // Records carry the metrics after TIME (the measurement requires it first); those that are
  // multiples of TIME are recomputed from a record's start and end rather than stored (the reader
  // computes them as `wholeCounts(now, rate)` too).
  const recordRates = metricSource.slice(1).map((src, k) => (src < 0 ? metricRate[k + 1] : undefined));
  const mastermind = measure ? new Mastermind(metrics.slice(1), recordRates) : undefined;
  // MPI: time MPI calls as TAU timers and accumulate per-rank MPI time (outermost calls only).
  const mpiTime = new Float64Array(nRanks);
  const mpiDepth = new Int32Array(nRanks);
  const mpiStart = new Float64Array(nRanks);
  const mpiTimerIds = new Map<string, number>();
  let world: MpiWorldHandle | undefined;
  if (platform.createMpi) {
    world = platform.createMpi(sim, {
      enter(rank, call) {
        if (mpiDepth[rank]++ === 0) mpiStart[rank] = sim.now;
        if (meas) {
          let id = mpiTimerIds.get(call);
          if (id === undefined) mpiTimerIds.set(call, (id = meas.timer(call, MPI_GROUP)));
          meas.start(rank, id);
        }
      },
      exit(rank, call) {
        if (--mpiDepth[rank] === 0) mpiTime[rank] += sim.now - mpiStart[rank];
        if (meas) meas.stop(rank, mpiTimerIds.get(call)!);
      },
      // A trace shows the messages between the calls (other runs keep no send times).
      ...(meas?.trace !== undefined && {
        messageSent: (source: number, _dest: number, bytes: number) => meas.trace!.startFlow(source, sim.now, bytes),
        messageReceived: (token: number, dest: number) => meas.trace!.endFlow(token, dest, sim.now),
      }),
    });
  }

  const timing = meas ? new CallTiming(meas, mastermind, readMetrics, mpiTime) : undefined;
  const counter = timing ?? new CallCounter();

  // Proxies, by "instance.port".
  const proxyFor = new Map(assembly.proxies.map((p) => [`${p.component}.${p.port}`, p]));

  // The generated proxy of each provider method, shared by every rank (see MethodSite).
  const methodSites = new Map<string, MethodSite>();
  const methodSite = (provider: string, port: string, method: string): MethodSite => {
    const key = `${provider}.${port}.${method}`;
    let ms = methodSites.get(key);
    if (ms) return ms;
    if (!timing) ms = new MethodSite(counter, undefined, -1, undefined);
    else {
      const proxy = proxyFor.get(`${provider}.${port}`);
      const timerId = timing.meas.timer(`${provider}::${method}()`, COMPONENT_GROUP);
      let site: ProxySite | undefined;
      if (proxy && timing.mastermind && proxy.extract.has(method)) {
        const extract = proxy.extract.get(method)!;
        site = { site: timing.mastermind.site(provider, port, method, extract.map((e) => e[0])), extract };
      }
      ms = new MethodSite(counter, timing, timerId, site);
    }
    methodSites.set(key, ms);
    return ms;
  };

  // Instantiate every rank.
  const instancesByRank: Array<Map<string, ComponentInstance>> = [];
  for (let r = 0; r < nRanks; r++) {
    const rankInstances = new Map<string, ComponentInstance>();
    instancesByRank.push(rankInstances);
    // Port handles are resolved lazily: instances are created before all providers exist.
    const methodTables = new Map<string, Map<string, BoundMethod>>(); // "provider.port" -> method -> bound method
    const tableFor = (provider: string, port: string): Map<string, BoundMethod> => {
      const key = `${provider}.${port}`;
      let t = methodTables.get(key);
      if (t) return t;
      const inst = rankInstances.get(provider)!;
      const pt = assembly.byName.get(provider)!.ports.provides[port];
      const raw = inst.provides[port];
      if (!raw) throw new Error(`component '${provider}' does not implement provides port '${port}'`);
      t = new Map();
      for (const m of pt.methods) {
        const impl = raw[m.name];
        if (!impl) throw new Error(`component '${provider}' does not implement ${port}.${m.name}`);
        t.set(m.name, bindMethod(r, provider, port, m.name, impl));
      }
      methodTables.set(key, t);
      return t;
    };
    const rank = r;
    // The generated proxy of one method on one rank: same port type, forwards every call, and
    // records the parameters the scenario names with the measurements (see MethodSite).
    function bindMethod(rk: number, provider: string, port: string, method: string, impl: MethodImpl): BoundMethod {
      return new BoundMethod(impl, methodSite(provider, port, method), rk);
    }
    for (const inst of assembly.instances) {
      const wiring = assembly.wiring.get(inst.name);
      const handles = new Map<string, PortHandle>();
      const streams = new Map<string, RandomStream>();
      /** Prices `kernel` on this rank's node: adds its counters, returns its duration (us). */
      const price = (kernel: KernelSpec): number => {
        try {
          return platform.kernel(rank, kernel, counters[rank], sim.random(`node/rank${rank}`));
        } catch (e) {
          throw namedInputError(e, inst.name);
        }
      };
      /** Spends `duration` us of kernels (time outside them is idle, see `idleCounters`). */
      const spend = (duration: number) => {
        kernelTime[rank] += duration;
        return sim.timeout(duration);
      };
      const ctx: ComponentContext = {
        rank,
        size: nRanks,
        instance: inst.name,
        sim,
        workload,
        workloadNumbers,
        uses(name: string): PortHandle {
          let h = handles.get(name);
          if (h) return h;
          const target = wiring?.get(name);
          if (!target) throw new Error(`${inst.name}: uses port '${name}' is not connected`);
          const pt: PortType = inst.ports.uses[name];
          const [provider, pport] = target;
          let table: Map<string, BoundMethod> | undefined;
          const bound = (method: string): BoundMethod => {
            table ??= tableFor(provider, pport);
            const m = table.get(method);
            if (!m) throw new Error(`${inst.name}: port type '${pt.name}' has no method '${method}'`);
            return m;
          };
          h = {
            type: pt,
            call: (method: string, args: CallArgs) => bound(method).call(args),
            method: bound,
          };
          handles.set(name, h);
          return h;
        },
        isConnected: (name: string) => wiring?.has(name) ?? false,
        delay(us: number) {
          platform.plainCompute?.(rank, us, counters[rank]);
          return sim.timeout(us);
        },
        compute(kernel: KernelSpec) {
          return spend(price(kernel));
        },
        computeAll(kernels: readonly KernelSpec[]) {
          let duration = 0;
          for (const kernel of kernels) duration += price(kernel);
          return spend(duration);
        },
        mpi: world?.comm(rank),
        random(name: string): RandomStream {
          let s = streams.get(name);
          if (!s) streams.set(name, (s = sim.random(`${inst.name}/${name}/rank${rank}`)));
          return s;
        },
        trigger(event: string, value: number) {
          meas?.trigger(rank, event, value);
        },
        measurement: meas
          ? {
              query: () => meas.query(rank),
              disableGroup: (g: string) => meas.disableGroup(g),
              enableGroup: (g: string) => meas.enableGroup(g),
            }
          : undefined,
      };
      rankInstances.set(inst.name, inst.type.create(ctx, inst.prepared));
    }
  }

  const entry = assembly.entry;
  const appTimer = meas?.timer(APPLICATION_TIMER);
  let entryInvocations = 0;
  const runRank = function* (rank: number): Generator<Yieldable, void, any> {
    if (meas) meas.start(rank, appTimer!);
    const impl = instancesByRank[rank].get(entry.component)!.provides[entry.port][entry.method];
    const entryTimer = meas?.timer(`${entry.component}::${entry.method}()`, COMPONENT_GROUP);
    if (meas) meas.start(rank, entryTimer!);
    entryInvocations++;
    yield* impl({});
    if (meas) meas.stop(rank, entryTimer!);
    if (meas) meas.stop(rank, appTimer!);
  };
  // One generator function for every rank (not a closure each): the engine resumes these on
  // every event, and generators of one function share a hidden class.
  for (let r = 0; r < nRanks; r++) sim.process(runRank(r), { name: `rank ${r}` });

  const finish = (): void => {
    try {
      if (world?.run) world.run();
      else sim.run();
    } catch (e) {
      throw e instanceof MpiDeadlockError && meas ? withMethods(e, meas) : e;
    }
  };
  if (options.onProgress) {
    const every = options.progressEvery ?? 200_000;
    while (sim.pending > 0) {
      const until = sim.eventsProcessed + every;
      while (sim.eventsProcessed < until && sim.step());
      options.onProgress(sim.now, sim.eventsProcessed);
    }
    finish(); // raises a deadlock if processes are still blocked
  } else finish();

  return {
    simulatedTime: sim.now,
    events: sim.eventsProcessed,
    ranks: nRanks,
    measurement: meas,
    mastermind,
    counters,
    unreceived: world?.unreceived?.() ?? [],
    traffic: world?.traffic?.() ?? NO_TRAFFIC,
    warnings: meas?.warnings() ?? [],
    invocations: counter.invocations + entryInvocations,
  };
}

const NO_TRAFFIC: NetworkTraffic = { interNode: { messages: 0, bytes: 0 }, intraNode: { messages: 0, bytes: 0 } };

/**
 * `e` with the component instance that caused it named first, when it is an input error (a kernel
 * description the node model refuses, say): the model knows the key, not whose kernel it was.
 */
function namedInputError(e: unknown, instance: string): unknown {
  if (e instanceof Error && (e as { isInputError?: boolean }).isInputError === true && !e.message.startsWith(`${instance}: `)) e.message = `${instance}: ${e.message}`;
  return e;
}

/**
 * `e` with each blocked rank's MPI call placed in the component method that made it, the innermost
 * running timer outside the MPI group (`MPI_Recv() in AMRMesh::ghostUpdate()`), as the
 * measurement's running-timer stack has it.
 */
function withMethods(e: MpiDeadlockError, meas: Measurement): MpiDeadlockError {
  return e.placed((rank) => {
    const running = meas.query(rank);
    for (let d = running.length - 1; d >= 0; d--) {
      const name = running[d].name;
      if (!name.startsWith("MPI_")) return name === APPLICATION_TIMER ? undefined : `in ${name}`;
    }
    return undefined;
  });
}
