/**
 * Paths a writer must not replace, and outputs it cannot write: checked before the work starts,
 * so that a refused output costs nothing. A writer that replaces its output whole (a run's folder,
 * a TAU profile directory, a report, a converted file) never replaces the working directory or
 * one of its ancestors, nor an input of the command (the scenario, the sweep file, the profile
 * converted) or a folder holding one; it never goes inside a folder the command reads (the output
 * would change that input), save where the folder keeps it (a run folder's own report); and its
 * output's parent must exist or be creatable, and be writable.
 *
 * @packageDocumentation
 */
import { mkdirSync, realpathSync, rmdirSync, statSync } from "node:fs";
import { basename, dirname, resolve, sep } from "node:path";
import { temporarySibling } from "./temporary-files.js";

/** True when `inner` is `outer` or inside it (both absolute and normalised). */
function within(outer: string, inner: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}

/**
 * True when `dir` is the working directory or one of its ancestors (an empty path is the working
 * directory). Compared by real paths too, so a path through a symbolic link or with `..` is
 * recognised.
 */
export function holdsWorkingDirectory(dir: string): boolean {
  if (within(resolve(dir), process.cwd())) return true;
  try {
    return within(realpathSync(dir), realpathSync(process.cwd()));
  } catch {
    return false; // why: a path that cannot be resolved is not the working directory's
  }
}

/** An input of a command, which its outputs must not replace. */
export interface CommandInput {
  /** The file or folder as given. */
  readonly path: string;
  /** What it is, as a message names it: `the scenario file`, `the profile converted`. */
  readonly what: string;
  /**
   * For a folder: the outputs it keeps, which may be written inside it (a run folder's
   * `report.html`). Any other path inside the folder is refused.
   */
  readonly keeps?: readonly string[];
}

/** An input as a path (named `an input`) or with what it is. */
export type OutputInput = string | CommandInput;

/**
 * The path with its existing part resolved through symbolic links: `realpath` of the longest
 * existing ancestor, followed by the rest as given (an output usually does not exist yet).
 * @internal
 */
export function realPathOf(path: string): string {
  const absolute = resolve(path);
  let head = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(head), ...rest);
    } catch {
      const up = dirname(head);
      if (up === head) return absolute;
      rest.unshift(basename(head));
      head = up;
    }
  }
}

/** `input` as a {@link CommandInput}: a bare path is named `an input`. */
function named(input: OutputInput): CommandInput {
  return typeof input === "string" ? { path: input, what: "an input" } : input;
}

/** True when `path` names an existing folder (followed through symbolic links). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // why: a missing or unreadable input holds nothing an output could land in
  }
}

/**
 * The input that writing `output` would replace: one that `output` is, or that a folder at
 * `output` holds (replaced whole, the folder takes it along). Compared by absolute paths and by
 * real paths, so `..`, `./` and symbolic links are seen through. An output inside an input folder
 * replaces no input (see {@link inputFolderHolding}).
 */
export function inputReplacedBy(output: string, inputs: readonly OutputInput[]): CommandInput | undefined {
  const out = resolve(output);
  const outReal = realPathOf(output);
  for (const input of inputs.map(named)) {
    if (within(out, resolve(input.path)) || within(outReal, realPathOf(input.path))) return input;
  }
  return undefined;
}

/**
 * The input folder that `output` would be written inside (at any depth), changing what the
 * command reads: a converted profile written into the profile folder it came from. The outputs
 * the folder keeps ({@link CommandInput.keeps}) are not refused. Compared by absolute and real
 * paths, as {@link inputReplacedBy} compares them; an input that is a file or is missing holds
 * nothing.
 */
export function inputFolderHolding(output: string, inputs: readonly OutputInput[]): CommandInput | undefined {
  const out = resolve(output);
  const outReal = realPathOf(output);
  const same = (a: string, b: string) => resolve(a) === resolve(b) || realPathOf(a) === realPathOf(b);
  for (const input of inputs.map(named)) {
    if (!isFolder(input.path) || same(input.path, output)) continue;
    const inside = within(resolve(input.path), out) || within(realPathOf(input.path), outReal);
    if (inside && !(input.keeps ?? []).some((kept) => same(kept, output))) return input;
  }
  return undefined;
}

/**
 * Why no file or folder can be made at `output`: its parent (or the nearest of the parent's
 * ancestors that exists, when the parent is to be created) is not a folder or not writable.
 * Tried for real, by making and removing a temporary folder beside where the output goes (named
 * as the writer's temporary would be): permission bits say nothing to root or about a read-only
 * or virtual file system (`/proc`).
 * @returns the reason in words, or undefined when the output can be written
 */
export function unwritableParent(output: string): string | undefined {
  const target = resolve(output);
  const parent = dirname(target);
  // The nearest existing ancestor, and the entry to make in it.
  let entry = target;
  let folder = parent;
  for (;;) {
    let isFolder: boolean;
    try {
      isFolder = statSync(folder).isDirectory();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") return `its parent ${parent} cannot be read (${code ?? (e as Error).message})`;
      if (dirname(folder) === folder) return `its parent ${parent} cannot be found`;
      entry = folder;
      folder = dirname(folder);
      continue;
    }
    const which = folder === parent ? `its parent ${parent}` : `its parent ${parent} does not exist and cannot be created: ${folder}`;
    if (!isFolder) return `${which} is a file, not a folder`;
    const probe = temporarySibling(entry);
    try {
      mkdirSync(probe);
    } catch (e) {
      return `${which} is not writable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
    try {
      rmdirSync(probe);
    } catch {
      // why: an empty folder named as a temporary is removed by the next writer of this output
    }
    return undefined;
  }
}

/** Options of {@link outputPathProblem} and {@link checkOutputPath}. */
export interface OutputPathOptions {
  /** The command's inputs, which the output must neither be nor hold, nor be inside. */
  readonly inputs?: readonly OutputInput[];
}

/**
 * Why `output` may not be written (replaced whole): an empty path, an input of the command or a
 * folder holding one (see {@link inputReplacedBy}), a path inside an input folder (see
 * {@link inputFolderHolding}), or a parent that cannot take it (see
 * {@link unwritableParent}). The working directory is checked by the writers that replace folders
 * ({@link holdsWorkingDirectory}).
 * @returns the reason in words, with what to do, or undefined when it may be written
 */
export function outputPathProblem(output: string, options: OutputPathOptions = {}): string | undefined {
  if (output.trim() === "") return "the path is empty; give the path to write";
  const input = inputReplacedBy(output, options.inputs ?? []);
  if (input !== undefined) {
    const same = resolve(input.path) === resolve(output) || realPathOf(input.path) === realPathOf(output);
    return `${same ? "it is" : "it holds"} ${input.what} '${input.path}', which this command reads and would replace with its output; choose another output path`;
  }
  const folder = inputFolderHolding(output, options.inputs ?? []);
  if (folder !== undefined) {
    return `it is inside ${folder.what} '${folder.path}', a folder this command reads, and would change it; choose an output path outside that folder`;
  }
  return unwritableParent(output);
}

/** An output a command may not or cannot write. An input error (exit code 2). */
export class OutputPathError extends Error {
  readonly isInputError = true;
  /**
   * @param path - the output as given
   * @param what - what it is, as the message names it: `output folder`, `report`, `study database`
   * @param detail - why, and what to do
   */
  constructor(
    readonly path: string,
    readonly what: string,
    detail: string,
  ) {
    super(`cannot write the ${what} ${namedPath(path)}: ${detail}`);
    this.name = "OutputPathError";
  }
}

/**
 * Checks that `output` may be written: see {@link outputPathProblem}. Call it before the work
 * starts (a simulation, a conversion), so that a refused output costs nothing.
 * @param what - what the output is, as the message names it (`output folder`, `report`)
 * @throws OutputPathError naming the path and why
 */
export function checkOutputPath(output: string, what: string, options: OutputPathOptions = {}): void {
  const problem = outputPathProblem(output, options);
  if (problem !== undefined) throw new OutputPathError(output, what, problem);
}

/** `'out'`, with the absolute path when it differs from the path as given. */
export function namedPath(path: string): string {
  if (path.trim() === "") return `'${path}'`; // why: the working directory's path would only confuse
  const absolute = resolve(path);
  return absolute === path ? `'${path}'` : `'${path}' (${absolute})`;
}
