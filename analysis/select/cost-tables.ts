/**
 * Compiles an {@link Assembly} once and evaluates, for given inputs, the per-component cost of
 * every implementation (summed over all call sites of the component) and the interaction cost of
 * every (caller implementation, callee implementation) pair.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import { didYouMean } from "../../profile/internal.js";
import type { KeyPath } from "../../profile/index.js";
import { keyText } from "../yaml-input.js";
import { compileCost, type CompiledCost, type CostModel, type Inputs } from "./cost-model.js";
import type { Assembly, CallSite } from "./assembly.js";

/**
 * A quality-of-service constraint. It applies to the components some implementation of which
 * declares the attribute: their implementations whose value is out of range, or missing, are
 * excluded. A component none of whose implementations declares it (a driver, a mesh when the
 * constraint is on a solver's accuracy) is not constrained by it.
 */
export interface QosConstraint {
  /** Attribute name (a key of {@link ImplementationSpec.qos}). */
  readonly key: string;
  /** Inclusive lower bound. */
  readonly min?: number;
  /** Inclusive upper bound. */
  readonly max?: number;
}

/** An implementation excluded by a constraint. */
export interface Exclusion {
  readonly component: string;
  readonly implementation: string;
  readonly reason: string;
}

/** A compiled cost and its key in the assembly, where a value it gives is placed when refused. */
type KeyedCost = CompiledCost & { readonly key: KeyPath };

interface CompiledSite {
  readonly component: number;
  readonly calls: KeyedCost;
  readonly args: readonly [string, CompiledCost][];
  readonly children: readonly CompiledSite[];
}

/** @internal An assembly with its cost models compiled. */
export interface CompiledAssembly {
  readonly components: readonly string[];
  readonly implementations: readonly (readonly string[])[];
  readonly mean: readonly (readonly KeyedCost[])[];
  readonly sd: readonly (readonly (KeyedCost | undefined)[])[];
  readonly qos: readonly (readonly (Readonly<Record<string, number>> | undefined)[])[];
  readonly root: CompiledSite;
  /** Interaction cost per (caller, callee) component pair: [callerImpl][calleeImpl] → cost. */
  readonly interactions: ReadonlyMap<string, readonly (readonly (KeyedCost | undefined)[])[]>;
  /** The inputs some cost, call count or argument reads; undefined when one is a function (unknown reads). */
  readonly reads: ReadonlySet<string> | undefined;
}

/** Cost tables for one input (see {@link evaluateCosts}). */
export interface CostTables {
  /** unit[c][i]: total cost of component c with implementation i over all its call sites. */
  readonly unit: Float64Array[];
  /** Pairwise tables between components a < b: cost[ia * nb + ib]. */
  readonly edges: { readonly a: number; readonly b: number; readonly cost: Float64Array }[];
  /** allowed[c]: indices of implementations that satisfy the constraints. */
  readonly allowed: number[][];
  /** Implementations excluded by constraints. */
  readonly excluded: Exclusion[];
}

/**
 * A mistake in an assembly at one of its keys, the path a file's key would have
 * (`components[1].implementations[0].name`, `callGraph.children[0].component`,
 * `interactions[2].costs[0].callerImpl` as messages write them): the assembly file reader places
 * it at its line.
 */
export class AssemblyKeyError extends AnalysisInputError {
  /**
   * @param path - the key path of the mistake (map keys and list indices)
   * @param problem - what is wrong there
   */
  constructor(
    readonly path: KeyPath,
    readonly problem: string,
  ) {
    super(`key '${keyText(path)}': ${problem}`);
    this.name = "AssemblyKeyError";
  }
}

/**
 * A cost of an assembly that cannot be evaluated at some inputs (an input not given, a value
 * below 0 or not finite), with the key of the cost (`components[0].implementations[1].mean`):
 * the caller that read the assembly from a file places it at that key's line. Its message is
 * that of the cost's `where` (`mean of A1 (A): ...`).
 */
export class AssemblyCostError extends AnalysisInputError {
  constructor(
    readonly path: KeyPath,
    detail: string,
    where?: string,
  ) {
    super(detail, where);
    this.name = "AssemblyCostError";
  }
}

/**
 * {@link compileCost} of the assembly's key `key`: an expression that does not compile is that
 * key's mistake; one that cannot be evaluated at some inputs throws {@link AssemblyCostError}
 * with the key.
 */
function compileAt(model: CostModel, where: string, key: KeyPath): KeyedCost {
  let cost: CompiledCost;
  try {
    cost = compileCost(model, where);
  } catch (e) {
    if (e instanceof AnalysisInputError) throw new AssemblyKeyError(key, e.detail);
    throw e;
  }
  const keyed = (inputs: Inputs): number => {
    try {
      return cost(inputs);
    } catch (e) {
      if (e instanceof AnalysisInputError && !(e instanceof AssemblyCostError)) throw new AssemblyCostError(key, e.detail, e.where);
      throw e;
    }
  };
  return Object.assign(keyed, { key, reads: cost.reads });
}

/**
 * Compiles every cost model of an assembly. `where` of each compiled cost (named when it fails to
 * evaluate) is its call path or implementation (`calls of (root) => Driver => A`, `mean of A1 (A)`).
 * @throws AssemblyKeyError for no component, a component or an implementation listed twice, a
 *   component without implementations, a call site or an interaction naming an unknown component or implementation,
 *   an interaction between components that never call each other, or an expression that does not
 *   compile
 */
export function compileAssembly(assembly: Assembly): CompiledAssembly {
  // Refused here rather than at the call graph's first component, unknown among none.
  if (assembly.components.length === 0) throw new AssemblyKeyError(["components"], "lists no component: an assembly lists each component with its implementations");
  const components = assembly.components.map((c) => c.name);
  const index = new Map<string, number>();
  components.forEach((n, i) => {
    const first = index.get(n);
    if (first !== undefined) throw new AssemblyKeyError(["components", i, "name"], `component '${n}' is listed twice (also ${keyText(["components", first])})`);
    index.set(n, i);
  });
  assembly.components.forEach((c, ci) => {
    if (c.implementations.length === 0) throw new AssemblyKeyError(["components", ci, "implementations"], `component '${c.name}' has no implementation: list at least one`);
    const names = new Map<string, number>();
    c.implementations.forEach((im, j) => {
      const first = names.get(im.name);
      if (first !== undefined) throw new AssemblyKeyError(["components", ci, "implementations", j, "name"], `implementation '${im.name}' is listed twice (also ${keyText(["components", ci, "implementations", first])})`);
      names.set(im.name, j);
    });
  });
  const comp = (name: string, key: KeyPath): number => {
    const i = index.get(name);
    if (i === undefined) throw new AssemblyKeyError(key, `unknown component '${name}'${didYouMean(name, components)}; known: ${components.join(", ")}`);
    return i;
  };
  const implementation = (names: readonly string[], name: string, component: string, key: KeyPath): number => {
    const i = names.indexOf(name);
    if (i < 0) throw new AssemblyKeyError(key, `unknown implementation '${name}' of '${component}'${didYouMean(name, names)}; known: ${names.join(", ")}`);
    return i;
  };
  // The components' costs first: a file lists them before the call graph.
  const implementationCosts = (of: "mean" | "sd") =>
    assembly.components.map((c, ci) => c.implementations.map((im, j) => (im[of] === undefined ? undefined : compileAt(im[of], `${of} of ${im.name} (${c.name})`, ["components", ci, "implementations", j, of]))));
  const mean = implementationCosts("mean") as KeyedCost[][];
  const sd = implementationCosts("sd");
  let depth = 0;
  // Caller–callee component pairs of the call graph ("a:b"), which interactions may price.
  const calls = new Set<string>();
  // `path`: the call path named when a cost fails to evaluate; `key`: the site's key in the assembly.
  const site = (s: CallSite, path: string, key: KeyPath, parent: number): CompiledSite => {
    // At the call graph's own key: a path 10000 levels long would be no place to read.
    if (++depth > 10_000) throw new AssemblyKeyError(["callGraph"], "call graph is deeper than 10000 sites (a cycle?)");
    const here = `${path} => ${s.component}`;
    const component = comp(s.component, [...key, "component"]);
    if (parent >= 0) calls.add(`${parent}:${component}`);
    const out: CompiledSite = {
      component,
      calls: compileAt(s.calls ?? 1, `calls of ${here}`, [...key, "calls"]),
      args: Object.entries(s.args ?? {}).map(([k, v]) => [k, compileAt(v, `argument ${k} of ${here}`, [...key, "args", k])] as [string, CompiledCost]),
      children: (s.children ?? []).map((c, i) => site(c, here, [...key, "children", i], component)),
    };
    depth--;
    return out;
  };
  const root = site(assembly.callGraph, "(root)", ["callGraph"], -1);
  const interactions = new Map<string, (KeyedCost | undefined)[][]>();
  for (const [n, it] of (assembly.interactions ?? []).entries()) {
    const key = ["interactions", n];
    const a = comp(it.caller, [...key, "caller"]);
    const b = comp(it.callee, [...key, "callee"]);
    const ia = assembly.components[a]!.implementations.map((x) => x.name);
    const ib = assembly.components[b]!.implementations.map((x) => x.name);
    const pair = `${a}:${b}`;
    const table = interactions.get(pair) ?? ia.map(() => ib.map(() => undefined as KeyedCost | undefined));
    it.costs.forEach((c, k) => {
      const at = [...key, "costs", k];
      const i = implementation(ia, c.callerImpl, it.caller, [...at, "callerImpl"]);
      const j = implementation(ib, c.calleeImpl, it.callee, [...at, "calleeImpl"]);
      table[i]![j] = compileAt(c.cost, `interaction ${c.callerImpl} -> ${c.calleeImpl}`, [...at, "cost"]);
    });
    // Why refuse: an interaction is paid where the caller invokes the callee, so one between
    // components that never call each other would be silently left out of every cost. (After
    // the names of its costs' implementations, which are each a key's own mistake.)
    if (!calls.has(`${a}:${b}`)) {
      const callers = components.filter((_, i) => calls.has(`${i}:${b}`));
      throw new AssemblyKeyError(key, `${it.caller} never calls ${it.callee} in the call graph, so this interaction would cost nothing (callers of ${it.callee}: ${callers.join(", ") || "none"})`);
    }
    interactions.set(pair, table);
  }
  return {
    components,
    implementations: assembly.components.map((c) => c.implementations.map((i) => i.name)),
    mean,
    sd,
    qos: assembly.components.map((c) => c.implementations.map((i) => i.qos)),
    root,
    interactions,
    reads: inputsRead([...mean.flat(), ...sd.flat(), ...siteCosts(root), ...[...interactions.values()].flat(2)]),
  };
}

/** The call counts and arguments of a call site and of the sites below it. */
function siteCosts(s: CompiledSite): CompiledCost[] {
  return [s.calls, ...s.args.map(([, f]) => f), ...s.children.flatMap(siteCosts)];
}

/** The inputs the costs read together; undefined when one's reads are unknown (a function). */
function inputsRead(costs: readonly (CompiledCost | undefined)[]): ReadonlySet<string> | undefined {
  const names = new Set<string>();
  for (const c of costs) {
    if (c === undefined) continue;
    if (c.reads === undefined) return undefined;
    for (const n of c.reads) names.add(n);
  }
  return names;
}

/**
 * The cost of one invocation under risk aversion `k`, as text: `mean + 2·sd`, `mean - 0.5·sd`
 * for a negative `k` (risk seeking), `mean` for 0.
 */
export function riskCostText(k: number): string {
  if (k === 0) return "mean";
  return k < 0 ? `mean - ${-k}·sd` : `mean + ${k}·sd`;
}

/** Options that shape the cost tables. */
export interface CostOptions {
  /** Risk aversion k: each invocation costs mean + k·sd (default 0). */
  readonly riskK?: number;
  /** Quality-of-service constraints excluding implementations. */
  readonly constraints?: readonly QosConstraint[];
}

/**
 * Evaluates the cost tables of a compiled assembly for one input.
 * @throws AnalysisInputError when a cost is negative or not finite, when a constraint names an
 *   attribute no implementation declares, or when constraints exclude every implementation of a
 *   component
 */
export function evaluateCosts(ca: CompiledAssembly, inputs: Inputs, options: CostOptions = {}): CostTables {
  checkConstraintAttributes(ca, options.constraints ?? []);
  const k = options.riskK ?? 0;
  const nc = ca.components.length;
  const unit = ca.implementations.map((impls) => new Float64Array(impls.length));
  const edgeMap = new Map<string, { a: number; b: number; cost: Float64Array }>();
  const check = (v: number, what: string, key: KeyPath): number => {
    if (!Number.isFinite(v) || v < 0) throw new AssemblyCostError(key, `is ${v} at ${JSON.stringify(inputs)} (costs must be finite and >= 0)`, what);
    return v;
  };
  const walk = (s: CompiledSite, env: Inputs, multiplicity: number, parent: number): void => {
    const calls = multiplicity * check(s.calls(env), `invocation count of ${ca.components[s.component]}`, s.calls.key);
    let local: Inputs = env;
    if (s.args.length > 0) {
      const next: Record<string, number> = { ...env };
      for (const [name, f] of s.args) next[name] = f(env);
      local = next;
    }
    const c = s.component;
    if (calls > 0) {
      for (let i = 0; i < unit[c]!.length; i++) {
        const name = `${ca.implementations[c]![i]} (${ca.components[c]})`;
        const mean = ca.mean[c]![i]!;
        let cost = check(mean(local), `mean cost of ${name}`, mean.key);
        const sd = ca.sd[c]![i];
        // A negative k (risk seeking) can take mean + k·sd below 0, which is no cost either (placed at the sd).
        if (sd && k !== 0) cost = check(cost + k * check(sd(local), `sd of ${name}`, sd.key), `${riskCostText(k)} of ${name}`, sd.key);
        unit[c]![i]! += calls * cost;
      }
      if (parent >= 0) {
        const table = ca.interactions.get(`${parent}:${c}`);
        if (table && parent === c) {
          // A component calling itself always pairs an implementation with itself.
          for (let i = 0; i < table.length; i++) {
            const f = table[i]![i];
            if (f) unit[c]![i]! += calls * check(f(local), `interaction cost ${ca.implementations[c]![i]} -> itself`, f.key);
          }
        } else if (table) {
          const a = Math.min(parent, c);
          const b = Math.max(parent, c);
          const nb = ca.implementations[b]!.length;
          const key = `${a}:${b}`;
          let e = edgeMap.get(key);
          if (!e) edgeMap.set(key, (e = { a, b, cost: new Float64Array(ca.implementations[a]!.length * nb) }));
          for (let i = 0; i < table.length; i++)
            for (let j = 0; j < table[i]!.length; j++) {
              const f = table[i]![j];
              if (!f) continue;
              const v = calls * check(f(local), `interaction cost ${ca.implementations[parent]![i]} -> ${ca.implementations[c]![j]}`, f.key);
              // Tables are stored with the lower component index first.
              if (parent < c) e.cost[i * nb + j]! += v;
              else e.cost[j * nb + i]! += v;
            }
        }
      }
    }
    for (const child of s.children) walk(child, local, calls, c);
  };
  walk(ca.root, inputs, 1, -1);

  const excluded: Exclusion[] = [];
  const allowed: number[][] = [];
  for (let c = 0; c < nc; c++) {
    const ok: number[] = [];
    const applies = (options.constraints ?? []).filter((con) => declaresAttribute(ca.qos[c]!, con.key));
    ca.implementations[c]!.forEach((impl, i) => {
      const q = ca.qos[c]![i];
      for (const con of applies) {
        const v = q?.[con.key];
        let reason: string | undefined;
        if (v === undefined) reason = `no value for quality attribute '${con.key}'`;
        else if (con.min !== undefined && v < con.min) reason = `${con.key} = ${v} < ${con.min}`;
        else if (con.max !== undefined && v > con.max) reason = `${con.key} = ${v} > ${con.max}`;
        if (reason) {
          excluded.push({ component: ca.components[c]!, implementation: impl, reason });
          return;
        }
      }
      ok.push(i);
    });
    if (ok.length === 0) throw new AnalysisInputError(`quality-of-service constraints exclude every implementation of '${ca.components[c]}'`);
    allowed.push(ok);
  }
  return { unit, edges: [...edgeMap.values()], allowed, excluded };
}

/**
 * Refuses a constraint on an attribute that no implementation declares. Why: such a constraint
 * excludes every implementation of the first component, and "constraints exclude every
 * implementation of 'Flux'" hides that the attribute is misspelt or absent from the assembly.
 * @throws AnalysisInputError naming the attribute, the declared ones and the nearest of them
 */
function checkConstraintAttributes(ca: CompiledAssembly, constraints: readonly QosConstraint[]): void {
  const declared = (key: string): boolean => ca.qos.some((impls) => declaresAttribute(impls, key));
  for (const con of constraints) {
    if (declared(con.key)) continue;
    const known = [...new Set(ca.qos.flatMap((impls) => impls.flatMap((q) => (q === undefined ? [] : Object.keys(q)))))].sort();
    throw new AnalysisInputError(
      `no implementation declares the quality attribute '${con.key}'${didYouMean(con.key, known)}; declared attributes: ${known.join(", ") || "none (give implementations a qos mapping)"}`,
    );
  }
}

/** Whether some implementation of one component declares the quality attribute `key`. */
function declaresAttribute(impls: readonly (Readonly<Record<string, number>> | undefined)[], key: string): boolean {
  return impls.some((q) => q !== undefined && Object.prototype.hasOwnProperty.call(q, key));
}
