import { AnalysisInputError } from "./errors.js";

/**
 * A small named registry for the analysis layer's extension points (fit model families, power
 * constant sets). The analysis layer may import only `profile/`, so it cannot reuse the engine's
 * registry; this one offers the same contract: register by name, look up with a nearest-name hint.
 */
export class NamedRegistry<T extends { readonly name: string; readonly summary: string }> {
  private readonly entries = new Map<string, T>();

  /** @param kind - what the entries are, for error messages ("fit model family") */
  constructor(readonly kind: string) {}

  /**
   * Adds an entry.
   * @throws Error when the name is already taken
   */
  register(entry: T): T {
    if (this.entries.has(entry.name)) throw new Error(`${this.kind} '${entry.name}' is already registered`);
    this.entries.set(entry.name, entry);
    return entry;
  }

  /**
   * The entry called `name`.
   * @throws AnalysisInputError naming the nearest registered name
   */
  get(name: string): T {
    const e = this.entries.get(name);
    if (e !== undefined) return e;
    const near = nearest(name, this.names());
    throw new AnalysisInputError(
      `unknown ${this.kind} '${name}'${near ? ` (did you mean '${near}'?)` : ""}; known: ${this.names().join(", ")}`,
    );
  }

  /** True when `name` is registered. */
  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Registered names, sorted. */
  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** Registered entries, sorted by name. */
  all(): T[] {
    return this.names().map((n) => this.entries.get(n)!);
  }
}

function nearest(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const n of names) {
    const d = distance(word.toLowerCase(), n.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
