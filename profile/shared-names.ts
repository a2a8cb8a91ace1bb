/**
 * Shared copies of the names records repeat (components, ports, methods, modes): one string per
 * distinct name, referring to no other string.
 *
 * @packageDocumentation
 */

/**
 * A copy of `text` that refers to no other string. Why: a string cut from a block of file text
 * may be a slice of it (V8 slices strings of 13 characters or more), and one kept slice keeps the
 * whole block alive (16 MB for a records file); the flattened concatenation is a new string.
 */
export function detached(text: string): string {
  return (" " + text).slice(1);
}

/** One {@link detached} copy per distinct name, handed out to every record that has it. */
export class SharedNames {
  private readonly names = new Map<string, string>();
  /** The name asked for last and its copy. Why: a column of names repeats in runs, and comparing with the last is cheaper than a lookup. */
  private lastName = "";
  private lastShared = "";

  /** The shared copy of `name`. */
  get(name: string): string {
    if (name === this.lastName) return this.lastShared;
    let shared = this.names.get(name);
    if (shared === undefined) this.names.set((shared = detached(name)), shared);
    this.lastName = name;
    this.lastShared = shared;
    return shared;
  }
}
