/**
 * Writer of TAU text profiles, byte for byte in the layout TAU's `Profiler.cpp` writes, so that
 * `pprof`, `paraprof` and Hatchet load the result (Hatchet's TAU reader parses the first timer
 * line's calls, subroutines and values as integers: a fraction there, as a count or with
 * `integerTime: false`, stops it):
 *
 * - one metric: `<dir>/profile.N.C.T`; several: `<dir>/MULTI__<metric>/profile.N.C.T`;
 * - line 1 `<count> templated_functions_MULTI_<metric>`, line 2 the column line
 *   `# Name Calls Subrs Excl Incl ProfileCalls # <metadata>...</metadata>` with `Metric Name` first,
 *   then the attributes in name order: in `profile.0.0.0` every attribute of thread 0,0,0, in the
 *   other files only those whose value differs from (or is absent in) `profile.0.0.0`'s, as TAU
 *   writes them; readers take `profile.0.0.0`'s attributes as every thread's defaults. An attribute
 *   thread 0,0,0 has and another thread lacks cannot be written: that thread reads it back with
 *   thread 0,0,0's value. Without a thread 0,0,0 every file holds all of its thread's attributes;
 * - `"<name>" <calls> <subrs> <excl> <incl> 0 GROUP="<g1|g2>" ` lines, the thread's top-level
 *   timer first (`.TAU application`, else its flat timer of largest inclusive TIME), which Hatchet
 *   takes as the root, then the trial's timer order, identical in every metric file of a thread;
 * - `0 aggregates`, then the user-event block when the thread has events (in every metric file,
 *   as TAU does).
 *
 * Timer and user-event names and group lists are written as the source spelt them (a trial read
 * from a TAU profile keeps its padding, `A   => B`, `TAU_PARAM | TAU_USER`), so names round-trip
 * byte for byte. Numbers are written in the shortest form that reads back to the same double (`1E+21` style
 * exponents); with `integerTime` (the default) values of time metrics are rounded to whole
 * microseconds, as TAU's own files hold them. Output is deterministic: the same trial gives the
 * same bytes.
 */
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { OutputExistsError, ProfileError, ProfileModelError } from "../errors.js";
import type { Trial } from "../model.js";
import { canonicalTimerName, parseUserEventName } from "../names.js";
import { writeRecordsCsv, writeRecordsJsonl } from "../records-write.js";
import { writeMetadataXml } from "./xml.js";
import { holdsWorkingDirectory } from "../protected-paths.js";
import { removeStaleTemporaries, temporarySibling, trackTemporary } from "../temporary-files.js";
import { fileErrorText } from "../file-error.js";

/** Options of {@link writeTauProfile}. */
export interface WriteTauOptions {
  /** Round values of time metrics (name `TIME` or containing `TIME`) to whole microseconds (default true). */
  readonly integerTime?: boolean;
  /** Replace `dir` if it exists (default false: an existing non-empty directory is an error). */
  readonly overwrite?: boolean;
  /**
   * Also write the trial's per-invocation records into the directory as `records.csv` (default when
   * the trial has records) or `records.jsonl`; `"none"` skips them. TAU tools ignore these files;
   * `readTrial` picks them up.
   */
  readonly records?: "csv" | "jsonl" | "none";
}

/** Name of the root timer TAU writes first. */
export const TAU_ROOT_TIMER = ".TAU application";

/** Formats a number as TAU-compatible text: integers plainly, others in shortest round-trip form, exponent as `E+NN`. */
export function formatTauNumber(x: number): string {
  if (x === 0) return "0";
  const s = String(x);
  return s.indexOf("e") >= 0 ? s.replace("e", "E") : s;
}

/** True for metrics whose values are microseconds. */
export function isTimeMetric(name: string): boolean {
  return /TIME/i.test(name);
}

/** What the folder of each metric of a multi-metric profile is named with: `MULTI__<metric>`. */
export const METRIC_FOLDER_PREFIX = "MULTI__";

/** Folder name of a metric in a multi-metric profile (characters other than letters, digits, `_.+-` become `_`). */
export function metricFolderName(metric: string): string {
  return `${METRIC_FOLDER_PREFIX}${metric.replace(/[^A-Za-z0-9_.+-]/g, "_")}`;
}

function checkText(what: string, s: string, forbidQuote = false): void {
  if (/[\r\n]/.test(s)) throw new ProfileModelError(`${what} '${s.replace(/[\r\n]/g, "\\n")}' contains a line break, which a TAU profile cannot hold`);
  if (forbidQuote && s.indexOf('"') >= 0) throw new ProfileModelError(`${what} '${s}' contains '"', which a TAU profile cannot hold`);
}

/** The spelling a source gave a timer, when it names the same timer (else the canonical name). @internal */
export function writtenTimerName(name: string, spelling: string | undefined): string {
  return spelling !== undefined && canonicalTimerName(spelling) === name ? spelling : name;
}

/** The spelling a source gave a user event, when it names the same event. @internal */
export function writtenEventName(name: string, spelling: string | undefined): string {
  if (spelling === undefined) return name;
  const u = parseUserEventName(spelling);
  return (u.context ? `${u.base} : ${u.context.join(" => ")}` : u.base) === name ? spelling : name;
}

/** The group text a file gave a timer, when it lists exactly these groups (else them joined with `|`). @internal */
export function writtenGroups(groups: readonly string[], text: string | undefined): string {
  const joined = groups.join("|");
  if (text === undefined || /["\r\n]/.test(text)) return joined;
  const parts = text.split("|").map((g) => g.trim()).filter((g) => g !== "");
  return parts.length === groups.length && parts.every((g, i) => g === groups[i]) ? text : joined;
}

/**
 * The timer a thread's files list first, as TAU's own files do and Hatchet's TAU reader requires
 * (it takes a file's first timer as the root of the rank's call tree): `.TAU application` when the
 * thread has it, else the thread's top-level timer, the flat timer of largest inclusive value in
 * TIME (else the trial's first metric; the first in trial order on a tie), so that every metric
 * file of the thread starts alike; -1 for a thread without flat timers. The others follow in trial order.
 * @internal
 */
function firstTimer(trial: Trial, thread: number): number {
  const nT = trial.timers.length;
  const base = thread * nT;
  const present = trial.values.present;
  const root = trial.findTimer(TAU_ROOT_TIMER);
  if (root && present[base + root.index] === 1) return root.index;
  const inc = trial.values.inclusive[Math.max(0, trial.metrics.indexOf("TIME"))];
  let top = -1;
  for (const t of trial.timers) {
    const s = base + t.index;
    if (t.isCallpath || present[s] === 0) continue;
    if (top < 0 || inc[s] > inc[base + top]) top = t.index;
  }
  return top;
}

/**
 * The metadata `profile.0.0.0` holds, which readers give every other thread as defaults: thread
 * 0,0,0's attributes (trial-wide ones included), with its index; undefined without a thread 0,0,0.
 * @internal
 */
export function metadataDefaults(trial: Trial): { readonly thread: number; readonly metadata: ReadonlyMap<string, string> } | undefined {
  const thread = trial.threads.findIndex((t) => t.node === 0 && t.context === 0 && t.thread === 0);
  return thread < 0 ? undefined : { thread, metadata: trial.threadMetadataMerged(thread) };
}

/**
 * The text of one `profile.N.C.T` file: thread `thread`, metric `metric`.
 * @param first - index of the timer listed first (the thread's top-level timer when not given; -1 for none)
 * @param defaults - the metadata of `profile.0.0.0` (computed from the trial when not given)
 * @throws ProfileModelError for names a TAU profile cannot hold (line breaks; `"` in groups; `GROUP="` in a name).
 */
export function formatTauProfileFile(
  trial: Trial,
  thread: number,
  metric: number,
  options: WriteTauOptions = {},
  first = firstTimer(trial, thread),
  defaults = metadataDefaults(trial),
): string {
  const metricName = trial.metrics[metric];
  checkText("metric name", metricName);
  const round = (options.integerTime ?? true) && isTimeMetric(metricName);
  const nT = trial.timers.length;
  const base = thread * nT;
  const { present, calls, subroutines } = trial.values;
  const ex = trial.values.exclusive[metric];
  const inc = trial.values.inclusive[metric];
  let count = 0;
  for (let t = 0; t < nT; t++) if (present[base + t] === 1) count++;
  const meta: [string, string][] = [["Metric Name", metricName]];
  const merged = trial.threadMetadataMerged(thread);
  merged.delete("Metric Name");
  // TAU's layout: the other files leave out what profile.0.0.0 already says.
  if (defaults !== undefined && defaults.thread !== thread) for (const [k, v] of defaults.metadata) if (merged.get(k) === v) merged.delete(k);
  for (const k of [...merged.keys()].sort()) meta.push([k, merged.get(k)!]);
  const parts: string[] = [`${count} templated_functions_MULTI_${metricName}\n`, `# Name Calls Subrs Excl Incl ProfileCalls # ${writeMetadataXml(meta)}\n`];
  // The first timer, then the others in trial order (without copying an order per thread).
  for (let k = first < 0 ? 0 : -1; k < nT; k++) {
    const t = k < 0 ? first : k;
    if (k >= 0 && t === first) continue;
    const s = base + t;
    if (present[s] === 0) continue;
    const timer = trial.timers[t];
    const name = writtenTimerName(timer.name, timer.spelling);
    checkText("timer name", name);
    if (name.indexOf('GROUP="') >= 0) throw new ProfileModelError(`timer name '${name}' contains 'GROUP="', which a TAU profile cannot hold`);
    for (const g of timer.groups) {
      checkText("group name", g, true);
      if (g.indexOf("|") >= 0) throw new ProfileModelError(`group name '${g}' contains '|', the group separator`);
    }
    const groups = writtenGroups(timer.groups, timer.groupText);
    const e = round ? Math.round(ex[s]) : ex[s];
    const i = round ? Math.round(inc[s]) : inc[s];
    parts.push(`"${name}" ${formatTauNumber(calls[s])} ${formatTauNumber(subroutines[s])} ${formatTauNumber(e)} ${formatTauNumber(i)} 0 GROUP="${groups}" \n`);
  }
  parts.push("0 aggregates\n");
  const nE = trial.userEvents.length;
  const ev = trial.events;
  let events = 0;
  for (let u = 0; u < nE; u++) if (ev.present[thread * nE + u] === 1) events++;
  if (events > 0) {
    parts.push(`${events} userevents\n# eventname numevents max min mean sumsqr\n`);
    for (let u = 0; u < nE; u++) {
      const s = thread * nE + u;
      if (ev.present[s] === 0) continue;
      const name = writtenEventName(trial.userEvents[u].name, trial.userEvents[u].spelling);
      checkText("user event name", name);
      parts.push(`"${name}" ${formatTauNumber(ev.count[s])} ${formatTauNumber(ev.max[s])} ${formatTauNumber(ev.min[s])} ${formatTauNumber(ev.mean[s])} ${formatTauNumber(ev.sumSquares[s])}\n`);
    }
  }
  return parts.join("");
}

/** Every file of the profile directory as (relative path, text), in a fixed order. */
export function formatTauProfile(trial: Trial, options: WriteTauOptions = {}): { path: string; text: string }[] {
  if (trial.metrics.length === 0) throw new ProfileModelError("a trial needs at least one metric to be written as a TAU profile");
  const first = trial.threads.map((_, th) => firstTimer(trial, th));
  const defaults = metadataDefaults(trial);
  const folders = new Set<string>();
  const out: { path: string; text: string }[] = [];
  for (let m = 0; m < trial.metrics.length; m++) {
    let folder = "";
    if (trial.metrics.length > 1) {
      const f0 = metricFolderName(trial.metrics[m]);
      folder = f0;
      for (let k = 2; folders.has(folder); k++) folder = `${f0}_${k}`;
      folders.add(folder);
    }
    for (let th = 0; th < trial.threads.length; th++) {
      const t = trial.threads[th];
      const name = `profile.${t.node}.${t.context}.${t.thread}`;
      out.push({ path: folder ? `${folder}/${name}` : name, text: formatTauProfileFile(trial, th, m, options, first[th], defaults) });
    }
  }
  return out;
}

/**
 * Writes `trial` as a TAU profile directory (plus its records, see {@link WriteTauOptions.records}). Files are written into a temporary sibling directory
 * that is renamed into place, so a failure leaves no half-written profile.
 * @returns the paths written.
 * @throws ProfileError when `dir` exists and is not empty (unless `overwrite`), is empty, is the
 *   working directory or one of its ancestors (never replaced), or cannot be written.
 * @throws ProfileModelError for names a TAU profile cannot hold.
 */
export function writeTauProfile(trial: Trial, dir: string, options: WriteTauOptions = {}): string[] {
  const files = formatTauProfile(trial, options);
  const rec = options.records ?? "csv";
  // Records are written in chunks from the trial's table: they may be more text than a string holds.
  const records = rec !== "none" && trial.recordTable.count > 0 ? (rec === "csv" ? "records.csv" : "records.jsonl") : undefined;
  if (dir.trim() === "") throw new ProfileError("cannot write a TAU profile at an empty path");
  // Replaced whole, so never the working directory or an ancestor, whatever `overwrite` says.
  if (holdsWorkingDirectory(dir)) throw new ProfileError(`cannot write a TAU profile to '${dir}': it is the working directory or one of its ancestors`);
  const exists = existsSync(dir);
  if (exists) {
    if (!statSync(dir).isDirectory()) throw new ProfileError(`cannot write a TAU profile to '${dir}': it exists and is not a directory`);
    if (!options.overwrite && readdirSync(dir).length > 0) throw new OutputExistsError(dir);
  }
  removeStaleTemporaries(dir);
  const tmp = temporarySibling(dir);
  const untrack = trackTemporary(tmp);
  try {
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const made = new Set<string>();
    for (const f of files) {
      const d = dirname(f.path);
      if (d !== "." && !made.has(d)) {
        mkdirSync(join(tmp, d), { recursive: true });
        made.add(d);
      }
      writeFileSync(join(tmp, f.path), f.text);
    }
    if (records !== undefined) (rec === "csv" ? writeRecordsCsv : writeRecordsJsonl)(trial.recordTable, join(tmp, records));
    if (exists) rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw new ProfileError(`cannot write TAU profile '${dir}': ${fileErrorText(e)}`);
  } finally {
    untrack();
  }
  return [...files.map((f) => f.path), ...(records === undefined ? [] : [records])].map((f) => join(dir, f));
}
