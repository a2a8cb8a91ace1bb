/**
 * The sweep worker thread: runs one point per task and returns its table rows (compact: typed and
 * dictionary-encoded columns, which cross to the main thread as a few byte copies). Loaded by the
 * worker pool from the built JavaScript (dist/scenarios/sweep/worker.js). It imports no more than
 * running a point needs: the pool module itself spawns shells when it loads.
 * @internal
 */
import { runPointTask, type PointTask } from "./execute-point.js";
import type { PointRows } from "../../profile/study/index.js";

/** Runs one point (the pool calls this once per task). */
export default function runTask(task: PointTask): PointRows {
  return runPointTask(task);
}
