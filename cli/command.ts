import { parseArgs, type ParseArgsConfig } from "node:util";
import { nearestName } from "../engine/registry.js";

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
  /**
   * Help of subcommands that have their own (`sweep fit`), by the word after the command name:
   * `ccasim sweep fit --help` and `ccasim help sweep fit` print it instead of {@link help}.
   */
  readonly subcommandHelp?: Readonly<Record<string, string>>;
  /** Runs the command; resolves to the exit code. Throws for errors (input errors map to exit 2). */
  run(ctx: CommandContext): Promise<number> | number;
}

/**
 * Parses a command's arguments with `node:util` parseArgs, turning its errors into
 * {@link UsageError}s in the command's words: an unknown option names the nearest known one, and
 * every message points to the command's `--help`, a subcommand's own (`ccasim sweep fit --help`;
 * one without its own help prints its command's).
 * @param command - the command as typed after `ccasim` (`run`, `profile show`, `sweep merge`);
 *   the error message is prefixed with the words after the first (the caller prints the first)
 */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  argv: readonly string[],
  options: T,
  allowPositionals = true,
): ParsedArgs {
  let parsed: ParsedArgs & { tokens?: readonly { kind: string; name?: string; value?: string; rawName?: string }[] };
  try {
    parsed = parseArgs({ args: joinNegativeValues(argv, options), options, allowPositionals, strict: true, tokens: true }) as typeof parsed;
  } catch (e) {
    throw commandUsageError(command, `${argumentProblem(e as Error & { code?: string }, Object.keys(options))}; see 'ccasim ${command} --help'`);
  }
  // parseArgs keeps the last of an option given twice: '--top 3 --top 5' would show 5 rows without a
  // word, and '--out a --out b' write b. An option that takes one value takes it once.
  const given = new Map<string, string>();
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== "option" || t.name === undefined || t.value === undefined) continue;
    const option = options[t.name];
    if (option === undefined || option.type !== "string" || option.multiple === true) continue;
    const first = given.get(t.name);
    if (first !== undefined && first !== t.value) {
      throw commandUsageError(command, `option '--${t.name}' is given twice ('${first}' and '${t.value}'): it takes one value; see 'ccasim ${command} --help'`);
    }
    given.set(t.name, t.value);
  }
  return { values: parsed.values, positionals: parsed.positionals };
}

/** A negative number as a value (`-5`, `-0.5`, `-.5`, `-1e3`, `-Infinity`), not an option. */
const NEGATIVE_NUMBER = /^-(\d|\.\d|Infinity$)/;

/**
 * `argv` with each option that takes a value and is followed by a negative number written as
 * `--name=-5`. Why: parseArgs takes `-5` for an option and refuses `--beta -1` as ambiguous, so a
 * user meaning a negative value would be told about option syntax instead of what the command
 * makes of the value (most refuse it, naming the option and the range).
 */
function joinNegativeValues(argv: readonly string[], options: NonNullable<ParseArgsConfig["options"]>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    const long = /^--([^=]+)$/.exec(a)?.[1];
    const short = /^-([^-])$/.exec(a)?.[1];
    const name = long ?? (short === undefined ? undefined : Object.keys(options).find((k) => options[k]!.short === short));
    if (name !== undefined && options[name]?.type === "string" && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/**
 * A {@link UsageError} of `command` as typed after `ccasim` (`run`, `profile show`): the words
 * after the first prefix `message` (the command line prints the first).
 */
export function commandUsageError(command: string, message: string): UsageError {
  const [first, ...rest] = command.split(" ");
  return new UsageError(`${rest.length > 0 ? `${rest.join(" ")}: ` : ""}${message}`, first);
}

/** What parseArgs objected to, without its error code and advice. */
function argumentProblem(e: Error & { code?: string }, names: readonly string[]): string {
  const message = e.message.replace(/^TypeError \[[A-Z_]+\]: /, "");
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const option = /'([^']+)'/.exec(message)?.[1] ?? message;
    const near = nearestName(option.replace(/^-+/, "").replace(/=.*$/, ""), names);
    return `unknown option '${option}'${near === undefined ? "" : ` (did you mean '--${near}'?)`}`;
  }
  if (e.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    const argument = /'([^']+)'/.exec(message)?.[1];
    return argument === undefined ? message : `unexpected argument '${argument}': this command takes options only`;
  }
  // "Option '--out <value>' argument missing", "Option '--quiet' does not take an argument".
  return message.charAt(0).toLowerCase() + message.slice(1);
}

/** The help `args` ask for: a subcommand's own (when `args[0]` names one) or the command's. */
export function helpFor(command: Command, args: readonly string[]): string {
  const sub = args[0];
  return (sub !== undefined && command.subcommandHelp !== undefined && Object.prototype.hasOwnProperty.call(command.subcommandHelp, sub) ? command.subcommandHelp[sub] : undefined) ?? command.help;
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
