/**
 * Reading SQL text just enough to embed one statement in another: where its terminating `;` is,
 * outside string literals, quoted identifiers and comments, and how many statements it holds; and
 * writing a text as a string literal.
 *
 * @packageDocumentation
 */

/**
 * The statements of `sql` as the text separates them: each top-level `;` (outside string
 * literals, quoted identifiers and comments) ends one, and a piece holding only whitespace and
 * comments is none. Returns where each statement's text ends (its `;`, or the end of `sql`).
 */
function statementEnds(sql: string): number[] {
  const ends: number[] = [];
  let content = false; // why: whether the current piece holds anything but whitespace and comments
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      // A quoted run ends at the next lone quote of the same kind (a doubled one is an escape).
      i++;
      while (i < n) {
        if (sql[i] === c) {
          if (sql[i + 1] === c) i += 2;
          else break;
        } else i++;
      }
      i++;
      content = true;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else {
      if (c === ";") {
        if (content) ends.push(i);
        content = false;
      } else if (!/\s/.test(c)) content = true;
      i++;
    }
  }
  if (content) ends.push(n);
  return ends;
}

/**
 * `sql` without its terminating `;` and whatever follows it (comments, whitespace), so that it can
 * stand inside parentheses (`COPY (<sql>) TO ...`). A `;` or `--` inside a string literal
 * (`'...'`, `''` escaping a quote), a quoted identifier (`"..."`) or a comment (`-- ...` to the end
 * of the line, `/* ... *\/`) is text, not syntax. SQL without a terminator is returned whole.
 */
export function withoutTerminator(sql: string): string {
  const ends = statementEnds(sql);
  const last = ends[ends.length - 1];
  return last === undefined || last === sql.length ? sql : sql.slice(0, last);
}

/**
 * How many statements `sql` holds as its text separates them by `;` (see {@link withoutTerminator}
 * for what is text and what syntax); 0 for whitespace and comments alone. Unlike DuckDB's own
 * count, a `PIVOT` whose values DuckDB looks up first is one statement, as written.
 */
export function statementCount(sql: string): number {
  return statementEnds(sql).length;
}

/**
 * A DuckDB error `message` about SQL that was embedded `linesBefore` lines below the start of the
 * statement DuckDB parsed (`COPY (\n<sql>\n) TO ...`), with its `LINE n:` references counted
 * in the embedded SQL's own lines again. The caret line under each reference keeps pointing at the
 * same character when the number has fewer digits (`LINE 10:` becoming `LINE 9:`). A reference to a
 * line before the embedded SQL, and a message without references, are returned as they are.
 */
export function embeddedSqlLines(message: string, linesBefore: number): string {
  return message.replace(/^LINE (\d+):(.*)(\n *\^)?/gm, (all: string, n: string, text: string, caret: string | undefined) => {
    const line = Number(n) - linesBefore;
    if (line < 1) return all;
    const shorter = n.length - String(line).length;
    return `LINE ${line}:${text}${caret === undefined ? "" : "\n" + caret.slice(1 + shorter)}`;
  });
}

/** `text` as an SQL string literal: in single quotes, each quote doubled (`it's` is `'it''s'`). */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The first `count` words of `sql` (`COPY`), skipping whitespace and comments before each, upper-cased. */
export function leadingWords(sql: string, count: number): string[] {
  const words: string[] = [];
  let i = 0;
  while (words.length < count) {
    i = skipBlank(sql, i);
    const word = /^[A-Za-z_]+/.exec(sql.slice(i))?.[0];
    if (word === undefined) break;
    words.push(word.toUpperCase());
    i += word.length;
  }
  return words;
}

/** The index of the first character at or after `i` that is not whitespace or in a comment. */
function skipBlank(sql: string, i: number): number {
  const n = sql.length;
  for (;;) {
    while (i < n && /\s/.test(sql[i]!)) i++;
    if (sql.startsWith("--", i)) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (sql.startsWith("/*", i)) {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else return i;
  }
}
