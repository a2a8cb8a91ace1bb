/**
 * Named cost functions of a program model (`FA1: 121/P`, `FA4(P): 3.14 + 2.71*P`). The
 * transformation inlines them: a call `FA4(P)` becomes `(3.14 + 2.71*(P))` before the expression
 * is compiled, so evaluation calls no function at all and a function body may use the caller's
 * variables (globals, pid, np ...) next to its parameters.
 *
 * @packageDocumentation
 */
import type { MathNode } from "mathjs";
import { ExpressionError, checkExpressionCycles, syntaxErrorDetail } from "../lang/index.js";
import { math } from "../lang/math.js";

/** One cost function: its parameters and its body. */
export interface CostFunction {
  readonly name: string;
  readonly params: readonly string[];
  readonly body: string;
  /** The key as written (`FA4(P)`), to locate errors. */
  readonly key: string;
}

/** Functions every program expression may call besides mathjs's: C-style integer division. */
export const PROGRAM_BUILTINS: Readonly<Record<string, (...args: number[]) => number>> = {
  /** `idiv(a, b)`: a/b truncated toward zero, as C/C++ `long` division (`32/(pid+1)` in paper 003). */
  idiv: (a: number, b: number) => Math.trunc(a / b),
  /** `imod(a, b)`: C/C++ `%` on integers (sign of the dividend). */
  imod: (a: number, b: number) => Math.trunc(a) % Math.trunc(b),
};

/** Reads `NAME` or `NAME(a, b)` keys. */
export function parseFunctionKey(key: string, body: string | number): CostFunction {
  const m = /^\s*([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?\s*$/.exec(key);
  if (!m) throw new ExpressionError(`cannot read the function name '${key}': write NAME or NAME(a, b)`, String(body));
  const params = m[2] === undefined || m[2].trim() === "" ? [] : m[2].split(",").map((p) => p.trim());
  return { name: m[1], params, body: String(body), key };
}

/** `syntax error: ...` when the body of `f` does not parse, else undefined. */
export function bodySyntaxError(f: CostFunction): string | undefined {
  try {
    math.parse(f.body);
    return undefined;
  } catch (e) {
    return syntaxErrorDetail((e as Error).message, f.body);
  }
}

type Node = MathNode & Record<string, unknown>;

/**
 * Inlines cost functions into expressions.
 */
export class FunctionInliner {
  private readonly byName = new Map<string, CostFunction>();
  private readonly parsed = new Map<string, Node>();
  /** Names of the functions {@link inline} has expanded (directly or inside another's body); clear it to count afresh. */
  readonly used = new Set<string>();

  /**
   * @throws ExpressionError for a syntax error in a body or functions that call each other in a cycle
   */
  constructor(functions: readonly CostFunction[]) {
    for (const f of functions) this.byName.set(f.name, f);
    checkExpressionCycles(Object.fromEntries(functions.map((f) => [f.name, f.body])), "program.functions");
    for (const f of functions) this.parsed.set(f.name, math.parse(f.body) as Node);
  }

  /** Names of the functions. */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  /** The function `name`, if defined. */
  get(name: string): CostFunction | undefined {
    return this.byName.get(name);
  }

  /**
   * `text` with every function call (and every parameterless function used as a value) replaced
   * by its body, parameters substituted by the (parenthesised) arguments.
   * @throws ExpressionError for a syntax error or a call with the wrong number of arguments
   */
  inline(text: string): string {
    if (this.byName.size === 0) return text;
    let node: Node;
    try {
      node = math.parse(text) as Node;
    } catch (e) {
      throw new ExpressionError(syntaxErrorDetail((e as Error).message, text), text);
    }
    return this.expand(node, text, 0).toString();
  }

  private expand(node: Node, text: string, depth: number): Node {
    if (depth > 64) throw new ExpressionError("cost functions nest more than 64 deep", text);
    return node.transform((n: MathNode, _path: string, parent: MathNode | null) => {
      const nn = n as Node;
      if (nn.type === "FunctionNode" && (nn.fn as Node).type === "SymbolNode") {
        const f = this.byName.get((nn.fn as Node).name as string);
        if (f === undefined) return nn;
        const args = (nn.args as Node[]).map((a) => this.expand(a, text, depth + 1));
        if (args.length !== f.params.length) {
          throw new ExpressionError(`cost function '${f.key}' takes ${f.params.length} argument${f.params.length === 1 ? "" : "s"}, got ${args.length}`, text);
        }
        return this.callOf(f, args, text, depth);
      }
      if (nn.type === "SymbolNode") {
        const isCallee = parent !== null && parent.type === "FunctionNode" && (parent as unknown as { fn: unknown }).fn === n;
        const f = isCallee ? undefined : this.byName.get(nn.name as string);
        if (f === undefined) return nn;
        if (f.params.length > 0) throw new ExpressionError(`cost function '${f.key}' needs ${f.params.length} argument${f.params.length === 1 ? "" : "s"}: call it as ${f.key}`, text);
        return this.callOf(f, [], text, depth);
      }
      return nn;
    }) as Node;
  }

  /** The body of `f` with its parameters replaced by `args` (substituted before nested calls expand, so they never capture). */
  private callOf(f: CostFunction, args: readonly Node[], text: string, depth: number): Node {
    this.used.add(f.name);
    const body = this.parsed.get(f.name)!;
    const substituted = f.params.length === 0
      ? body
      : (body.transform((m: MathNode, _p: string, parent: MathNode | null) => {
          const mm = m as Node;
          if (mm.type !== "SymbolNode") return mm;
          const isCallee = parent !== null && parent.type === "FunctionNode" && (parent as unknown as { fn: unknown }).fn === m;
          const i = isCallee ? -1 : f.params.indexOf(mm.name as string);
          return i < 0 ? mm : new math.ParenthesisNode(args[i] as MathNode);
        }) as Node);
    return new math.ParenthesisNode(this.expand(substituted, text, depth + 1) as MathNode) as unknown as Node;
  }
}
