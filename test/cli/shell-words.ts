import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The `ccasim` command lines of a help text's or a document's examples, split into arguments
 * as a POSIX shell would: single and double quotes (a quoted newline stays in the argument),
 * backslash escapes outside single quotes, unquoted `*` globs expanded against the file system
 * (sorted; kept as written when nothing matches), `#` comments and `$` left alone. A newline
 * outside quotes ends a command; lines not starting with `ccasim` (or `npx ccasim`) are skipped.
 * @returns each command's arguments after `ccasim`
 */
export function exampleCommands(text: string): string[][] {
  const commands: string[][] = [];
  for (const words of shellLines(text)) {
    const at = words[0] === "npx" ? 1 : 0;
    if (words[at] === "ccasim") commands.push(words.slice(at + 1));
  }
  return commands;
}

/** The lines of an Examples section: from the line starting with `Examples` to the next blank line. */
export function examplesSection(help: string): string {
  const lines = help.split("\n");
  const start = lines.findIndex((l) => /^Examples\b/.test(l));
  if (start < 0) throw new Error("the help has no Examples section");
  const end = lines.findIndex((l, i) => i > start && l.trim() === "");
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

function shellLines(text: string): string[][] {
  const out: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let glob = false;
  let quote: "'" | '"' | undefined;
  const endWord = (): void => {
    if (inWord) words.push(...(glob ? expandGlob(word) : [word]));
    word = "";
    inWord = false;
    glob = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && /["\\$`]/.test(text[i + 1] ?? "")) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\") {
      // A backslash before a newline continues the line.
      if (text[i + 1] !== "\n") word += text[i + 1] ?? "";
      inWord = inWord || text[i + 1] !== "\n";
      i++;
    } else if (c === "#" && !inWord) {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
    } else if (c === " " || c === "\t") endWord();
    else if (c === "\n") {
      endWord();
      if (words.length > 0) out.push(words);
      words = [];
    } else {
      word += c;
      inWord = true;
      glob = glob || c === "*";
    }
  }
  endWord();
  if (words.length > 0) out.push(words);
  return out;
}

/** Expands `*` in any segment of a path, as the shell does (no match: the pattern itself). */
function expandGlob(pattern: string): string[] {
  let paths = [pattern.startsWith("/") ? "/" : ""];
  for (const segment of pattern.split("/").filter((s, i) => s !== "" || i > 0)) {
    if (!segment.includes("*")) {
      paths = paths.map((p) => (p === "" ? segment : join(p, segment)));
      continue;
    }
    const re = new RegExp(`^${segment.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")}$`);
    paths = paths.flatMap((p) => entries(p === "" ? "." : p).filter((e) => re.test(e) && !e.startsWith(".")).sort().map((e) => (p === "" ? e : join(p, e))));
  }
  const found = paths.filter((p) => existsSync(p));
  return found.length === 0 ? [pattern] : found;
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
