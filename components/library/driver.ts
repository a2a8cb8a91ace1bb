import type { ComponentContext, ComponentType } from "../component.js";
import { checkKeys } from "../documented-params.js";
import type { PortType } from "../ports.js";
import { CALL_ITEM, CallTargets, makeCalls, newScope, prepareCalls, RANK_NAMES, scopeLayout, usesPorts, type PreparedCall } from "./calls.js";
import { negativeCost } from "./scenario-value-error.js";
import { checkCountAtLoad, runCount } from "./counts.js";
import { collectProblem, reportProblems } from "./problems.js";

interface DriverPrepared {
  readonly scopeNames: readonly string[];
  readonly iterations: (scope: ArrayLike<number>) => number;
  readonly cost: (scope: ArrayLike<number>) => number;
  readonly calls: readonly PreparedCall[];
}

/** The port type drivers provide: the entry point each rank calls. */
export const GO_PORT: PortType = { name: "Go", methods: [{ name: "go", args: [] }] };

const KEYS = ["iterations", "cost", "calls"];

/**
 * The driver of an assembly (the `ShockDriver`/`Driver` of the papers, generic form): runs
 * `iterations` iterations, each spending `cost` microseconds and making the listed calls, with the
 * iteration number `i` (from 0) visible to expressions.
 */
export const driverComponent: ComponentType<DriverPrepared> = {
  name: "driver",
  summary: "entry point: loops `iterations` times over its calls",
  params: [
    { name: "iterations", type: "expression", doc: "Number of iterations, a whole number, 0 or more (expression of workload variables, rank, size).", default: 1 },
    { name: "cost", type: "expression", doc: "Own microseconds per iteration (may use i).", default: 0 },
    { name: "calls", type: "list", items: CALL_ITEM, doc: "Calls per iteration: list of {port, method, portType, args: {name: expression, or quoted text such as \"'y'\"}, count (calls per iteration, a whole number, 0 or more; default 1)}.", optional: true },
  ],
  prepare(p, env) {
    checkKeys(env, p, KEYS, "a driver");
    const scopeNames = scopeLayout([], env.workloadNames, ["i"]);
    const iterations = env.compile((p.iterations as string | number | undefined) ?? 1, scopeNames.slice(0, -1), "iterations");
    const cost = env.compile((p.cost as string | number | undefined) ?? 0, scopeNames, "cost").bind(scopeNames);
    // The counts' problems, the iterations' and the calls', reported together.
    const problems: unknown[] = [];
    collectProblem(env, problems, () => checkCountAtLoad(env, iterations, "iterations", RANK_NAMES));
    const calls = prepareCalls(p.calls, scopeNames, env, [...RANK_NAMES, "i"], problems);
    reportProblems(env, problems);
    return { scopeNames, iterations: iterations.bind(scopeNames), cost, calls };
  },
  ports(d) {
    return { provides: { go: GO_PORT }, uses: usesPorts(d.calls) };
  },
  create(ctx, d) {
    const inst: DriverInstance = { d, ctx, scope: newScope(d.scopeNames, ctx), targets: new CallTargets(d.calls, ctx) };
    return { provides: { go: { go: () => goDriver(inst) } } };
  },
};

/** One rank's instance of a driver. */
interface DriverInstance {
  readonly d: DriverPrepared;
  readonly ctx: ComponentContext;
  readonly scope: Float64Array;
  readonly targets: CallTargets;
}

// One generator function for all instances: see runDummy in dummy.ts.
function* goDriver(inst: DriverInstance) {
  const { d, ctx, scope, targets } = inst;
  const n = d.scopeNames.length;
  // As the dummy's cost: a negative, fractional or undefined count is a mistake in the scenario.
  const iterations = runCount(d.iterations(scope), ctx.instance, "iterations");
  for (let i = 0; i < iterations; i++) {
    scope[n - 1] = i;
    const us = d.cost(scope);
    if (us > 0) yield ctx.delay(us);
    else if (!(us >= 0)) negativeCost(ctx.instance, "cost", us, ` in iteration ${i}`);
    yield* makeCalls(targets, scope);
  }
  return iterations;
}
