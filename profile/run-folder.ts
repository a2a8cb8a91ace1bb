/**
 * The layout of the folder `ccasim run` writes, as the readers, the report and the run itself see
 * it: its TAU profile in `profile/`, its records beside that, a `summary.json` marked as a run's.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The folder of a run's TAU profile inside the folder `ccasim run` writes. */
export const RUN_PROFILE_FOLDER = "profile";

/** The run's summary, which marks a folder as a run's (see {@link RUN_SUMMARY_MARK}). */
export const RUN_SUMMARY_FILE = "summary.json";

/** The value of the `ccasim` field of a run's `summary.json`. */
export const RUN_SUMMARY_MARK = "run summary";

/** The HTML page `ccasim report` writes into a run's folder. */
export const RUN_REPORT_FILE = "report.html";

/** True when `dir` holds a `summary.json` that a run wrote (marked {@link RUN_SUMMARY_MARK}). */
export function isRunFolder(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, RUN_SUMMARY_FILE), "utf8")) as { ccasim?: unknown }).ccasim === RUN_SUMMARY_MARK;
  } catch {
    return false; // why: no file, not JSON or not a map: not a run's summary
  }
}
