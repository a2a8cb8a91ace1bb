import { Simulation } from "../../engine/index.js";
import { MpiWorld, type CollectiveSpec, type MpiObserver, type NetworkSpec } from "../../machine/index.js";

/** A world of `p` ranks, one per node unless `rankToNode` is given. */
export function world(p: number, network: NetworkSpec, opts: { collectives?: CollectiveSpec; rankToNode?: number[]; nodes?: number; observer?: MpiObserver; seed?: number; fastPaths?: boolean } = {}): MpiWorld {
  const sim = new Simulation({ seed: opts.seed ?? 1 });
  const rankToNode = opts.rankToNode ?? Array.from({ length: p }, (_, r) => r);
  const nodes = opts.nodes ?? Math.max(...rankToNode) + 1;
  return new MpiWorld(sim, { placement: { nodes, rankToNode: Int32Array.from(rankToNode) }, network, collectives: opts.collectives, observer: opts.observer, fastPaths: opts.fastPaths });
}

/** Hockney network without load, everything eager. */
export function hockney(alpha: number, bandwidth: number, eagerLimit = Infinity): NetworkSpec {
  return { model: "hockney", params: { alpha, bandwidth }, eagerLimit };
}

/** Relative closeness for exact-formula checks (a few ulps of accumulated rounding). */
export function close(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected));
}
