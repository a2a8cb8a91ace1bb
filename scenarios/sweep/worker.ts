/**
 * The sweep worker thread: runs one point per task and returns its table rows. Loaded by the
 * worker pool from the built JavaScript (dist/scenarios/sweep/worker.js).
 * @internal
 */
import { runPointTask, type PointTask } from "./execute-point.js";
import type { PointRows } from "../../profile/study/index.js";

/** Runs one point (the pool calls this once per task). */
export default function runTask(task: PointTask): PointRows {
  return runPointTask(task);
}
