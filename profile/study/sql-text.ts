/**
 * Reading SQL text just enough to embed one statement in another: where its terminating `;` is,
 * outside string literals, quoted identifiers and comments; and writing a text as a string literal.
 *
 * @packageDocumentation
 */

/**
 * `sql` without its terminating `;` and whatever follows it (comments, whitespace), so that it can
 * stand inside parentheses (`COPY (<sql>) TO ...`). A `;` or `--` inside a string literal
 * (`'...'`, `''` escaping a quote), a quoted identifier (`"..."`) or a comment (`-- ...` to the end
 * of the line, `/* ... *\/`) is text, not syntax. SQL without a terminator is returned whole.
 */
export function withoutTerminator(sql: string): string {
  let terminator = -1;
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
      terminator = -1;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else {
      if (c === ";") {
        if (terminator < 0) terminator = i;
      } else if (!/\s/.test(c)) terminator = -1;
      i++;
    }
  }
  return terminator < 0 ? sql : sql.slice(0, terminator);
}

/** `text` as an SQL string literal: in single quotes, each quote doubled (`it's` is `'it''s'`). */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
