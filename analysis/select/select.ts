/**
 * Implementation selection (paper 002, section 4): the assembly with the lowest predicted cost,
 * found exactly (dynamic programming over the call tree's caller–callee interactions, or
 * exhaustive search when interactions form cycles), and the paper's heuristic (exhaustive search
 * over the pruned core components, the others fixed to their first implementation) with its
 * optimality gap.
 *
 * @packageDocumentation
 */
import { AnalysisInputError } from "../errors.js";
import type { Assembly } from "./assembly.js";
import type { Inputs } from "./cost-model.js";
import { compileAssembly, evaluateCosts, type CompiledAssembly, type CostOptions, type Exclusion } from "./cost-tables.js";
import { assignmentCost, isForest, solveByDynamicProgramming, solveExhaustively } from "./solvers.js";

/** Options of {@link selectImplementations}. */
export interface SelectOptions extends CostOptions {
  /**
   * Core components (for example `pruneCallGraph(...).coreNames`): when given, the paper's
   * heuristic is run over them and its gap to the exact optimum reported.
   */
  readonly coreComponents?: readonly string[];
  /** Largest number of assemblies an exhaustive search may evaluate (default 10^7). */
  readonly maxExhaustive?: number;
}

/** A chosen implementation per component. */
export type Assignment = Readonly<Record<string, string>>;

/** The exact optimum. */
export interface OptimalSelection {
  /** Implementation chosen for each component. */
  readonly assignment: Assignment;
  /** Predicted total cost (units of the cost models, normally microseconds). */
  readonly cost: number;
  /** How it was found. */
  readonly method: "dynamic-programming" | "exhaustive";
}

/** The heuristic of paper 002 and its optimality gap. */
export interface HeuristicSelection {
  /** Implementation chosen for each component. */
  readonly assignment: Assignment;
  /** Predicted total cost. */
  readonly cost: number;
  /** Components searched exhaustively. */
  readonly core: readonly string[];
  /** Assemblies evaluated. */
  readonly evaluated: number;
  /** cost − optimal cost (≥ 0). */
  readonly gap: number;
  /** gap / optimal cost (0 when the optimum costs 0 and the gap is 0). */
  readonly relativeGap: number;
}

/** Cost of each implementation of a component at the given input (all call sites, no interactions). */
export interface ComponentCosts {
  readonly component: string;
  readonly chosen: string;
  readonly costs: readonly { readonly implementation: string; readonly cost: number; readonly allowed: boolean }[];
}

/** Result of {@link selectImplementations}. */
export interface SelectionResult {
  /** Inputs the assembly was evaluated at. */
  readonly inputs: Inputs;
  /** Exact optimum. */
  readonly optimum: OptimalSelection;
  /** Paper 002's heuristic, when core components were given. */
  readonly heuristic?: HeuristicSelection;
  /** Per-component implementation costs. */
  readonly components: readonly ComponentCosts[];
  /** Implementations excluded by quality-of-service constraints. */
  readonly excluded: readonly Exclusion[];
  /** Risk aversion k used (cost = mean + k·sd per invocation). */
  readonly riskK: number;
}

/**
 * A compiled assembly, ready to be evaluated at many inputs (crossover searches, sweeps).
 * Create it with {@link prepareAssembly}.
 */
export interface PreparedAssembly {
  /** @internal */
  readonly compiled: CompiledAssembly;
}

/**
 * Compiles an assembly's cost models once.
 * @throws AnalysisInputError for unknown components, duplicate names or bad expressions
 */
export function prepareAssembly(assembly: Assembly): PreparedAssembly {
  return { compiled: compileAssembly(assembly) };
}

/**
 * Selects the implementation of every component that minimises the assembly's predicted cost at
 * `inputs`.
 *
 * @example
 * selectImplementations(knownModelsAssembly(), { x: 1.5 }).optimum.assignment; // { A: "A2", B: "B1", ... }
 * @throws AnalysisInputError for bad assemblies, negative costs, constraints that leave a
 *   component without implementation, unknown core components, or an exhaustive search too large
 */
export function selectImplementations(assembly: Assembly | PreparedAssembly, inputs: Inputs, options: SelectOptions = {}): SelectionResult {
  const ca = "compiled" in assembly ? assembly.compiled : compileAssembly(assembly);
  const t = evaluateCosts(ca, inputs, options);
  const limit = options.maxExhaustive ?? 1e7;
  const all = ca.components.map((_, i) => i);
  let exact: { choice: Int32Array; cost: number };
  let method: OptimalSelection["method"];
  if (isForest(t)) {
    exact = solveByDynamicProgramming(t);
    method = "dynamic-programming";
  } else {
    exact = solveExhaustively(t, all, new Int32Array(all.length), limit);
    method = "exhaustive";
  }
  const name = (choice: ArrayLike<number>): Assignment => Object.fromEntries(ca.components.map((c, i) => [c, ca.implementations[i]![choice[i]!]!]));
  let heuristic: HeuristicSelection | undefined;
  if (options.coreComponents) {
    // Each component once: one named twice would be searched as two, counting its assemblies twice.
    const core = [...new Set(options.coreComponents)].filter((c) => ca.components.includes(c));
    for (const c of options.coreComponents)
      if (!ca.components.includes(c)) throw new AnalysisInputError(`core component '${c}' is not a component of the assembly (known: ${ca.components.join(", ")})`);
    const free = core.map((c) => ca.components.indexOf(c));
    // Non-core components take an arbitrary implementation, as in the paper: the first allowed one.
    const fixed = Int32Array.from(all, (c) => t.allowed[c]![0]!);
    const h = solveExhaustively(t, free, fixed, limit);
    const gap = Math.max(0, h.cost - exact.cost);
    heuristic = { assignment: name(h.choice), cost: h.cost, core, evaluated: h.evaluated, gap, relativeGap: exact.cost > 0 ? gap / exact.cost : 0 };
  }
  const components = ca.components.map((c, i) => ({
    component: c,
    chosen: ca.implementations[i]![exact.choice[i]!]!,
    costs: ca.implementations[i]!.map((impl, j) => ({ implementation: impl, cost: t.unit[i]![j]!, allowed: t.allowed[i]!.includes(j) })),
  }));
  return { inputs, optimum: { assignment: name(exact.choice), cost: exact.cost, method }, heuristic, components, excluded: t.excluded, riskK: options.riskK ?? 0 };
}

/** Cost of a given assignment at `inputs` (for comparing a user's choice with the optimum). */
export function assemblyCost(assembly: Assembly | PreparedAssembly, inputs: Inputs, assignment: Assignment, options: CostOptions = {}): number {
  const ca = "compiled" in assembly ? assembly.compiled : compileAssembly(assembly);
  const t = evaluateCosts(ca, inputs, options);
  const choice = ca.components.map((c, i) => {
    const impl = assignment[c] ?? ca.implementations[i]![0]!;
    const j = ca.implementations[i]!.indexOf(impl);
    if (j < 0) throw new AnalysisInputError(`unknown implementation '${impl}' of '${c}'`);
    return j;
  });
  return assignmentCost(t, choice);
}
