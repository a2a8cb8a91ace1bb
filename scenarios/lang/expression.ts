/**
 * Cost expressions in mathjs syntax (`2*x`, `exp(1.19*log(Q) - 3.68)`, `P > 64 ? a : b`), parsed
 * and checked once at load and compiled into JavaScript closures for the hot path. Expressions may
 * call named cost functions that call each other (paper 003's `FA4(P)`), and
 * {@link checkExpressionCycles} rejects sets of definitions that refer to themselves.
 *
 * @packageDocumentation
 */
import type { MathNode } from "mathjs";
import { nearestName } from "../../engine/registry.js";
import * as H from "./expression-helpers.js";
import { math } from "./math.js";

/** A cost expression compiled once; evaluate it many times. */
export interface CompiledExpression {
  /** The expression as written. */
  readonly text: string;
  /** Free symbols it needs, sorted (including those of named expressions it refers to by name). */
  readonly variables: readonly string[];
  /**
   * Evaluates with named values.
   * @throws ExpressionError (an input error) when a variable is missing or the result is not a finite
   *   number (a comparison's true/false reads as 1/0)
   */
  evaluate(scope: Readonly<Record<string, number>>): number;
  /**
   * A closure taking the values of `names` positionally: the hot path (no lookups by name). `names`
   * must include every variable; extra names are ignored.
   * @throws ExpressionError when a variable is not among `names`; the closure throws ExpressionError
   * when the result is not a finite number
   */
  bind(names: readonly string[]): (values: ArrayLike<number>) => number;
}

/** A user function callable from expressions: a compiled expression (arguments bind to its sorted variables) or a JS function. */
export type ExpressionFunction = CompiledExpression | ((...args: number[]) => number);

/** Options of {@link compileExpression}. */
export interface CompileOptions {
  /** The only symbols allowed (besides functions and constants such as `pi`); unknown ones are errors naming the nearest. */
  readonly known?: readonly string[];
  /** Named functions the expression may call, or refer to by name as a value (with the caller's variables). */
  readonly functions?: Readonly<Record<string, ExpressionFunction>>;
  /** Where the expression comes from, prefixed to error messages (for example `scenario.yaml: assembly.components.A.cost`). */
  readonly where?: string;
}

/** A cost expression that does not parse, names unknown symbols, or evaluates to a non-finite number. An input error. */
export class ExpressionError extends Error {
  readonly isInputError = true;
  constructor(
    /** What is wrong, without location. */
    readonly detail: string,
    /** The expression text. */
    readonly expression: string,
    readonly where?: string,
    /** 0-based character index in the expression where a syntax error was found. */
    readonly char?: number,
    /** False for problems of a set of expressions (a cycle), where quoting one text would mislead. */
    quote = true,
  ) {
    super(`${where ? `${where}: ` : ""}${quote ? `expression "${expression}": ` : ""}${detail}`);
    this.name = "ExpressionError";
  }
}

/** Functions compiled to direct JavaScript (beyond user functions and the rest of mathjs). */
export const BUILTIN_FUNCTIONS: readonly string[] = ["abs", "ceil", "cos", "exp", "floor", "log", "log10", "log2", "max", "min", "pow", "round", "sin", "sqrt", "tanh"];

const JS_CALL: Readonly<Record<string, string>> = {
  exp: "Math.exp", log2: "Math.log2", log10: "Math.log10", sqrt: "Math.sqrt", abs: "Math.abs",
  sin: "Math.sin", cos: "Math.cos", tanh: "Math.tanh", floor: "H.floor", ceil: "H.ceil",
  min: "H.min", max: "H.max", pow: "H.pow",
};
const BINARY: Readonly<Record<string, string>> = { add: "+", subtract: "-", multiply: "*", divide: "/" };
const COMPARE: Readonly<Record<string, string>> = { equal: "eq", unequal: "ne", smaller: "lt", larger: "gt", smallerEq: "le", largerEq: "ge" };
const FORBIDDEN = new Set(["AssignmentNode", "FunctionAssignmentNode", "BlockNode"]);
/** mathjs functions a cost expression may not call: random draws break determinism, the rest change or re-enter mathjs. */
const DISALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([
  "random", "randomInt", "pickRandom", "import", "createUnit", "config", "evaluate", "parse", "compile", "simplify",
  "simplifyConstant", "simplifyCore", "derivative", "resolve", "rationalize", "leafCount", "symbolicEqual", "chain", "help",
  "typed", "reviver", "replacer",
]);

const IMPL = Symbol("ccasim.compiledExpression");

/** What a compiled expression keeps to be called from another one. */
interface Internals {
  /** The expression's value from its variables, positionally; unchecked (may be NaN or a boolean). */
  readonly call: (...args: number[]) => unknown;
}

type Node = MathNode & Record<string, unknown>;

/** Parses mathjs text, turning syntax errors into located {@link ExpressionError}s. */
function parseText(text: string, where?: string): Node {
  try {
    return math.parse(text) as Node;
  } catch (e) {
    const err = e as Error & { char?: number };
    // mathjs counts characters from 1; clamp to the text so a column can be derived.
    const char = typeof err.char === "number" ? Math.max(0, Math.min(err.char - 1, text.length)) : undefined;
    throw new ExpressionError(syntaxErrorDetail(err.message, text), text, where, char);
  }
}

/**
 * The detail of a syntax error mathjs gave for `text`: `syntax error: <message>`, with how C's
 * `&&`, `||` and `!` are written when the text uses one of them (models written after C or C++
 * code, such as paper 003's, use them; mathjs reads `and`, `or`, `not`, and `!` as a factorial).
 */
export function syntaxErrorDetail(message: string, text: string): string {
  const cOperator = /&&|\|\||!(?!=)/.test(text);
  return `syntax error: ${message}${cOperator ? " (C's &&, || and ! are written and, or, not in an expression)" : ""}`;
}

/**
 * Checks that `text` is a well-formed expression (syntax only).
 * @throws ExpressionError with `char` set to the 0-based offset of the problem when mathjs gives one
 */
export function checkExpressionSyntax(text: string, where?: string): void {
  const node = parseText(text, where);
  forbidAssignments(node, text, where);
}

function forbidAssignments(node: Node, text: string, where?: string): void {
  node.traverse((n) => {
    if (FORBIDDEN.has(n.type)) throw new ExpressionError("assignments and statement blocks are not allowed in a cost expression", text, where);
    if (n.type === "FunctionNode") {
      const fn = (n as unknown as { fn: Node }).fn;
      const name = fn.type === "SymbolNode" ? (fn.name as string) : undefined;
      if (name !== undefined && DISALLOWED_FUNCTIONS.has(name)) {
        const why = name.startsWith("random") || name === "pickRandom" ? "costs must be deterministic (noise comes from the machine model)" : "it changes or re-enters the expression engine";
        throw new ExpressionError(`function '${name}' is not allowed in a cost expression: ${why}`, text, where);
      }
    }
  });
}

/** Symbols used as values and names called as functions in `node`, in order of appearance. */
function references(node: Node): { symbols: string[]; calls: string[] } {
  const symbols: string[] = [];
  const calls: string[] = [];
  node.traverse((n, _path, parent) => {
    if (n.type === "SymbolNode") {
      const name = (n as unknown as { name: string }).name;
      const isCallee = parent !== null && parent.type === "FunctionNode" && (parent as unknown as { fn: unknown }).fn === n;
      (isCallee ? calls : symbols).push(name);
    }
  });
  return { symbols, calls };
}

/** A mathjs constant such as `pi` or `e` (a number in the math namespace). */
function constantValue(name: string): number | undefined {
  const v = (math as unknown as Record<string, unknown>)[name];
  return typeof v === "number" ? v : undefined;
}

/**
 * Compiles a cost expression once. Supported directly (generated JavaScript): numbers, symbols,
 * `+ - * / ^ %` (floored modulo, as mathjs), unary minus/plus, comparisons (with mathjs's relative
 * tolerance 1e-12), `and or xor not`, `c ? a : b`, parentheses, the functions `exp log log2 log10
 * sqrt abs min max floor ceil round pow sin cos tanh`, user `functions`, and any other mathjs
 * function (called as is). Anything else mathjs parses (matrices, units, strings) runs through
 * mathjs's own evaluation. `log(x)` is the natural logarithm; `log(x, b)` is base b. Symbols that
 * name mathjs constants (`pi`, `e`) are constants unless listed in `known`.
 *
 * @param text - the expression; a number is a constant expression
 * @throws ExpressionError (an input error) for a syntax error, an assignment, an unknown symbol
 * (when `known` is given) or function, or a user function called with the wrong number of arguments
 */
export function compileExpression(text: string | number, opts: CompileOptions = {}): CompiledExpression {
  const where = opts.where;
  if (typeof text === "number") {
    if (!Number.isFinite(text)) throw new ExpressionError("a constant cost must be a finite number", String(text), where);
    text = String(text);
  }
  if (typeof text !== "string") throw new ExpressionError(`expected an expression (text or number), got ${typeof text}`, String(text), where);
  const source = text;
  const node = parseText(source, where);
  forbidAssignments(node, source, where);
  const fail = (detail: string): never => {
    throw new ExpressionError(detail, source, where);
  };

  const functions = opts.functions ?? {};
  const known = opts.known ? new Set(opts.known) : undefined;
  const isVariable = (name: string): boolean => (known ? known.has(name) : constantValue(name) === undefined);

  // Free variables: own symbols, plus the variables of named expressions referred to as values.
  const refs = references(node);
  const vars = new Set<string>();
  for (const name of refs.symbols) {
    const fn = functions[name];
    if (fn !== undefined) {
      if (typeof fn === "function") fail(`'${name}' is a function: call it with arguments, as ${name}(...)`);
      for (const v of (fn as CompiledExpression).variables) vars.add(v);
      continue;
    }
    if (isVariable(name)) vars.add(name);
    else if (constantValue(name) === undefined) {
      const suggestion = nearestName(name, [...(known ?? []), ...Object.keys(functions)]);
      fail(`unknown symbol '${name}'${suggestion ? ` (did you mean '${suggestion}'?)` : ""}; known: ${[...(known ?? [])].sort().join(", ") || "none"}`);
    }
  }
  for (const name of refs.calls) {
    if (functions[name] !== undefined) continue;
    if (typeof (math as unknown as Record<string, unknown>)[name] !== "function") {
      const suggestion = nearestName(name, [...Object.keys(functions), ...BUILTIN_FUNCTIONS]);
      fail(`unknown function '${name}'${suggestion ? ` (did you mean '${suggestion}'?)` : ""}`);
    }
  }
  const variables = [...vars].sort();

  const generated = generate(node, variables, functions, isVariable, fail);
  const call = generated?.call ?? fallback(node, variables, functions);
  return makeCompiled(source, variables, call, generated, where);
}

/** Builds the public object around an unchecked positional function. */
function makeCompiled(text: string, variables: readonly string[], call: (...args: number[]) => unknown, generated: Generated | undefined, where?: string): CompiledExpression {
  const failure = (names: readonly string[], values: ArrayLike<number>, result: unknown, cause?: unknown): never => {
    const scope = names.map((n, i) => `${n}=${String(values[i])}`).join(", ");
    const got = cause !== undefined ? `failed (${(cause as Error).message ?? String(cause)})` : `evaluates to ${describeResult(result)} (not a finite number)`;
    throw new ExpressionError(`${got}${scope ? ` for ${scope}` : ""}`, text, where);
  };
  const bind = (names: readonly string[]): ((values: ArrayLike<number>) => number) => {
    const index = variables.map((v) => {
      const i = names.indexOf(v);
      if (i < 0) throw new ExpressionError(`needs '${v}', which is not among the bound names (${names.join(", ") || "none"})`, text, where);
      return i;
    });
    const boundNames = variables;
    if (generated) {
      // The expression body is inlined into a closure that reads values[i] directly: no nested call, no allocation.
      const reads = index.map((i, k) => `const a${k} = v[${i}];`).join(" ");
      // Math.* and the helpers never throw; only calls into user or mathjs functions need the try/catch.
      const compute = generated.calls.length > 0 ? `let r; try { r = ${generated.body}; } catch (e) { return fail(v, undefined, e); }` : `const r = ${generated.body};`;
      // A comparison's true/false is 1/0, as in C and in mathjs arithmetic (`(pid == 0) * 500`).
      const body = `"use strict"; return function bound(v) { ${reads} ${compute} if (typeof r === "number" && r - r === 0) return r; if (typeof r === "boolean") return r ? 1 : 0; return fail(v, r); };`;
      const pick = (v: ArrayLike<number>): number[] => index.map((i) => v[i]);
      const fail = (v: ArrayLike<number>, r: unknown, e?: unknown): never => failure(boundNames, pick(v), r, e);
      return new Function("H", "C", "F", "fail", body)(H, generated.constants, generated.calls, fail);
    }
    return (v) => {
      const args = index.map((i) => v[i]);
      let r: unknown;
      try {
        r = call(...args);
      } catch (e) {
        return failure(boundNames, args, undefined, e);
      }
      if (typeof r === "number" && r - r === 0) return r;
      if (typeof r === "boolean") return r ? 1 : 0;
      return failure(boundNames, args, r);
    };
  };
  const byName = bind(variables);
  const buffer: number[] = variables.map(() => 0);
  const compiled = {
    text,
    variables,
    evaluate(scope: Readonly<Record<string, number>>): number {
      // One reused buffer instead of an array per call: safe because bound closures read every value before computing.
      for (let i = 0; i < variables.length; i++) {
        const x = scope[variables[i]];
        if (typeof x !== "number" && typeof x !== "boolean") {
          throw new ExpressionError(`no value for '${variables[i]}'${x === undefined ? "" : ` (got ${typeof x})`}; given: ${Object.keys(scope).sort().join(", ") || "nothing"}`, text, where);
        }
        buffer[i] = x;
      }
      return byName(buffer);
    },
    bind,
    [IMPL]: { call } satisfies Internals,
  };
  return Object.freeze(compiled);
}

function describeResult(r: unknown): string {
  if (typeof r === "number" || typeof r === "boolean" || r === undefined || r === null) return String(r);
  if (typeof r === "string") return JSON.stringify(r);
  return `${math.typeOf(r)} ${math.format(r, { precision: 6 })}`;
}

/** The unchecked positional function of a user function, whatever its form. */
function callableOf(fn: ExpressionFunction): (...args: number[]) => unknown {
  if (typeof fn === "function") return fn;
  const internals = (fn as unknown as { [IMPL]?: Internals })[IMPL];
  if (internals) return internals.call;
  const names = fn.variables;
  return (...args: number[]) => fn.evaluate(Object.fromEntries(names.map((n, i) => [n, args[i]])));
}

/**
 * JavaScript source for the supported subset, as a function of the variables positionally; undefined
 * when the tree holds anything else (then mathjs evaluates it).
 */
function generate(
  root: Node,
  variables: readonly string[],
  functions: Readonly<Record<string, ExpressionFunction>>,
  isVariable: (name: string) => boolean,
  fail: (detail: string) => never,
): Generated | undefined {
  const constants: unknown[] = [];
  const calls: unknown[] = [];
  const lit = (v: unknown): string => {
    constants.push(v);
    return `C[${constants.length - 1}]`;
  };
  const fnRef = (f: unknown): string => {
    calls.push(f);
    return `F[${calls.length - 1}]`;
  };
  const param = (name: string): string => `a${variables.indexOf(name)}`;

  const emit = (n: Node): string | undefined => {
    switch (n.type) {
      case "ConstantNode": {
        const v = n.value;
        if (typeof v === "number") return Number.isFinite(v) && v >= 0 ? `(${String(v)})` : lit(v);
        if (typeof v === "boolean") return v ? "true" : "false";
        return undefined;
      }
      case "ParenthesisNode": {
        const c = emit(n.content as Node);
        return c === undefined ? undefined : `(${c})`;
      }
      case "SymbolNode": {
        const name = n.name as string;
        const fn = functions[name];
        if (fn !== undefined) {
          const f = fn as CompiledExpression;
          return `${fnRef(callableOf(f))}(${f.variables.map(param).join(", ")})`;
        }
        if (isVariable(name)) return param(name);
        return lit(constantValue(name));
      }
      case "OperatorNode": {
        const args = (n.args as Node[]).map(emit);
        if (args.some((a) => a === undefined)) return undefined;
        const fnName = n.fn as unknown as string;
        const [a, b] = args as string[];
        if (args.length === 2 && BINARY[fnName]) return `(${a} ${BINARY[fnName]} ${b})`;
        if (args.length === 2 && COMPARE[fnName]) return `H.${COMPARE[fnName]}(${a}, ${b})`;
        // A constant whole exponent takes mathjs's plain Math.pow branch: skip the helper's checks.
        if (args.length === 2 && fnName === "pow") return isWholeConstant(n.args as Node[], 1) ? `Math.pow(${a}, ${b})` : `H.pow(${a}, ${b})`;
        if (args.length === 2 && fnName === "mod") return `H.mod(${a}, ${b})`;
        if (args.length === 2 && fnName === "and") return `(!!(${a}) && !!(${b}))`;
        if (args.length === 2 && fnName === "or") return `(!!(${a}) || !!(${b}))`;
        if (args.length === 2 && fnName === "xor") return `(!(${a}) !== !(${b}))`;
        if (args.length === 1 && fnName === "unaryMinus") return `(-${a})`;
        if (args.length === 1 && fnName === "unaryPlus") return `(+${a})`;
        if (args.length === 1 && fnName === "not") return `(!(${a}))`;
        return undefined;
      }
      case "ConditionalNode": {
        const c = emit(n.condition as Node);
        const t = emit(n.trueExpr as Node);
        const f = emit(n.falseExpr as Node);
        if (c === undefined || t === undefined || f === undefined) return undefined;
        return `((${c}) ? ${t} : ${f})`;
      }
      case "RelationalNode": {
        const ops = n.conditionals as string[];
        const params = (n.params as Node[]).map(emit);
        if (params.some((p) => p === undefined) || ops.some((o) => !COMPARE[o])) return undefined;
        return `(${ops.map((o, i) => `H.${COMPARE[o]}(${params[i]}, ${params[i + 1]})`).join(" && ")})`;
      }
      case "FunctionNode": {
        const fnNode = n.fn as Node;
        if (fnNode.type !== "SymbolNode") return undefined;
        const name = fnNode.name as string;
        const args = (n.args as Node[]).map(emit);
        if (args.some((a) => a === undefined)) return undefined;
        const list = args.join(", ");
        const user = functions[name];
        if (user !== undefined) {
          if (typeof user !== "function" && user.variables.length !== args.length) {
            fail(`'${name}' takes ${user.variables.length} argument${user.variables.length === 1 ? "" : "s"} (${user.variables.join(", ")}), got ${args.length}`);
          }
          return `${fnRef(callableOf(user))}(${list})`;
        }
        if (name === "log" && args.length === 1) return `Math.log(${list})`;
        if (name === "log" && args.length === 2) return `(Math.log(${args[0]}) / Math.log(${args[1]}))`;
        if (name === "round" && args.length === 1) return `H.round(${list})`;
        if ((name === "min" || name === "max") && args.length >= 1) return `${JS_CALL[name]}(${list})`;
        if (name === "pow" && args.length === 2 && isWholeConstant(n.args as Node[], 1)) return `Math.pow(${list})`;
        if (JS_CALL[name] && args.length === (name === "pow" ? 2 : 1)) return `${JS_CALL[name]}(${list})`;
        // Any other mathjs function on numbers: call mathjs's own implementation.
        return `${fnRef((math as unknown as Record<string, unknown>)[name])}(${list})`;
      }
      default:
        return undefined;
    }
  };
  const body = emit(root);
  if (body === undefined) return undefined;
  const params = variables.map((_, i) => `a${i}`).join(", ");
  const call = new Function("H", "C", "F", `"use strict"; return function expression(${params}) { return ${body}; };`)(H, constants, calls);
  return { body, constants, calls, call };
}

/** JavaScript generated for an expression: the body reads variables as `a0, a1, ...` (sorted order). */
interface Generated {
  readonly body: string;
  readonly constants: readonly unknown[];
  readonly calls: readonly unknown[];
  /** The body as a function of the variables, positionally; unchecked. */
  readonly call: (...args: number[]) => unknown;
}

/** True when argument `i` is a literal whole number (possibly in parentheses). */
function isWholeConstant(args: readonly Node[], i: number): boolean {
  let n = args[i];
  while (n.type === "ParenthesisNode") n = n.content as Node;
  return n.type === "ConstantNode" && typeof n.value === "number" && Number.isInteger(n.value);
}

/** mathjs's own evaluation, for trees outside the generated subset. */
function fallback(node: Node, variables: readonly string[], functions: Readonly<Record<string, ExpressionFunction>>): (...args: number[]) => unknown {
  const code = node.compile();
  const symbolRefs = new Set(references(node).symbols);
  const fnEntries = Object.entries(functions);
  return (...args: number[]) => {
    const scope: Record<string, unknown> = {};
    variables.forEach((v, i) => (scope[v] = args[i]));
    for (const [name, fn] of fnEntries) {
      const call = callableOf(fn);
      if (symbolRefs.has(name) && typeof fn !== "function") scope[name] = call(...fn.variables.map((v) => scope[v] as number));
      else scope[name] = call;
    }
    return code.evaluate(scope);
  };
}

/**
 * Named expressions that refer to each other by name (called as functions or used as values) must
 * not form a cycle.
 *
 * @param defs - name -> expression text
 * @param where - prefix of the error message
 * @throws ExpressionError (an input error) naming the cycle, as `cost function cycle: FA -> FB -> FA`,
 * or a syntax error in one of the definitions
 */
export function checkExpressionCycles(defs: Readonly<Record<string, string | number>>, where?: string): void {
  const names = Object.keys(defs);
  const edges = new Map<string, string[]>();
  for (const name of names) {
    const text = String(defs[name]);
    const node = parseText(text, where ? `${where}.${name}` : name);
    const r = references(node);
    edges.set(name, [...new Set([...r.calls, ...r.symbols])].filter((n) => Object.prototype.hasOwnProperty.call(defs, n)).sort());
  }
  const state = new Map<string, 1 | 2>(); // 1: on the current path, 2: done
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 1);
    stack.push(n);
    for (const m of edges.get(n)!) {
      const s = state.get(m);
      if (s === 1) {
        const cycle = [...stack.slice(stack.indexOf(m)), m];
        throw new ExpressionError(`cost function cycle: ${cycle.join(" -> ")}`, String(defs[m]), where, undefined, false);
      }
      if (s === undefined) visit(m);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of names) if (!state.has(n)) visit(n);
}

/**
 * Compiles a set of named cost functions that may call each other (after checking for cycles), each
 * seeing the others as `functions`.
 *
 * @param defs - name -> expression text
 * @param opts - `known` symbols, extra `functions` and `where` apply to every definition
 * @returns name -> compiled expression
 * @throws ExpressionError for a cycle or any error of {@link compileExpression}
 */
export function compileExpressionSet(
  defs: Readonly<Record<string, string | number>>,
  opts: CompileOptions = {},
): Record<string, CompiledExpression> {
  checkExpressionCycles(defs, opts.where);
  const done: Record<string, CompiledExpression> = {};
  const compileOne = (name: string): CompiledExpression => {
    const existing = done[name];
    if (existing) return existing;
    const node = parseText(String(defs[name]), opts.where);
    const r = references(node);
    for (const dep of new Set([...r.calls, ...r.symbols])) {
      if (dep !== name && Object.prototype.hasOwnProperty.call(defs, dep)) compileOne(dep);
    }
    const compiled = compileExpression(defs[name], {
      ...opts,
      functions: { ...opts.functions, ...done },
      where: opts.where ? `${opts.where}.${name}` : name,
    });
    done[name] = compiled;
    return compiled;
  };
  for (const name of Object.keys(defs)) compileOne(name);
  return done;
}

/**
 * The symbols an expression uses as values and the names it calls as functions (each sorted, without
 * repeats). Useful to check a scenario's expressions before their functions exist.
 * @throws ExpressionError for a syntax error
 */
export function expressionReferences(text: string | number, where?: string): { symbols: string[]; calls: string[] } {
  const r = references(parseText(String(text), where));
  return { symbols: [...new Set(r.symbols)].sort(), calls: [...new Set(r.calls)].sort() };
}

/** True when `name` is a mathjs constant such as `pi` or `e` (a constant in expressions unless declared a variable). */
export function isExpressionConstant(name: string): boolean {
  return constantValue(name) !== undefined;
}
