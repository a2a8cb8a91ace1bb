/**
 * The timeline of an assembly run (`trace.json` with `outputs.trace: true`): every call of every
 * TAU timer of every rank (component methods, MPI calls, `.TAU application`) as a Chrome/Perfetto
 * complete event, ranks grouped by the node they run on, and every message of the program (not
 * those a collective is built from) as a flow from its send to its receive's completion.
 *
 * @packageDocumentation
 */
import type { Measurement } from "../components/index.js";
import { ChromeTraceFile, type TraceLane } from "../profile/index.js";

/**
 * The trace of a measured run that kept its timer calls (`Measurement.trace`).
 * @param measurement - the run's measurement, made with `trace: true`
 * @param rankToNode - the node of each rank (the cluster's placement)
 * @param scenario - scenario name (recorded in `otherData`)
 */
export function assemblyTrace(measurement: Measurement, rankToNode: Int32Array, scenario: string): ChromeTraceFile {
  const intervals = measurement.trace;
  if (intervals === undefined) throw new Error("the run kept no trace (measure with trace: true)");
  const nodes = rankToNode.reduce((a, n) => Math.max(a, n + 1), 0);
  const processes: TraceLane[] = Array.from({ length: nodes }, (_, node) => ({ pid: node, tid: 0, name: `node ${node}` }));
  const threads: TraceLane[] = Array.from(rankToNode, (node, rank) => ({ pid: node, tid: rank, name: `rank ${rank}` }));
  const { names, groups } = measurement.timers;
  return new ChromeTraceFile(
    intervals,
    {
      processes,
      threads,
      event: (rank, timer) => ({ name: names[timer], cat: groups[timer], pid: rankToNode[rank], tid: rank, args: { rank } }),
      lane: (rank) => ({ pid: rankToNode[rank], tid: rank }),
    },
    { ccasim: "assembly trace", scenario },
  );
}
