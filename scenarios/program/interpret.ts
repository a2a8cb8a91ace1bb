/**
 * A straightforward tree interpreter of program models: it walks the diagram tree for every
 * element executed, keeps variables by name (a global environment per thread and a fresh local
 * environment per diagram entry) and evaluates expressions by name. It is the reference the
 * compiled form ({@link compileProgram}) is tested against: both must give identical simulated
 * times and timers.
 *
 * @packageDocumentation
 */
import type { Yieldable } from "../../engine/index.js";
import type { Assignment, ModelExpr, ModelNode, ProgramModel } from "./model.js";
import { convert } from "./prepare.js";
import { forTrips, whileBound, whileLimit, type ProcessThread, type ProgramRuntime } from "./runtime.js";

type Env = { globals: Record<string, number>; locals: Record<string, number> };
type Gen = Generator<Yieldable, void, unknown>;

/** The interpreter's entry: runs the main diagram of `model` for one thread. */
export function interpretProgram(model: ProgramModel): (rt: ProgramRuntime, t: ProcessThread) => Gen {
  const globalSlots = model.slotNames.map((n, i) => [n, i] as const).filter(([, i]) => !isLocal(model, i));
  return function* (rt, t) {
    const globals: Record<string, number> = {};
    // Process variables, workload values and globals, by name, from the thread's initial values.
    for (const [name, i] of globalSlots) globals[name] = t.slots[i];
    const locals: Record<string, number> = {};
    for (const l of model.main.locals) locals[l.name] = l.init;
    rt.startThread(t);
    yield* list(model.main.body, { globals, locals }, rt, t);
    yield* rt.sync(t.uid);
    rt.endThread(t);
  };
}

function isLocal(model: ProgramModel, slot: number): boolean {
  for (const d of [model.main, ...model.diagrams.values()]) if (d.locals.some((l) => l.slot === slot)) return true;
  return false;
}

function evaluate(e: ModelExpr, env: Env): number {
  return e.compiled.evaluate({ ...env.globals, ...env.locals });
}

function assign(code: readonly Assignment[], env: Env): void {
  for (const a of code) {
    const value = convert(a.type, evaluate(a.expr, env));
    if (Object.prototype.hasOwnProperty.call(env.locals, a.name)) env.locals[a.name] = value;
    else env.globals[a.name] = value;
  }
}

function* list(nodes: readonly ModelNode[], env: Env, rt: ProgramRuntime, t: ProcessThread): Gen {
  for (const n of nodes) yield* node(n, env, rt, t);
}

function* node(n: ModelNode, env: Env, rt: ProgramRuntime, t: ProcessThread): Gen {
  switch (n.kind) {
    case "action":
      rt.begin(t.uid, n.element);
      assign(n.code, env);
      if (n.cost) rt.advance(t.uid, n.element, evaluate(n.cost, env) * n.unit);
      rt.end(t.uid, n.element);
      return;
    case "code":
      assign(n.code, env);
      return;
    case "activity": {
      rt.begin(t.uid, n.element);
      if (n.diagram.recursive) rt.enterRecursive(t.uid, n.element);
      const locals: Record<string, number> = {};
      for (const l of n.diagram.locals) locals[l.name] = l.init;
      yield* list(n.diagram.body, { globals: env.globals, locals }, rt, t);
      if (n.diagram.recursive) rt.leaveRecursive(t.uid);
      rt.end(t.uid, n.element);
      return;
    }
    case "if":
      for (const arm of n.arms) {
        if (evaluate(arm.cond, env) !== 0) {
          yield* list(arm.body, env, rt, t);
          return;
        }
      }
      yield* list(n.otherwise, env, rt, t);
      return;
    case "for": {
      const ev = (e: ModelExpr | undefined) => (e === undefined ? undefined : evaluate(e, env));
      const [first, inc, trips] = forTrips(ev(n.count), ev(n.from), ev(n.to), ev(n.step), n.where);
      const scope = Object.prototype.hasOwnProperty.call(env.locals, n.variable) ? env.locals : env.globals;
      for (let i = 0; i < trips; i++) {
        scope[n.variable] = first + i * inc;
        yield* list(n.body, env, rt, t);
      }
      scope[n.variable] = first + trips * inc;
      return;
    }
    case "while": {
      const bound = whileLimit(evaluate(n.bound, env), n.where);
      for (let i = 0; evaluate(n.cond, env) !== 0; i++) {
        if (i >= bound) whileBound(n.where, bound, t.pid);
        yield* list(n.body, env, rt, t);
      }
      return;
    }
    case "comm": {
      rt.begin(t.uid, n.element);
      assign(n.code, env);
      if (n.cost) rt.advance(t.uid, n.element, evaluate(n.cost, env) * n.unit);
      const ev = (e: ModelExpr | undefined) => (e === undefined ? NaN : evaluate(e, env));
      yield* rt.communicate(t, n, ev(n.peer), ev(n.size), ev(n.tag));
      rt.end(t.uid, n.element);
      return;
    }
  }
}
