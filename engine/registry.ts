import type { ParamDoc } from "./params.js";

/** What every registered extension carries. */
export interface Registrable {
  /** Registered name, as scenarios spell it. */
  readonly name: string;
  /** One line for listings. */
  readonly summary: string;
  /** Documented parameters (see {@link ParamDoc}). */
  readonly params: readonly ParamDoc[];
}

/** Thrown when a name is not registered; suggests the nearest registered name. */
export class UnknownNameError extends Error {
  readonly isInputError = true;
  constructor(readonly kind: string, readonly requested: string, readonly suggestion: string | undefined, readonly known: readonly string[]) {
    super(
      `unknown ${kind} '${requested}'` +
        (suggestion ? ` (did you mean '${suggestion}'?)` : "") +
        `; known: ${known.join(", ")}`,
    );
    this.name = "UnknownNameError";
  }
}

/**
 * A named registry of extensions (machine presets, network models, collective algorithms,
 * component types ...). Extending ccasim means registering, never editing the core.
 */
export class Registry<T extends Registrable> {
  private readonly entries = new Map<string, T>();

  /** @param kind - what the entries are, for error messages ("machine preset") */
  constructor(readonly kind: string) {}

  /**
   * Adds an entry.
   * @throws Error when the name is taken
   */
  register(entry: T): T {
    if (this.entries.has(entry.name)) throw new Error(`${this.kind} '${entry.name}' is already registered`);
    this.entries.set(entry.name, entry);
    return entry;
  }

  /**
   * The entry called `name`.
   * @throws UnknownNameError (an input error) naming the nearest registered name
   */
  get(name: string): T {
    const e = this.entries.get(name);
    if (e === undefined) throw new UnknownNameError(this.kind, name, nearestName(name, this.names()), this.names());
    return e;
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

/** ` (did you mean 'x'?)` when `names` holds a likely correction of `word` (see {@link nearestName}), else "". */
export function didYouMean(word: string, names: readonly string[]): string {
  const near = nearestName(word, names);
  return near === undefined ? "" : ` (did you mean '${near}'?)`;
}

/**
 * The closest of `names` to `word` (edit distance at most max(2, a third of its length), and fewer
 * than the longer of the two has characters), else the one name that `word` (three characters or
 * more) begins, or undefined.
 */
export function nearestName(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const n of names) {
    const d = editDistance(word.toLowerCase(), n.toLowerCase());
    // A name that shares no character with the word in place (`B` for `A`) is no likely typo.
    if (d < bestD && d < Math.max(word.length, n.length)) {
      bestD = d;
      best = n;
    }
  }
  if (best !== undefined || word.length < 3) return best;
  const lower = word.toLowerCase();
  const longer = names.filter((n) => n.toLowerCase().startsWith(lower));
  return longer.length === 1 ? longer[0] : undefined;
}

/** Edit distance (Levenshtein, with a swap of two adjacent characters counting as one edit: optimal string alignment). */
export function editDistance(a: string, b: string): number {
  // Three rows: a swap of two adjacent letters looks two rows back.
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j]!, before[j - 2]! + 1);
    }
    before = prev;
    prev = cur;
  }
  return prev[b.length]!;
}
