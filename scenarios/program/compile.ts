/**
 * The transformation's second half: the diagram tree compiled once into plain JavaScript
 * closures over a thread's variable slots (a `Float64Array`). Elements that cannot block run as
 * ordinary calls; only elements that may wait on MPI (and the constructs containing them) are
 * generators. Evaluation interprets nothing per element: no tree walk, no lookups by name.
 *
 * @packageDocumentation
 */
import type { Yieldable } from "../../engine/index.js";
import type { Assignment, CommNode, Diagram, ModelNode, ProgramModel } from "./model.js";
import { forTrips, whileBound, whileLimit, type ProcessThread, type ProgramRuntime } from "./runtime.js";

type Plain = (rt: ProgramRuntime, t: ProcessThread) => void;
type Blocking = (rt: ProgramRuntime, t: ProcessThread) => Generator<Yieldable, void, unknown>;
/** A compiled piece: exactly one of `plain` or `gen`. */
interface Piece {
  readonly plain?: Plain;
  readonly gen?: Blocking;
}

/** A program compiled to closures: run it with {@link runProgram}. */
export interface CompiledProgram {
  readonly model: ProgramModel;
  /** The whole main diagram for one thread. */
  readonly main: Blocking;
}

const NOOP: Plain = () => undefined;

/** Compiles `model` (once; evaluate it as often as wanted). */
export function compileProgram(model: ProgramModel): CompiledProgram {
  const steps = segments(model.main.body);
  const slots = Int32Array.from(model.main.locals.map((l) => l.slot));
  const inits = Float64Array.from(model.main.locals.map((l) => l.init));
  // The main diagram's segments run inline here: one generator less between the kernel and MPI.
  const gen: Blocking = function* (rt, t) {
    rt.startThread(t);
    for (let i = 0; i < slots.length; i++) t.slots[slots[i]] = inits[i];
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i];
      if (s.gen !== undefined) yield* s.gen(rt, t);
      else s.plain!(rt, t);
    }
    const ev = rt.syncEvent(t.uid);
    if (ev !== null) yield ev;
    rt.arrived(t.uid);
    rt.endThread(t);
  };
  return { model, main: gen };
}

function code(assigns: readonly Assignment[]): ((v: Float64Array) => void) | undefined {
  if (assigns.length === 0) return undefined;
  const fns = assigns.map((a) => {
    const f = a.expr.fn;
    const s = a.slot;
    if (a.type === "int") return (v: Float64Array) => void (v[s] = Math.trunc(f(v)));
    if (a.type === "bool") return (v: Float64Array) => void (v[s] = f(v) !== 0 ? 1 : 0);
    return (v: Float64Array) => void (v[s] = f(v));
  });
  if (fns.length === 1) return fns[0];
  return (v) => {
    for (let i = 0; i < fns.length; i++) fns[i](v);
  };
}

function list(nodes: readonly ModelNode[]): Piece {
  const segs = segments(nodes);
  if (segs.length === 0) return { plain: NOOP };
  if (segs.length === 1) return segs[0];
  const steps = segs;
  return {
    gen: function* (rt, t) {
      for (let i = 0; i < steps.length; i++) {
        const s = steps[i];
        if (s.gen !== undefined) yield* s.gen(rt, t);
        else s.plain!(rt, t);
      }
    },
  };
}

/** The pieces of a list with consecutive plain pieces fused into one closure. */
function segments(nodes: readonly ModelNode[]): Piece[] {
  const pieces = nodes.map(node);
  // Consecutive plain pieces fuse into one closure.
  const segs: Piece[] = [];
  let run: Plain[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    segs.push({ plain: seq(run) });
    run = [];
  };
  for (const p of pieces) {
    if (p.plain) run.push(p.plain);
    else {
      flush();
      segs.push(p);
    }
  }
  flush();
  return segs;
}

function seq(fs: readonly Plain[]): Plain {
  if (fs.length === 1) return fs[0];
  if (fs.length === 2) {
    const [a, b] = fs;
    return (rt, t) => {
      a(rt, t);
      b(rt, t);
    };
  }
  return (rt, t) => {
    for (let i = 0; i < fs.length; i++) fs[i](rt, t);
  };
}

function node(n: ModelNode): Piece {
  switch (n.kind) {
    case "action": {
      const el = n.element;
      const c = code(n.code);
      const cost = n.cost?.fn;
      const unit = n.unit;
      return {
        plain: (rt, t) => {
          rt.begin(t.uid, el);
          if (c !== undefined) c(t.slots);
          if (cost !== undefined) rt.advance(t.uid, el, cost(t.slots) * unit);
          rt.end(t.uid, el);
        },
      };
    }
    case "code": {
      const c = code(n.code);
      return { plain: c === undefined ? NOOP : (_rt, t) => c(t.slots) };
    }
    case "activity": {
      if (n.diagram.recursive) return recursiveActivity(n.element, n.diagram);
      const el = n.element;
      const body = list(n.diagram.body);
      const slots = Int32Array.from(n.diagram.locals.map((l) => l.slot));
      const inits = Float64Array.from(n.diagram.locals.map((l) => l.init));
      const init = (v: Float64Array): void => {
        for (let i = 0; i < slots.length; i++) v[slots[i]] = inits[i];
      };
      if (body.plain) {
        const b = body.plain;
        return {
          plain: (rt, t) => {
            rt.begin(t.uid, el);
            init(t.slots);
            b(rt, t);
            rt.end(t.uid, el);
          },
        };
      }
      const g = body.gen!;
      return {
        gen: function* (rt, t) {
          rt.begin(t.uid, el);
          init(t.slots);
          yield* g(rt, t);
          rt.end(t.uid, el);
        },
      };
    }
    case "if": {
      const conds = n.arms.map((a) => a.cond.fn);
      const bodies = [...n.arms.map((a) => list(a.body)), list(n.otherwise)];
      const k = conds.length;
      if (bodies.every((b) => b.plain)) {
        const ps = bodies.map((b) => b.plain!);
        if (k === 1) {
          const [c] = conds;
          const [a, b] = ps;
          return { plain: (rt, t) => (c(t.slots) !== 0 ? a(rt, t) : b(rt, t)) };
        }
        return {
          plain: (rt, t) => {
            const v = t.slots;
            for (let i = 0; i < k; i++) if (conds[i](v) !== 0) return ps[i](rt, t);
            ps[k](rt, t);
          },
        };
      }
      return {
        gen: function* (rt, t) {
          const v = t.slots;
          let i = 0;
          while (i < k && conds[i](v) === 0) i++;
          const b = bodies[i];
          if (b.gen !== undefined) yield* b.gen(rt, t);
          else b.plain!(rt, t);
        },
      };
    }
    case "for": {
      const body = list(n.body);
      const slot = n.slot;
      const from = n.from?.fn;
      const to = n.to?.fn;
      const step = n.step?.fn;
      const count = n.count?.fn;
      const where = n.where;
      const bounds = (v: Float64Array) =>
        forTrips(count === undefined ? undefined : count(v), from === undefined ? undefined : from(v), to === undefined ? undefined : to(v), step === undefined ? undefined : step(v), where);
      if (body.plain) {
        const b = body.plain;
        return {
          plain: (rt, t) => {
            const v = t.slots;
            const [first, inc, trips] = bounds(v);
            for (let i = 0; i < trips; i++) {
              v[slot] = first + i * inc;
              b(rt, t);
            }
            v[slot] = first + trips * inc;
          },
        };
      }
      const g = body.gen!;
      return {
        gen: function* (rt, t) {
          const v = t.slots;
          const [first, inc, trips] = bounds(v);
          for (let i = 0; i < trips; i++) {
            v[slot] = first + i * inc;
            yield* g(rt, t);
          }
          v[slot] = first + trips * inc;
        },
      };
    }
    case "while": {
      const body = list(n.body);
      const cond = n.cond.fn;
      const boundFn = n.bound.fn;
      const where = n.where;
      if (body.plain) {
        const b = body.plain;
        return {
          plain: (rt, t) => {
            const v = t.slots;
            const bound = whileLimit(boundFn(v), where);
            for (let i = 0; cond(v) !== 0; i++) {
              if (i >= bound) whileBound(where, bound, t.pid);
              b(rt, t);
            }
          },
        };
      }
      const g = body.gen!;
      return {
        gen: function* (rt, t) {
          const v = t.slots;
          const bound = whileLimit(boundFn(v), where);
          for (let i = 0; cond(v) !== 0; i++) {
            if (i >= bound) whileBound(where, bound, t.pid);
            yield* g(rt, t);
          }
        },
      };
    }
    case "comm":
      return { gen: comm(n) };
  }
}

/** The compiled body of each recursive diagram, shared by all its calls (compiled on the first). */
const recursiveBodies = new WeakMap<Diagram, { piece?: Piece }>();

/**
 * A call of a recursive diagram: its body is compiled once and called through a reference (it
 * contains this call), its locals are fresh on entry and the caller's are restored on return, and
 * the runtime counts the open entries (a recursion that does not end is an error, not a stack overflow).
 */
function recursiveActivity(el: number, diagram: Diagram): Piece {
  let holder = recursiveBodies.get(diagram);
  if (holder === undefined) {
    holder = {};
    recursiveBodies.set(diagram, holder);
    holder.piece = list(diagram.body);
  }
  const body = holder;
  const slots = Int32Array.from(diagram.locals.map((l) => l.slot));
  const inits = Float64Array.from(diagram.locals.map((l) => l.init));
  return {
    gen: function* (rt, t) {
      rt.begin(t.uid, el);
      rt.enterRecursive(t.uid, el);
      const v = t.slots;
      const saved = new Float64Array(slots.length);
      for (let i = 0; i < slots.length; i++) {
        saved[i] = v[slots[i]];
        v[slots[i]] = inits[i];
      }
      const p = body.piece!;
      if (p.gen !== undefined) yield* p.gen(rt, t);
      else p.plain!(rt, t);
      for (let i = 0; i < slots.length; i++) v[slots[i]] = saved[i];
      rt.leaveRecursive(t.uid);
      rt.end(t.uid, el);
    },
  };
}

function comm(n: CommNode): Blocking {
  const el = n.element;
  const c = code(n.code);
  const cost = n.cost?.fn;
  const unit = n.unit;
  const peer = n.peer?.fn;
  const size = n.size?.fn;
  const tag = n.tag?.fn;
  return function* (rt, t) {
    const v = t.slots;
    rt.begin(t.uid, el);
    if (c !== undefined) c(v);
    if (cost !== undefined) rt.advance(t.uid, el, cost(v) * unit);
    const p = peer === undefined ? NaN : peer(v);
    const s = size === undefined ? NaN : size(v);
    const g = tag === undefined ? NaN : tag(v);
    // rt.communicate inlined (same steps): one generator less on every MPI resume.
    if (t.tid === 0) {
      const ev = rt.syncEvent(t.uid);
      if (ev !== null) yield ev;
      rt.arrived(t.uid);
      const call = rt.mpiCall(t, n, p, s, g);
      if (call !== null) yield* call;
      rt.arrived(t.uid);
    }
    rt.end(t.uid, el);
  };
}
