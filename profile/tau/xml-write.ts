/**
 * Writer of TAU XML profiles in the layout of a merged profile (`TAU_PROFILE_FORMAT=merged`,
 * TAU's `tauprofile.xml`, as `TauProfileMerge.cpp` and `TauSnapshot.cpp` write it), which
 * ParaProf's `SnapshotDataSource`, TAUdb's loaders and `snapshot-read.ts` read:
 *
 * - a first `<profile_xml>` document with the definitions every thread shares
 *   (`<definitions thread="*">`): the metrics (`<metric id="m"><name>TIME</name>` and TAU's
 *   `<units>unknown</units>`), every timer, flat and callpath, as an `<event>` with its name and
 *   its groups, every user event as a `<userevent>`;
 * - a document per thread: `<thread id="N.C.T.PID" node="N" context="C" thread="T">` with the
 *   thread's metadata (by name, one tag a line as TAU writes them: all of thread 0,0,0's
 *   attributes, which readers give every thread as defaults, and of the other threads those whose
 *   value differs, as TAU writes them; an attribute thread 0,0,0 has and another lacks is
 *   therefore read back with thread 0,0,0's value, as from TAU text profiles), its own
 *   `<definitions>` of the metrics, then one `<profile>`: a `<timestamp>`, the `<interval_data>`
 *   rows of the timers it ran (`id calls subrs` and per metric `exclusive inclusive`) and the
 *   `<atomic_data>` rows of the user events it sampled (`id samples max min mean sumsqr`).
 *
 * Names, groups and metadata are written as `Tau_XML_writeString` writes them (in CDATA when they
 * hold `<` or `&`), timers and user events with the spelling their source gave them. `PID` is the
 * thread's `pid` attribute when it is a whole number, else 0; the timestamp its `Ending Timestamp`
 * (microseconds since the epoch, when TAU wrote the profile), else 0: the same trial gives the
 * same bytes. Values are written as they are, in the shortest form that reads back to the same
 * double (TAU writes `%.16G`, which may lose the last bit), calls included (ParaProf reads
 * doubles).
 *
 * Then, as TAU writes them with `TAU_PRECOMPUTE` (and ParaProf takes its total, mean, minimum,
 * maximum and standard deviation views from them rather than from the threads), the derived
 * profiles: a `<profile_xml>` per `total`, `mean_all`, `mean_no_null`, `stddev_all`,
 * `stddev_no_null`, `min_no_null`, `max_no_null`, each the view of that kind over all threads
 * (`_all`: a thread without the timer counting 0; `_no_null`: the threads that ran it), with every
 * timer's row and, but for the total, every user event's.
 *
 * @packageDocumentation
 */
import { writeTextFileAtomically } from "../atomic-text-file.js";
import { compareText } from "../compare-text.js";
import { ProfileModelError } from "../errors.js";
import type { Trial } from "../model.js";
import { acrossThreads, derivedView, type DerivedKind } from "../derived.js";
import { formatTauNumber, metadataDefaults, writtenEventName, writtenGroups, writtenTimerName } from "./text-write.js";
import { tauXmlString } from "./xml.js";

/** Characters XML 1.0 cannot hold (the C0 controls but tab, line feed and carriage return). */
const NOT_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;

/** `s` as {@link tauXmlString} writes it. @throws ProfileModelError when XML cannot hold it (`what` names it) */
function xmlString(s: string, what: string): string {
  if (NOT_XML.test(s)) throw new ProfileModelError(`${what} '${s.replace(new RegExp(NOT_XML.source, "g"), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}' holds a control character, which an XML profile cannot hold`);
  return tauXmlString(s);
}

/** `name` as {@link xmlString} writes it. @throws ProfileModelError for a blank name, which readers refuse */
function xmlName(name: string, what: string): string {
  if (name.trim() === "") throw new ProfileModelError(`a ${what} named '${name}' cannot be written in an XML profile: its readers refuse a blank name`);
  return xmlString(name, what);
}

/** The metrics' definitions, as TAU writes them in every `<definitions>` block. */
function metricDefinitions(trial: Trial): string {
  return trial.metrics.map((m, i) => `<metric id="${i}"><name>${xmlName(m, "metric")}</name>\n<units>unknown</units>\n</metric>\n`).join("");
}

/** A whole number in an attribute's value (`"20497"`), else `fallback`. */
function wholeAttribute(m: ReadonlyMap<string, string>, name: string, fallback: string): string {
  const v = m.get(name)?.trim();
  return v !== undefined && /^\d+$/.test(v) ? v : fallback;
}

/**
 * Hands the text of a TAU XML profile of `trial` to `write`: the shared definitions, then a
 * document per thread (the memory taken is a thread's text, not the file's).
 * @throws ProfileModelError for a trial without metrics, a blank name, or a name or value XML cannot hold
 */
function tauXmlPieces(trial: Trial, write: (piece: string) => void): void {
  if (trial.metrics.length === 0) throw new ProfileModelError("a trial needs at least one metric to be written as a TAU XML profile");
  const metrics = metricDefinitions(trial);
  let head = `<profile_xml>\n\n<definitions thread="*">\n${metrics}`;
  trial.timers.forEach((t, i) => {
    head += `<event id="${i}"><name>${xmlName(writtenTimerName(t.name, t.spelling), "timer")}</name><group>${xmlString(writtenGroups(t.groups, t.groupText), `groups of timer '${t.name}'`)}</group></event>\n`;
  });
  trial.userEvents.forEach((u, i) => {
    head += `<userevent id="${i}"><name>${xmlName(writtenEventName(u.name, u.spelling), "user event")}</name></userevent>\n`;
  });
  write(head + "\n</definitions>\n</profile_xml>\n");

  const nT = trial.timers.length;
  const nE = trial.userEvents.length;
  const nM = trial.metrics.length;
  const { present, calls, subroutines, exclusive, inclusive } = trial.values;
  const ev = trial.events;
  const metricList = trial.metrics.map((_, m) => `${m} `).join("");
  const n = formatTauNumber;
  const defaults = metadataDefaults(trial);
  trial.threads.forEach((t, th) => {
    const meta = trial.threadMetadataMerged(th);
    const id = `${t.node}.${t.context}.${t.thread}.${wholeAttribute(meta, "pid", "0")}`;
    let s = `<profile_xml>\n\n<thread id="${id}" node="${t.node}" context="${t.context}" thread="${t.thread}">\n<metadata>\n`;
    // Thread 0,0,0's attributes are every thread's defaults: the others write what differs.
    const own = defaults === undefined || defaults.thread === th ? meta : new Map([...meta].filter(([k, v]) => defaults.metadata.get(k) !== v));
    for (const [k, v] of [...own].sort((a, b) => compareText(a[0], b[0]))) {
      s += `<attribute>\n<name>${xmlString(k, "metadata name")}</name>\n<value>${xmlString(v, `metadata '${k}'`)}</value>\n</attribute>\n`;
    }
    s += `</metadata>\n</thread>\n\n<definitions thread="${id}">\n${metrics}</definitions>\n\n<profile thread="${id}">\n`;
    s += `<timestamp>${wholeAttribute(meta, "Ending Timestamp", "0")}</timestamp>\n<interval_data metrics="${metricList}">\n`;
    const base = th * nT;
    for (let k = 0; k < nT; k++) {
      const c = base + k;
      if (present[c] === 0) continue;
      s += `${k} ${n(calls[c])} ${n(subroutines[c])} `;
      for (let m = 0; m < nM; m++) s += `${n(exclusive[m][c])} ${n(inclusive[m][c])} `;
      s += "\n";
    }
    s += "</interval_data>\n<atomic_data>\n";
    for (let u = 0; u < nE; u++) {
      const c = th * nE + u;
      if (ev.present[c] === 0) continue;
      s += `${u} ${n(ev.count[c])} ${n(ev.max[c])} ${n(ev.min[c])} ${n(ev.mean[c])} ${n(ev.sumSquares[c])}\n`;
    }
    write(s + "</atomic_data>\n</profile>\n\n</profile_xml>\n");
  });
  for (const [entity, kind, includeMissing] of DERIVED_ENTITIES) write(derivedDocument(trial, entity, kind, includeMissing, metricList));
}

/**
 * TAU's derived entities (`TAU_PRECOMPUTE`'s statistics, `stat_names` of `TauCollate.cpp`) in the
 * order TAU writes them, each with the view that computes it: kind, and whether threads without
 * the timer count (as 0).
 */
const DERIVED_ENTITIES: readonly (readonly [string, DerivedKind, boolean])[] = [
  ["total", "total", true],
  ["mean_all", "mean", true],
  ["mean_no_null", "mean", false],
  ["stddev_all", "stddev", true],
  ["stddev_no_null", "stddev", false],
  ["min_no_null", "min", false],
  ["max_no_null", "max", false],
];

/**
 * The document of one derived entity, as `TauProfileMerge.cpp` writes it: a row per timer (all of
 * them, as TAU writes every event), and but for the total a row per user event; TAU names the
 * minimum's and maximum's blocks `<min_no_null_derivedprofile>` and `<max_no_null_derivedprofile>`.
 */
function derivedDocument(trial: Trial, entity: string, kind: DerivedKind, includeMissing: boolean, metricList: string): string {
  const n = formatTauNumber;
  const v = derivedView(trial, kind, { includeMissing });
  const tag = kind === "min" || kind === "max" ? `${entity}_derivedprofile` : "derivedprofile";
  let s = `<profile_xml>\n<derivedentity id="${entity}">\n</derivedentity>\n<${tag} derivedentity="${entity}">\n<derivedinterval_data metrics="${metricList}">\n`;
  for (let k = 0; k < trial.timers.length; k++) {
    s += `${k} ${n(v.calls[k])} ${n(v.subroutines[k])} `;
    for (let m = 0; m < trial.metrics.length; m++) s += `${n(v.exclusive[m][k])} ${n(v.inclusive[m][k])} `;
    s += "\n";
  }
  s += "</derivedinterval_data>\n";
  if (kind !== "total") {
    // TAU's statistic of each column on its own (TauCollate.cpp): the mean of the threads'
    // minima, not the minimum of all samples; ParaProf shows them as they are.
    const ev = trial.events;
    const [count, max, min, mean, sumSquares] = [ev.count, ev.max, ev.min, ev.mean, ev.sumSquares].map((f) => acrossThreads(f, ev.present, trial.threads.length, trial.userEvents.length, kind, includeMissing));
    s += "<derivedatomic_data>\n";
    for (let u = 0; u < trial.userEvents.length; u++) s += `${u} ${n(count[u])} ${n(max[u])} ${n(min[u])} ${n(mean[u])} ${n(sumSquares[u])}\n`;
    s += "</derivedatomic_data>\n";
  }
  return s + `</${tag}>\n\n</profile_xml>\n`;
}

/**
 * The text of a TAU XML profile of `trial` (see the module's description).
 * @throws ProfileModelError for a trial without metrics, a blank name, or a name or value XML cannot hold
 */
export function formatTauXmlProfile(trial: Trial): string {
  const pieces: string[] = [];
  tauXmlPieces(trial, (p) => pieces.push(p));
  return pieces.join("");
}

/**
 * Writes `trial` as a TAU XML profile (atomically: a temporary sibling renamed at the end), a
 * thread at a time.
 * @throws ProfileModelError as {@link formatTauXmlProfile} (`path` then left as it was); ProfileError
 *   when the file cannot be written
 */
export function writeTauXmlProfile(trial: Trial, path: string): void {
  writeTextFileAtomically(path, (write) => tauXmlPieces(trial, write));
}
