/**
 * Decimal literals read from text without a regular expression.
 *
 * @packageDocumentation
 */

/**
 * The number a text (a record cell, an Extra-P value, a sweep bound) spells as a decimal
 * literal (`[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?`), else NaN: no hexadecimal, `Infinity`,
 * separators or surrounding blanks, which `Number` alone would take. Over the characters of that
 * form (digits, signs, point, exponent), `Number` reads exactly the strings the form describes,
 * so checking the characters suffices. Why not the regular expression: it cost a quarter of
 * reading a records CSV file.
 */
export function decimalValue(text: string): number {
  const n = text.length;
  if (n === 0) return NaN;
  // Digits alone (ranks, counts, sizes) are summed on the way: up to 15 of them the sum is exact
  // and is the number (why: converting the text again took as long as the rest of the cell).
  let digits = true;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) value = value * 10 + (c - 48);
    // '+', '-', '.', 'e', 'E'
    else if (c === 43 || c === 45 || c === 46 || c === 101 || c === 69) digits = false;
    else return NaN;
  }
  return digits && n <= 15 ? value : Number(text);
}
