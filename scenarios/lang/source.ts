/**
 * Located YAML sources and located errors. A {@link SourceDoc} keeps a parsed file together with a
 * way to find where any key path sits in the text, so every later error can say
 * `file:line:column: path: what is wrong`.
 *
 * @packageDocumentation
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node as YamlNode } from "yaml";

/** A path into a scenario value: map keys and sequence indices. */
export type KeyPath = readonly (string | number)[];

/** A 1-based position in a source text. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

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
 * Renders a key path: keys joined by dots, indices as `[2]`, keys that are not plain words quoted
 * (`assembly.components.A.type`, `connections[2].from`, `proxies["A.go"].params`).
 */
export function formatPath(path: KeyPath): string {
  let out = "";
  for (const k of path) {
    if (typeof k === "number") out += `[${k}]`;
    else if (/^[A-Za-z0-9_$-]+$/.test(k)) out += out === "" ? k : `.${k}`;
    else out += `[${JSON.stringify(k)}]`;
  }
  return out;
}

/** A parsed scenario file: the plain value and a way to locate any path in the text. */
export interface SourceDoc {
  /** File name used in messages. */
  readonly file: string;
  /** The source text. */
  readonly text: string;
  /** The document as plain JS values (objects, arrays, strings, numbers, booleans, null). */
  readonly value: unknown;
  /**
   * Position of the KEY of a map entry (so "unknown key" points at the key), of the item for a
   * sequence index, or of the document start for the empty path; undefined when the path is not
   * in the text.
   */
  locate(path: KeyPath): SourcePosition | undefined;
  /** Position of the VALUE at `path` (for errors about a value); optional for hand-made docs. */
  locateValue?(path: KeyPath): SourcePosition | undefined;
}

/**
 * A {@link ScenarioError} at `path` of a document, for problems found after validation (a cost
 * function cycle, a connection to a missing port). Located at the value (`at: "value"`, default) or
 * the key; falls back to the nearest enclosing entry that exists in the text.
 */
export function errorAt(doc: SourceDoc, path: KeyPath, detail: string, at: "key" | "value" = "value"): ScenarioError {
  let pos = at === "value" ? (doc.locateValue?.(path) ?? doc.locate(path)) : doc.locate(path);
  for (let n = path.length - 1; pos === undefined && n >= 0; n--) pos = doc.locate(path.slice(0, n));
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
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: true, keepSourceTokens: false });
  const pos = (offset: number): SourcePosition => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  if (doc.errors.length > 0) {
    const errors: ScenarioError[] = [];
    for (const e of doc.errors) {
      const at = pos(e.pos[0]);
      const layout = layoutProblem(e.code, e.message, text, at.line);
      const error = new ScenarioError(layout?.message ?? yamlMessage(e.code, e.message, e.code === "DUPLICATE_KEY" ? keyAt(doc, e.pos[0]) : ""), { file, ...(layout?.at ?? at) });
      // One slip often gives several parser errors at one place (an over-indented key gives two).
      if (!errors.some((x) => x.message === error.message)) errors.push(error);
    }
    throw new ScenarioErrors(errors, file);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 10_000 });
  } catch (e) {
    throw new ScenarioErrors([new ScenarioError(`cannot resolve the document: ${(e as Error).message}`, { file })], file);
  }
  const find = (path: KeyPath, want: "key" | "value"): SourcePosition | undefined => {
    const range = findRange(doc, path, want);
    return range === undefined ? undefined : pos(range);
  };
  return {
    file,
    text,
    value: value === undefined ? null : value,
    locate: (path) => (path.length === 0 ? { line: 1, column: 1 } : find(path, "key")),
    locateValue: (path) => find(path, "value"),
  };
}

/**
 * The indentation or bracket slip behind a parser error, said in words and located at the line
 * that has it (the parser reports where it noticed, often the line before or after), or undefined.
 * - A key indented further than the keys above it (`   processesPerNode: 2` under `  nodes: 4`)
 *   continues the value of the key before it: the parser says "Nested mappings are not allowed in
 *   compact mappings" or "Implicit keys need to be on a single line" at that value.
 * - A `{` or `[` left open makes the parser stop at the next key ("Flow map in block collection
 *   must be sufficiently indented and end with a }").
 * @param message - the parser's message
 * @param line - 1-based line where the parser reported the error
 */
function layoutProblem(code: string, message: string, text: string, line: number): { message: string; at: SourcePosition } | undefined {
  const lines = text.split(/\r?\n/);
  const indent = (l: string): number => l.length - l.trimStart().length;
  const blank = (l: string | undefined): boolean => l === undefined || l.trim() === "" || l.trimStart().startsWith("#");
  if (code === "BLOCK_AS_IMPLICIT_KEY" || code === "MULTILINE_IMPLICIT_KEY") {
    let next = line;
    while (next < lines.length && blank(lines[next])) next++;
    const here = lines[line - 1];
    const after = lines[next];
    if (here === undefined || after === undefined || indent(after) <= indent(here)) return undefined;
    // A list item with no colon (`- action D`) before keys indented under it: the colon is missing.
    const item = /^(\s*-\s+)([^:#{}\[\]"']+?)\s*$/.exec(here);
    if (item !== null) {
      const words = item[2]!.split(/\s+/);
      const meant = words.length > 1 ? ` (did you mean '${words[0]}: ${words.slice(1).join(" ")}'?)` : ` (did you mean '${words[0]}:'?)`;
      return { message: `this list item has no ':', so the keys indented under it on line ${next + 1} cannot belong to it${meant}`, at: { line, column: item[1]!.length + 1 } };
    }
    return {
      message: `this line is indented by ${indent(after)} spaces, more than the key on line ${line} (${indent(here)}), so YAML reads it as part of that key's value: keys of one map start at the same column`,
      at: { line: next + 1, column: indent(after) + 1 },
    };
  }
  if (code === "BAD_INDENT" && /^Flow (sequence|map)/.test(message)) {
    // A flow collection still open where the parser stopped: brackets counted (outside quotes and
    // comments) from the top-level key above down to the line before, the innermost left open.
    let from = line - 1;
    while (from > 1 && (blank(lines[from - 1]) || indent(lines[from - 1]!) > 0)) from--;
    const open: SourcePosition[] = [];
    for (let l = from; l < line; l++) {
      const t = (lines[l - 1] ?? "").replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, (q) => " ".repeat(q.length)).replace(/\s#.*$/, "");
      for (let c = 0; c < t.length; c++) {
        if (t[c] === "{" || t[c] === "[") open.push({ line: l, column: c + 1 });
        else if ((t[c] === "}" || t[c] === "]") && open.length > 0) open.pop();
      }
    }
    const at = open.pop();
    if (at === undefined) return undefined;
    const bracket = lines[at.line - 1]![at.column - 1];
    return { message: `a '${bracket}' opened on this line is not closed: end it with '${bracket === "{" ? "}" : "]"}' (its continuation lines indented beyond the key)`, at };
  }
  if (code === "BAD_INDENT" && /same column/.test(message)) {
    const here = lines[line - 1] ?? "";
    return { message: `this line starts at column ${indent(here) + 1}, where no key of the map above does: keys of one map start at the same column`, at: { line, column: indent(here) + 1 } };
  }
  return undefined;
}

function yamlMessage(code: string, message: string, key: string): string {
  if (code === "DUPLICATE_KEY") return `duplicate key${key ? ` '${key}'` : ""}: map keys must be unique`;
  return message.replace(/\s+at line \d+, column \d+.*$/s, "");
}

/**
 * The text of the map key that starts at `offset` (the parser locates a duplicate key by its first
 * character only), or "" when no scalar key starts there.
 */
function keyAt(doc: Document, offset: number): string {
  let key = "";
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.range?.[0] === offset) {
        key = String(pair.key.value);
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return key;
}

/** Offset of the key or value at `path`, following aliases and merge keys. */
function findRange(doc: Document, path: KeyPath, want: "key" | "value"): number | undefined {
  let node: unknown = doc.contents;
  let keyOffset: number | undefined;
  for (const seg of path) {
    node = deref(doc, node);
    keyOffset = undefined;
    if (isMap(node)) {
      const pair = findPair(doc, node.items, String(seg), 0);
      if (pair === undefined) return undefined;
      keyOffset = (pair.key as YamlNode | null)?.range?.[0];
      node = pair.value;
    } else if (isSeq(node) && typeof seg === "number") {
      node = node.items[seg];
      if (node === undefined) return undefined;
    } else {
      return undefined;
    }
  }
  if (want === "key" && keyOffset !== undefined) return keyOffset;
  const n = node as YamlNode | null;
  return n?.range?.[0] ?? keyOffset;
}

interface LocatedPair {
  key: unknown;
  value: unknown;
}

function findPair(doc: Document, items: readonly unknown[], key: string, depth: number): LocatedPair | undefined {
  if (depth > 20) return undefined;
  for (const p of items) {
    if (!isPair(p)) continue;
    const k = p.key;
    const kv = isScalar(k) ? k.value : k;
    if (kv !== null && typeof kv !== "object" && typeof kv !== "symbol" && String(kv) === key) return p;
  }
  // `<<` merge keys: look into the merged maps (later explicit keys win, checked above).
  for (const p of items) {
    if (!isPair(p) || !isMergeKey(p.key)) continue;
    const sources = isSeq(deref(doc, p.value)) ? (deref(doc, p.value) as { items: unknown[] }).items : [p.value];
    for (const src of sources) {
      const m = deref(doc, src);
      if (isMap(m)) {
        const found = findPair(doc, m.items, key, depth + 1);
        if (found) return found;
      }
    }
  }
  return undefined;
}

/** A `<<` merge key (the yaml package represents it as a scalar holding a symbol). */
function isMergeKey(key: unknown): boolean {
  return isScalar(key) && (key.value === "<<" || (typeof key.value === "symbol" && key.source === "<<"));
}

function deref(doc: Document, node: unknown): unknown {
  let n = node;
  for (let i = 0; i < 20 && isAlias(n); i++) n = n.resolve(doc);
  return n;
}
