import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { defaultMetric, derivedView, forEachRecord, hasTauProfileFiles, inputIsDirectory, isTimeMetric, ProfileError, profileFolderOf, profileTable, readTrial, recordsFileIn, RUN_PROFILE_FOLDER, RUN_SUMMARY_FILE, timerCounts, type Trial } from "../../profile/index.js";
import { estimateTrialPower, powerConstantSets, processorMismatchFact } from "../power/index.js";
import { fittableRoutines, levelChart, powerEnergyChart, messagePassingChart, stridedRatioChart, timeVsQChart, topTimersChart } from "./charts.js";
import { digestRecords, RecordDigester, type RecordDigest } from "./data.js";
import { compareText } from "../../profile/internal.js";
import { meanSdVsQChart } from "./mean-sd-chart.js";
import type { ReportDocument, ReportSection } from "./html.js";

/** A run's outputs as the report reads them. */
export interface TrialInput {
  readonly name: string;
  readonly trial?: Trial;
  /** What the report keeps of the per-invocation records. */
  readonly records: RecordDigest;
  readonly summary?: Record<string, unknown>;
}

/**
 * Reads what `ccasim run` wrote (a folder with `profile/`, `records.*`, `summary.json`) or any
 * TAU profile folder or `.ppk` file. The records file (the folder's, else its `profile/` folder's,
 * the first that holds records) is streamed into the points the charts need: no record is kept,
 * so a run of millions of records is reported in the memory of their points. A folder of records
 * without any profile files is reported from its records alone; a profile that is there but
 * unreadable is an error. `options.snapshot` chooses the snapshot of each thread of a TAU XML
 * profile (see `ReadTrialOptions.snapshot`; refused for the other formats).
 * @throws ProfileError / ProfileFormatError when nothing readable is there
 */
export function readTrialInput(path: string, options: { readonly snapshot?: number | string } = {}): TrialInput {
  const dir = inputIsDirectory(path);
  const profileAt = dir ? profileFolderOf(path) : path;
  const profileDir = dir && existsSync(join(path, RUN_PROFILE_FOLDER)) ? join(path, RUN_PROFILE_FOLDER) : undefined;
  // A snapshot is of the profile, which is then read whatever the records: first, so that one
  // refused (a profile of another format, or none) is refused before the records are streamed.
  const chosen = options.snapshot === undefined ? undefined : readTrial(profileAt, { records: false, snapshot: options.snapshot });
  let records: RecordDigest | undefined;
  for (const folder of dir ? [path, profileDir] : []) {
    const file = folder === undefined ? undefined : recordsFileIn(folder);
    if (file === undefined) continue;
    const digester = new RecordDigester();
    forEachRecord(file, (r) => digester.add(r));
    records = digester.finish();
    if (records.count > 0) break;
  }
  // The records are read above, once: the trial is read without them.
  const trial = chosen ?? (dir && records !== undefined && records.count > 0 && !hasTauProfileFiles(profileAt) ? undefined : readTrial(profileAt, { records: false }));
  const summaryFile = dir ? join(path, RUN_SUMMARY_FILE) : "";
  const summary = summaryFile && existsSync(summaryFile) ? (JSON.parse(readFileSync(summaryFile, "utf8")) as Record<string, unknown>) : undefined;
  return { name: String(summary?.scenario ?? basename(path)), trial, records: records ?? digestRecords([]), summary };
}

/** The report of one run: summary, time vs Q by mode with fits, mean and standard deviation vs Q with fits, strided/sequential ratio, message passing, top timers. */
export function trialReport(input: TrialInput): ReportDocument {
  const sections: ReportSection[] = [];
  const s = input.summary;
  const overview: (readonly (string | number)[])[] = [];
  if (s) {
    for (const k of ["scenario", "seed", "ranks", "simulatedTime", "events", "invocations", "records"]) if (s[k] !== undefined) overview.push([k === "simulatedTime" ? "simulated time (us)" : k, s[k] as string | number]);
  }
  if (input.trial) {
    // Timers and callpaths apart, as 'profile show' counts them.
    const { timers, callpaths } = timerCounts(input.trial);
    overview.push(["threads", input.trial.threads.length], ["timers", timers]);
    if (callpaths > 0) overview.push(["callpaths", callpaths]);
    overview.push(["metrics", input.trial.metrics.join(", ")]);
  }
  overview.push(["invocation records", input.records.count]);
  sections.push({ heading: "Run", tables: [{ columns: ["", "value"], rows: overview }] });

  const { roles, points } = input.records;
  const qLabel = roles.q ?? "Q";
  if (points.length) {
    const routines = fittableRoutines(points);
    sections.push({
      heading: "Time per invocation",
      notes: routines.length ? [] : [`No routine has records at 3 or more distinct values of ${qLabel}: nothing to fit.`],
      charts: routines.map((r) => timeVsQChart(r, points, qLabel)),
    });
    const meanSd = routines.map((r) => meanSdVsQChart(r, points, qLabel)).filter((c) => c !== undefined);
    if (meanSd.length) sections.push({ heading: "Mean and standard deviation", charts: meanSd });
    const ratio = stridedRatioChart(points, qLabel);
    if (ratio) sections.push({ heading: ratio.id === "strided-ratio" ? "Strided vs sequential" : "Time ratio of the modes", charts: [ratio] });
  }
  const mpiCharts = [levelChart(input.records.levelPoints), messagePassingChart(points, qLabel)].filter((c) => c !== undefined);
  if (mpiCharts.length) sections.push({ heading: "Message passing", charts: mpiCharts });
  if (input.trial && input.trial.timers.length) {
    const metric = defaultMetric(input.trial);
    const table = profileTable(input.trial, derivedView(input.trial, "mean"), { metric, top: 15 });
    const unit = isTimeMetric(metric) ? "us" : "";
    sections.push({
      heading: "Profile",
      charts: [topTimersChart(table.rows.map((r) => ({ name: r.name, exclusive: r.exclusive, inclusive: r.inclusive })), metric, unit)],
      tables: [{ columns: ["timer", `exclusive ${metric}${unitSuffix(unit)}`, `inclusive ${metric}${unitSuffix(unit)}`, "calls", `inclusive/call${unitSuffix(unit)}`], rows: table.rows.map((r) => [r.name, r.exclusive, r.inclusive, r.calls, r.inclusivePerCall]) }],
    });
  }
  if (input.trial) {
    const power = powerSection(input.trial);
    if (power) sections.push(power);
  }
  // A profile without records (a real TAU measurement) is described by its threads alone.
  const records = input.records.count;
  const threads = input.trial?.threads.length ?? 0;
  const parts = [...(records > 0 || !input.trial ? [`${records} invocation record${records === 1 ? "" : "s"}`] : []), ...(input.trial ? [`${threads} thread${threads === 1 ? "" : "s"}`] : [])];
  return { title: `ccasim report: ${input.name}`, subtitle: parts.join(", "), sections };
}

/**
 * Power and energy per event when the trial's counters allow it (at least one component of the
 * power model has its access counter, and cycles are known); undefined otherwise. A trial whose
 * metadata names a processor the model does not describe gets a note instead of estimates.
 */
function powerSection(trial: Trial): ReportSection | undefined {
  const set = powerConstantSets.get("itanium2-madison");
  const est = estimateTrialPower(trial, set, { view: "mean", kind: "inclusive" });
  if (est.processorMismatch !== undefined && est.anyComponent) {
    return {
      heading: "Power and energy",
      notes: [`Not estimated: ${processorMismatchFact(trial, set)}. 'ccasim power' estimates it with those constants all the same, with a warning; 'ccasim power --constants-file' takes constants for its own processor.`],
    };
  }
  const mean = derivedView(trial, "mean");
  const rows = est.events
    .filter((e) => e.power.components.length > 0 && Number.isFinite(e.power.joules))
    .map((e) => {
      const timer = trial.timers.find((t) => t.name === e.event)!;
      const calls = mean.calls[timer.index];
      return { event: e.event, watts: e.power.watts, joules: e.power.joules, joulesPerCall: calls > 0 ? e.power.joules / calls : e.power.joules, calls };
    })
    .sort((a, b) => b.joules - a.joules || compareText(a.event, b.event))
    .slice(0, 12);
  if (rows.length === 0) return undefined;
  return {
    heading: "Power and energy",
    notes: est.omittedComponents.length ? [`Left out of the model (no counter): ${est.omittedComponents.join("; ")}.`] : [],
    charts: [powerEnergyChart(rows, est.constants)],
    tables: [{ columns: ["event", "power (W)", "energy (J)", "calls", "energy per call (J)"], rows: rows.map((r) => [r.event, r.watts, r.joules, r.calls, r.joulesPerCall]) }],
  };
}

/** ` (unit)` for a column heading, or nothing for a count. */
function unitSuffix(unit: string): string {
  return unit === "" ? "" : ` (${unit})`;
}
