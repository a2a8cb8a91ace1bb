import { Registry, type ParamDoc, type Registrable } from "../../engine/index.js";

/**
 * The cost of one point-to-point transfer on one path (inter-node network or intra-node shared
 * memory), split into the parts the simulator needs to schedule it. All times are microseconds,
 * all sizes bytes.
 *
 * A message of `n` bytes posted at time `t` goes through:
 * 1. the sender's CPU overhead `sendOverhead(n)`;
 * 2. injection: it waits for the node's NIC (inter-node only), which is then busy for
 *    `injectionGap(n)` (so the node's next message cannot start earlier);
 * 3. its last byte leaves `wireTime(n)` after injection started and reaches the receiver
 *    `latency(n)` later;
 * 4. the receiver's CPU overhead `recvOverhead(n)`: CPU time of the receiving rank, spent by the
 *    MPI call that handles the message once it has arrived (see machine/network/README.md).
 *
 * Uncontended one-way time: `sendOverhead + wireTime + latency + recvOverhead` ({@link LinkCost.oneWay}).
 */
export interface LinkCost {
  /** Name of the model that built it (`hockney`, `loggp`). */
  readonly model: string;
  /** Sender CPU time before injection starts (us). */
  sendOverhead(bytes: number): number;
  /**
   * The sender overhead when it is the same for every size (us), as in Hockney (0) and LogGP
   * (o); absent when it depends on the size. Lets the MPI layer know once, not per message,
   * whether posting a send takes CPU time.
   */
  readonly fixedSendOverhead?: number;
  /**
   * Receiver CPU time (us) to handle a message once its last byte has arrived: the receiving
   * rank's call that completes the receive takes it.
   */
  recvOverhead(bytes: number): number;
  /**
   * The receiver overhead when it is the same for every size (us), as in Hockney (0) and LogGP
   * (o); absent when it depends on the size. Lets the MPI layer know once whether handling a
   * received message takes CPU time.
   */
  readonly fixedRecvOverhead?: number;
  /** Time the sending NIC stays busy with this message (us); serialises a node's messages. */
  injectionGap(bytes: number): number;
  /** From injection start until the last byte has left the sender (us). */
  wireTime(bytes: number): number;
  /** Flight time of the last byte from sender to receiver (us). */
  latency(bytes: number): number;
  /**
   * When a send request completes: `"delivery"` (when the message has reached the receiver, the
   * classic Hockney reading in which a transfer occupies the sender for alpha + n*beta) or
   * `"injected"` (when its last byte has left the sender, the LogGP reading).
   */
  readonly sendCompletes: "delivery" | "injected";
  /** Uncontended one-way time of an `n`-byte message without background load (us). */
  oneWay(bytes: number): number;
}

/** A registered point-to-point cost model: documented parameters and a factory. */
export interface PointToPointModel extends Registrable {
  /**
   * Builds the cost of one path from parameter values in base units (times in us, bandwidths in
   * bytes/s). Values have been validated against {@link Registrable.params} and defaults filled in.
   */
  create(values: Readonly<Record<string, number>>): LinkCost;
}

/** The Hockney model: a message of n bytes takes `alpha + n * beta`, with `beta = 1 / bandwidth`. */
export class HockneyCost implements LinkCost {
  readonly model = "hockney";
  readonly sendCompletes = "delivery" as const;
  readonly fixedSendOverhead = 0;
  readonly fixedRecvOverhead = 0;
  /** Microseconds per byte. */
  readonly beta: number;

  /**
   * @param alpha - start-up latency (us)
   * @param bandwidth - asymptotic bandwidth (bytes/s)
   */
  constructor(readonly alpha: number, readonly bandwidth: number) {
    this.beta = 1e6 / bandwidth;
  }
  sendOverhead(): number {
    return 0;
  }
  recvOverhead(): number {
    return 0;
  }
  injectionGap(bytes: number): number {
    return bytes * this.beta;
  }
  wireTime(bytes: number): number {
    return bytes * this.beta;
  }
  latency(): number {
    return this.alpha;
  }
  oneWay(bytes: number): number {
    return this.alpha + bytes * this.beta;
  }
}

/**
 * The LogGP model (Alexandrov et al., 1995): latency `L`, CPU overhead `o` on each side, gap `g`
 * between consecutive messages of a NIC, gap per byte `G = 1 / bandwidth`. One-way time of an
 * n-byte message: `o + (n-1)*G + L + o` (a zero-byte message: `2o + L`). The NIC is busy for
 * `g + (n-1)*G` per message, as in LogGOPS (Hoefler et al., 2010).
 */
export class LogGPCost implements LinkCost {
  readonly model = "loggp";
  readonly sendCompletes = "injected" as const;
  /** Microseconds per byte. */
  readonly G: number;

  /**
   * @param L - latency (us)
   * @param o - CPU overhead per message on each side (us)
   * @param g - gap between message injections (us)
   * @param bandwidth - 1/G (bytes/s)
   */
  constructor(readonly L: number, readonly o: number, readonly g: number, readonly bandwidth: number) {
    this.G = 1e6 / bandwidth;
  }
  get fixedSendOverhead(): number {
    return this.o;
  }
  get fixedRecvOverhead(): number {
    return this.o;
  }
  sendOverhead(): number {
    return this.o;
  }
  recvOverhead(): number {
    return this.o;
  }
  injectionGap(bytes: number): number {
    return this.g + (bytes > 1 ? (bytes - 1) * this.G : 0);
  }
  wireTime(bytes: number): number {
    return bytes > 1 ? (bytes - 1) * this.G : 0;
  }
  latency(): number {
    return this.L;
  }
  oneWay(bytes: number): number {
    return this.o + this.wireTime(bytes) + this.L + this.o;
  }
}

const hockneyParams: readonly ParamDoc[] = [
  { name: "alpha", type: "quantity", dimension: "time", doc: "Start-up latency of a message (alpha).", min: 0 },
  { name: "bandwidth", type: "quantity", dimension: "bandwidth", doc: "Asymptotic bandwidth 1/beta.", min: 1e-300 },
];

const loggpParams: readonly ParamDoc[] = [
  { name: "L", type: "quantity", dimension: "time", doc: "Network latency of the last byte (LogGP L).", min: 0 },
  { name: "o", type: "quantity", dimension: "time", doc: "CPU overhead per message on the sender and on the receiver (LogGP o).", min: 0 },
  { name: "g", type: "quantity", dimension: "time", doc: "Gap: minimum time between two message injections of one NIC (LogGP g).", min: 0 },
  { name: "bandwidth", type: "quantity", dimension: "bandwidth", doc: "Bandwidth for long messages, 1/G (LogGP G is time per byte).", min: 1e-300 },
];

/** Registry of point-to-point cost models (`hockney`, `loggp`); register your own to extend. */
export const pointToPointModels = new Registry<PointToPointModel>("point-to-point cost model");

pointToPointModels.register({
  name: "hockney",
  summary: "alpha + n*beta; a transfer occupies the sender until delivery",
  params: hockneyParams,
  create: (v) => new HockneyCost(v.alpha, v.bandwidth),
});

pointToPointModels.register({
  name: "loggp",
  summary: "LogGP: o + (n-1)G + L + o; the sender is free once the message is injected",
  params: loggpParams,
  create: (v) => new LogGPCost(v.L, v.o, v.g, v.bandwidth),
});
