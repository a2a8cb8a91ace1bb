import type { Yieldable } from "../../engine/index.js";
import { ANY_SOURCE, ANY_TAG, CALL, MPI_CALLS, REQUEST_NULL, TAG_UB, type MpiCallName } from "./constants.js";
import { CollectiveOrder } from "./collective-order.js";
import { MpiUsageError } from "./errors.js";
import { F_INTERNAL, F_LISTED, F_RELEASED, KIND_RECV, NIL } from "./requests.js";
import type { MpiWorld } from "./world.js";

/** What a completed receive delivered. `source` is a rank of the receive's communicator. */
export interface Status {
  readonly source: number;
  readonly tag: number;
  /** Message size in bytes. */
  readonly bytes: number;
  /** The number the sender attached (0 if none). */
  readonly value: number;
}

/** The generator type of blocking MPI calls: yields kernel events, returns `T`. */
export type MpiCall<T = void> = Generator<Yieldable, T, unknown>;

/**
 * Why `value` is not a rank of communicator `comm` of `size` ranks (`what`: destination, source,
 * root), or undefined when it is one.
 */
function notARank(what: string, value: number, size: number, comm: string): string | undefined {
  if (!Number.isInteger(value)) return `${what} ${value} is not an integer rank of ${comm} (0 to ${size - 1})`;
  if (value < 0 || value >= size) return `${what} ${value} is outside [0, ${size}) of ${comm}`;
  return undefined;
}

/** Why `tag` is not a message tag (an integer in [0, TAG_UB]), or undefined when it is one. */
function notATag(tag: number): string | undefined {
  if (!Number.isInteger(tag)) return `tag ${tag} is not an integer`;
  if (tag < 0 || tag > TAG_UB) return `tag ${tag} is outside [0, ${TAG_UB}]`;
  return undefined;
}

/** A call that returns at once (a collective of zero bytes). */
function* noMessages(): MpiCall {}

/**
 * Whether `h`, given as a request handle, is a call (a generator, as `comm.isend(...)` returns
 * without `yield*`). Why asked: JavaScript callers get no type error for it, and the send it
 * stands for was never made.
 */
function isCallObject(h: unknown): boolean {
  return typeof h === "object" && h !== null && typeof (h as { next?: unknown }).next === "function";
}

/**
 * A communicator's membership: size, matching contexts and the mapping between its ranks and
 * world ranks. Point-to-point traffic uses context `2*id`, collectives `2*id + 1`, so they never
 * match each other.
 */
export class Group {
  /** Context of point-to-point messages. */
  readonly ctx: number;
  /** Context of collective-internal messages. */
  readonly collCtx: number;
  private fromWorld: Int32Array | null = null;
  private readonly comms = new Map<number, Comm>();
  /** @internal The collectives the members have made, checked against each other. */
  readonly collectiveOrder: CollectiveOrder;

  /** @internal */
  constructor(
    private readonly world: MpiWorld,
    readonly id: number,
    readonly name: string,
    readonly size: number,
    private readonly members: Int32Array | null,
  ) {
    this.ctx = 2 * id;
    this.collCtx = 2 * id + 1;
    this.collectiveOrder = new CollectiveOrder(size, name);
    if (members !== null) {
      this.fromWorld = new Int32Array(world.size).fill(-1);
      for (let i = 0; i < members.length; i++) this.fromWorld[members[i]] = i;
    }
  }

  /** World rank of group rank `r`. */
  toWorld(r: number): number {
    return this.members === null ? r : this.members[r];
  }

  /** Group rank of world rank `w`, or -1 when not a member. */
  toGroup(w: number): number {
    return this.fromWorld === null ? w : this.fromWorld[w];
  }

  /**
   * The communicator of member `worldRank`.
   * @throws RangeError when it is not a member
   */
  comm(worldRank: number): Comm {
    if (this.members === null) return this.world.comm(worldRank);
    const r = this.toGroup(worldRank);
    if (r < 0) throw new RangeError(`world rank ${worldRank} is not a member of ${this.name}`);
    let c = this.comms.get(r);
    if (c === undefined) this.comms.set(r, (c = new Comm(this.world, this, r)));
    return c;
  }
}

/**
 * One rank's view of a communicator: the MPI API a simulated rank calls. Blocking calls are
 * generators used with `yield*` inside the rank's kernel process; non-blocking calls return
 * request handles (numbers) at once:
 *
 * ```ts
 * sim.process(function* () {
 *   const comm = world.comm(rank);
 *   const r = comm.irecv(ANY_SOURCE, 7, 4096);
 *   yield* comm.send((rank + 1) % comm.size, 7, 4096);
 *   yield* comm.wait(r);
 *   yield* comm.allreduce(8);
 * }(), { name: `rank ${rank}` });
 * ```
 *
 * Ranks, sources and destinations are ranks of this communicator. Sizes are bytes (the simulator
 * moves no data; an optional number `value` travels with a message so programs can identify it).
 * Every call is reported to the world's {@link MpiObserver}. Completed handles passed in arrays
 * are replaced by {@link REQUEST_NULL}, as MPI does. A rank is one process (MPI_THREAD_SINGLE):
 * do not use one rank's communicator from two processes at once, and do not interrupt a process
 * while it is blocked in an MPI call.
 */
export class Comm {
  /** This rank in the communicator. */
  readonly rank: number;
  /** Number of ranks in the communicator. */
  readonly size: number;
  /** This rank in MPI_COMM_WORLD. */
  readonly worldRank: number;
  private scratch: Int32Array | null = null;
  /** Whether the last {@link test} returned a call not yet run (see {@link refuseUnrunTest}). */
  private unrunTest = false;
  /** @internal Exchange programs this rank has started on this communicator. */
  programCalls = 0;

  /** @internal */
  constructor(
    readonly world: MpiWorld,
    readonly group: Group,
    rank: number,
  ) {
    this.rank = rank;
    this.size = group.size;
    this.worldRank = group.toWorld(rank);
  }

  /** Communicator name. */
  get name(): string {
    return this.group.name;
  }

  /** Status of the last receive this rank completed (any communicator), translated to this communicator's ranks. */
  get status(): Status {
    const w = this.world;
    const me = this.worldRank;
    return { source: this.group.toGroup(w.stSource[me]), tag: w.stTag[me], bytes: w.stBytes[me], value: w.stValue[me] };
  }

  // ------------------------------------------------------------ observation

  private enter(call: number): void {
    if (this.unrunTest) this.refuseUnrunTest(MPI_CALLS[call]);
    const w = this.world;
    w.setCall(this.worldRank, call);
    const o = w.observer;
    if (o !== null) o.enter(this.worldRank, MPI_CALLS[call] as MpiCallName, w.sim.now);
  }

  private exit(call: number, bytes: number): void {
    const w = this.world;
    w.setCall(this.worldRank, CALL.none);
    const o = w.observer;
    if (o !== null) o.exit(this.worldRank, MPI_CALLS[call] as MpiCallName, w.sim.now, bytes);
  }

  // ------------------------------------------------------------ validation

  private checkDest(call: string, dest: number, tag: number, bytes: number): void {
    const rank = notARank("destination", dest, this.size, this.name);
    if (rank !== undefined) throw new MpiUsageError(this.worldRank, call, rank);
    const t = notATag(tag);
    if (t !== undefined) throw new MpiUsageError(this.worldRank, call, t);
    if (!(bytes >= 0) || !Number.isFinite(bytes)) throw new MpiUsageError(this.worldRank, call, `size ${bytes} bytes is not a finite number >= 0`);
  }

  private checkSource(call: string, source: number, tag: number, bytes: number): void {
    const rank = source === ANY_SOURCE ? undefined : notARank("source", source, this.size, this.name);
    if (rank !== undefined) throw new MpiUsageError(this.worldRank, call, `${rank} and is not ANY_SOURCE`);
    const t = tag === ANY_TAG ? undefined : notATag(tag);
    if (t !== undefined) throw new MpiUsageError(this.worldRank, call, `${t} and is not ANY_TAG`);
    if (!(bytes >= 0)) throw new MpiUsageError(this.worldRank, call, `buffer size ${bytes} bytes is not a number >= 0`);
  }

  private slot(call: string, handle: number): number {
    const s = this.world.pool.slotOf(handle);
    if (s === NIL || this.world.pool.owner(s) !== this.worldRank || (this.world.pool.flags(s) & (F_INTERNAL | F_RELEASED)) !== 0)
      throw new MpiUsageError(this.worldRank, call, `request ${handle} is not an active request of this rank${isCallObject(handle) ? " (an MPI_Isend's call, not its request: write 'const r = yield* comm.isend(...)')" : ""}`);
    return s;
  }

  private sendSlot(dest: number, tag: number, bytes: number, value: number): number {
    return this.world.postSend(this.worldRank, this.group.toWorld(dest), tag, this.group.ctx, bytes, value, false);
  }

  private recvSlot(source: number, tag: number, bytes: number): number {
    return this.world.postRecv(this.worldRank, source === ANY_SOURCE ? ANY_SOURCE : this.group.toWorld(source), tag, this.group.ctx, bytes, false);
  }

  /** Bytes a completed request moved (for the observer). */
  private moved(s: number): number {
    return this.world.pool.bytes(s);
  }

  // ------------------------------------------------------------ point to point

  /**
   * Starts a send (MPI_Isend) of `bytes` to `dest` with `tag`; returns its request handle
   * (`const r = yield* comm.isend(...)`). The call takes the sender's CPU overhead of the path
   * (LogGP's o; 0 under Hockney), the time the message's transfer starts after: the rank's
   * clock advances by it before the call returns, so compute posted after it does not overlap it.
   * @throws MpiUsageError for a bad destination, tag or size, when called (before the first resume)
   */
  isend(dest: number, tag: number, bytes: number, value = 0): MpiCall<number> {
    this.checkDest("MPI_Isend()", dest, tag, bytes);
    return this.isendChecked(dest, tag, bytes, value);
  }

  private *isendChecked(dest: number, tag: number, bytes: number, value: number): MpiCall<number> {
    this.enter(CALL.isend);
    const s = this.sendSlot(dest, tag, bytes, value);
    const handle = this.world.pool.handle(s);
    const busy = this.world.postingFree ? 0 : this.world.postingTime(this.worldRank, this.group.toWorld(dest), bytes);
    if (busy > 0) yield this.world.sim.timeout(busy);
    this.exit(CALL.isend, 0);
    return handle;
  }

  /**
   * Posts a receive (MPI_Irecv) from `source` (or {@link ANY_SOURCE}) with `tag` (or {@link ANY_TAG})
   * into a buffer of `bytes` (default: any size); returns its request handle.
   * @throws MpiUsageError for a bad source or tag; a larger matching message fails the run (truncation)
   */
  irecv(source: number, tag: number, bytes = Infinity): number {
    this.checkSource("MPI_Irecv()", source, tag, bytes);
    this.enter(CALL.irecv);
    const s = this.recvSlot(source, tag, bytes);
    this.exit(CALL.irecv, 0);
    return this.world.pool.handle(s);
  }

  /**
   * Blocking send (MPI_Send): returns when the send request completes.
   * @throws MpiUsageError for a bad destination, tag or size, when called (before the first resume),
   *   so the caller that passed them can name itself
   */
  send(dest: number, tag: number, bytes: number, value = 0): MpiCall {
    this.checkDest("MPI_Send()", dest, tag, bytes);
    return this.sendChecked(dest, tag, bytes, value);
  }

  private *sendChecked(dest: number, tag: number, bytes: number, value: number): MpiCall {
    this.enter(CALL.send);
    const s = this.sendSlot(dest, tag, bytes, value);
    const ev = this.world.beginWait2(this.worldRank, s, -1);
    if (ev !== null) yield ev;
    this.world.release(s);
    this.exit(CALL.send, bytes);
  }

  /**
   * Blocking receive (MPI_Recv); returns the source (a rank of this communicator); see {@link status}.
   * Returns once the message has arrived and the rank has handled it: the receiver's overhead
   * (LogGP's o; 0 under Hockney) after the later of the call and the arrival.
   * @throws MpiUsageError for a bad source or tag, when called (before the first resume)
   */
  recv(source: number, tag: number, bytes = Infinity): MpiCall<number> {
    this.checkSource("MPI_Recv()", source, tag, bytes);
    return this.recvChecked(source, tag, bytes);
  }

  private *recvChecked(source: number, tag: number, bytes: number): MpiCall<number> {
    this.enter(CALL.recv);
    const s = this.recvSlot(source, tag, bytes);
    const ev = this.world.beginWait2(this.worldRank, s, -1);
    if (ev !== null) yield ev;
    const got = this.moved(s);
    this.world.release(s);
    this.exit(CALL.recv, got);
    return this.group.toGroup(this.world.stSource[this.worldRank]);
  }

  /**
   * MPI_Sendrecv: sends to `dest` and receives from `source` at the same time; returns the source.
   * Returns when the send request is complete and the message received has been handled, after
   * the send's overhead (CPU time, as {@link recv}'s).
   */
  *sendrecv(dest: number, sendTag: number, sendBytes: number, source: number, recvTag: number, recvBytes = Infinity, value = 0): MpiCall<number> {
    this.checkDest("MPI_Sendrecv()", dest, sendTag, sendBytes);
    this.checkSource("MPI_Sendrecv()", source, recvTag, recvBytes);
    this.enter(CALL.sendrecv);
    const r = this.recvSlot(source, recvTag, recvBytes);
    const s = this.sendSlot(dest, sendTag, sendBytes, value);
    const ev = this.world.beginWait2(this.worldRank, r, s);
    if (ev !== null) yield ev;
    const got = this.moved(r);
    this.world.release(r);
    this.world.release(s);
    this.exit(CALL.sendrecv, sendBytes + got);
    return this.group.toGroup(this.world.stSource[this.worldRank]);
  }

  /**
   * MPI_Wait on one request; the handle is dead afterwards. A receive's status goes to
   * {@link status}; its message is handled by the call, as by {@link recv}: it returns the
   * receiver's overhead after the later of the call and the message's arrival.
   */
  *wait(request: number): MpiCall {
    this.enter(CALL.wait);
    if (request === REQUEST_NULL) {
      this.exit(CALL.wait, 0);
      return;
    }
    const s = this.slot("MPI_Wait()", request);
    const ev = this.world.beginWait2(this.worldRank, s, -1);
    if (ev !== null) yield ev;
    const b = this.moved(s);
    this.world.release(s);
    this.exit(CALL.wait, b);
  }

  /**
   * MPI_Waitall: waits for every request in `requests` and sets each entry to REQUEST_NULL.
   * With `statuses`, entry i receives the status of a completed receive i. The call handles the
   * messages received one after another, the receiver's overhead each (LogGP's o): those that
   * had arrived when it was called first, in list order, then the others as they arrive, each
   * once the previous one is done; it returns when the last is handled and every send complete.
   * @throws MpiUsageError for a handle that is not an active request of this rank, or one listed twice
   */
  *waitall(requests: number[], statuses?: Status[]): MpiCall {
    this.enter(CALL.waitall);
    const slots = this.slotsOf("MPI_Waitall()", requests);
    const ev = this.world.beginWait(this.worldRank, slots, slots.length, false);
    if (ev !== null) yield ev;
    let b = 0;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (s < 0) continue;
      b += this.moved(s);
      this.finish(s, i, statuses);
      requests[i] = REQUEST_NULL;
    }
    this.exit(CALL.waitall, b);
  }

  /**
   * MPI_Waitany: waits until one of `requests` completes; returns its index (its entry becomes
   * REQUEST_NULL) or -1 (MPI_UNDEFINED) when every entry is REQUEST_NULL. A receive it returns
   * has its message handled by the call: it returns the receiver's overhead later.
   * @throws MpiUsageError for a handle that is not an active request of this rank, or one listed twice
   */
  *waitany(requests: number[]): MpiCall<number> {
    this.enter(CALL.waitany);
    const slots = this.slotsOf("MPI_Waitany()", requests);
    const ev = this.world.beginWait(this.worldRank, slots, slots.length, true);
    if (ev !== null) yield ev;
    let found = -1;
    let b = 0;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (s < 0) continue;
      if (found < 0 && this.world.isComplete(s)) {
        found = i;
        b = this.moved(s);
        this.world.handled(s);
        this.finish(s, i, undefined);
        requests[i] = REQUEST_NULL;
      } else this.world.unwait(s);
    }
    const handling = this.world.untilFree(this.worldRank);
    if (handling !== null) yield handling;
    this.exit(CALL.waitany, b);
    return found;
  }

  /**
   * MPI_Waitsome: waits until at least one of `requests` completes; returns the indices of all
   * that are complete (their entries become REQUEST_NULL), or an empty array when every entry is
   * REQUEST_NULL. With `statuses`, entry i receives the status of a completed receive i. The
   * call then handles the messages of the receives it returns, in list order: it returns their
   * receiver's overheads (LogGP's o each) after the completion that woke it, or after its entry
   * when some were complete then.
   * @throws MpiUsageError for a handle that is not an active request of this rank, or one listed twice
   */
  *waitsome(requests: number[], statuses?: Status[]): MpiCall<number[]> {
    this.enter(CALL.waitsome);
    const slots = this.slotsOf("MPI_Waitsome()", requests);
    const ev = this.world.beginWait(this.worldRank, slots, slots.length, true);
    if (ev !== null) yield ev;
    const done: number[] = [];
    let b = 0;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (s < 0) continue;
      if (this.world.isComplete(s)) {
        done.push(i);
        b += this.moved(s);
        this.world.handled(s);
        this.finish(s, i, statuses);
        requests[i] = REQUEST_NULL;
      } else this.world.unwait(s);
    }
    const handling = this.world.untilFree(this.worldRank);
    if (handling !== null) yield handling;
    this.exit(CALL.waitsome, b);
    return done;
  }

  /**
   * MPI_Test (`const done = yield* comm.test(r)`): true when the request is complete, in which
   * case it is released (the handle is dead afterwards and a receive's status goes to
   * {@link status}). REQUEST_NULL tests true. A receive it completes has its message handled by
   * the call: it returns after the receiver's overhead (LogGP's o; at once under Hockney, and
   * whenever it returns false).
   * @throws MpiUsageError for a handle that is not an active request of this rank, when called
   *   (before the first resume)
   */
  test(request: number): MpiCall<boolean> {
    const s = request === REQUEST_NULL ? -1 : this.slot("MPI_Test()", request);
    if (this.unrunTest) this.refuseUnrunTest("MPI_Test()");
    this.unrunTest = true;
    return this.testSlot(s);
  }

  /**
   * Refuses an MPI call made while the last {@link test}'s call was never run. Why asked:
   * `if (comm.test(r))` without `yield*` tests a generator, which is always true, and no error
   * would say so; the next MPI call on this communicator does. Collectives and the ghost
   * exchange's callback form ask when they are called, before they take part (a collective is
   * not counted in the communicator's order), since without an observer they enter no call.
   */
  private refuseUnrunTest(call: string): never {
    this.unrunTest = false;
    throw new MpiUsageError(this.worldRank, call, "the MPI_Test() before it was never run (its call was not given to yield*, and a call tested as a condition is always true): write 'const done = yield* comm.test(r)'");
  }

  private *testSlot(s: number): MpiCall<boolean> {
    this.unrunTest = false;
    this.enter(CALL.test);
    if (s < 0) {
      this.exit(CALL.test, 0);
      return true;
    }
    const w = this.world;
    const done = w.isComplete(s);
    let b = 0;
    if (done) {
      b = this.moved(s);
      w.handled(s);
      w.release(s);
      const handling = w.untilFree(this.worldRank);
      if (handling !== null) yield handling;
    }
    this.exit(CALL.test, b);
    return done;
  }

  private slotsOf(call: string, requests: readonly number[]): Int32Array {
    // One scratch array per communicator: a rank is one process (MPI_THREAD_SINGLE), so its waits never overlap.
    let slots = this.scratch;
    if (slots === null || slots.length !== requests.length) slots = this.scratch = new Int32Array(requests.length);
    for (let i = 0; i < requests.length; i++) slots[i] = requests[i] === REQUEST_NULL ? -1 : this.slot(call, requests[i]);
    const pool = this.world.pool;
    let dup = -1;
    for (let i = 0; i < requests.length; i++) {
      const s = slots[i];
      if (s < 0) continue;
      // MPI makes listing a handle twice erroneous; waiting on it twice would never end.
      if (pool.flags(s) & F_LISTED) {
        dup = i;
        break;
      }
      pool.orFlags(s, F_LISTED);
    }
    const n = dup < 0 ? requests.length : dup;
    for (let i = 0; i < n; i++) if (slots[i] >= 0) pool.clearFlags(slots[i], F_LISTED);
    if (dup >= 0) throw new MpiUsageError(this.worldRank, call, `request ${requests[dup]} is listed twice (entries ${slots.indexOf(slots[dup])} and ${dup}); MPI makes that erroneous`);
    return slots;
  }

  private finish(s: number, i: number, statuses: Status[] | undefined): void {
    const w = this.world;
    const isRecv = w.pool.kind(s) === KIND_RECV;
    w.release(s);
    if (statuses !== undefined && isRecv) statuses[i] = this.status;
  }

  /**
   * @internal MPI_Irecv from each `peers[i]` (tag `recvTags[i]`), then MPI_Isend to each (tag
   * `sendTags[i]`), all of `bytes[i]`, then MPI_Waitsome until everything is done, run by
   * callbacks (see {@link MpiWorld.waitsomeUntilDone}). Returns the event to yield, or null when
   * all was done at once; then call {@link haloExchangeEnd}, which returns the number of
   * MPI_Waitsome calls. Calls are not reported to the observer: use it only when there is none,
   * and only when {@link exchangesAtOnce} (the calls take no CPU overhead).
   * (Not a generator: the caller yields the event itself, one generator level less per resume.)
   * @throws MpiUsageError for a bad peer, tag or size
   */
  haloExchangeStart(peers: Int32Array, recvTags: Int32Array, sendTags: Int32Array, bytes: Float64Array): Yieldable | null {
    // Its first call is an MPI_Irecv, which the generator form refuses after a test never run.
    if (this.unrunTest) this.refuseUnrunTest("MPI_Irecv()");
    const n = peers.length;
    for (let i = 0; i < n; i++) {
      this.checkSource("MPI_Irecv()", peers[i], recvTags[i], bytes[i]);
      this.checkDest("MPI_Isend()", peers[i], sendTags[i], bytes[i]);
    }
    let slots = this.scratch;
    if (slots === null || slots.length !== 2 * n) slots = this.scratch = new Int32Array(2 * n);
    for (let i = 0; i < n; i++) slots[i] = this.recvSlot(peers[i], recvTags[i], bytes[i]);
    for (let i = 0; i < n; i++) slots[n + i] = this.sendSlot(peers[i], sendTags[i], bytes[i], 0);
    this.world.setCall(this.worldRank, CALL.waitsome);
    return this.world.waitsomeUntilDone(this.worldRank, slots);
  }

  /**
   * @internal Whether an exchange of `bytes[i]` with each `peers[i]` takes no CPU overhead, as
   * {@link haloExchangeStart} runs it: its sends all post without overhead (see {@link isend}),
   * all at the time it is called, and handling the messages it receives takes none (the paths'
   * receiver overhead is fixed at 0), as its MPI_Waitsome calls, run by callbacks, charge none.
   */
  exchangesAtOnce(peers: Int32Array, bytes: Float64Array): boolean {
    const w = this.world;
    if (w.postingFree && w.receivingFree) return true;
    const node = w.rankToNode[this.worldRank];
    for (let i = 0; i < peers.length; i++) {
      const peer = this.group.toWorld(peers[i]);
      if (w.net.path(w.rankToNode[peer], node).fixedRecvOverhead !== 0 || w.postingTime(this.worldRank, peer, bytes[i]) > 0) return false;
    }
    return true;
  }

  /** @internal Ends {@link haloExchangeStart} once its event has fired: the number of MPI_Waitsome calls made. */
  haloExchangeEnd(): number {
    this.world.setCall(this.worldRank, CALL.none);
    return this.world.someCalls[this.worldRank];
  }

  // ------------------------------------------------------------ collectives

  /** MPI_Barrier. */
  barrier(): MpiCall {
    if (this.unrunTest) this.refuseUnrunTest("MPI_Barrier()");
    this.group.collectiveOrder.enter(this.rank, this.worldRank, "MPI_Barrier()", 0, -1);
    return this.collective(CALL.barrier, 0, this.world.collectives.choose("barrier", this.size, 0).run(this, 0, 0));
  }

  /** MPI_Bcast of `bytes` from `root`. */
  bcast(bytes: number, root = 0): MpiCall {
    this.checkCollective("MPI_Bcast()", bytes, root, root);
    return this.collective(CALL.bcast, bytes, this.algorithm("bcast", bytes, root));
  }

  /** MPI_Reduce of `bytes` (per rank) to `root`; each reduction step costs bytes * reduceCostPerByte. */
  reduce(bytes: number, root = 0): MpiCall {
    this.checkCollective("MPI_Reduce()", bytes, root, root);
    return this.collective(CALL.reduce, bytes, this.algorithm("reduce", bytes, root));
  }

  /** MPI_Allreduce of `bytes` (per rank). */
  allreduce(bytes: number): MpiCall {
    this.checkCollective("MPI_Allreduce()", bytes, 0, -1);
    return this.collective(CALL.allreduce, bytes, this.algorithm("allreduce", bytes, 0));
  }

  /** MPI_Allgather: every rank contributes `bytes`; every rank ends with `bytes * size`. */
  allgather(bytes: number): MpiCall {
    this.checkCollective("MPI_Allgather()", bytes, 0, -1);
    return this.collective(CALL.allgather, bytes, this.algorithm("allgather", bytes, 0));
  }

  /** MPI_Alltoall: every rank sends `bytes` to every other rank. */
  alltoall(bytes: number): MpiCall {
    this.checkCollective("MPI_Alltoall()", bytes, 0, -1);
    return this.collective(CALL.alltoall, bytes, this.algorithm("alltoall", bytes, 0));
  }

  /**
   * The chosen algorithm of a sized collective, or none for 0 bytes: MPICH and Open MPI return
   * from a bcast, reduce, allreduce, allgather or alltoall of zero elements at once, sending
   * nothing (the call is still entered and left, at the same time).
   */
  private algorithm(name: "bcast" | "reduce" | "allreduce" | "allgather" | "alltoall", bytes: number, root: number): MpiCall {
    return bytes === 0 ? noMessages() : this.world.collectives.choose(name, this.size, bytes).run(this, bytes, root);
  }

  /**
   * The generator of a collective call. Arguments are checked and the algorithm chosen when the
   * call is made, so use it at once (`yield* comm.allreduce(8)`).
   */
  private collective(call: number, bytes: number, body: MpiCall): MpiCall {
    if (this.world.observer === null) {
      // Nobody times calls: hand out the algorithm itself, one generator level less on every resume.
      this.world.setCall(this.worldRank, call);
      return body;
    }
    return this.observed(call, bytes, body);
  }

  private *observed(call: number, bytes: number, body: MpiCall): MpiCall {
    this.enter(call);
    yield* body;
    this.exit(call, bytes);
  }

  /**
   * Checks a sized collective's arguments, then that it is the call, size and root the other
   * members made as this collective (`orderRoot`: the root, or -1 for a call without one).
   */
  private checkCollective(call: string, bytes: number, root: number, orderRoot: number): void {
    if (this.unrunTest) this.refuseUnrunTest(call);
    if (!(bytes >= 0) || !Number.isFinite(bytes)) throw new MpiUsageError(this.worldRank, call, `size ${bytes} bytes is not a finite number >= 0`);
    const rank = notARank("root", root, this.size, this.name);
    if (rank !== undefined) throw new MpiUsageError(this.worldRank, call, rank);
    this.group.collectiveOrder.enter(this.rank, this.worldRank, call, bytes, orderRoot);
  }

  // ------------------------------------------------------------ building blocks of collective algorithms

  /**
   * @internal Collective-internal send to group rank `dest`; returns a slot. It takes the
   * sender's overhead as CPU time: an algorithm that posts another send before it waits yields
   * {@link collPosted} first.
   */
  collSend(dest: number, tag: number, bytes: number): number {
    return this.world.postSend(this.worldRank, this.group.toWorld(dest), tag, this.group.collCtx, bytes, 0, true);
  }

  /**
   * @internal The sender's overhead of the send just posted ({@link collSend}), CPU time: the
   * event to yield before the algorithm goes on, or null when it takes none (Hockney). An
   * algorithm that posts several sends before it waits yields it after each, as MPI_Isend
   * returns after it, so that each send reaches the node's NIC when it is ready and not ahead
   * of sends other ranks of the node post meanwhile.
   */
  collPosted(): Yieldable | null {
    return this.world.postingFree ? null : this.world.untilFree(this.worldRank);
  }

  /**
   * @internal Collective-internal receive from group rank `source`; returns a slot. `bytes` is the
   * size the algorithm expects (for readers); the envelope carries the real size.
   */
  collRecv(source: number, tag: number, _bytes: number): number {
    return this.world.postRecv(this.worldRank, this.group.toWorld(source), tag, this.group.collCtx, Infinity, true);
  }

  /**
   * @internal Waits for slots a and b (b may be -1) and handles a message received (the
   * receiver's overhead, after the overheads of the sends the step posted), then for the local
   * reduction of `reduceBytes` (gamma per byte): the event to yield, or null. Release with
   * {@link collRelease}.
   */
  collWait(a: number, b: number, reduceBytes = 0): Yieldable | null {
    return this.world.beginWait2(this.worldRank, a, b, reduceBytes * this.world.collectives.reduceCostPerByte);
  }

  /** @internal Waits for the first n slots (handling the messages received, as {@link collWait}). */
  collWaitAll(slots: Int32Array, n: number): Yieldable | null {
    return this.world.beginWait(this.worldRank, slots, n, false);
  }

  /** @internal Releases completed slots a and b (b may be -1). */
  collRelease(a: number, b: number): void {
    this.world.release(a);
    if (b >= 0) this.world.release(b);
  }

  /** @internal Size in bytes of a completed receive slot (read before release). */
  collReceived(s: number): number {
    return this.world.pool.bytes(s);
  }
}
