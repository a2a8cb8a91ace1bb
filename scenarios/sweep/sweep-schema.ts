import { s, type Schema } from "../lang/index.js";

/**
 * A value an axis takes or `set:` fixes: a number, a YAML scalar string such as `256KiB` or `A2`,
 * true or false, or, for a scenario key that takes one, a list or a map as written (`metrics:
 * [TIME, PAPI_L2_TCM]`, `outputs.records: []`).
 */
export type AxisValue = number | string | boolean | StructuredValue;

/** A list or map value of a sweep key (see {@link AxisValue}), as YAML gives it. */
export type StructuredValue = readonly AxisValue[] | { readonly [key: string]: AxisValue };

/** `{from, to, step}`: arithmetic range, both ends included when `to` is reached exactly. */
export interface StepRange {
  readonly from: number | string;
  readonly to: number | string;
  readonly step: number | string;
  /** Round every value to an integer, dropping repeats (element counts, sizes in bytes). */
  readonly integer?: boolean;
}

/** `{from, to, points, log: true}` (geometric, `points` values) or `{from, to, factor}` (multiply by `factor`). */
export interface LogRange {
  readonly from: number | string;
  readonly to: number | string;
  readonly points?: number;
  readonly factor?: number;
  readonly log?: boolean;
  /** Round every value to an integer, dropping repeats (element counts, sizes in bytes). */
  readonly integer?: boolean;
}

/** One axis: a list of values or a range. */
export type AxisSpec = readonly AxisValue[] | StepRange | LogRange;

/** A distribution of the random design. */
export type Distribution =
  | { readonly uniform: readonly [number | string, number | string]; readonly integer?: boolean }
  | { readonly loguniform: readonly [number | string, number | string]; readonly integer?: boolean }
  | { readonly choice: readonly AxisValue[] };

/** How a sweep's points get their seeds (see {@link SweepConfig.seeds}). */
export type SeedMode = "common" | "per-point";

/** The `sweep:` file as validated (before expansion). */
export interface SweepConfig {
  /** Path of the scenario file (relative to the sweep file) or the scenario itself, inline. */
  readonly scenario: string | Readonly<Record<string, unknown>>;
  /** Study name (default: the sweep file's base name). */
  readonly name?: string;
  /** Study seed: every point's seed derives from it and the point. */
  readonly seed: number;
  /**
   * How points get their seeds: `common` (every point of a replication runs with the same seed,
   * so the points see the same random workload and differ by their axis values alone: common
   * random numbers) or `per-point` (each point its own seed).
   */
  readonly seeds: SeedMode;
  /** Runs of every point with different seeds. */
  readonly replications: number;
  /** Full-factorial axes: scenario key path -> values. */
  readonly axes: Readonly<Record<string, AxisSpec>>;
  /** Zipped axes: each group's lists have one length and advance together. */
  readonly zip: readonly Readonly<Record<string, readonly AxisValue[]>>[];
  /** Random design: `n` samples of per-axis distributions (crossed with the other axes). */
  readonly random?: { readonly n: number; readonly axes: Readonly<Record<string, Distribution>> };
  /** Fixed overrides applied to every point (as `--set`). */
  readonly set: Readonly<Record<string, AxisValue>>;
}

/** A name in a key: letters, digits, `_` and `-`, then a cost function's parameters in parentheses if any (`Stencil(a, b)`). */
const KEY_NAME = "[A-Za-z0-9_-]+(\\([^()=.\\[\\]]*\\))?(\\[\\d+\\])*";
/**
 * A scenario key as `--set` reads it (`machine.l2.size`, `assembly.connections[4]`): names
 * separated by dots, each followed by any `[i]` indices, the first starting with a letter or `_`;
 * a cost function with parameters is a key as the file writes it (`program.functions.Stencil(a, b)`).
 */
const KEY_PATTERN = `^(?=[A-Za-z_])${KEY_NAME}(\\.${KEY_NAME})*$`;
/** {@link KEY_PATTERN} in words. */
const KEY_RULE = "a scenario key as --set reads it: names of letters, digits, _ and - separated by dots, each with any [i] indices (a cost function's with its parameters in parentheses), the first starting with a letter or _ (machine.l2.size, assembly.connections[0], program.functions.F(a, b))";
// (A list or map is checked against the scenario's schema at its key when the sweep is read.)
const value = s.union([s.number(), s.string(), s.boolean(), s.array(s.any()), s.record(s.any())], {
  doc: "a number, a quantity such as 256KiB, a name, or a list or map for a key that takes one",
});
const bound = s.union([s.number(), s.string()], { doc: "a number or a quantity such as 128KiB" });

/** The schema of sweep files (validated with located errors; `toJsonSchema(sweepSchema())` gives JSON Schema). */
export function sweepSchema(): Schema {
  const integer = s.optional(s.boolean({ doc: "round every value to an integer, dropping repeats (counts, sizes in bytes)" }));
  const stepRange = s.object({ from: bound, to: bound, step: bound, integer }, { doc: "arithmetic range from..to by step" });
  const logRange = s.object(
    {
      from: bound,
      to: bound,
      points: s.optional(s.integer({ min: 2, doc: "number of values, spaced evenly on a log scale" })),
      factor: s.optional(s.number({ min: 1, doc: "ratio between successive values (e.g. 2)" })),
      log: s.optional(s.boolean({ doc: "true: geometric spacing" })),
      integer,
    },
    { doc: "geometric range: {from, to, points, log: true} or {from, to, factor}" },
  );
  const axis = s.union([s.array(value, { minItems: 1 }), stepRange, logRange], { doc: "a list of values or a range" });
  const pair = s.array(bound, { minItems: 2, maxItems: 2 });
  const distribution = s.union(
    [
      s.object({ uniform: pair, integer: s.optional(s.boolean()) }, { doc: "uniform between two bounds" }),
      s.object({ loguniform: pair, integer: s.optional(s.boolean()) }, { doc: "log-uniform between two positive bounds" }),
      s.object({ choice: s.array(value, { minItems: 1 }) }, { doc: "one of the listed values, equally likely" }),
    ],
    { doc: "a distribution: {uniform: [a, b]}, {loguniform: [a, b]} or {choice: [...]}" },
  );
  return s.object(
    {
      scenario: s.union([s.string(), s.record(s.any())], { doc: "scenario file (relative to this file) or the scenario inline" }),
      name: s.optional(s.string({ pattern: "^[A-Za-z_][A-Za-z0-9_.-]*$", shape: "a name of letters, digits, _, . or - (not starting with a digit, . or -)", doc: "study name" })),
      seed: s.optional(s.integer({ min: 0, max: 2 ** 31 - 1, doc: "study seed; every point's seed derives from it" }), 1),
      seeds: s.optional(
        s.enumOf(["common", "per-point"], {
          doc: "common (default): every point of a replication runs with the same seed, so all points see the same random workload (common random numbers); per-point: each point its own seed",
        }),
        "common",
      ),
      replications: s.optional(s.integer({ min: 1, doc: "runs of each point, each with its own seed" }), 1),
      axes: s.optional(s.record(axis, { keyPattern: KEY_PATTERN, keyRule: KEY_RULE, doc: "full-factorial axes: scenario key -> values" }), {}),
      zip: s.optional(s.array(s.record(s.array(value, { minItems: 1 }), { keyPattern: KEY_PATTERN, keyRule: KEY_RULE })), []),
      random: s.optional(
        s.object({
          n: s.integer({ min: 1, doc: "number of samples" }),
          axes: s.record(distribution, { keyPattern: KEY_PATTERN, keyRule: KEY_RULE }),
        }),
      ),
      set: s.optional(s.record(value, { keyPattern: KEY_PATTERN, keyRule: KEY_RULE, doc: "fixed overrides for every point" }), {}),
    },
    { required: ["scenario"], doc: "A parameter sweep over a scenario" },
  );
}
