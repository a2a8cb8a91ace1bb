/**
 * {@link readTrial}: reads any trial format by looking at the path.
 */
import { existsSync, statSync, openSync, readFileSync, readSync, closeSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { basename, dirname, extname, join } from "node:path";
import { constants as zlibConstants, gunzipSync } from "node:zlib";
import { ProfileError, ProfileFormatError, ProfileModelError } from "./errors.js";
import { Trial } from "./model.js";
import { readRecords } from "./records.js";
import { readPackedProfile } from "./tau/ppk-read.js";
import { readCubeProfile } from "./cube/cube-read.js";
import { isTauXmlText, listTauXmlFiles, parseSnapshotFileName, readTauXmlProfile } from "./tau/snapshot-read.js";
import { RUN_PROFILE_FOLDER, runFileAdvice, unmeasuredRunText } from "./run-folder.js";
import { hasTauProfileFiles, parseProfileFileName, readTauProfile, type TrialReadOptions } from "./tau/text-read.js";
import { inputIsDirectory } from "./gzip-input.js";
import { inputFileKindText } from "./input-file-kind.js";
import { realPathOf } from "./protected-paths.js";

/** The trial formats {@link readTrial} recognizes: TAU text profiles, ParaProf packed profiles, TAU XML (snapshot and merged) profiles, CUBE4 profiles (Score-P). */
export type TrialFormat = "tau" | "ppk" | "xml" | "cube";

/** Record files picked up next to a TAU profile directory's files. */
export const RECORD_FILE_NAMES = ["records.csv", "records.jsonl"] as const;

function head(path: string, n: number): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(n);
    const got = readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/**
 * Which format a path holds: a directory is a TAU profile, or TAU XML when it holds no
 * `profile.N.C.T` file but snapshot files (`snapshot.N.C.T`) or a `tauprofile.xml`; a file is a packed profile when named `*.ppk` or
 * starting with `PPK` bytes, TAU XML when named `snapshot.N.C.T` or starting with `<profile_xml>`
 * (gzip-compressed or not), a TAU profile file when named `profile.N.C.T` or starting with
 * `<n> templated_functions`, a CUBE4 profile when named `*.cubex` or a tar archive; any other
 * gzip file is a packed profile.
 * @throws ProfileError when the path does not exist or is none of these.
 */
export function detectTrialFormat(path: string): TrialFormat {
  // (A run's folder holds its profile in profile/, and no XML profile of its own.)
  if (inputIsDirectory(path)) return listTauXmlFiles(path).length > 0 && !hasTauProfileFiles(path) ? "xml" : "tau";
  if (extname(path).toLowerCase() === ".ppk") return "ppk";
  if (extname(path).toLowerCase() === ".cubex") return "cube";
  if (parseProfileFileName(basename(path))) return "tau";
  if (parseSnapshotFileName(basename(path))) return "xml";
  const h = head(path, HEAD_BYTES);
  if (h.length >= 2 && h[0] === 0x1f && h[1] === 0x8b) {
    const inflated = gzipHead(path);
    return isTauXmlText(inflated.toString("utf8")) ? "xml" : isTar(inflated) ? "cube" : "ppk";
  }
  if (isTauXmlText(Buffer.from(h).toString("utf8"))) return "xml";
  if (isTar(h)) return "cube";
  if (h.length >= 6 && h[0] === 0 && h[1] === 0x50 && h[2] === 0 && h[3] === 0x50 && h[4] === 0 && h[5] === 0x4b) return "ppk";
  if (/^\s*\d+\s+templated_functions/.test(Buffer.from(h).toString("latin1"))) return "tau";
  const text = Buffer.from(h).toString("utf8");
  // CUBE 3 (one XML file, `<cube version="3.x">`) predates the `.cubex` archive.
  const cube3 = /<cube\s+version="[0-3]\./.test(text) ? "a CUBE 3 file, which is not read (CUBE4 .cubex files are)" : undefined;
  const advice = cube3 ?? runFileAdvice(path) ?? inputFileAdvice(path);
  throw new ProfileFormatError(path, undefined, `not a TAU profile directory, a profile.N.C.T file, a ParaProf .ppk file, a TAU XML profile or a CUBE4 .cubex file${advice === undefined ? "" : `: it is ${advice}`}`);
}

/**
 * Bytes of a file (inflated, when it is gzip) that tell its format: a TAU XML profile's element
 * after an XML declaration and comments of up to this many bytes, a tar header's magic (byte 257).
 */
const HEAD_BYTES = 16384;

/** Whether bytes start a tar archive (ustar magic at byte 257 of its first header): CUBE4's container. */
function isTar(h: Uint8Array): boolean {
  return h.length >= 262 && Buffer.from(h.subarray(257, 262)).toString("latin1") === "ustar";
}

/** The first decompressed bytes of gzip file `path` (none when they cannot be had). */
function gzipHead(path: string): Buffer {
  try {
    // The file's first 4 KiB inflated as far as they go (a sync flush accepts the cut stream).
    return gunzipSync(head(path, HEAD_BYTES), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).subarray(0, HEAD_BYTES);
  } catch {
    // why: a damaged gzip file is reported by the reader that the other tests choose
    return Buffer.alloc(0);
  }
}

/** For a YAML or JSON input of ccasim's own (a scenario, a sweep file, an assembly): what it is and what reads it. */
function inputFileAdvice(path: string): string | undefined {
  // (The YAML parser reads JSON too.)
  if (![".yaml", ".yml", ".json"].includes(extname(path).toLowerCase())) return undefined;
  try {
    return inputFileKindText(parseYaml(readFileSync(path, "utf8")), path);
  } catch {
    // why: a file that cannot be read or parsed is no input of ours; the message says what it is not
    return undefined;
  }
}

/**
 * What measurement file `path` is, in words (`a ParaProf packed profile (.ppk)`, `a TAU profile
 * file`), or undefined when it is none (or unreadable): for a command that reads a text input of
 * its own (an assembly, power constants) to name a profile given in its place.
 */
export function measurementFileKind(path: string): string | undefined {
  try {
    if (statSync(path).isDirectory()) return undefined;
    const format = detectTrialFormat(path);
    return format === "ppk" ? "a ParaProf packed profile (.ppk)" : format === "xml" ? "a TAU XML profile" : format === "cube" ? "a CUBE4 profile (.cubex)" : "a TAU profile file";
  } catch {
    return undefined;
  }
}

/** Options of {@link readTrial}. */
export interface ReadTrialOptions extends TrialReadOptions {
  /**
   * Of a TAU XML profile, which snapshot of each thread is read (see
   * `TauXmlReadOptions.snapshot`); refused for the other formats, which hold one.
   */
  readonly snapshot?: number | string;
  /**
   * Attach the records file of a profile directory as {@link Trial.records} (default true). A
   * caller that streams the file itself (`forEachRecord`) turns this off so as not to hold the
   * records twice.
   */
  readonly records?: boolean;
}


/**
 * The folder holding the profile files of directory `dir`: `dir` itself, or, for a folder that
 * `ccasim run` wrote (no profile files of its own, a `profile/` folder that has them), that
 * `profile/` folder. So a run's folder can be given wherever a profile directory can.
 */
export function profileFolderOf(dir: string): string {
  if (hasTauProfileFiles(dir)) return dir;
  const inner = join(dir, RUN_PROFILE_FOLDER);
  return existsSync(inner) && statSync(inner).isDirectory() && hasTauProfileFiles(inner) ? inner : dir;
}

/**
 * Reads a trial from a TAU profile directory (single metric or `MULTI__<metric>` folders), the
 * folder `ccasim run` writes (its `profile/` folder, see {@link profileFolderOf}), a single
 * `profile.N.C.T` file, a ParaProf `.ppk` file, or a TAU XML profile (`tauprofile.xml`, a
 * `snapshot.N.C.T` file or a folder of them; see `tau/snapshot-read.ts`), or a CUBE4 `.cubex` file
 * (Score-P, Scalasca; see `cube/cube-read.ts`). For a TAU text profile
 * directory, per-invocation records in
 * `records.csv` or `records.jsonl` (the given directory's, else its profile folder's) are attached
 * as {@link Trial.records} (unless `options.records` is false).
 * @throws ProfileFormatError naming file and line (or byte) of malformed input.
 * @throws ProfileError when the path cannot be read.
 */
export function readTrial(path: string, options: ReadTrialOptions = {}): Trial {
  const format = detectTrialFormat(path);
  if (format === "xml") return readTauXmlProfile(path, options);
  if (options.snapshot !== undefined && format !== "tau") refuseSnapshot(path, format);
  if (format === "ppk") return readPackedProfile(path, options);
  if (format === "cube") return readCubeProfile(path, options);
  const dir = statSync(path).isDirectory();
  // A run that measured nothing is named as such, not as a folder without profile files.
  const unmeasured = dir ? unmeasuredRunText(path) : undefined;
  if (unmeasured !== undefined) throw new ProfileFormatError(path, undefined, unmeasured);
  const at = dir ? profileFolderOf(path) : path;
  // Refused once there is a TAU text profile: a folder without profile files is named by the read.
  if (options.snapshot !== undefined && (!dir || hasTauProfileFiles(at))) refuseSnapshot(path, format);
  const trial = readTauProfile(at, options);
  if (options.records === false || !dir) return trial;
  const records = recordsFileIn(path) ?? (at === path ? undefined : recordsFileIn(at));
  return records === undefined ? trial : new Trial({ ...trial, records: readRecords(records) });
}

/** Refuses a snapshot asked of a profile of `format`, which holds one profile per thread. @throws ProfileModelError */
function refuseSnapshot(path: string, format: TrialFormat): never {
  const what = format === "ppk" ? "a ParaProf packed profile" : format === "cube" ? "a CUBE4 profile" : "a TAU text profile";
  throw new ProfileModelError(`${path}: a snapshot is chosen of a TAU XML profile only; ${what} holds one profile per thread`);
}

/**
 * What input `path` is read as, for telling inputs given twice apart (as the file system finds
 * it, links resolved): with `records`, a folder and each of its records files are the folder's
 * records (a run writes them in both formats), else a folder is its profile folder (a run's
 * `profile/`).
 */
export function inputReadKey(path: string, records: boolean): string {
  if (records && (RECORD_FILE_NAMES as readonly string[]).includes(basename(path))) return `${realPathOf(dirname(path))} records`;
  try {
    if (!statSync(path).isDirectory()) return realPathOf(path);
  } catch {
    return realPathOf(path);
  }
  if (records && recordsFileIn(path) !== undefined) return `${realPathOf(path)} records`;
  return realPathOf(profileFolderOf(path));
}

/** The records file of folder `dir` (the first of {@link RECORD_FILE_NAMES} there), if any. */
export function recordsFileIn(dir: string): string | undefined {
  return RECORD_FILE_NAMES.map((name) => join(dir, name)).find((p) => existsSync(p));
}
