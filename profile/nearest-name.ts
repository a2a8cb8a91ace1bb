/**
 * Name suggestions for error messages ("did you mean ...?") in `profile/` and `analysis/`, which
 * may not import the engine's `nearestName`.
 *
 * @packageDocumentation
 */

/**
 * The name in `names` closest to `word` (case-insensitive edit distance, two adjacent letters swapped
 * counting as one edit), when it is close enough
 * to be a likely typo: at most max(2, ⌊length / 3⌋) edits, and fewer than the longer of the two has
 * characters; else the one name that `word` (three characters or more) begins, as a shortened
 * name is.
 * @internal
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

/** ` (did you mean 'x'?)` when `names` holds a likely correction of `word`, else "". @internal */
export function didYouMean(word: string, names: readonly string[]): string {
  const near = nearestName(word, names);
  return near === undefined ? "" : ` (did you mean '${near}'?)`;
}

/**
 * Up to `max` names quoted and joined with commas, then ` and N more` for the rest; "" for none.
 * Why here: the messages that suggest a name also list the names there are. @internal
 */
export function quotedNames(names: readonly string[], max: number): string {
  const shown = names.slice(0, max).map((n) => `'${n}'`).join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

function editDistance(a: string, b: string): number {
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
