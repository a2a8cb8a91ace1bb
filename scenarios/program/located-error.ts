import type { LoadedScenario } from "../load.js";
import { ScenarioErrors } from "../lang/index.js";
import { parseKeyPath } from "../../profile/index.js";

/**
 * An input error raised while a program model runs (a negative cost or message size, a while loop
 * past its bound, an expression that does not evaluate), which names the file and the element's
 * key (`file: program.main[0].do[1]: ...`), located at that key as the loader's errors are.
 * Other errors are returned as they are.
 */
export function locatedProgramError(scenario: LoadedScenario, e: unknown): unknown {
  if (!(e instanceof Error) || (e as { isInputError?: boolean }).isInputError !== true || e instanceof ScenarioErrors) return e;
  const prefix = `${scenario.file}: `;
  if (!e.message.startsWith(prefix)) return e;
  const rest = e.message.slice(prefix.length);
  const key = /^(program(?:\.[A-Za-z_][\w-]*|\[\d+\])*): /.exec(rest);
  if (key === null) return e;
  return scenario.errorAt(parseKeyPath(key[1]), rest.slice(key[0].length));
}
