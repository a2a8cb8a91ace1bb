/**
 * Located YAML sources and located errors. A {@link SourceDoc} keeps a parsed file together with a
 * way to find where any key path sits in the text, so every later error can say
 * `file:line:column: path: what is wrong`.
 *
 * @packageDocumentation
 */
import { formatPath, locateNearest, parseLocatedYaml, YamlTextError, type KeyPath, type LocatedYaml, type SourcePosition } from "../../profile/index.js";

export { formatPath, type KeyPath, type SourcePosition };

/** Where an error is: all parts optional (unknown parts are left out of the message). */
export interface ErrorLocation {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** Dotted key path (see {@link formatPath}) or the path itself. */
  readonly path?: string | KeyPath;
}

/**
 * One problem in a scenario, located. The message reads `file:line:column: path: what is wrong`,
 * leaving out the parts that are unknown. An input error (exit code 2).
 */
export class ScenarioError extends Error {
  readonly isInputError = true;
  /** File name as given to the loader ("" when unknown). */
  readonly file: string;
  /** 1-based line, 0 when unknown. */
  readonly line: number;
  /** 1-based column, 0 when unknown. */
  readonly column: number;
  /** Dotted key path such as `assembly.components.A.type` or `connections[2]` ("" for the whole document). */
  readonly path: string;
  /** What is wrong, without the location. */
  readonly detail: string;

  constructor(detail: string, at: ErrorLocation = {}) {
    const file = at.file ?? "";
    const line = at.line ?? 0;
    const column = at.column ?? 0;
    const path = typeof at.path === "string" ? at.path : at.path ? formatPath(at.path) : "";
    const where = file ? `${file}${line > 0 ? `:${line}${column > 0 ? `:${column}` : ""}` : ""}` : line > 0 ? `line ${line}${column > 0 ? `:${column}` : ""}` : "";
    super([where, path, detail].filter((p) => p !== "").join(": "));
    this.name = "ScenarioError";
    this.file = file;
    this.line = line;
    this.column = column;
    this.path = path;
    this.detail = detail;
  }
}

/**
 * Every problem found in a scenario, thrown at once so users fix them all in one pass. The message
 * starts with a summary (`scenario.yaml: 3 errors`) followed by one error per line, in file order.
 * An input error (exit code 2).
 */
export class ScenarioErrors extends Error {
  readonly isInputError = true;
  /** The errors, sorted by file, line and column (errors without a line last, in order found). */
  readonly errors: readonly ScenarioError[];

  /** @param file - named in the summary line; defaults to the first error's file */
  constructor(errors: readonly ScenarioError[], file?: string) {
    const sorted = errors
      .map((e, i) => ({ e, i }))
      .sort((a, b) => compare(a.e, b.e) || a.i - b.i)
      .map((x) => x.e);
    const name = file ?? sorted.find((e) => e.file !== "")?.file ?? "scenario";
    const n = sorted.length;
    super(`${name}: ${n} error${n === 1 ? "" : "s"}\n${sorted.map((e) => `  ${e.message}`).join("\n")}`);
    this.name = "ScenarioErrors";
    this.errors = sorted;
  }
}

/**
 * `check()`, or undefined with its scenario errors added to `errors` (any other error is thrown):
 * for checks whose errors are reported together with the ones after them.
 */
export function collectErrors<T>(errors: ScenarioError[], check: () => T): T | undefined {
  try {
    return check();
  } catch (e) {
    if (!(e instanceof ScenarioErrors)) throw e;
    errors.push(...e.errors);
    return undefined;
  }
}

function compare(a: ScenarioError, b: ScenarioError): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  const la = a.line || Infinity;
  const lb = b.line || Infinity;
  if (la !== lb) return la < lb ? -1 : 1;
  return (a.column || 0) - (b.column || 0);
}

/**
 * A parsed scenario file: the plain value and a way to locate any path in the text (see
 * {@link LocatedYaml}); `locateValue` is optional for hand-made docs.
 */
export interface SourceDoc extends Omit<LocatedYaml, "locateValue">, Partial<Pick<LocatedYaml, "locateValue">> {
  /** File name used in messages. */
  readonly file: string;
}

/**
 * A {@link ScenarioError} at `path` of a document, for problems found after validation (a cost
 * function cycle, a connection to a missing port). Located at the value (`at: "value"`, default) or
 * the key; falls back to the nearest enclosing entry that exists in the text.
 */
export function errorAt(doc: SourceDoc, path: KeyPath, detail: string, at: "key" | "value" = "value"): ScenarioError {
  const pos = locateNearest(doc, path, at);
  return new ScenarioError(detail, { file: doc.file, line: pos?.line, column: pos?.column, path });
}

/**
 * Parses YAML text into a located {@link SourceDoc}. Anchors, aliases and `<<` merge keys are
 * resolved in `value`.
 *
 * @param file - name used in messages
 * @throws ScenarioErrors listing every syntax error and duplicate key, each located
 */
export function parseYamlSource(text: string, file: string): SourceDoc {
  try {
    return { file, ...parseLocatedYaml(text) };
  } catch (e) {
    if (!(e instanceof YamlTextError)) throw e;
    throw new ScenarioErrors(
      e.problems.map((p) => new ScenarioError(p.message, { file, ...p.at })),
      file,
    );
  }
}
