/**
 * Crossover points: where the best implementation changes as one input varies.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import { didYouMean } from "../../profile/internal.js";
import type { Assembly } from "./assembly.js";
import type { Inputs } from "./cost-model.js";
import { prepareAssembly, selectImplementations, type Assignment, type PreparedAssembly, type SelectOptions } from "./select.js";

/** Options of {@link findCrossovers}. */
export interface CrossoverOptions extends SelectOptions {
  /** Input that varies. */
  readonly variable: string;
  /** Lower end of the range. */
  readonly from: number;
  /** Upper end of the range. */
  readonly to: number;
  /** Other inputs, held fixed. */
  readonly inputs?: Inputs;
  /**
   * Cells of the range scanned before refinement, an integer >= 1 (default 128), each judged at
   * its middle (and the range at its ends): a cell's end where two implementations tie (cost the
   * same) says nothing of the cells on either side, and the tie goes to the first listed.
   */
  readonly samples?: number;
  /** Grid spacing (default "linear"; "log" needs from > 0). */
  readonly spacing?: "linear" | "log";
}

/** One change of the best assembly. */
export interface Crossover {
  /** Value of the variable where the choice changes (bisection to ~1e-12 relative, or of the range's magnitude when below 1). */
  readonly at: number;
  /** Components whose implementation changes there. */
  readonly changes: readonly { readonly component: string; readonly from: string; readonly to: string }[];
}

/** A range of the variable with one best assembly. */
export interface SelectionInterval {
  readonly from: number;
  readonly to: number;
  readonly assignment: Assignment;
}

/** Result of {@link findCrossovers}. */
export interface CrossoverResult {
  readonly variable: string;
  readonly crossovers: readonly Crossover[];
  readonly intervals: readonly SelectionInterval[];
}

/**
 * Scans `variable` over [from, to] at its two ends and the middles of `samples` cells, and refines
 * by bisection every point where the exact optimum changes between two of them; a change within
 * 1e-9 of the range of an end is a tie there, not a crossover. Changes narrower than a cell are
 * found only if the choice differs at the points scanned; raise `samples` for finer structure.
 * @throws AnalysisInputError for an empty or invalid range, `samples` not an integer >= 1, a
 *   `spacing` other than linear and log, a variable no cost of the assembly reads
 *   (when every cost is an expression, a number or a fitted model), or the errors of {@link selectImplementations}
 */
export function findCrossovers(assembly: Assembly | PreparedAssembly, options: CrossoverOptions): CrossoverResult {
  const { variable, from, to } = options;
  if (!(from < to)) throw new AnalysisInputError(`crossover range must have from < to, got [${from}, ${to}]`);
  const spacing = options.spacing ?? "linear";
  if (spacing === "log" && !(from > 0)) throw new AnalysisInputError("log spacing needs a positive lower end");
  if (options.samples !== undefined && !(Number.isInteger(options.samples) && options.samples >= 1)) throw new AnalysisInputError(`samples must be an integer >= 1, got ${options.samples}`);
  if (spacing !== "linear" && spacing !== "log") throw new AnalysisInputError(`spacing must be linear or log, got '${String(spacing)}'`);
  const samples = options.samples ?? 128;
  const prepared = "compiled" in assembly ? assembly : prepareAssembly(assembly);
  const at = (x: number): Assignment => selectImplementations(prepared, { ...options.inputs, [variable]: x }, { ...options, coreComponents: undefined }).optimum.assignment;
  const same = (a: Assignment, b: Assignment): boolean => Object.keys(a).every((k) => a[k] === b[k]);
  // The middle of each cell (geometric with log spacing). Why not the cells' ends: an end is often a
  // round value where costs tie (x = 0 for 2x against x^2), and a tie, given to the first
  // implementation listed, would be taken for the choice of the cells beside it.
  const grid = Array.from({ length: samples }, (_, i) =>
    spacing === "log" ? from * Math.pow(to / from, (i + 0.5) / samples) : from + ((to - from) * (i + 0.5)) / samples,
  );
  // A scan of an input no cost reads (a misspelt name) would report no crossover, as if the choice
  // held over the whole range: refused. When the costs read an input that is not given (the one
  // misspelt, most often), at once, rather than fail at the first point naming a value the user
  // never typed; else once the costs evaluate, so that their own mistakes are named first.
  const reads = prepared.compiled.reads;
  const known = reads === undefined || reads.has(variable) ? undefined : [...reads].sort();
  const unread = known && new AnalysisInputError(`no cost of the assembly reads the input '${variable}'${didYouMean(variable, known)}, so the choice cannot change with it; inputs the costs read: ${known.join(", ") || "none"}`);
  if (unread !== undefined && known!.some((r) => options.inputs?.[r] === undefined)) throw unread;
  // The ends too: a change within half a cell of one is found between it and the nearest middle.
  const points = [from, ...grid, to];
  // A change this close to an end is a tie there (the costs equal at a round value such as 0),
  // not a range of its own.
  const atEnd = 1e-9 * (to - from);
  // The magnitude below which bisection and merging tolerances are absolute: 1, or the range's own
  // magnitude when smaller. Why not 1 alone: over [0, 1e-9] it made crossovers 1e-12 coarse and
  // merged any two closer than 1e-9, which over such a range is every two.
  const unit = Math.min(1, Math.max(Math.abs(from), Math.abs(to)));
  const crossovers: Crossover[] = [];
  const intervals: SelectionInterval[] = [];
  let start = from;
  let left = at(points[0]!);
  if (unread !== undefined) throw unread;
  // The choice over the interval that starts at `start`.
  let current = left;
  const record = (x: number, right: Assignment): void => {
    if (to - x <= atEnd) return;
    if (x - from <= atEnd) {
      current = right;
      return;
    }
    const prev = crossovers[crossovers.length - 1];
    if (prev && Math.abs(prev.at - x) <= 1e-9 * Math.max(unit, Math.abs(x))) {
      // Two components that cross at the same point (up to rounding) make one crossover.
      crossovers[crossovers.length - 1] = { at: prev.at, changes: diff(intervals[intervals.length - 1]!.assignment, right) };
    } else {
      crossovers.push({ at: x, changes: diff(current, right) });
      intervals.push({ from: start, to: x, assignment: current });
      start = x;
    }
    current = right;
  };
  const refine = (a: number, ca: Assignment, b: number, cb: Assignment): void => {
    // Invariant: the choice at a is ca, at b it is cb ≠ ca.
    let lo = a;
    let hi = b;
    for (let k = 0; k < 200 && hi - lo > 1e-12 * Math.max(unit, Math.abs(lo)); k++) {
      const mid = lo + (hi - lo) / 2;
      if (mid === lo || mid === hi) break;
      if (same(at(mid), ca)) lo = mid;
      else hi = mid;
    }
    const right = at(hi);
    record((lo + hi) / 2, right);
    if (!same(right, cb)) refine(hi, right, b, cb);
  };
  for (let i = 1; i < points.length; i++) {
    const c = at(points[i]!);
    if (!same(c, left)) refine(points[i - 1]!, left, points[i]!, c);
    left = c;
  }
  intervals.push({ from: start, to, assignment: current });
  return { variable, crossovers, intervals };
}

function diff(a: Assignment, b: Assignment): { component: string; from: string; to: string }[] {
  return Object.keys(a).filter((c) => a[c] !== b[c]).map((c) => ({ component: c, from: a[c]!, to: b[c]! }));
}
