import type { Measurement } from "./measurement/index.js";

/** A node of the call tree: one callpath, with its mean over the ranks (as TAU's mean profile). Times in microseconds (TIME). */
export interface CallTreeNode {
  /** Timer name (`A::run()`, `MPI_Allreduce()`, `.TAU application`). */
  readonly name: string;
  /** Calls, mean over ranks. */
  calls: number;
  /** Inclusive and exclusive TIME, mean over ranks. */
  inclusive: number;
  exclusive: number;
  /** Largest inclusive TIME of one rank. */
  inclusiveMax: number;
  readonly children: CallTreeNode[];
}

/** A caller -> callee edge of the call graph (component methods and MPI calls). */
export interface CallGraphEdge {
  readonly caller: string;
  readonly callee: string;
  /** Calls, mean over ranks. */
  calls: number;
  /** Callee inclusive TIME along this edge, mean over ranks. */
  inclusive: number;
}

/** The per-run call graph: pruning and implementation selection read it. */
export interface CallGraph {
  readonly metric: "TIME";
  readonly unit: "us";
  /** What every value but `inclusiveMax` is: the mean over the ranks (multiply by `ranks` for totals). */
  readonly values: "mean over ranks";
  readonly ranks: number;
  readonly root: CallTreeNode;
  readonly edges: CallGraphEdge[];
}

/**
 * Builds the call graph of a measured run from its callpaths: a tree (merging equal paths across
 * ranks) and the caller/callee edges with call counts and inclusive time.
 */
export function buildCallGraph(meas: Measurement): CallGraph {
  const names = meas.timers.names;
  const nRanks = meas.ranks.length;
  const root: CallTreeNode = { name: "", calls: 0, inclusive: 0, exclusive: 0, inclusiveMax: 0, children: [] };
  const edges = new Map<string, CallGraphEdge>();
  for (const rp of meas.ranks) {
    const nodeOf = new Int32Array(rp.nodeCount).fill(-1);
    const tree: CallTreeNode[] = [root];
    nodeOf[0] = 0;
    for (let n = 1; n < rp.nodeCount; n++) {
      // Parents are always created before their children, so they are resolved already.
      const parent = tree[nodeOf[rp.parentOf(n)]];
      const name = names[rp.timerOf(n)];
      let child = parent.children.find((c) => c.name === name);
      if (!child) {
        child = { name, calls: 0, inclusive: 0, exclusive: 0, inclusiveMax: 0, children: [] };
        parent.children.push(child);
      }
      nodeOf[n] = tree.length;
      tree.push(child);
      const incl = rp.inclusive(n, 0);
      child.calls += rp.callsOf(n) / nRanks;
      child.inclusive += incl / nRanks;
      child.exclusive += rp.exclusive(n, 0) / nRanks;
      if (incl > child.inclusiveMax) child.inclusiveMax = incl;
      if (parent !== root) {
        const key = `${parent.name}\u0000${name}`;
        let e = edges.get(key);
        if (!e) edges.set(key, (e = { caller: parent.name, callee: name, calls: 0, inclusive: 0 }));
        e.calls += rp.callsOf(n) / nRanks;
        e.inclusive += incl / nRanks;
      }
    }
  }
  const top = root.children.length === 1 ? root.children[0] : root;
  return { metric: "TIME", unit: "us", values: "mean over ranks", ranks: nRanks, root: top, edges: [...edges.values()] };
}
