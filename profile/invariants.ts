/**
 * Load-time consistency checks of a trial. Real profiles are irregular, so these produce warnings,
 * never errors: one warning per (kind, timer, metric), counting the threads concerned.
 */
import type { ProfileWarning, ProfileWarningKind } from "./errors.js";
import type { Trial } from "./model.js";

/** Groups of sampled nodes (TAU's EBS `[SAMPLE]`, `[CONTEXT]`, `[UNWIND]`, `[SUMMARY]`), exempt from flat = sum of callpaths. */
const SAMPLE_MARKERS = ["[SAMPLE]", "[CONTEXT]", "[UNWIND]", "[SUMMARY]", "[INTERMEDIATE]"];

/** True for timers that come from event-based sampling rather than instrumentation. */
export function isSampledTimer(name: string, groups: readonly string[]): boolean {
  return groups.some((g) => g.startsWith("TAU_SAMPLE") || g === "TAU_UNWIND") || SAMPLE_MARKERS.some((m) => name.includes(m));
}

/**
 * Tolerance for comparing two sums: rounding of each written value (TAU writes integers for TIME)
 * plus a relative part. @internal
 */
export function tolerance(a: number, b: number, terms: number): number {
  return 0.5 * terms + 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * Checks, on every thread and metric: inclusive >= exclusive; a callpath's inclusive value does
 * not exceed its parent callpath's; a flat timer's calls and exclusive value equal the sums over
 * the callpaths ending in it (when callpaths are root-anchored; with truncated depth-limited
 * paths, the sums must not exceed the flat values). Sampled timers are exempt from the last check.
 * @param options - `skip`: kinds of warning not to look for (a reader that checked them line by
 *   line, naming file and line, already warned)
 */
export function checkInvariants(trial: Trial, options: { readonly skip?: readonly ProfileWarningKind[] } = {}): ProfileWarning[] {
  const out = new Collector(trial);
  const exceeds = !(options.skip ?? []).includes("exclusive-exceeds-inclusive");
  const nT = trial.timers.length;
  const { present, calls } = trial.values;
  const nM = trial.metrics.length;

  for (let th = 0; exceeds && th < trial.threads.length; th++) {
    const base = th * nT;
    for (let m = 0; m < nM; m++) {
      const ex = trial.values.exclusive[m];
      const inc = trial.values.inclusive[m];
      for (let t = 0; t < nT; t++) {
        const s = base + t;
        if (present[s] === 0) continue;
        if (ex[s] > inc[s] + tolerance(ex[s], inc[s], 1)) {
          out.add("exclusive-exceeds-inclusive", t, m, th, `exclusive ${ex[s]} > inclusive ${inc[s]}`);
        }
      }
    }
  }

  // Parent of each callpath timer, and the callpaths ending in each flat timer.
  const parentOf = new Int32Array(nT).fill(-1);
  const endingIn = new Map<number, number[]>();
  const nonFirst = new Set<string>();
  for (const t of trial.timers) {
    if (!t.isCallpath) continue;
    for (let i = 1; i < t.path.length; i++) nonFirst.add(t.path[i]);
  }
  let anchored = true;
  for (const t of trial.timers) {
    if (!t.isCallpath) continue;
    if (nonFirst.has(t.path[0])) anchored = false;
    const parent = trial.findTimer(t.path.slice(0, -1).join(" => "));
    // Sampled nodes are estimates; they may exceed their instrumented parent.
    if (parent && !isSampledTimer(t.name, t.groups)) parentOf[t.index] = parent.index;
    const flat = trial.findTimer(t.path[t.path.length - 1]);
    if (flat && !flat.isCallpath && !isSampledTimer(flat.name, flat.groups) && !isSampledTimer(t.name, t.groups)) {
      let list = endingIn.get(flat.index);
      if (!list) endingIn.set(flat.index, (list = []));
      list.push(t.index);
    }
  }

  for (let th = 0; th < trial.threads.length; th++) {
    const base = th * nT;
    for (let m = 0; m < nM; m++) {
      const inc = trial.values.inclusive[m];
      for (let t = 0; t < nT; t++) {
        const p = parentOf[t];
        if (p < 0 || present[base + t] === 0 || present[base + p] === 0) continue;
        if (inc[base + t] > inc[base + p] + tolerance(inc[base + t], inc[base + p], 1)) {
          out.add("child-exceeds-parent", t, m, th, `inclusive ${inc[base + t]} > parent '${trial.timers[p].name}' inclusive ${inc[base + p]}`);
        }
      }
    }
    for (const [flat, paths] of endingIn) {
      if (present[base + flat] === 0) continue;
      let sumCalls = 0;
      let any = false;
      for (const c of paths) {
        if (present[base + c] === 0) continue;
        any = true;
        sumCalls += calls[base + c];
      }
      if (!any) continue;
      const fc = calls[base + flat];
      const callsBad = anchored ? Math.abs(sumCalls - fc) > 1e-9 * Math.max(fc, 1) : sumCalls > fc + 1e-9 * Math.max(fc, 1);
      if (callsBad) out.add("flat-differs-from-callpaths", flat, -1, th, `calls ${fc} but callpaths ending in it sum to ${sumCalls}`);
      for (let m = 0; m < nM; m++) {
        const ex = trial.values.exclusive[m];
        let sum = 0;
        for (const c of paths) if (present[base + c] === 1) sum += ex[base + c];
        const tol = tolerance(sum, ex[base + flat], paths.length + 1);
        const bad = anchored ? Math.abs(sum - ex[base + flat]) > tol : sum > ex[base + flat] + tol;
        if (bad) out.add("flat-differs-from-callpaths", flat, m, th, `exclusive ${ex[base + flat]} but callpaths ending in it sum to ${sum}`);
      }
    }
  }
  return out.warnings();
}

/** Groups warnings by (kind, timer, metric), keeping the first example and a thread count. @internal */
class Collector {
  private readonly seen = new Map<string, { kind: ProfileWarningKind; timer: number; metric: number; thread: number; example: string; threads: number }>();
  constructor(private readonly trial: Trial) {}
  add(kind: ProfileWarningKind, timer: number, metric: number, thread: number, example: string): void {
    const key = `${kind}|${timer}|${metric}`;
    const w = this.seen.get(key);
    if (w) w.threads++;
    else this.seen.set(key, { kind, timer, metric, thread, example, threads: 1 });
  }
  warnings(): ProfileWarning[] {
    const res: ProfileWarning[] = [];
    for (const w of this.seen.values()) {
      const metric = w.metric >= 0 ? ` (${this.trial.metrics[w.metric]})` : "";
      const more = w.threads > 1 ? ` and ${w.threads - 1} other thread${w.threads > 2 ? "s" : ""}` : "";
      res.push({
        kind: w.kind,
        message: `timer '${this.trial.timers[w.timer].name}'${metric} on thread ${this.trial.threadLabel(w.thread)}${more}: ${w.example}`,
        file: this.trial.source,
        thread: w.thread,
        timer: w.timer,
        metric: w.metric >= 0 ? w.metric : undefined,
      });
    }
    return res;
  }
}
