/**
 * The description of a component assembly for implementation selection: components with
 * alternative implementations and their cost models, the call graph with invocation counts and
 * parameters, and optional interaction costs between a caller's and a callee's implementations.
 *
 * @packageDocumentation
 */
import type { CostModel } from "./cost-model.js";

/** One implementation of a component. */
export interface ImplementationSpec {
  /** Name ("A1", "EFMFlux"). */
  readonly name: string;
  /** Mean cost of one invocation (microseconds), a function of the call site's inputs. */
  readonly mean: CostModel;
  /** Standard deviation of one invocation's cost, for risk-aware selection (default 0). */
  readonly sd?: CostModel;
  /** Quality-of-service attributes (accuracy, order, stability ...), for constraints. */
  readonly qos?: Readonly<Record<string, number>>;
}

/** A component and its alternative implementations. */
export interface ComponentSpec {
  /** Component name, as it appears in the call graph. */
  readonly name: string;
  /** At least one implementation. */
  readonly implementations: readonly ImplementationSpec[];
}

/** A call site: a component invoked from its parent in the call graph. */
export interface CallSite {
  /** Component invoked. */
  readonly component: string;
  /**
   * Invocations per invocation of the parent (default 1); for the root, per run. A cost model of
   * the parent's inputs.
   */
  readonly calls?: CostModel;
  /**
   * Inputs this site passes to its component, each a cost model of the parent's inputs (for
   * example `{ Q: "x^2" }`). Inputs not listed are inherited unchanged.
   */
  readonly args?: Readonly<Record<string, CostModel>>;
  /** Sites this component invokes. */
  readonly children?: readonly CallSite[];
}

/** Extra cost when a caller implementation invokes a callee implementation (a data-layout translation ...). */
export interface InteractionSpec {
  /** Calling component. */
  readonly caller: string;
  /** Called component. */
  readonly callee: string;
  /** Per-invocation costs of the callee for implementation pairs; pairs not listed cost 0. */
  readonly costs: readonly { readonly callerImpl: string; readonly calleeImpl: string; readonly cost: CostModel }[];
}

/** A component assembly to select implementations for. */
export interface Assembly {
  /** Components with alternative implementations. */
  readonly components: readonly ComponentSpec[];
  /** Root call site (typically the driver). */
  readonly callGraph: CallSite;
  /** Optional interaction costs between adjacent (caller, callee) components. */
  readonly interactions?: readonly InteractionSpec[];
}

/**
 * The components of `assembly` that no call site of its call graph names, in the order listed:
 * they cost nothing whatever their implementation, so selection cannot choose between them (a
 * component left out of the call graph, or a call site naming another one by mistake).
 */
export function uncalledComponents(assembly: Assembly): string[] {
  const called = new Set<string>();
  const sites: CallSite[] = [assembly.callGraph];
  for (let site = sites.pop(); site !== undefined; site = sites.pop()) {
    called.add(site.component);
    if (site.children) sites.push(...site.children);
  }
  return assembly.components.map((c) => c.name).filter((name) => !called.has(name));
}

/**
 * The known-models assembly of paper 002, section 5, as `scenarios/known-models.yaml` runs it:
 * Driver calls A (A1: 2x, A2: x²) and B (B1: x³, B2: 2x²), A calls the insignificant C (0.01 x)
 * and B the insignificant D (0.02 x), all with input x. For x < 2 the best choice is A2 and B1,
 * for x > 2 it is A1 and B2. (The paper gives A's and B's models; C's and D's costs and call sites
 * are the scenario's.)
 */
export function knownModelsAssembly(): Assembly {
  return {
    components: [
      { name: "Driver", implementations: [{ name: "Driver", mean: 0 }] },
      { name: "A", implementations: [{ name: "A1", mean: "2*x" }, { name: "A2", mean: "x^2" }] },
      { name: "B", implementations: [{ name: "B1", mean: "x^3" }, { name: "B2", mean: "2*x^2" }] },
      { name: "C", implementations: [{ name: "C1", mean: "0.01*x" }] },
      { name: "D", implementations: [{ name: "D1", mean: "0.02*x" }] },
    ],
    callGraph: {
      component: "Driver",
      children: [
        { component: "A", children: [{ component: "C" }] },
        { component: "B", children: [{ component: "D" }] },
      ],
    },
  };
}
