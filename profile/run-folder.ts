/**
 * The layout of the folder `ccasim run` writes, as the readers, the report and the run itself see
 * it: its TAU profile in `profile/`, its records beside that, a `summary.json` marked as a run's.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The folder of a run's TAU profile inside the folder `ccasim run` writes. */
export const RUN_PROFILE_FOLDER = "profile";

/** The run's summary, which marks a folder as a run's (see {@link RUN_SUMMARY_MARK}). */
export const RUN_SUMMARY_FILE = "summary.json";

/** The value of the `ccasim` field of a run's `summary.json`. */
export const RUN_SUMMARY_MARK = "run summary";

/** The HTML page `ccasim report` writes into a run's folder. */
export const RUN_REPORT_FILE = "report.html";

/** The files a run writes beside its `profile/` folder and records. */
export const RUN_FILES = {
  callgraph: "callgraph.json",
  evidence: "evidence.json",
  summary: RUN_SUMMARY_FILE,
  timing: "timing.json",
  trace: "trace.json",
} as const;

/** What each file of a run's folder is, in words, for a message about it. */
const RUN_FILE_WORDS: Readonly<Record<string, string>> = {
  [RUN_FILES.callgraph]: "call graph",
  [RUN_FILES.evidence]: "evidence",
  [RUN_FILES.summary]: "summary",
  [RUN_FILES.timing]: "timing",
  [RUN_FILES.trace]: "trace",
  [RUN_REPORT_FILE]: "report",
};

/**
 * For a file a run wrote beside its profile (`out/x/callgraph.json`), given where a profile is
 * expected: what it is and what to give instead, `the call graph of the ccasim run in out/x: give
 * the run's folder, out/x`; undefined for any other path.
 */
export function runFileAdvice(path: string): string | undefined {
  const words = RUN_FILE_WORDS[basename(path)];
  const dir = dirname(path);
  if (words === undefined || !isRunFolder(dir)) return undefined;
  return `the ${words} of the ccasim run in ${dir}: give the run's folder, ${dir}, whose profile/ and records are read`;
}

/** True when `dir` holds a `summary.json` that a run wrote (marked {@link RUN_SUMMARY_MARK}). */
export function isRunFolder(dir: string): boolean {
  return runSummaryOf(dir) !== undefined;
}

/** The `summary.json` a run wrote in `dir` (marked {@link RUN_SUMMARY_MARK}), parsed; undefined for a folder that holds none. */
export function runSummaryOf(dir: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const summary = JSON.parse(readFileSync(join(dir, RUN_SUMMARY_FILE), "utf8")) as Record<string, unknown> | null;
    return summary !== null && summary.ccasim === RUN_SUMMARY_MARK ? summary : undefined;
  } catch {
    return undefined; // why: no file, or not JSON: not a run's summary
  }
}

/**
 * For the folder of a run made without measurement (its summary's `measured: false`): why it
 * holds no profile, `a ccasim run made with --no-measure: ...` (the caller names the folder);
 * undefined for any other folder.
 */
export function unmeasuredRunText(dir: string): string | undefined {
  if (runSummaryOf(dir)?.measured !== false) return undefined;
  return "a ccasim run made with --no-measure: it wrote no profile, records or call graph (run it again without --no-measure)";
}
