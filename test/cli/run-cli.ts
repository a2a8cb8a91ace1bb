import { main } from "../../cli/main.js";

/** What one `ccasim` invocation printed and returned. */
export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `ccasim <args>` in this process, collecting standard output and standard error. */
export async function runCli(args: string[]): Promise<CliResult> {
  let out = "";
  let err = "";
  const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}
