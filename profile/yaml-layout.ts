/**
 * YAML layout slips (indentation, unclosed brackets) behind the parser's errors, said in words at
 * the line that has them.
 *
 * @packageDocumentation
 */
import type { SourcePosition } from "./yaml-source.js";

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
export function layoutProblem(code: string, message: string, text: string, line: number): { message: string; at: SourcePosition } | undefined {
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
