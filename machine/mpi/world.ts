import { SimEvent, type BlockedProcess, type Process, type RunOptions, type RunResult, type Simulation, type Yieldable } from "../../engine/index.js";
import { HockneyCost, Interconnect, type LinkCost, type NetworkSpec, type ResolvedNetwork } from "../network/index.js";
import { ANY_SOURCE, ANY_TAG, MPI_CALLS } from "./constants.js";
import { MpiDeadlockError, MpiUnreceivedMessagesError, MpiUsageError, describePending, type BlockedRank, type PendingRequest, type UnmatchedReceive, type UnreceivedMessage } from "./errors.js";
import { findLeftovers, pendingRequestsByRank } from "./reports.js";
import type { MpiObserver } from "./observer.js";
import {
  F_AUTO,
  F_COMPLETE,
  F_INTERNAL,
  F_LATENT,
  F_MATCHED,
  F_NET,
  F_QUEUED,
  F_RDV,
  F_RELEASED,
  F_SCHED,
  F_WAITED,
  KIND_RECV,
  KIND_SEND,
  NIL,
  RequestPool,
  SLOT_SPAN,
} from "./requests.js";
import { resolveCollectives, type CollectiveSpec, type ResolvedCollectives } from "./collectives/config.js";
import { Comm, Group } from "./comm.js";
import { PairArrivals } from "./pair-order.js";

/**
 * Where ranks run: `rankToNode[r]` is the node of world rank r (0-based, < nodes). Produced by
 * the node model; a function is accepted too (then `ranks` is required).
 */
export interface Placement {
  /** Number of nodes (NICs). */
  readonly nodes: number;
  /** Node of each rank. */
  readonly rankToNode: Int32Array | readonly number[] | ((rank: number) => number);
  /** Number of ranks (required with a function; defaults to `rankToNode.length`). */
  readonly ranks?: number;
}

/** Options of an {@link MpiWorld}. */
export interface MpiWorldOptions {
  /** Rank placement on nodes. */
  readonly placement: Placement;
  /** Network description (default: gigabit-ethernet, Hockney). */
  readonly network?: NetworkSpec | ResolvedNetwork;
  /** Collective algorithm choices and thresholds (default: MPICH-style automatic selection). */
  readonly collectives?: CollectiveSpec;
  /** Hooks timing every MPI call (see {@link MpiObserver}). */
  readonly observer?: MpiObserver;
  /**
   * Run the hot collectives and the ghost-cell exchange by callbacks instead of generator
   * processes when nobody observes the calls (default true). Both forms give identical
   * simulated results; false keeps every call in the generator form (the reference).
   */
  readonly fastPaths?: boolean;
}

/** Wait modes. */
const WAIT_ALL = 1;
const WAIT_ANY = 2;
/** The rank runs an {@link ExchangeProgram}: completions advance it by callbacks. */
const WAIT_STEPS = 3;
/** The rank's wait is over; its wake-up is scheduled. */
const WAIT_WAKE = 4;
/** The rank calls MPI_Waitsome until all its requests are done, run by callbacks (see {@link MpiWorld.waitsomeUntilDone}). */
const WAIT_SOME = 5;
/** As WAIT_SOME, with the wake-up that ends the current MPI_Waitsome call scheduled. */
const WAIT_SOME_WAKING = 6;
/** As WAIT_SOME, with the current call's wake-up only reserved (someWakeAt, someWakeOrder). */
const WAIT_SOME_GROUP = 7;

// Fields of a rank's record in MpiWorld.stepState (STEP_CALL: exchange programs the rank has started on the program's communicator, which identifies the call).
const STEP_STRIDE = 8;
const SLOT_A = 0;
const SLOT_B = 1;
const STEP_INDEX = 2;
const STEP_CALL = 3;
const PAIR_WAITING = 4;
const STEP_GROUP = 5;

/** What a scheduled wake-up does for a rank: continue its exchange program, or resume its process. */
const WAKE_STEPS = 1;
const WAKE_EVENT = 2;
const WAKE_SOME = 3;

/** One step of an {@link ExchangeProgram} (ranks of the communicator; -1 for none). */
export interface ExchangeStep {
  send: number;
  recv: number;
  sendBytes: number;
  /**
   * Size of the message received (what the peer sends in this step). Programs state it so that
   * both sides of a pairwise exchange (send and receive with the same peer) can tell alike that
   * both messages are eager; NaN when unknown.
   */
  recvBytes: number;
  /** Bytes reduced locally once both messages of the step have completed (gamma per byte). */
  reduceBytes: number;
  tag: number;
}

/**
 * A collective written as a sequence of steps that depend only on (rank, size, step, bytes): in
 * each step a rank receives from one peer and/or sends to one peer, then reduces. The world runs
 * it with callbacks, waking the rank's process only once at the end; per step this saves a kernel
 * event, a process resume and an allocation compared with a generator algorithm, with identical
 * timing.
 */
export interface ExchangeProgram {
  /**
   * Fills `out` with step `k` of `rank`; returns false when there is no step k. A step with
   * neither send nor receive is skipped. `elementBytes` is the reduction element size (chunk
   * boundaries fall on whole elements).
   */
  step(rank: number, size: number, k: number, bytes: number, out: ExchangeStep, elementBytes: number): boolean;
  /**
   * Optional: the index of `rank`'s last step that has a message (-1 for none). Without it the
   * world asks {@link step} for the following steps to find out whether one is left.
   */
  lastStep?(rank: number, size: number): number;
}

/**
 * The event a rank's process yields while blocked in MPI. Its description names the MPI call
 * and what the rank waits for, so a plain kernel {@link DeadlockError} is already informative.
 * @internal
 */
export class RankWait extends SimEvent<void> {
  constructor(sim: Simulation, private readonly world: MpiWorld, readonly rank: number) {
    super(sim);
  }
  override describe(): string {
    return this.world.describeRank(this.rank);
  }
}

/**
 * The MPI world of one simulation: every rank's matching queues, the request pool, the
 * interconnect, and the protocols (eager, rendezvous) that move messages through it.
 *
 * Programs use it through per-rank communicators ({@link MpiWorld.comm}); each rank is a kernel
 * process whose generator calls `yield* comm.send(...)`, `yield* comm.allreduce(...)` etc.
 *
 * Semantics:
 * - matching by (source, tag, communicator) with {@link ANY_SOURCE} / {@link ANY_TAG}, in the order
 *   messages were sent between a pair (non-overtaking: a message's envelope never arrives before
 *   an earlier one from the same sender to the same receiver; envelopes to other receivers are
 *   not held back, and between nodes the sender's NIC still injects one message after another);
 * - messages of at most `eagerLimit` bytes are sent eagerly (the envelope carries the data; if no
 *   receive is posted it waits in the destination's unexpected-message queue); larger ones use
 *   rendezvous: a request-to-send, a clear-to-send once the receive is matched, then the data;
 * - a send request completes when its message is delivered (Hockney) or injected (LogGP); a
 *   receive request completes when the data has arrived;
 * - both overheads are CPU time of the rank: the sender's is taken when a send is posted (each
 *   send of a call once the previous one's is done), the receiver's by the call that completes a
 *   receive for the program (a blocking receive, a wait, a test, a collective's step), which
 *   returns once the rank has handled each message it completes, one after another, the
 *   earliest at the message's arrival (see machine/network/README.md).
 */
export class MpiWorld {
  /** Number of world ranks. */
  readonly size: number;
  /** Node of each rank. */
  readonly rankToNode: Int32Array;
  /** The network. */
  readonly net: Interconnect;
  /** Resolved collective configuration. */
  readonly collectives: ResolvedCollectives;
  /** Observer of MPI calls, or null. */
  observer: MpiObserver | null;
  /** See {@link MpiWorldOptions.fastPaths}. */
  readonly fastPaths: boolean;
  /** Messages posted so far, user and collective-internal (rendezvous control messages not counted). */
  messages = 0;
  /** Payload bytes of those messages. */
  bytes = 0;

  /** @internal */ readonly pool = new RequestPool();
  /** @internal */ readonly waitEvents: (RankWait | null)[];
  /** @internal Current MPI call of each rank (index into MPI_CALLS). */ readonly callOf: Uint8Array;
  /** @internal Status of the last completed receive per rank. */ readonly stSource: Int32Array;
  /** @internal */ readonly stTag: Int32Array;
  /** @internal */ readonly stBytes: Float64Array;
  /** @internal */ readonly stValue: Float64Array;
  private readonly prqHead: Int32Array;
  private readonly prqTail: Int32Array;
  private readonly umqHead: Int32Array;
  private readonly umqTail: Int32Array;
  private readonly waitMode: Uint8Array;
  private readonly waitRemaining: Int32Array;
  /** Per rank: delay between the last completion of its wait and its wake-up (a reduction folded into the wait). */
  private readonly waitDelay: Float64Array;
  /** Arrival of the latest envelope in flight per (sender, receiver): the non-overtaking rule. */
  private readonly pairArrivals: PairArrivals;
  // State of ranks running an ExchangeProgram (arrays of objects hold null when idle).
  private readonly stepProgram: (ExchangeProgram | null)[];
  private readonly stepComm: (Comm | null)[];
  private readonly stepBytes: Float64Array;
  /**
   * Per rank, STEP_STRIDE ints: the current step's receive and send slots, the step index, the
   * call number, the partner awaited in a pairwise step (or NIL). One record per rank because a
   * pairwise step reads all of them for a partner rank at a random index: one cache line, not five.
   */
  private readonly stepState: Int32Array;
  private readonly stepOut: ExchangeStep = { send: -1, recv: -1, sendBytes: 0, recvBytes: NaN, reduceBytes: 0, tag: 0 };
  private readonly stepPeek: ExchangeStep = { send: -1, recv: -1, sendBytes: 0, recvBytes: NaN, reduceBytes: 0, tag: 0 };
  /** Pairwise exchange steps may defer their arrival events (Hockney on both paths with a positive latency). */
  private readonly pairMode: boolean;
  /** Per rank: the next rank woken by the same kernel event (wake-ups scheduled back to back share one event). */
  private readonly wakeNext: Int32Array;
  /** Per rank: WAKE_STEPS, WAKE_EVENT or WAKE_SOME. */
  private readonly wakeKind: Uint8Array;
  /** Per rank in WAIT_SOME: its request slots (released ones set to -1) and MPI_Waitsome calls made. */
  private readonly someSlots: (Int32Array | null)[];
  /** Per rank in WAIT_SOME: bit i set when request i completed since the last call returned (positions 0-31 and 32-63). */
  private readonly someDone: Int32Array;
  /** True when a send may complete by time without an event (LogGP with zero overhead): WAIT_SOME then scans its requests. */
  private readonly instantSends: boolean;
  /**
   * @internal True when posting a send takes no CPU time on either path (both cost models' overhead
   * is fixed at 0, as Hockney's; `LinkCost.fixedSendOverhead`): {@link postingTime} is then 0 for
   * every send. Why kept: every MPI_Isend and halo exchange asks, and the answer is then known
   * once, without a path lookup per send.
   */
  readonly postingFree: boolean;
  /**
   * @internal True when handling a received message takes no CPU time on either path (both cost
   * models' receiver overhead is fixed at 0, as Hockney's; `LinkCost.fixedRecvOverhead`). Why
   * kept: then no receive is charged to its rank, without a look at each one.
   */
  readonly receivingFree: boolean;
  /**
   * Per rank: the time (us) until which its CPU is busy with the overheads of the MPI call it is
   * in: the sends the call posted (each posted once the previous one's overhead is done) and the
   * messages it handled (each once it has arrived and the CPU is free). At most the current time
   * outside MPI calls: a call returns once they are done.
   */
  private readonly busyUntil: Float64Array;
  /**
   * True while every MPI event is scheduled strictly before its time (positive latencies, no
   * instant sends, no zero-delay message seen): then a WAIT_SOME call's wake-up need only be
   * reserved, because every completion at its time fires before it (see {@link someCompleted}).
   */
  private someDeferrable: boolean;
  /** Per rank in WAIT_SOME_GROUP: time and reserved order of the pending call's wake-up. */
  private readonly someWakeAt: Float64Array;
  private readonly someWakeOrder: Float64Array;
  /** @internal */ readonly someCalls: Int32Array;
  /**
   * Per rank, the site (a number its caller gives, such as a model element) of the calls it makes
   * now; null until a caller sets one, so that worlds without sites pay nothing per send.
   */
  private siteOf: Int32Array | null = null;
  /** Per slot, the site of the rank that posted the send it holds (see {@link setSite}). */
  private sendSite = new Int32Array(0);
  /**
   * Per slot, the observer's number of the program's message the send or the matched receive
   * holds (`MpiObserver.messageSent`), -1 for none; null unless the observer takes messages, so
   * that other worlds pay nothing per message.
   */
  private tokenOf: Float64Array | null = null;
  // The last wake-up event scheduled: its last rank, its time, and the kernel state right after
  // scheduling it (a later wake-up may join it only if nothing was scheduled or fired since).
  private wakeTail = NIL;
  private wakeTime = NaN;
  private wakeFired = -1;
  private wakePending = -1;
  private readonly groups: Group[] = [];
  private worldComms: (Comm | undefined)[];
  private reportStamp = "";
  private reportCache = new Map<number, PendingRequest[]>();
  private readonly deliveryInter: boolean;
  private readonly deliveryIntra: boolean;

  /**
   * @throws RangeError for an invalid placement; NetworkConfigError / CollectiveConfigError for bad configuration
   */
  constructor(readonly sim: Simulation, options: MpiWorldOptions) {
    const pl = options.placement;
    let n: number;
    if (typeof pl.rankToNode === "function") {
      if (pl.ranks === undefined) throw new RangeError("placement.ranks is required when rankToNode is a function");
      n = pl.ranks;
    } else n = pl.ranks ?? pl.rankToNode.length;
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`placement: rank count must be a positive integer, got ${n}`);
    const map = new Int32Array(n);
    for (let r = 0; r < n; r++) {
      const node = typeof pl.rankToNode === "function" ? pl.rankToNode(r) : pl.rankToNode[r];
      if (!Number.isInteger(node) || node < 0 || node >= pl.nodes) throw new RangeError(`placement: rank ${r} is on node ${node}, outside [0, ${pl.nodes})`);
      map[r] = node;
    }
    this.size = n;
    this.rankToNode = map;
    this.net = new Interconnect(sim, options.network ?? {}, pl.nodes);
    this.deliveryInter = this.net.inter.sendCompletes === "delivery";
    this.deliveryIntra = this.net.intra.sendCompletes === "delivery";
    this.collectives = resolveCollectives(options.collectives);
    this.observer = options.observer ?? null;
    if (this.observer?.messageSent !== undefined && this.observer.messageReceived !== undefined) this.tokenOf = new Float64Array(64).fill(-1);
    this.fastPaths = options.fastPaths ?? true;
    this.waitEvents = new Array(n).fill(null);
    this.callOf = new Uint8Array(n);
    this.stSource = new Int32Array(n);
    this.stTag = new Int32Array(n);
    this.stBytes = new Float64Array(n);
    this.stValue = new Float64Array(n);
    this.prqHead = new Int32Array(n).fill(NIL);
    this.prqTail = new Int32Array(n).fill(NIL);
    this.umqHead = new Int32Array(n).fill(NIL);
    this.umqTail = new Int32Array(n).fill(NIL);
    this.waitMode = new Uint8Array(n);
    this.waitRemaining = new Int32Array(n);
    this.waitDelay = new Float64Array(n);
    this.pairArrivals = new PairArrivals(n);
    this.stepProgram = new Array(n).fill(null);
    this.stepComm = new Array(n).fill(null);
    this.stepBytes = new Float64Array(n);
    this.stepState = new Int32Array(STEP_STRIDE * n);
    for (let r = 0; r < n; r++) {
      this.stepState[r * STEP_STRIDE + SLOT_A] = NIL;
      this.stepState[r * STEP_STRIDE + SLOT_B] = NIL;
      this.stepState[r * STEP_STRIDE + PAIR_WAITING] = NIL;
    }
    this.wakeNext = new Int32Array(n).fill(NIL);
    const deferrable = (c: LinkCost) => c instanceof HockneyCost && c.alpha > 0;
    this.pairMode = this.fastPaths && deferrable(this.net.inter) && deferrable(this.net.intra);
    this.wakeKind = new Uint8Array(n);
    this.someSlots = new Array(n).fill(null);
    this.someDone = new Int32Array(2 * n);
    const instant = (c: LinkCost) => c.sendCompletes === "injected" && c.sendOverhead(0) === 0;
    this.instantSends = instant(this.net.inter) || instant(this.net.intra);
    this.postingFree = this.net.inter.fixedSendOverhead === 0 && this.net.intra.fixedSendOverhead === 0;
    this.receivingFree = this.net.inter.fixedRecvOverhead === 0 && this.net.intra.fixedRecvOverhead === 0;
    this.busyUntil = new Float64Array(n);
    this.someDeferrable = this.fastPaths && !this.instantSends && this.net.inter.latency(0) > 0 && this.net.intra.latency(0) > 0;
    this.someWakeAt = new Float64Array(n);
    this.someWakeOrder = new Float64Array(n);
    this.someCalls = new Int32Array(n);
    this.worldComms = new Array(n);
    this.groups.push(new Group(this, 0, "MPI_COMM_WORLD", n, null));
  }

  /** The MPI_COMM_WORLD communicator of `rank`. @throws RangeError for a rank outside the world */
  comm(rank: number): Comm {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.size) throw new RangeError(`rank ${rank} is outside [0, ${this.size})`);
    return (this.worldComms[rank] ??= new Comm(this, this.groups[0], rank));
  }

  /**
   * Starts one kernel process per world rank, named `rank N`, running `program(comm)` with that
   * rank's MPI_COMM_WORLD communicator. Returns the processes (index = rank).
   */
  launch(program: (comm: Comm) => Generator<Yieldable, unknown, unknown>): Process<unknown>[] {
    const out: Process<unknown>[] = new Array(this.size);
    for (let r = 0; r < this.size; r++) out[r] = this.sim.process(program(this.comm(r)), { name: `rank ${r}` });
    return out;
  }

  /**
   * A new communicator over the given world ranks (in their new rank order), created outside
   * simulated time (like a communicator built at start-up). Returns its group; get each member's
   * communicator with `group.comm(worldRank)`.
   * @throws RangeError for duplicate or out-of-range ranks
   */
  createComm(name: string, worldRanks: readonly number[]): Group {
    const seen = new Set<number>();
    for (const r of worldRanks) {
      if (!Number.isInteger(r) || r < 0 || r >= this.size || seen.has(r)) throw new RangeError(`createComm('${name}'): invalid or duplicate world rank ${r}`);
      seen.add(r);
    }
    const g = new Group(this, this.groups.length, name, worldRanks.length, Int32Array.from(worldRanks));
    this.groups.push(g);
    return g;
  }

  /** @internal Name of a matching context. */
  contextName(ctx: number): string {
    const g = this.groups[ctx >> 1];
    return g ? `${g.name}${ctx & 1 ? " (collective)" : ""}` : `context ${ctx}`;
  }

  // ---------------------------------------------------------------- posting

  /**
   * @internal Posts a send of `bytes` from world rank `rank` to world rank `dest`; returns its slot.
   * Computes the whole eager transfer (or the request-to-send) now and schedules its arrival.
   */
  postSend(rank: number, dest: number, tag: number, ctx: number, bytes: number, value: number, internal: boolean): number {
    const p = this.pool;
    const s = p.alloc(KIND_SEND, 0, rank, dest, tag, ctx, bytes, value, NaN);
    const now = this.sim.now;
    this.messages++;
    this.bytes += bytes;
    const net = this.net;
    const eager = bytes <= net.eagerLimit;
    const sent = eager ? bytes : net.config.controlBytes;
    // The sender's overhead is CPU time: a send posted while the call's earlier overheads are not
    // done yet starts when they are. (The built-in algorithms wait for them before posting the
    // next send, Comm.collPosted, so that the NIC queues each send when it is ready.)
    let ready = now;
    if (!this.postingFree && this.busyUntil[rank] > now) ready = this.busyUntil[rank];
    const path = net.transfer(this.rankToNode[rank], this.rankToNode[dest], sent, ready, !eager);
    if (!this.postingFree) this.busyUntil[rank] = ready + (path === 0 ? net.inter : net.intra).sendOverhead(sent);
    // Non-overtaking: envelopes from one rank to another arrive in the order they were sent.
    const arrival = this.pairArrivals.order(rank, dest, net.arrival, now);
    let flags = F_NET | (internal ? F_INTERNAL : 0);
    if (eager) {
      const delivery = path === 0 ? this.deliveryInter : this.deliveryIntra;
      p.setCompleteAt(s, delivery ? arrival : net.injected);
      if (delivery) flags |= F_AUTO;
    } else {
      flags |= F_RDV;
      p.setCompleteAt(s, NaN);
    }
    p.setFlags(s, flags);
    if (this.siteOf !== null) this.recordSite(s, rank);
    if (this.tokenOf !== null) this.setToken(s, internal ? -1 : this.observer!.messageSent!(rank, dest, bytes, now));
    if (arrival === now) this.zeroDelay();
    this.sim.schedule(arrival - now, this.onEnvelope, s);
    return s;
  }

  /**
   * @internal CPU time (us) world rank `rank` spends posting a send of `bytes` to world rank `dest`:
   * the path's sender overhead of what leaves first, the message or a rendezvous's request-to-send
   * (the overhead {@link postSend} adds before the transfer). 0 under Hockney.
   */
  postingTime(rank: number, dest: number, bytes: number): number {
    const net = this.net;
    return net.path(this.rankToNode[rank], this.rankToNode[dest]).sendOverhead(bytes <= net.eagerLimit ? bytes : net.config.controlBytes);
  }

  /** Keeps the site of `rank`'s current call with the send in slot `s`. */
  private recordSite(s: number, rank: number): void {
    if (s >= this.sendSite.length) {
      const grown = new Int32Array(Math.max(2 * this.sendSite.length, s + 1, 64)).fill(-1);
      grown.set(this.sendSite);
      this.sendSite = grown;
    }
    this.sendSite[s] = this.siteOf![rank];
  }

  /** Keeps the message number `token` with slot `s` (see {@link tokenOf}). */
  private setToken(s: number, token: number): void {
    let t = this.tokenOf!;
    if (s >= t.length) {
      const grown = new Float64Array(Math.max(2 * t.length, s + 1)).fill(-1);
      grown.set(t);
      this.tokenOf = t = grown;
    }
    t[s] = token;
  }

  /** @internal Posts a receive by world rank `rank` from world rank `source` (or ANY_SOURCE); returns its slot. */
  postRecv(rank: number, source: number, tag: number, ctx: number, bytes: number, internal: boolean): number {
    const p = this.pool;
    const r = p.alloc(KIND_RECV, internal ? F_INTERNAL : 0, rank, source, tag, ctx, bytes, 0, NaN);
    if (this.tokenOf !== null) this.setToken(r, -1);
    // Search the unexpected-message queue in arrival order.
    let prev = NIL;
    for (let m = this.umqHead[rank]; m !== NIL; m = p.next(m)) {
      if (p.ctx(m) === ctx && (source === ANY_SOURCE || p.owner(m) === source) && (tag === ANY_TAG || p.tag(m) === tag)) {
        const nx = p.next(m);
        if (prev === NIL) this.umqHead[rank] = nx;
        else p.setNext(prev, nx);
        if (this.umqTail[rank] === m) this.umqTail[rank] = prev;
        p.setNext(m, NIL);
        p.clearFlags(m, F_QUEUED);
        this.matched(r, m);
        return r;
      }
      prev = m;
    }
    p.orFlags(r, F_QUEUED);
    if (this.prqTail[rank] === NIL) this.prqHead[rank] = r;
    else p.setNext(this.prqTail[rank], r);
    this.prqTail[rank] = r;
    return r;
  }

  // ---------------------------------------------------------------- network handlers

  /** An envelope (eager message or request-to-send) reaches its destination. */
  private readonly onEnvelope = (s: number): void => {
    const p = this.pool;
    if ((p.flags(s) & (F_AUTO | F_COMPLETE)) === F_AUTO) this.complete(s);
    const dst = p.peer(s);
    const src = p.owner(s);
    const ctx = p.ctx(s);
    const tag = p.tag(s);
    let prev = NIL;
    for (let r = this.prqHead[dst]; r !== NIL; r = p.next(r)) {
      const want = p.peer(r);
      const wtag = p.tag(r);
      if (p.ctx(r) === ctx && (want === ANY_SOURCE || want === src) && (wtag === ANY_TAG || wtag === tag)) {
        const nx = p.next(r);
        if (prev === NIL) this.prqHead[dst] = nx;
        else p.setNext(prev, nx);
        if (this.prqTail[dst] === r) this.prqTail[dst] = prev;
        p.setNext(r, NIL);
        p.clearFlags(r, F_QUEUED);
        this.matched(r, s);
        return;
      }
      prev = r;
    }
    p.orFlags(s, F_QUEUED);
    if (this.umqTail[dst] === NIL) this.umqHead[dst] = s;
    else p.setNext(this.umqTail[dst], s);
    this.umqTail[dst] = s;
  };

  /** Receive `r` matched message `s` at the receiver, now. */
  private matched(r: number, s: number): void {
    const p = this.pool;
    const bytes = p.bytes(s);
    if (bytes > p.bytes(r)) {
      throw new MpiUsageError(p.owner(r), "receive", `message truncated: ${bytes} bytes from rank ${p.owner(s)} tag ${p.tag(s)} into a ${p.bytes(r)}-byte receive`, { source: p.owner(s), tag: p.tag(s) });
    }
    p.setPeer(r, p.owner(s));
    p.setTag(r, p.tag(s));
    p.setValue(r, p.value(s));
    p.setBytes(r, bytes);
    p.setMatch(r, s);
    p.setMatch(s, r);
    // The receive carries the message's number to its completion (the send's slot may be freed first).
    if (this.tokenOf !== null) this.tokenOf[r] = this.tokenOf[s];
    p.orFlags(r, F_MATCHED);
    const srcNode = this.rankToNode[p.owner(s)];
    const dstNode = this.rankToNode[p.owner(r)];
    if ((p.flags(s) & F_RDV) === 0) {
      this.releaseNet(s);
      p.setHandling(r, this.net.recvOverhead(srcNode, dstNode, bytes));
      this.complete(r);
      return;
    }
    // Rendezvous: clear-to-send from the receiver back to the sender.
    const now = this.sim.now;
    const ctl = this.net.config.controlBytes;
    this.net.transfer(dstNode, srcNode, ctl, now + this.net.recvOverhead(srcNode, dstNode, ctl), true);
    if (this.net.arrival === now) this.zeroDelay();
    this.sim.schedule(this.net.arrival - now, this.onClearToSend, s);
  }

  /** The clear-to-send reaches the sender: the data goes out. */
  private readonly onClearToSend = (s: number): void => {
    const p = this.pool;
    const now = this.sim.now;
    const srcNode = this.rankToNode[p.owner(s)];
    const dstNode = this.rankToNode[p.peer(s)];
    const net = this.net;
    const ready = now + net.recvOverhead(dstNode, srcNode, net.config.controlBytes);
    const path = net.transfer(srcNode, dstNode, p.bytes(s), ready);
    const delivery = path === 0 ? this.deliveryInter : this.deliveryIntra;
    if (delivery) {
      p.setCompleteAt(s, net.arrival);
      p.orFlags(s, F_AUTO);
    } else {
      p.setCompleteAt(s, net.injected);
      if (net.injected === now) this.zeroDelay();
      if (p.flags(s) & F_WAITED) this.scheduleCompletion(s);
    }
    if (net.arrival === now) this.zeroDelay();
    this.sim.schedule(net.arrival - now, this.onData, s);
  };

  /** Rendezvous data reaches the receiver. */
  private readonly onData = (s: number): void => {
    const p = this.pool;
    if ((p.flags(s) & (F_AUTO | F_COMPLETE)) === F_AUTO) this.complete(s);
    const r = p.match(s);
    const srcNode = this.rankToNode[p.owner(s)];
    const dstNode = this.rankToNode[p.owner(r)];
    const bytes = p.bytes(s);
    this.releaseNet(s);
    p.setHandling(r, this.net.recvOverhead(srcNode, dstNode, bytes));
    this.complete(r);
  };

  /** A scheduled completion (argument: slot handle, so a recycled slot is ignored). */
  private readonly onCompletion = (h: number): void => {
    const p = this.pool;
    if (!p.isCurrent(h)) return;
    const s = h % SLOT_SPAN;
    p.clearFlags(s, F_SCHED);
    this.complete(s);
  };

  private scheduleCompletion(s: number): void {
    const p = this.pool;
    if (p.flags(s) & (F_SCHED | F_AUTO | F_COMPLETE)) return;
    const at = p.completeAt(s);
    if (at !== at) return; // NaN: not known yet (rendezvous before clear-to-send)
    p.orFlags(s, F_SCHED);
    this.sim.schedule(Math.max(0, at - this.sim.now), this.onCompletion, p.handle(s));
  }

  /** The network no longer refers to send slot `s`; recycle it if its owner released it too. */
  private releaseNet(s: number): void {
    const p = this.pool;
    const f = p.flags(s) & ~F_NET;
    p.setFlags(s, f);
    if (f & F_RELEASED) p.free(s);
  }

  /** Tells the observer that the receive in slot `s`, if it holds a message of the program, has completed. */
  private received(s: number): void {
    const token = this.tokenOf![s];
    // A collective's own slots are allocated without a number (they may hold one of the slot's
    // earlier send): they carry none.
    if (token < 0 || this.pool.kind(s) !== KIND_RECV || (this.pool.flags(s) & F_INTERNAL) !== 0) return;
    this.tokenOf![s] = -1;
    this.observer!.messageReceived!(token, this.pool.owner(s), this.sim.now);
  }

  /**
   * Marks a request complete (a receive: its message has arrived) and wakes its owner if it
   * waits on it. A wait for all its requests (and a collective's step) handles a received
   * message at once, so its overhead follows the CPU's earlier work; a wait for any of them
   * leaves that to the call, which knows which requests it returns.
   */
  private complete(s: number): void {
    const p = this.pool;
    const f = p.flags(s);
    if (f & F_COMPLETE) return;
    p.setFlags(s, f | F_COMPLETE);
    if (this.tokenOf !== null) this.received(s);
    if ((f & F_WAITED) === 0) return;
    const rank = p.owner(s);
    const mode = this.waitMode[rank];
    if (mode === WAIT_STEPS) {
      this.handleReceived(rank, s);
      if (--this.waitRemaining[rank] === 0) this.stepDone(rank);
      return;
    }
    if (mode >= WAIT_SOME) {
      this.someCompleted(rank, p.aux(s), mode);
      return;
    }
    if (mode === WAIT_ALL) {
      this.handleReceived(rank, s);
      if (--this.waitRemaining[rank] > 0) return;
    } else if (mode !== WAIT_ANY) return;
    this.waitMode[rank] = WAIT_WAKE;
    this.scheduleWake(rank, this.wakeDelay(rank, this.waitDelay[rank]), WAKE_EVENT);
  }

  /**
   * When slot `s` is a receive, the CPU of `rank` handles its message (its receiver overhead),
   * once it is done with the overheads it is busy with, now at the earliest. Nothing to do when
   * handling takes no time on any path ({@link receivingFree}): only otherwise is the slot's
   * handling time set.
   */
  private handleReceived(rank: number, s: number): void {
    if (this.receivingFree || this.pool.kind(s) !== KIND_RECV) return;
    const now = this.sim.now;
    const b = this.busyUntil[rank];
    this.busyUntil[rank] = (b > now ? b : now) + this.pool.handling(s);
  }

  /**
   * @internal The program completes request slot `s` of its owner by an MPI_Waitany,
   * MPI_Waitsome or MPI_Test, now: a receive's message is handled by the owner's CPU (see
   * {@link untilFree} for how long the call then takes).
   */
  handled(s: number): void {
    this.handleReceived(this.pool.owner(s), s);
  }

  /** Time (us) from now until `rank`'s CPU is done with the overheads of its current MPI call, 0 when it is. */
  private busyFor(rank: number): number {
    const b = this.busyUntil[rank];
    const now = this.sim.now;
    return b > now ? b - now : 0;
  }

  /**
   * @internal The event to yield until `rank`'s CPU is done with the overheads of its current MPI
   * call (the sends it posted, the messages it handled), or null when it is.
   */
  untilFree(rank: number): SimEvent<unknown> | null {
    const d = this.busyFor(rank);
    return d > 0 ? this.sim.timeout(d) : null;
  }

  /** Delay (us) from now until `rank`, whose wait is over, wakes: once its CPU is done with the call's overheads, `after` us later (a reduction). */
  private wakeDelay(rank: number, after: number): number {
    return this.busyFor(rank) + after;
  }

  /**
   * Schedules the wake-up of `rank` `delay` us from now. Wake-ups scheduled one right after the
   * other for the same time (the sender and the receiver of a message that completes both) would
   * get consecutive sequence numbers, so no other event can fire between them: they share one
   * kernel event that wakes the ranks in the same order, which halves the wake-up events of
   * pairwise exchanges without changing the order of anything.
   */
  private scheduleWake(rank: number, delay: number, kind: number): void {
    const sim = this.sim;
    const at = sim.now + delay;
    if (this.wakeTail !== NIL && at === this.wakeTime && sim.eventsProcessed === this.wakeFired && sim.pending === this.wakePending) {
      this.wakeNext[this.wakeTail] = rank;
    } else {
      sim.schedule(delay, this.onWake, rank);
      this.wakeTime = at;
      this.wakeFired = sim.eventsProcessed;
      this.wakePending = sim.pending;
    }
    this.wakeNext[rank] = NIL;
    this.wakeKind[rank] = kind;
    this.wakeTail = rank;
  }

  /** A wake-up event: wakes its ranks in the order they were scheduled. */
  private readonly onWake = (first: number): void => {
    this.wakeTail = NIL;
    for (let rank = first; rank !== NIL; ) {
      // Read the link first: waking a rank may schedule its next wake-up.
      const next = this.wakeNext[rank];
      this.wakeNext[rank] = NIL;
      const kind = this.wakeKind[rank];
      if (kind === WAKE_STEPS) this.continueSteps(rank);
      else if (kind === WAKE_SOME) this.someCallEnds(rank);
      else this.resumeRank(rank);
      rank = next;
    }
  };

  /** Ends the rank's wait and resumes its process at once (this is the wake-up event). */
  private resumeRank(rank: number): void {
    const ev = this.waitEvents[rank]!;
    this.waitEvents[rank] = null;
    this.waitMode[rank] = 0;
    // Processing the pending event now resumes the waiting process exactly as if it had been
    // triggered with a zero delay and reached the head of the event list.
    ev.process();
  }

  // ---------------------------------------------------------------- waiting

  /** @internal True when request slot `s` is complete (a send whose completion time has passed is completed now). */
  isComplete(s: number): boolean {
    const p = this.pool;
    if (p.flags(s) & F_COMPLETE) return true;
    if (p.kind(s) === KIND_SEND && p.completeAt(s) <= this.sim.now) {
      p.orFlags(s, F_COMPLETE);
      return true;
    }
    return false;
  }

  /**
   * @internal Starts waiting for all (`any` false) or any (`any` true) of the first `n` slots
   * (negative entries are skipped). Returns null when no wait is needed, else the event to yield.
   * Waiting for all, the rank handles each received message (its receiver overhead, CPU time)
   * in turn: the messages that have arrived in list order, at once, then the others as they
   * arrive; the event fires when it has handled the last one and every send is complete.
   * Waiting for any, the caller charges the handling of what it returns (see {@link handled}).
   */
  beginWait(rank: number, slots: ArrayLike<number>, n: number, any: boolean): SimEvent<unknown> | null {
    // One pass in the common cases: incomplete requests are marked as they are found; only a
    // wait-any that finds a completed request after marking some has to unmark them.
    const p = this.pool;
    let incomplete = 0;
    for (let i = 0; i < n; i++) {
      const s = slots[i];
      if (s < 0) continue;
      if (this.isComplete(s)) {
        if (!any) {
          this.handleReceived(rank, s);
          continue;
        }
        for (let j = 0; j < i; j++) if (slots[j] >= 0) p.clearFlags(slots[j], F_WAITED);
        return null;
      }
      incomplete++;
      p.orFlags(s, F_WAITED);
      if (p.kind(s) === KIND_SEND) this.scheduleCompletion(s);
    }
    if (incomplete === 0) return any ? null : this.untilFree(rank);
    this.waitMode[rank] = any ? WAIT_ANY : WAIT_ALL;
    this.waitRemaining[rank] = incomplete;
    this.waitDelay[rank] = 0;
    const ev = new RankWait(this.sim, this, rank);
    this.waitEvents[rank] = ev;
    return ev;
  }

  /**
   * @internal Starts waiting for one or two slots (b may be -1) without an array, handling
   * received messages as {@link beginWait} does. With `after` > 0 the rank wakes `after` us after
   * the last completion and its handling (a local reduction folded into the wait, which saves a
   * kernel event and a process resume per collective step); the returned event is then a
   * timeout when nothing is left to wait for.
   */
  beginWait2(rank: number, a: number, b: number, after = 0): SimEvent<unknown> | null {
    const p = this.pool;
    let incomplete = 0;
    if (!this.isComplete(a)) {
      incomplete++;
      p.orFlags(a, F_WAITED);
      if (p.kind(a) === KIND_SEND) this.scheduleCompletion(a);
    } else this.handleReceived(rank, a);
    if (b >= 0) {
      if (!this.isComplete(b)) {
        incomplete++;
        p.orFlags(b, F_WAITED);
        if (p.kind(b) === KIND_SEND) this.scheduleCompletion(b);
      } else this.handleReceived(rank, b);
    }
    if (incomplete === 0) {
      const d = this.wakeDelay(rank, after);
      return d > 0 ? this.sim.timeout(d) : null;
    }
    this.waitMode[rank] = WAIT_ALL;
    this.waitRemaining[rank] = incomplete;
    this.waitDelay[rank] = after;
    const ev = new RankWait(this.sim, this, rank);
    this.waitEvents[rank] = ev;
    return ev;
  }

  /**
   * @internal The loop `while (left > 0) left -= (yield* comm.waitsome(reqs)).length` run by
   * callbacks: the same MPI_Waitsome calls return the same requests at the same simulated times
   * and release them in the same order, but the rank's process is resumed only once, when all
   * `slots` are done. Returns null when everything was done at once, else the event to yield;
   * afterwards {@link someCalls}[rank] holds the number of MPI_Waitsome calls made.
   */
  waitsomeUntilDone(rank: number, slots: Int32Array): RankWait | null {
    const p = this.pool;
    let done = 0;
    let incomplete = 0;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (s < 0) continue;
      if (this.isComplete(s)) {
        done++;
        continue;
      }
      incomplete++;
      p.orFlags(s, F_WAITED);
      p.setAux(s, i);
      if (p.kind(s) === KIND_SEND) this.scheduleCompletion(s);
    }
    // A first call that finds requests complete returns them without waiting.
    this.someCalls[rank] = done > 0 ? 1 : 0;
    if (done > 0) this.releaseDone(rank, slots);
    if (incomplete === 0) return null;
    this.someDone[2 * rank] = 0;
    this.someDone[2 * rank + 1] = 0;
    this.waitMode[rank] = WAIT_SOME;
    this.waitRemaining[rank] = incomplete;
    this.waitDelay[rank] = 0;
    this.someSlots[rank] = slots;
    const ev = new RankWait(this.sim, this, rank);
    this.waitEvents[rank] = ev;
    return ev;
  }

  /**
   * Request `i` of a rank in WAIT_SOME completed, now. As MPI_Waitsome, the first completion
   * after a call began schedules the wake-up that ends the call; completions before it fires are
   * returned by the same call. When events are scheduled strictly before their times, every
   * completion at the wake-up's time fires before it, and a wake-up that does not resume the
   * rank has no effect but ending the call: such wake-ups are only reserved, the call is ended
   * when the next completion comes later, and only the last one is scheduled, with its order.
   */
  private someCompleted(rank: number, i: number, mode: number): void {
    const now = this.sim.now;
    if (mode === WAIT_SOME_GROUP && this.someWakeAt[rank] < now) {
      // The pending call's wake-up has come and gone: that call returned what was done then.
      this.someReturn(rank);
      mode = WAIT_SOME;
    }
    if (i < 32) this.someDone[2 * rank] |= 1 << i;
    else if (i < 64) this.someDone[2 * rank + 1] |= 1 << (i - 32);
    const left = --this.waitRemaining[rank];
    if (mode === WAIT_SOME) {
      if (left > 0 && this.someDeferrable && this.someSlots[rank]!.length <= 64) {
        this.waitMode[rank] = WAIT_SOME_GROUP;
        this.someWakeAt[rank] = now;
        this.someWakeOrder[rank] = this.reserve();
        return;
      }
      this.waitMode[rank] = WAIT_SOME_WAKING;
      this.scheduleWake(rank, 0, WAKE_SOME);
      return;
    }
    if (mode === WAIT_SOME_GROUP && left === 0) this.pushSomeWake(rank);
  }

  /** Schedules the reserved wake-up of a rank in WAIT_SOME_GROUP. */
  private pushSomeWake(rank: number): void {
    this.waitMode[rank] = WAIT_SOME_WAKING;
    this.wakeNext[rank] = NIL;
    this.wakeKind[rank] = WAKE_SOME;
    this.sim.scheduleReserved(this.someWakeAt[rank], this.someWakeOrder[rank], this.onWake, rank);
  }

  /** A kernel order for an event that may be scheduled later; no later wake-up may join an earlier one across it. */
  private reserve(): number {
    this.wakeTail = NIL;
    return this.sim.reserveOrder();
  }

  /**
   * A message is about to arrive at the time it is sent: from now on events may be scheduled at
   * their own time, so reserved MPI_Waitsome wake-ups are scheduled and no more are reserved.
   */
  private zeroDelay(): void {
    if (!this.someDeferrable) return;
    this.someDeferrable = false;
    for (let r = 0; r < this.size; r++) if (this.waitMode[r] === WAIT_SOME_GROUP) this.pushSomeWake(r);
  }

  /** The wake-up of one MPI_Waitsome call of a rank in WAIT_SOME: returns (releases) what is done; resumes the rank when nothing is left. */
  private someCallEnds(rank: number): void {
    this.someReturn(rank);
    if (this.waitRemaining[rank] > 0) {
      this.waitMode[rank] = WAIT_SOME;
      return;
    }
    this.someSlots[rank] = null;
    this.resumeRank(rank);
  }

  /** One MPI_Waitsome call returns: counts it and releases what completed since the last one. */
  private someReturn(rank: number): void {
    this.someCalls[rank]++;
    const slots = this.someSlots[rank]!;
    if (this.instantSends || slots.length > 64) this.releaseDone(rank, slots);
    else {
      // Only the requests whose completion was seen since the last call, in list order.
      for (let w = 0; w < 2; w++) {
        let bits = this.someDone[2 * rank + w];
        this.someDone[2 * rank + w] = 0;
        while (bits !== 0) {
          const low = bits & -bits;
          const i = 31 - Math.clz32(low) + 32 * w;
          bits ^= low;
          const s = slots[i];
          this.release(s); // clears F_WAITED (or frees the slot)
          slots[i] = -1;
        }
      }
    }
  }

  /** Releases the completed requests among `slots` in order (as MPI_Waitsome returns them) and marks them -1. */
  private releaseDone(rank: number, slots: Int32Array): void {
    const p = this.pool;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (s < 0) continue;
      const f = p.flags(s);
      if (!this.isComplete(s)) continue;
      // A waited send found complete by its completion time (its event not yet fired) was still counted as outstanding.
      if ((f & (F_COMPLETE | F_WAITED)) === F_WAITED) this.waitRemaining[rank]--;
      this.release(s); // clears F_WAITED (or frees the slot)
      slots[i] = -1;
    }
  }

  /** @internal Stops waiting on slot `s` (after a waitany/waitsome returned without it). */
  unwait(s: number): void {
    this.pool.clearFlags(s, F_WAITED);
  }

  /**
   * @internal Releases a completed request: records a receive's status for its owner and
   * recycles the slot (a send slot once the network is done with it too; until then it is marked
   * released and no longer waited on).
   */
  release(s: number): void {
    const p = this.pool;
    const f = p.flags(s);
    if (p.kind(s) === KIND_RECV) {
      if ((f & F_INTERNAL) === 0) {
        const rank = p.owner(s);
        this.stSource[rank] = p.peer(s);
        this.stTag[rank] = p.tag(s);
        this.stBytes[rank] = p.bytes(s);
        this.stValue[rank] = p.value(s);
      }
      p.free(s);
      return;
    }
    if (f & F_NET) p.setFlags(s, (f | F_RELEASED) & ~F_WAITED);
    else p.free(s);
  }

  // ---------------------------------------------------------------- exchange programs

  /**
   * @internal Runs `program` for the calling rank of `comm` with collective-internal messages.
   * Returns the event that succeeds when the rank has finished it, or null when it finished at
   * once. Events are scheduled exactly where the generator form of the algorithm would schedule
   * its wake-ups, so both give the same event order and timing.
   */
  runSteps(comm: Comm, program: ExchangeProgram, bytes: number): RankWait | null {
    const rank = comm.worldRank;
    this.stepProgram[rank] = program;
    this.stepComm[rank] = comm;
    this.stepState[rank * STEP_STRIDE + STEP_INDEX] = -1;
    this.stepBytes[rank] = bytes;
    this.stepState[rank * STEP_STRIDE + STEP_CALL] = ++comm.programCalls;
    this.stepState[rank * STEP_STRIDE + STEP_GROUP] = comm.group.id;
    const ev = new RankWait(this.sim, this, rank);
    this.waitEvents[rank] = ev;
    this.waitMode[rank] = WAIT_STEPS;
    if (this.postSteps(rank)) {
      this.endSteps(rank);
      this.waitEvents[rank] = null;
      this.waitMode[rank] = 0;
      return null;
    }
    return ev;
  }

  /** Continues a program after a step's reduction delay. */
  private continueSteps(rank: number): void {
    if (this.postSteps(rank)) {
      this.endSteps(rank);
      this.resumeRank(rank);
    }
  }

  /**
   * Releases the finished step's requests and posts the next steps until one has to wait;
   * returns true when the program has ended without waiting.
   */
  private postSteps(rank: number): boolean {
    const out = this.stepOut;
    const comm = this.stepComm[rank]!;
    const program = this.stepProgram[rank]!;
    const group = comm.group;
    const p = this.pool;
    for (;;) {
      const a0 = this.stepState[rank * STEP_STRIDE + SLOT_A];
      const b0 = this.stepState[rank * STEP_STRIDE + SLOT_B];
      if (a0 !== NIL) this.release(a0);
      if (b0 !== NIL) this.release(b0);
      this.stepState[rank * STEP_STRIDE + SLOT_A] = NIL;
      this.stepState[rank * STEP_STRIDE + SLOT_B] = NIL;
      const k = ++this.stepState[rank * STEP_STRIDE + STEP_INDEX];
      out.recvBytes = NaN;
      if (!program.step(comm.rank, comm.size, k, this.stepBytes[rank], out, this.collectives.elementBytes)) return true;
      if (out.send < 0 && out.recv < 0) continue;
      if (this.pairMode && out.send === out.recv && out.sendBytes <= this.net.eagerLimit && out.recvBytes <= this.net.eagerLimit) {
        this.postPair(rank, comm, group.toWorld(out.send), out.tag, out.sendBytes, out.reduceBytes * this.collectives.reduceCostPerByte);
        return false;
      }
      const a = out.recv >= 0 ? this.postRecv(rank, group.toWorld(out.recv), out.tag, group.collCtx, Infinity, true) : NIL;
      const b = out.send >= 0 ? this.postSend(rank, group.toWorld(out.send), out.tag, group.collCtx, out.sendBytes, 0, true) : NIL;
      this.stepState[rank * STEP_STRIDE + SLOT_A] = a;
      this.stepState[rank * STEP_STRIDE + SLOT_B] = b;
      const delay = out.reduceBytes * this.collectives.reduceCostPerByte;
      this.waitDelay[rank] = delay;
      let incomplete = 0;
      if (a !== NIL) {
        if (!this.isComplete(a)) {
          incomplete++;
          p.orFlags(a, F_WAITED);
        } else this.handleReceived(rank, a);
      }
      if (b !== NIL && !this.isComplete(b)) {
        incomplete++;
        p.orFlags(b, F_WAITED);
        this.scheduleCompletion(b);
      }
      if (incomplete > 0) {
        this.waitRemaining[rank] = incomplete;
        return false;
      }
      if (delay > 0 || this.busyUntil[rank] > this.sim.now) {
        this.stepDone(rank);
        return false;
      }
    }
  }

  /**
   * A pairwise exchange step (receive from and send to the same `partner`, both messages eager,
   * Hockney paths). Of the two messages only the one that arrives last needs an arrival event:
   * the other one completes its send and its receive earlier, which wakes nobody, because each
   * side also waits for the later message. So each send only reserves the order its arrival
   * event would get; when the second side posts, the later message's event is scheduled with its
   * reserved order and, when it fires, delivers both messages in arrival order (the same
   * completions, wake-ups and event order as two arrival events). Halves the arrival events of
   * recursive doubling and Rabenseifner.
   */
  private postPair(rank: number, comm: Comm, partner: number, tag: number, sendBytes: number, delay: number): void {
    const p = this.pool;
    const ctx = comm.group.collCtx;
    // Like postRecv, but the receive is matched by the partner's send of this step (the pair is
    // self-contained: both sides post in the same step of the same call, in one context).
    const r = p.alloc(KIND_RECV, F_INTERNAL | F_WAITED | F_QUEUED, rank, partner, tag, ctx, Infinity, 0, NaN);
    const s = this.postLatentSend(rank, partner, tag, ctx, sendBytes);
    this.stepState[rank * STEP_STRIDE + SLOT_A] = r;
    this.stepState[rank * STEP_STRIDE + SLOT_B] = s;
    this.waitDelay[rank] = delay;
    this.waitRemaining[rank] = 2;
    const me = rank * STEP_STRIDE;
    const them = partner * STEP_STRIDE;
    const st = this.stepState;
    if (st[them + PAIR_WAITING] !== rank || st[them + STEP_GROUP] !== st[me + STEP_GROUP] || st[them + STEP_CALL] !== st[me + STEP_CALL] || st[them + STEP_INDEX] !== st[me + STEP_INDEX]) {
      st[me + PAIR_WAITING] = partner;
      return;
    }
    this.stepState[partner * STEP_STRIDE + PAIR_WAITING] = NIL;
    const pr = this.stepState[partner * STEP_STRIDE + SLOT_A];
    const ps = this.stepState[partner * STEP_STRIDE + SLOT_B];
    p.setMatch(s, pr);
    p.setMatch(pr, s);
    p.setMatch(ps, r);
    p.setMatch(r, ps);
    p.setAux(s, ps);
    p.setAux(ps, s);
    p.clearFlags(pr, F_QUEUED);
    p.clearFlags(r, F_QUEUED);
    // The later arrival; on a tie the message posted later (this one: its reserved order is larger).
    const last = p.completeAt(ps) > p.completeAt(s) ? ps : s;
    this.sim.scheduleReserved(p.completeAt(last), p.order(last), this.onPairArrival, last);
  }

  /** postSend for a pairwise step: the transfer is computed now; its arrival event is only reserved. */
  private postLatentSend(rank: number, dest: number, tag: number, ctx: number, bytes: number): number {
    const p = this.pool;
    const s = p.alloc(KIND_SEND, 0, rank, dest, tag, ctx, bytes, 0, NaN);
    const now = this.sim.now;
    this.messages++;
    this.bytes += bytes;
    this.net.transfer(this.rankToNode[rank], this.rankToNode[dest], bytes, now);
    const arrival = this.pairArrivals.order(rank, dest, this.net.arrival, now);
    // A positive latency makes every arrival later than its send, which the deferral relies on.
    if (!(arrival > now)) throw new RangeError(`simulated time ${now} us is too large for the network latency: a message would arrive when it is sent`);
    p.setCompleteAt(s, arrival);
    p.setFlags(s, F_NET | F_INTERNAL | F_AUTO | F_WAITED | F_LATENT);
    p.setOrder(s, this.reserve());
    return s;
  }

  /** The later message of a pair arrives: the earlier one is delivered first, then this one. */
  private readonly onPairArrival = (last: number): void => {
    const first = this.pool.aux(last);
    this.deliverPaired(first);
    this.deliverPaired(last);
  };

  /** What onEnvelope and matched do for an eager message whose receive is known and already posted. */
  private deliverPaired(s: number): void {
    const p = this.pool;
    const r = p.match(s);
    p.clearFlags(s, F_LATENT);
    this.complete(s);
    p.setPeer(r, p.owner(s));
    p.setTag(r, p.tag(s));
    p.setValue(r, 0); // the send's value field held its reserved order; collective messages carry no value
    p.setBytes(r, p.bytes(s));
    p.orFlags(r, F_MATCHED);
    this.releaseNet(s);
    this.complete(r);
  }

  /** Every request of the rank's current step has completed (now): continue once its overheads are done, after its reduction delay. */
  private stepDone(rank: number): void {
    const d = this.wakeDelay(rank, this.waitDelay[rank]);
    if (this.hasMoreSteps(rank)) {
      this.scheduleWake(rank, d, WAKE_STEPS);
      return;
    }
    const a = this.stepState[rank * STEP_STRIDE + SLOT_A];
    const b = this.stepState[rank * STEP_STRIDE + SLOT_B];
    if (a !== NIL) this.release(a);
    if (b !== NIL) this.release(b);
    this.stepState[rank * STEP_STRIDE + SLOT_A] = NIL;
    this.stepState[rank * STEP_STRIDE + SLOT_B] = NIL;
    this.endSteps(rank);
    this.waitMode[rank] = WAIT_WAKE;
    this.scheduleWake(rank, d, WAKE_EVENT);
  }

  /** True when the rank's program has another step with a message after the current one. */
  private hasMoreSteps(rank: number): boolean {
    const comm = this.stepComm[rank]!;
    const program = this.stepProgram[rank]!;
    if (program.lastStep !== undefined) return this.stepState[rank * STEP_STRIDE + STEP_INDEX] < program.lastStep(comm.rank, comm.size);
    const out = this.stepPeek;
    for (let k = this.stepState[rank * STEP_STRIDE + STEP_INDEX] + 1; ; k++) {
      if (!program.step(comm.rank, comm.size, k, this.stepBytes[rank], out, this.collectives.elementBytes)) return false;
      if (out.send >= 0 || out.recv >= 0) return true;
    }
  }

  /** Forgets the rank's program; its wait event stays until the rank is resumed. */
  private endSteps(rank: number): void {
    this.stepProgram[rank] = null;
    this.stepComm[rank] = null;
  }

  // ---------------------------------------------------------------- running and reports

  /**
   * Runs the simulation (see {@link Simulation.run}); when it runs dry with ranks blocked, throws
   * an {@link MpiDeadlockError} naming each blocked rank, its MPI call and what it waits for.
   * @throws MpiDeadlockError on deadlock; whatever the run throws otherwise
   */
  run(options: Omit<RunOptions, "onDeadlock"> = {}): RunResult {
    let res = this.sim.run({ ...options, onDeadlock: "report" });
    let events = res.events;
    // Deferred events that had no effect while ranks were still waiting run now, so a deadlock
    // is reported at the time and in the state the generator forms reach.
    while (res.reason === "deadlock" && this.flushDeferred()) {
      res = this.sim.run({ ...options, onDeadlock: "report" });
      events += res.events;
    }
    if (res.reason === "deadlock") throw this.explainDeadlock(res.blocked);
    return { ...res, events };
  }

  /**
   * Runs or schedules what the fast paths left deferred when the event list ran dry: reserved
   * MPI_Waitsome wake-ups, and messages of pairwise steps whose partner never posted (they go to
   * the partner's unexpected queue as ordinary messages). Returns true when something was scheduled.
   */
  private flushDeferred(): boolean {
    const p = this.pool;
    const now = this.sim.now;
    const late: number[] = [];
    this.reportStamp = ""; // the state changes below without an event
    for (let r = 0; r < this.size; r++) {
      if (this.waitMode[r] === WAIT_SOME_GROUP) late.push(-1 - r);
      if (this.stepState[r * STEP_STRIDE + PAIR_WAITING] !== NIL) {
        this.stepState[r * STEP_STRIDE + PAIR_WAITING] = NIL;
        const s = this.stepState[r * STEP_STRIDE + SLOT_B];
        p.clearFlags(s, F_LATENT);
        late.push(s);
      }
    }
    const at = (x: number) => (x < 0 ? this.someWakeAt[-1 - x] : p.completeAt(x));
    const order = (x: number) => (x < 0 ? this.someWakeOrder[-1 - x] : p.order(x));
    late.sort((a, b) => at(a) - at(b) || order(a) - order(b));
    let scheduled = false;
    for (const x of late) {
      const t = at(x);
      const o = order(x);
      if (x >= 0) p.setValue(x, 0); // it held the reserved order; an ordinary message carries its value there
      if (t >= now) {
        if (x < 0) this.pushSomeWake(-1 - x);
        else this.sim.scheduleReserved(t, o, this.onEnvelope, x);
        scheduled = true;
      } else if (x < 0) {
        // That call's wake-up has come and gone; the rank waits in its next call.
        this.someReturn(-1 - x);
        this.waitMode[-1 - x] = WAIT_SOME;
      } else this.onEnvelope(x);
    }
    return scheduled || this.sim.pending > 0;
  }

  /**
   * Checks the end state like MPI_Finalize would: every sent message received and every posted
   * receive matched.
   * @throws MpiUnreceivedMessagesError listing what was left over
   */
  finalize(): void {
    const { unreceived, unmatched } = this.leftovers();
    if (unreceived.length > 0 || unmatched.length > 0) throw new MpiUnreceivedMessagesError(this.sim.now, unreceived, unmatched);
  }

  /** Messages sent but not received and receives posted but not matched, right now. */
  leftovers(): { unreceived: UnreceivedMessage[]; unmatched: UnmatchedReceive[] } {
    return findLeftovers(this);
  }

  /** Ranks blocked in MPI right now, with what they wait for. */
  blockedRanks(): BlockedRank[] {
    const pending = this.pendingByRank();
    const out: BlockedRank[] = [];
    for (let r = 0; r < this.size; r++) {
      if (this.waitEvents[r] === null) continue;
      out.push({ rank: r, call: MPI_CALLS[this.callOf[r]] || "MPI", waitsFor: pending.get(r) ?? [] });
    }
    return out;
  }

  /**
   * Explains a deadlock in MPI terms: for code that runs the kernel itself and catches its
   * {@link DeadlockError}, `throw world.explainDeadlock(err.blocked)` gives the MPI report.
   */
  explainDeadlock(blocked: readonly BlockedProcess[]): MpiDeadlockError {
    return new MpiDeadlockError(this.sim.now, blocked, this.blockedRanks(), this.leftovers().unreceived);
  }

  /** @internal One line: the MPI call rank `rank` is in and what it waits for. */
  describeRank(rank: number): string {
    const pending = this.pendingByRank().get(rank) ?? [];
    return `${MPI_CALLS[this.callOf[rank]] || "MPI"} on rank ${rank}, waiting for ${pending.map(describePending).join(" and ") || "nothing MPI knows of"}`;
  }

  /** Waited, incomplete requests grouped by owner rank (one pool pass, cached until the state changes). */
  private pendingByRank(): Map<number, PendingRequest[]> {
    // Reports are built when a run has ended; the stamp only avoids one pool pass per blocked rank.
    const stamp = `${this.sim.eventsProcessed}/${this.messages}/${this.pool.live}/${this.sim.now}`;
    if (this.reportStamp !== stamp) {
      this.reportCache = pendingRequestsByRank(this);
      this.reportStamp = stamp;
    }
    return this.reportCache;
  }

  /** Approximate bytes of MPI state: per-rank arrays, the request pool and the network's arrays. */
  stateBytes(): number {
    return this.size * (4 * 4 + 1 + 1 + 4 + 4 + 4 + 8 + 8 + 8 + 8 + 8 + 8 + 8 + 4 + 8 + 8 + 4 + 1 + 8 + 4 + 8 + 8 + 8 + 4 + 4 + 12 + 8) + this.pool.bytesUsed() + this.pairArrivals.byteLength + this.net.nicFreeAt.byteLength;
  }

  /**
   * @internal Labels the sends `rank` posts from now on with `site` (an integer >= 0 the caller
   * chooses, such as the model element making them): {@link leftovers} reports it with each
   * message never received, -1 for sends posted before any site was set.
   */
  setSite(rank: number, site: number): void {
    if (this.siteOf === null) this.siteOf = new Int32Array(this.size).fill(-1);
    this.siteOf[rank] = site;
  }

  /** @internal The site `rank` gave its current call (see {@link setSite}), or -1. */
  siteOfRank(rank: number): number {
    return this.siteOf !== null && rank >= 0 && rank < this.size ? this.siteOf[rank] : -1;
  }

  /** @internal The site of the send in slot `s` (see {@link setSite}), or -1. */
  siteOfSend(s: number): number {
    return s < this.sendSite.length ? this.sendSite[s] : -1;
  }

  /** @internal Sets the MPI call rank `rank` is in (for reports). */
  setCall(rank: number, call: number): void {
    this.callOf[rank] = call;
  }
}

