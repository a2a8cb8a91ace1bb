/**
 * Static checks of a program model, run once at load for the machine layout at hand:
 *
 * - conditions that are constant as written (`if: false`, `if: 1 > 2`) and repeated conditions
 *   in one `if`/`elif` chain: their branches are unreachable (or the rest of the chain is);
 * - collectives under control flow that depends on the process (`pid`, `uid`, `tid`, `node`, or a
 *   variable computed from them): processes that skip the collective would hang the others;
 *   likewise a `bcast`/`reduce` root that differs between processes;
 * - branches that constant propagation shows are never taken (`GV = 1` then `if: GV == 0`):
 *   warnings, as the model may mean it (paper 003's sample model does);
 * - a `for` loop's variable assigned in its body (or in an activity it calls): the iterations are
 *   fixed at entry, as a Fortran DO, so the assignment would not change them, as it would in C;
 * - sends and receives that only threads other than 0 reach (MPI is funnelled through thread 0);
 * - point-to-point peers known at load time (expressions of pid, np, workload values ...),
 *   evaluated for every process under the conditions known at load time: a peer out of range, a
 *   send no process could receive, a receive no process could satisfy.
 *
 * @packageDocumentation
 */
import { formatPath, type KeyPath } from "../lang/index.js";
import { COLLECTIVE_OPS, setThreadSlots, type CommNode, type ModelExpr, type ModelNode, type ProgramModel } from "./model.js";

/** Where findings go. */
export interface CheckSink {
  report(path: KeyPath, message: string): void;
  warn(path: KeyPath, message: string): void;
}

const PROCESS_DEPENDENT = ["pid", "uid", "tid", "node"];

type Guard = { readonly expr: ModelExpr; readonly want: boolean } | { readonly dynamic: true };

interface Site {
  readonly node: CommNode;
  readonly guards: readonly Guard[];
}

/** Runs every static check on `model`, reporting through `sink`. */
export function checkProgram(model: ProgramModel, sink: CheckSink): void {
  const staticNames = new Set<string>(model.slotNames.filter((_, i) => model.slotTypes[i] === "system" || model.slotTypes[i] === "workload"));
  checkConditions(model, sink);
  checkLoopVariables(model, sink);
  warnUnreachable(model, sink);
  const tainted = processDependentVariables(model);
  checkCollectives(model, tainted, sink);
  const sites: Site[] = [];
  const walk = (list: readonly ModelNode[], guards: readonly Guard[], stack: readonly string[]): void => {
    for (const n of list) {
      switch (n.kind) {
        case "comm":
          sites.push({ node: n, guards });
          break;
        case "activity":
          if (!stack.includes(n.diagram.name)) walk(n.diagram.body, guards, [...stack, n.diagram.name]);
          break;
        case "if": {
          const before: Guard[] = [];
          for (const arm of n.arms) {
            walk(arm.body, [...guards, ...before, { expr: arm.cond, want: true }], stack);
            before.push({ expr: arm.cond, want: false });
          }
          walk(n.otherwise, [...guards, ...before], stack);
          break;
        }
        case "for":
        case "while":
          walk(n.body, [...guards, { dynamic: true }], stack);
          break;
        default:
          break;
      }
    }
  };
  walk(model.main.body, [], []);
  checkPeers(model, sites, staticNames, sink);
}

/** Whether arm `i` of `n` has a later arm or an else after it. */
function followed(n: Extract<ModelNode, { kind: "if" }>, i: number): boolean {
  return i < n.arms.length - 1 || n.otherwise.length > 0;
}

function isConstant(e: ModelExpr): boolean {
  return e.compiled.variables.length === 0;
}

function checkConditions(model: ProgramModel, sink: CheckSink): void {
  const visit = (list: readonly ModelNode[]): void => {
    for (const n of list) {
      if (n.kind === "if") {
        const seen = new Map<string, ModelExpr>();
        for (const [i, arm] of n.arms.entries()) {
          if (isConstant(arm.cond)) {
            const v = arm.cond.fn(model.initial) !== 0;
            const tail = !v ? "its branch is unreachable" : followed(n, i) ? "the branches after it are unreachable" : "its branch is always taken (write its elements without the if)";
            sink.report(arm.cond.path, `condition ${JSON.stringify(arm.cond.text)} is always ${v}: ${tail}`);
          }
          const key = arm.cond.inlined.replace(/\s+/g, "");
          const prev = seen.get(key);
          if (prev) sink.report(arm.cond.path, `condition ${JSON.stringify(arm.cond.text)} repeats an earlier condition of the same chain: its branch is unreachable`);
          else seen.set(key, arm.cond);
          visit(arm.body);
        }
        visit(n.otherwise);
      } else if (n.kind === "while") {
        if (isConstant(n.cond)) {
          const v = n.cond.fn(model.initial) !== 0;
          sink.report(n.cond.path, v ? `condition ${JSON.stringify(n.cond.text)} is always true: the loop always runs into its bound` : `condition ${JSON.stringify(n.cond.text)} is always false: the loop body is unreachable`);
        }
        visit(n.body);
      } else if (n.kind === "for") visit(n.body);
    }
  };
  visit(model.main.body);
  for (const d of model.diagrams.values()) visit(d.body);
}

/**
 * Refuses an assignment to a `for` loop's variable inside the loop: in its body, in a loop nested
 * there (as that loop's variable), or in an activity the body calls (a global; an activity's locals
 * are its own, a recursive entry's too). Why: the iterations are fixed at entry and the variable
 * is set before each one, as a Fortran DO does, so the assignment changes no iteration, while C's
 * `for` would skip or repeat.
 * Reported at the assignment (or the nested loop), once for each, naming the loop.
 */
function checkLoopVariables(model: ProgramModel, sink: CheckSink): void {
  const reported = new Set<string>();
  const inLoop = (loop: Extract<ModelNode, { kind: "for" }>, list: readonly ModelNode[], stack: readonly string[]): void => {
    const refuse = (path: KeyPath, what: string): void => {
      const key = formatPath(path);
      if (reported.has(key)) return;
      reported.add(key);
      sink.report(path, `${what} the variable '${loop.variable}' of the enclosing for loop (${formatPath(loop.path)}), whose iterations are fixed at entry and which sets it before each one (as a Fortran DO): setting it there would not change the iterations, as it would in C; use another variable, or a while loop`);
    };
    for (const n of list) {
      switch (n.kind) {
        case "action":
        case "code":
        case "comm":
          for (const a of n.code) if (a.slot === loop.slot) refuse(a.expr.path, "assigns");
          break;
        case "if":
          for (const arm of n.arms) inLoop(loop, arm.body, stack);
          inLoop(loop, n.otherwise, stack);
          break;
        case "for":
          if (n.slot === loop.slot) refuse([...n.path, "for"], "loops over");
          inLoop(loop, n.body, stack);
          break;
        case "while":
          inLoop(loop, n.body, stack);
          break;
        case "activity":
          // An activity whose locals hold the loop's variable (the loop's own diagram, entered
          // again by recursion) sets its own copy: each entry has fresh locals.
          if (!stack.includes(n.diagram.name) && !n.diagram.locals.some((l) => l.slot === loop.slot)) inLoop(loop, n.diagram.body, [...stack, n.diagram.name]);
          break;
      }
    }
  };
  const visit = (list: readonly ModelNode[]): void => {
    for (const n of list) {
      if (n.kind === "for") {
        inLoop(n, n.body, []);
        visit(n.body);
      } else if (n.kind === "while") visit(n.body);
      else if (n.kind === "if") {
        for (const arm of n.arms) visit(arm.body);
        visit(n.otherwise);
      }
    }
  };
  visit(model.main.body);
  for (const d of model.diagrams.values()) visit(d.body);
}

/** Variables assigned anywhere in `list` (including called activities and loop variables). */
function assignedIn(list: readonly ModelNode[], out: Set<string>, stack: readonly string[] = []): Set<string> {
  for (const n of list) {
    switch (n.kind) {
      case "action":
      case "code":
      case "comm":
        for (const a of n.code) out.add(a.name);
        break;
      case "if":
        for (const arm of n.arms) assignedIn(arm.body, out, stack);
        assignedIn(n.otherwise, out, stack);
        break;
      case "for":
        out.add(n.variable);
        assignedIn(n.body, out, stack);
        break;
      case "while":
        assignedIn(n.body, out, stack);
        break;
      case "activity":
        if (!stack.includes(n.diagram.name)) assignedIn(n.diagram.body, out, [...stack, n.diagram.name]);
        break;
    }
  }
  return out;
}

/**
 * Constant propagation over variables set from constants (not process variables or workload
 * values, which differ between runs): warns about branches that can never be taken.
 */
function warnUnreachable(model: ProgramModel, sink: CheckSink): void {
  type Env = Map<string, number>;
  const warned = new Set<ModelExpr>();
  const known = (e: ModelExpr, env: Env) => e.compiled.variables.every((v) => env.has(v));
  const value = (e: ModelExpr, env: Env): number | undefined => {
    try {
      return e.compiled.evaluate(Object.fromEntries(env));
    } catch {
      return undefined;
    }
  };
  const facts = (e: ModelExpr, env: Env) => e.compiled.variables.map((v) => `${v} = ${env.get(v)}`).join(", ");
  const warn = (e: ModelExpr, env: Env, always: boolean, more = true) => {
    if (warned.has(e) || e.compiled.variables.length === 0) return;
    warned.add(e);
    const tail = !always ? "its branch is never taken" : more ? "the branches after it are never taken" : "its branch is always taken";
    sink.warn(e.path, `condition ${JSON.stringify(e.text)} is always ${always} here (${facts(e, env)}): ${tail}`);
  };
  const same = (a: Env, b: Env): Env => new Map([...a].filter(([k, v]) => b.get(k) === v));
  const walk = (list: readonly ModelNode[], env: Env, stack: readonly string[]): Env => {
    for (const n of list) {
      switch (n.kind) {
        case "action":
        case "code":
        case "comm":
          for (const a of n.code) {
            const v = known(a.expr, env) ? value(a.expr, env) : undefined;
            if (v === undefined) env.delete(a.name);
            else env.set(a.name, a.type === "int" ? Math.trunc(v) : a.type === "bool" ? (v !== 0 ? 1 : 0) : v);
          }
          break;
        case "if": {
          let out: Env | undefined;
          let decided = false;
          for (const [i, arm] of n.arms.entries()) {
            const v = known(arm.cond, env) ? value(arm.cond, env) : undefined;
            if (v !== undefined && v === 0) {
              warn(arm.cond, env, false);
              continue;
            }
            const after = walk(arm.body, new Map(env), stack);
            out = out === undefined ? after : same(out, after);
            if (v !== undefined) {
              warn(arm.cond, env, true, followed(n, i));
              decided = true;
              break;
            }
          }
          if (!decided) {
            const after = walk(n.otherwise, new Map(env), stack);
            out = out === undefined ? after : same(out, after);
          }
          env = out ?? env;
          break;
        }
        case "for":
        case "while": {
          for (const v of assignedIn(n.body, new Set(n.kind === "for" ? [n.variable] : []))) env.delete(v);
          walk(n.body, new Map(env), stack);
          break;
        }
        case "activity": {
          // A recursive diagram runs its body at several depths, each after what the deeper
          // entries assigned: those variables are unknown at its entry and after a call back into it.
          const deeper = n.diagram.recursive ? assignedIn(n.diagram.body, new Set()) : new Set<string>();
          if (stack.includes(n.diagram.name)) {
            for (const v of deeper) env.delete(v);
            break;
          }
          const saved = n.diagram.locals.map((l) => [l.name, env.get(l.name)] as const);
          for (const v of deeper) env.delete(v);
          for (const l of n.diagram.locals) env.set(l.name, l.init);
          env = walk(n.diagram.body, env, [...stack, n.diagram.name]);
          for (const [name, v] of saved) {
            if (v === undefined) env.delete(name);
            else env.set(name, v);
          }
          break;
        }
      }
    }
    return env;
  };
  const env: Env = new Map();
  model.slotNames.forEach((name, i) => {
    const t = model.slotTypes[i];
    if ((t === "int" || t === "double" || t === "bool") && !model.main.locals.some((l) => l.slot === i) && ![...model.diagrams.values()].some((d) => d.locals.some((l) => l.slot === i))) env.set(name, model.initial[i]);
  });
  for (const l of model.main.locals) env.set(l.name, l.init);
  walk(model.main.body, env, ["main"]);
}

/**
 * Variables whose value may differ between processes (data or control dependence on pid, uid, tid,
 * node). An activity's assignments depend on the control context of every place that calls it
 * (an activity called under `if: pid == 0` sets its globals on process 0 only).
 */
function processDependentVariables(model: ProgramModel): Set<string> {
  // (target, symbols it depends on) for every assignment, including the control context.
  const deps: Array<{ target: string; from: Set<string> }> = [];
  // The symbols of the control context of each activity's calls, grown until no call adds one.
  const callContext = new Map<string, Set<string>>();
  let grown = false;
  const visit = (list: readonly ModelNode[], ctrl: readonly string[]): void => {
    for (const n of list) {
      switch (n.kind) {
        case "action":
        case "code":
        case "comm":
          for (const a of n.code) deps.push({ target: a.name, from: new Set([...a.expr.compiled.variables, ...ctrl]) });
          break;
        case "if": {
          let c = [...ctrl];
          for (const arm of n.arms) {
            c = [...c, ...arm.cond.compiled.variables];
            visit(arm.body, c);
          }
          visit(n.otherwise, c);
          break;
        }
        case "for": {
          const c = [...ctrl, ...[n.from, n.to, n.step, n.count].flatMap((e) => e?.compiled.variables ?? [])];
          deps.push({ target: n.variable, from: new Set(c) });
          visit(n.body, c);
          break;
        }
        case "while": {
          const c = [...ctrl, ...n.cond.compiled.variables, ...n.bound.compiled.variables];
          visit(n.body, c);
          break;
        }
        case "activity": {
          const context = callContext.get(n.diagram.name) ?? new Set<string>();
          callContext.set(n.diagram.name, context);
          for (const c of ctrl)
            if (!context.has(c)) {
              context.add(c);
              grown = true;
            }
          break;
        }
      }
    }
  };
  // why: a call context reaches the activities that activity calls only on the next pass (sets only grow: it ends)
  do {
    grown = false;
    deps.length = 0;
    visit(model.main.body, []);
    for (const d of model.diagrams.values()) visit(d.body, [...(callContext.get(d.name) ?? [])]);
  } while (grown);
  const tainted = new Set(PROCESS_DEPENDENT);
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of deps) {
      if (tainted.has(d.target)) continue;
      for (const s of d.from)
        if (tainted.has(s)) {
          tainted.add(d.target);
          changed = true;
          break;
        }
    }
  }
  return tainted;
}

/**
 * The collectives a list of nodes makes, in order, as `op root` (the root's expression text), or
 * undefined when a collective sits inside a branch, a loop or an activity of the list (their
 * number then depends on more than the list).
 */
function collectiveSequence(list: readonly ModelNode[]): string[] | undefined {
  const out: string[] = [];
  for (const n of list) {
    if (n.kind === "comm") {
      if (COLLECTIVE_OPS.has(n.op)) out.push(`${n.op} ${n.peer?.text ?? ""}`);
    } else if (n.kind === "if" || n.kind === "for" || n.kind === "while" || n.kind === "activity") {
      if (makesCollectives(n)) return undefined;
    }
  }
  return out;
}

/** Whether a node makes a collective anywhere inside it (activities through their diagrams, once each). */
function makesCollectives(n: ModelNode, seen: Set<string> = new Set()): boolean {
  switch (n.kind) {
    case "comm":
      return COLLECTIVE_OPS.has(n.op);
    case "if":
      return n.arms.some((a) => a.body.some((x) => makesCollectives(x, seen))) || n.otherwise.some((x) => makesCollectives(x, seen));
    case "for":
    case "while":
      return n.body.some((x) => makesCollectives(x, seen));
    case "activity":
      if (seen.has(n.diagram.name)) return false;
      seen.add(n.diagram.name);
      return n.diagram.body.some((x) => makesCollectives(x, seen));
    default:
      return false;
  }
}

/** A thread's variables as the static checks evaluate them, and how to evaluate an expression on them. */
interface ThreadSlots {
  /** Sets the system variables of thread `tid` of process `pid`. */
  setThread(pid: number, tid: number): void;
  /** The expression's value, or undefined when it throws. */
  evalSafe(e: ModelExpr): number | undefined;
}

/** The initial values of `model`'s variables, with the system variables of a thread set on demand. */
function threadSlots(model: ProgramModel): ThreadSlots {
  const slots = Float64Array.from(model.initial);
  return {
    setThread: (pid, tid) => setThreadSlots(model, slots, pid, tid),
    evalSafe(e) {
      try {
        return e.fn(slots);
      } catch {
        return undefined;
      }
    },
  };
}

/** Whether the thread whose variables `evalSafe` reads reaches `site`, by the guards known at load time. */
function siteReach(site: Site, isStatic: (e: ModelExpr | undefined) => boolean, evalSafe: (e: ModelExpr) => number | undefined): number {
  let r = REACH_YES;
  for (const g of site.guards) {
    if ("dynamic" in g || !isStatic(g.expr)) {
      r = REACH_MAYBE;
      continue;
    }
    const v = evalSafe(g.expr);
    if (v === undefined) r = REACH_MAYBE;
    else if ((v !== 0) !== g.want) return REACH_NO;
  }
  return r;
}

/**
 * Sends and receives that thread 0 of no process reaches but another thread does (under a
 * condition on `tid` or `uid`): MPI is funnelled through thread 0, so the other threads run the
 * element's cost without communicating, and the message would never move. Judged per element over
 * all its sites (an activity called under `tid == 1` and, elsewhere, by thread 0 is reached by
 * thread 0), and reported once. `reach` is thread 0's, per site and process. (Collectives under
 * such conditions are refused by `checkCollectives`.)
 */
function checkThreadOnlySites(model: ProgramModel, sites: readonly Site[], reach: Uint8Array, isStatic: (e: ModelExpr | undefined) => boolean, sink: CheckSink): void {
  const np = model.processes;
  if (model.threads < 2) return;
  const thread = threadSlots(model);
  // Per element: whether thread 0 of some process may reach one of its sites, and a site of it only other threads reach.
  const byThread0 = new Set<number>();
  const otherOnly = new Map<number, { pid: number; tid: number }>();
  for (let k = 0; k < sites.length; k++) {
    const nd = sites[k].node;
    if (nd.op !== "send" && nd.op !== "isend" && nd.op !== "recv" && nd.op !== "irecv") continue;
    let reached = false;
    for (let p = 0; p < np && !reached; p++) reached = reach[k * np + p] !== REACH_NO;
    if (reached) {
      byThread0.add(nd.element);
      continue;
    }
    if (otherOnly.has(nd.element)) continue;
    for (let p = 0; p < np && !otherOnly.has(nd.element); p++) {
      for (let t = 1; t < model.threads; t++) {
        thread.setThread(p, t);
        if (siteReach(sites[k], isStatic, thread.evalSafe) !== REACH_NO) {
          otherOnly.set(nd.element, { pid: p, tid: t });
          break;
        }
      }
    }
  }
  for (const [element, other] of otherOnly) {
    if (byThread0.has(element)) continue;
    const el = model.elements[element];
    const op = sites.find((x) => x.node.element === element)!.node.op;
    sink.report(
      el.path,
      `${op} '${el.name}' is reached by thread ${other.tid} of process ${other.pid} but by thread 0 of no process; MPI is funnelled through thread 0 (the other threads run the element's cost without communicating), so it would never ${op === "recv" || op === "irecv" ? "receive" : "send"}: put it where thread 0 runs it`,
    );
  }
}

/** Whether every branch makes the same collectives, at least one, in the same order with the same roots. */
function sameCollectives(branches: readonly (readonly ModelNode[])[]): boolean {
  const first = collectiveSequence(branches[0] ?? []);
  if (first === undefined || first.length === 0) return false;
  return branches.every((b) => {
    const seq = collectiveSequence(b);
    return seq !== undefined && seq.length === first.length && seq.every((x, i) => x === first[i]);
  });
}

function checkCollectives(model: ProgramModel, tainted: Set<string>, sink: CheckSink): void {
  const reported = new Set<number>();
  const recalled = new Set<string>(); // recursive diagrams visited again under the cause of a call back into them
  const dependsOnProcess = (e: ModelExpr | undefined): string | undefined => e?.compiled.variables.find((v) => tainted.has(v));
  const visit = (list: readonly ModelNode[], cause: string | undefined, stack: readonly string[]): void => {
    for (const n of list) {
      switch (n.kind) {
        case "comm":
          if (!COLLECTIVE_OPS.has(n.op) || reported.has(n.element)) break;
          if (cause !== undefined) {
            reported.add(n.element);
            sink.report(model.elements[n.element].path, `collective ${n.op} '${model.elements[n.element].name}' is inside ${cause}: processes that skip it would leave the others waiting forever`);
          } else if ((n.op === "bcast" || n.op === "reduce") && dependsOnProcess(n.peer) !== undefined) {
            reported.add(n.element);
            sink.report(n.peer!.path, `the root of ${n.op} '${model.elements[n.element].name}' depends on '${dependsOnProcess(n.peer)}': every process must name the same root`);
          }
          break;
        case "activity":
          if (!stack.includes(n.diagram.name)) visit(n.diagram.body, cause, [...stack, n.diagram.name]);
          // why: how often a call back into a diagram runs its collectives then depends on the process too
          else if (cause !== undefined && !recalled.has(n.diagram.name)) {
            recalled.add(n.diagram.name);
            visit(n.diagram.body, cause, stack);
          }
          break;
        case "if": {
          // Branches that make the same collectives in the same order (the root's in one, the
          // others' in the other) keep every process in step, whatever the condition.
          const inStep = cause === undefined && sameCollectives([...n.arms.map((a) => a.body), n.otherwise]);
          let c = cause;
          for (const arm of n.arms) {
            const v = dependsOnProcess(arm.cond);
            if (c === undefined && v !== undefined && !inStep) c = `a branch whose condition ${JSON.stringify(arm.cond.text)} depends on '${v}'`;
            visit(arm.body, c, stack);
          }
          visit(n.otherwise, c, stack);
          break;
        }
        case "for": {
          const e = [n.from, n.to, n.step, n.count].find((x) => dependsOnProcess(x) !== undefined);
          visit(n.body, cause ?? (e ? `a loop whose bounds (${JSON.stringify(e.text)}) depend on '${dependsOnProcess(e)}'` : undefined), stack);
          break;
        }
        case "while": {
          const e = [n.cond, n.bound].find((x) => dependsOnProcess(x) !== undefined);
          visit(n.body, cause ?? (e ? `a loop whose condition or bound (${JSON.stringify(e.text)}) depends on '${dependsOnProcess(e)}'` : undefined), stack);
          break;
        }
        default:
          break;
      }
    }
  };
  visit(model.main.body, undefined, ["main"]);
}

const REACH_NO = 0;
const REACH_YES = 1;
const REACH_MAYBE = 2;

function checkPeers(model: ProgramModel, sites: readonly Site[], staticNames: Set<string>, sink: CheckSink): void {
  const np = model.processes;
  const isStatic = (e: ModelExpr | undefined): boolean => e !== undefined && e.compiled.variables.every((v) => staticNames.has(v));
  const { setThread, evalSafe } = threadSlots(model);
  // Per site and process: reach and static peer / tag (NaN when not known at load time).
  const n = sites.length;
  const reach = new Uint8Array(n * np);
  const peer = new Float64Array(n * np).fill(Number.NaN);
  const tag = new Float64Array(n * np).fill(Number.NaN);
  for (let p = 0; p < np; p++) {
    // Thread 0: the one that communicates (MPI is funnelled through it).
    setThread(p, 0);
    for (let k = 0; k < n; k++) {
      const site = sites[k];
      reach[k * np + p] = siteReach(site, isStatic, evalSafe);
      const nd = site.node;
      if (isStatic(nd.peer)) peer[k * np + p] = evalSafe(nd.peer!) ?? Number.NaN;
      tag[k * np + p] = nd.tag === undefined ? 0 : isStatic(nd.tag) ? (evalSafe(nd.tag) ?? Number.NaN) : Number.NaN;
    }
  }
  checkThreadOnlySites(model, sites, reach, isStatic, sink);
  const role = (op: string): "send" | "recv" | "root" | undefined =>
    op === "send" || op === "isend" ? "send" : op === "recv" || op === "irecv" ? "recv" : op === "bcast" || op === "reduce" ? "root" : undefined;
  const bad = new Set<number>();
  const describePeer = (r: "send" | "recv" | "root") => (r === "send" ? "destination" : r === "recv" ? "source" : "root");
  // Range.
  for (let k = 0; k < n; k++) {
    const nd = sites[k].node;
    const r = role(nd.op);
    if (r === undefined || !isStatic(nd.peer)) continue;
    const el = model.elements[nd.element];
    let firstSure = -1;
    let reachable = 0;
    let outside = 0;
    for (let p = 0; p < np; p++) {
      const rc = reach[k * np + p];
      if (rc === REACH_NO) continue;
      reachable++;
      const v = peer[k * np + p];
      const ok = Number.isInteger(v) && v >= 0 && v < np;
      if (!ok) {
        outside++;
        if (rc === REACH_YES && firstSure < 0) firstSure = p;
      }
    }
    const p = firstSure >= 0 ? firstSure : outside > 0 && outside === reachable ? (() => { for (let q = 0; q < np; q++) if (reach[k * np + q] !== REACH_NO) return q; return 0; })() : -1;
    if (p >= 0) {
      bad.add(k);
      const v = peer[k * np + p];
      sink.report(nd.peer!.path, `${nd.op} '${el.name}': ${describePeer(r)} ${JSON.stringify(nd.peer!.text)} is ${v} on process ${p}, ${Number.isInteger(v) ? `outside [0, ${np})` : `not an integer process id (0 to ${np - 1})`}${firstSure >= 0 ? "" : " (for every process that can reach it)"}`);
    }
  }
  // Matching of point-to-point sites with peers known at load time.
  const sendsTo: Array<Array<{ from: number; tag: number }>> = Array.from({ length: np }, () => []);
  const anyDestFrom = new Uint8Array(np);
  const recvsAt: Array<Array<{ from: number; tag: number }>> = Array.from({ length: np }, () => []);
  for (let k = 0; k < n; k++) {
    const nd = sites[k].node;
    const r = role(nd.op);
    if (r !== "send" && r !== "recv") continue;
    for (let p = 0; p < np; p++) {
      if (reach[k * np + p] === REACH_NO) continue;
      const v = peer[k * np + p];
      const t = tag[k * np + p];
      if (r === "send") {
        if (Number.isNaN(v)) anyDestFrom[p] = 1;
        else if (v >= 0 && v < np) sendsTo[v].push({ from: p, tag: t });
      } else recvsAt[p].push({ from: Number.isNaN(v) || nd.peer === undefined ? -1 : v, tag: t });
    }
  }
  const tagsMatch = (a: number, b: number) => Number.isNaN(a) || Number.isNaN(b) || a === b;
  for (let k = 0; k < n; k++) {
    if (bad.has(k)) continue;
    const nd = sites[k].node;
    const r = role(nd.op);
    if ((r !== "send" && r !== "recv") || !isStatic(nd.peer)) continue;
    const el = model.elements[nd.element];
    for (let p = 0; p < np; p++) {
      if (reach[k * np + p] !== REACH_YES) continue;
      const q = peer[k * np + p];
      const t = tag[k * np + p];
      if (!(Number.isInteger(q) && q >= 0 && q < np)) continue;
      if (r === "send") {
        if (recvsAt[q].some((x) => (x.from === -1 || x.from === p) && tagsMatch(x.tag, t))) continue;
        sink.report(model.elements[nd.element].path, `send '${el.name}' from process ${p} to ${q}${Number.isNaN(t) ? "" : ` (tag ${t})`}: process ${q} has no receive that could match it`);
      } else {
        if (anyDestFrom[q] === 1) continue;
        if (sendsTo[p].some((x) => x.from === q && tagsMatch(x.tag, t))) continue;
        sink.report(model.elements[nd.element].path, `receive '${el.name}' on process ${p} from ${q}${Number.isNaN(t) ? "" : ` (tag ${t})`}: process ${q} has no send that could match it`);
      }
      break;
    }
  }
}
