import type { ComponentContext, ComponentType, PrepareEnv } from "../component.js";
import { checkKeys } from "../documented-params.js";
import type { CallArgs, PortType } from "../ports.js";
import { ARG_NAME_ITEM, CALL_ITEM, CallTargets, makeCalls, newScope, nonNumericArgument, prepareCalls, scopeLayout, trackingEnv, usesPorts, alwaysCalledPorts, methodName, RANK_NAMES, type PreparedCall } from "./calls.js";
import { negativeCost, ScenarioValueError } from "./scenario-value-error.js";
import { collectProblem, reportProblems } from "./problems.js";

interface DummyPrepared {
  readonly portName: string;
  readonly portType: PortType;
  readonly method: string;
  readonly args: readonly string[];
  /** Scope layout: args, then workload numbers, then rank, size. */
  readonly scopeNames: readonly string[];
  readonly cost: (scope: ArrayLike<number>) => number;
  readonly implementation: string | undefined;
  readonly implementations: Readonly<Record<string, string>>;
  readonly calls: readonly PreparedCall[];
  readonly order: "cost-first" | "calls-first";
  /** Per argument: whether an expression of the component reads it (text there is refused). */
  readonly readsArg: readonly boolean[];
}

/**
 * Dummy invocations in progress at once on one rank, nested inside one another (calls reaching
 * instances again through the connections). Why a bound per rank, not per instance: each level
 * holds several generator frames on the JavaScript stack, which overflows near 1500 levels, and a
 * cycle through k instances nests k levels per round.
 */
export const MAX_NESTED_CALLS = 256;

/** Nested dummy invocations per rank, per simulation (see {@link MAX_NESTED_CALLS}). */
const nestingBySimulation = new WeakMap<object, Int32Array>();
/** The dummy instances of a simulation, per rank: those in progress more than once form the cycle. */
const instancesBySimulation = new WeakMap<object, DummyInstance[][]>();

/** The per-rank nesting counters of a simulation, shared by all its dummy instances. */
function nestingOf(ctx: ComponentContext): Int32Array {
  let depths = nestingBySimulation.get(ctx.sim);
  if (depths === undefined) nestingBySimulation.set(ctx.sim, (depths = new Int32Array(ctx.size)));
  return depths;
}

/** Registers `inst` among its simulation's instances of its rank. */
function register(inst: DummyInstance): void {
  let all = instancesBySimulation.get(inst.ctx.sim);
  if (all === undefined) instancesBySimulation.set(inst.ctx.sim, (all = Array.from({ length: inst.ctx.size }, () => [])));
  all[inst.ctx.rank]!.push(inst);
}

/**
 * Nesting past {@link MAX_NESTED_CALLS}: the error names the instances reached again while in
 * progress (the cycle), in `cycle`, so that the scenario layer locates it at their connections.
 */
export class NestedTooDeepError extends ScenarioValueError {
  constructor(
    message: string,
    /** Instances in progress more than once on the rank: the cycle the calls go round. */
    readonly cycle: readonly string[],
  ) {
    super(message);
    this.name = "NestedTooDeepError";
  }
}

function nestedTooDeep(inst: DummyInstance): never {
  const { ctx } = inst;
  const cycle = (instancesBySimulation.get(ctx.sim)?.[ctx.rank] ?? []).filter((x) => x.active > 1).map((x) => x.ctx.instance);
  const names = cycle.length > 0 ? cycle : [ctx.instance];
  throw new NestedTooDeepError(
    `${names[0]}: dummy invocations nested more than ${MAX_NESTED_CALLS} deep on rank ${ctx.rank} (the most a rank nests): the connections form a cycle whose call counts do not reach 0 soon enough`,
    names,
  );
}

const KEYS = ["port", "portType", "method", "args", "cost", "implementations", "implementation", "calls", "order"];

/**
 * A component with a known performance model (paper 002 section 5): each invocation of its one
 * method spends `cost` microseconds (an expression of its arguments and the workload), then makes
 * the listed calls on its uses ports. With `implementations`, the cost is the chosen
 * implementation's expression, so A1/A2 or B1/B2 are one scenario key apart.
 */
export const dummyComponent: ComponentType<DummyPrepared> = {
  name: "dummy",
  summary: "component with a known cost model: spends `cost` microseconds, then calls its uses ports",
  params: [
    { name: "port", type: "string", doc: "Name of the provides port.", default: "work" },
    { name: "portType", type: "string", doc: "Port type name; connections need equal types.", default: "Work" },
    { name: "method", type: "string", doc: "Method name.", default: "run" },
    { name: "args", type: "list", items: ARG_NAME_ITEM, doc: "Argument names of the method.", default: ["x"] },
    { name: "cost", type: "expression", doc: "Microseconds per invocation, an expression of the arguments, workload variables, rank and size.", optional: true },
    { name: "implementations", type: "map", entries: { type: "expression", doc: "Microseconds per invocation of this implementation, as `cost`." }, doc: "Map of implementation name to cost expression.", optional: true },
    { name: "implementation", type: "string", doc: "Which entry of `implementations` this instance runs.", optional: true },
    { name: "calls", type: "list", items: CALL_ITEM, doc: `Calls made per invocation: list of {port, method, portType, args: {name: expression, or quoted text such as "'y'"}, count}. A call may reach this instance again through the connections (recursion, ended by a count that reaches 0), at most ${MAX_NESTED_CALLS} dummy invocations nested on a rank.`, optional: true },
    { name: "order", type: "enum", values: ["cost-first", "calls-first"], doc: "Whether own work comes before or after the calls.", default: "cost-first" },
  ],
  prepare(p, outer) {
    checkKeys(outer, p, KEYS, "a dummy component");
    // The names its expressions read: text passed to an argument they read is refused.
    const used = new Set<string>();
    const env = trackingEnv(outer, used);
    const args = p.args === undefined ? ["x"] : p.args;
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) env.error("args", "must be a list of argument names");
    // Arguments shadow workload variables of the same name; rank and size are reserved.
    const scopeNames = scopeLayout(args as string[], env.workloadNames);
    const impls = (p.implementations ?? {}) as Record<string, string>;
    if (typeof impls !== "object" || Array.isArray(impls)) env.error("implementations", "must map implementation names to cost expressions");
    const implementation = p.implementation === undefined ? undefined : String(p.implementation);
    // The parameters' problems are reported together (when the scenario can combine them).
    const problems: unknown[] = [];
    let costText: unknown = p.cost;
    if (implementation !== undefined) {
      if (!(implementation in impls))
        collectProblem(env, problems, () => env.error("implementation", `'${implementation}' is not one of the implementations: ${Object.keys(impls).join(", ") || "(none given)"}`));
      if (p.cost !== undefined) collectProblem(env, problems, () => env.error("cost", "give either cost or implementation, not both"));
      costText = impls[implementation];
    } else if (Object.keys(impls).length > 0) {
      // A cost beside implementations would silently win over every one of them.
      if (costText !== undefined)
        collectProblem(env, problems, () => env.error("cost", `give one of cost or implementations, not both: drop cost, or drop implementations (${Object.keys(impls).join(", ")})`));
      collectProblem(env, problems, () => env.error("implementation", `choose one of the implementations: ${Object.keys(impls).join(", ")}`));
    }
    // Every implementation's model must compile, even the ones not chosen (selection uses them);
    // the chosen one is reported once, at its implementation.
    for (const [name, text] of Object.entries(impls)) if (name !== implementation) collectProblem(env, problems, () => env.compile(text, scopeNames, `implementations.${name}`));
    let cost: (scope: ArrayLike<number>) => number = () => 0;
    if (costText !== undefined) collectProblem(env, problems, () => (cost = env.compile(costText as string, scopeNames, implementation ? `implementations.${implementation}` : "cost").bind(scopeNames)));
    const calls = prepareCalls(p.calls, scopeNames, env, [...(args as string[]), ...RANK_NAMES], problems);
    let method = "run";
    collectProblem(env, problems, () => (method = methodName(env, p.method, "method", "run")));
    reportProblems(env, problems);
    const portType: PortType = { name: p.portType === undefined ? "Work" : String(p.portType), methods: [{ name: method, args: args as string[] }] };
    return {
      portName: p.port === undefined ? "work" : String(p.port),
      portType,
      method,
      args: args as string[],
      scopeNames,
      cost,
      implementation,
      implementations: impls,
      calls,
      order: p.order === "calls-first" ? "calls-first" : "cost-first",
      readsArg: (args as string[]).map((a) => used.has(a)),
    };
  },
  ports(d) {
    return { provides: { [d.portName]: d.portType }, uses: usesPorts(d.calls) };
  },
  alwaysCalls(d) {
    return alwaysCalledPorts(d.calls);
  },
  create(ctx, d) {
    const inst: DummyInstance = { d, ctx, scope: newScope(d.scopeNames, ctx), targets: new CallTargets(d.calls, ctx), active: 0, nesting: nestingOf(ctx) };
    register(inst);
    return { provides: { [d.portName]: { [d.method]: (callArgs) => runDummy(inst, callArgs) } } };
  },
};

/** One rank's instance of a dummy component. */
interface DummyInstance {
  readonly d: DummyPrepared;
  readonly ctx: ComponentContext;
  readonly scope: Float64Array;
  readonly targets: CallTargets;
  /** Calls of this instance in progress (re-entrancy). */
  active: number;
  /** Nested dummy invocations per rank in this simulation (shared by the instances). */
  readonly nesting: Int32Array;
}

// One generator function for all instances (not a closure per instance): generator objects of one
// function share a hidden class, which keeps `yield*` and `next` lookups monomorphic on many ranks.
function* runDummy(inst: DummyInstance, callArgs: CallArgs) {
  const { d, ctx, scope, targets } = inst;
  const rank = ctx.rank;
  if (inst.nesting[rank] >= MAX_NESTED_CALLS) nestedTooDeep(inst);
  inst.nesting[rank]++;
  // A re-entrant call (this instance reached again through its own calls) would overwrite
  // the scope the outer call still needs: only then take a private copy.
  const own = inst.active++ === 0 ? scope : new Float64Array(scope.length);
  if (own !== scope) own.set(scope);
  const nArgs = d.args.length;
  for (let a = 0; a < nArgs; a++) {
    const v = callArgs[d.args[a]];
    own[a] = typeof v === "number" ? v : nonNumericArgument(ctx.instance, d.args[a], v, d.readsArg[a]!);
  }
  const calls = d.calls.length > 0; // no generator for an empty call list
  if (calls && d.order === "calls-first") yield* makeCalls(targets, own);
  const us = d.cost(own);
  if (us > 0) yield ctx.delay(us);
  else if (!(us >= 0)) negativeCost(ctx.instance, d.implementation === undefined ? "cost" : `implementations.${d.implementation}`, us, "");
  if (calls && d.order === "cost-first") yield* makeCalls(targets, own);
  inst.active--;
  inst.nesting[rank]--;
  return us;
}

export type { DummyPrepared };
export type { PrepareEnv };
