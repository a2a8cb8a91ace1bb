/**
 * The transformation's first half: reads the validated `program:` section into the diagram tree
 * ({@link ProgramModel}), checking names, scopes and types, and compiling every expression once
 * (cost functions inlined, bound to the variable slots). Static checks of the control flow and
 * communication follow in `check.ts`.
 *
 * @packageDocumentation
 */
import { nearestName } from "../../engine/registry.js";
import {
  compileExpression,
  ExpressionError,
  formatPath,
  parseQuantity,
  unitInExpression,
  ScenarioError,
  ScenarioErrors,
  type CompiledExpression,
  type CompileOptions,
  type KeyPath,
  type SourceDoc,
} from "../lang/index.js";
import { compileWithTextualWorkload, nonNumericWorkloadNames, nonNumericWorkloadValue } from "../workload.js";
import { checkProgram } from "./check.js";
import { bodySyntaxError, FunctionInliner, parseFunctionKey, PROGRAM_BUILTINS, type CostFunction } from "./functions.js";
import { SYSTEM_SLOTS, type Assignment, type CommOp, type Diagram, type ElementInfo, type ModelExpr, type ModelNode, type ProgramModel } from "./model.js";
import type { DiagramSection, ElementSection, ProgramSection, VariableDecl, VariableType } from "./schema.js";

/** The machine layout and workload a program is prepared for. */
export interface ProgramLayout {
  /** Processes (nodes x processes per node). */
  readonly processes: number;
  /** Node of each process. */
  readonly processToNode: Int32Array;
  readonly nodes: number;
  /** Processors of a node (processes x threads per node must fit). */
  readonly processorsPerNode: number;
  readonly processesPerNode: number;
}

/** Where the section comes from, to locate errors. */
export interface ProgramSource {
  readonly file: string;
  /** Key positions (undefined for keys set on the command line). */
  readonly locate?: SourceDoc["locate"];
  /** Path of the section in the file (default `["program"]`). */
  readonly root?: KeyPath;
  /**
   * The note naming the overrides that set the given workload values (` (overridden: --set
   * workload.N=-5)`), or "" when none did: appended to errors about values known at load.
   */
  readonly overridden?: (workloadNames: readonly string[]) => string;
}

/** Reports a problem at a path. */
export type Reporter = (path: KeyPath, message: string) => void;

interface Scope {
  readonly diagram: string;
  /** Visible names -> slot. */
  readonly names: Map<string, number>;
  /** Slot names for binding: invisible slots renamed so they never match. */
  readonly bindNames: string[];
}

const TYPE_INIT: Record<VariableType, number> = { int: 0, double: 0, bool: 0 };

/**
 * Prepares a program section for a machine layout: the diagram tree with compiled expressions,
 * after every static check.
 * @throws ScenarioErrors listing every problem found, each located in the scenario file
 */
export function prepareProgram(section: ProgramSection, workload: Readonly<Record<string, number | string>>, layout: ProgramLayout, source: ProgramSource): ProgramModel {
  const root = source.root ?? ["program"];
  const errors: ScenarioError[] = [];
  const warnings: string[] = [];
  const at = (path: KeyPath) => {
    const full = [...root, ...path];
    let pos = source.locate?.(full);
    for (let n = full.length - 1; pos === undefined && n >= 0 && source.locate; n--) pos = source.locate(full.slice(0, n));
    return { file: source.file, line: pos?.line, column: pos?.column, path: full };
  };
  const whereOf = (path: KeyPath): string => `${source.file}: ${formatPath([...root, ...path])}`;
  const report: Reporter = (path, message) => errors.push(new ScenarioError(message, at(path)));
  const textualUse = nonNumericUseChecker(workload, source, (e) => errors.push(e));
  const warn: Reporter = (path, message) => warnings.push(new ScenarioError(message, at(path)).message);

  /** An int declared with a fractional initial value: C would truncate it without a word. */
  const checkInit = (path: KeyPath, name: string, type: VariableType, init: number): void => {
    if (type === "int" && !Number.isInteger(init)) report([...path, "init"], `int '${name}' cannot start at ${init}: give an integer (C would truncate it to ${Math.trunc(init)}), or declare '${name}' a double`);
  };

  if (layout.processesPerNode * section.threads > layout.processorsPerNode) {
    report(["threads"], `${layout.processesPerNode} processes x ${section.threads} threads per node exceed the node's ${layout.processorsPerNode} processors`);
  }

  // Slots: system, workload numbers, globals, then each diagram's locals.
  const slotNames: string[] = [...SYSTEM_SLOTS];
  const slotTypes: (VariableType | "system" | "workload")[] = SYSTEM_SLOTS.map(() => "system" as const);
  const initial: number[] = SYSTEM_SLOTS.map(() => 0);
  const globalNames = new Map<string, number>();
  for (const [name, value] of Object.entries(workload)) {
    if (typeof value !== "number") continue;
    globalNames.set(name, slotNames.length);
    slotNames.push(name);
    slotTypes.push("workload");
    initial.push(value);
  }
  for (const n of SYSTEM_SLOTS) globalNames.set(n, SYSTEM_SLOTS.indexOf(n));
  const readOnly = new Set(slotNames);
  for (const [name, decl] of Object.entries(section.globals)) {
    if (globalNames.has(name)) {
      report(["globals", name], `'${name}' is already a ${readOnly.has(name) && SYSTEM_SLOTS.includes(name as never) ? "process variable" : "workload value"}: choose another name`);
      continue;
    }
    const { type, init } = declOf(decl);
    checkInit(["globals", name], name, type, init);
    globalNames.set(name, slotNames.length);
    slotNames.push(name);
    slotTypes.push(type);
    initial.push(convert(type, init));
  }

  // Cost functions.
  const fns: CostFunction[] = [];
  for (const [key, body] of Object.entries(section.functions)) {
    try {
      const f = parseFunctionKey(key, body);
      const twin = fns.find((g) => g.name === f.name);
      if (globalNames.has(f.name) || f.name in PROGRAM_BUILTINS) report(["functions", key], `'${f.name}' is already a variable or built-in function: choose another name`);
      else if (twin !== undefined) report(["functions", key], `cost function '${f.name}' is defined twice (also as '${twin.key}')`);
      else fns.push(f);
    } catch (e) {
      report(["functions", key], (e as Error).message);
    }
  }
  // Functions whose body does not parse, and functions on a call cycle, are reported once and left
  // out; the others are inlined as usual, and uses of the left-out ones are not reported again as
  // unknown functions.
  const leftOut = new Set<string>();
  for (const f of fns) {
    const syntax = bodySyntaxError(f);
    if (syntax === undefined) continue;
    report(["functions", f.key], `${f.key}: ${syntax}`);
    leftOut.add(f.name);
  }
  let inliner: FunctionInliner | undefined;
  while (inliner === undefined) {
    try {
      inliner = new FunctionInliner(fns.filter((f) => !leftOut.has(f.name)));
    } catch (e) {
      const detail = (e as ExpressionError).detail ?? (e as Error).message;
      const cycle = /^cost function cycle: (.*)$/.exec(detail)?.[1]?.split(" -> ");
      // Located at the key of the cycle's first function, where following it starts.
      const first = cycle === undefined ? undefined : fns.find((f) => f.name === cycle[0]);
      report(first === undefined ? ["functions"] : ["functions", first.key], detail);
      if (cycle === undefined) inliner = new FunctionInliner([]);
      else for (const name of cycle) leftOut.add(name);
    }
  }
  // Function bodies may use their parameters, globals, workload and process variables. A body that
  // fails is reported once, at its function, and left out as one that does not parse is: its uses
  // are not reported again, nor the functions that call it (their inlined text fails with the
  // callee's mistake, nowhere in their own).
  const compileBody = (f: CostFunction, with_: FunctionInliner): string | undefined => {
    try {
      textualUse.compile(with_.inline(f.body), { known: [...f.params, ...globalNames.keys()], functions: PROGRAM_BUILTINS }, formatPath([...root, "functions", f.key]));
      return undefined;
    } catch (e) {
      return (e as ExpressionError).detail ?? (e as Error).message;
    }
  };
  // Inlined, a body fails when it or a function it calls, at any depth, has a mistake.
  const failed = new Set(fns.filter((f) => !leftOut.has(f.name) && compileBody(f, inliner!) !== undefined).map((f) => f.name));
  if (failed.size > 0) {
    for (const name of failed) leftOut.add(name);
    inliner = new FunctionInliner(fns.filter((f) => !leftOut.has(f.name)));
    // Without the failed functions, a body fails with a mistake of its own, or names one of them.
    for (const f of fns) {
      if (!failed.has(f.name)) continue;
      const detail = compileBody(f, inliner);
      const unknown = detail === undefined ? undefined : /^unknown (?:function|symbol) '([^']+)'/.exec(detail)?.[1];
      if (detail !== undefined && (unknown === undefined || !leftOut.has(unknown))) report(["functions", f.key], `${f.key}: ${detail}`);
    }
  }
  // Uses count from the diagrams only (inlining a use also marks the functions it calls).
  inliner.used.clear();

  // Diagrams.
  const elements: ElementInfo[] = [];
  const elementNames = new Map<string, KeyPath>();
  const requests: string[] = [];
  const requestWritten = new Set<string>();
  const waits: Array<{ name: string; path: KeyPath }> = [];
  const diagrams = new Map<string, Diagram>();
  const building = new Map<string, { -readonly [K in keyof Diagram]: Diagram[K] }>(); // diagrams being read, outermost first
  const used = new Set<string>();

  const scopeFor = (diagram: string, locals: Map<string, number>): Scope => {
    const names = new Map(globalNames);
    for (const [n, sl] of locals) names.set(n, sl);
    return { diagram, names, bindNames: [] };
  };
  const finishScope = (scope: Scope): void => {
    const visible = new Set(scope.names.values());
    // Invisible slots get names no expression can write (a NUL prefix).
    for (let i = 0; i < slotNames.length; i++) scope.bindNames.push(visible.has(i) ? slotNames[i] : `\u0000${i}`);
  };

  const expr = (text: string | number | undefined, path: KeyPath, scope: Scope, kind: "number" | "condition" = "number", shown?: string): ModelExpr | undefined => {
    if (text === undefined) return undefined;
    const written = String(text);
    const where = `${source.file}: ${formatPath([...root, ...path])}`;
    try {
      const inlined0 = inliner.inline(written);
      const inlined = kind === "condition" ? `(${inlined0}) ? 1 : 0` : inlined0;
      const compiled = textualUse.compile(inlined, { known: [...scope.names.keys()], functions: PROGRAM_BUILTINS, where }, formatPath([...root, ...path]));
      if (compiled === undefined) return undefined;
      // Bound lazily: the slot list is complete only once every diagram is read.
      let bound: ((v: Float64Array) => number) | undefined;
      return {
        text: shown ?? written,
        inlined,
        compiled,
        get fn() {
          return (bound ??= compiled.bind(scope.bindNames) as (v: Float64Array) => number);
        },
        path: [...root, ...path],
      };
    } catch (e) {
      // A use of a function left out (on a cycle, or not parsed): its error is reported already.
      // (used as a value, a parameterless one is an unknown symbol)
      const unknown = e instanceof ExpressionError ? /^unknown (?:function|symbol) '([^']+)'/.exec(e.detail)?.[1] : undefined;
      if (unknown !== undefined && leftOut.has(unknown)) return undefined;
      if (!(e instanceof ExpressionError)) {
        report(path, (e as Error).message);
        return undefined;
      }
      const unit = unitInExpression(e.detail, written, path[path.length - 1]);
      report(path, unit ?? `${functionHint(e.detail)} in expression ${JSON.stringify(written)}`);
      return undefined;
    }
  };
  /** An unknown function's message with the nearest cost function of the model (inlined before compiling, they are not among the compiler's). */
  const functionHint = (detail: string): string => {
    const m = /^unknown function '([^']+)'/.exec(detail);
    const near = m === null ? undefined : nearestName(m[1]!, inliner.names);
    // The model's own functions first: a built-in's name is the likelier misreading of one.
    return near === undefined ? detail : `unknown function '${m![1]}' (did you mean the cost function '${near}'?)`;
  };

  const code = (text: string | undefined, path: KeyPath, scope: Scope): Assignment[] => {
    if (text === undefined) return [];
    const out: Assignment[] = [];
    const statements = text.split(/[;\n]/).map((x) => x.trim()).filter((x) => x !== "");
    for (const st of statements) {
      const m = /^([A-Za-z_]\w*)\s*([-+*/]?)=(?!=)\s*(.+)$/s.exec(st);
      if (!m) {
        report(path, `cannot read '${st}': a code fragment is assignments 'name = expression' separated by ';' or new lines`);
        continue;
      }
      const [, name, op, rhs] = m;
      const slot = scope.names.get(name);
      if (slot === undefined) {
        // Only names an assignment may write: a workload value or process variable would be refused next.
        const near = nearestName(name, [...scope.names].filter(([, sl]) => slotTypes[sl] !== "system" && slotTypes[sl] !== "workload").map(([n]) => n));
        report(path, `assignment to undeclared variable '${name}'${near ? ` (did you mean '${near}'?)` : ""}: declare it in globals or in the diagram's locals`);
        continue;
      }
      const type = slotTypes[slot];
      if (type === "system" || type === "workload") {
        report(path, `'${name}' is a read-only ${type === "system" ? "process variable" : "workload value"}`);
        continue;
      }
      const full = op ? `${name} ${op} (${rhs})` : rhs;
      const e = settled(expr(type === "bool" ? `(${full}) ? 1 : 0` : full, path, scope, "number", st), scope, "value");
      if (e) out.push({ name, slot, type, expr: e });
    }
    return out;
  };

  const workloadValues: Record<string, number> = {};
  for (const [name, value] of Object.entries(workload)) if (typeof value === "number") workloadValues[name] = value;
  /**
   * `e` checked now when its value is known at load (constants and workload values only): an
   * expression that cannot evaluate, or gives a value `rule` refuses, would fail on every process
   * that reaches it, so it is an error located at its key rather than a run-time failure.
   */
  const settled = (e: ModelExpr | undefined, scope: Scope, rule: ConstantRule): ModelExpr | undefined => {
    if (e === undefined) return e;
    const known = e.compiled.variables.every((v) => {
      const sl = scope.names.get(v);
      return sl !== undefined && slotTypes[sl] === "workload";
    });
    if (!known) return e;
    const path = e.path.slice(root.length);
    let v: number;
    try {
      v = e.compiled.evaluate(workloadValues);
    } catch (err) {
      report(path, `${err instanceof ExpressionError ? err.detail : (err as Error).message} in expression ${JSON.stringify(e.text)} (on every process that reaches it)${source.overridden?.(e.compiled.variables) ?? ""}`);
      return e;
    }
    const problem = constantProblem(rule, v, e.compiled.variables.length === 0);
    if (problem !== undefined) {
      const what = RULE_NOUN[rule];
      const vars = e.compiled.variables;
      report(path, Number(e.text) === v ? `${what} is ${v}: ${problem}` : `${what} ${JSON.stringify(e.text)} is ${v}${vars.length > 0 ? ` (with the workload's ${vars.join(", ")})` : ""}: ${problem}${source.overridden?.(vars) ?? ""}`);
    }
    return e;
  };

  const unitOf = (u: string | undefined): number => parseQuantity(`1 ${u ?? section.costUnit}`, "time");

  const newElement = (name: string, kind: ElementInfo["kind"], scope: Scope, path: KeyPath): number => {
    const prev = elementNames.get(name);
    if (prev !== undefined && kind !== "activity") {
      report(path, `element name '${name}' is already used at ${formatPath([...root, ...prev])}: element names are timer names and must be unique`);
    } else if (prev === undefined) elementNames.set(name, path);
    const id = elements.length;
    const pos = at(path);
    elements.push({ id, name, diagram: scope.diagram, kind, path: [...root, ...path], where: whereOf(path), ...(pos.line !== undefined ? { at: `${pos.file}:${pos.line}:${pos.column}` } : {}) });
    return id;
  };

  const request = (name: string): number => {
    let i = requests.indexOf(name);
    if (i < 0) i = requests.push(name) - 1;
    return i;
  };

  const nodes = (list: readonly ElementSection[], path: KeyPath, scope: Scope): ModelNode[] => {
    const out: ModelNode[] = [];
    list.forEach((el, i) => {
      const n = node(el, [...path, i], scope);
      if (n) out.push(n);
    });
    return out;
  };

  const node = (el: ElementSection, path: KeyPath, scope: Scope): ModelNode | undefined => {
    const e = el as unknown as Record<string, unknown>;
    if ("action" in e) {
      const id = newElement(String(e.action), "action", scope, path);
      return { kind: "action", element: id, code: code(e.code as string | undefined, [...path, "code"], scope), cost: settled(expr(e.cost as string | undefined, [...path, "cost"], scope), scope, "cost"), unit: unitOf(e.unit as string | undefined) };
    }
    if ("activity" in e) {
      const name = String(e.activity);
      const d = diagram(name, [...path, "activity"]);
      if (!d) return undefined;
      const id = newElement(name, "activity", scope, path);
      return { kind: "activity", element: id, diagram: d };
    }
    if ("if" in e) {
      const arms: Array<{ cond: ModelExpr; body: ModelNode[] }> = [];
      const cond = expr(e.if as string, [...path, "if"], scope, "condition");
      const body = nodes(e.then as ElementSection[], [...path, "then"], scope);
      if (cond) arms.push({ cond, body });
      ((e.elif as Array<{ if: string; then: ElementSection[] }> | undefined) ?? []).forEach((arm, k) => {
        const c = expr(arm.if, [...path, "elif", k, "if"], scope, "condition");
        const b = nodes(arm.then, [...path, "elif", k, "then"], scope);
        if (c) arms.push({ cond: c, body: b });
      });
      const otherwise = nodes((e.else as ElementSection[] | undefined) ?? [], [...path, "else"], scope);
      return { kind: "if", arms, otherwise };
    }
    if ("for" in e) {
      const variable = String(e.for);
      const slot = scope.names.get(variable);
      if (slot === undefined || slotTypes[slot] !== "int") {
        const type = slot === undefined ? undefined : slotTypes[slot];
        const readOnly = type === "system" ? "process variable" : type === "workload" ? "workload value" : undefined;
        report(
          [...path, "for"],
          type === undefined
            ? `loop variable '${variable}' is not declared: declare it as an int in globals or the diagram's locals`
            : readOnly !== undefined
              ? `loop variable '${variable}' is a read-only ${readOnly}: declare an int in globals or the diagram's locals`
              : `loop variable '${variable}' must be an int variable, not ${type}`,
        );
      }
      const hasCount = e.count !== undefined;
      if (hasCount && (e.from !== undefined || e.to !== undefined || e.step !== undefined)) report([...path, "count"], "give either count or from/to/step, not both");
      if (!hasCount && e.to === undefined) report([...path, "for"], "a for loop needs `count` or `to`");
      const body = nodes(e.do as ElementSection[], [...path, "do"], scope);
      return {
        kind: "for",
        slot: slot ?? 0,
        variable,
        from: settled(expr(e.from as string | undefined, [...path, "from"], scope), scope, "index"),
        to: settled(expr(e.to as string | undefined, [...path, "to"], scope), scope, "index"),
        step: settled(expr(e.step as string | undefined, [...path, "step"], scope), scope, "step"),
        count: settled(expr(e.count as string | undefined, [...path, "count"], scope), scope, "count"),
        body,
        path: [...root, ...path],
        where: whereOf(path),
      };
    }
    if ("while" in e) {
      const cond = expr(e.while as string, [...path, "while"], scope, "condition");
      const bound = settled(expr(e.bound as string, [...path, "bound"], scope), scope, "bound");
      const body = nodes(e.do as ElementSection[], [...path, "do"], scope);
      if (!cond || !bound) return undefined;
      return { kind: "while", cond, bound, body, path: [...root, ...path], where: whereOf(path) };
    }
    const op = (["send", "isend", "recv", "irecv", "wait", "barrier", "bcast", "reduce", "allreduce"] as const).find((k) => k in e);
    if (op !== undefined) return comm(op, e, path, scope);
    if ("code" in e) return { kind: "code", code: code(e.code as string, [...path, "code"], scope) };
    report(path, "unknown element");
    return undefined;
  };

  const comm = (op: CommOp, e: Record<string, unknown>, path: KeyPath, scope: Scope): ModelNode => {
    const id = newElement(String(e[op]), op, scope, path);
    let peer: ModelExpr | undefined;
    if (op === "send" || op === "isend") peer = expr(e.to as string, [...path, "to"], scope);
    else if (op === "recv" || op === "irecv") peer = String(e.from).trim() === "any" ? undefined : expr(e.from as string, [...path, "from"], scope);
    else if (op === "bcast" || op === "reduce") peer = expr((e.root as string | undefined) ?? "0", [...path, "root"], scope);
    let req: number | undefined;
    if (op === "isend" || op === "irecv") {
      const name = String(e.request);
      req = request(name);
      requestWritten.add(name);
    }
    let reqs: number[] | undefined;
    if (op === "wait") {
      const listed = e.requests as string[];
      reqs = listed.map((r, k) => {
        waits.push({ name: r, path: [...path, "requests", k] });
        // (MPI_Waitall given one request twice is erroneous: the second would wait for nothing.)
        const first = listed.indexOf(r);
        if (first < k) report([...path, "requests", k], `request '${r}' is listed twice in wait '${String(e[op])}' (also at requests[${first}]): list each request once`);
        return request(r);
      });
    }
    return {
      kind: "comm",
      op,
      element: id,
      code: code(e.code as string | undefined, [...path, "code"], scope),
      cost: settled(expr(e.cost as string | undefined, [...path, "cost"], scope), scope, "cost"),
      unit: unitOf(e.unit as string | undefined),
      peer,
      size: settled(expr(e.size as string | undefined, [...path, "size"], scope), scope, "size"),
      tag: settled(expr(e.tag as string | undefined, [...path, "tag"], scope), scope, "tag"),
      request: req,
      requests: reqs,
    };
  };

  const scopes: Scope[] = [];
  const readDiagram = (name: string, d: DiagramSection, path: KeyPath): Diagram => {
    const isList = Array.isArray(d);
    const localsDecl = isList ? {} : ((d as { locals?: Record<string, VariableDecl> }).locals ?? {});
    const body = isList ? (d as ElementSection[]) : (d as { do: ElementSection[] }).do;
    const locals: Array<{ name: string; slot: number; type: VariableType; init: number }> = [];
    const localSlots = new Map<string, number>();
    for (const [ln, decl] of Object.entries(localsDecl)) {
      if (globalNames.has(ln)) {
        report([...path, "locals", ln], `local '${ln}' would hide the global or process variable of the same name: choose another name`);
        continue;
      }
      // why: cost functions are inlined by name before scopes apply, so the function would be read in the local's place
      // (Still declared: its assignments are not reported again as to an undeclared variable.)
      if (fns.some((f) => f.name === ln)) report([...path, "locals", ln], `local '${ln}' has the name of a cost function: an expression naming '${ln}' would call the function, not read the local; choose another name`);
      const { type, init } = declOf(decl);
      checkInit([...path, "locals", ln], ln, type, init);
      const slot = slotNames.length;
      slotNames.push(ln);
      slotTypes.push(type);
      initial.push(0);
      localSlots.set(ln, slot);
      locals.push({ name: ln, slot, type, init: convert(type, init) });
    }
    const scope = scopeFor(name, localSlots);
    scopes.push(scope);
    // why: registered before its body is read, so that a recursive call finds this very diagram
    const out: { -readonly [K in keyof Diagram]: Diagram[K] } = { name, locals, body: [], recursive: false };
    const activity = path[0] === "activities"; // why: `main` is no activity, whatever the activities are named
    if (activity) building.set(name, out);
    out.body = nodes(body, isList ? path : [...path, "do"], scope);
    if (activity) building.delete(name);
    return out;
  };

  const diagram = (name: string, refPath: KeyPath): Diagram | undefined => {
    used.add(name);
    const existing = diagrams.get(name);
    if (existing) return existing;
    const d = section.activities[name];
    if (d === undefined) {
      const near = nearestName(name, Object.keys(section.activities));
      report(refPath, `unknown activity '${name}'${near ? ` (did you mean '${near}'?)` : ""}; defined: ${Object.keys(section.activities).join(", ") || "none"}`);
      return undefined;
    }
    const open = building.get(name);
    if (open !== undefined) {
      // A call back into a diagram being read: every diagram from it to here is on the cycle.
      let onCycle = false;
      for (const [n, dg] of building) if ((onCycle ||= n === name)) dg.recursive = true;
      return open;
    }
    const out = readDiagram(name, d, ["activities", name]);
    diagrams.set(name, out);
    return out;
  };

  const main = readDiagram("main", section.main, ["main"]);
  for (const f of fns)
    if (!leftOut.has(f.name) && inliner.get(f.name) === f && !inliner.used.has(f.name)) warn(["functions", f.key], `cost function '${f.name}' is never used`);
  for (const name of Object.keys(section.activities)) if (!used.has(name)) warn(["activities", name], `activity '${name}' is never used`);
  for (const w of waits) if (!requestWritten.has(w.name)) report(w.path, `request '${w.name}' is never started by an isend or irecv`);
  for (const sc of scopes) finishScope(sc);

  const model: ProgramModel = {
    slotNames,
    slotTypes,
    initial: Float64Array.from(initial),
    elements,
    main,
    diagrams,
    requests,
    threads: section.threads,
    processes: layout.processes,
    processToNode: layout.processToNode,
    nodes: layout.nodes,
    processorsPerNode: layout.processorsPerNode,
    warnings,
  };
  if (errors.length === 0) checkProgram(model, { report: (p, m) => errors.push(new ScenarioError(m, at(p.slice(root.length)))), warn: (p, m) => warn(p.slice(root.length), m) });
  if (errors.length > 0) throw new ScenarioErrors(errors, source.file);
  return model;
}

/** What a value known at load must be, by the key it is for. */
type ConstantRule = "cost" | "size" | "tag" | "step" | "count" | "index" | "bound" | "value";

const RULE_NOUN: Readonly<Record<ConstantRule, string>> = { cost: "the cost", size: "the message size", tag: "the tag", step: "the step", count: "the count", index: "the bound", bound: "the bound", value: "the value" };

/**
 * Why `v` cannot be the value of a key of `rule`, or undefined when it can. A fraction in a loop's
 * count, bounds, step or while bound is refused only when written as a literal (`count: 2.5`): one computed from
 * workload values (`N / 2`) is truncated as C's integer arithmetic does (a step that truncates to 0
 * is refused by the run, where its loop is reached).
 */
function constantProblem(rule: ConstantRule, v: number, literal: boolean): string | undefined {
  switch (rule) {
    case "cost":
      return v < 0 ? "a cost must be a finite number >= 0" : undefined;
    case "size":
      if (v < 0) return "a message size must be a number of bytes >= 0";
      // (A computed one is left to the run: it may sit under a branch the workload never takes.)
      return Number.isInteger(v) || !literal ? undefined : `a message is a whole number of bytes: write ${Math.round(v)}`;
    case "tag":
      return Number.isInteger(v) && v >= 0 ? undefined : "a tag must be an integer >= 0";
    case "step":
      // (A computed one that truncates to 0 is left to the run, as for counts: its branch may never be taken.)
      if (literal && Math.trunc(v) === 0) return `the step of a for loop must not be 0 (the loop would never end)${v === 0 ? "" : `: ${v} truncates to 0`}`;
      return Number.isInteger(v) || !literal ? undefined : `a for loop counts in integers (C would truncate the step to ${Math.trunc(v)}): write an integer`;
    case "count":
      // (A computed one is left to the run, as for sizes; C truncates -0.5 to 0 iterations.)
      if (literal && Math.trunc(v) < 0) return "a loop count is a number of iterations, 0 or more (for a loop that may run no iteration, give from and to)";
      return Number.isInteger(v) || !literal ? undefined : `a for loop runs a whole number of iterations (C would truncate ${v} to ${Math.trunc(v)}): write an integer`;
    case "index":
      return Number.isInteger(v) || !literal ? undefined : `a for loop counts in integers (C would truncate ${v} to ${Math.trunc(v)}): write an integer`;
    case "bound":
      // (A computed one is truncated, as a count is.)
      if (literal && v < 0) return "a while loop's bound is a number of iterations, 0 or more";
      return Number.isInteger(v) || !literal ? undefined : `a while loop's bound is a whole number of iterations (C would truncate ${v} to ${Math.trunc(v)}): write an integer`;
    case "value":
      return undefined;
  }
}

function declOf(decl: VariableDecl): { type: VariableType; init: number } {
  if (typeof decl === "string") return { type: decl, init: TYPE_INIT[decl] };
  const init = decl.init === undefined ? 0 : typeof decl.init === "boolean" ? (decl.init ? 1 : 0) : decl.init;
  return { type: decl.type, init };
}

/** A value stored into a variable of `type`: C conversions (int truncates toward zero, bool is 0/1). @internal */
export function convert(type: VariableType | "system" | "workload", x: number): number {
  if (type === "int") return Math.trunc(x);
  if (type === "bool") return x !== 0 ? 1 : 0;
  return x;
}

/**
 * Compiles expressions with the workload values that are not numbers visible, and reports (once
 * per name, at `workload.<name>`) each one an expression uses: such values have no slot, so the
 * expression could only fail as naming an unknown symbol.
 */
function nonNumericUseChecker(workload: Readonly<Record<string, number | string>>, source: ProgramSource, push: (e: ScenarioError) => void) {
  const textual = nonNumericWorkloadNames(workload);
  const reported = new Set<string>();
  return {
    /** The compiled expression, or undefined when it uses a workload value that is not a number (reported). */
    compile(text: string, options: CompileOptions, user: string): CompiledExpression | undefined {
      // A global, local or parameter of the same name shadows the workload value.
      const { compiled, used } = compileWithTextualWorkload(textual, options.known ?? [], (names) => compileExpression(text, { ...options, known: names }));
      for (const n of used) {
        if (reported.has(n)) continue;
        reported.add(n);
        const pos = source.locate?.(["workload", n]) ?? source.locate?.(["workload"]);
        push(new ScenarioError(nonNumericWorkloadValue(n, workload[n], user), { file: source.file, line: pos?.line, column: pos?.column, path: ["workload", n] }));
      }
      return used.length > 0 ? undefined : compiled;
    },
  };
}
