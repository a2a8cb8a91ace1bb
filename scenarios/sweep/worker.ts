/**
 * The sweep worker thread: runs one point per task and returns its table rows. Loaded by the
 * worker pool from the built JavaScript (dist/scenarios/sweep/worker.js).
 * @internal
 */
import Tinypool from "tinypool";
import { runPointTask, type PointTask } from "./execute-point.js";
import { rowsTransferList, type PointRows } from "../../profile/study/index.js";

/** Runs one point (the pool calls this once per task); its typed columns move to the caller without a copy. */
export default function runTask(task: PointTask): PointRows {
  const rows = runPointTask(task);
  const movable = { [Tinypool.transferableSymbol]: rowsTransferList(rows), [Tinypool.valueSymbol]: rows };
  return Tinypool.move(movable as unknown as Parameters<typeof Tinypool.move>[0]) as unknown as PointRows;
}
