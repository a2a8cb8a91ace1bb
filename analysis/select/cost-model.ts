/**
 * Cost models for selection: a mathjs expression over named inputs, a constant, a function, or
 * a fitted model (anything with `predict(q)` and the name of its variable).
 *
 * @packageDocumentation
 */
import { createRequire } from "node:module";
import type { EvalFunction } from "mathjs";
import { AnalysisInputError } from "../errors.js";

/** The parts of mathjs's bundle that cost models use. */
interface MathBundle {
  parse(text: string): MathNode;
  readonly Unit: { isValuelessUnit(name: string): boolean };
  readonly [name: string]: unknown;
}

/** A node of a parsed expression, as far as {@link valueSymbols} reads it. */
interface MathNode {
  readonly type: string;
  readonly name?: string;
  traverse(callback: (node: MathNode, path: string, parent: MathNode | null) => void): void;
  compile(): EvalFunction;
}

let mathBundle: MathBundle | undefined;

/**
 * mathjs's `compile`, loaded on first use from the library's single-file bundle (the same version
 * and default configuration as its ESM entry). Why: the ESM entry loads about 800 modules and
 * builds every function when imported, over half a second, which every `ccasim` command paid at
 * start-up although only a cost expression given as text needs it. (`scenarios/lang/math.ts` loads
 * the same bundle for scenario expressions; analysis/ may not import scenarios/.)
 */
function math(): MathBundle {
  return (mathBundle ??= createRequire(import.meta.url)("mathjs/lib/browser/math.js") as MathBundle);
}

/**
 * The names an expression reads as values (not as the function of a call), but mathjs's numeric
 * constants (`pi`, `e`): the inputs it needs. Why: mathjs reads a name the scope lacks as one of
 * its units (`m`, `h`, `N`, `s`), functions (`size`) or constants, so an input left out would give
 * a unit, a type error or a silently wrong cost instead of "not given".
 */
function valueSymbols(bundle: MathBundle, parsed: MathNode): string[] {
  const names = new Set<string>();
  parsed.traverse((node, path, parent) => {
    if (node.type !== "SymbolNode" || node.name === undefined) return;
    if (parent?.type === "FunctionNode" && path === "fn") return;
    if (typeof bundle[node.name] === "number") return;
    names.add(node.name);
  });
  return [...names];
}

/** Named input values, for example `{ x: 3 }` or `{ Q: 4096, ranks: 64 }`. */
export type Inputs = Readonly<Record<string, number>>;

/** A fitted model usable as a cost model (a {@link FittedModel} qualifies). */
export interface PredictingModel {
  predict(q: number): number;
  /** Name of the input the model reads. */
  readonly variable: string;
}

/** Any cost model: `"2*x"`, `5`, `(inputs) => 2 * inputs.x`, or a fitted model. */
export type CostModel = string | number | ((inputs: Inputs) => number) | PredictingModel;

/**
 * A cost model compiled once into a function of the inputs; `reads` names the inputs it reads
 * (undefined for a function given as the model, whose reads are unknown).
 */
export type CompiledCost = ((inputs: Inputs) => number) & { readonly reads?: readonly string[] };

/**
 * Compiles a cost model.
 * @param where - what the model belongs to, for error messages ("implementation A1 of A")
 * @throws AnalysisInputError when an expression does not parse
 */
export function compileCost(model: CostModel, where: string): CompiledCost {
  if (typeof model === "number") {
    if (!Number.isFinite(model)) throw new AnalysisInputError(`cost ${model} is not finite`, where);
    return Object.assign(() => model, { reads: [] });
  }
  if (typeof model === "function") return model;
  if (typeof model === "string") {
    // Loaded before the parse: a failure to load is no parse error of the expression.
    const bundle = math();
    let code;
    let reads: string[];
    try {
      // Parsed once: compiled for evaluation, walked for the names it reads.
      const parsed = bundle.parse(model);
      code = parsed.compile();
      reads = valueSymbols(bundle, parsed);
    } catch (e) {
      throw new AnalysisInputError(`cannot parse cost expression '${model}': ${(e as Error).message}`, where);
    }
    // An input the expression reads but the caller did not give, named with what was given. Why
    // only once the evaluation fails or gives no number: a branch not taken may read one (`Q > 10 ?
    // 2*Q : b`), and a name mathjs knows (a unit, a function) makes the result no number.
    const notGiven = (inputs: Inputs): AnalysisInputError | undefined => {
      const name = reads.find((r) => !Object.prototype.hasOwnProperty.call(inputs, r));
      if (name === undefined) return undefined;
      const unit = bundle.Unit.isValuelessUnit(name) ? ` (mathjs reads '${name}' as a unit; costs take no units: they are plain numbers, normally microseconds)` : "";
      return new AnalysisInputError(`'${model}' reads input '${name}', which is not given (given: ${givenInputs(inputs)})${unit}`, where);
    };
    const evaluate = (inputs: Inputs): number => {
      let v: unknown;
      try {
        v = code.evaluate({ ...inputs });
      } catch (e) {
        throw notGiven(inputs) ?? new AnalysisInputError(`cannot evaluate '${model}' with ${givenInputs(inputs)}: ${(e as Error).message}`, where);
      }
      if (typeof v !== "number") {
        const missing = notGiven(inputs);
        if (missing !== undefined) throw missing;
        const what = typeof v === "object" && v !== null && "im" in v ? `the complex number ${String(v)} (the expression is not defined there)` : String(v);
        throw new AnalysisInputError(`'${model}' gives ${what} at ${givenInputs(inputs)}, not a cost`, where);
      }
      return v;
    };
    return Object.assign(evaluate, { reads });
  }
  const m = model;
  const predict = (inputs: Inputs): number => {
    const q = inputs[m.variable];
    if (q === undefined) throw new AnalysisInputError(`fitted model reads input '${m.variable}', which is not given (given: ${givenInputs(inputs)})`, where);
    return m.predict(q);
  };
  return Object.assign(predict, { reads: [m.variable] });
}

/** The inputs as `name=value` pairs for messages ("none" when there are none). */
function givenInputs(inputs: Inputs): string {
  const pairs = Object.entries(inputs).map(([k, v]) => `${k}=${v}`);
  return pairs.length > 0 ? pairs.join(", ") : "none";
}
