/**
 * Where a key of an analysis input file (a selection assembly, power constants) is in its YAML or
 * JSON text, for messages that name `file:line:column` as the scenario loader's do.
 *
 * @packageDocumentation
 */
import { isDocument, type LineCounter, type Document, type Node as YamlNode } from "yaml";

/**
 * The parts of a key as messages write it: `callGraph.children[1].component` is `callGraph`,
 * `children`, 1, `component`; `(top)` (the document itself) has none, and a key below it,
 * `(top).extra`, is `extra`.
 */
export function keySegments(key: string): (string | number)[] {
  const path = key === "(top)" ? "" : key.startsWith("(top).") ? key.slice("(top).".length) : key;
  return [...path.matchAll(/\[(\d+)\]|[^.[\]]+/g)].map((m) => (m[1] === undefined ? m[0] : Number(m[1])));
}

/**
 * `file:line:column` of the node at `segments` in a parsed document: the key's value, else the
 * nearest enclosing node the document has (for a key left out, its mapping); undefined when none
 * has a position.
 */
export function keyLocation(file: string, doc: Document, lines: LineCounter, segments: readonly (string | number)[]): string | undefined {
  for (let n = segments.length; n >= 0; n--) {
    const node = (n === 0 ? doc.contents : doc.getIn(segments.slice(0, n), true)) as YamlNode | null | undefined;
    if (node !== null && node !== undefined && !isDocument(node) && node.range) {
      const p = lines.linePos(node.range[0]);
      return `${file}:${p.line}:${p.col}`;
    }
  }
  return undefined;
}
