import { didYouMean, type ParamDoc, type ParamValueDoc } from "../../engine/index.js";
import { ScenarioValueError } from "./scenario-value-error.js";
import { checkCountAtLoad, runCount, wholeCount } from "./counts.js";
import { collectProblem, reportProblems } from "./problems.js";
import type { ComponentContext, CostExpression, PortHandle, PortMethod, PrepareEnv } from "../component.js";
import type { PortType } from "../ports.js";

/** One outgoing call a generic component makes per invocation. */
export interface PreparedCall {
  /** Uses port name. */
  readonly port: string;
  readonly portType: PortType;
  readonly method: string;
  /** Argument name -> expression over the caller's scope, or a text constant (a quoted literal such as `'y'`). */
  readonly args: ReadonlyArray<readonly [string, ((scope: ArrayLike<number>) => number) | string]>;
  /** How many times per invocation (expression over the caller's scope). */
  readonly count: (scope: ArrayLike<number>) => number;
  /** The count when it reads no variable (the default 1 included): the call is made whatever the arguments. */
  readonly fixedCount?: number;
}

/** Raw form of a call in a scenario. */
interface RawCall {
  port?: unknown;
  portType?: unknown;
  method?: unknown;
  args?: unknown;
  count?: unknown;
}

/** A port's or method's name: letters, digits, _ or -, starting with a letter or _. */
const NAME_PATTERN = "^[A-Za-z_][\\w-]*$";
const NAME = new RegExp(NAME_PATTERN);

/** The keys of one call of a generic component's `calls` parameter (see {@link prepareCalls}). */
const CALL_FIELDS: readonly ParamDoc[] = [
  { name: "port", type: "string", pattern: NAME_PATTERN, doc: "The uses port the call goes through (letters, digits, _ or -, starting with a letter or _)." },
  { name: "portType", type: "string", doc: "The uses port's type name.", default: "Work" },
  { name: "method", type: "string", pattern: NAME_PATTERN, doc: "The method called (letters, digits, _ or -, starting with a letter or _).", default: "run" },
  {
    name: "args",
    type: "map",
    entries: { type: "expression", doc: "An expression of the caller's scope, or quoted text such as \"'y'\"." },
    doc: "The arguments passed, by name: expressions of the caller's scope, or quoted text such as \"'y'\".",
    optional: true,
  },
  { name: "count", type: "expression", doc: "Calls per invocation, a whole number, 0 or more.", default: 1 },
];

const CALL_KEYS = CALL_FIELDS.map((f) => f.name);

/** What each item of a generic component's `calls` parameter is: a map of port, method, portType, args and count. */
export const CALL_ITEM: ParamValueDoc = { type: "map", fields: CALL_FIELDS };

/** What each item of a generic component's `args` parameter is: an argument's name. */
export const ARG_NAME_ITEM: ParamValueDoc = { type: "string", doc: "An argument's name." };

/**
 * `v` as a method name (`dflt` when absent): letters, digits, _ or -, starting with a letter or _,
 * as an entry point's method is written. The profile times a method as `Component::method()` and
 * joins a callpath's timers with ` => `: a name holding ` => ` or a double quote would read back as
 * other timers (`A::a => b()` as `A::a` calling `b()`).
 * @throws via `env.error` at `key` when it is not such a name
 */
export function methodName(env: Pick<PrepareEnv, "error">, v: unknown, key: string, dflt: string): string {
  if (v === undefined) return dflt;
  if (typeof v !== "string" || !NAME.test(v)) env.error(key, `expected a method name (letters, digits, _ or -, starting with a letter or _), got ${JSON.stringify(v)}`);
  return v;
}

/**
 * The text of an argument written as a quoted literal, `'y'` or `"y"` (in YAML: `dir: "'y'"`), or
 * undefined for an expression. Why a literal: a bare word is an expression's variable, and a
 * misspelt variable must stay an error rather than become text.
 */
function textLiteral(raw: string): string | undefined {
  return /^\s*(?:'([^']*)'|"([^"]*)")\s*$/.exec(raw)?.slice(1).find((g) => g !== undefined);
}

/**
 * Prepares the `calls` parameter shared by the generic components: a list of
 * `{ port, method?, portType?, args?: {name: expression}, count?: expression }`; an argument written
 * as a quoted literal (`dir: "'y'"`) passes that text (a kernel's `patternArg` reads one). Expressions may use
 * the names in `scope` (the caller's arguments, workload variables, `rank`, `size`, and `i` for
 * drivers). A count that workload values alone decide is checked at load.
 * @param notWorkload - the names of `scope` that are not workload values: the caller's own
 *   (arguments, a driver's `i`) and {@link RANK_NAMES}; by default every name of `scope`, so that
 *   only counts written as numbers are checked at load
 * @param sink - where the counts' problems go to be reported with the caller's (see
 *   {@link collectProblem}); without it they are reported together here
 */
export function prepareCalls(raw: unknown, scope: readonly string[], env: PrepareEnv, notWorkload: readonly string[] = scope, sink?: unknown[]): PreparedCall[] {
  if (raw === undefined) return [];
  const problems = sink ?? [];
  if (!Array.isArray(raw)) env.error("calls", "must be a list of calls");
  const prepared = raw.map((c: RawCall, i) => {
    const where = `calls[${i}]`;
    if (typeof c !== "object" || c === null || Array.isArray(c)) env.error(where, "must be a map with at least 'port'");
    for (const k of Object.keys(c)) if (!CALL_KEYS.includes(k)) env.error(`${where}.${k}`, `unknown key '${k}'${didYouMean(k, CALL_KEYS)}; a call has ${CALL_KEYS.join(", ")}`);
    if (typeof c.port !== "string" || !NAME.test(c.port)) env.error(`${where}.port`, "must name a uses port (letters, digits, _ or -)");
    const method = methodName(env, c.method, `${where}.method`, "run");
    const argsRaw = (c.args ?? {}) as Record<string, unknown>;
    if (typeof argsRaw !== "object" || Array.isArray(argsRaw)) env.error(`${where}.args`, "must map argument names to expressions");
    // Expressions that do not compile are reported with the caller's other problems (a
    // placeholder stands in: the collected problems are thrown before anything runs).
    const compiled = (text: string | number, key: string): CostExpression | undefined => {
      let out: CostExpression | undefined;
      collectProblem(env, problems, () => (out = env.compile(text, scope, key)));
      return out;
    };
    const args = Object.entries(argsRaw).map(([name, e]) => {
      const text = typeof e === "string" ? textLiteral(e) : undefined;
      return [name, text ?? compiled(e as string | number, `${where}.args.${name}`)?.bind(scope) ?? (() => Number.NaN)] as const;
    });
    const countExpr = c.count === undefined ? undefined : compiled(c.count as string | number, `${where}.count`);
    if (countExpr !== undefined) collectProblem(env, problems, () => checkCountAtLoad(env, countExpr, `${where}.count`, notWorkload));
    const count = countExpr === undefined ? () => 1 : countExpr.bind(scope);
    const fixedCount = countExpr === undefined ? 1 : countExpr.variables.length === 0 ? wholeCount(count([])) : undefined;
    const portType: PortType = {
      name: c.portType === undefined ? "Work" : String(c.portType),
      methods: [{ name: method, args: args.map(([n]) => n) }],
    };
    return { port: c.port, portType, method, args, count, ...(fixedCount !== undefined ? { fixedCount } : {}) };
  });
  // A method has one signature: every call of it through one port passes the same arguments (a
  // proxy would otherwise record a missing one as nothing it could read).
  const first = new Map<string, { index: number; args: string }>();
  prepared.forEach((c, i) => {
    const key = `${c.port}.${c.method}`;
    // Names in any order: arguments are passed by name.
    const args = c.args.map(([n]) => n).sort().join(", ");
    const seen = first.get(key);
    if (seen === undefined) first.set(key, { index: i, args });
    else if (seen.args !== args)
      collectProblem(env, problems, () => env.error(`calls[${i}].args`, `passes (${args}) to ${key}(), which calls[${seen.index}] calls with (${seen.args}): every call of a method passes the same arguments`));
  });
  if (sink === undefined) reportProblems(env, problems);
  return prepared;
}

/** Merges the uses ports of several calls (one port may be called several times). */
export function usesPorts(calls: readonly PreparedCall[]): Record<string, PortType> {
  const out: Record<string, PortType> = {};
  for (const c of calls) {
    const old = out[c.port];
    if (!old) out[c.port] = c.portType;
    else if (old.methods[0].name !== c.method) out[c.port] = { name: old.name, methods: [...old.methods.filter((m) => m.name !== c.method), c.portType.methods[0]] };
  }
  return out;
}

/**
 * The targets of a generic component's calls on one rank: the uses port of each call, taken when
 * the instance is created (an unconnected port fails then), and the provider's method, resolved on
 * the first call (providers may be created after their users).
 */
export class CallTargets {
  private readonly handles: readonly PortHandle[];
  private readonly methods: (PortMethod | undefined)[];
  /** The calling instance, for messages. */
  readonly instance: string;

  constructor(
    readonly calls: readonly PreparedCall[],
    ctx: ComponentContext,
  ) {
    this.instance = ctx.instance;
    this.handles = calls.map((c) => ctx.uses(c.port));
    this.methods = calls.map(() => undefined);
  }

  /** The method call `k` reaches. */
  method(k: number): PortMethod {
    return this.methods[k] ?? (this.methods[k] = this.handles[k].method(this.calls[k].method));
  }
}

/** Makes every call of `targets` through the connected ports, with arguments evaluated in `scope`. */
export function* makeCalls(targets: CallTargets, scope: Float64Array) {
  const calls = targets.calls;
  for (let k = 0; k < calls.length; k++) {
    const c = calls[k];
    const v = c.count(scope);
    // Why the exact test first: counts are almost always whole, and this runs on every invocation.
    const n = Number.isInteger(v) && v >= 0 ? v : runCount(v, targets.instance, `calls[${k}].count`);
    if (n === 0) continue;
    const m = targets.method(k);
    for (let j = 0; j < n; j++) {
      const args: Record<string, number | string> = {};
      for (const [name, f] of c.args) args[name] = typeof f === "string" ? f : f(scope);
      // The call is opened and closed here rather than through `port.call`'s iterator: one frame
      // less for every resume of the callee (see PortHandle.method).
      const token = m.enter(args);
      yield* m.impl(args);
      m.leave(token);
    }
  }
}

/** The names every generic component's expressions bind to the rank's own values: its rank and the number of ranks. */
export const RANK_NAMES: readonly string[] = ["rank", "size"];

/**
 * The positional scope of a generic component's expressions: its own names (method arguments),
 * then the workload variables they do not shadow, then {@link RANK_NAMES}, then `trailing` names
 * (a driver's iteration `i`). Expressions are bound to this order once, at load time.
 */
export function scopeLayout(own: readonly string[], workloadNames: readonly string[], trailing: readonly string[] = [], shadow: readonly string[] = own): string[] {
  const reserved = new Set([...shadow, ...trailing, ...RANK_NAMES]);
  return [...own, ...workloadNames.filter((n) => !reserved.has(n)), ...RANK_NAMES, ...trailing];
}

/**
 * A scope for one rank's instance laid out by {@link scopeLayout}: workload values, rank and size
 * filled in (a workload variable that is not a number reads as NaN), own and trailing slots 0
 * until each call sets them.
 */
export function newScope(names: readonly string[], ctx: ComponentContext): Float64Array {
  const scope = new Float64Array(names.length);
  const rankAt = names.indexOf("rank");
  names.forEach((n, k) => {
    if (k === rankAt) scope[k] = ctx.rank;
    else if (k === rankAt + 1) scope[k] = ctx.size;
    else if (k < rankAt && n in ctx.workload) scope[k] = ctx.workloadNumbers[n] ?? Number.NaN;
  });
  return scope;
}

/** Reads a cost expression parameter, or undefined. */
export function optionalExpression(raw: unknown, scope: readonly string[], where: string, env: PrepareEnv): CostExpression | undefined {
  return raw === undefined ? undefined : env.compile(raw as string | number, scope, where);
}

/**
 * The number a generic component reads for an argument that is not a number: NaN for a missing
 * one (its expressions then say so), or for text that no expression reads (a proxy may record
 * it); text an expression reads (`read`) is refused, naming the argument, since a quoted literal
 * (`dir: "'y'"`) is for a kernel's `patternArg` and the expression would read it as NaN.
 * Why apart: the callers test `typeof v === "number"` inline on their hot path and come here only
 * otherwise.
 */
export function nonNumericArgument(instance: string, name: string, v: unknown, read: boolean): number {
  if (typeof v === "string" && read) throw new ScenarioValueError(`${instance}: argument '${name}' is the text '${v}', but an expression of this component reads it as a number (text arguments, quoted literals such as "'y'", are for a kernel's patternArg, or for proxies to record)`);
  return Number.NaN;
}

/**
 * `env`, with every expression it compiles adding the names it reads to `used`: what a component's
 * expressions read of its arguments, so that text passed to an argument they read is refused and
 * text passed to one only a proxy records is not.
 */
export function trackingEnv(env: PrepareEnv, used: Set<string>): PrepareEnv {
  return {
    instance: env.instance,
    workloadNames: env.workloadNames,
    workloadValues: env.workloadValues,
    ranks: env.ranks,
    combine: env.combine?.bind(env),
    error: (where, message) => env.error(where, message),
    compile(text, known, where) {
      const compiled = env.compile(text, known, where);
      for (const v of compiled.variables) used.add(v);
      return compiled;
    },
  };
}

/** The uses ports of `calls` called at least once on every invocation, whatever the arguments. @internal */
export function alwaysCalledPorts(calls: readonly PreparedCall[]): string[] {
  return [...new Set(calls.filter((c) => c.fixedCount !== undefined && c.fixedCount >= 1).map((c) => c.port))];
}
