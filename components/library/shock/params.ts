/**
 * Parameter reading shared by the shock components: checked keys, literal numbers with located
 * errors, expressions of workload variables, and per-element work descriptions.
 *
 * @packageDocumentation
 */
import type { PrepareEnv } from "../../component.js";
import { checkKeys } from "../../documented-params.js";
import type { KernelSpec } from "../../../machine/index.js";
import type { ParamDoc, ParamValueDoc } from "../../../engine/index.js";
import { ScenarioValueError } from "../scenario-value-error.js";

/**
 * Work per element (one double of a patch array) and per pass, as the node model takes it: counts
 * of instructions, which the node retires at its preset's sustained rate (`computeEfficiency` of
 * the peak). The defaults of each component are calibrated, not measured: chosen so the simulated
 * times on the `xeon-2.8ghz-512k` preset (30 % of peak) land in paper 000's ranges (Eq. 1).
 */
export interface ElementWork {
  readonly loads: number;
  readonly stores: number;
  readonly flops: number;
  readonly otherInstructions: number;
  /** Arrays the kernel walks together (inputs, outputs, temporaries of one patch's size). */
  readonly arrays: number;
  /** Passes over the arrays per invocation. */
  readonly passes: number;
  /** Fraction of flops issued as fused multiply-adds. */
  readonly fmaFraction: number;
}

const WORK_KEYS = ["loads", "stores", "flops", "otherInstructions", "arrays", "passes", "fmaFraction"] as const;

/** What each key of a work map means and may hold (per element, a double, and per pass). */
const WORK_LIMITS: Readonly<Record<(typeof WORK_KEYS)[number], { readonly doc: string; readonly integer: boolean; readonly min: number; readonly max?: number }>> = {
  loads: { doc: "Loads per element and pass.", integer: false, min: 0 },
  stores: { doc: "Stores per element and pass.", integer: false, min: 0 },
  flops: { doc: "Floating-point operations per element and pass.", integer: false, min: 0 },
  otherInstructions: { doc: "Other instructions per element and pass.", integer: false, min: 0 },
  arrays: { doc: "Patch-sized arrays the loop walks together (1 to 64).", integer: true, min: 1, max: 64 },
  passes: { doc: "Passes over the arrays per invocation.", integer: true, min: 1 },
  fmaFraction: { doc: "Share of the flops done by fused multiply-adds, in [0, 1].", integer: false, min: 0, max: 1 },
};


/**
 * A literal number parameter.
 * @throws (via env.error) when it is not a finite number in [min, max] (an integer when asked)
 */
export function numberParam(env: PrepareEnv, raw: unknown, where: string, opts: { min?: number; max?: number; integer?: boolean; fallback?: number } = {}): number {
  const v = raw === undefined ? opts.fallback : raw;
  if (typeof v !== "number" || !Number.isFinite(v)) return env.error(where, `must be a number${v === undefined ? " (required)" : `, got ${JSON.stringify(v)}`}`);
  if (opts.integer && !Number.isInteger(v)) env.error(where, `must be an integer, got ${v}`);
  if (opts.min !== undefined && v < opts.min) env.error(where, `must be >= ${opts.min}, got ${v}`);
  if (opts.max !== undefined && v > opts.max) env.error(where, `must be <= ${opts.max}, got ${v}`);
  return v;
}

/** A numeric parameter that may be an expression of workload variables, evaluated once per rank. */
export interface WorkloadNumber {
  /** Evaluates against the workload; throws an Error naming the instance and key when out of range. */
  (workload: Readonly<Record<string, number>>, instance: string): number;
}

/** Compiles a number-or-expression parameter over the workload variables, with a range check at evaluation. */
export function workloadNumber(env: PrepareEnv, raw: unknown, where: string, fallback: number, opts: { min: number; integer?: boolean }): WorkloadNumber {
  const text = raw === undefined ? fallback : raw;
  if (typeof text !== "number" && typeof text !== "string") return env.error(where, `must be a number or an expression of workload variables, got ${JSON.stringify(text)}`);
  if (typeof text === "number") numberParam(env, text, where, opts);
  const names = env.workloadNames;
  const expr = env.compile(text, names, where);
  return (workload, instance) => {
    const scope: Record<string, number> = {};
    for (const n of names) if (n in workload) scope[n] = workload[n];
    const v = expr.evaluate(scope);
    if (!Number.isFinite(v) || v < opts.min || (opts.integer && !Number.isInteger(v))) {
      const problem = `'${String(text)}' evaluates to ${v}; expected ${opts.integer ? "an integer" : "a number"} >= ${opts.min}`;
      // Placed at the parameter's key in the scenario, as the generic components' values are.
      throw new ScenarioValueError(`${instance}.${where}: ${problem}`, where, problem);
    }
    return v;
  };
}

/** An inclusive [min, max] pair of integers >= 1. */
export function rangeParam(env: PrepareEnv, raw: unknown, where: string): { min: number; max: number } {
  if (!Array.isArray(raw) || raw.length !== 2) return env.error(where, `must be [min, max], got ${JSON.stringify(raw)}`);
  const min = numberParam(env, raw[0], `${where}[0]`, { min: 1, integer: true });
  const max = numberParam(env, raw[1], `${where}[1]`, { min: 1, integer: true });
  if (max < min) env.error(where, `max ${max} is below min ${min}`);
  return { min, max };
}

/** Reads a per-element work map over `defaults` (every key optional). */
export function workParam(env: PrepareEnv, raw: unknown, where: string, defaults: ElementWork): ElementWork {
  if (raw === undefined) return defaults;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return env.error(where, `must be a map with keys ${WORK_KEYS.join(", ")}`);
  const p = raw as Record<string, unknown>;
  checkKeys(env, p, WORK_KEYS, "a work description", `${where}.`);
  const out: Record<string, number> = { ...defaults };
  for (const k of WORK_KEYS) {
    if (p[k] === undefined) continue;
    const { integer, min, max } = WORK_LIMITS[k];
    out[k] = numberParam(env, p[k], `${where}.${k}`, { min, integer, max });
  }
  if (out.loads + out.stores < out.arrays) env.error(where, `loads + stores (${out.loads + out.stores}) must be at least arrays (${out.arrays}): every array access is a load or a store`);
  return out as unknown as ElementWork;
}

/**
 * The loops one invocation runs over a patch's arrays, in order, each an {@link ElementWork}. A
 * kernel whose loops keep different numbers of patch-sized arrays live sees each loop's arrays
 * overflow a cache at a different array size, so its strided penalty grows in steps with Q
 * instead of in one jump.
 */
export type LoopWork = readonly ElementWork[];

const LOOP_REQUIRED = ["loads", "stores", "flops", "otherInstructions", "arrays"] as const;

/** The defaults of a loop's keys that {@link LOOP_REQUIRED} leaves out. */
const LOOP_DEFAULTS = { passes: 1, fmaFraction: 0 } as const;

/**
 * The fields of a work map, one per key of {@link WORK_KEYS} with its {@link WORK_LIMITS} (the
 * bounds {@link workParam} checks); `given(k)` says whether key `k` is required (`"required"`),
 * defaults to a value, or may be left out (`undefined`: the map's owner fills it).
 */
function workFields(given: (k: (typeof WORK_KEYS)[number]) => "required" | number | undefined): ParamDoc[] {
  return WORK_KEYS.map((k): ParamDoc => {
    const { doc, integer, min, max } = WORK_LIMITS[k];
    const g = given(k);
    return { name: k, type: integer ? "integer" : "number", doc, min, ...(max !== undefined ? { max } : {}), ...(g === "required" ? {} : g === undefined ? { optional: true } : { default: g }) };
  });
}

/** What each item of a component's `loops` parameter is: a map of the work keys, as {@link loopsParam} reads it. */
const LOOP_ITEM: ParamValueDoc = {
  type: "map",
  fields: workFields((k) => ((LOOP_REQUIRED as readonly string[]).includes(k) ? "required" : LOOP_DEFAULTS[k as keyof typeof LOOP_DEFAULTS])),
};

/**
 * A map of work keys as {@link workParam} reads it (a component's `work`, RK2's `update`): any of
 * them, each within its bounds, no other key; those left out keep the component's own values.
 */
export const WORK_MAP: ParamValueDoc = { type: "map", fields: workFields(() => undefined) };

/**
 * Reads a component's loops: `loops` (a list of work maps; loads, stores, flops,
 * otherInstructions and arrays required, passes 1 and fmaFraction 0 unless given) replaces
 * `defaults`; `work` (a map) then sets its keys in every loop: with one loop any key, with several
 * only `fmaFraction` (the per-element counts of several loops are given as `loops`).
 * @throws (via env.error) for a malformed list or entry, an unknown key, or a value out of range
 */
export function loopsParam(env: PrepareEnv, rawLoops: unknown, rawWork: unknown, defaults: LoopWork): LoopWork {
  let loops = defaults;
  if (rawLoops !== undefined) {
    if (!Array.isArray(rawLoops) || rawLoops.length === 0) return env.error("loops", `must be a non-empty list of maps with keys ${WORK_KEYS.join(", ")}`);
    loops = rawLoops.map((entry, i) => {
      const where = `loops[${i}]`;
      if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return env.error(where, `must be a map with keys ${WORK_KEYS.join(", ")}`);
      const e = entry as Record<string, unknown>;
      checkKeys(env, e, WORK_KEYS, "a loop", `${where}.`);
      for (const k of LOOP_REQUIRED) if (e[k] === undefined) env.error(`${where}.${k}`, `required: a loop states ${LOOP_REQUIRED.join(", ")}`);
      return workParam(env, e, where, { loads: 0, stores: 0, flops: 0, otherInstructions: 0, arrays: 1, ...LOOP_DEFAULTS });
    });
  }
  if (rawWork !== undefined) {
    // Why refused: `work` used to be a component's whole per-element work (one loop); laid over
    // several loops the same numbers would multiply the cost without a word.
    if (loops.length > 1 && typeof rawWork === "object" && rawWork !== null && !Array.isArray(rawWork)) {
      const counts = Object.keys(rawWork).filter((k) => k !== "fmaFraction" && (WORK_KEYS as readonly string[]).includes(k));
      if (counts.length > 0)
        env.error(`work.${counts[0]}`, `this component runs ${loops.length} loops per invocation: give per-loop work (${counts.join(", ")}) as 'loops:' (a list, see ccasim run --help); 'work' sets only what every loop shares (fmaFraction)`);
    }
    loops = loops.map((loop) => workParam(env, rawWork, "work", loop));
  }
  return loops;
}

/** Reusable kernel descriptions of `loops`, one per loop (mutated per call: no allocation). */
export function kernelsFor(loops: LoopWork): KernelSpec[] {
  return loops.map(kernelFor);
}

/** A reusable kernel description for `work` on an array of `doubles` doubles (mutated per call: no allocation). */
export function kernelFor(work: ElementWork): KernelSpec {
  return {
    elements: 0,
    elementSize: 8,
    loads: work.loads,
    stores: work.stores,
    flops: work.flops,
    otherInstructions: work.otherInstructions,
    pattern: "sequential",
    stride: 1,
    passes: work.passes,
    arrays: work.arrays,
    fmaFraction: work.fmaFraction,
  };
}

/** ParamDoc entries of a component's `loops` and `work` parameters. */
export function loopParamDocs(defaults: LoopWork, calibrated: string): ParamDoc[] {
  return [
    {
      name: "loops",
      type: "list",
      items: LOOP_ITEM,
      minItems: 1,
      doc:
        `The loops one invocation runs over the patch's arrays, in order: each {loads, stores, flops, otherInstructions, arrays, passes, fmaFraction} per element (double) and pass ` +
        `(passes 1 and fmaFraction 0 unless given). Defaults ${JSON.stringify(defaults)} are calibrated, not measured: ${calibrated}.`,
      optional: true,
    },
    {
      name: "work",
      ...WORK_MAP,
      doc: "Keys of a loop ({loads, stores, flops, otherInstructions, arrays, passes, fmaFraction}) set in every loop of `loops`, for example {fmaFraction: 0.5}; with several loops fmaFraction only (per-loop counts go in `loops`).",
      optional: true,
    },
  ];
}
