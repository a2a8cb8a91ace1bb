/**
 * Orders texts by UTF-16 code unit (capitals before lower case, `MPI_Init()` before `main`): the
 * same order in every locale, where `localeCompare` follows the process's LANG/LC_ALL (Estonian
 * puts z before y), and a table, a report or a power ranking would change with it.
 * @internal
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
