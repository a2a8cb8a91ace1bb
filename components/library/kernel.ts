import type { ComponentContext, ComponentType, KernelSpec, PrepareEnv } from "../component.js";
import { checkKeys } from "../documented-params.js";
import { MachineInputError, checkKernelValues, squarePatchStride } from "../../machine/index.js";
import type { CallArgs, PortType } from "../ports.js";
import { ARG_NAME_ITEM, CALL_ITEM, CallTargets, makeCalls, newScope, nonNumericArgument, prepareCalls, scopeLayout, trackingEnv, usesPorts, alwaysCalledPorts, methodName, RANK_NAMES, type PreparedCall } from "./calls.js";
import { ScenarioValueError } from "./scenario-value-error.js";
import { wholeCount, workloadConstant } from "./counts.js";
import { collectProblem, reportProblems } from "./problems.js";

type Fn = (scope: ArrayLike<number>) => number;

interface KernelPrepared {
  /** Per numeric argument: whether an expression of the kernel reads it (text there is refused). */
  readonly readsArg: readonly boolean[];
  readonly portName: string;
  readonly portType: PortType;
  readonly method: string;
  readonly args: readonly string[];
  /** Scope layout: numeric arguments, then workload numbers, then rank, size. */
  readonly scopeNames: readonly string[];
  readonly numericArgs: number;
  readonly elements: Fn;
  readonly elementSize: Fn;
  readonly loads: Fn;
  readonly stores: Fn;
  readonly flops: Fn;
  readonly otherInstructions: Fn;
  /** Share of the flops done as fused multiply-adds, or undefined for none. */
  readonly fmaFraction: Fn | undefined;
  readonly passes: Fn;
  readonly arrays: Fn;
  /** The stride expression, or undefined for the default: the row length of a square patch of the elements. */
  readonly stride: Fn | undefined;
  /** Floating-point loads per element, or undefined for the node model's default (all loads of a kernel with flops). */
  readonly floatLoads: Fn | undefined;
  /** Fixed pattern, or the name of the string argument that selects one through `patterns`. */
  readonly pattern: KernelSpec["pattern"] | undefined;
  readonly patternArg: string | undefined;
  readonly patterns: Readonly<Record<string, KernelSpec["pattern"]>>;
  readonly calls: readonly PreparedCall[];
  /** The text of each count's expression (elements, elementSize, passes, arrays, stride), for messages. */
  readonly countTexts: Readonly<Record<CountKey, string>>;
}

/** The kernel quantities that count whole things: elements, bytes of one, passes, arrays, a stride in elements. */
const COUNT_KEY_LIST = ["elements", "elementSize", "passes", "arrays", "stride"] as const;
type CountKey = (typeof COUNT_KEY_LIST)[number];
/** The kernel keys that count (whole numbers), as a set for the load-time checks. */
const COUNT_KEYS: ReadonlySet<string> = new Set<string>(COUNT_KEY_LIST);

const KEYS = [
  "port", "portType", "method", "args", "elements", "elementSize", "loads", "stores", "flops",
  "otherInstructions", "fmaFraction", "floatLoads", "passes", "arrays", "stride", "pattern", "patternArg", "patterns", "calls",
];
const PATTERNS = ["sequential", "strided", "random"] as const;

/**
 * A component whose method runs a described compute kernel on the node model: per element loads,
 * stores, flops and other instructions over `elements` elements (Q), in a sequential, strided or
 * random order. Every field is an expression of the method's arguments and the workload, so one
 * component can model "X-derivative sequential, Y-derivative strided by the row length" with
 * `patternArg: direction` and `patterns: { x: sequential, y: strided }`.
 */
export const kernelComponent: ComponentType<KernelPrepared> = {
  name: "kernel",
  summary: "runs a described compute kernel (sequential/strided/random over Q elements) on the node model",
  params: [
    { name: "port", type: "string", doc: "Name of the provides port.", default: "compute" },
    { name: "portType", type: "string", doc: "Port type name.", default: "Kernel" },
    { name: "method", type: "string", doc: "Method name.", default: "compute" },
    { name: "args", type: "list", items: ARG_NAME_ITEM, doc: "Argument names of the method.", default: ["Q"] },
    { name: "elements", type: "expression", doc: "Elements per array (Q).", default: "Q" },
    { name: "elementSize", type: "expression", doc: "Bytes per element (an integer >= 1, no unit; the arrays at most 2^50 bytes in all). An access touches the element's first byte only, once per element and array (further loads and stores hit the L1): an element larger than a cache sector (ccasim presets <name> lists each level's) costs one sector fill per access, as reading one field of each struct. For a sequential sweep over whole structs of E bytes, give E/8 times as many 8-byte elements and divide the per-element loads, stores and flops by E/8.", default: 8 },
    { name: "loads", type: "expression", doc: "Loads per element.", default: 1 },
    { name: "stores", type: "expression", doc: "Stores per element.", default: 1 },
    { name: "flops", type: "expression", doc: "Floating-point operations per element.", default: 1 },
    { name: "otherInstructions", type: "expression", doc: "Other instructions per element.", default: 1 },
    {
      name: "fmaFraction",
      type: "expression",
      doc: "Share of the flops done by fused multiply-adds, in [0, 1] (default 0): an FMA is two flops in one instruction, so FP_OPS_RETIRED and PAPI_FP_OPS count it twice, PAPI_FP_INS and the instructions once.",
      optional: true,
    },
    {
      name: "floatLoads",
      type: "expression",
      doc: "Loads per element that read floating-point data (at most loads); default: all loads when flops > 0, else none. They bypass an L1 that serves integer loads only (Itanium 2).",
      optional: true,
    },
    { name: "passes", type: "expression", doc: "Passes over the arrays.", default: 1 },
    { name: "arrays", type: "expression", doc: "Arrays walked together (1 to 64).", default: 1 },
    { name: "stride", type: "expression", doc: "Stride in elements for the strided pattern; default: the row length of a square patch of the elements, ceil(sqrt(elements)).", optional: true },
    { name: "pattern", type: "enum", values: PATTERNS, doc: "Access pattern (unless patternArg selects one).", default: "sequential" },
    { name: "patternArg", type: "string", doc: "An argument whose text picks the pattern from `patterns` (a caller passes text quoted: dir: \"'y'\").", optional: true },
    { name: "patterns", type: "map", entries: { type: "enum", values: PATTERNS }, doc: "Map of argument value to pattern, with patternArg.", optional: true },
    { name: "calls", type: "list", items: CALL_ITEM, doc: "Calls made after the kernel (as for dummy components).", optional: true },
  ],
  prepare(p, outer) {
    checkKeys(outer, p, KEYS, "a kernel component");
    // The names its expressions read: text passed to a numeric argument they read is refused.
    const used = new Set<string>();
    const env = trackingEnv(outer, used);
    const args = (p.args ?? ["Q"]) as string[];
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) env.error("args", "must be a list of argument names");
    const numericArgs = args.filter((a) => a !== p.patternArg);
    const scopeNames = scopeLayout(numericArgs, env.workloadNames, [], args);
    const expr = (key: string, dflt: string | number): Fn =>
      env.compile((p[key] as string | number | undefined) ?? dflt, scopeNames, key).bind(scopeNames);
    const patterns = (p.patterns ?? {}) as Record<string, string>;
    // A list or a scalar would be read by index or as no entries at all.
    if (typeof patterns !== "object" || Array.isArray(patterns)) env.error("patterns", `must map values of the pattern argument to patterns (${PATTERNS.join(", ")}), got ${JSON.stringify(patterns)}`);
    for (const [k, v] of Object.entries(patterns))
      if (!(PATTERNS as readonly string[]).includes(v)) env.error(`patterns.${k}`, `'${v}' is not a pattern; use ${PATTERNS.join(", ")}`);
    const patternArg = p.patternArg === undefined ? undefined : String(p.patternArg);
    if (patternArg !== undefined && !args.includes(patternArg)) env.error("patternArg", `'${patternArg}' is not one of the arguments ${args.join(", ")}`);
    if (patternArg !== undefined && Object.keys(patterns).length === 0) env.error("patterns", "give the pattern of each value of the pattern argument");
    const pattern = p.pattern === undefined ? "sequential" : String(p.pattern);
    if (!(PATTERNS as readonly string[]).includes(pattern)) env.error("pattern", `'${pattern}' is not a pattern; use ${PATTERNS.join(", ")}`);
    const method = methodName(env, p.method, "method", "compute");
    // Constant quantities are checked here, at load (ccasim validate), as a run would check them.
    // (The stride only where some call may be strided: the other patterns ignore it.)
    const mayStride = patternArg === undefined ? pattern === "strided" : Object.values(patterns).includes("strided");
    // The node model's own rules (checkKernelValues), on the values written as constants (a
    // default counts as written) or as expressions of workload values alone (`elementSize: ES`):
    // each key alone, then the rules joining two keys when each passed.
    // Every key's problem is reported, not only the first (when the scenario can combine them).
    const constants: Partial<Record<(typeof KERNEL_COUNTS)[number], number>> = {};
    const problems: unknown[] = [];
    for (const [key, dflt] of KERNEL_COUNTS_DEFAULTS) {
      if (key === "stride" && !mayStride) continue;
      const given = p[key] ?? dflt;
      collectProblem(outer, problems, () => {
        let v = constantOf(given);
        let note = "";
        if (v === undefined && typeof given === "string") {
          const fromWorkload = workloadConstant(outer, outer.compile(given, scopeNames, key), [...args, ...RANK_NAMES], key);
          if (fromWorkload !== undefined) [v, note] = fromWorkload;
        }
        if (v === undefined) return;
        // A count within rounding of a whole number is that number, as in the run (kernelCount).
        const whole = COUNT_KEYS.has(key) ? wholeCount(v) : Number.NaN;
        const value = Number.isNaN(whole) ? v : whole;
        if (checked(env, key, () => checkKernelValues(key === "stride" ? { pattern: "strided", stride: value } : { [key]: value }), note)) constants[key] = value;
      });
    }
    reportProblems(outer, problems);
    checked(env, "floatLoads", () => checkKernelValues(constants));
    return {
      portName: p.port === undefined ? "compute" : String(p.port),
      portType: { name: p.portType === undefined ? "Kernel" : String(p.portType), methods: [{ name: method, args }] },
      method,
      args,
      scopeNames,
      numericArgs: numericArgs.length,
      elements: expr("elements", "Q"),
      elementSize: expr("elementSize", 8),
      loads: expr("loads", 1),
      stores: expr("stores", 1),
      flops: expr("flops", 1),
      otherInstructions: expr("otherInstructions", 1),
      fmaFraction: p.fmaFraction === undefined ? undefined : expr("fmaFraction", 0),
      passes: expr("passes", 1),
      arrays: expr("arrays", 1),
      stride: p.stride === undefined ? undefined : expr("stride", 1),
      floatLoads: p.floatLoads === undefined ? undefined : expr("floatLoads", 0),
      pattern: patternArg === undefined ? (pattern as KernelSpec["pattern"]) : undefined,
      patternArg,
      patterns: patterns as Record<string, KernelSpec["pattern"]>,
      calls: prepareCalls(p.calls, scopeNames, env, [...args, ...RANK_NAMES]),
      readsArg: numericArgs.map((a) => used.has(a)),
      countTexts: { elements: String(p.elements ?? "Q"), elementSize: String(p.elementSize ?? 8), passes: String(p.passes ?? 1), arrays: String(p.arrays ?? 1), stride: String(p.stride ?? "") },
    };
  },
  ports(d) {
    return { provides: { [d.portName]: d.portType }, uses: usesPorts(d.calls) };
  },
  alwaysCalls(d) {
    return alwaysCalledPorts(d.calls);
  },
  create(ctx, d) {
    const inst: KernelInstance = { d, ctx, scope: newScope(d.scopeNames, ctx), targets: new CallTargets(d.calls, ctx) };
    return { provides: { [d.portName]: { [d.method]: (callArgs) => computeKernel(inst, callArgs) } } };
  },
};

/** The kernel's counts and sizes, with the default each takes when left out (undefined: none). */
const KERNEL_COUNTS_DEFAULTS = [
  ["elements", undefined],
  ["elementSize", 8],
  ["loads", 1],
  ["stores", 1],
  ["flops", 1],
  ["otherInstructions", 1],
  ["fmaFraction", undefined],
  ["floatLoads", undefined],
  ["passes", 1],
  ["arrays", 1],
  ["stride", undefined],
] as const;
const KERNEL_COUNTS = KERNEL_COUNTS_DEFAULTS.map(([key]) => key);

/**
 * Runs a check of the node model's; a MachineInputError it throws becomes the component's error
 * at `key` (the error's key names the rule that failed when two keys conflict), its problem
 * followed by `note`. Returns whether it passed.
 */
function checked(env: { error(key: string, message: string): void }, key: string, check: () => void, note = ""): boolean {
  try {
    check();
    return true;
  } catch (e) {
    if (!(e instanceof MachineInputError)) throw e;
    env.error(e.key.startsWith("kernel.") ? e.key.slice("kernel.".length) : key, e.problem + note);
    return false;
  }
}

/** The value of a parameter written as a number (or the text of one), else undefined (an expression). */
function constantOf(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v !== "string" || v.trim() === "") return undefined;
  const n = Number(v.trim());
  return Number.isNaN(n) ? undefined : n;
}

/** One rank's instance of a kernel component. */
interface KernelInstance {
  readonly d: KernelPrepared;
  readonly ctx: ComponentContext;
  readonly scope: Float64Array;
  readonly targets: CallTargets;
}

// One generator function for all instances (not a closure per instance): generator objects of one
// function share a hidden class, which keeps `yield*` and `next` lookups monomorphic on many ranks.
function* computeKernel(inst: KernelInstance, callArgs: CallArgs) {
  const { d, ctx, scope, targets } = inst;
  const nNum = d.numericArgs;
  for (let a = 0; a < nNum; a++) {
    const v = callArgs[d.scopeNames[a]];
    scope[a] = typeof v === "number" ? v : typeof v === "object" && v !== null ? v.length : nonNumericArgument(ctx.instance, d.scopeNames[a], v, d.readsArg[a]!);
  }
  let pattern = d.pattern;
  if (pattern === undefined) {
    const sel = String(callArgs[d.patternArg!]);
    pattern = d.patterns[sel];
    if (pattern === undefined) throw new ScenarioValueError(`${ctx.instance}: no pattern for ${d.patternArg} = '${sel}'; known: ${Object.keys(d.patterns).join(", ")}`);
  }
  const elements = kernelCount(inst, "elements", d.elements(scope), 0);
  // Counts are neither rounded nor clamped: a fraction or an out-of-range value (a stride or
  // arrays of 0) is refused, naming the key and the expression, rather than silently replaced.
  const spec: KernelSpec = {
    elements,
    elementSize: kernelCount(inst, "elementSize", d.elementSize(scope), 1),
    loads: d.loads(scope),
    stores: d.stores(scope),
    flops: d.flops(scope),
    otherInstructions: d.otherInstructions(scope),
    pattern,
    stride: pattern !== "strided" ? undefined : d.stride === undefined ? squarePatchStride(elements) : kernelCount(inst, "stride", d.stride(scope), 1),
    passes: kernelCount(inst, "passes", d.passes(scope), 0),
    arrays: kernelCount(inst, "arrays", d.arrays(scope), 1),
    // Always present (undefined for the default): every kernel object has one shape.
    floatLoads: d.floatLoads === undefined ? undefined : d.floatLoads(scope),
    fmaFraction: d.fmaFraction === undefined ? undefined : d.fmaFraction(scope),
  };
  let priced;
  try {
    priced = ctx.compute(spec);
  } catch (e) {
    throw atKernelKey(ctx.instance, e);
  }
  yield priced;
  if (d.calls.length > 0) yield* makeCalls(targets, Float64Array.from(scope));
  return spec.elements;
}

/**
 * A kernel the node model refuses (`kernel.loads: expected ...`) as the error of this component's
 * parameter of that name, which the scenario places at its key; other errors as they are.
 */
function atKernelKey(instance: string, e: unknown): unknown {
  if (!(e instanceof MachineInputError) || !e.key.startsWith("kernel.")) return e;
  return new ScenarioValueError(`${instance}: ${e.message}`, e.key.slice("kernel.".length), e.problem);
}

/**
 * `v` as a whole number of at least `min` (within rounding of one, as every count: `0.1 * 30` is
 * 3); else the error that names the component, the kernel key and the expression with the values
 * it read (`elements: "Q" with Q = 1000.5`).
 */
function kernelCount(inst: KernelInstance, key: CountKey, v: number, min: number): number {
  const n = wholeCount(v);
  if (Number.isSafeInteger(n) && n >= min) return n;
  const text = inst.d.countTexts[key];
  const names = inst.d.scopeNames;
  const read = names.filter((n) => new RegExp(`\\b${n}\\b`).test(text)).map((n) => `${n} = ${inst.scope[names.indexOf(n)]}`);
  const problem = `expected an integer >= ${min}, got ${v} (${key}: ${JSON.stringify(text)}${read.length > 0 ? ` with ${read.join(", ")}` : ""})`;
  throw new ScenarioValueError(`${inst.ctx.instance}: kernel.${key}: ${problem}`, key, problem);
}
