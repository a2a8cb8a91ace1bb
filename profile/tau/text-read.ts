/**
 * Reader of TAU text profiles (`profile.N.C.T`), following ParaProf's `TauDataSource`:
 *
 * ```
 * 23 templated_functions_MULTI_TIME
 * # Name Calls Subrs Excl Incl ProfileCalls # <metadata>...</metadata>
 * ".TAU application" 1 7 449 51781 0 GROUP="TAU_DEFAULT"
 * ...                                    (as many timer lines as line 1 says)
 * 0 aggregates
 * 2 userevents                           (optional block)
 * # eventname numevents max min mean sumsqr
 * "Message size for broadcast" 1 4 4 4 16
 * ```
 *
 * Like ParaProf: the metric name comes from the `Metric Name` metadata, else from the
 * `_MULTI_<metric>` suffix of line 1, else (our addition) from the `MULTI__<metric>` folder, else
 * `TIME`; timer names may contain quotes (the name ends at the last quote before `GROUP="`); extra
 * columns such as `SumExclSqr` are ignored; duplicate lines add up; calls, subroutines and user
 * events are taken from the first metric's files. Unlike ParaProf, a truncated or malformed file is
 * an error (ParaProf skips it with a message), and negative values are kept with a warning instead
 * of being set to zero.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { TrialBuilder } from "../builder.js";
import { ProfileError, ProfileFormatError } from "../errors.js";
import type { Trial } from "../model.js";
import { parseMetadataXml } from "./xml.js";

/** One profile file's text and the name it is reported under. */
export interface TauProfileFileText {
  /** Path used in messages; its base name gives node, context and thread (`profile.3.0.1`). */
  readonly path: string;
  readonly text: string;
}

/** The files of one metric: a `MULTI__<metric>` folder, or the trial folder for single-metric profiles. */
export interface TauMetricFiles {
  /** Folder name (`MULTI__PAPI_FP_INS`), used only when neither the header nor the metadata names the metric. */
  readonly folder?: string;
  readonly files: readonly TauProfileFileText[];
}

/** Options of the TAU profile readers. */
export interface TrialReadOptions {
  /** Check invariants and attach warnings to the trial (default true). */
  readonly checkInvariants?: boolean;
}

const PROFILE_FILE = /^profile\.(\d+)\.(\d+)\.(\d+)$/;

/** Node, context and thread from a file name `profile.N.C.T`, or undefined. */
export function parseProfileFileName(name: string): [number, number, number] | undefined {
  const m = PROFILE_FILE.exec(basename(name));
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Orders profile file names by node, context, thread. @internal */
function byThread(a: string, b: string): number {
  const x = parseProfileFileName(a)!;
  const y = parseProfileFileName(b)!;
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** A finite decimal number as TAU and Java write them (`12`, `-3.5`, `3.71E+16`). */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Parses one numeric field or returns undefined (not a number, or not finite). @internal */
export function parseField(tok: string | undefined): number | undefined {
  if (tok === undefined || !NUMBER.test(tok)) return undefined;
  const v = Number(tok);
  return Number.isFinite(v) ? v : undefined;
}

/**
 * Lists the metric folders of a TAU profile directory: its `MULTI__*` subfolders if any, else the
 * directory itself.
 * @throws ProfileFormatError when the directory holds no `profile.N.C.T` file.
 */
export function listTauProfileFiles(dir: string): { folder?: string; files: string[] }[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const multi = entries.filter((e) => e.isDirectory() && e.name.startsWith("MULTI__")).map((e) => e.name).sort();
  const sets: { folder?: string; files: string[] }[] = [];
  if (multi.length > 0) {
    for (const m of multi) {
      const files = readdirSync(join(dir, m)).filter((f) => PROFILE_FILE.test(f)).sort(byThread).map((f) => join(dir, m, f));
      if (files.length > 0) sets.push({ folder: m, files });
    }
  } else {
    const files = entries.filter((e) => !e.isDirectory() && PROFILE_FILE.test(e.name)).map((e) => e.name).sort(byThread).map((f) => join(dir, f));
    if (files.length > 0) sets.push({ files });
  }
  if (sets.length === 0) throw new ProfileFormatError(dir, undefined, "no TAU profile files (profile.N.C.T, or MULTI__<metric>/profile.N.C.T) in this directory");
  return sets;
}

/**
 * Reads a TAU text profile: a directory (single metric, or `MULTI__<metric>` folders) or a single
 * `profile.N.C.T` file.
 * @throws ProfileFormatError naming the file and line of the first malformed line.
 * @throws ProfileError when the path cannot be read.
 */
export function readTauProfile(path: string, options: TrialReadOptions = {}): Trial {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new ProfileError(`cannot read '${path}': ${(e as Error).message}`);
  }
  const sets = isDir ? listTauProfileFiles(path) : [{ files: [path] }];
  const texts: TauMetricFiles[] = sets.map((s) => ({
    folder: s.folder,
    files: s.files.map((f) => {
      try {
        return { path: f, text: readFileSync(f, "utf8") };
      } catch (e) {
        throw new ProfileError(`cannot read '${f}': ${(e as Error).message}`);
      }
    }),
  }));
  return parseTauProfiles(texts, { ...options, source: path });
}

/**
 * Parses TAU profile texts already in memory (one entry per metric folder). This is what
 * {@link readTauProfile} does after reading the files.
 * @throws ProfileFormatError naming the file and line of the first malformed line.
 */
export function parseTauProfiles(sets: readonly TauMetricFiles[], options: TrialReadOptions & { source?: string } = {}): Trial {
  const b = new TrialBuilder({ source: options.source });
  const used = new Set<string>();
  for (let k = 0; k < sets.length; k++) {
    const set = sets[k];
    let metric = -1;
    for (const f of set.files) {
      metric = parseOneFile(b, f, set.folder, metric, k === 0, used);
    }
  }
  if (sets.length === 0 || sets.every((s) => s.files.length === 0)) {
    throw new ProfileFormatError(options.source ?? "(profile)", undefined, "no profile files");
  }
  return b.build({ checkInvariants: options.checkInvariants ?? true });
}

/** Line cursor over a file's text. @internal */
class Lines {
  private pos = 0;
  /** 1-based number of the line last returned. */
  line = 0;
  constructor(private readonly text: string) {}
  next(): string | undefined {
    if (this.pos >= this.text.length) return undefined;
    let end = this.text.indexOf("\n", this.pos);
    if (end < 0) end = this.text.length;
    let s = this.text.slice(this.pos, end);
    if (s.endsWith("\r")) s = s.slice(0, -1);
    this.pos = end + 1;
    this.line++;
    return s;
  }
}

/** Parses one `profile.N.C.T` file into the builder; returns the metric index used. @internal */
function parseOneFile(b: TrialBuilder, f: TauProfileFileText, folder: string | undefined, metricIn: number, firstMetric: boolean, used: Set<string>): number {
  const file = f.path;
  const nct = parseProfileFileName(file) ?? [0, 0, 0];
  const fail = (line: number | undefined, what: string): never => {
    throw new ProfileFormatError(file, line, what);
  };
  if (f.text.indexOf("\0") >= 0) fail(undefined, "binary data (NUL bytes) in a text profile");
  const lines = new Lines(f.text);

  // Line 1: "<count> templated_functions[_MULTI_<metric>]"
  const l1 = lines.next();
  if (l1 === undefined) fail(1, "empty file; expected '<count> templated_functions_MULTI_<metric>'");
  const h = /^\s*(\d+)\s+(\S+)/.exec(l1!);
  if (!h || !h[2].startsWith("templated_functions")) fail(1, `expected '<count> templated_functions_MULTI_<metric>', found '${clip(l1!)}'`);
  const count = Number(h![1]);
  const multiAt = l1!.indexOf("_MULTI_");
  let headerMetric = multiAt > 0 ? l1!.slice(multiAt + 7).trim() : h![2].includes("hw_counters") ? "Hardware Counter" : undefined;
  if (headerMetric === "") headerMetric = undefined;

  // Line 2: "# Name Calls Subrs Excl Incl ProfileCalls [# <metadata>...</metadata>]"
  const l2 = lines.next();
  if (l2 === undefined) fail(2, "unexpected end of file; expected the '# Name Calls Subrs Excl Incl ProfileCalls' line");
  if (!l2!.startsWith("#")) fail(2, `expected the '# Name Calls Subrs Excl Incl ProfileCalls' line, found '${clip(l2!)}'`);
  let metaMetric: string | undefined;
  const m0 = l2!.indexOf("<metadata>");
  const thread = b.addThread(nct[0], nct[1], nct[2]);
  if (m0 >= 0) {
    const m1 = l2!.indexOf("</metadata>", m0);
    if (m1 < 0) fail(2, "metadata block not closed by </metadata>");
    const pairs = parseMetadataXml(l2!.slice(m0, m1 + 11));
    if (typeof pairs === "string") fail(2, `malformed metadata: ${pairs}`);
    for (const [k, v] of pairs as [string, string][]) {
      if (k === "Metric Name") metaMetric = v;
      else b.setThreadMetadata(thread, k, v);
    }
  }

  let metric = metricIn;
  if (metric < 0) {
    let name = metaMetric ?? headerMetric ?? (folder?.startsWith("MULTI__") ? folder.slice(7) : undefined) ?? "TIME";
    // Two folders naming the same metric must stay two metrics.
    for (let k = 2; used.has(name); k++) name = `${name.replace(/ \(\d+\)$/, "")} (${k})`;
    used.add(name);
    metric = b.addMetric(name);
  }

  let negatives = 0;
  for (let j = 0; j < count; j++) {
    const s = lines.next();
    if (s === undefined) fail(lines.line + 1, `unexpected end of file: found ${j} of ${count} timer lines`);
    const t = parseTimerLine(s!);
    if (typeof t === "string") fail(lines.line, t);
    const { name, groups, calls, subrs, excl, incl } = t as TimerLine;
    const timer = b.timer(name, groups);
    if (excl < 0 || incl < 0) negatives++;
    if (firstMetric) b.addCalls(thread, timer, calls, subrs);
    b.addTime(thread, timer, metric, excl, incl);
  }
  if (negatives > 0) {
    b.warn({ kind: "negative-value", file, message: `${file}: ${negatives} timer line(s) with negative exclusive or inclusive values (kept as read)` });
  }

  // "<n> aggregates", then n lines.
  const la = lines.next();
  if (la === undefined) fail(lines.line + 1, "unexpected end of file; expected '<n> aggregates'");
  const ag = /^\s*(\d+)\s+aggregates\b/.exec(la!);
  if (!ag) fail(lines.line, `expected '<n> aggregates' after ${count} timer lines, found '${clip(la!)}'`);
  for (let j = Number(ag![1]); j > 0; j--) {
    if (lines.next() === undefined) fail(lines.line + 1, "unexpected end of file inside the aggregates block");
  }

  // Optional "<k> userevents" block.
  let lu = lines.next();
  while (lu !== undefined && lu.trim() === "") lu = lines.next();
  if (lu === undefined) return metric;
  const ue = /^\s*(\d+)\s+userevents\b/.exec(lu);
  if (!ue) fail(lines.line, `expected '<n> userevents' or the end of the file, found '${clip(lu)}'`);
  const nEvents = Number(ue![1]);
  const lh = lines.next();
  if (lh === undefined && nEvents > 0) fail(lines.line + 1, "unexpected end of file; expected '# eventname numevents max min mean sumsqr'");
  if (lh !== undefined && !lh.startsWith("#")) fail(lines.line, `expected '# eventname numevents max min mean sumsqr', found '${clip(lh)}'`);
  for (let j = 0; j < nEvents; j++) {
    const s = lines.next();
    if (s === undefined) fail(lines.line + 1, `unexpected end of file: found ${j} of ${nEvents} user event lines`);
    const e = parseEventLine(s!);
    if (typeof e === "string") fail(lines.line, e);
    if (firstMetric) {
      const ev = e as EventLine;
      b.addEventTotals(thread, b.userEvent(ev.name), ev);
    }
  }
  for (let s = lines.next(); s !== undefined; s = lines.next()) {
    if (s.trim() !== "") fail(lines.line, `unexpected text after the user events: '${clip(s)}'`);
  }
  return metric;
}

interface TimerLine {
  name: string;
  groups: string[];
  calls: number;
  subrs: number;
  excl: number;
  incl: number;
}

/**
 * Splits a timer line. The name is between the first quote and the last quote before `GROUP="`
 * (names may contain quotes); groups are separated by `|`.
 * @returns the fields, or a message saying what is wrong. @internal
 */
export function parseTimerLine(s: string): TimerLine | string {
  if (s.charCodeAt(0) !== 34) return `expected a timer line starting with '"', found '${clip(s)}'`;
  let body = s;
  let groups: string[] = [];
  const g = s.lastIndexOf('GROUP="');
  if (g > 0) {
    const endq = s.lastIndexOf('"');
    if (endq > g + 6) {
      groups = s
        .slice(g + 7, endq)
        .split("|")
        .map((x) => x.trim())
        .filter((x) => x.length > 0);
      body = s.slice(0, g);
    }
  }
  const q = body.lastIndexOf('"');
  if (q <= 0) return `timer name not closed by '"' in '${clip(s)}'`;
  const name = body.slice(1, q);
  const tok = body.slice(q + 1).trim().split(/\s+/);
  const calls = parseField(tok[0]);
  const subrs = parseField(tok[1]);
  const excl = parseField(tok[2]);
  const incl = parseField(tok[3]);
  if (calls === undefined || subrs === undefined || excl === undefined || incl === undefined) {
    return `expected 'Calls Subrs Excl Incl' as finite numbers after the timer name, found '${clip(body.slice(q + 1).trim())}'`;
  }
  return { name, groups, calls, subrs, excl, incl };
}

interface EventLine {
  name: string;
  count: number;
  max: number;
  min: number;
  mean: number;
  sumSquares: number;
}

/** Splits a user-event line `"name" numevents max min mean sumsqr`. @internal */
export function parseEventLine(s: string): EventLine | string {
  if (s.charCodeAt(0) !== 34) return `expected a user event line starting with '"', found '${clip(s)}'`;
  const q = s.lastIndexOf('"');
  if (q <= 0) return `user event name not closed by '"' in '${clip(s)}'`;
  const tok = s.slice(q + 1).trim().split(/\s+/);
  const v = tok.slice(0, 5).map(parseField);
  if (v.length < 5 || v.some((x) => x === undefined)) {
    return `expected 'numevents max min mean sumsqr' as finite numbers after the event name, found '${clip(s.slice(q + 1).trim())}'`;
  }
  const [count, max, min, mean, sumSquares] = v as number[];
  return { name: s.slice(1, q), count, max, min, mean, sumSquares };
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
