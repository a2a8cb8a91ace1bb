import { AnalysisInputError } from "./errors.js";
import { didYouMean } from "../profile/internal.js";

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
    throw new AnalysisInputError(`unknown ${this.kind} '${name}'${didYouMean(name, this.names())}; known: ${this.names().join(", ")}`);
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
