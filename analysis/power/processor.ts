/**
 * Whether a trial ran on a processor a power constant set describes: the constants of one
 * architecture (scaling factors, MaxPower, idle power) say nothing about another's watts.
 *
 * @packageDocumentation
 */
import type { Trial } from "../../profile/index.js";
import type { PowerConstantSet } from "./constants.js";

/** Metadata keys that name a trial's processor: TAU's "CPU Type", and the preset of a ccasim run. */
const PROCESSOR_KEYS = ["CPU Type", "Machine preset"] as const;

/** The distinct processor names a trial's metadata gives (trial-wide and per thread), each with its key. */
export function trialProcessors(trial: Trial): { readonly key: string; readonly value: string }[] {
  const seen = new Map<string, string>();
  for (const key of PROCESSOR_KEYS) {
    const values = [trial.metadataString(key), ...trial.threads.map((_, i) => trial.metadataString(key, i))];
    for (const v of values) if (v !== undefined && v.trim() !== "" && !seen.has(v.trim())) seen.set(v.trim(), key);
  }
  return [...seen].map(([value, key]) => ({ key, value }));
}

/**
 * Why `set` does not describe the trial's processor, or undefined when it does, when the set
 * names no processors, or when the metadata names none (nothing to compare).
 */
export function processorMismatch(trial: Trial, set: PowerConstantSet): string | undefined {
  const fact = processorMismatchFact(trial, set);
  const wanted = set.processors ?? [];
  return fact === undefined ? undefined : `${fact}: the watts are estimated with the power constants of ${wanted.join(" or ")}, so they are not the trial's own processor's`;
}

/**
 * The fact {@link processorMismatch} states, without what an estimate does with it: `the trial
 * ran on '...' (CPU Type), not on a processor the constant set '...' describes (...)`; for a
 * caller that does not estimate such a trial (a report).
 */
export function processorMismatchFact(trial: Trial, set: PowerConstantSet): string | undefined {
  const wanted = set.processors ?? [];
  if (wanted.length === 0) return undefined;
  const others = trialProcessors(trial).filter((p) => !wanted.some((w) => p.value.toLowerCase().includes(w.toLowerCase())));
  if (others.length === 0) return undefined;
  const named = others.slice(0, 2).map((p) => `'${p.value}' (${p.key})`).join(", ");
  return `the trial ran on ${named}${others.length > 2 ? ", ..." : ""}, not on a processor the constant set '${set.name}' describes (${wanted.join(", ")})`;
}
