/**
 * Unique column names for a query's result.
 *
 * @packageDocumentation
 */

/**
 * Column names made unique as DuckDB's export names them (`a, a` -> `a, a_1`; names compared
 * without case), for a query's rows written with their column names: a second column of one name
 * would replace the first in a JSON object (`query --json`), and a CSV file's header names its
 * columns as DuckDB's export (`query --out x.csv`) does.
 */
export function uniqueColumnNames(columns: readonly string[]): string[] {
  const used = new Set<string>();
  const next = new Map<string, number>();
  return columns.map((c) => {
    let name = c;
    if (used.has(c.toLowerCase())) {
      let k = next.get(c.toLowerCase()) ?? 1;
      while (used.has(`${c}_${k}`.toLowerCase())) k++;
      next.set(c.toLowerCase(), k + 1);
      name = `${c}_${k}`;
    }
    used.add(name.toLowerCase());
    return name;
  });
}
