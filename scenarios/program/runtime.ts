/**
 * What executing a program element means, shared by both evaluators (the compiled closures and
 * the tree interpreter) so they differ only in how they walk the diagrams and evaluate
 * expressions: Performance Prophet's `execute()` methods.
 *
 * Time: every process thread has its own clock. An action's cost advances that clock without an
 * event (the work of one thread touches no one else); the thread meets the simulation clock only
 * when it communicates and when it ends. Timers and trace entries read the thread's clock, so
 * they are exactly what eager per-action events would give, at a fraction of the events.
 *
 * Communication: an element's cost is local work done before the communication (a send packs,
 * an all-reduce computes its contribution), so in a collective every process waits for the
 * slowest (a collective of 0 bytes returns at once: it synchronises nothing). With threads, MPI
 * is funnelled through thread 0 of each process: the other threads run the element's code
 * fragment and cost and skip the communication.
 *
 * @packageDocumentation
 */
import { Simulation, type Process, type Yieldable } from "../../engine/index.js";
import { APPLICATION_TIMER, MPI_GROUP, Measurement, wholeCounts } from "../../components/index.js";
import { MpiDeadlockError, MpiUsageError, MpiWorld, REQUEST_NULL, type Comm, type CollectiveSpec, type ResolvedNetwork } from "../../machine/index.js";
import { MAX_ACTIVITY_NESTING, setThreadSlots, type CommNode, type ProgramModel } from "./model.js";
import { TraceRecorder } from "./trace.js";
import { ExpressionError, formatPath } from "../lang/index.js";

/** A model that fails while running (a negative cost, a while loop past its bound). An input error. */
export class ModelRuntimeError extends Error {
  readonly isInputError = true;
  constructor(message: string) {
    super(message);
    this.name = "ModelRuntimeError";
  }
}

/** Options of one program run. */
export interface ProgramRunOptions {
  readonly seed: number | string;
  /** TIME first, then counters that advance with time (see `timeDerived`). Default `["TIME"]`. */
  readonly metrics?: readonly string[];
  /** Counters derived from time: name -> counts per microsecond. */
  readonly timeDerived?: Readonly<Record<string, number>>;
  /** Timers per element (default true). */
  readonly measure?: boolean;
  /** Record element begin/end for a trace (default false). */
  readonly trace?: boolean;
}

/** The network a program runs on. */
export interface ProgramNetwork {
  readonly network: ResolvedNetwork;
  readonly collectives?: CollectiveSpec;
}

/** One process thread as the evaluators see it. */
export interface ProcessThread {
  readonly uid: number;
  readonly pid: number;
  readonly tid: number;
  /** Variable slots (the compiled evaluator's state; the interpreter keeps its own). */
  readonly slots: Float64Array;
}

/** The per-run machinery: simulation, MPI world, clocks, timers, trace. */
export class ProgramRuntime {
  readonly sim: Simulation;
  readonly world: MpiWorld;
  /** Clock of each process thread (us), by uid. */
  readonly clock: Float64Array;
  readonly measurement?: Measurement;
  readonly trace?: TraceRecorder;
  /** Timer id of each element. */
  private readonly timerOf: Int32Array;
  private readonly comms: Comm[];
  private readonly handles: Float64Array;
  /** Element of the isend/irecv that started each live handle (same index as `handles`). */
  private readonly handleElement: Int32Array;
  /** Source (-1: any) and tag each live irecv handle was posted with, to tell whether a message matched it. */
  private readonly handleSource: Float64Array;
  private readonly handleTag: Float64Array;
  /** isend/irecv elements that started their request again while it was still live. */
  private readonly restarted = new Map<number, number>();
  private readonly nReq: number;
  readonly threads: number;
  private readonly appTimer: number;
  /** Open entries of recursive activities, by uid. */
  private readonly nesting: Int32Array;
  /** Sized collectives (bcast, reduce, allreduce) each process has entered, and the first size of each in progress (see {@link checkCollectiveSize}). */
  private readonly collectivesEntered: Int32Array;
  private readonly collectiveSizes = new Map<number, { size: number; pid: number; element: number; left: number }>();
  /** Elements executed so far (all threads). */
  executed = 0;

  /** @throws ModelRuntimeError for a metric that is neither TIME nor time-derived */
  constructor(readonly model: ProgramModel, net: ProgramNetwork, options: ProgramRunOptions) {
    const np = model.processes;
    const nt = model.threads;
    this.threads = nt;
    this.sim = new Simulation({ seed: options.seed });
    this.clock = new Float64Array(np * nt);
    this.nesting = new Int32Array(np * nt);
    this.collectivesEntered = new Int32Array(np);
    const metrics = options.metrics ?? ["TIME"];
    const rates = metrics.map((m, k) => {
      if (k === 0 && m === "TIME") return 1;
      const r = options.timeDerived?.[m];
      if (r === undefined) throw new ModelRuntimeError(`metric '${m}' cannot be measured in a program model: actions have costs in time only (use TIME${Object.keys(options.timeDerived ?? {}).map((x) => `, ${x}`).join("")})`);
      return r;
    });
    const clock = this.clock;
    const sim = this.sim;
    if (options.measure ?? true) {
      const nm = metrics.length;
      this.measurement = new Measurement(metrics, np * nt, (uid, out) => {
        // The thread's clock, or the simulation's while it is blocked in MPI.
        const c = clock[uid];
        const t = c > sim.now ? c : sim.now;
        out[0] = t;
        // Cycle counters: whole counts, as a PMU reports them.
        for (let k = 1; k < nm; k++) out[k] = wholeCounts(t, rates[k]);
      });
    }
    const meas = this.measurement;
    this.appTimer = meas ? meas.timer(APPLICATION_TIMER) : 0;
    this.timerOf = Int32Array.from(model.elements.map((e) => (meas ? meas.timer(e.name, e.diagram) : 0)));
    if (options.trace) this.trace = new TraceRecorder();
    const mpiTimers = new Map<string, number>();
    this.world = new MpiWorld(this.sim, {
      placement: { nodes: model.nodes, rankToNode: model.processToNode },
      network: net.network,
      collectives: net.collectives,
      observer: meas
        ? {
            enter: (rank, call) => {
              let id = mpiTimers.get(call);
              if (id === undefined) mpiTimers.set(call, (id = meas.timer(call, MPI_GROUP)));
              meas.start(rank * nt, id);
            },
            exit: (rank, call) => meas.stop(rank * nt, mpiTimers.get(call)!),
            // A trace shows each message between the processes' threads 0 (which carry their MPI).
            ...(this.trace !== undefined && {
              messageSent: (source: number, _dest: number, bytes: number, now: number) => this.trace!.startFlow(source * nt, now, bytes),
              messageReceived: (token: number, dest: number, now: number) => this.trace!.endFlow(token, dest * nt, now),
            }),
          }
        : undefined,
    });
    this.comms = Array.from({ length: np }, (_, p) => this.world.comm(p));
    this.nReq = model.requests.length;
    this.handles = new Float64Array(np * nt * this.nReq).fill(REQUEST_NULL);
    this.handleElement = new Int32Array(np * nt * this.nReq).fill(-1);
    this.handleSource = new Float64Array(np * nt * this.nReq);
    this.handleTag = new Float64Array(np * nt * this.nReq);
  }

  /** Fresh slots of a thread: initial values with the process variables filled in. */
  slotsFor(pid: number, tid: number): Float64Array {
    const v = Float64Array.from(this.model.initial);
    setThreadSlots(this.model, v, pid, tid);
    return v;
  }

  /** An element starts on thread `uid`. */
  begin(uid: number, element: number): void {
    this.executed++;
    if (this.measurement !== undefined) this.measurement.start(uid, this.timerOf[element]);
    if (this.trace !== undefined) this.trace.begin(uid, this.clock[uid]);
  }

  /** An element ends on thread `uid`. */
  end(uid: number, element: number): void {
    if (this.measurement !== undefined) this.measurement.stop(uid, this.timerOf[element]);
    if (this.trace !== undefined) this.trace.end(uid, element, this.clock[uid]);
  }

  /**
   * Thread `uid` enters the activity element `element` of a recursive diagram (see
   * {@link leaveRecursive}).
   * @throws ModelRuntimeError, located at the element, past {@link MAX_ACTIVITY_NESTING} open entries
   */
  enterRecursive(uid: number, element: number): void {
    if (++this.nesting[uid] <= MAX_ACTIVITY_NESTING) return;
    const e = this.model.elements[element];
    throw new ModelRuntimeError(
      `${e.where}: activity '${e.name}' entered more than ${MAX_ACTIVITY_NESTING} deep in recursive activities on process ${Math.floor(uid / this.threads)} thread ${uid % this.threads} (the most they nest): its recursion does not end soon enough`,
    );
  }

  /** Thread `uid` leaves the entry {@link enterRecursive} opened. */
  leaveRecursive(uid: number): void {
    this.nesting[uid]--;
  }

  /**
   * Adds `cost` (us) of local work to the thread's clock.
   * @throws ModelRuntimeError when the cost is negative or not finite
   */
  advance(uid: number, element: number, cost: number): void {
    if (!(cost >= 0) || cost === Infinity) this.badCost(uid, element, cost);
    this.clock[uid] += cost;
  }

  private badCost(uid: number, element: number, cost: number): never {
    const e = this.model.elements[element];
    throw new ModelRuntimeError(`${e.where}: cost of '${e.name}' is ${cost} us on process ${Math.floor(uid / this.threads)} thread ${uid % this.threads}: a cost must be a finite number >= 0`);
  }

  /**
   * The event that brings the simulation up to the thread's clock, or null when it is not ahead.
   * Yield it (if any), then call {@link arrived}.
   */
  syncEvent(uid: number): Yieldable | null {
    const now = this.sim.now;
    return this.clock[uid] > now ? this.sim.timeout(this.clock[uid] - now) : null;
  }

  /** The thread resumes at the simulation's time (after a sync or an MPI call). */
  arrived(uid: number): void {
    this.clock[uid] = this.sim.now;
  }

  /** Brings the simulation up to the thread's clock (an event only when the thread is ahead). */
  *sync(uid: number): Generator<Yieldable, void, unknown> {
    const ev = this.syncEvent(uid);
    if (ev !== null) yield ev;
    this.arrived(uid);
  }

  /**
   * Starts the MPI operation of `node` for a synchronised thread 0: returns the generator of a
   * call to `yield*` (a blocking call, or an isend, which takes the sender's overhead), or null
   * after an irecv. `peer`, `size`
   * and `tag` are the evaluated expressions (NaN when absent).
   */
  mpiCall(t: ProcessThread, node: CommNode, peer: number, size: number, tag: number): Generator<Yieldable, unknown, unknown> | null {
    // The element of the MPI call the process entered last: where a process blocked in MPI is
    // (an irecv returns at once, an isend after the sender's overhead), and where its sends come
    // from (messages never received).
    this.world.setSite(t.pid, node.element);
    // MPI counts whole elements: a fraction of a byte is a mistake of the model's expression.
    if (size === size && size !== Infinity && !Number.isInteger(size) && size >= 0)
      throw new ModelRuntimeError(`${this.model.elements[node.element]!.where}: process ${t.pid}, the message size evaluated to ${size}: a message is a whole number of bytes (round the expression with floor(...) or ceil(...))`);
    try {
      return this.startMpi(t, node, peer, size, tag);
    } catch (e) {
      // MPI refuses a size, peer or tag the element's expressions gave: name the element.
      // MPI's ranks are the model's processes: say "process", as the model's other errors do.
      if (e instanceof MpiUsageError) throw this.atElement(e, node.element);
      throw e;
    }
  }

  /**
   * Every process gives its k-th sized collective the size the first process to reach it gave
   * (MPI requires matching counts; the algorithms would silently take each process's own).
   * @throws ModelRuntimeError naming the element, both processes and sizes
   */
  private checkCollectiveSize(pid: number, node: CommNode, size: number): void {
    const k = this.collectivesEntered[pid]++;
    // A size MPI refuses (negative, not finite) is left to MPI, which names it as such.
    if (!(size >= 0 && size < Infinity)) return;
    const first = this.collectiveSizes.get(k);
    if (first === undefined) {
      this.collectiveSizes.set(k, { size, pid, element: node.element, left: this.model.processes - 1 });
      return;
    }
    if (first.size !== size) {
      const el = this.model.elements;
      const theirs = first.element === node.element ? "the same collective" : `the same collective at its ${el[first.element]!.kind} '${el[first.element]!.name}' (${el[first.element]!.at ?? el[first.element]!.where})`;
      throw new ModelRuntimeError(`${el[node.element]!.where}: process ${pid} gives its ${node.op} '${el[node.element]!.name}' ${size} bytes, process ${first.pid} gave ${theirs} ${first.size}: every process gives a collective the same size`);
    }
    // why: forgotten once every process has passed, so the map holds only collectives in progress
    if (--first.left === 0) this.collectiveSizes.delete(k);
  }

  private startMpi(t: ProcessThread, node: CommNode, peer: number, size: number, tag: number): Generator<Yieldable, unknown, unknown> | null {
    const uid = t.uid;
    const comm = this.comms[t.pid];
    const tg = Number.isNaN(tag) ? 0 : tag;
    switch (node.op) {
      case "send":
        return comm.send(peer, tg, size);
      case "recv":
        return comm.recv(node.peer === undefined ? -1 : peer, tg, Number.isNaN(size) ? Infinity : size);
      case "isend":
      case "irecv": {
        const i = uid * this.nReq + node.request!;
        // why: a live request overwritten is lost (never waited for): remember the first process that did it
        if (this.handles[i] !== REQUEST_NULL && !this.restarted.has(node.element)) this.restarted.set(node.element, t.pid);
        if (node.op === "isend") return this.posted(i, node, peer, tg, comm.isend(peer, tg, size));
        this.handles[i] = comm.irecv(node.peer === undefined ? -1 : peer, tg, Number.isNaN(size) ? Infinity : size);
        this.keepRequest(i, node, peer, tg);
        return null;
      }
      case "wait": {
        const reqs = node.requests!;
        if (reqs.length === 1) {
          const i = uid * this.nReq + reqs[0];
          const h = this.handles[i];
          this.handles[i] = REQUEST_NULL;
          return comm.wait(h);
        }
        const hs = reqs.map((r) => this.handles[uid * this.nReq + r]);
        for (const r of reqs) this.handles[uid * this.nReq + r] = REQUEST_NULL;
        return comm.waitall(hs);
      }
      case "barrier":
        return comm.barrier();
      case "bcast":
        this.checkCollectiveSize(t.pid, node, size);
        return comm.bcast(size, peer);
      case "reduce":
        this.checkCollectiveSize(t.pid, node, size);
        return comm.reduce(size, peer);
      case "allreduce":
        this.checkCollectiveSize(t.pid, node, size);
        return comm.allreduce(size);
    }
  }

  /** Keeps the request slot `i` that `node` started with its element, peer and tag. */
  private keepRequest(i: number, node: CommNode, peer: number, tag: number): void {
    this.handleElement[i] = node.element;
    this.handleSource[i] = node.peer === undefined ? -1 : peer;
    this.handleTag[i] = tag;
  }

  /** Runs an MPI_Isend (which takes the sender's overhead, see `Comm.isend`) and keeps its handle in slot `i`. */
  private *posted(i: number, node: CommNode, peer: number, tag: number, isend: Generator<Yieldable, number, unknown>): Generator<Yieldable, void, unknown> {
    this.handles[i] = yield* isend;
    this.keepRequest(i, node, peer, tag);
  }

  /**
   * The communication of element `node` on a thread, after its code and cost: sync, the MPI
   * operation (thread 0 only), resume at the simulation's time.
   */
  *communicate(t: ProcessThread, node: CommNode, peer: number, size: number, tag: number): Generator<Yieldable, void, unknown> {
    if (t.tid !== 0) return;
    const ev = this.syncEvent(t.uid);
    if (ev !== null) yield ev;
    this.arrived(t.uid);
    const g = this.mpiCall(t, node, peer, size, tag);
    if (g !== null) yield* g;
    this.arrived(t.uid);
  }

  /**
   * Warnings about requests after the run, each located at its element: an isend or irecv whose
   * request was started again while still live (the earlier request is lost), and requests
   * never waited for (with whether a pending receive was ever matched by a message).
   */
  requestWarnings(): string[] {
    const out: string[] = [];
    const m = this.model;
    const label = (el: number) => {
      const e = m.elements[el];
      return { e, at: e.at !== undefined ? `${e.at}: ${formatPath(e.path)}` : e.where };
    };
    for (const [el, pid] of this.restarted) {
      const { e, at } = label(el);
      const req = m.requests[this.requestOf(el) ?? 0];
      out.push(`${at}: ${e.kind} '${e.name}' starts request '${req}' again on process ${pid} while the previous one is still pending (no wait in between): the earlier request is never completed`);
    }
    const unmatched = this.world.leftovers().unmatched;
    const pending = new Map<number, number[]>();
    const neverMatched = new Set<number>();
    for (let i = 0; i < this.handles.length; i++) {
      if (this.handles[i] === REQUEST_NULL || this.handleElement[i] < 0) continue;
      const el = this.handleElement[i];
      const pid = Math.floor(i / this.nReq / this.threads);
      const list = pending.get(el) ?? [];
      list.push(pid);
      pending.set(el, list);
      if (m.elements[el].kind === "irecv" && unmatched.some((u) => u.rank === pid && u.source === this.handleSource[i] && u.tag === this.handleTag[i])) neverMatched.add(el);
    }
    for (const [el, pids] of pending) {
      const { e, at } = label(el);
      const req = m.requests[this.requestOf(el) ?? 0];
      const who = pids.length === 1 ? `process ${pids[0]}` : `processes ${pids.slice(0, 8).join(", ")}${pids.length > 8 ? ` and ${pids.length - 8} more` : ""}`;
      const never = neverMatched.has(el) ? "; no message ever matched it" : "";
      out.push(`${at}: request '${req}' of ${e.kind} '${e.name}' is never waited for on ${who}${never} (MPI would leave it pending: add it to a wait)`);
    }
    return out;
  }

  /** The request slot an isend/irecv element writes. */
  private requestOf(element: number): number | undefined {
    for (let i = 0; i < this.handleElement.length; i++) if (this.handleElement[i] === element) return i % this.nReq;
    return undefined;
  }

  /** A thread starts (its application timer). */
  startThread(t: ProcessThread): void {
    if (this.measurement !== undefined) this.measurement.start(t.uid, this.appTimer);
  }

  /** A thread ends, after a final sync (stops its application timer). */
  endThread(t: ProcessThread): void {
    if (this.measurement !== undefined) this.measurement.stop(t.uid, this.appTimer);
  }

  /**
   * Runs `body` as a process on every process thread and the simulation to its end. `body` calls
   * {@link startThread}, syncs at its end and calls {@link endThread}.
   * @throws MpiDeadlockError when threads block forever; ModelRuntimeError, ExpressionError from the model
   */
  run(body: (t: ProcessThread) => Generator<Yieldable, void, unknown>): void {
    const m = this.model;
    const processes: Process<void>[] = [];
    for (let pid = 0; pid < m.processes; pid++) {
      for (let tid = 0; tid < m.threads; tid++) {
        const t: ProcessThread = { uid: pid * m.threads + tid, pid, tid, slots: this.slotsFor(pid, tid) };
        // The body is the process itself: no wrapper generator between the kernel and the model.
        processes.push(this.sim.process(body(t), { name: m.threads > 1 ? `process ${pid} thread ${tid}` : `process ${pid}` }));
      }
    }
    try {
      this.world.run();
    } catch (e) {
      if (e instanceof MpiDeadlockError) throw this.withElements(e);
      // An expression that fails names its variables' values: name the process thread too, as
      // the runtime's own errors (a negative cost) do.
      if (e instanceof ExpressionError) {
        const uid = processes.findIndex((p) => p.triggered && !p.ok && (p.value as unknown) === e);
        if (uid >= 0) throw new ExpressionError(`${e.detail}, on process ${Math.floor(uid / m.threads)} thread ${uid % m.threads}`, e.expression, e.where);
      }
      // A misuse found when messages meet (a truncated receive): at its receive element.
      const element = e instanceof MpiUsageError && e.rank < this.model.processes ? this.receiveElement(e) : -1;
      throw element >= 0 ? this.atElement(e as MpiUsageError, element) : e;
    }
  }

  /**
   * The element of the receive a message met (`e.matched`): the process's live `irecv` from that
   * source (or any) with that tag, else the call it is blocked in (a blocking `recv`).
   */
  private receiveElement(e: MpiUsageError): number {
    const m = e.matched;
    if (m !== undefined) {
      const from = e.rank * this.model.threads * this.nReq;
      for (let i = from; i < from + this.nReq; i++) {
        const el = this.handleElement[i]!;
        if (this.handles[i] === REQUEST_NULL || el < 0 || this.model.elements[el]!.kind !== "irecv") continue;
        if ((this.handleSource[i] === -1 || this.handleSource[i] === m.source) && this.handleTag[i] === m.tag) return el;
      }
    }
    return this.world.siteOfRank(e.rank);
  }

  /** An MPI misuse of process `e.rank` as the model's error at element `element` (MPI's ranks are the model's processes). */
  private atElement(e: MpiUsageError, element: number): ModelRuntimeError {
    const head = `rank ${e.rank}, `;
    const rest = e.message.startsWith(head) ? e.message.slice(head.length) : e.message;
    return new ModelRuntimeError(`${this.model.elements[element].where}: process ${e.rank}, ${rest}`);
  }

  /** `e` with each blocked process's MPI call named by its element: `MPI_Recv() at element 'FromRight' (s.yaml:10:7)`. */
  private withElements(e: MpiDeadlockError): MpiDeadlockError {
    return e.placed(
      (rank) => this.elementText(this.world.siteOfRank(rank)),
      (site) => this.elementText(site),
    );
  }

  /** An element as MPI reports name it: `at element 'FromRight' (s.yaml:10:7)`; undefined for none. */
  elementText(element: number): string | undefined {
    const el = this.model.elements[element];
    return el === undefined ? undefined : `at element '${el.name}' (${el.at ?? el.where})`;
  }
}

/**
 * A `for` loop's iterations, fixed at entry as a Fortran DO: `count` runs 0..count-1; otherwise
 * `from` (default 0) to `to` inclusive by `step` (default 1). Values truncate to integers. After
 * the loop its variable holds first + iterations × increment (one step past the last value, the
 * first value when none ran), as C's `for` and Fortran's DO leave it.
 * @returns [first value, increment, number of iterations]
 * @throws ModelRuntimeError for a zero step
 * @internal
 */
export function forTrips(count: number | undefined, from: number | undefined, to: number | undefined, step: number | undefined, where: string): [number, number, number] {
  if (count !== undefined) {
    // A negative count is a mistake, not zero iterations (from/to bounds say "perhaps none").
    if (Math.trunc(count) < 0) throw new ModelRuntimeError(`${where}: the loop count evaluated to ${count}; a count is a number of iterations, 0 or more (for a loop that may run no iteration, give from and to)`);
    return [0, 1, Math.trunc(count)];
  }
  const a = Math.trunc(from ?? 0);
  const b = Math.trunc(to ?? 0);
  const s = Math.trunc(step ?? 1);
  if (s === 0) throw new ModelRuntimeError(`${where}: the loop step evaluated to ${step}${step === 0 ? "" : ", which truncates to 0"}; the step of a for loop must not be 0 (the loop would never end)`);
  return [a, s, Math.max(0, Math.floor((b - a) / s) + 1)];
}

/**
 * The iterations a `while` loop may run: its bound truncated, as C's integer arithmetic would.
 * @throws ModelRuntimeError for a negative bound (a mistake, as a negative count is)
 * @internal
 */
export function whileLimit(bound: number, where: string): number {
  if (Math.trunc(bound) < 0) throw new ModelRuntimeError(`${where}: the while loop's bound evaluated to ${bound}; a bound is a number of iterations, 0 or more`);
  return Math.trunc(bound);
}

/**
 * A `while` loop ran into its bound.
 * @throws ModelRuntimeError always
 * @internal
 */
export function whileBound(where: string, bound: number, pid: number): never {
  throw new ModelRuntimeError(`${where}: the while loop is still running after its bound of ${bound} iterations (process ${pid})`);
}
