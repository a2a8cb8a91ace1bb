/**
 * Key paths into a YAML or JSON document (map keys and sequence indices) and the way messages
 * write them: `assembly.components.A.type`, `connections[2].from`, `proxies["A.go"].params`.
 *
 * @packageDocumentation
 */

/** A path into a document's value: map keys and sequence indices. */
export type KeyPath = readonly (string | number)[];

/** A map key that is written bare in a path (others are quoted in brackets). */
const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

/**
 * Renders a key path: keys joined by dots, indices as `[2]`, keys that are not plain words quoted
 * (`assembly.components.A.type`, `connections[2].from`, `proxies["A.go"].params`).
 */
export function formatPath(path: KeyPath): string {
  let out = "";
  for (const k of path) {
    if (typeof k === "number") out += `[${k}]`;
    else if (PLAIN_KEY.test(k)) out += out === "" ? k : `.${k}`;
    else out += `[${JSON.stringify(k)}]`;
  }
  return out;
}

/**
 * The key path that {@link formatPath} wrote (its inverse on every path it writes): dotted keys,
 * `[n]` indices and `["quoted"]` keys. `(top)`, as messages name the document itself, is the empty
 * path, and `(top).extra` the key `extra` below it.
 */
export function parseKeyPath(text: string): KeyPath {
  const path = text === "(top)" ? "" : text.startsWith("(top).") ? text.slice("(top).".length) : text;
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|[^.[\]]+/g)) {
    if (m[1] !== undefined) out.push(Number(m[1]));
    else if (m[2] !== undefined) out.push(JSON.parse(m[2]) as string);
    else out.push(m[0]);
  }
  return out;
}
