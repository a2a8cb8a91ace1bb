import { existsSync, mkdirSync, statSync } from "node:fs";
import { basename, dirname, extname, resolve } from "node:path";
import { writeTextFileAtomically } from "../../profile/index.js";
import { StudyStore } from "../../profile/study/index.js";
import { renderReportHtml, type ReportDocument } from "./html.js";
import { studyReport } from "./study-report.js";
import { readTrialInput, trialReport } from "./trial-report.js";

/** True when `path` is a study database (a DuckDB file) rather than a run folder or profile. */
export function isStudyDatabase(path: string): boolean {
  return existsSync(path) && statSync(path).isFile() && [".db", ".duckdb"].includes(extname(path).toLowerCase());
}

/**
 * The report of a run folder (`ccasim run` output), a TAU profile, or a study database.
 * @throws ProfileError / StudyError when the input cannot be read
 */
export async function buildReport(input: string): Promise<ReportDocument> {
  if (isStudyDatabase(input)) {
    const store = await StudyStore.open(input, { readOnly: true });
    try {
      return await studyReport(store, basename(input, extname(input)));
    } finally {
      store.close();
    }
  }
  return trialReport(readTrialInput(input));
}

/**
 * Writes the self-contained HTML report of `input` to `out` (atomically: a temporary sibling
 * renamed at the end).
 * @returns the report and the number of charts written
 */
export async function writeReport(input: string, out: string): Promise<{ file: string; charts: number; document: ReportDocument }> {
  const doc = await buildReport(input);
  const html = await renderReportHtml(doc);
  const file = resolve(out);
  mkdirSync(dirname(file), { recursive: true });
  writeTextFileAtomically(file, (write) => write(html));
  return { file, charts: doc.sections.reduce((n, s) => n + (s.charts?.length ?? 0), 0), document: doc };
}
