import { TrialBuilder, type Trial } from "../profile/index.js";
import type { AssemblyRunResult } from "./runtime.js";
import { APPLICATION_TIMER } from "./measurement/index.js";

/** Group TAU gives callpath timers. */
export const CALLPATH_GROUP = "TAU_CALLPATH";

/**
 * Turns a measured run into a profile {@link Trial}: one thread per rank (`rank.0.0`), every timer
 * flat and as a root-anchored callpath (`.TAU application => Driver::go() => A::run()`), user
 * events, and the Mastermind's records. Values are in microseconds (TIME) and counts.
 *
 * Flat values sum a timer's callpath nodes; inclusive values count only outermost activations so
 * recursion is not counted twice (as TAU does).
 * @throws Error when the run was not measured
 */
export function runToTrial(result: AssemblyRunResult, metadata: Readonly<Record<string, string>> = {}): Trial {
  const meas = result.measurement;
  if (!meas) throw new Error("the run was not measured (measure: false): there is no profile to build");
  const b = new TrialBuilder({ metrics: meas.metrics, source: "ccasim" });
  for (const [k, v] of Object.entries(metadata)) b.setMetadata(k, v);
  const names = meas.timers.names;
  const groups = meas.timers.groups.map((g) => g.split("|").map((x) => x.trim()));
  // Timers are created in first-use order, identical on every rank: the same order in every file.
  const flatIds = names.map((n, i) => b.timer(n, groups[i]));
  const m = meas.metrics.length;
  for (let r = 0; r < meas.ranks.length; r++) {
    const rp = meas.ranks[r];
    const t = b.addThread(r, 0, 0);
    const flatIncl = new Float64Array(names.length * m);
    const flatExcl = new Float64Array(names.length * m);
    const flatCalls = new Float64Array(names.length);
    const flatSubrs = new Float64Array(names.length);
    const seen = new Uint8Array(names.length);
    for (let node = 1; node < rp.nodeCount; node++) {
      const timer = rp.timerOf(node);
      seen[timer] = 1;
      const path = rp.path(node).map((id) => names[id]);
      if (path[0] !== APPLICATION_TIMER) path.unshift(APPLICATION_TIMER);
      const cp = path.length > 1 ? b.callpath(path, [...groups[timer], CALLPATH_GROUP]) : -1;
      const calls = rp.callsOf(node);
      const subrs = rp.subroutinesOf(node);
      const excl: number[] = [];
      const incl: number[] = [];
      // Recursion: inclusive counts only where no ancestor is the same timer.
      let recursive = false;
      for (let a = rp.parentOf(node); a > 0; a = rp.parentOf(a)) if (rp.timerOf(a) === timer) recursive = true;
      for (let k = 0; k < m; k++) {
        excl.push(rp.exclusive(node, k));
        incl.push(rp.inclusive(node, k));
        flatExcl[timer * m + k] += excl[k];
        if (!recursive) flatIncl[timer * m + k] += incl[k];
      }
      flatCalls[timer] += calls;
      flatSubrs[timer] += subrs;
      if (cp >= 0) b.setValues(t, cp, { calls, subroutines: subrs, exclusive: excl, inclusive: incl });
    }
    for (let id = 0; id < names.length; id++) {
      if (!seen[id]) continue;
      const excl: number[] = [];
      const incl: number[] = [];
      for (let k = 0; k < m; k++) {
        excl.push(flatExcl[id * m + k]);
        incl.push(flatIncl[id * m + k]);
      }
      b.setValues(t, flatIds[id], { calls: flatCalls[id], subroutines: flatSubrs[id], exclusive: excl, inclusive: incl });
    }
    const stats = meas.events.stats[r];
    stats.forEach((s, e) => {
      if (!s) return;
      const ev = b.userEvent(meas.events.names[e]);
      b.setEventTotals(t, ev, { count: s.count, min: s.min, max: s.max, mean: s.sum / s.count, sumSquares: s.sumSqr });
    });
  }
  // The Mastermind is a record table: the trial reads its arrays, with no object per record.
  if (result.mastermind) b.addRecords(result.mastermind);
  return b.build();
}
