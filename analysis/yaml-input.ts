/**
 * Analysis input files in YAML or JSON (a selection assembly, power constants), read through the
 * located YAML of `profile/` so that their messages name `file:line:column` as the scenario
 * loader's do, for the same slips.
 *
 * @packageDocumentation
 */
import { formatPath, locateNearest, type KeyPath, type LocatedYaml, type SourcePosition, type YamlTextError } from "../profile/index.js";
import { AnalysisInputError } from "./errors.js";

/** `file:line:column`, or the file alone when the position is unknown. */
export function placeText(file: string, at: SourcePosition | undefined): string {
  return at === undefined ? file : `${file}:${at.line}:${at.column}`;
}

/**
 * The error for a file that is not valid YAML or JSON: its first problem, at its line, and how many
 * more the parser found.
 */
export function notYamlError(file: string, e: YamlTextError): AnalysisInputError {
  const [first, ...rest] = e.problems;
  const more = rest.length === 0 ? "" : ` (and ${rest.length} more problem${rest.length === 1 ? "" : "s"} after it)`;
  return new AnalysisInputError(`not valid YAML or JSON: ${first?.message ?? e.message}${more}`, placeText(file, first?.at));
}

/**
 * `file:line:column` of the key a message is about: its value, else the key of the nearest
 * enclosing entry the file has (a key left out: the key of the map that should hold it).
 */
export function keyPlace(file: string, doc: LocatedYaml, path: KeyPath): string {
  return placeText(file, locateNearest(doc, path));
}

/** A key path as messages write it (`callGraph.children[1].component`, `args["a.b"]`), `(top)` for the document itself. */
export function keyText(path: KeyPath): string {
  return path.length === 0 ? "(top)" : formatPath(path);
}
