/** A benchmark: `npm run bench -- <name>` runs it. Each prints ratios against a baseline measured in the same run. */
export interface Benchmark {
  readonly name: string;
  readonly summary: string;
  run(args: readonly string[]): Promise<void> | void;
}

/** Wall-clock seconds of `fn`, best of `repeats` runs (the least disturbed by the other core). */
export function timeBest(fn: () => void, repeats = 3): number {
  let best = Infinity;
  for (let i = 0; i < repeats; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    const dt = Number(process.hrtime.bigint() - t0) / 1e9;
    if (dt < best) best = dt;
  }
  return best;
}

/** Formats a rate such as 12345678 as "12.35 M". */
export function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k`;
  return perSecond.toFixed(1);
}

/** Prints rows as an aligned text table. */
export function printTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): void {
  const cells = [header, ...rows].map((r) => r.map((c) => String(c)));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  for (const [k, r] of cells.entries()) {
    console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "));
    if (k === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
}
