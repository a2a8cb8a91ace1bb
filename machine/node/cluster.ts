/**
 * A cluster of N nodes running P processes each, with rank placement.
 *
 * @packageDocumentation
 */
import type { MachineConfig } from "./config.js";
import { MachineInputError } from "./errors.js";
import { NodeModel } from "./node-model.js";

/** How ranks are placed on nodes: `block` fills node 0 first; `round-robin` deals ranks out one per node. */
export type PlacementPolicy = "block" | "round-robin";

/** Cluster shape. */
export interface ClusterLayout {
  /** Number of nodes N. */
  nodes: number;
  /** Processes per node P (at most `processorsPerNode`). */
  processesPerNode: number;
  /** Rank placement. Default `block`. */
  placement?: PlacementPolicy;
}

/**
 * Node of each rank: `block` gives rank r to node floor(r / P); `round-robin` to node r mod N.
 * @throws MachineInputError for a non-positive or non-integer shape, or an unknown placement
 */
export function placeRanks(layout: ClusterLayout): Int32Array {
  const { nodes, processesPerNode } = layout;
  const placement = layout.placement ?? "block";
  if (!Number.isInteger(nodes) || nodes < 1) throw new MachineInputError("cluster.nodes", "an integer >= 1", nodes);
  if (!Number.isInteger(processesPerNode) || processesPerNode < 1) throw new MachineInputError("cluster.processesPerNode", "an integer >= 1", processesPerNode);
  if (placement !== "block" && placement !== "round-robin") throw new MachineInputError("cluster.placement", "block or round-robin", placement);
  const ranks = nodes * processesPerNode;
  const out = new Int32Array(ranks);
  for (let r = 0; r < ranks; r++) out[r] = placement === "block" ? Math.floor(r / processesPerNode) : r % nodes;
  return out;
}

/** N identical nodes of one machine, with P processes each. */
export class Cluster {
  /** The machine configuration of every node. */
  readonly config: MachineConfig;
  /** Number of nodes. */
  readonly nodes: number;
  /** Processes per node. */
  readonly processesPerNode: number;
  /** Total ranks (N x P). */
  readonly ranks: number;
  /** Rank placement used. */
  readonly placement: PlacementPolicy;
  /** Node of each rank (the network layer consumes this). */
  readonly rankToNode: Int32Array;
  /**
   * Node models, one per node (each shares its memory bandwidth among its P processes). With one
   * node their remote share is 0 (no other node's memory to reach); with several it is
   * `memory.remoteFraction`, whatever the placement.
   */
  readonly nodeModels: readonly NodeModel[];

  /**
   * @throws MachineInputError for a bad layout (key `cluster.<name>`), more processes per node
   *   than processors, or an invalid machine configuration
   */
  constructor(config: MachineConfig, layout: ClusterLayout) {
    this.rankToNode = placeRanks(layout);
    if (layout.processesPerNode > config.processorsPerNode) {
      throw new MachineInputError("cluster.processesPerNode", `at most machine.processorsPerNode = ${config.processorsPerNode}`, layout.processesPerNode);
    }
    this.config = config;
    this.nodes = layout.nodes;
    this.processesPerNode = layout.processesPerNode;
    this.ranks = this.rankToNode.length;
    this.placement = layout.placement ?? "block";
    // One node has no remote memory: every miss is served locally whatever `memory.remoteFraction`
    // says (the share of misses that go to other nodes' memory when there are other nodes).
    const model = new NodeModel(config, { sharers: layout.processesPerNode, remoteFraction: layout.nodes === 1 ? 0 : config.memory.remoteFraction });
    // Nodes are identical and a NodeModel's cost of a kernel depends on the call alone (it keeps a
    // memo and counts, nothing that changes a result): one model serves every node.
    this.nodeModels = Array.from({ length: layout.nodes }, () => model);
  }

  /** The node a rank runs on. */
  nodeOf(rank: number): number {
    return this.rankToNode[rank];
  }

  /** The node model serving `rank`. */
  modelOf(rank: number): NodeModel {
    return this.nodeModels[this.rankToNode[rank]];
  }

  /** Ranks placed on `node`, ascending. */
  ranksOn(node: number): Int32Array {
    const out: number[] = [];
    for (let r = 0; r < this.ranks; r++) if (this.rankToNode[r] === node) out.push(r);
    return Int32Array.from(out);
  }
}
