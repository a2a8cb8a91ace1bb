/**
 * Located YAML: a parsed YAML (or JSON) text together with a way to find where any key path sits
 * in it, and its syntax errors said in words at the line that has them. Scenario and sweep files
 * and the analysis commands' input files (selection assemblies, power constants) are all read
 * through it, so their messages place keys alike, following anchors, aliases and `<<` merge keys.
 *
 * @packageDocumentation
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node as YamlNode } from "yaml";
import type { KeyPath } from "./key-path.js";
import { layoutProblem } from "./yaml-layout.js";

/** A 1-based position in a source text. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** One problem of a text that is not valid YAML, located (`at` is absent when no place is known). */
export interface YamlProblem {
  readonly message: string;
  readonly at?: SourcePosition;
}

/**
 * A text that is not valid YAML: every problem the parser found, each said once and located. The
 * caller names the file (scenario errors, analysis input errors).
 */
export class YamlTextError extends Error {
  /** The problems, in the order the parser found them. */
  readonly problems: readonly YamlProblem[];
  constructor(problems: readonly YamlProblem[]) {
    const first = problems[0];
    super(first === undefined ? "not valid YAML" : `${first.at ? `${first.at.line}:${first.at.column}: ` : ""}${first.message}`);
    this.name = "YamlTextError";
    this.problems = problems;
  }
}

/** A parsed YAML text: its plain value and the positions of its keys and values. */
export interface LocatedYaml {
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
  /** Position of the VALUE at `path`; undefined when the path is not in the text. */
  locateValue(path: KeyPath): SourcePosition | undefined;
}

/**
 * Where to place a message about `path`: its value (`at: "value"`) or key, else the key of the
 * nearest enclosing entry the text has (a key left out: the map that should hold it), else where
 * the document's content starts; undefined when not even the document has a position.
 */
export function locateNearest(doc: Pick<LocatedYaml, "locate"> & Partial<Pick<LocatedYaml, "locateValue">>, path: KeyPath, at: "key" | "value" = "value"): SourcePosition | undefined {
  let pos = at === "value" ? (doc.locateValue?.(path) ?? doc.locate(path)) : doc.locate(path);
  for (let n = path.length - 1; pos === undefined && n > 0; n--) pos = doc.locate(path.slice(0, n));
  // The document itself: where its content starts (after any leading comments), else its start.
  return pos ?? doc.locateValue?.([]) ?? doc.locate([]);
}

/**
 * Parses YAML (JSON is YAML) into a {@link LocatedYaml}. Keys must be unique; anchors, aliases and
 * `<<` merge keys are resolved in `value` (at most 10 000 aliases: a bound on "billion laughs").
 * @throws YamlTextError listing every syntax error and duplicate key, each located once
 */
export function parseLocatedYaml(text: string): LocatedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: true, keepSourceTokens: false });
  const pos = (offset: number): SourcePosition => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  if (doc.errors.length > 0) {
    const problems: YamlProblem[] = [];
    for (const e of doc.errors) {
      const at = pos(e.pos[0]);
      const layout = layoutProblem(e.code, e.message, text, at.line);
      const problem: YamlProblem = layout ?? { message: yamlMessage(e.code, e.message, e.code === "DUPLICATE_KEY" ? keyAt(doc, e.pos[0]) : ""), at };
      // One slip often gives several parser errors at one place (an over-indented key gives two).
      if (!problems.some((x) => x.message === problem.message && x.at?.line === problem.at?.line && x.at?.column === problem.at?.column)) problems.push(problem);
    }
    throw new YamlTextError(problems);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 10_000 });
  } catch (e) {
    throw new YamlTextError([{ message: `cannot resolve the document: ${(e as Error).message}` }]);
  }
  const find = (path: KeyPath, want: "key" | "value"): SourcePosition | undefined => {
    const range = findRange(doc, path, want);
    return range === undefined ? undefined : pos(range);
  };
  return {
    text,
    value: value === undefined ? null : value,
    locate: (path) => (path.length === 0 ? { line: 1, column: 1 } : find(path, "key")),
    locateValue: (path) => find(path, "value"),
  };
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
