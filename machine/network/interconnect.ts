import type { Simulation } from "../../engine/index.js";
import { backgroundLoadModels, type BackgroundLoad } from "./load.js";
import { pointToPointModels, type LinkCost } from "./cost-model.js";
import { resolveNetwork, type NetworkSpec, type ResolvedNetwork } from "./config.js";

/** Which path a message takes. */
export const INTER_NODE = 0;
/** Which path a message takes. */
export const INTRA_NODE = 1;

/**
 * Messages and bytes an {@link Interconnect} carried, per path: user and collective-internal
 * messages, and a rendezvous's request- and clear-to-send as two more (of `controlBytes` each).
 */
export interface NetworkTraffic {
  /** Over the network, between nodes. */
  readonly interNode: { readonly messages: number; readonly bytes: number };
  /** Through shared memory, between ranks of one node. */
  readonly intraNode: { readonly messages: number; readonly bytes: number };
}

/**
 * The network of a cluster: the inter-node cost model, the intra-node (shared-memory) path, one
 * NIC per node that serialises the node's outgoing inter-node messages (but for rendezvous
 * control messages, see {@link transfer}), and the background load.
 *
 * {@link transfer} computes when a message will arrive without allocating: results are left in
 * {@link arrival} and {@link injected}. NICs serve messages in the order `transfer` is called
 * (first come, first served), which is deterministic because the kernel is.
 */
export class Interconnect {
  /** The resolved description this interconnect was built from. */
  readonly config: ResolvedNetwork;
  /** Inter-node cost model. */
  readonly inter: LinkCost;
  /** Intra-node (shared-memory) cost model. */
  readonly intra: LinkCost;
  /** Background load on inter-node transfers. */
  readonly load: BackgroundLoad;
  /** Per node: time (us) at which its NIC is free again. */
  readonly nicFreeAt: Float64Array;
  /** Arrival time (us) of the last byte of the last transfer, before the receiver's overhead. */
  arrival = 0;
  /** Time (us) at which the last byte of the last transfer left the sender. */
  injected = 0;
  /** Messages and bytes carried, per path ({@link INTER_NODE}, {@link INTRA_NODE}). */
  readonly messages = new Float64Array(2);
  /** Bytes carried, per path. */
  readonly bytes = new Float64Array(2);

  /**
   * @param sim - the simulation (for the load's random stream `network/load`)
   * @param network - a spec (resolved here) or an already resolved description
   * @param nodes - number of nodes (NICs)
   * @throws NetworkConfigError for an invalid spec; RangeError for a bad node count
   */
  constructor(sim: Simulation, network: NetworkSpec | ResolvedNetwork, readonly nodes: number) {
    if (!Number.isInteger(nodes) || nodes < 1) throw new RangeError(`node count must be a positive integer, got ${nodes}`);
    this.config = isResolved(network) ? network : resolveNetwork(network);
    const c = this.config;
    this.inter = pointToPointModels.get(c.interNode.model).create(c.interNode.params);
    this.intra = pointToPointModels.get(c.intraNode.model).create(c.intraNode.params);
    this.load = backgroundLoadModels.get(c.load.model).create(c.load.params, sim, "network/load");
    this.nicFreeAt = new Float64Array(nodes);
  }

  /** Messages and bytes carried so far on each path: payloads, and rendezvous control messages' `controlBytes`. */
  traffic(): NetworkTraffic {
    return {
      interNode: { messages: this.messages[INTER_NODE], bytes: this.bytes[INTER_NODE] },
      intraNode: { messages: this.messages[INTRA_NODE], bytes: this.bytes[INTRA_NODE] },
    };
  }

  /** Eager limit in bytes: larger messages use rendezvous. */
  get eagerLimit(): number {
    return this.config.eagerLimit;
  }

  /**
   * Schedules the wire part of a message of `bytes` from `srcNode` to `dstNode` whose sender is
   * ready at `readyAt` (us): adds the sender overhead, waits for and occupies the source NIC
   * (inter-node only), applies the background load, and leaves the times in {@link arrival} and
   * {@link injected}. Returns the path used.
   * @param control - a rendezvous control message (request- or clear-to-send): it neither waits
   *   for nor occupies the NIC. Why: a NIC sends a large message in packets, and a control packet
   *   goes out between them; queued behind the whole message, the clear-to-send of an exchange
   *   whose partner arrives late would wait for the partner's data to leave, and the exchange
   *   would take two message times instead of one.
   */
  transfer(srcNode: number, dstNode: number, bytes: number, readyAt: number, control = false): number {
    if (srcNode === dstNode) {
      const c = this.intra;
      const inj = readyAt + c.sendOverhead(bytes) + c.wireTime(bytes);
      this.injected = inj;
      this.arrival = inj + c.latency(bytes);
      this.messages[INTRA_NODE]++;
      this.bytes[INTRA_NODE] += bytes;
      return INTRA_NODE;
    }
    const c = this.inter;
    const t0 = readyAt + c.sendOverhead(bytes);
    const free = control ? t0 : this.nicFreeAt[srcNode];
    const start = t0 > free ? t0 : free;
    const f = this.load.factor(start);
    if (!control) this.nicFreeAt[srcNode] = start + f * c.injectionGap(bytes);
    const inj = start + f * c.wireTime(bytes);
    this.injected = inj;
    this.arrival = inj + f * c.latency(bytes);
    this.messages[INTER_NODE]++;
    this.bytes[INTER_NODE] += bytes;
    return INTER_NODE;
  }

  /** Receiver CPU overhead (us) of a message of `bytes` on the path from `srcNode` to `dstNode`. */
  recvOverhead(srcNode: number, dstNode: number, bytes: number): number {
    return (srcNode === dstNode ? this.intra : this.inter).recvOverhead(bytes);
  }

  /** The cost model of the path from `srcNode` to `dstNode`. */
  path(srcNode: number, dstNode: number): LinkCost {
    return srcNode === dstNode ? this.intra : this.inter;
  }
}

function isResolved(n: NetworkSpec | ResolvedNetwork): n is ResolvedNetwork {
  return typeof n === "object" && n !== null && "interNode" in n;
}
