#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, helpFor, isInputError, type CommandContext, type CommandEntry } from "./command.js";
import { commands } from "./commands/index.js";
import { cleanUpOnInterrupt } from "./interrupt.js";
import { nearestName as nearest } from "../engine/registry.js";
import { wordFileErrors } from "../profile/file-error.js";

function packageVersion(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const p of [join(here, "..", "..", "package.json"), join(here, "..", "package.json")]) {
    try {
      return (JSON.parse(readFileSync(p, "utf8")) as { version: string }).version;
    } catch {
      /* try the next location */
    }
  }
  return "unknown";
}

/** The text of `ccasim --help`. */
export function mainHelp(list: readonly CommandEntry[] = commands): string {
  const width = Math.max(8, ...list.map((c) => c.name.length));
  return [
    "ccasim: discrete-event simulator of HPC component assemblies, and analysis of TAU measurements",
    "",
    "Usage: ccasim <command> [options]",
    "       ccasim <command> --help     help for one command",
    "",
    "Commands:",
    ...list.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Global options:",
    "  -h, --help       show help",
    "  -V, --version    print the version",
    "  -v, --verbose    print error details (stack traces)",
    "",
    "Exit codes: 0 success, 1 failure (for example a simulated deadlock), 2 bad usage or bad input",
    "(an output that would replace an input, or cannot be written, is refused before the work starts),",
    "130 / 143 interrupted by SIGINT (Ctrl-C) / SIGTERM (kill): ccasim stops at once and ends by the",
    "signal, which a shell reports as 130 / 143. No output is left half-written under its own name: an",
    "export of 'query --out' removes its unfinished file first; any other output leaves its temporary",
    ".<name>.tmp-<pid>-<n> beside it, which the next command writing that output removes. A signal that",
    "comes as an export is being completed leaves it complete: ccasim says so and exits with its own code.",
    "Time is in microseconds in every file ccasim writes, as in TAU profiles.",
  ].join("\n");
}

/**
 * Runs the `ccasim` command line and resolves to its exit code. Output goes through `io` so tests
 * can capture it.
 */
export async function main(
  argv: readonly string[],
  io: { out: (s: string) => void; err: (s: string) => void; interactive?: boolean } = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    interactive: process.stderr.isTTY === true,
  },
): Promise<number> {
  const args = [...argv];
  let verbose = false;
  for (let i = 0; i < args.length; ) {
    if (args[i] === "-v" || args[i] === "--verbose") {
      verbose = true;
      args.splice(i, 1);
    } else i++;
  }
  const first = args[0];
  if (first === undefined || first === "-h" || first === "--help" || first === "help") {
    const topic = first === "help" ? args[1] : undefined;
    const entry = topic ? commands.find((c) => c.name === topic) : undefined;
    if (topic && !entry) {
      io.err(`ccasim: unknown command '${topic}'\n`);
      return EXIT_USAGE;
    }
    io.out((entry ? helpFor(await entry.load(), args.slice(2)) : mainHelp()) + "\n");
    return first === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (first === "-V" || first === "--version") {
    io.out(`ccasim ${packageVersion()}\n`);
    return EXIT_OK;
  }
  const entry = commands.find((c) => c.name === first);
  if (!entry) {
    const near = nearest(first, commands.map((c) => c.name));
    io.err(`ccasim: unknown command '${first}'${near ? ` (did you mean '${near}'?)` : ""}; see 'ccasim --help'\n`);
    return EXIT_USAGE;
  }
  const cmd = await entry.load();
  const rest = args.slice(1);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(helpFor(cmd, rest) + "\n");
    return EXIT_OK;
  }
  const ctx: CommandContext = {
    argv: rest,
    out: io.out,
    err: io.err,
    verbose,
    interactive: io.interactive ?? false,
  };
  try {
    return await cmd.run(ctx);
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    // A subcommand (sweep fit) may name itself in its errors. A reader that passes on a file
    // system error's text (`ENOENT: no such file or directory, stat 'x'`) is put in words here,
    // once for every command.
    const commandName = (err as { commandName?: unknown }).commandName;
    const message = wordFileErrors(err.message);
    io.err(`ccasim ${typeof commandName === "string" ? commandName : cmd.name}: ${message.split("\n")[0]}\n`);
    const detail = message.split("\n").slice(1).join("\n");
    if (detail) io.err(detail + "\n");
    if (verbose && err.stack) io.err(err.stack + "\n");
    // A simulated program's failure (a deadlock, unreceived messages) says where every process
    // is in its message: no stack trace helps there.
    else if (!isInputError(err) && (err as { isSimulatedFailure?: boolean }).isSimulatedFailure !== true) io.err("(run with --verbose for details)\n");
    return isInputError(err) ? EXIT_USAGE : EXIT_FAILURE;
  }
}

const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === (await realpath(process.argv[1]));
if (invokedDirectly) {
  // A reader that stops early (`ccasim ... | head`) closes the pipe: the output it did not want is
  // no error, so stop quietly, as other command-line tools do, instead of a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(process.exitCode ?? EXIT_OK);
      throw e;
    });
  }
  // Ctrl-C or a kill: the default action (an immediate exit) but during asynchronous writing,
  // which removes its temporaries and exits 130 / 143 (see interrupt.ts).
  const interrupts = cleanUpOnInterrupt();
  main(process.argv.slice(2)).then(
    async (code) => {
      process.exitCode = await interrupts.finish(code);
    },
    (e) => {
      interrupts.stop();
      process.stderr.write(`ccasim: internal error: ${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
}

async function realpath(p: string): Promise<string> {
  const { realpathSync } = await import("node:fs");
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
