import { parseArgs, type ParseArgsConfig } from "node:util";

/** Parsed options and positionals of a subcommand. */
export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/** Exit codes of the `ccasim` command. */
export const EXIT_OK = 0;
/** A run or analysis failed (a deadlock, an internal error). */
export const EXIT_FAILURE = 1;
/** Bad usage or bad input (arguments, scenario, profile). */
export const EXIT_USAGE = 2;

/** A command-line usage error: unknown option, missing argument. Exit code 2. */
export class UsageError extends Error {
  readonly isInputError = true;
  constructor(message: string, readonly command?: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** What a subcommand is given when it runs. */
export interface CommandContext {
  /** Arguments after the subcommand name. */
  readonly argv: readonly string[];
  /** Writes to standard output. */
  readonly out: (text: string) => void;
  /** Writes to standard error. */
  readonly err: (text: string) => void;
  /** True with `--verbose`. */
  readonly verbose: boolean;
  /** True when standard error is a terminal (progress displays may draw). */
  readonly interactive: boolean;
}

/** A `ccasim` subcommand. Each lives in its own file under `cli/commands/` and is listed in `cli/commands/index.ts`. */
export interface Command {
  /** Name typed after `ccasim`. */
  readonly name: string;
  /** Full help text (usage, arguments, options, examples). */
  readonly help: string;
  /** Runs the command; resolves to the exit code. Throws for errors (input errors map to exit 2). */
  run(ctx: CommandContext): Promise<number> | number;
}

/**
 * Parses a subcommand's arguments with `node:util` parseArgs, turning its errors into
 * {@link UsageError}s that name the command.
 */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  argv: readonly string[],
  options: T,
  allowPositionals = true,
): ParsedArgs {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals, strict: true }) as ParsedArgs;
  } catch (e) {
    throw new UsageError(`${command}: ${(e as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, "")}`, command);
  }
}

/** True when `err` was caused by the caller's input (exit code 2). */
export function isInputError(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { isInputError?: unknown }).isInputError === true;
}

/**
 * A subcommand as the command list knows it before it is loaded: its name, its line in
 * `ccasim --help`, and how to load it. Why not the commands themselves: each imports the layers
 * it runs (scenarios, analysis, the study database), and loading every one of them made each
 * `ccasim` start, even `--version`, take a quarter of a second.
 */
export interface CommandEntry {
  /** Name typed after `ccasim`. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Imports the command's module. */
  load(): Promise<Command>;
}
