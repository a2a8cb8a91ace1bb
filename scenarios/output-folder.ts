/**
 * Where a run may write its outputs. A run replaces its output folder whole (see
 * `writeDirectoryAtomically`), so before it starts it checks that the folder holds nothing the user
 * would lose: the folder may be absent, empty, or one an earlier run wrote; anything else is
 * replaced only when the caller asks for it, and never the working directory or one of its
 * ancestors, nor an input of the run (its scenario file, the sweep file) or a folder holding one.
 * It also checks that the folder can be made: its parent exists or can be created, and is writable.
 *
 * @packageDocumentation
 */
import { lstatSync, readdirSync, type Stats } from "node:fs";
import { join, resolve } from "node:path";
import { holdsWorkingDirectory, isRunFolder, METRIC_FOLDER_PREFIX, OutputPathError, parseProfileFileName, outputPathProblem, type OutputInput, RECORD_FILE_NAMES, RUN_FILES, RUN_PROFILE_FOLDER, RUN_REPORT_FILE } from "../profile/index.js";

/** What other ccasim commands write into a run's folder after the run: the report of `ccasim report`. */
export const ADDED_AFTER_RUN: readonly string[] = [RUN_REPORT_FILE];

/** Every name a run's folder may hold: what a run writes, and the report `ccasim report` adds. */
export const RUN_OUTPUT_NAMES: readonly string[] = [RUN_PROFILE_FOLDER, ...RECORD_FILE_NAMES, ...Object.values(RUN_FILES), ...ADDED_AFTER_RUN];

/**
 * The files of {@link ADDED_AFTER_RUN} that folder `dir` holds (none when it is absent or not a
 * folder): what a run replacing `dir` deletes though the run did not write it, for the run to say so.
 */
export function addedAfterRun(dir: string): string[] {
  const st = statOrUndefined(dir);
  if (st === undefined || !st.isDirectory()) return [];
  const names = readdirSync(dir);
  return ADDED_AFTER_RUN.filter((n) => names.includes(n));
}

/**
 * Names a run's folder may hold that no user wrote: a file manager's `.DS_Store`, and the
 * temporary file of a `ccasim report` (or any atomic write) that was killed before it finished.
 */
const LEFT_BY_TOOLS = /^(\.DS_Store|\..+\.tmp-\d+(-\d+)?)$/;

/** Options of {@link checkRunOutputFolder}. */
export interface OutputFolderOptions {
  /**
   * Replace whatever is at the folder's path (`--overwrite`); never the working directory or one
   * of its ancestors, nor an input.
   */
  readonly overwrite?: boolean;
  /**
   * The run's inputs (its scenario file, a sweep file), which the folder must neither be nor
   * hold, even with `overwrite`. The scenario file is added by the functions that load it.
   */
  readonly inputs?: readonly OutputInput[];
}

/** An output folder a run may not replace, or cannot write. An input error (exit code 2). */
export class OutputFolderError extends OutputPathError {
  /**
   * @param path - the output folder as given
   * @param detail - why it may not be replaced, and what to do
   */
  constructor(path: string, detail: string) {
    super(path, "output folder", detail);
    this.name = "OutputFolderError";
  }
}

/**
 * Checks that a run may write its outputs into `dir`, replacing what is there. Allowed without
 * `overwrite`: no file at `dir`, an empty folder, or a folder an earlier run wrote (a
 * `summary.json` marked as a run summary, a `timing.json`, and nothing but {@link RUN_OUTPUT_NAMES},
 * its `profile/` nothing but TAU profile files and `MULTI__<metric>` folders of them).
 * With `overwrite`, anything but the working directory and its ancestors, an input of the run
 * (`options.inputs`) and a folder holding one. In every case the folder's parent must exist or be
 * creatable, and be writable. Call it before the simulation starts, so a refused folder costs
 * nothing.
 * @throws OutputFolderError naming the path and why it may not be replaced or cannot be written
 */
export function checkRunOutputFolder(dir: string, options: OutputFolderOptions = {}): void {
  // An empty path is the working directory to the file system (`--out "$DIR"` with DIR unset).
  if (dir.trim() === "") throw new OutputFolderError(dir, "the path is empty; give the folder to write");
  if (holdsWorkingDirectory(dir)) {
    throw new OutputFolderError(dir, "it is the working directory or one of its ancestors, which a run never replaces; choose another output folder");
  }
  const problem = outputPathProblem(dir, { inputs: options.inputs });
  if (problem !== undefined) throw new OutputFolderError(dir, problem);
  const st = statOrUndefined(dir);
  if (st === undefined) return;
  if (options.overwrite) return;
  const held = whyNotReplaceable(dir, st);
  if (held !== undefined) {
    throw new OutputFolderError(dir, `${held}, and a run replaces its output folder whole; choose another output folder, or replace it with --overwrite`);
  }
}

/** Why `dir` is neither an empty folder nor a run's folder, or undefined when it is one of them. */
function whyNotReplaceable(dir: string, st: Stats): string | undefined {
  if (st.isSymbolicLink()) return "it is a symbolic link";
  if (!st.isDirectory()) return "it is a file, not a folder";
  // What tools leave there counts as nothing: a folder holding only a .DS_Store is empty.
  const names = readdirSync(dir).filter((n) => !LEFT_BY_TOOLS.test(n));
  if (names.length === 0) return undefined;
  const foreign = names.filter((n) => !RUN_OUTPUT_NAMES.includes(n)).sort();
  if (names.includes(RUN_PROFILE_FOLDER)) foreign.push(...foreignInProfile(join(dir, RUN_PROFILE_FOLDER)));
  if (foreign.length > 0) return `it holds files a run does not write (${listed(foreign)})`;
  if (!names.includes(RUN_FILES.timing) || !isRunFolder(dir)) {
    return `it is not a run's folder (no ${RUN_FILES.summary} marked as a run summary beside ${RUN_FILES.timing})`;
  }
  return undefined;
}

/** A TAU profile file as a run writes them: `profile.N.C.T`. */
const isProfileFile = (name: string): boolean => parseProfileFileName(name) !== undefined;
/** A metric's folder of a profile of several metrics: `MULTI__<metric>`. */
const isMetricFolder = (name: string): boolean => name.startsWith(METRIC_FOLDER_PREFIX) && name.length > METRIC_FOLDER_PREFIX.length;

/**
 * What a run's `profile/` folder holds that no run writes there (the run replaces it whole): any
 * name but `profile.N.C.T` files and `MULTI__<metric>` folders of them, as paths from the run's
 * folder (`profile/notes.txt`). Empty when `profile` is not a folder.
 */
function foreignInProfile(profile: string): string[] {
  const st = statOrUndefined(profile);
  if (st === undefined || !st.isDirectory()) return [];
  const foreign: string[] = [];
  for (const n of readdirSync(profile).filter((x) => !LEFT_BY_TOOLS.test(x)).sort()) {
    const entry = lstatSync(join(profile, n));
    if (entry.isFile() && isProfileFile(n)) continue;
    if (entry.isDirectory() && isMetricFolder(n)) {
      for (const f of readdirSync(join(profile, n)).filter((x) => !LEFT_BY_TOOLS.test(x)).sort()) {
        if (!(isProfileFile(f) && lstatSync(join(profile, n, f)).isFile())) foreign.push(`${RUN_PROFILE_FOLDER}/${n}/${f}`);
      }
      continue;
    }
    foreign.push(`${RUN_PROFILE_FOLDER}/${n}`);
  }
  return foreign;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    // The resolved path: `link/` would make lstat follow the link.
    return lstatSync(resolve(path));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new OutputFolderError(path, `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** The first few names, and how many more. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(", ");
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}
