import { existsSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { checkOutputPath, isRunFolder, OutputPathError, ProfileError, parseProfileFileName, RUN_REPORT_FILE, writeTextFileAtomically, type CommandInput } from "../../profile/index.js";
import { isStudyDatabase, StudyStore } from "../../profile/study/index.js";
import { renderReportHtml, type ReportDocument } from "./html.js";
import { studyReport } from "./study-report.js";
import { readTrialInput, trialReport } from "./trial-report.js";

/**
 * Where the report of `input` goes when no output is named: beside a study database
 * (`study.db` -> `study.html`); into a run's folder (`<folder>/report.html`); and otherwise (a TAU
 * profile, a `.ppk` file) into the current directory, named after the input (`<name>.html`), or
 * after its run for a run's own `profile/` (`<run>-profile.html`: not the run's report, which it
 * would replace with less, nor a `profile.html` every run's would overwrite). Why not beside a
 * profile: measurement data is often shared or read-only, and a report written there would mix
 * with it.
 */
export function defaultReportPath(input: string): string {
  if (isStudyDatabase(input)) return input.slice(0, input.length - extname(input).length) + ".html";
  const dir = existsSync(input) && statSync(input).isDirectory();
  if (dir && isRunFolder(input)) return join(input, RUN_REPORT_FILE);
  const full = resolve(input);
  // A TAU profile file's name is all "extension" (profile.0.0.0): it is kept whole.
  const file = basename(full);
  const name = dir || parseProfileFileName(file) !== undefined ? file : basename(full, extname(full)) || file;
  const parent = dirname(full);
  return (isRunFolder(parent) ? `${basename(parent)}-${name}` : name) + ".html";
}

/** How a report reads its input. */
export interface ReportOptions {
  /**
   * Of a TAU XML profile, which snapshot of each thread is reported (see
   * `ReadTrialOptions.snapshot`); refused for a study database and the other profile formats.
   */
  readonly snapshot?: number | string;
}

/**
 * The report of a run folder (`ccasim run` output), a TAU profile, or a study database.
 * @throws ProfileError / StudyError when the input cannot be read, or a snapshot is asked of a study
 */
export async function buildReport(input: string, options: ReportOptions = {}): Promise<ReportDocument> {
  if (isStudyDatabase(input)) {
    if (options.snapshot !== undefined) throw new ProfileError(`${input}: a snapshot is chosen of a TAU XML profile; a study database holds its points' records and profiles`);
    const store = await StudyStore.open(input, { readOnly: true, study: true });
    try {
      return await studyReport(store, basename(input, extname(input)));
    } finally {
      store.close();
    }
  }
  return trialReport(readTrialInput(input, options));
}

/**
 * `input` as the input a report may not replace nor be written into: a run folder keeps its own
 * report (`<folder>/report.html`), and nothing else of a report goes inside a folder it reads.
 */
export function reportInput(input: string): CommandInput {
  return { path: input, what: "the input", ...(isRunFolder(input) ? { keeps: [join(input, RUN_REPORT_FILE)] } : {}) };
}

/**
 * Writes the self-contained HTML report of `input` to `out` (atomically: a temporary sibling
 * renamed at the end). Before the report is built (a study's takes a while), `out` is checked
 * (see `checkOutputPath`): not the input, a folder holding it, or a path inside an input folder
 * other than a run folder's own report, under a writable folder, and named `.html` (or `.htm`).
 * @returns the report and the number of charts written
 * @throws OutputPathError (an input error) when `out` may not or cannot be written
 */
export async function writeReport(input: string, out: string, options: ReportOptions = {}): Promise<{ file: string; charts: number; document: ReportDocument }> {
  checkOutputPath(out, "report", { inputs: [reportInput(input)] });
  // The report is one HTML page: a file named for another format would not open as it says.
  if (!/\.html?$/i.test(out)) throw new OutputPathError(out, "report", "the report is an HTML page; name it .html (a browser prints it to PDF)");
  const doc = await buildReport(input, options);
  const html = await renderReportHtml(doc);
  const file = resolve(out);
  writeTextFileAtomically(file, (write) => write(html));
  return { file, charts: doc.sections.reduce((n, s) => n + (s.charts?.length ?? 0), 0), document: doc };
}
